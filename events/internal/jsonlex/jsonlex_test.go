package jsonlex

import (
	"bytes"
	"encoding/json"
	"errors"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// valueSamples are JSON texts, valid and not, that Skip must judge as encoding/json does.
var valueSamples = []string{
	`{}`, `[]`, `{"a":1,"b":[true,false,null],"c":{"d":"e"}}`, ` { "a" : [ 1 , 2 ] } `, `"x"`, `"\u00e9\n\"\\\/"`,
	`0`, `-0`, `12`, `-12.5e+3`, `1E9`, `0.5`, `"é"`, `"\ud83d\ude00"`, `[{"a":{}}]`,
	`01`, `1.`, `.5`, `-`, `1e`, `+1`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `[1 2]`, `{a:1}`, `tru`, `nul`,
	`"abc`, `"\x"`, `"\u12"`, "\"a\tb\"", `{"a":1}}`, `[`, `{`, ``, `  `, `1 2`, `{"a":1 "b":2}`, `"\u00zz"`, "0\x00", "{}\x00 ",
	`[[],{},[{}],{"a":[]}]`, `{"a":{"b":{"c":[1,{"d":[]}]}},"e":2}`, `[[1],[2,[3]],4]`, `{"a":[1,2],"b":{}}`,
	`[[]`, `[{]`, `{"a":[}`, `[1]]`, `{"a":{"b":1}`, `[{"a":1,}]`,
	nested(MaxDepth, "", ""), nested(MaxDepth, `{"a":`, `}`), nested(MaxDepth-1, "", "") + "1",
}

// nested returns n arrays (or, with open and close, n of those pieces) nested around nothing,
// or around 0 when the pieces end with a field name.
func nested(n int, open, close string) string {
	if open == "" {
		open, close = "[", "]"
	}
	inner := ""
	if strings.HasSuffix(open, ":") {
		inner = "0"
	}
	return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
}

// skipValid reports whether Skip reads all of b as one value, as json.Valid judges a document.
func skipValid(b []byte) bool {
	l := Lexer{B: b}
	_, err := l.Skip()
	return err == nil && l.End()
}

// Skip accepts exactly the JSON that encoding/json accepts (RFC 8259's grammar), for texts of valid
// UTF-8 without repeated keys, which Lexer refuses where encoding/json does not.
func TestSkipSameAsJSONValid(t *testing.T) {
	for _, s := range valueSamples {
		if got, want := skipValid([]byte(s)), json.Valid([]byte(s)); got != want {
			t.Errorf("Skip(%q) accepts %v, json.Valid %v", s, got, want)
		}
	}
}

// Lexer refuses a repeated field name, which encoding/json lets through.
func TestObjectRefusesRepeatedNames(t *testing.T) {
	if skipValid([]byte(`{"a":1,"a":2}`)) {
		t.Error(`Skip accepts {"a":1,"a":2}`)
	}
	var got []string
	l := Lexer{B: []byte(`{"x":1, "y":"z"}`)}
	err := l.Object(func(k []byte) error {
		got = append(got, string(k))
		_, err := l.Skip()
		return err
	})
	if err != nil || strings.Join(got, ",") != "x,y" {
		t.Errorf("Object read %q, %v", got, err)
	}
}

// Str decodes escapes as encoding/json does, and sets Wide exactly for a string with a byte of
// 0x80 or more.
func TestStrSameAsUnmarshal(t *testing.T) {
	for _, s := range []string{`"plain"`, `"\u00e9\n\"\\\/\b\f\r\t"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\ud83d\u0041"`, `"São"`, `""`} {
		var want string
		if err := json.Unmarshal([]byte(s), &want); err != nil {
			t.Fatal(err)
		}
		l := Lexer{B: []byte(s)}
		got, err := l.Str()
		if err != nil || string(got) != want || l.I != len(s) {
			t.Errorf("Str(%s) = %q, %v at %d, want %q", s, got, err, l.I, want)
		}
		if wide := !isASCII(s); l.Wide != wide {
			t.Errorf("Str(%s) sets Wide %v", s, l.Wide)
		}
	}
	for _, s := range []string{`"a`, "\"a\x01\"", `"\q"`, `1`} {
		l := Lexer{B: []byte(s)}
		if _, err := l.Str(); err == nil {
			t.Errorf("Str(%s) accepts it", s)
		}
	}
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Int reads JSON integers and refuses numbers with a fraction or exponent, leading zeros and
// values beyond int64's range.
func TestInt(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true}, {"-7", -7, true}, {"9007199254740993", 9007199254740993, true},
		{"01", 0, false}, {"1.0", 0, false}, {"1e3", 0, false}, {"-", 0, false}, {`"1"`, 0, false},
		{"99999999999999999999", 0, false},
	} {
		l := Lexer{B: []byte(tc.in)}
		got, err := l.Int()
		if (err == nil) != tc.ok || tc.ok && got != tc.want {
			t.Errorf("Int(%s) = %d, %v", tc.in, got, err)
		}
	}
}

