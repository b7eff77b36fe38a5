package events

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// sameAsRef fails t unless Parse and the former decoder (refParseLine) judge line alike: the
// same event, or the same error text and field.
func sameAsRef(t testing.TB, line []byte) {
	t.Helper()
	got, gerr := Parse(line)
	want, werr := refParseLine(line)
	if (gerr == nil) != (werr == nil) {
		t.Fatalf("line %q:\n got err %v\nwant err %v", line, gerr, werr)
	}
	if gerr != nil {
		var ge, we *Error
		if !errors.As(gerr, &ge) || !errors.As(werr, &we) || !errors.Is(gerr, ErrInvalid) {
			t.Fatalf("line %q: error %v (%T) is not an *Error wrapping ErrInvalid", line, gerr, gerr)
		}
		if gerr.Error() != werr.Error() || ge.Field != we.Field {
			t.Fatalf("line %q:\n got err %q (field %q)\nwant err %q (field %q)", line, gerr, ge.Field, werr, we.Field)
		}
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("line %q:\n got %#v %#v\nwant %#v %#v", line, got, got.Data, want, want.Data)
	}
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
			e, err := refParseLine(l)
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

// Parse judges every sample line and thousands of mutations of each exactly as the former
// decoder did: same events, same error texts and fields.
func TestParseSameAsReference(t *testing.T) {
	n := 0
	for k, line := range vectorSamples(t) {
		sameAsRef(t, line)
		for _, m := range sampled(mutations(line), k) {
			sameAsRef(t, m)
			n++
		}
	}
	t.Logf("%d lines, %d mutations", len(vectorSamples(t)), n)
}

// The envelope's fields in another order, repeated, or escaped decode as before.
func TestParseFieldOrderSameAsReference(t *testing.T) {
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
		sameAsRef(t, []byte("{"+strings.Join(rot, ",")+"}"))
		moved := append(append(append([]string{}, fields[:i]...), fields[i+1:]...), fields[i])
		sameAsRef(t, []byte("{"+strings.Join(moved, ",")+"}"))
		twice := append(append([]string{}, fields...), fields[i])
		sameAsRef(t, []byte("{"+strings.Join(twice, ",")+"}"))
		esc := append([]string{}, fields...)
		esc[i] = `"\u00` + fmt.Sprintf("%02x", esc[i][1]) + esc[i][2:]
		sameAsRef(t, []byte("{"+strings.Join(esc, ",")+"}"))
	}
	for _, data := range []string{`{"amount":5,"seat":1}`, `{"seat":1,"amount":5,"seat":1}`, `{"seat":1}`, `{"amount":5}`, `{}`, `[]`, `1`, `{"seat":1,"amount":5,"x":{"a":1,"a":2}}`, `{"x":1,"x":2}`} {
		sameAsRef(t, []byte(strings.Replace(base, `{"seat":1,"amount":5}`, data, 1)))
		moved := strings.Replace(base, `,"data":{"seat":1,"amount":5}`, "", 1)
		sameAsRef(t, []byte(`{"data":`+data+","+moved[1:]))
	}
}

