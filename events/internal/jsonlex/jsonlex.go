// Package jsonlex reads one line of JSON strictly and fast, for decoders of JSON Lines logs that
// are read millions of lines a second. Lexer walks any JSON with plain loops, no callbacks and no
// allocation but for strings that hold escapes, and reports a fault with its column. Scan reads
// text written in one known layout (no spaces, no escapes, fields in an expected order) and only
// says whether it found it, so that a decoder can take a fast path and fall back to Lexer, which
// names the fault. It knows JSON, not what the lines mean: the decoder above it knows the fields.
package jsonlex

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth is how many arrays and objects may be open at once in a line (the outermost
// counted): Open and OpenArray refuse to open one more, with an error wrapping ErrTooDeep. The
// contract's own nesting is 4 (the envelope, data, a list, its objects); what is deeper can only
// be an override of the rules (any JSON), and 64 leaves it room while bounding what a line costs.
const MaxDepth = 64

// ErrTooDeep is wrapped by the error of a value nested deeper than MaxDepth.
var ErrTooDeep = errors.New("nested too deep")

// Lexer reads the JSON of one line, B, from I on. It allocates only for strings that hold
// escapes; its caller walks objects with plain loops (see Open).
type Lexer struct {
	B []byte
	I int
	// Depth is how many arrays and objects are open at I: Open and OpenArray count one more (one
	// not empty), Next and NextElem one less at its end. A caller that steps into a value by other
	// means (a fast path that read the start of the line itself) sets it.
	Depth int
	// Wide is set when a string held a byte of 0x80 or more. Everything outside strings is checked
	// to be ASCII JSON syntax, so a line that decodes without setting Wide is valid UTF-8; only a
	// line that sets it needs utf8.Valid.
	Wide bool
}

// tooDeep is the error of an array or object opened at I beyond MaxDepth.
func (l *Lexer) tooDeep() error {
	return fmt.Errorf("%w: more than %d arrays and objects open at column %d", ErrTooDeep, MaxDepth, l.I+1)
}

func (l *Lexer) ws() {
	for l.I < len(l.B) {
		switch l.B[l.I] {
		case ' ', '\t', '\r', '\n':
			l.I++
		default:
			return
		}
	}
}

// Peek returns the next non-space byte, or 0 at the end.
func (l *Lexer) Peek() byte {
	if l.I < len(l.B) && l.B[l.I] > ' ' {
		return l.B[l.I] // the usual case: no space between tokens
	}
	l.ws()
	if l.I >= len(l.B) {
		return 0
	}
	return l.B[l.I]
}

// End reports whether nothing but white space is left: a byte that Peek shows as 0 (a NUL) is
// something left.
func (l *Lexer) End() bool {
	l.Peek()
	return l.I >= len(l.B)
}

var errEnd = errors.New("unexpected end of line (truncated JSON?)")

func (l *Lexer) Expect(c byte) error {
	switch l.Peek() {
	case c:
		l.I++
		return nil
	case 0:
		return errEnd
	default:
		return fmt.Errorf("want %q at column %d, got %q", c, l.I+1, l.B[l.I])
	}
}

// Kind names the JSON type of the next value, for messages.
func (l *Lexer) Kind() string {
	switch c := l.Peek(); {
	case c == '"':
		return "string"
	case c == '{':
		return "object"
	case c == '[':
		return "array"
	case c == 't' || c == 'f':
		return "boolean"
	case c == 'n':
		return "null"
	case c == '-' || (c >= '0' && c <= '9'):
		return "number"
	case c == 0:
		return "end of line"
	default:
		return fmt.Sprintf("%q", c)
	}
}

// TypeError is a wrong JSON type: it consumes nothing.
type TypeError struct{ Want, Got string }

// Error says which JSON type was wanted and which was found.
func (e *TypeError) Error() string { return "want " + e.Want + ", got " + e.Got }

// strStop marks the bytes that end the fast Scan of a string: the quote, the backslash, control
// characters, and bytes of 0x80 or more (which only set Lexer.Wide).
var strStop = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c == '"' || c == '\\' || c < 0x20 || c >= 0x80
	}
	return t
}()

