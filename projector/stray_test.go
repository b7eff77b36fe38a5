package projector

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"regexp"
	"slices"
	"testing"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/audittest"
	"github.com/fechado/fechado/internal/testfiles"
	"github.com/fechado/fechado/recorder"
)

// fileLine is where `fechado audit` says a line that is not a valid event lies in its file
// (events.Error): the projector reads a stream and names no file.
var fileLine = regexp.MustCompile(`(this line is not a valid event: )[^ "]*:[0-9]+: `)

// cliVerdict returns the findings of the audit of lines as a file (audit.AuditReader), as audit
// --json writes them, without fileLine, sorted.
func cliVerdict(t *testing.T, lines [][]byte) []string {
	t.Helper()
	var out []string
	a := audit.New(func(f finding.Finding) { out = append(out, fileLine.ReplaceAllString(string(f.JSON()), "$1")) })
	joined := append(bytes.Join(lines, []byte("\n")), '\n')
	if _, err := audit.AuditReader(a, events.NewReader(bytes.NewReader(joined), "log")); err != nil {
		t.Fatal(err)
	}
	a.Close()
	slices.Sort(out)
	return out
}

// storedVerdict returns the findings stored in db, as audit --json writes them, sorted.
func storedVerdict(t *testing.T, db *sql.DB) []string {
	t.Helper()
	return audittest.Stored(t, db)
}

