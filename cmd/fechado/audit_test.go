package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/fechado/fechado/internal/race"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/explain"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/testfiles"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
)

// vector returns the path of an example log of testdata/vectors.
func vector(t testing.TB, name string) string {
	t.Helper()
	return testfiles.File(t, "vectors", name)
}

// findings decodes audit --json output, checking that every line is one finding and nothing else.
func findings(t *testing.T, out string) []finding.Finding {
	t.Helper()
	var fs []finding.Finding
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if l == "" {
			continue
		}
		var f finding.Finding
		dec := json.NewDecoder(strings.NewReader(l))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
			t.Fatalf("stdout line is not a finding: %q: %v", l, err)
		}
		if !f.Code.Known() || f.Severity != f.Code.Severity() && f.Code != finding.CardExposed {
			t.Errorf("finding with unknown code or wrong severity: %s", l)
		}
		fs = append(fs, f)
	}
	return fs
}

// A clean log exits 0; a log with an error finding exits 1 and --json prints exactly that
// finding as events-v1.md §6.
func TestAuditExitCodes(t *testing.T) {
	for _, tc := range []struct {
		file string
		code int
		want []string // code@seq of each finding
	}{
		{"table-br-fechado.jsonl", exitOK, nil},
		{"table-std-draw.jsonl", exitOK, nil},
		{"hand-proportional-split-br-online.jsonl", exitOK, nil},
		{"bad-odd-chip-br-fechado.jsonl", exitFindings, []string{"pot.split@36"}},
		{"bad-false-open-std-draw.jsonl", exitFindings, []string{"open.without-openers@22"}},
	} {
		code, out, errOut := fechado("", "audit", "--json", vector(t, tc.file))
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d; stderr %q", tc.file, code, tc.code, errOut)
		}
		var got []string
		for _, f := range findings(t, out) {
			got = append(got, string(f.Code)+"@"+f.Seq.String())
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%s: findings %v, want %v", tc.file, got, tc.want)
		}
		if !strings.Contains(errOut, "hand") || !strings.Contains(errOut, "audited") {
			t.Errorf("%s: no summary on stderr: %q", tc.file, errOut)
		}
	}
}

// The text report names the table, the hand number, and each finding's seq, seat, code,
// message and expected/actual values; the summary counts hands and findings by severity.
func TestAuditTextReport(t *testing.T) {
	code, out, _ := fechado("", "audit", vector(t, "bad-odd-chip-br-fechado.jsonl"))
	if code != exitFindings {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"Table X777, hand 1", "Closed Poker (Brazil)", "Error at event 36 (pot.split)",
		"Rule “Tied hands”, Closed Poker (Brazil): fechado's house rulebook", "Hands audited: 1. Errors: 1. Warnings: 0. Notes: 0."} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = fechado("", "audit", "-v", vector(t, "table-br-online.jsonl"))
	if code != exitOK || strings.Count(out, "  Nothing irregular.\n") != 6 || !strings.HasSuffix(out, "Hands audited: 6. Errors: 0. Warnings: 0. Notes: 0. Hands with findings: 0.\n") {
		t.Errorf("exit %d, -v report:\n%s", code, out)
	}
}