// Str reads a string. The result aliases the line when it holds no escape.
func (l *Lexer) Str() ([]byte, error) {
	if l.Peek() != '"' {
		return nil, &TypeError{"string", l.Kind()}
	}
	b := l.B
	start := l.I + 1
	for i := start; i < len(b); i++ {
		c := b[i]
		if !strStop[c] {
			continue
		}
		switch {
		case c == '"':
			l.I = i + 1
			return b[start:i], nil
		case c == '\\':
			l.I = i
			return l.strSlow(start)
		case c < 0x20:
			l.I = i
			return nil, fmt.Errorf("control character in string at column %d", i+1)
		default:
			l.Wide = true
		}
	}
	l.I = len(b)
	return nil, errEnd
}

func (l *Lexer) strSlow(start int) ([]byte, error) {
	out := append([]byte(nil), l.B[start:l.I]...)
	for l.I < len(l.B) {
		c := l.B[l.I]
		switch {
		case c == '"':
			l.I++
			return out, nil
		case c < 0x20:
			return nil, fmt.Errorf("control character in string at column %d", l.I+1)
		case c != '\\':
			if c >= 0x80 {
				l.Wide = true
			}
			out = append(out, c)
			l.I++
			continue
		}
		l.I++
		if l.I >= len(l.B) {
			return nil, errEnd
		}
		e := l.B[l.I]
		l.I++
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, err := l.hex4()
			if err != nil {
				return nil, err
			}
			if utf16.IsSurrogate(r) {
				// A pair only when a low surrogate follows; otherwise U+FFFD and the next
				// escape is read on its own (as encoding/json does).
				r2 := rune(-1)
				if l.I+5 < len(l.B) && l.B[l.I] == '\\' && l.B[l.I+1] == 'u' {
					save := l.I
					l.I += 2
					if r2, err = l.hex4(); err != nil {
						return nil, err
					}
					if utf16.DecodeRune(r, r2) == utf8.RuneError {
						l.I, r2 = save, -1
					}
				}
				r = utf16.DecodeRune(r, r2)
			}
			out = utf8.AppendRune(out, r)
		default:
			return nil, fmt.Errorf("bad escape \\%c at column %d", e, l.I)
		}
	}
	return nil, errEnd
}

func (l *Lexer) hex4() (rune, error) {
	if l.I+4 > len(l.B) {
		return 0, errEnd
	}
	v, err := strconv.ParseUint(string(l.B[l.I:l.I+4]), 16, 16)
	if err != nil {
		return 0, fmt.Errorf("bad \\u escape at column %d", l.I+1)
	}
	l.I += 4
	return rune(v), nil
}

// Fixed reads a string that should be n bytes long and pass ok (a UUID, a SHA-256). When the
// closing quote is where expected and the bytes pass, they are returned after a single pass over
// them (ok accepts no quote, backslash, control or non-ASCII byte); otherwise the string is read
// by Str, and ok says nothing: the caller judges it as usual, with the same messages.
func (l *Lexer) Fixed(n int, ok func([]byte) bool) (s []byte, checked bool, err error) {
	i, b := l.I, l.B
	if i+n+1 < len(b) && b[i] == '"' && b[i+n+1] == '"' && ok(b[i+1:i+n+1]) {
		l.I = i + n + 2
		return b[i+1 : i+n+1], true, nil
	}
	s, err = l.Str()
	return s, false, err
}