// One verdict (issues 39 and 42) for the lines the recorder refuses but a log may hold (a file,
// another writer): put in a vector table's log one at a time, each gives the projector's stored
// findings, with a restart at every line too, that `fechado audit` gives the file — the
// projector asks the auditor (audit.Stray, audit.JudgeLines) instead of judging them itself.
// Each case names the findings it must give, so that a case that proves nothing fails.
// FromAFile: it projects a file in the test's one goroutine, where the race detector has nothing
// to watch; make test runs it without the detector (the Makefile's RACEFREE).
func TestStrayLinesFromAFileSameVerdictAsTheCLI(t *testing.T) {
	b, err := os.ReadFile(testfiles.File(t, "vectors", "table-std-draw.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	evs := make([]*events.Event, len(lines))
	for i, l := range lines {
		if evs[i], err = events.Parse(l); err != nil {
			t.Fatal(err)
		}
	}
	end := slices.IndexFunc(evs, func(e *events.Event) bool { return e.Type == events.HandEndedType })
	const k = 12 // a line in the middle of the first hand
	if evs[k].Hand != evs[end].Hand || end+6 > len(lines) {
		t.Fatalf("line %d is not of the first hand, or the log is too short", k+1)
	}
	// late is line k again after the hand's hand.ended: the next seq, id, prev as given.
	late := func(id, prev string) []byte {
		e := *evs[k]
		e.ID, e.Seq = id, evs[end].Seq+1
		events.Seal(&e, prev)
		return e.Raw
	}
	unreadable := func(l []byte) []byte { return bytes.Replace(l, []byte(`"data":{`), []byte(`"data":{"nope":[],`), 1) }
	with := func(at int, add ...[]byte) [][]byte { return slices.Insert(slices.Clone(lines), at, add...) }
	ended := events.Hash(lines[end])
	// The hand sealed again from line k on, line k with the id of line k-2.
	dupID := slices.Clone(lines)
	for i, prev := k, events.Hash(lines[k-1]); i <= end; i++ {
		e := *evs[i]
		if i == k {
			e.ID = evs[k-2].ID
		}
		events.Seal(&e, prev)
		dupID[i], prev = e.Raw, events.Hash(e.Raw)
	}
	orphan := *evs[k]
	orphan.ID, orphan.Hand = "01900000-0000-7000-8000-0000000000e3", "01900000-0000-7000-8000-0000000000f3"
	events.Seal(&orphan, events.Hash(lines[k-1]))
	for _, c := range []struct {
		name string
		log  [][]byte
		want []finding.Code // the codes the audit of the file gives, at least
	}{
		{"an unreadable line after hand.ended", with(end+1, unreadable(late("01900000-0000-7000-8000-0000000000e1", ended))),
			[]finding.Code{finding.LogSchema, finding.LogSequence}},
		{"an unreadable line after hand.ended, lines of the next hand between", with(end+4, unreadable(late("01900000-0000-7000-8000-0000000000e1", ended))),
			[]finding.Code{finding.LogSchema, finding.LogSequence}},
		{"hand.ended again", with(end+1, lines[end]), []finding.Code{finding.LogChain, finding.LogDuplicateID, finding.LogSequence}},
		{"hand.ended again, lines of the next hand between", with(end+5, lines[end]), []finding.Code{finding.LogChain, finding.LogDuplicateID, finding.LogSequence}},
		{"hand.started again after hand.ended", with(end+1, lines[0]), []finding.Code{finding.LogDuplicateID, finding.LogSequence}},
		{"a valid line after hand.ended", with(end+1, late("01900000-0000-7000-8000-0000000000e2", ended)), []finding.Code{finding.LogSequence}},
		{"a line after hand.ended with a wrong prev", with(end+1, late("01900000-0000-7000-8000-0000000000e2", events.Hash(lines[3]))),
			[]finding.Code{finding.LogChain, finding.LogSequence}},
		{"a line after hand.ended with an id of its hand", with(end+1, late(evs[k].ID, ended)), []finding.Code{finding.LogDuplicateID, finding.LogSequence}},
		{"a duplicate id mid-hand", dupID, []finding.Code{finding.LogDuplicateID}},
		{"a line of a hand never started", with(k, orphan.Raw), []finding.Code{finding.LogSchema, finding.LogSequence}},
		{"two lines of a hand never started, an unreadable one after", with(k, orphan.Raw, []byte("this is not json")),
			[]finding.Code{finding.LogSchema, finding.LogSequence}},
		{"a line repeated mid-hand", with(k+1, lines[k]), []finding.Code{finding.LogChain, finding.LogDuplicateID, finding.LogSequence}},
		{"a line that is not JSON mid-hand", with(k+1, []byte("this is not json")), []finding.Code{finding.LogSchema, finding.LogSequence}},
		{"an unreadable line repeated mid-hand", with(k+1, unreadable(lines[k])), []finding.Code{finding.LogSchema, finding.LogDuplicateID}},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := cliVerdict(t, c.log)
			for _, code := range c.want {
				if !slices.ContainsFunc(want, func(f string) bool { return bytes.Contains([]byte(f), []byte(`"code":"`+code+`"`)) }) {
					t.Errorf("the audit of the file gives no %s: the case proves little\n%s", code, want)
				}
			}
			path := writeLines(t, t.TempDir(), c.log)
			db := openDB(t)
			if _, err := New(db, &FileSource{Path: path}).CatchUp(context.Background()); err != nil {
				t.Fatal(err)
			}
			if got := storedVerdict(t, db); !slices.Equal(got, want) {
				t.Errorf("the projector stored\n%s\nthe audit of the file gives\n%s", bytes.Join(toBytes(got), []byte("\n")), bytes.Join(toBytes(want), []byte("\n")))
			}
			// A projector that restarts at each line (every fifth under -short) stores the same.
			db = openDB(t)
			dir := t.TempDir()
			step := 1
			if testing.Short() {
				step = 5
			}
			for n := 1; n < len(c.log)+step; n += step {
				if _, err := New(db, &FileSource{Path: writeLines(t, dir, c.log[:min(n, len(c.log))])}).CatchUp(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			if got := storedVerdict(t, db); !slices.Equal(got, want) {
				t.Errorf("restarted at every line, the projector stored\n%s\nthe audit of the file gives\n%s", bytes.Join(toBytes(got), []byte("\n")), bytes.Join(toBytes(want), []byte("\n")))
			}
		})
	}
}

func toBytes(ss []string) [][]byte {
	out := make([][]byte, len(ss))
	for i, s := range ss {
		out[i] = []byte(s)
	}
	return out
}

// The same through the log: stray lines published straight to their hands' subjects (another
// writer than fechado, which refuses them; no Nats-Msg-Id, so that a line stored twice is kept
// twice) are projected from the stream (LogSource) with the findings the audit of the stream's
// lines as a file gives.
func TestStrayLinesFromTheLogSameVerdictAsTheCLI(t *testing.T) {
	b, err := os.ReadFile(testfiles.File(t, "vectors", "table-std-draw.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	var ends []int
	for i, l := range lines {
		if events.Sniff(l).Type == events.HandEndedType {
			ends = append(ends, i)
		}
	}
	if len(ends) < 3 {
		t.Fatalf("%d hands", len(ends))
	}
	e, err := events.Parse(lines[ends[1]-1])
	if err != nil {
		t.Fatal(err)
	}
	e.ID, e.Seq = "01900000-0000-7000-8000-0000000000e1", e.Seq+2
	events.Seal(e, events.Hash(lines[ends[1]]))
	unreadable := bytes.Replace(e.Raw, []byte(`"data":{`), []byte(`"data":{"nope":[],`), 1)
	orphan := *e
	orphan.ID, orphan.Hand = "01900000-0000-7000-8000-0000000000e2", "01900000-0000-7000-8000-0000000000f3"
	events.Seal(&orphan, "")
	var log [][]byte
	for i, l := range lines {
		log = append(log, l)
		switch i {
		case 10:
			log = append(log, []byte("this is not json"))
		case ends[0] + 3:
			log = append(log, lines[ends[0]]) // the first hand's hand.ended again
		case ends[1]:
			log = append(log, unreadable, orphan.Raw)
		}
	}
	l := openLog(t)
	js := l.JetStream()
	ctx := context.Background()
	subject := ""
	for _, line := range log {
		if at := events.Sniff(line); at.Hand != "" {
			subject = recorder.Subject(at.Table, at.Hand)
		} // else where the line before went
		if _, err := js.Publish(ctx, subject, line); err != nil {
			t.Fatal(err)
		}
	}
	var stored [][]byte
	if err := l.ReadRaw(ctx, 1, func(_ uint64, data []byte) error {
		stored = append(stored, bytes.Clone(data))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(stored) != len(log) {
		t.Fatalf("the stream holds %d lines, want %d", len(stored), len(log))
	}
	want := cliVerdict(t, stored)
	for _, code := range []finding.Code{finding.LogSchema, finding.LogSequence, finding.LogChain, finding.LogDuplicateID} {
		if !slices.ContainsFunc(want, func(f string) bool { return bytes.Contains([]byte(f), []byte(`"code":"`+code+`"`)) }) {
			t.Errorf("the audit of the stream's lines gives no %s: the test proves little", code)
		}
	}
	db := openDB(t)
	if _, err := New(db, &LogSource{Log: l}).CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	if got := storedVerdict(t, db); !slices.Equal(got, want) {
		t.Errorf("the projector stored\n%s\nthe audit of the stream's lines gives\n%s", bytes.Join(toBytes(got), []byte("\n")), bytes.Join(toBytes(want), []byte("\n")))
	}
}