// events-v1.md §8: a line that is not a valid event is a log.schema finding at its seq, exit 1;
// its envelope keeps its place in the sequence and the chain (the next line's prev is the hash of
// its bytes, as a recorder that stored it would have written), and a bad field is treated as
// unknown, so one bad line is one finding. A line that is not JSON at all takes the previous
// line's seq + 1. Only a file that cannot be read exits 2.
func TestAuditBadLines(t *testing.T) {
	good, err := os.ReadFile(vector(t, "table-br-fechado.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(good), "\n")
	dir := t.TempDir()
	rePrev := regexp.MustCompile(`"prev":"[0-9a-f]*"`)
	// replace puts bad in place of line n (1-based) and re-seals the prev of every line after it
	// in its hand (the vector's hands follow one another).
	replace := func(n int, bad string) string {
		ls := slices.Clone(lines)
		ls[n-1] = bad + "\n"
		for k := n; k < len(ls) && ls[k] != "" && !strings.Contains(ls[k], `"seq":1,`); k++ {
			prev := events.Hash([]byte(strings.TrimSuffix(ls[k-1], "\n")))
			ls[k] = rePrev.ReplaceAllString(ls[k], `"prev":"`+prev+`"`)
		}
		return strings.Join(ls, "")
	}
	line8 := strings.TrimSuffix(lines[7], "\n") // seq 8 of hand 1: a card.dealt
	if !strings.Contains(line8, `"card.dealt"`) || !strings.Contains(line8, `"seq":8,`) {
		t.Fatalf("line 8 of the vector is not the card.dealt at seq 8: %s", line8)
	}
	last := strings.TrimSuffix(lines[len(lines)-2], "\n")
	type want struct {
		seq  events.Seq
		code finding.Code
	}
	for _, tc := range []struct {
		name, content string
		want          []want
	}{
		{"bad-card.jsonl", replace(8, regexp.MustCompile(`"card":"[^"]*"`).ReplaceAllString(line8, `"card":"1x"`)), []want{{8, finding.LogSchema}}},
		{"not-json.jsonl", replace(8, "this is not JSON"), []want{{8, finding.LogSchema}}},
		// The same line lost in a log chained as the producer wrote it: the next prev hashes the
		// line that was there, which no auditor can judge (events-v1.md §8: one fault, one finding).
		{"not-json-unsealed.jsonl", strings.Join(lines[:7], "") + "this is not JSON\n" + strings.Join(lines[8:], ""), []want{{8, finding.LogSchema}}},
		{"latin1.jsonl", replace(8, strings.Replace(line8, `"phase"`, "\"ph\xe1se\"", 1)), []want{{8, finding.LogSchema}}},
		{"truncated.jsonl", strings.Join(lines[:len(lines)-2], "") + last[:len(last)/2], []want{{44, finding.LogSchema}}},
	} {
		p := filepath.Join(dir, tc.name)
		if err := os.WriteFile(p, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := fechado("", "audit", "--json", p)
		if code != exitFindings {
			t.Errorf("%s: exit %d, want %d (stderr %q)", tc.name, code, exitFindings, errOut)
		}
		fs := findings(t, out)
		var got []want
		for _, f := range fs {
			if f.Severity != finding.Info {
				got = append(got, want{f.Seq, f.Code})
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: findings %v, want %v:\n%s", tc.name, got, tc.want, out)
		}
		if len(fs) > 0 && (fs[0].Hand == "" || fs[0].Table != "ex-br-fechado") {
			t.Errorf("%s: the log.schema finding does not name its hand and table: %s", tc.name, fs[0].JSON())
		}
	}
	if code, _, errOut := fechado("", "audit", filepath.Join(dir, "missing.jsonl")); code != exitUsage || !strings.Contains(errOut, "missing.jsonl") {
		t.Errorf("missing file: exit %d, stderr %q", code, errOut)
	}
}

// Several files are one log: a table split across two files carries on from one to the next,
// and given in the wrong order its hands are still judged in the order of their chain
// (handorder), with the same findings: none. "-" reads standard input.
func TestAuditSeveralFiles(t *testing.T) {
	b, err := os.ReadFile(vector(t, "table-br-fechado.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
	cut := 0
	for i, l := range lines {
		if strings.Contains(l, `"type":"hand.started"`) && strings.Contains(l, `"number":4`) {
			cut = i
		}
	}
	dir := t.TempDir()
	first, second := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	os.WriteFile(first, []byte(strings.Join(lines[:cut], "")), 0o644)
	os.WriteFile(second, []byte(strings.Join(lines[cut:], "")), 0o644)
	if code, out, errOut := fechado("", "audit", "--json", first, second); code != exitOK || out != "" {
		t.Errorf("in order: exit %d, findings %q, stderr %q", code, out, errOut)
	}
	if code, out, errOut := fechado("", "audit", "--json", second, first); code != exitOK || out != "" {
		t.Errorf("out of order: exit %d, findings %q, stderr %q", code, out, errOut)
	}
	if code, out, _ := fechado(strings.Join(lines[cut:], ""), "audit", "--json", first, "-"); code != exitOK || out != "" {
		t.Errorf("with stdin: exit %d, findings %q", code, out)
	}
}

// A file is read mapped into memory (logfile) and standard input through buffers: every vector
// gives the same report both ways, with --json and without.
func TestAuditFileAndStdinAgree(t *testing.T) {
	for _, path := range testfiles.Glob(t, "vectors/*.jsonl") {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, flags := range [][]string{{"--json"}, {"-v", "--lang", "pt-BR"}} {
			code, out, _ := fechado("", append(append([]string{"audit"}, flags...), path)...)
			inCode, inOut, _ := fechado(string(b), append(append([]string{"audit"}, flags...), "-")...)
			if code != inCode || out != inOut || out == "" && !slices.Contains(flags, "--json") {
				t.Errorf("%s %v: the file gives exit %d and\n%s\nstandard input exit %d and\n%s", filepath.Base(path), flags, code, out, inCode, inOut)
			}
		}
	}
}

func TestAuditUsage(t *testing.T) {
	for _, args := range [][]string{
		{"audit"},
		{"audit", "--hand", "x", "--all"},
		{"audit", "--all", "file.jsonl"},
		{"audit", "--bogus", "file.jsonl"},
		{"audit", "-", "-"},
	} {
		if code, _, errOut := fechado("", args...); code != exitUsage || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
	if code, out, _ := fechado("", "audit", "--help"); code != exitOK || !strings.Contains(out, "--json") {
		t.Errorf("--help: exit %d:\n%s", code, out)
	}
}

// The same log audited from files and from JetStream (recorded with the recorder, audited with
// --all) gives the same findings.
func TestAuditFileAndStoreAgree(t *testing.T) {
	// (The hand-*.jsonl files are separate deals at the table X777 of bad-odd-chip-br-fechado.jsonl,
	// not hands that follow one another: together they would break the table's continuity.)
	files := []string{"table-br-fechado.jsonl", "table-br-online.jsonl", "table-tr-kapali.jsonl", "table-std-draw.jsonl",
		"bad-odd-chip-br-fechado.jsonl", "bad-false-open-std-draw.jsonl"}
	dir := t.TempDir()
	l := recordertest.OpenDir(t, dir)
	rec := l.NewRecorder(context.Background(), recorder.RecordOptions{})
	var paths []string
	for _, f := range files {
		p := vector(t, f)
		paths = append(paths, p)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := rec.AddLines(bytes.NewReader(b), f); err != nil {
			t.Fatal(err)
		}
	}
	st, err := rec.Close()
	if err != nil || st.Rejected != 0 || st.Conflicts != 0 {
		t.Fatalf("recording: %+v %v", st, err)
	}
	l.Close() // the command opens the store itself
	_, fromFiles, _ := fechado("", append([]string{"audit", "--json"}, paths...)...)
	// Two workers, which the default gives only on more than two cores: the spread over the
	// stored log runs here under the race detector (make test).
	code, fromStore, errOut := fechado("", "audit", "--json", "--all", "--workers", "2", "--data", dir)
	if code != exitFindings {
		t.Fatalf("--all: exit %d, stderr %q", code, errOut)
	}
	// Hands come back from the store in stream order, which may differ from file order across
	// tables; compare the findings as sets of lines.
	a, b := sortedLines(fromFiles), sortedLines(fromStore)
	if a != b || a == "" {
		t.Errorf("files and store disagree:\nfiles:\n%s\nstore:\n%s", a, b)
	}
	code, one, _ := fechado("", "audit", "--json", "--table", "X777", "--data", dir)
	if code != exitFindings || len(findings(t, one)) != 1 {
		t.Errorf("--table X777: exit %d:\n%s", code, one)
	}
	// replay reads the stored hand as it reads the file.
	const hand = "00443f8c-beec-5ab7-b9fc-d0cd29bcc102" // hand 1 of table-std-draw.jsonl
	_, fromFile, _ := fechado("", "replay", "--json", "--at", "50", "--hand", hand, vector(t, "table-std-draw.jsonl"))
	code, stored, errOut := fechado("", "replay", "--json", "--at", "50", "--hand", hand, "--data", dir)
	if code != exitOK || stored != fromFile || !strings.Contains(stored, `"seq": 50`) {
		t.Errorf("replay of the stored hand: exit %d, stderr %q\n%s\nfile:\n%s", code, errOut, stored, fromFile)
	}
	if code, _, errOut = fechado("", "audit", "--hand", "00000000-0000-4000-8000-000000000000", "--data", dir); code != exitUsage {
		t.Errorf("unknown --hand: exit %d, stderr %q", code, errOut)
	}
	// A table or tournament with no stored hand (a mistyped name) is an error, as export's, and no
	// report that would read as a clean audit.
	for _, args := range [][]string{{"--table", "X778"}, {"--tournament", "nope"}} {
		code, out, errOut := fechado("", append(append([]string{"audit"}, args...), "--data", dir)...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, "no hand of "+args[0][2:]+" "+args[1]+" is stored") {
			t.Errorf("audit %v of a log without it: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

func sortedLines(s string) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	sort.Strings(ls)
	return strings.Join(ls, "\n")
}

// The text report speaks the reader's language: --lang, else LC_ALL or LANG; --json is the same
// whatever the language.
func TestAuditTextReportLanguages(t *testing.T) {
	file := vector(t, "bad-false-open-std-draw.jsonl")
	for _, c := range []struct {
		args []string
		env  string
		want []string
	}{
		{[]string{"--lang", "pt-BR"}, "", []string{"Mesa ex-false-open, mão 1", "Erro no evento 22", "par de noves", "9♥ 9♦", "Regra «O mínimo para abrir»", "Mãos auditadas: 1."}},
		{nil, "tr_TR.UTF-8", []string{"Hata, 22. olay", "dokuzlu per", "Kural «"}},
		{[]string{"--lang", "es"}, "tr_TR.UTF-8", []string{"Error en el evento 22", "pareja de nueves", "Regla «"}},
	} {
		var out, errb bytes.Buffer
		m := &Main{Stdout: &out, Stderr: &errb, Getenv: func(k string) string {
			if k == "LANG" {
				return c.env
			}
			return ""
		}}
		if code := m.Run(append(append([]string{"audit"}, c.args...), file)); code != exitFindings {
			t.Fatalf("%v: exit %d: %s", c.args, code, errb.String())
		}
		for _, w := range c.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%v LANG=%s: no %q in\n%s", c.args, c.env, w, out.String())
			}
		}
	}
	_, en, _ := fechado("", "audit", "--json", file)
	_, pt, _ := fechado("", "audit", "--json", "--lang", "pt-BR", file)
	if en != pt || !strings.HasPrefix(en, `{"hand":`) {
		t.Errorf("--json differs with --lang:\n%s\n%s", en, pt)
	}
}

// interleaved writes to path the lines of the logs x and y in turn, one of each, and puts a quote
// into the data of three lines of y halfway on: each then begins and ends as fechado writes an
// event, is UTF-8, names another table and hand than the line before it, but is not JSON.
func interleaved(t *testing.T, path, x, y string) {
	t.Helper()
	var ls [2][][]byte
	for i, name := range []string{x, y} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		ls[i] = bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
	}
	n := min(len(ls[0]), len(ls[1]))
	for _, k := range []int{n / 2, n/2 + 40, n/2 + 80} {
		if !bytes.Contains(ls[1][k], []byte(`"data":{"`)) {
			t.Fatalf("line %d of %s has no data", k+1, y)
		}
		ls[1][k] = bytes.Replace(ls[1][k], []byte(`"data":{"`), []byte(`"data":{""`), 1)
	}
	var out bytes.Buffer
	for k := range n {
		out.Write(ls[0][k])
		out.WriteByte('\n')
		out.Write(ls[1][k])
		out.WriteByte('\n')
	}
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// farTable writes to path, in dir, half of a hand at table far-a, then 65,537 hands of one line (a
// deck.cut) at table far-f, a hand at table far-b, and the rest of the first hand, its next line
// naming table far-b: a line of a hand that names another table than the hand's first line, more
// than 65,536 hands after the hand began.
func farTable(t *testing.T, dir, path string) {
	t.Helper()
	read := func(args ...string) [][]byte {
		name := filepath.Join(dir, "far-sim.jsonl")
		if code, _, errOut := fechado("", append(append([]string{"sim", "--rules", "std-draw", "--players", "4"}, args...), "--out", name)...); code != exitOK {
			t.Fatalf("sim %v: exit %d: %s", args, code, errOut)
		}
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasSuffix(b, []byte("\n")) {
			t.Fatalf("sim %v: the log does not end with a newline", args)
		}
		ls := bytes.SplitAfter(b, []byte("\n")) // each line with its newline, then ""
		return ls[:len(ls)-1]
	}
	hand := read("--hands", "1", "--seed", "7", "--table", "far-a")
	other := read("--hands", "1", "--seed", "8", "--table", "far-b")
	var out bytes.Buffer
	half := len(hand) / 2
	for _, l := range hand[:half] {
		out.Write(l)
	}
	cut := hand[2]
	e, err := events.Parse(bytes.TrimSuffix(cut, []byte("\n")))
	if err != nil || e.Type != "deck.cut" {
		t.Fatalf("the hand's third line is not a deck.cut: %v %s", err, cut)
	}
	cut = bytes.Replace(cut, []byte(`"table":"far-a"`), []byte(`"table":"far-f"`), 1)
	for i := range 1<<16 + 1 {
		n := fmt.Sprintf("%012x", i)
		l := bytes.Replace(cut, []byte(e.ID), []byte(e.ID[:len(e.ID)-12]+n), 1)
		out.Write(bytes.Replace(l, []byte(e.Hand), []byte(e.Hand[:len(e.Hand)-12]+n), 1))
	}
	for _, l := range other {
		out.Write(l)
	}
	out.Write(bytes.Replace(hand[half], []byte(`"table":"far-a"`), []byte(`"table":"far-b"`), 1))
	for _, l := range hand[half+1:] {
		out.Write(l)
	}
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// audit --workers N prints what --workers 1 prints, byte for byte, with the same summary and
// exit status: a room of tables dealing at once, a tournament with an irregularity in its hands,
// tables with one in every hand, and every vector, in the text report (in two languages, with
// and without -v) and as JSON; and a damaged log, where the spread is given up (docs/cli.md,
// "On every core"): lines that begin and end as events but are not JSON, each naming another
// hand than the line before it (interleaved). TestAuditWorkersOnALineFarOn has the other.
func TestAuditWorkersPrintAsOne(t *testing.T) {
	dir := t.TempDir()
	sims := [][]string{
		{"--room", "--players", "40", "--tables", "6", "--hands", "300", "--seed", "5"},
		{"--tournament", "--rules", "std-draw", "--entries", "30", "--tables", "4", "--seed", "3", "--inject", "all"},
		{"--rules", "br-fechado", "--players", "5", "--hands", "60", "--seed", "1", "--table", "A", "--inject", "all"},
		{"--rules", "online-draw", "--players", "6", "--hands", "60", "--seed", "2", "--table", "B", "--inject", "all"},
	}
	var files []string
	for i, args := range sims {
		path := filepath.Join(dir, string(rune('a'+i))+".jsonl")
		if code, _, errOut := fechado("", append(append([]string{"sim"}, args...), "--out", path)...); code != exitOK {
			t.Fatalf("sim %v: exit %d: %s", args, code, errOut)
		}
		files = append(files, path)
	}
	vectors, _ := filepath.Glob(testfiles.Path("vectors", "*.jsonl"))
	if len(vectors) == 0 {
		t.Fatal("no vector")
	}
	broken := filepath.Join(dir, "broken.jsonl")
	interleaved(t, broken, files[2], files[3])
	modes := [][]string{nil, {"-v"}, {"--lang", "pt-BR"}, {"--json"}}
	sets := [][]string{files, vectors, append(slices.Clone(vectors), files...), {broken}}
	if race.Enabled {
		// The detector watches the workers, which -v and the reader's language do not change:
		// those two modes print the same findings in other words, and without -race they run.
		// Nor do the files and the vectors apart show it anything that the two together do not.
		modes = [][]string{nil, {"--json"}}
		sets = sets[2:]
	}
	for _, mode := range modes {
		for _, logs := range sets {
			args := append(append([]string{"audit"}, mode...), logs...)
			code1, out1, err1 := fechado("", append(args[:1:1], append([]string{"--workers", "1"}, args[1:]...)...)...)
			code3, out3, err3 := fechado("", append(args[:1:1], append([]string{"--workers", "3"}, args[1:]...)...)...)
			if code1 != code3 || out1 != out3 || err1 != err3 {
				t.Errorf("audit %v: --workers 3 differs from --workers 1: exit %d and %d, %d and %d bytes out, stderr %q and %q",
					mode, code3, code1, len(out3), len(out1), err3, err1)
			}
			if len(out1) < 1000 || (len(logs) == len(files) && code1 != exitFindings) {
				t.Errorf("audit %v: exit %d, nothing to compare:\n%s", mode, code1, err1)
			}
		}
	}
}

// audit --workers N prints what --workers 1 prints, byte for byte, with the same summary and exit
// status, on a damaged log where the spread is given up (docs/cli.md, "On every core"): a hand's
// line that names another table than its first line, 65,537 hands on (farTable), as JSON and,
// without -short, in the text report. Its 200,000 findings make it the longest audit of the
// package: make test runs it without the race detector (the Makefile's RACEFREE), whose watch of
// the workers TestAuditWorkersPrintAsOne keeps.
func TestAuditWorkersOnALineFarOn(t *testing.T) {
	far := filepath.Join(t.TempDir(), "far.jsonl")
	farTable(t, filepath.Dir(far), far)
	modes := [][]string{{"--json"}}
	if !testing.Short() {
		modes = append(modes, nil)
	}
	for _, mode := range modes {
		args := append(append([]string{"audit"}, mode...), far)
		code1, out1, err1 := fechado("", append(args[:1:1], append([]string{"--workers", "1"}, args[1:]...)...)...)
		code3, out3, err3 := fechado("", append(args[:1:1], append([]string{"--workers", "3"}, args[1:]...)...)...)
		if code1 != code3 || out1 != out3 || err1 != err3 {
			t.Errorf("audit %v: --workers 3 differs from --workers 1: exit %d and %d, %d and %d bytes out, stderr %q and %q",
				mode, code3, code1, len(out3), len(out1), err3, err1)
		}
		if len(out1) < 1000 {
			t.Errorf("audit %v: exit %d, nothing to compare:\n%s", mode, code1, err1)
		}
	}
}

// --workers takes 0 (every core) and up, nothing below.
func TestAuditWorkersFlag(t *testing.T) {
	if code, _, errOut := fechado("", "audit", "--workers", "-1", vector(t, "table-br-fechado.jsonl")); code != exitUsage || !strings.Contains(errOut, "--workers") {
		t.Errorf("--workers -1: exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut := fechado("", "audit", "--workers", "0", vector(t, "table-br-fechado.jsonl")); code != exitOK {
		t.Errorf("--workers 0: exit %d, stderr %q", code, errOut)
	}
}

// audit --all --workers N prints what --workers 1 prints, byte for byte, with the same summary and
// exit status: the stored log of a room of tables, a tournament with irregularities and tables
// with one in every hand, recorded together. Under the race detector, which watches the workers
// and not how many hands they share, the room deals a third of its hands.
func TestAuditAllWorkersPrintAsOne(t *testing.T) {
	tmp := t.TempDir()
	room := "150"
	if race.Enabled {
		room = "50"
	}
	sims := [][]string{
		{"--room", "--players", "30", "--tables", "5", "--hands", room, "--seed", "5"},
		{"--tournament", "--rules", "std-draw", "--entries", "20", "--tables", "3", "--seed", "3", "--inject", "all"},
		{"--rules", "online-draw", "--players", "6", "--hands", "30", "--seed", "2", "--table", "B", "--inject", "all"},
	}
	dir := filepath.Join(tmp, "data")
	l := recordertest.OpenDir(t, dir)
	rec := l.NewRecorder(context.Background(), recorder.RecordOptions{})
	for i, args := range sims {
		path := filepath.Join(tmp, string(rune('a'+i))+".jsonl")
		if code, _, errOut := fechado("", append(append([]string{"sim"}, args...), "--out", path)...); code != exitOK {
			t.Fatalf("sim %v: exit %d: %s", args, code, errOut)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := rec.AddLines(bytes.NewReader(b), path); err != nil {
			t.Fatal(err)
		}
	}
	if st, err := rec.Close(); err != nil || st.Appended == 0 { // the recorder refuses some injected hands
		t.Fatalf("recording: %+v %v", st, err)
	}
	l.Close()
	for _, mode := range [][]string{nil, {"--json"}} {
		args := append(append([]string{"audit", "--all", "--data", dir}, mode...), "--workers")
		code1, out1, err1 := fechado("", append(args, "1")...)
		code3, out3, err3 := fechado("", append(args, "3")...)
		if code1 != code3 || out1 != out3 || err1 != err3 {
			t.Errorf("audit --all %v: --workers 3 differs from --workers 1: exit %d and %d, %d and %d bytes out, stderr %q and %q",
				mode, code3, code1, len(out3), len(out1), err3, err1)
		}
		if code1 != exitFindings || len(out1) < 1000 {
			t.Errorf("audit --all %v: exit %d, %d bytes: nothing to compare", mode, code1, len(out1))
		}
	}
}

// An error finding's remedy, what the floor does now, follows it in audit's text report and in
// the printed report of `fechado report`, in the reader's language: the words the dispute desk
// shows (explain.Remedy), not another copy of them (issue 41).
func TestAuditAndReportTellTheRemedy(t *testing.T) {
	file := vector(t, "bad-false-open-std-draw.jsonl")
	const hand = "dd0017a1-9748-54c6-84cb-58795b480192"
	for _, code := range []string{"pt-BR", "tr"} {
		l, _ := lang.Get(code)
		remedy := explain.Remedy(l, finding.OpenWithoutOpeners, "std-draw")
		if remedy == "" || remedy == explain.Remedy(lang.English(), finding.OpenWithoutOpeners, "std-draw") {
			t.Fatalf("%s: open.without-openers has no remedy of its own: %q", code, remedy)
		}
		exit, out, errOut := fechado("", "audit", "--lang", code, file)
		if exit != exitFindings {
			t.Fatalf("audit --lang %s: exit %d: %s", code, exit, errOut)
		}
		if want := "      " + l.T("audit.remedy", lang.Args{"remedy": remedy}) + "\n"; !strings.Contains(out, want) {
			t.Errorf("audit --lang %s: no line %q in\n%s", code, want, out)
		}
		exit, page, errOut := fechado("", "report", file, "--hand", hand, "--lang", code)
		if exit != exitOK {
			t.Fatalf("report --lang %s: exit %d: %s", code, exit, errOut)
		}
		if !strings.Contains(page, template.HTMLEscapeString(remedy)) {
			t.Errorf("report --lang %s: the page lacks the remedy %q", code, remedy)
		}
	}
}

// A room and a tournament handed over one file per table (audited by whole files on each worker,
// no reader: docs/cli.md, "On every core"), and the same files with a table going on in another
// table's file: audit --workers 2 and 3 print what --workers 1 prints, byte for byte, with the
// same summary and exit status.
func TestAuditWorkersTableFilesPrintAsOne(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i, args := range [][]string{
		{"--room", "--players", "40", "--tables", "6", "--hands", "300", "--seed", "5"},
		{"--tournament", "--rules", "std-draw", "--entries", "30", "--tables", "4", "--seed", "3", "--inject", "all"},
	} {
		path := filepath.Join(dir, fmt.Sprint(i)+".jsonl")
		if code, _, errOut := fechado("", append(append([]string{"sim"}, args...), "--out", path)...); code != exitOK {
			t.Fatalf("sim %v: exit %d: %s", args, code, errOut)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var order []string
		by := map[string][]byte{}
		for l := range bytes.Lines(b) {
			i := bytes.Index(l, []byte(`"table":"`))
			if i < 0 {
				t.Fatalf("a line of %s names no table: %s", path, l)
			}
			table := string(l[i+9:][:bytes.IndexByte(l[i+9:], '"')])
			if _, ok := by[table]; !ok {
				order = append(order, table)
			}
			by[table] = append(by[table], l...)
		}
		for k, table := range order {
			name := filepath.Join(dir, fmt.Sprintf("%d-%02d.jsonl", i, k))
			if err := os.WriteFile(name, by[table], 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, name)
		}
	}
	// The last file's lines after the first file's: a table in two workers' files.
	last := files[len(files)-1]
	spanning := filepath.Join(dir, "spanning.jsonl")
	a, err := os.ReadFile(last)
	if err != nil {
		t.Fatal(err)
	}
	first, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(spanning, append(a, first[len(first)/2:][bytes.IndexByte(first[len(first)/2:], '\n')+1:]...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(files[0], first[:len(first)/2+bytes.IndexByte(first[len(first)/2:], '\n')+1], 0o644); err != nil {
		t.Fatal(err)
	}
	modes := [][]string{nil, {"-v"}, {"--json"}}
	if race.Enabled {
		modes = [][]string{{"--json"}}
	}
	for _, mode := range modes {
		for _, logs := range [][]string{files[:len(files)-1], append(files[:len(files)-1:len(files)-1], spanning)} {
			args := append(append([]string{"audit"}, mode...), logs...)
			code1, out1, err1 := fechado("", append(args[:1:1], append([]string{"--workers", "1"}, args[1:]...)...)...)
			for _, n := range []string{"2", "3"} {
				code, out, errOut := fechado("", append(args[:1:1], append([]string{"--workers", n}, args[1:]...)...)...)
				if code1 != code || out1 != out || err1 != errOut {
					t.Errorf("audit %v, %d files: --workers %s differs from --workers 1: exit %d and %d, %d and %d bytes out, stderr %q and %q",
						mode, len(logs), n, code, code1, len(out), len(out1), errOut, err1)
				}
			}
			if len(out1) < 1000 || code1 != exitFindings {
				t.Errorf("audit %v: exit %d, nothing to compare:\n%s", mode, code1, err1)
			}
		}
	}
}

// A room's log large enough for the spread's reader to copy its mapping ahead of the reading
// (logfile.Mapping.Fetch, from 8 MB), and the same log with a line near its end that names
// another table than its hand's first line, so that the spread is given up there and one
// Auditor reads the log again through blocks that were copies and went back to the file:
// audit --workers 2 prints what --workers 1 prints, byte for byte, with the same exit status.
func TestAuditWorkersOnAFetchedLogPrintAsOne(t *testing.T) {
	dir := t.TempDir()
	room := filepath.Join(dir, "room.jsonl")
	if code, _, errOut := fechado("", "sim", "--room", "--players", "40", "--tables", "6", "--hands", "900", "--seed", "5", "--out", room); code != exitOK {
		t.Fatalf("sim: exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(room)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 8<<20 {
		t.Fatalf("the room's log has %d bytes, fewer than the 8 MB from which its mapping is fetched", len(b))
	}
	// A deck.cut near the end, at another table than its hand's.
	at := len(b) * 9 / 10
	at += bytes.Index(b[at:], []byte(`"type":"deck.cut"`))
	start := bytes.LastIndexByte(b[:at], '\n') + 1
	end := at + bytes.IndexByte(b[at:], '\n')
	line := bytes.Replace(b[start:end], []byte(`"table":"room-`), []byte(`"table":"moved-`), 1)
	if bytes.Equal(line, b[start:end]) {
		t.Fatalf("the line names no room table: %s", b[start:end])
	}
	damaged := filepath.Join(dir, "damaged.jsonl")
	if err := os.WriteFile(damaged, slices.Concat(b[:start], line, b[end:]), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, mode := range [][]string{{"--json"}, {"-v"}} {
		for _, log := range []string{room, damaged} {
			args := append(append([]string{"audit"}, mode...), log)
			code1, out1, err1 := fechado("", append(args[:1:1], append([]string{"--workers", "1"}, args[1:]...)...)...)
			code2, out2, err2 := fechado("", append(args[:1:1], append([]string{"--workers", "2"}, args[1:]...)...)...)
			if code1 != code2 || out1 != out2 || err1 != err2 {
				t.Errorf("audit %v %s: --workers 2 differs from --workers 1: exit %d and %d, %d and %d bytes out, stderr %q and %q",
					mode, filepath.Base(log), code2, code1, len(out2), len(out1), err2, err1)
			}
			if want := map[string]int{room: exitOK, damaged: exitFindings}[log]; code1 != want || mode[0] == "-v" && len(out1) < 1000 {
				t.Errorf("audit %v %s: exit %d (want %d), %d bytes out:\n%s", mode, filepath.Base(log), code1, want, len(out1), err1)
			}
		}
	}
}