// A Literal is found where its bytes are, and nowhere else, whatever its length and place.
func TestLiteralAt(t *testing.T) {
	text := []byte(`{"seat":4,"amount":250,"player":"Ana","x":{}}`)
	for n := 1; n <= 16; n++ {
		for i := 0; i+n <= len(text); i++ {
			k := NewLiteral(string(text[i : i+n]))
			for j := range len(text) + 1 {
				want := bytes.HasPrefix(text[j:], text[i:i+n]) && len(text)-j >= max(n, 8)
				if got := k.At(text, j); got != want {
					t.Fatalf("NewLiteral(%q).At(%d) = %v", text[i:i+n], j, got)
				}
			}
		}
	}
}

// Field recognises the names of an object in any order, gives -1 for an unknown one and refuses
// a known one twice.
func TestField(t *testing.T) {
	fs := NewFieldNames("a", "b", "c")
	read := func(s string) ([]int, error) {
		var seen uint32
		var got []int
		l := Lexer{B: []byte(s)}
		empty, err := l.Open()
		for more := !empty; err == nil && more; more, err = l.Next() {
			var i int
			if i, _, err = l.Field(fs, &seen); err != nil {
				break
			}
			got = append(got, i)
			if _, err = l.Skip(); err != nil {
				break
			}
		}
		return got, err
	}
	for s, want := range map[string]string{`{"a":1,"b":2,"c":3}`: "[0 1 2]", `{"c":3, "a":1}`: "[2 0]", `{"z":0,"b":1}`: "[-1 1]"} {
		if got, err := read(s); err != nil || fmtInts(got) != want {
			t.Errorf("Field over %s = %v, %v, want %s", s, got, err, want)
		}
	}
	if _, err := read(`{"a":1,"a":2}`); err == nil {
		t.Error("Field accepts a repeated name")
	}
}

func fmtInts(xs []int) string {
	b, _ := json.Marshal(xs)
	return strings.ReplaceAll(strings.ReplaceAll(string(b), ",", " "), `"`, "")
}

// Scan reads the layout it is given and fails, staying in bounds, on anything else.
func TestScan(t *testing.T) {
	lit := NewLiteral(`{"n":`)
	sc := Scan{B: []byte(`{"n":42,"s":"ok","t":true}`), OK: true}
	sc.Lit(lit)
	n := sc.Uint()
	sc.Lit(NewLiteral(`,"s":`))
	s := sc.Str()
	sc.Lit(NewLiteral(`,"t":`))
	b := sc.Bool()
	if !sc.Eat('}') || !sc.OK || n != 42 || string(s) != "ok" || !b || sc.I != len(sc.B) {
		t.Errorf("Scan read %d %q %v, ok %v at %d", n, s, b, sc.OK, sc.I)
	}
	for _, bad := range []string{`{"n":042}`, `{"n":-1}`, `{"n":`, `{"m":1}`, ``} {
		sc := Scan{B: []byte(bad), OK: true}
		sc.Lit(lit)
		sc.Uint()
		if sc.OK && sc.Eat('}') {
			t.Errorf("Scan accepts %q", bad)
		}
	}
}

// FuzzSkip: Skip judges any text as encoding/json does (valid UTF-8, no repeated names), and
// never reads past the line.
func FuzzSkip(f *testing.F) {
	for _, s := range valueSamples {
		f.Add([]byte(s))
	}
	for _, s := range deepSamples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		l := Lexer{B: b}
		_, err := l.Skip()
		if l.I > len(b) {
			t.Fatalf("Skip read to %d of %d", l.I, len(b))
		}
		if !utf8.Valid(b) || err != nil && strings.Contains(err.Error(), "appears twice") || errors.Is(err, ErrTooDeep) {
			return // refusals of the Lexer's own, which encoding/json lets through
		}
		if got, want := err == nil && l.End(), json.Valid(b); got != want {
			t.Errorf("Skip(%q) accepts %v, json.Valid %v", b, got, want)
		}
	})
}

