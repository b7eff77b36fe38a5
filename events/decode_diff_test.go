package events

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// sameAsJSON fails t when Parse reads line otherwise than encoding/json does. An event Parse
// returns must hold, field by field, the values encoding/json finds in the line (the envelope and
// every data field, as generic values); its encoding must read as the same values, and must parse
// again to the same event. With a space before it, so that the fast paths (decoder.fast) leave it
// to the general walk, the line reads as the same event or is refused as well. A line Parse refuses is refused alike each time, with an *Error wrapping
// ErrInvalid; a line encoding/json cannot read (not JSON) must be refused. What only the strict
// decoder refuses (a missing field, a bad id, an unknown card) is the strict errors' tests' part.
func sameAsJSON(t testing.TB, line []byte) {
	t.Helper()
	got, gerr := Parse(line)
	want, jerr := genericJSON(line)
	if gerr != nil {
		var ge *Error
		if !errors.As(gerr, &ge) || !errors.Is(gerr, ErrInvalid) {
			t.Fatalf("line %q: error %v (%T) is not an *Error wrapping ErrInvalid", line, gerr, gerr)
		}
		if _, again := Parse(line); again == nil || again.Error() != gerr.Error() {
			t.Fatalf("line %q: refused with %q, then with %v", line, gerr, again)
		}
		if slow, err := Parse(slicesConcat([]byte(" "), line)); err == nil {
			t.Fatalf("line %q: refused with %q, and read with a space before it as %#v %#v", line, gerr, slow, slow.Data)
		}
		return
	}
	if len(line) < MaxLineSize { // a space more would put it over the limit
		slow, err := Parse(slicesConcat([]byte(" "), line))
		if err != nil {
			t.Fatalf("line %q: read as %#v, and refused with a space before it: %v", line, got, err)
		}
		if s, g := *slow, *got; !reflect.DeepEqual(s.withoutRaw(), g.withoutRaw()) {
			t.Fatalf("line %q, read with a space before it:\n got %#v %#v\nwant %#v %#v", line, s, s.Data, g, g.Data)
		}
	}
	if jerr != nil {
		t.Fatalf("line %q: Parse took a line encoding/json refuses (%v): %#v", line, jerr, got)
	}
	if !bytes.Equal(got.Raw, line) {
		t.Fatalf("line %q: Raw is %q", line, got.Raw)
	}
	enc := Encode(got)
	have, err := genericJSON(enc)
	if err != nil {
		t.Fatalf("line %q: the event encodes as %q, which is not JSON: %v", line, enc, err)
	}
	if !got.HasPrev {
		if have["prev"] != "" {
			t.Fatalf("line %q has no prev, the event encodes prev %v", line, have["prev"])
		}
		delete(have, "prev")
	}
	if d := jsonDiff("", want, have); d != "" {
		t.Fatalf("line %q\nencodes as %q\n%s", line, enc, d)
	}
	again, err := Parse(enc)
	if err != nil {
		t.Fatalf("line %q encodes as %q, which Parse refuses: %v", line, enc, err)
	}
	g := got.withoutRaw()
	g.HasPrev = true
	if !reflect.DeepEqual(g, again.withoutRaw()) {
		t.Fatalf("line %q, encoded and parsed again:\n got %#v %#v\nwant %#v %#v", line, again, again.Data, g, g.Data)
	}
}

// withoutRaw returns a copy of e without the line it was read from, to compare what two lines
// of other bytes say.
func (e Event) withoutRaw() Event {
	e.Raw = nil
	return e
}

// genericJSON reads line with encoding/json into generic values, numbers as written.
func genericJSON(line []byte) (map[string]any, error) {
	d := json.NewDecoder(bytes.NewReader(line))
	d.UseNumber()
	var v map[string]any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, fmt.Errorf("text after the object")
	}
	if v == nil {
		return nil, fmt.Errorf("null")
	}
	return v, nil
}