// Int reads an integer: JSON numbers with a fraction or exponent are refused.
func (l *Lexer) Int() (int64, error) {
	c := l.Peek()
	if c != '-' && (c < '0' || c > '9') {
		return 0, &TypeError{"integer", l.Kind()}
	}
	b := l.B
	start := l.I
	i := start
	neg := false
	if c == '-' {
		neg = true
		i++
	}
	digits := i
	var v int64
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		if v > (1<<62)/5 {
			return 0, fmt.Errorf("integer too large at column %d", start+1)
		}
		v = v*10 + int64(b[i]-'0')
		i++
	}
	l.I = i
	if i == digits {
		return 0, fmt.Errorf("bad number at column %d", start+1)
	}
	if b[digits] == '0' && i-digits > 1 {
		return 0, fmt.Errorf("bad number at column %d: leading zero", start+1)
	}
	if i < len(b) && (b[i] == '.' || b[i] == 'e' || b[i] == 'E') {
		return 0, fmt.Errorf("want integer, got a number with a fraction or exponent at column %d", start+1)
	}
	if neg {
		v = -v
	}
	return v, nil
}

// The walk of an object, without callbacks:
//
//	empty, err := l.Open()
//	for more := !empty; err == nil && more; more, err = l.Next() {
//		k, err = l.Name() // then l.Expect(':') and the value
//	}
//
// Each caller refuses a repeated field: by the bits of the known fields already seen (a field
// the caller does not know is an error the first time), or with a KeySet.

// Open consumes the '{' of an object and reports whether the object is empty. An object that
// would be the MaxDepth+1st open one is refused (ErrTooDeep).
func (l *Lexer) Open() (empty bool, err error) {
	if l.Peek() != '{' {
		return false, &TypeError{"object", l.Kind()}
	}
	if l.Depth >= MaxDepth {
		return false, l.tooDeep()
	}
	l.I++
	if l.Peek() == '}' {
		l.I++
		return true, nil
	}
	l.Depth++
	return false, nil
}

// Name reads the name of the next field of an object.
func (l *Lexer) Name() ([]byte, error) {
	k, err := l.Str()
	if err != nil {
		if _, ok := err.(*TypeError); ok {
			return nil, fmt.Errorf("want a field name at column %d", l.I+1)
		}
		return nil, err
	}
	return k, nil
}

// Next consumes what follows the value of a field: ',' (another field follows) or '}'.
func (l *Lexer) Next() (more bool, err error) { return l.after('}') }

// after consumes what follows a member of an object or an array: ',' (another follows) or its
// closing byte, which leaves one level of nesting.
func (l *Lexer) after(closing byte) (more bool, err error) {
	switch c := l.Peek(); c {
	case ',':
		l.I++
		return true, nil
	case closing:
		l.I++
		l.Depth--
		return false, nil
	case 0:
		return false, errEnd
	default:
		return false, fmt.Errorf("want ',' or '%c' at column %d, got %q", closing, l.I+1, c)
	}
}

// Literal is a short piece of JSON (16 bytes at most) that the decoder expects at a given place,
// kept as two little-endian words as well, so that looking for it there takes two loads and
// compares (a comparison with a string that is not a constant of the function would call
// memequal): its first 8 bytes and its last 8, which overlap when it is shorter than 16; or, when
// it is shorter than 8, its bytes and those after it, masked.
type Literal struct {
	s          string
	need       int // the bytes read: len(s), or 8
	back       int // where the last word starts
	head, tail uint64
	hm, tm     uint64 // the masks of the bytes of s in head and tail
}

// Len is the length of k in bytes.
func (k *Literal) Len() int { return len(k.s) }

// NewLiteral returns s, of 1 to 16 bytes, as a Literal.
func NewLiteral(s string) *Literal {
	if len(s) == 0 || len(s) > 16 {
		panic("events: a Literal has 1 to 16 bytes, not " + s)
	}
	k := &Literal{s: s, need: max(len(s), 8), back: max(len(s)-8, 0)}
	for i := range k.need {
		if i < len(s) {
			k.head |= uint64(s[i]) << (8 * i)
			k.hm |= 0xff << (8 * i)
		}
		if j := k.back + i; j < len(s) {
			k.tail |= uint64(s[j]) << (8 * i)
			k.tm |= 0xff << (8 * i)
		}
	}
	return k
}