// deepSamples nest arrays and objects beyond MaxDepth, up to the 4,000,000 of a line of 8 MB.
var deepSamples = []string{
	nested(MaxDepth+1, "", ""), nested(MaxDepth+1, `{"a":`, `}`), nested(MaxDepth+1, `[{"a":`, `}]`),
	strings.Repeat("[", 100_000), nested(4_000_000, "", ""),
}

// Skip reads values nested up to MaxDepth and refuses deeper ones (ErrTooDeep), counting the
// arrays and objects its caller opened before (Lexer.Depth); it walks them with a loop, so
// that the 4,000,000 arrays of a line of 8 MB neither overflow the stack (a fatal error in Go,
// which no recover catches) nor cost more than the refusal at the 65th.
func TestSkipDepthLimit(t *testing.T) {
	for _, tc := range []struct {
		text  string
		depth int // Lexer.Depth before Skip: arrays and objects the caller opened
		deep  bool
	}{
		{nested(MaxDepth, "", ""), 0, false},
		{nested(MaxDepth, `{"a":`, `}`), 0, false},
		{nested(MaxDepth/2, `[{"a":`, `}]`), 0, false},
		{nested(MaxDepth+1, "", ""), 0, true},
		{nested(MaxDepth+1, `{"a":`, `}`), 0, true},
		{nested(MaxDepth-3, "", ""), 3, false},
		{nested(MaxDepth-2, "", ""), 3, true},
		{strings.Repeat("[", 100_000), 0, true},
		{nested(4_000_000, "", ""), 0, true},
		{nested(4_000_000, `{"a":`, `}`), 0, true},
	} {
		l := Lexer{B: []byte(tc.text), Depth: tc.depth}
		_, err := l.Skip()
		if got := errors.Is(err, ErrTooDeep); got != tc.deep {
			t.Errorf("Skip(%.40q…, %d bytes) at depth %d: %v, want too deep %v", tc.text, len(tc.text), tc.depth, err, tc.deep)
		}
		if !tc.deep && (err != nil || !l.End() || l.Depth != tc.depth) {
			t.Errorf("Skip(%.40q…) at depth %d: %v, at %d of %d, depth after %d", tc.text, tc.depth, err, l.I, len(tc.text), l.Depth)
		}
		if tc.deep && (l.I > MaxDepth*len(`[{"a":`)+1) {
			t.Errorf("Skip(%.40q…) read %d bytes before refusing it", tc.text, l.I)
		}
	}
}

// The typed walk (Open, OpenArray) counts its depth too, and refuses the 65th open level.
func TestOpenDepthLimit(t *testing.T) {
	l := Lexer{B: []byte(nested(MaxDepth+1, `{"a":`, `}`))}
	var err error
	for range MaxDepth + 1 {
		if _, err = l.Open(); err != nil {
			break
		}
		if _, err = l.Name(); err == nil {
			err = l.Expect(':')
		}
	}
	if !errors.Is(err, ErrTooDeep) || l.Depth != MaxDepth {
		t.Errorf("Open at depth %d: %v", l.Depth, err)
	}
	l = Lexer{B: []byte(`[[1],[]]`)}
	if _, err := l.OpenArray(); err != nil || l.Depth != 1 {
		t.Fatalf("OpenArray: %v, depth %d", err, l.Depth)
	}
	if _, err := l.Skip(); err != nil || l.Depth != 1 {
		t.Fatalf("Skip: %v, depth %d", err, l.Depth)
	}
	for {
		more, err := l.NextElem()
		if err != nil {
			t.Fatal(err)
		}
		if !more {
			break
		}
		if _, err := l.Skip(); err != nil {
			t.Fatal(err)
		}
	}
	if l.Depth != 0 || !l.End() {
		t.Errorf("depth %d after the array, at %d", l.Depth, l.I)
	}
}

// Skipping a deep value costs no stack and little memory: the goroutine's stack does not grow
// (runtime.MemStats.StackInuse) and the heap grows by less than 1 MiB.
func TestSkipDeepBoundedMemory(t *testing.T) {
	b := []byte(nested(4_000_000, "", ""))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	l := Lexer{B: b}
	_, err := l.Skip()
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTooDeep) {
		t.Fatalf("Skip of 4,000,000 arrays: %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("Skip allocated %d bytes", grew)
	}
	if after.StackInuse > before.StackInuse+1<<20 {
		t.Errorf("stacks grew from %d to %d bytes", before.StackInuse, after.StackInuse)
	}
}