// jsonDiff names the first field where the generic values want (from a line) and have (from its
// encoding) differ, by its path, or returns "". Numbers compare by value.
func jsonDiff(path string, want, have any) string {
	switch w := want.(type) {
	case map[string]any:
		h, ok := have.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: want object %v, got %v", path, w, have)
		}
		for k, wv := range w {
			hv, ok := h[k]
			if !ok {
				return fmt.Sprintf("%s.%s: want %v, missing", path, k, wv)
			}
			if d := jsonDiff(path+"."+k, wv, hv); d != "" {
				return d
			}
		}
		for k, hv := range h {
			if _, ok := w[k]; !ok {
				return fmt.Sprintf("%s.%s: not in the line, encoded as %v", path, k, hv)
			}
		}
		return ""
	case []any:
		h, ok := have.([]any)
		if !ok || len(h) != len(w) {
			return fmt.Sprintf("%s: want %v, got %v", path, w, have)
		}
		for i := range w {
			if d := jsonDiff(fmt.Sprintf("%s[%d]", path, i), w[i], h[i]); d != "" {
				return d
			}
		}
		return ""
	case json.Number:
		h, ok := have.(json.Number)
		wf, _, werr := big.ParseFloat(string(w), 10, 256, big.ToNearestEven)
		hf, _, herr := big.ParseFloat(string(h), 10, 256, big.ToNearestEven)
		if !ok || werr != nil || herr != nil || wf.Cmp(hf) != 0 {
			return fmt.Sprintf("%s: want %v, got %v", path, w, have)
		}
		return ""
	}
	if want != have {
		return fmt.Sprintf("%s: want %#v, got %#v", path, want, have)
	}
	return ""
}

// vectorSamples returns the lines of the example vectors, one per event type and file, and the
// lines of the tests of this package.
func vectorSamples(t testing.TB) [][]byte {
	var out [][]byte
	for _, f := range vectorFiles(t) {
		name, b := f.name, f.data
		seen := map[string]bool{}
		for l := range bytes.Lines(b) {
			l = bytes.TrimRight(l, "\n")
			e, err := Parse(l)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			// one line per type, and per shape of a type's data (optional fields present or not)
			k := string(e.Type) + fmt.Sprintf("%d", len(l)/100)
			if !seen[k] {
				seen[k] = true
				out = append(out, bytes.Clone(l))
			}
		}
	}
	return append(out, []byte(good),
		[]byte(`{"id":"908b5493-a4e9-4345-9095-d4d497820d56","table":"t","hand":"83a3b53a-28d7-4272-b797-1272fe65ecfd","seq":1,"at":"2026-11-02T21:00:11Z","type":"hand.started","data":{"rules":{"name":"x","deck_low":"7","open":{"min":[1,2.5e3,null,true]}},"number":1,"dealer":1,"seats":[{"seat":1,"player":"\u00e9\"\\","stack":5,"rebuy":0}],"stakes":{"ante":0,"min_bet":0,"max_bet":0},"carry":0,"passed_out":0,"tournament":"","previous":"83A3B53A-28D7-4272-B797-1272FE65ECFD"}}`),
		[]byte(`{"data":{"seat":10,"phase":"draw"},"id":"908b5493-a4e9-4345-9095-d4d497820d56","table":"t","hand":"83a3b53a-28d7-4272-b797-1272fe65ecfd","seq":3,"at":"2026-11-02T21:00:11+01:00","type":"card.dealt","prev":""}`),
		[]byte(`{"id":"908b5493-a4e9-4345-9095-d4d497820d56","table":"t","hand":"83a3b53a-28d7-4272-b797-1272fe65ecfd","seq":2,"at":"2026-11-02T21:00:11.5-03:30","type":"deck.shuffled","prev":"","data":{"method":"physical","count":52,"by":3,"cards":[]}}`),
		[]byte(`{"id":"908b5493-a4e9-4345-9095-d4d497820d56","table":"t","hand":"83a3b53a-28d7-4272-b797-1272fe65ecfd","seq":2,"at":"2026-11-02T21:00:11.5-03:30","type":"deck.shuffled","prev":"","data":{"method":"physical","cards":["2c","3d","4h","5s","6c","7d","8h","9s","Tc","Jd","Qh","Ks","Ac"]}}`),
		[]byte(`{"id":"908b5493-a4e9-4345-9095-d4d497820d56","table":"t","hand":"83a3b53a-28d7-4272-b797-1272fe65ecfd","seq":9,"at":"2026-11-02T21:00:11Z","type":"card.exposed","prev":"","data":{"card":"Ah","phase":"showdown","seat":2,"cause":"player"}}`),
		[]byte(`{"id":"908b5493-a4e9-4345-9095-d4d497820d56","table":"t","hand":"83a3b53a-28d7-4272-b797-1272fe65ecfd","seq":9,"at":"2026-11-02T21:00:11Z","type":"misdeal.declared","prev":"","data":{"reason":"a card face up \u00e9\n"}}`),
		[]byte(`{"id":"908b5493-a4e9-4345-9095-d4d497820d56","table":"t","hand":"83a3b53a-28d7-4272-b797-1272fe65ecfd","seq":9,"at":"2026-11-02T21:00:11Z","type":"blind.posted","prev":"","data":{"seat":2,"amount":10,"blind":"dead"}}`),
		[]byte(`{"id":"908b5493-a4e9-4345-9095-d4d497820d56","table":"t","hand":"83a3b53a-28d7-4272-b797-1272fe65ecfd","seq":9,"at":"2026-11-02T21:00:11Z","type":"pot.raked","prev":"","data":{"pot":1,"amount":3}}`),
		[]byte(`{"id":"908b5493-a4e9-4345-9095-d4d497820d56","table":"t","hand":"83a3b53a-28d7-4272-b797-1272fe65ecfd","seq":9,"at":"2026-11-02T21:00:11Z","type":"cards.discarded","prev":"","data":{"seat":2,"cards":["Ah","2c"],"declared":3}}`),
		[]byte(` { "id" : "908b5493-a4e9-4345-9095-d4d497820d56" , "table":"t","hand":"83a3b53a-28d7-4272-b797-1272fe65ecfd","seq":9,"at":"2026-11-02T21:00:11Z","type":"hand.passed","prev":"","data":{ } } `),
	)
}