// At reports whether b holds k at i. A Literal shorter than 8 bytes is found only where 8 bytes
// are left (a caller that does not find it reads the text another way).
func (k *Literal) At(b []byte, i int) bool {
	if i < 0 || len(b)-i < k.need {
		return false
	}
	le := binary.LittleEndian
	return (le.Uint64(b[i:])^k.head)&k.hm|(le.Uint64(b[i+k.back:])^k.tail)&k.tm == 0
}

// FieldNames are the names of the fields of an object that the decoder knows, in the catalogue's
// order, and each quoted and followed by ':' (`"seat":`), so that the field expected next is
// recognised in place.
type FieldNames struct {
	Names []string
	keys  []*Literal
}

// NewFieldNames returns the FieldNames of an object whose fields are names, in their order.
func NewFieldNames(names ...string) *FieldNames {
	f := &FieldNames{Names: names}
	for _, n := range names {
		f.keys = append(f.keys, NewLiteral(`"`+n+`":`))
	}
	return f
}

// Field reads the name of the next field of an object whose fields are fs, and the ':' after it.
// It returns the index of the name in fs.Names and sets its bit in *seen; a name seen before is
// an error. A name not in fs gives -1 and the name, for the caller to refuse after the ':'.
func (l *Lexer) Field(fs *FieldNames, seen *uint32) (int, []byte, error) {
	// The usual case: the fields come in the catalogue's order, so the next one is the first not
	// yet seen, written without spaces: it is recognised in place.
	if j := bits.TrailingZeros32(^*seen); j < len(fs.keys) && fs.keys[j].At(l.B, l.I) {
		*seen |= 1 << j
		l.I += len(fs.keys[j].s)
		return j, nil, nil
	}
	k, err := l.Name()
	if err != nil {
		return 0, nil, err
	}
	idx := -1
	for j, n := range fs.Names {
		if n == string(k) {
			idx = j
			break
		}
	}
	if idx >= 0 {
		if *seen&(1<<idx) != 0 {
			return 0, nil, fmt.Errorf("field %q appears twice", k)
		}
		*seen |= 1 << idx
	}
	if err := l.Expect(':'); err != nil {
		return 0, nil, err
	}
	return idx, k, nil
}

// KeySet refuses a repeated field of an object whose field names are free (rules overrides, and
// skipped values). Like the decoder always has, it remembers the first 16 names.
type KeySet struct {
	seen [16][]byte
	n    int
}

// Add records k, or reports it as repeated.
func (s *KeySet) Add(k []byte) error {
	for _, x := range s.seen[:s.n] {
		if string(x) == string(k) {
			return fmt.Errorf("field %q appears twice", k)
		}
	}
	if s.n < len(s.seen) {
		s.seen[s.n] = k
		s.n++
	}
	return nil
}

// OpenArray consumes the '[' of an array and reports whether the array is empty. An array that
// would be the MaxDepth+1st open array or object is refused (ErrTooDeep).
func (l *Lexer) OpenArray() (empty bool, err error) {
	if l.Peek() != '[' {
		return false, &TypeError{"array", l.Kind()}
	}
	if l.Depth >= MaxDepth {
		return false, l.tooDeep()
	}
	l.I++
	if l.Peek() == ']' {
		l.I++
		return true, nil
	}
	l.Depth++
	return false, nil
}

// NextElem consumes what follows an element of an array: ',' (another element follows) or ']'.
func (l *Lexer) NextElem() (more bool, err error) { return l.after(']') }

// Bool reads true or false.
func (l *Lexer) Bool() (bool, error) {
	switch l.Peek() {
	case 't':
		return true, l.lit("true")
	case 'f':
		return false, l.lit("false")
	}
	return false, &TypeError{"boolean", l.Kind()}
}

// Skip consumes any value, checking that it is well formed (no field named twice in an object,
// no more than MaxDepth arrays and objects open), and returns its bytes. It walks arrays and
// objects with a loop, not by recursion, so that no line can make it run out of stack.
func (l *Lexer) Skip() ([]byte, error) {
	l.Peek()
	start := l.I
	if err := l.skip(); err != nil {
		return nil, err
	}
	return l.B[start:l.I], nil
}

