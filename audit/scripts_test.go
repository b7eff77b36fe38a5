package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/testfiles"
)

// update rewrites the expected findings of the scripts: go test ./audit -run TestScripts -update
var update = flag.Bool("update", false, "rewrite the expected findings of testdata/*.txt")

// The audit scripts (testdata/*.txt) hold hand-written cases, each a log and the findings an
// exact auditor reports for it:
//
//	# rule: the rule the case tests (presets.md row or findings-v1.md line)
//	raises CODE          (or: near CODE — a similar legal case that must not raise it)
//	base FILE[#N[-M]]    hands N..M (1-based, in file order) of a log in testdata/logs or
//	                     the repository's testdata/vectors
//	set [H:]SEQ PATH JSON     set a field of the event with that seq in the base (hand H, default 1)
//	del [H:]SEQ [PATH]        delete the event, or one of its fields
//	after [H:]SEQ TYPE DATA   insert an event after it (before: before it); inserts at one place
//	                          keep their order
//	truncate [H:]SEQ          delete every event of that hand after it
//	seats H A:B,C:D           rename seats A→B, C→D in every event of hand H
//	keep-seq                  do not renumber seq after the edits (log.sequence cases)
//	keep-prev                 do not re-seal the prev chain (log.chain cases)
//	----
//	[H:]SEQ CODE SEVERITY     each finding in the order reported; "(none)" when there is none;
//	                          H only when the base holds several hands; seq 0 for a line that
//	                          does not decode
//
// Edits address the base's own seq numbers; afterwards every hand is renumbered 1, 2, … and its
// prev chain re-sealed (unless keep-seq / keep-prev; a deleted prev stays absent), and the log is
// audited as `fechado audit` does. A "raises" case must report its code; a "near" case must
// report no finding of its code and none of severity error. TestScriptsCoverCatalogue checks
// that every code of finding.Catalogue has both. Regenerate the expected findings with
//
//	go test ./audit -run TestScripts -update
//
// and review the diff. SCRIPT_DUMP=DIR writes each case's log to DIR/<line>.jsonl.
func TestScripts(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no scripts in testdata")
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) {
			sc := readScript(t, path)
			changed := false
			for _, c := range sc.cases {
				got := runCase(t, c)
				if *update {
					if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
						changed = true
					}
					c.want = got
				} else if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
					t.Errorf("%s:%d: %s %s: findings differ\ngot:\n  %s\nwant:\n  %s", path, c.line, c.kind, c.code,
						strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
				}
				checkKind(t, path, c, got)
			}
			if *update && changed {
				if err := os.WriteFile(path, sc.render(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// Every code of the catalogue has at least one case that raises it and one near miss.
func TestScriptsCoverCatalogue(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txt"))
	raises, near := map[finding.Code]int{}, map[finding.Code]int{}
	for _, path := range files {
		for _, c := range readScript(t, path).cases {
			if c.kind == "raises" {
				raises[c.code]++
			} else {
				near[c.code]++
			}
		}
	}
	for _, c := range finding.Catalogue {
		if raises[c.Code] == 0 {
			t.Errorf("%s: no script case raises it", c.Code)
		}
		if near[c.Code] == 0 {
			t.Errorf("%s: no near-miss script case", c.Code)
		}
	}
}

// checkKind checks what the case's kind promises, whatever the expected block says.
func checkKind(t *testing.T, path string, c *scriptCase, got []string) {
	t.Helper()
	has := false
	errs := 0
	for _, g := range got {
		f := strings.Fields(g)
		if len(f) >= 3 && finding.Code(f[1]) == c.code {
			has = true
		}
		if len(f) >= 3 && f[2] == string(finding.Error) {
			errs++
		}
	}
	switch c.kind {
	case "raises":
		if !has {
			t.Errorf("%s:%d: raises %s, but the auditor does not report it: %v", path, c.line, c.code, got)
		}
	case "near":
		if has || errs > 0 {
			t.Errorf("%s:%d: near miss of %s must report neither it nor any error: %v", path, c.line, c.code, got)
		}
	}
}

type scriptCase struct {
	line   int
	kind   string // raises or near
	code   finding.Code
	header []string // the lines from the case line to "----" included
	cmds   []string
	want   []string
}

type script struct {
	lead  []string // lines before the first case
	cases []*scriptCase
}

func (s *script) render() []byte {
	var b bytes.Buffer
	for _, l := range s.lead {
		b.WriteString(l + "\n")
	}
	for i, c := range s.cases {
		if i > 0 {
			b.WriteString("\n")
		}
		for _, l := range c.header {
			b.WriteString(l + "\n")
		}
		if len(c.want) == 0 {
			b.WriteString("(none)\n")
		}
		for _, l := range c.want {
			b.WriteString(l + "\n")
		}
	}
	return b.Bytes()
}

var caseLine = regexp.MustCompile(`^(raises|near) ([a-z]+\.[a-z-]+)$`)

func readScript(t *testing.T, path string) *script {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sc := &script{}
	var cur *scriptCase
	inWant := false
	var pending []string // comment lines before a case line
	sn := bufio.NewScanner(bytes.NewReader(b))
	n := 0
	for sn.Scan() {
		n++
		l := sn.Text()
		switch {
		case inWant && strings.TrimSpace(l) == "":
			inWant, cur = false, nil
		case inWant:
			if l != "(none)" {
				cur.want = append(cur.want, l)
			}
		case caseLine.MatchString(l):
			m := caseLine.FindStringSubmatch(l)
			cur = &scriptCase{line: n, kind: m[1], code: finding.Code(m[2])}
			if !cur.code.Known() {
				t.Fatalf("%s:%d: unknown code %s", path, n, cur.code)
			}
			// The comment lines just above the case line belong to it.
			k := len(pending)
			for k > 0 && strings.HasPrefix(pending[k-1], "#") {
				k--
			}
			if len(sc.cases) == 0 {
				sc.lead = append(sc.lead, pending[:k]...)
			} else {
				for _, x := range pending[:k] {
					if strings.TrimSpace(x) != "" {
						t.Fatalf("%s:%d: a line between cases: %q", path, n, x)
					}
				}
			}
			cur.header = append(append([]string(nil), pending[k:]...), l)
			pending = nil
			sc.cases = append(sc.cases, cur)
		case cur == nil:
			pending = append(pending, l)
		case l == "----":
			cur.header = append(cur.header, l)
			inWant = true
		default:
			cur.header = append(cur.header, l)
			if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
				cur.cmds = append(cur.cmds, t)
			}
		}
	}
	if len(sc.cases) == 0 {
		sc.lead = append(sc.lead, pending...)
	}
	for _, c := range sc.cases {
		rule := false
		for _, l := range c.header {
			rule = rule || strings.HasPrefix(l, "# rule:")
		}
		if !rule {
			t.Errorf("%s:%d: the case cites no rule (# rule: …)", path, c.line)
		}
		if c.header[len(c.header)-1] != "----" {
			t.Errorf("%s:%d: the case has no ---- line", path, c.line)
		}
	}
	return sc
}

// logEvent is one event of a case's log while it is edited: its JSON object and where it came
// from in the base.
type logEvent struct {
	hand int // 1-based hand of the base
	seq  int // seq in the base (0 for an inserted event)
	obj  map[string]any
}

// runCase builds the case's log, audits it and returns the findings as script lines.
func runCase(t *testing.T, c *scriptCase) []string {
	t.Helper()
	var log []*logEvent
	keepSeq, keepPrev := false, false
	hands := 0
	inserted := 0
	for _, cmd := range c.cmds {
		f := strings.Fields(cmd)
		fail := func(format string, a ...any) {
			t.Fatalf("line %d (%s): %s", c.line, cmd, fmt.Sprintf(format, a...))
		}
		switch f[0] {
		case "base":
			log, hands = loadBase(t, f[1])
		case "truncate":
			i := find(log, f[1])
			if i < 0 {
				fail("no event %s in the base", f[1])
			}
			j := i + 1
			for j < len(log) && log[j].hand == log[i].hand {
				j++
			}
			log = append(log[:i+1], log[j:]...)
		case "seats":
			if len(f) != 3 {
				fail("seats H FROM:TO,…")
			}
			h, _ := strconv.Atoi(f[1])
			m := map[string]json.Number{}
			for _, pair := range strings.Split(f[2], ",") {
				a, b, _ := strings.Cut(pair, ":")
				m[a] = json.Number(b)
			}
			for _, e := range log {
				if e.hand == h {
					remapSeats(e.obj["data"], m)
				}
			}
		case "keep-seq":
			keepSeq = true
		case "keep-prev":
			keepPrev = true
		case "set", "del", "after", "before":
			if len(f) < 2 {
				fail("no seq")
			}
			i := find(log, f[1])
			if i < 0 {
				fail("no event %s in the base", f[1])
			}
			switch f[0] {
			case "set":
				if len(f) < 4 {
					fail("set SEQ PATH JSON")
				}
				v := parseValue(t, strings.Join(f[3:], " "))
				if err := setPath(log[i].obj, f[2], v, false); err != nil {
					fail("%v", err)
				}
			case "del":
				if len(f) == 2 {
					log = append(log[:i], log[i+1:]...)
				} else if err := setPath(log[i].obj, f[2], nil, true); err != nil {
					fail("%v", err)
				}
			default:
				if len(f) < 4 {
					fail("%s SEQ TYPE DATA", f[0])
				}
				inserted++
				src := log[i]
				obj := map[string]any{"id": fmt.Sprintf("00000000-0000-4000-8000-%012d", inserted+1000*c.line),
					"table": src.obj["table"], "hand": src.obj["hand"], "seq": json.Number("0"), "at": src.obj["at"],
					"type": f[2], "prev": "", "data": parseValue(t, strings.Join(f[3:], " "))}
				ne := &logEvent{hand: src.hand, obj: obj}
				at := i
				if f[0] == "after" {
					at = i + 1
					for at < len(log) && log[at].seq == 0 && log[at].hand == src.hand {
						at++ // after earlier insertions at the same place
					}
				}
				log = append(log[:at], append([]*logEvent{ne}, log[at:]...)...)
			}
		default:
			fail("unknown command %q", f[0])
		}
	}
	if log == nil {
		t.Fatalf("line %d: no base", c.line)
	}
	// Renumber and re-seal each hand.
	var buf bytes.Buffer
	next := map[string]int{}
	last := map[string]string{}
	for _, e := range log {
		hand, _ := e.obj["hand"].(string)
		if !keepSeq {
			next[hand]++
			e.obj["seq"] = json.Number(strconv.Itoa(next[hand]))
		}
		if _, has := e.obj["prev"]; has && !keepPrev {
			e.obj["prev"] = last[hand] // a deleted prev stays absent (optional on input)
		}
		raw, err := json.Marshal(e.obj)
		if err != nil {
			t.Fatal(err)
		}
		if _, hasPrev := e.obj["prev"]; !hasPrev {
			// prev is optional on input: keep the line without it.
		} else if ev, err := events.Parse(raw); err == nil {
			raw = events.Encode(ev) // the catalogue's field order, prev as set above
		}
		last[hand] = events.Hash(raw)
		buf.Write(raw)
		buf.WriteByte('\n')
	}
	if dump := os.Getenv("SCRIPT_DUMP"); dump != "" {
		// Authoring aid: SCRIPT_DUMP=dir writes each case's log to dir/<line>.jsonl.
		os.WriteFile(filepath.Join(dump, fmt.Sprintf("%d.jsonl", c.line)), buf.Bytes(), 0o644)
	}
	// Audit it as the audit command does.
	var got []finding.Finding
	a := New(func(f finding.Finding) { got = append(got, f) })
	if _, err := AuditReader(a, events.NewReader(&buf, "case")); err != nil {
		t.Fatal(err)
	}
	a.Close()
	handIdx := map[string]int{}
	for _, e := range log {
		h, _ := e.obj["hand"].(string)
		if _, ok := handIdx[h]; !ok {
			handIdx[h] = e.hand
		}
	}
	var out []string
	for _, f := range got {
		where := f.Seq.String()
		if hands > 1 {
			where = fmt.Sprintf("%d:%d", handIdx[f.Hand], f.Seq)
		}
		out = append(out, fmt.Sprintf("%s %s %s", where, f.Code, f.Severity))
	}
	return out
}

// loadBase reads hands of a vector log: "FILE", "FILE#N" or "FILE#N-M".
func loadBase(t *testing.T, spec string) ([]*logEvent, int) {
	t.Helper()
	name, rng, _ := strings.Cut(spec, "#")
	lo, hi := 1, 1<<30
	if rng != "" {
		a, b, two := strings.Cut(rng, "-")
		lo, _ = strconv.Atoi(a)
		hi = lo
		if two {
			hi, _ = strconv.Atoi(b)
		}
	}
	b, err := os.ReadFile(filepath.Join("testdata", "logs", name))
	if os.IsNotExist(err) {
		b, err = os.ReadFile(testfiles.Path("vectors", name))
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []*logEvent
	idx := map[string]int{}
	for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		d := json.NewDecoder(bytes.NewReader(l))
		d.UseNumber()
		var obj map[string]any
		if err := d.Decode(&obj); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		h := obj["hand"].(string)
		if _, ok := idx[h]; !ok {
			idx[h] = len(idx) + 1
		}
		n := idx[h]
		if n < lo || n > hi {
			continue
		}
		seq, _ := obj["seq"].(json.Number).Int64()
		out = append(out, &logEvent{hand: n - lo + 1, seq: int(seq), obj: obj})
	}
	if len(out) == 0 {
		t.Fatalf("base %s holds no such hands", spec)
	}
	return out, min(hi, len(idx)) - lo + 1
}

// find returns the index of the base event "SEQ" (hand 1) or "H:SEQ".
func find(log []*logEvent, ref string) int {
	h, s := 1, ref
	if a, b, ok := strings.Cut(ref, ":"); ok {
		h, _ = strconv.Atoi(a)
		s = b
	}
	seq, _ := strconv.Atoi(s)
	for i, e := range log {
		if e.hand == h && e.seq == seq {
			return i
		}
	}
	return -1
}

func parseValue(t *testing.T, s string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("bad JSON value %q: %v", s, err)
	}
	return v
}

var pathPart = regexp.MustCompile(`^([a-z_]+)(?:\[(\d+)\])?$`)

// setPath sets (or deletes) a dotted path such as data.seats[1].stack in obj.
func setPath(obj map[string]any, path string, v any, del bool) error {
	parts := strings.Split(path, ".")
	var cur any = obj
	for i, p := range parts {
		m := pathPart.FindStringSubmatch(p)
		if m == nil {
			return fmt.Errorf("bad path element %q", p)
		}
		o, ok := cur.(map[string]any)
		if !ok {
			return fmt.Errorf("%s is not an object", strings.Join(parts[:i], "."))
		}
		lastPart := i == len(parts)-1
		if m[2] == "" {
			if lastPart {
				if del {
					delete(o, m[1])
				} else {
					o[m[1]] = v
				}
				return nil
			}
			cur = o[m[1]]
			continue
		}
		arr, ok := o[m[1]].([]any)
		k, _ := strconv.Atoi(m[2])
		if !ok || k >= len(arr) {
			return fmt.Errorf("%s[%d] does not exist", m[1], k)
		}
		if lastPart {
			if del {
				o[m[1]] = append(arr[:k], arr[k+1:]...)
			} else {
				arr[k] = v
			}
			return nil
		}
		cur = arr[k]
	}
	return nil
}

// remapSeats renames seats in an event's data: seat, by, dealer and the seat of seats[] and
// stacks[] entries.
func remapSeats(v any, m map[string]json.Number) {
	o, ok := v.(map[string]any)
	if !ok {
		return
	}
	for k, x := range o {
		switch k {
		case "seat", "by", "dealer":
			if n, ok := x.(json.Number); ok {
				if to, ok := m[n.String()]; ok {
					o[k] = to
				}
			}
		case "seats", "stacks":
			if arr, ok := x.([]any); ok {
				for _, el := range arr {
					remapSeats(el, m)
				}
			}
		}
	}
}