// mutations returns variants of line: each byte removed, replaced by a few others, a few bytes
// inserted, and the line cut at every position.
func mutations(line []byte) [][]byte {
	var out [][]byte
	repl := []byte{'"', '\\', '}', ']', ',', ':', '0', '-', 'x', ' ', 0, 0xe9}
	for i := range line {
		out = append(out, line[:i])
		out = append(out, slicesConcat(line[:i], line[i+1:]))
		for _, c := range repl {
			if c != line[i] {
				out = append(out, slicesConcat(line[:i], []byte{c}, line[i+1:]))
			}
		}
	}
	for _, ins := range []string{`"`, `,`, `,"x":1`, `"id":"908b5493-a4e9-4345-9095-d4d497820d56",`, `\u0041`, ` `, `\ud800`} {
		for i := range line {
			if line[i] == ',' || line[i] == '{' || line[i] == '"' || line[i] == ':' {
				out = append(out, slicesConcat(line[:i+1], []byte(ins), line[i+1:]))
			}
		}
	}
	return out
}

func slicesConcat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

// Parse reads every sample line and thousands of mutations of each as encoding/json does, and
// each event it returns encodes and parses again to itself.
func TestParseSameAsJSON(t *testing.T) {
	n := 0
	for k, line := range vectorSamples(t) {
		sameAsJSON(t, line)
		for _, m := range sampled(mutations(line), k) {
			sameAsJSON(t, m)
			n++
		}
	}
	t.Logf("%d lines, %d mutations", len(vectorSamples(t)), n)
}

