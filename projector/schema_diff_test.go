package projector

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/testfiles"
)

// badLines returns lines that do not decode: every invalid line of the events package's fuzz
// corpora, and corruptions of good, a vector line, one per way a line goes bad (events-v1.md §8:
// not JSON, cut short, a bad field in the envelope or in the data, an unknown type or field, too
// deep, not UTF-8).
func badLines(t *testing.T, good []byte) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	files, err := filepath.Glob(filepath.Join("..", "events", "testdata", "fuzz", "Fuzz*", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fuzz corpus: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		body, ok := strings.CutPrefix(string(b), "go test fuzz v1\n[]byte(")
		if !ok {
			continue
		}
		s, err := strconv.Unquote(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(body), ")")))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for i, line := range bytes.Split([]byte(s), []byte("\n")) {
			if _, err := events.Parse(line); err != nil && len(bytes.TrimSpace(line)) > 0 {
				out[fmt.Sprintf("%s/%s#%d", filepath.Base(filepath.Dir(f)), filepath.Base(f), i)] = line
			}
		}
	}
	e, err := events.Parse(good)
	if err != nil {
		t.Fatal(err)
	}
	swap := func(old, new string) []byte {
		if !bytes.Contains(good, []byte(old)) {
			t.Fatalf("%s is not in %s", old, good)
		}
		return bytes.Replace(good, []byte(old), []byte(new), 1)
	}
	for name, line := range map[string][]byte{
		"not JSON":          []byte("this is not json"),
		"cut short":         good[:len(good)/2],
		"cut after seq":     good[:bytes.Index(good, []byte(`,"at"`))],
		"bad id":            swap(`"id":"`+e.ID+`"`, `"id":"x"`),
		"bad table":         swap(`"table":"`+e.Table+`"`, `"table":"a b"`),
		"bad at":            swap(`"at":"`+e.At+`"`, `"at":"yesterday"`),
		"bad prev":          swap(`"prev":"`+e.Prev+`"`, `"prev":"zz"`),
		"unknown type":      swap(`"type":"`+string(e.Type)+`"`, `"type":"bet.made"`),
		"unknown field":     swap(`"data":{`, `"x":1,"data":{`),
		"bad data":          swap(`"data":{`, `"data":{"nope":[],`),
		"not UTF-8":         swap(`"table":"`+e.Table+`"`, "\"table\":\"\xff\xfe\""),
		"too deep":          swap(`"data":{`, `"data":{"x":`+strings.Repeat("[", events.MaxDepth+1)+strings.Repeat("]", events.MaxDepth+1)+`,`),
		"other hand named":  []byte(`{"hand":"01900000-0000-7000-8000-0000000000aa","seq":3,`),
		"seq only":          []byte(`{"seq":4,"garbage`),
		"JSON not a object": []byte(`[1,2,3]`),
	} {
		if _, err := events.Parse(line); err == nil {
			t.Fatalf("%s: %s decodes", name, line)
		}
		out[name] = line
	}
	return out
}

// schemaOf is the log.schema finding of a bad line as one string: its hand, table and seq.
func schemaOf(f finding.Finding) string {
	return fmt.Sprintf("%s %s seq %d %s", f.Hand, f.Table, f.Seq, f.Code)
}

// A line that does not decode gives the same finding on the dashboard as on the command line:
// for every bad line of the fuzz corpora and every corruption of a vector line, put in the
// middle of a vector table's hand (in place of one of its lines, and as a line of its own),
// `fechado audit`'s auditor (audit.AuditReader) and the projector's stored findings attribute it
// to the same hand, table and seq with the same code, because both read it through
// events.ParseLenient and place it with audit.Place; and every other finding of the log is the
// same too, the message's place in the file (fileLine) aside.
func TestBadLinesFromAFileSameFindingAsTheCLI(t *testing.T) {
	ctx := context.Background()
	b, err := os.ReadFile(testfiles.File(t, "vectors", "table-std-draw.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	k := 12 // a player.acted or card.dealt in the middle of the first hand
	if e, err := events.Parse(lines[k]); err != nil || e.Seq < 3 || e.Type == events.HandEndedType {
		t.Fatalf("line %d: %v", k+1, err)
	}
	bad := badLines(t, lines[k])
	names := make([]string, 0, len(bad))
	for name := range bad {
		names = append(names, name)
	}
	slices.Sort(names)
	if len(names) < 20 {
		t.Fatalf("only %d bad lines", len(names))
	}
	if testing.Short() { // every third bad line
		short := names[:0]
		for i := 0; i < len(names); i += 3 {
			short = append(short, names[i])
		}
		names = short
	}
	compared := 0
	for _, name := range names {
		line := bad[name]
		parseErr := func() string { _, err := events.Parse(line); return err.Error() }()
		for _, how := range []string{"replaced", "inserted"} {
			log := slices.Clone(lines)
			if how == "replaced" {
				log[k] = line
			} else {
				log = slices.Insert(log, k+1, line)
			}
			var cli []string
			a := audit.New(func(f finding.Finding) {
				if f.Code == finding.LogSchema && strings.HasPrefix(f.Message, "this line is not a valid event") {
					cli = append(cli, schemaOf(f))
				}
			})
			joined := append(bytes.Join(log, []byte("\n")), '\n')
			if _, err := audit.AuditReader(a, events.NewReader(bytes.NewReader(joined), "log")); err != nil {
				t.Fatal(err)
			}
			a.Close()

			path := writeLines(t, t.TempDir(), log)
			db := openDB(t)
			if _, err := New(db, &FileSource{Path: path}).CatchUp(ctx); err != nil {
				t.Fatalf("%s, %s: %v", name, how, err)
			}
			rows, err := db.Query(`SELECT hand_id, table_id, seq, code, message FROM findings WHERE code = 'log.schema'`)
			if err != nil {
				t.Fatal(err)
			}
			var dash []string
			for rows.Next() {
				var f finding.Finding
				var msg string
				if err := rows.Scan(&f.Hand, &f.Table, &f.Seq, &f.Code, &msg); err != nil {
					t.Fatal(err)
				}
				if msg == "this line is not a valid event: "+parseErr {
					dash = append(dash, schemaOf(f))
				}
			}
			if err := errors.Join(rows.Err(), rows.Close()); err != nil {
				t.Fatal(err)
			}
			if len(cli) != 1 || !slices.Equal(cli, dash) {
				t.Errorf("%s (%s): the CLI reports %q, the projector stored %q\nline: %.200s", name, how, cli, dash, line)
			}
			// And every other finding of the log: the hand is judged from the bad line on as
			// the audit of the file judges it (audit.JudgeLines).
			if all, stored := cliVerdict(t, log), storedVerdict(t, db); !slices.Equal(all, stored) {
				t.Errorf("%s (%s): the CLI's findings\n%s\nthe projector's\n%s\nline: %.200s", name, how,
					strings.Join(all, "\n"), strings.Join(stored, "\n"), line)
			}
			compared++
		}
	}
	if compared != 2*len(names) {
		t.Fatalf("%d logs compared, want %d", compared, 2*len(names))
	}
}