// skip is Skip. The arrays and objects it has opened are a stack of at most MaxDepth (64): one
// bit each in objs (set for an object), the innermost the lowest, and, for the objects, the
// names seen so far, to refuse one named twice.
func (l *Lexer) skip() error {
	var objs uint64
	var local [4]KeySet // enough for the values of the contract; deeper ones grow it
	keys := local[:0]
	base := l.Depth
	for {
		// A value.
		var err error
		var empty bool
		switch c := l.Peek(); {
		case c == '{':
			if empty, err = l.Open(); err == nil && !empty {
				objs = objs<<1 | 1
				keys = append(keys, KeySet{})
				if err = l.member(&keys[len(keys)-1]); err == nil {
					continue // the first field's value
				}
			}
		case c == '[':
			if empty, err = l.OpenArray(); err == nil && !empty {
				objs <<= 1
				continue // the first element
			}
		case c == '"':
			_, err = l.Str()
		case c == 't':
			err = l.lit("true")
		case c == 'f':
			err = l.lit("false")
		case c == 'n':
			err = l.lit("null")
		case c == '-' || (c >= '0' && c <= '9'):
			err = l.number()
		case c == 0:
			err = errEnd
		default:
			err = fmt.Errorf("unexpected %q at column %d", c, l.I+1)
		}
		if err != nil {
			return err
		}
		// The value is done: what follows it in the arrays and objects it is in, closing those
		// that end, until one goes on with another value.
		for {
			if l.Depth == base {
				return nil
			}
			var more bool
			if objs&1 != 0 {
				if more, err = l.Next(); err == nil && more {
					err = l.member(&keys[len(keys)-1])
				}
			} else {
				more, err = l.NextElem()
			}
			if err != nil {
				return err
			}
			if more {
				break
			}
			if objs&1 != 0 {
				keys = keys[:len(keys)-1]
			}
			objs >>= 1
		}
	}
}

// member reads the name of an object's next field and the ':' after it, refusing a name seen
// before in keys.
func (l *Lexer) member(keys *KeySet) error {
	k, err := l.Name()
	if err == nil {
		if err = keys.Add(k); err == nil {
			err = l.Expect(':')
		}
	}
	return err
}

// Object walks an object whose field names are free: for each field it reads the name, refuses
// one seen before (as KeySet does), reads the ':' and calls value, which reads the field's value.
// It stops at the first error, value's included.
func (l *Lexer) Object(value func(k []byte) error) error {
	var keys KeySet
	empty, err := l.Open()
	for more := !empty; err == nil && more; more, err = l.Next() {
		var k []byte
		if k, err = l.Name(); err == nil {
			if err = keys.Add(k); err == nil {
				if err = l.Expect(':'); err == nil {
					err = value(k)
				}
			}
		}
		if err != nil {
			break
		}
	}
	return err
}

func (l *Lexer) lit(s string) error {
	if l.I+len(s) > len(l.B) || string(l.B[l.I:l.I+len(s)]) != s {
		return fmt.Errorf("bad Literal at column %d", l.I+1)
	}
	l.I += len(s)
	return nil
}

// digits consumes decimal digits and returns how many.
func (l *Lexer) digits() int {
	n := 0
	for l.I < len(l.B) && l.B[l.I] >= '0' && l.B[l.I] <= '9' {
		l.I++
		n++
	}
	return n
}

// number consumes a number of the JSON grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (l *Lexer) number() error {
	start := l.I
	if l.I < len(l.B) && l.B[l.I] == '-' {
		l.I++
	}
	if l.I < len(l.B) && l.B[l.I] == '0' {
		l.I++
	} else if l.digits() == 0 {
		return badNumber(start)
	}
	if l.I < len(l.B) && l.B[l.I] == '.' {
		l.I++
		if l.digits() == 0 {
			return badNumber(start)
		}
	}
	if l.I < len(l.B) && (l.B[l.I] == 'e' || l.B[l.I] == 'E') {
		l.I++
		if l.I < len(l.B) && (l.B[l.I] == '+' || l.B[l.I] == '-') {
			l.I++
		}
		if l.digits() == 0 {
			return badNumber(start)
		}
	}
	if l.I < len(l.B) && (l.B[l.I] >= '0' && l.B[l.I] <= '9' || l.B[l.I] == '.' || l.B[l.I] == '+' || l.B[l.I] == '-') {
		return badNumber(start)
	}
	return nil
}