// The envelope's fields in another order, repeated, or escaped decode as encoding/json reads them.
func TestParseFieldOrderSameAsJSON(t *testing.T) {
	base := `{"id":"908b5493-a4e9-4345-9095-d4d497820d56","table":"X777","hand":"83a3b53a-28d7-4272-b797-1272fe65ecfd","seq":4,"at":"2026-11-02T21:00:11.696Z","type":"ante.posted","prev":"a31875f3e181e11d7ca81f6a4d4dbbb96be05747298d38935c5a53911fc64f56","data":{"seat":1,"amount":5}}`
	fields := strings.Split(strings.TrimSuffix(strings.TrimPrefix(base, "{"), "}"), `,"`)
	for i := 1; i < len(fields); i++ {
		fields[i] = `"` + fields[i]
	}
	fields[len(fields)-1] = `"data":{"seat":1,"amount":5}`
	fields = fields[:len(fields)-1]
	fields = append(fields[:len(fields)-1], `"data":{"seat":1,"amount":5}`)
	// every rotation, every field moved to the end, every field twice
	for i := range fields {
		rot := append(append([]string{}, fields[i:]...), fields[:i]...)
		sameAsJSON(t, []byte("{"+strings.Join(rot, ",")+"}"))
		moved := append(append(append([]string{}, fields[:i]...), fields[i+1:]...), fields[i])
		sameAsJSON(t, []byte("{"+strings.Join(moved, ",")+"}"))
		twice := append(append([]string{}, fields...), fields[i])
		sameAsJSON(t, []byte("{"+strings.Join(twice, ",")+"}"))
		esc := append([]string{}, fields...)
		esc[i] = `"\u00` + fmt.Sprintf("%02x", esc[i][1]) + esc[i][2:]
		sameAsJSON(t, []byte("{"+strings.Join(esc, ",")+"}"))
	}
	for _, data := range []string{`{"amount":5,"seat":1}`, `{"seat":1,"amount":5,"seat":1}`, `{"seat":1}`, `{"amount":5}`, `{}`, `[]`, `1`, `{"seat":1,"amount":5,"x":{"a":1,"a":2}}`, `{"x":1,"x":2}`} {
		sameAsJSON(t, []byte(strings.Replace(base, `{"seat":1,"amount":5}`, data, 1)))
		moved := strings.Replace(base, `,"data":{"seat":1,"amount":5}`, "", 1)
		sameAsJSON(t, []byte(`{"data":`+data+","+moved[1:]))
	}
}

// Every object of hand.started and hand.ended, with fields missing, repeated or unknown.
func TestParseNestedSameAsJSON(t *testing.T) {
	env := `{"id":"908b5493-a4e9-4345-9095-d4d497820d56","table":"t","hand":"83a3b53a-28d7-4272-b797-1272fe65ecfd","seq":1,"at":"2026-11-02T21:00:11Z","type":"TYPE","data":DATA}`
	line := func(ty, data string) []byte {
		return []byte(strings.Replace(strings.Replace(env, "TYPE", ty, 1), "DATA", data, 1))
	}
	seats := []string{`{"seat":1,"player":"a","stack":5}`, `{"player":"a","stack":5}`, `{"seat":1,"stack":5}`, `{"seat":1,"player":"a"}`, `{"seat":1}`, `{"stack":5}`, `{}`,
		`{"seat":1,"player":"a","stack":5,"rebuy":1}`, `{"seat":1,"player":"a","stack":5,"x":1}`, `{"seat":1,"player":"","stack":5}`, `{"seat":1,"seat":1}`, `[]`, `{"seat":0,"player":"a","stack":5}`}
	stakes := []string{`{"ante":1,"min_bet":2,"max_bet":0}`, `{"ante":1,"min_bet":2}`, `{"ante":1}`, `{}`, `{"min_bet":2}`, `{"ante":1,"min_bet":2,"max_bet":0,"x":1}`, `{"ante":1,"ante":1}`, `{"ante":-1,"min_bet":2,"max_bet":0}`}
	rules := []string{`{"name":"x"}`, `{}`, `{"a":1}`, `{"name":""}`, `{"name":"x","a":[1,{"b":null}],"c":"d"}`, `{"name":"x","a":1,"a":2}`, `{"a":1,"name":"x","name":"y"}`,
		`{"name":"x","k1":1,"k2":1,"k3":1,"k4":1,"k5":1,"k6":1,"k7":1,"k8":1,"k9":1,"k10":1,"k11":1,"k12":1,"k13":1,"k14":1,"k15":1,"k16":1,"k16":2}`,
		`{"name":"x","k1":1,"k2":1,"k3":1,"k4":1,"k5":1,"k6":1,"k7":1,"k8":1,"k9":1,"k10":1,"k11":1,"k12":1,"k13":1,"k14":1,"k15":1,"k1":2}`,
		`{"name":"x","a":01}`, `{"name":"x","a":tru}`, `{"name":1}`}
	started := func(s, st, r string) {
		data := `{"rules":` + r + `,"number":1,"dealer":1,"seats":[` + s + `,` + s + `],"stakes":` + st + `,"carry":0,"passed_out":0}`
		sameAsJSON(t, line("hand.started", data))
		for i, m := range mutations([]byte(data)) {
			if i%5 == 0 { // a sample: all of them is slow
				sameAsJSON(t, line("hand.started", string(m)))
			}
		}
	}
	// each variant of one object with the first of the others
	for _, s := range seats {
		started(s, stakes[0], rules[0])
	}
	for _, st := range stakes[1:] {
		started(seats[0], st, rules[0])
	}
	for _, r := range rules[1:] {
		started(seats[0], stakes[0], r)
	}
	for _, s := range []string{`{"seat":1,"stack":5}`, `{"seat":1}`, `{"stack":5}`, `{}`, `{"seat":1,"stack":5,"x":1}`, `{"seat":1,"seat":2}`, `1`} {
		for _, data := range []string{`{"stacks":[` + s + `],"carry":0}`, `{"stacks":[` + s + `,` + s + `]}`, `{"carry":0}`, `{"stacks":[]}`, `{"stacks":{}}`} {
			sameAsJSON(t, line("hand.ended", data))
			for _, m := range mutations([]byte(data)) {
				sameAsJSON(t, line("hand.ended", string(m)))
			}
		}
	}
}