// Every object of hand.started and hand.ended, with fields missing, repeated or unknown.
func TestParseNestedSameAsReference(t *testing.T) {
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
		sameAsRef(t, line("hand.started", data))
		for i, m := range mutations([]byte(data)) {
			if i%5 == 0 { // a sample: all of them is slow
				sameAsRef(t, line("hand.started", string(m)))
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
			sameAsRef(t, line("hand.ended", data))
			for _, m := range mutations([]byte(data)) {
				sameAsRef(t, line("hand.ended", string(m)))
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

// refReader is the former Reader: bufio's ReadBytes, then the former decoder.
type refReader struct {
	name string
	r    *bufio.Reader
	line int
	err  error
}

func (r *refReader) readLine() ([]byte, error) {
	if r.err != nil {
		return nil, r.err
	}
	line, err := r.r.ReadBytes('\n')
	if len(line) == 0 && err != nil {
		if err != io.EOF {
			err = &Error{File: r.name, Line: r.line + 1, Err: err}
		}
		r.err = err
		return nil, err
	}
	r.line++
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
	} else if err != nil && err != io.EOF {
		r.err = &Error{File: r.name, Line: r.line, Err: err}
		return nil, r.err
	}
	return line, nil
}

func (r *refReader) next() (*Event, error) {
	for {
		line, err := r.readLine()
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		e, err := refParseLine(line)
		if err != nil {
			var ee *Error
			if errors.As(err, &ee) {
				ee.File, ee.Line = r.name, r.line
			}
			return nil, err
		}
		return e, nil
	}
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
			_, again := next()
			return append(out, item{line: line(), err: err.Error() + " / " + fmt.Sprint(again)})
		}
	}
}

// readers wrap the bytes of a file in readers that deliver them in different ways.
var readers = map[string]func([]byte) io.Reader{
	"whole":    func(b []byte) io.Reader { return bytes.NewReader(b) },
	"one byte": func(b []byte) io.Reader { return iotest.OneByteReader(bytes.NewReader(b)) },
	"data+EOF": func(b []byte) io.Reader { return iotest.DataErrReader(bytes.NewReader(b)) },
	"half":     func(b []byte) io.Reader { return iotest.HalfReader(bytes.NewReader(b)) },
	"fails": func(b []byte) io.Reader {
		return io.MultiReader(bytes.NewReader(b[:len(b)*2/3]), iotest.ErrReader(errors.New("disk on fire")))
	},
}

func sameReadAsRef(t testing.TB, b []byte) {
	t.Helper()
	for name, mk := range readers {
		if len(b) > 1<<19 && (name == "one byte" || name == "half") {
			continue // slow, and no more telling than on shorter inputs
		}
		r := NewReader(mk(b), "f.jsonl")
		got := items(r.Next, r.Line)
		rr := &refReader{name: "f.jsonl", r: bufio.NewReader(mk(b))}
		want := items(rr.next, func() int { return rr.line })
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

// The Reader returns the events and errors the former Reader did, on the vectors and on lines
// much longer than its buffers.
func TestReaderSameAsReference(t *testing.T) {
	in := readInputs(t)
	for _, f := range vectorFiles(t) {
		sameReadAsRef(t, f.data)
	}
	big := in["big"] // over 1 MiB: many chunks of lines, events and data
	sameReadAsRef(t, big)
	long := strings.Replace(good, `"X777"`, `"`+strings.Repeat("x", 64)+`"`, 1)
	reason := `{"id":"908b5493-a4e9-4345-9095-d4d497820d56","table":"t","hand":"83a3b53a-28d7-4272-b797-1272fe65ecfd","seq":9,"at":"2026-11-02T21:00:11Z","type":"misdeal.declared","prev":"","data":{"reason":"` + strings.Repeat("é", 100_000) + `"}}`
	sameReadAsRef(t, []byte(good+"\n"+long+"\n"+reason+"\n"+good+"\n"+reason))
	sameReadAsRef(t, []byte(strings.Repeat(reason+"\r\n\n  \n\u00a0\n", 4)))
	sameReadAsRef(t, []byte(strings.Repeat("x", 300_000)+"\n"+good))
}

// FuzzParseSameAsReference checks that Parse judges any line as the former decoder did.
func FuzzParseSameAsReference(f *testing.F) {
	for _, l := range vectorSamples(f) {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line []byte) { sameAsRef(t, line) })
}

// FuzzReaderSameAsReference checks that the Reader reads any file as the former one did.
func FuzzReaderSameAsReference(f *testing.F) {
	f.Add([]byte(good + "\n" + good + "\n"))
	f.Add([]byte("\n\n" + good))
	f.Add([]byte(good[:40] + "\n" + good + "\r\n"))
	f.Add([]byte("\xef\xbb\xbf" + good + "\n\xff\n"))
	f.Fuzz(func(t *testing.T, b []byte) { sameReadAsRef(t, b) })
}

// The validators of ids, digests, times and table ids accept exactly what the former ones did:
// every byte value at every position of a valid value, and every length around it.
func TestValidatorsSameAsReference(t *testing.T) {
	for _, tc := range []struct {
		name      string
		got, want func([]byte) bool
		samples   []string
	}{
		{"isUUID", isUUID, refIsUUID, []string{"908b5493-a4e9-4345-9095-d4d497820d56", "83A3B53A-28D7-4272-B797-1272FE65ECFD"}},
		{"isHex64", isHex64, refIsHex64, []string{"a31875f3e181e11d7ca81f6a4d4dbbb96be05747298d38935c5a53911fc64f56"}},
		{"isTime", isTime, refIsTime, []string{"2026-11-02T21:00:11.696Z", "2026-11-02T21:00:11Z", "2026-11-02T21:00:11+01:00", "2026-12-31T23:59:60.123456789-23:59"}},
		{"isTableID", isTableID, refIsTableID, []string{"X777", "bench-1", "a", strings.Repeat("Z_9-", 16)}},
	} {
		check := func(s []byte) {
			if g, w := tc.got(s), tc.want(s); g != w {
				t.Errorf("%s(%q) = %v, want %v", tc.name, s, g, w)
			}
		}
		for _, v := range tc.samples {
			check([]byte(v))
			for i := range len(v) + 1 {
				check([]byte(v[:i]))
				check([]byte(v[:i] + "0" + v[i:]))
				if i < len(v) {
					for c := range 256 {
						b := []byte(v)
						b[i] = byte(c)
						check(b)
					}
				}
			}
		}
	}
}