func badNumber(start int) error { return fmt.Errorf("bad number at column %d", start+1) }

// Scan reads JSON as fechado writes it (Encode: no spaces, no escapes, the fields in the
// catalogue's order), for the decoder's fast paths. Each step checks the next piece in place and
// moves past it; a piece that is not there fails the Scan (ok false), after which the steps read
// nothing of use but stay in bounds, so that a fast path checks ok once, at its end. A failed
// Scan has decoded nothing for good: its caller decodes the value by the general walk, which
// reports the fault.
type Scan struct {
	B  []byte
	I  int
	OK bool
}

// Lit steps past k.
func (s *Scan) Lit(k *Literal) {
	s.OK = s.OK && k.At(s.B, s.I)
	s.I += len(k.s)
}

// Eat steps past c and reports whether it was there: a choice between pieces (the Scan does not
// fail without it).
func (s *Scan) Eat(c byte) bool {
	if HasByte(s.B, s.I, c) {
		s.I++
		return true
	}
	return false
}

// Uint reads a number of Uint's form.
func (s *Scan) Uint() int64 {
	v, j := Uint(s.B, s.I)
	s.OK = s.OK && v >= 0
	s.I = j
	return v
}

// Str reads a string of bytes 0x20 to 0x7f without escapes, and returns it without its quotes
// (aliasing the line). Such a string is one that Lexer.Str would return as it is, leaving the
// lexer's Wide unset.
func (s *Scan) Str() []byte {
	b, i := s.B, s.I
	if HasByte(b, i, '"') {
		for j := i + 1; j < len(b); j++ {
			if strStop[b[j]] {
				if b[j] != '"' {
					break
				}
				s.I = j + 1
				return b[i+1 : j]
			}
		}
	}
	s.OK = false
	return nil
}

// Bool reads true or false.
func (s *Scan) Bool() bool {
	switch {
	case string(Span(s.B, s.I, 4)) == "true":
		s.I += 4
		return true
	case string(Span(s.B, s.I, 5)) == "false":
		s.I += 5
		return false
	}
	s.OK = false
	return false
}

// Fixed reads a string of n bytes that passes valid (a UUID, a SHA-256), without its quotes.
func (s *Scan) Fixed(n int, valid func([]byte) bool) []byte {
	v := Span(s.B, s.I+1, n)
	s.OK = s.OK && HasByte(s.B, s.I, '"') && HasByte(s.B, s.I+n+1, '"') && valid(v)
	s.I += n + 2
	return v
}

// Span returns b[i:i+n], or nil when b is shorter.
func Span(b []byte, i, n int) []byte {
	if i < 0 || n > len(b)-i {
		return nil
	}
	return b[i : i+n]
}

// HasByte reports whether b holds c at i.
func HasByte(b []byte, i int, c byte) bool { return i >= 0 && i < len(b) && b[i] == c }

// Uint reads 0, or 1 to 18 digits not starting with 0 (so no overflow), at b[i:]; it returns
// the number and the index after it, or -1 and 0. One pass: the digits are added up as they are
// found (a longer number overflows v, but is refused).
func Uint(b []byte, i int) (int64, int) {
	var v int64
	j := i
	for ; j < len(b); j++ {
		c := b[j] - '0'
		if c > 9 {
			break
		}
		v = v*10 + int64(c)
	}
	if n := j - i; n == 0 || n > 18 || n > 1 && b[i] == '0' {
		return -1, 0
	}
	return v, j
}

// KindOf names the JSON type of a value that starts with c, for messages.
func KindOf(c byte) string {
	l := Lexer{B: []byte{c}}
	return l.Kind()
}