// item is what a Reader returned for a line: an event or an error's text.
type item struct {
	line int
	err  string
	e    *Event
}

func (it item) String() string {
	if it.e == nil {
		return fmt.Sprintf("%d %s", it.line, it.err)
	}
	return fmt.Sprintf("%d %+v %+v", it.line, *it.e, it.e.Data)
}

// lineItems returns what a Reader named name must return for what r delivers: each line of it
// (bytes.Lines) that is not blank, parsed on its own, then the read error, if r fails, named by
// the line it cut or by the line after the last whole one, and returned again when asked again.
func lineItems(name string, r io.Reader) []item {
	data, rerr := io.ReadAll(r)
	var out []item
	n := 0
	for l := range bytes.Lines(data) {
		n++
		if rerr != nil && !bytes.HasSuffix(l, []byte("\n")) {
			return append(out, readFailure(&Error{File: name, Line: n, Err: rerr}, n))
		}
		l = bytes.TrimSuffix(l, []byte("\n"))
		if len(l) <= MaxLineSize && len(bytes.TrimSpace(l)) == 0 { // a longer one is refused
			continue
		}
		e, err := Parse(l)
		if err != nil {
			var ee *Error
			if errors.As(err, &ee) {
				ee.File, ee.Line = name, n
			}
			out = append(out, item{line: n, err: err.Error()})
			continue
		}
		out = append(out, item{line: n, e: e})
	}
	if rerr != nil {
		return append(out, readFailure(&Error{File: name, Line: n + 1, Err: rerr}, n))
	}
	return append(out, readFailure(io.EOF, n))
}

// readFailure is the last item of items: err, asked for twice, after line.
func readFailure(err error, line int) item {
	return item{line: line, err: err.Error() + " / " + fmt.Sprint(err)}
}

// items reads events with next until io.EOF or a read error (returned twice, to see it stays).
func items(next func() (*Event, error), line func() int) []item {
	var out []item
	for {
		e, err := next()
		switch {
		case err == nil:
			out = append(out, item{line: line(), e: e})
		case errors.Is(err, ErrInvalid):
			out = append(out, item{line: line(), err: err.Error()})
		default:
			if _, again := next(); again == nil || again.Error() != err.Error() {
				return append(out, item{line: line(), err: err.Error() + " / then " + fmt.Sprint(again)})
			}
			return append(out, readFailure(err, line()))
		}
	}
}

