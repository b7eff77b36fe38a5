package jsonlex

import (
	"bytes"
	"encoding/json"
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
	f.Fuzz(func(t *testing.T, b []byte) {
		l := Lexer{B: b}
		_, err := l.Skip()
		if l.I > len(b) {
			t.Fatalf("Skip read to %d of %d", l.I, len(b))
		}
		if !utf8.Valid(b) || err != nil && strings.Contains(err.Error(), "appears twice") {
			return
		}
		if got, want := err == nil && l.End(), json.Valid(b); got != want {
			t.Errorf("Skip(%q) accepts %v, json.Valid %v", b, got, want)
		}
	})
}