// readers wrap the bytes of a file in readers that deliver them in different ways. "bytes" is
// for a Reader of the bytes themselves (newReader), which must read as one of the whole file does.
var readers = map[string]func([]byte) io.Reader{
	"whole":    func(b []byte) io.Reader { return bytes.NewReader(b) },
	"bytes":    func(b []byte) io.Reader { return bytes.NewReader(b) },
	"one byte": func(b []byte) io.Reader { return iotest.OneByteReader(bytes.NewReader(b)) },
	"data+EOF": func(b []byte) io.Reader { return iotest.DataErrReader(bytes.NewReader(b)) },
	"half":     func(b []byte) io.Reader { return iotest.HalfReader(bytes.NewReader(b)) },
	"fails": func(b []byte) io.Reader {
		return io.MultiReader(bytes.NewReader(b[:len(b)*2/3]), iotest.ErrReader(errors.New("disk on fire")))
	},
}

// newReader returns a Reader of b read in the way kind names in readers: NewReaderBytes of a copy
// of b for "bytes", else NewReader of that io.Reader.
func newReader(kind string, b []byte) *Reader {
	if kind == "bytes" {
		return NewReaderBytes(bytes.Clone(b), "f.jsonl", nil)
	}
	return NewReader(readers[kind](b), "f.jsonl")
}

func sameReadAsLines(t testing.TB, b []byte) {
	t.Helper()
	for name, mk := range readers {
		if len(b) > 1<<19 && (name == "one byte" || name == "half") {
			continue // slow, and no more telling than on shorter inputs
		}
		r := newReader(name, b)
		got := items(r.Next, r.Line)
		want := lineItems("f.jsonl", mk(b))
		if !reflect.DeepEqual(got, want) {
			for i := range min(len(got), len(want)) {
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Fatalf("%s reader, input %.300q: item %d:\n got %s\nwant %s", name, b, i, got[i], want[i])
				}
			}
			t.Fatalf("%s reader, input %.300q: %d items, want %d", name, b, len(got), len(want))
		}
	}
}

// The Reader returns the events and errors that Parse of each line does, on the vectors and on
// lines much longer than its buffers.
func TestReaderSameAsLines(t *testing.T) {
	in := readInputs(t)
	for _, f := range vectorFiles(t) {
		sameReadAsLines(t, f.data)
	}
	big := in["big"] // over 1 MiB: many chunks of lines, events and data
	sameReadAsLines(t, big)
	long := strings.Replace(good, `"X777"`, `"`+strings.Repeat("x", 64)+`"`, 1)
	reason := `{"id":"908b5493-a4e9-4345-9095-d4d497820d56","table":"t","hand":"83a3b53a-28d7-4272-b797-1272fe65ecfd","seq":9,"at":"2026-11-02T21:00:11Z","type":"misdeal.declared","prev":"","data":{"reason":"` + strings.Repeat("é", 100_000) + `"}}`
	sameReadAsLines(t, []byte(good+"\n"+long+"\n"+reason+"\n"+good+"\n"+reason))
	sameReadAsLines(t, []byte(strings.Repeat(reason+"\r\n\n  \n\u00a0\n", 4)))
	sameReadAsLines(t, []byte(strings.Repeat("x", 300_000)+"\n"+good))
}

// FuzzParseSameAsJSON checks that Parse reads any line as encoding/json does (sameAsJSON). Its
// seeds are the sample lines, the corpus of FuzzParse and the lines at the input limits.
func FuzzParseSameAsJSON(f *testing.F) {
	for _, l := range vectorSamples(f) {
		f.Add(l)
	}
	for _, l := range fuzzCorpus(f, "FuzzParse") {
		f.Add(l)
	}
	addLimitLines(f)
	f.Fuzz(func(t *testing.T, line []byte) { sameAsJSON(t, line) })
}

// FuzzReaderSameAsLines checks that the Reader reads any file as Parse of each line does.
func FuzzReaderSameAsLines(f *testing.F) {
	f.Add([]byte(good + "\n" + good + "\n"))
	f.Add([]byte("\n\n" + good))
	f.Add([]byte(good[:40] + "\n" + good + "\r\n"))
	f.Add([]byte("\xef\xbb\xbf" + good + "\n\xff\n"))
	f.Add([]byte(good + "\n" + strings.Repeat(" ", MaxLineSize+1) + "\n" + good + "\n" + string(deepLine(MaxDepth*8)) + "\n" + good))
	f.Fuzz(func(t *testing.T, b []byte) { sameReadAsLines(t, b) })
}

// fuzzCorpus returns the lines of the corpus of the fuzz target name, each a file holding one
// []byte value in the format of go test -fuzz.
func fuzzCorpus(t testing.TB, name string) [][]byte {
	files, err := filepath.Glob(filepath.Join("testdata", "fuzz", name, "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus of %s: %v", name, err)
	}
	var out [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		head, value, ok := strings.Cut(strings.TrimSpace(string(b)), "\n")
		if !ok || head != "go test fuzz v1" || !strings.HasPrefix(value, "[]byte(") || !strings.HasSuffix(value, ")") {
			t.Fatalf("%s: not one []byte value of go test fuzz v1", f)
		}
		line, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(value, "[]byte("), ")"))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, []byte(line))
	}
	return out
}

// sameDecodedAsParsed checks that one Decoder, given each line of b in turn (each its own copy,
// as a message read from the log is), returns what Parse returns for it: the same event, or the
// same error. It checks the events again once every line was decoded, so that an event whose
// strings or slabs a later line wrote over would be caught.
func sameDecodedAsParsed(t testing.TB, b []byte) {
	t.Helper()
	d := NewDecoder()
	var got, want []item
	n := 0
	for l := range bytes.Lines(b) {
		n++
		l = bytes.TrimSuffix(l, []byte("\n"))
		e, err := d.Parse(bytes.Clone(l))
		pe, perr := Parse(l)
		if err != nil {
			got = append(got, item{line: n, err: err.Error()})
		} else {
			got = append(got, item{line: n, e: e})
		}
		if perr != nil {
			want = append(want, item{line: n, err: perr.Error()})
		} else {
			want = append(want, item{line: n, e: pe})
		}
		if !reflect.DeepEqual(got[len(got)-1], want[len(want)-1]) {
			t.Fatalf("line %d %.300q:\n got %s\nwant %s", n, l, got[len(got)-1], want[len(want)-1])
		}
	}
	if !reflect.DeepEqual(got, want) {
		for i := range got {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("after every line: item %d changed:\n got %s\nwant %s", i, got[i], want[i])
			}
		}
	}
}

// A Decoder decodes the vectors' lines, lines at the input limits and lines longer than a
// slab's share, as Parse does, and what it returned stays as it was.
func TestDecoderSameAsParse(t *testing.T) {
	for _, f := range vectorFiles(t) {
		sameDecodedAsParsed(t, f.data)
	}
	in := readInputs(t)
	sameDecodedAsParsed(t, in["big"])
	reason := `{"id":"908b5493-a4e9-4345-9095-d4d497820d56","table":"t","hand":"83a3b53a-28d7-4272-b797-1272fe65ecfd","seq":9,"at":"2026-11-02T21:00:11Z","type":"misdeal.declared","prev":"","data":{"reason":"` + strings.Repeat("é", 100_000) + `"}}`
	sameDecodedAsParsed(t, []byte(good+"\n"+reason+"\n{\n"+good+"\n\n"+strings.Repeat("x", MaxLineSize+1)+"\n"+good))
}

// FuzzDecoderSameAsParse checks TestDecoderSameAsParse's property on any lines.
func FuzzDecoderSameAsParse(f *testing.F) {
	f.Add([]byte(good + "\n" + good + "\n"))
	for _, l := range fuzzCorpus(f, "FuzzParse") {
		f.Add(append(append(bytes.Clone(l), '\n'), good...))
	}
	addLimitLines(f)
	f.Fuzz(func(t *testing.T, b []byte) { sameDecodedAsParsed(t, b) })
}
