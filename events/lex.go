package events

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/fechado/fechado/cards"
)

// lexer reads the JSON of one line. It is hand-written because the auditor decodes millions of
// events a second: it allocates only for strings that hold escapes, and the decoder walks objects
// with plain loops (no callbacks), so that decoding an event costs a few hundred nanoseconds.
type lexer struct {
	b []byte
	i int
	// wide is set when a string held a byte of 0x80 or more. Everything outside strings is checked
	// to be ASCII JSON syntax, so a line that decodes without setting it is valid UTF-8; only a
	// line that sets it needs utf8.Valid (see decoder.parseLine).
	wide bool
}

func (l *lexer) ws() {
	for l.i < len(l.b) {
		switch l.b[l.i] {
		case ' ', '\t', '\r', '\n':
			l.i++
		default:
			return
		}
	}
}

// peek returns the next non-space byte, or 0 at the end.
func (l *lexer) peek() byte {
	if l.i < len(l.b) && l.b[l.i] > ' ' {
		return l.b[l.i] // the usual case: no space between tokens
	}
	l.ws()
	if l.i >= len(l.b) {
		return 0
	}
	return l.b[l.i]
}

var errEnd = errors.New("unexpected end of line (truncated JSON?)")

func (l *lexer) expect(c byte) error {
	switch l.peek() {
	case c:
		l.i++
		return nil
	case 0:
		return errEnd
	default:
		return fmt.Errorf("want %q at column %d, got %q", c, l.i+1, l.b[l.i])
	}
}

// kind names the JSON type of the next value, for messages.
func (l *lexer) kind() string {
	switch c := l.peek(); {
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

// typeErr is a wrong JSON type: it consumes nothing.
type typeErr struct{ want, got string }

func (e *typeErr) Error() string { return "want " + e.want + ", got " + e.got }

// strStop marks the bytes that end the fast scan of a string: the quote, the backslash, control
// characters, and bytes of 0x80 or more (which only set lexer.wide).
var strStop = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c == '"' || c == '\\' || c < 0x20 || c >= 0x80
	}
	return t
}()

// str reads a string. The result aliases the line when it holds no escape.
func (l *lexer) str() ([]byte, error) {
	if l.peek() != '"' {
		return nil, &typeErr{"string", l.kind()}
	}
	b := l.b
	start := l.i + 1
	for i := start; i < len(b); i++ {
		c := b[i]
		if !strStop[c] {
			continue
		}
		switch {
		case c == '"':
			l.i = i + 1
			return b[start:i], nil
		case c == '\\':
			l.i = i
			return l.strSlow(start)
		case c < 0x20:
			l.i = i
			return nil, fmt.Errorf("control character in string at column %d", i+1)
		default:
			l.wide = true
		}
	}
	l.i = len(b)
	return nil, errEnd
}

func (l *lexer) strSlow(start int) ([]byte, error) {
	out := append([]byte(nil), l.b[start:l.i]...)
	for l.i < len(l.b) {
		c := l.b[l.i]
		switch {
		case c == '"':
			l.i++
			return out, nil
		case c < 0x20:
			return nil, fmt.Errorf("control character in string at column %d", l.i+1)
		case c != '\\':
			if c >= 0x80 {
				l.wide = true
			}
			out = append(out, c)
			l.i++
			continue
		}
		l.i++
		if l.i >= len(l.b) {
			return nil, errEnd
		}
		e := l.b[l.i]
		l.i++
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
				if l.i+5 < len(l.b) && l.b[l.i] == '\\' && l.b[l.i+1] == 'u' {
					save := l.i
					l.i += 2
					if r2, err = l.hex4(); err != nil {
						return nil, err
					}
					if utf16.DecodeRune(r, r2) == utf8.RuneError {
						l.i, r2 = save, -1
					}
				}
				r = utf16.DecodeRune(r, r2)
			}
			out = utf8.AppendRune(out, r)
		default:
			return nil, fmt.Errorf("bad escape \\%c at column %d", e, l.i)
		}
	}
	return nil, errEnd
}

func (l *lexer) hex4() (rune, error) {
	if l.i+4 > len(l.b) {
		return 0, errEnd
	}
	v, err := strconv.ParseUint(string(l.b[l.i:l.i+4]), 16, 16)
	if err != nil {
		return 0, fmt.Errorf("bad \\u escape at column %d", l.i+1)
	}
	l.i += 4
	return rune(v), nil
}

// fixed reads a string that should be n bytes long and pass ok (a UUID, a SHA-256). When the
// closing quote is where expected and the bytes pass, they are returned after a single pass over
// them (ok accepts no quote, backslash, control or non-ASCII byte); otherwise the string is read
// by str, and ok says nothing: the caller judges it as usual, with the same messages.
func (l *lexer) fixed(n int, ok func([]byte) bool) (s []byte, checked bool, err error) {
	i, b := l.i, l.b
	if i+n+1 < len(b) && b[i] == '"' && b[i+n+1] == '"' && ok(b[i+1:i+n+1]) {
		l.i = i + n + 2
		return b[i+1 : i+n+1], true, nil
	}
	s, err = l.str()
	return s, false, err
}

// int reads an integer: JSON numbers with a fraction or exponent are refused.
func (l *lexer) int() (int64, error) {
	c := l.peek()
	if c != '-' && (c < '0' || c > '9') {
		return 0, &typeErr{"integer", l.kind()}
	}
	b := l.b
	start := l.i
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
	l.i = i
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
//	empty, err := l.open()
//	for more := !empty; err == nil && more; more, err = l.next() {
//		k, err = l.name() // then l.expect(':') and the value
//	}
//
// Each caller refuses a repeated field: by the bits of the known fields already seen (a field
// the caller does not know is an error the first time), or with a keySet.

// open consumes the '{' of an object and reports whether the object is empty.
func (l *lexer) open() (empty bool, err error) {
	if l.peek() != '{' {
		return false, &typeErr{"object", l.kind()}
	}
	l.i++
	if l.peek() == '}' {
		l.i++
		return true, nil
	}
	return false, nil
}

// name reads the name of the next field of an object.
func (l *lexer) name() ([]byte, error) {
	k, err := l.str()
	if err != nil {
		if _, ok := err.(*typeErr); ok {
			return nil, fmt.Errorf("want a field name at column %d", l.i+1)
		}
		return nil, err
	}
	return k, nil
}

// next consumes what follows the value of a field: ',' (another field follows) or '}'.
func (l *lexer) next() (more bool, err error) {
	switch l.peek() {
	case ',':
		l.i++
		return true, nil
	case '}':
		l.i++
		return false, nil
	case 0:
		return false, errEnd
	default:
		return false, fmt.Errorf("want ',' or '}' at column %d, got %q", l.i+1, l.b[l.i])
	}
}

// literal is a short piece of JSON (16 bytes at most) that the decoder expects at a given place,
// kept as two little-endian words as well, so that looking for it there takes two loads and
// compares (a comparison with a string that is not a constant of the function would call
// memequal): its first 8 bytes and its last 8, which overlap when it is shorter than 16; or, when
// it is shorter than 8, its bytes and those after it, masked.
type literal struct {
	s          string
	need       int // the bytes read: len(s), or 8
	back       int // where the last word starts
	head, tail uint64
	hm, tm     uint64 // the masks of the bytes of s in head and tail
}

func newLiteral(s string) *literal {
	if len(s) == 0 || len(s) > 16 {
		panic("events: a literal has 1 to 16 bytes, not " + s)
	}
	k := &literal{s: s, need: max(len(s), 8), back: max(len(s)-8, 0)}
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

// at reports whether b holds k at i. A literal shorter than 8 bytes is found only where 8 bytes
// are left (a caller that does not find it reads the text another way).
func (k *literal) at(b []byte, i int) bool {
	if i < 0 || len(b)-i < k.need {
		return false
	}
	le := binary.LittleEndian
	return (le.Uint64(b[i:])^k.head)&k.hm|(le.Uint64(b[i+k.back:])^k.tail)&k.tm == 0
}

// fieldNames are the names of the fields of an object that the decoder knows, in the catalogue's
// order, and each quoted and followed by ':' (`"seat":`), so that the field expected next is
// recognised in place.
type fieldNames struct {
	names []string
	keys  []*literal
}

func newFieldNames(names ...string) *fieldNames {
	f := &fieldNames{names: names}
	for _, n := range names {
		f.keys = append(f.keys, newLiteral(`"`+n+`":`))
	}
	return f
}

// field reads the name of the next field of an object whose fields are fs, and the ':' after it.
// It returns the index of the name in fs.names and sets its bit in *seen; a name seen before is
// an error. A name not in fs gives -1 and the name, for the caller to refuse after the ':'.
func (l *lexer) field(fs *fieldNames, seen *uint32) (int, []byte, error) {
	// The usual case: the fields come in the catalogue's order, so the next one is the first not
	// yet seen, written without spaces: it is recognised in place.
	if j := bits.TrailingZeros32(^*seen); j < len(fs.keys) && fs.keys[j].at(l.b, l.i) {
		*seen |= 1 << j
		l.i += len(fs.keys[j].s)
		return j, nil, nil
	}
	k, err := l.name()
	if err != nil {
		return 0, nil, err
	}
	idx := -1
	for j, n := range fs.names {
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
	if err := l.expect(':'); err != nil {
		return 0, nil, err
	}
	return idx, k, nil
}

// keySet refuses a repeated field of an object whose field names are free (rules overrides, and
// skipped values). Like the decoder always has, it remembers the first 16 names.
type keySet struct {
	seen [16][]byte
	n    int
}

func (s *keySet) add(k []byte) error {
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

// openArray consumes the '[' of an array and reports whether the array is empty.
func (l *lexer) openArray() (empty bool, err error) {
	if l.peek() != '[' {
		return false, &typeErr{"array", l.kind()}
	}
	l.i++
	if l.peek() == ']' {
		l.i++
		return true, nil
	}
	return false, nil
}

// nextElem consumes what follows an element of an array: ',' (another element follows) or ']'.
func (l *lexer) nextElem() (more bool, err error) {
	switch l.peek() {
	case ',':
		l.i++
		return true, nil
	case ']':
		l.i++
		return false, nil
	case 0:
		return false, errEnd
	default:
		return false, fmt.Errorf("want ',' or ']' at column %d, got %q", l.i+1, l.b[l.i])
	}
}

// boolean reads true or false.
func (l *lexer) boolean() (bool, error) {
	switch l.peek() {
	case 't':
		return true, l.lit("true")
	case 'f':
		return false, l.lit("false")
	}
	return false, &typeErr{"boolean", l.kind()}
}

// skip consumes any value, checking that it is well formed, and returns its bytes.
func (l *lexer) skip() ([]byte, error) {
	c := l.peek()
	start := l.i
	var err error
	switch {
	case c == '"':
		_, err = l.str()
	case c == '{':
		err = l.skipObject()
	case c == '[':
		err = l.skipArray()
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
		err = fmt.Errorf("unexpected %q at column %d", c, l.i+1)
	}
	if err != nil {
		return nil, err
	}
	return l.b[start:l.i], nil
}

func (l *lexer) skipObject() error {
	var keys keySet
	empty, err := l.open()
	for more := !empty; err == nil && more; more, err = l.next() {
		var k []byte
		if k, err = l.name(); err != nil {
			break
		}
		if err = keys.add(k); err != nil {
			break
		}
		if err = l.expect(':'); err != nil {
			break
		}
		if _, err = l.skip(); err != nil {
			break
		}
	}
	return err
}

func (l *lexer) skipArray() error {
	empty, err := l.openArray()
	for more := !empty; err == nil && more; more, err = l.nextElem() {
		if _, err = l.skip(); err != nil {
			break
		}
	}
	return err
}

func (l *lexer) lit(s string) error {
	if l.i+len(s) > len(l.b) || string(l.b[l.i:l.i+len(s)]) != s {
		return fmt.Errorf("bad literal at column %d", l.i+1)
	}
	l.i += len(s)
	return nil
}

// digits consumes decimal digits and returns how many.
func (l *lexer) digits() int {
	n := 0
	for l.i < len(l.b) && l.b[l.i] >= '0' && l.b[l.i] <= '9' {
		l.i++
		n++
	}
	return n
}

// number consumes a number of the JSON grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (l *lexer) number() error {
	start := l.i
	if l.i < len(l.b) && l.b[l.i] == '-' {
		l.i++
	}
	if l.i < len(l.b) && l.b[l.i] == '0' {
		l.i++
	} else if l.digits() == 0 {
		return badNumber(start)
	}
	if l.i < len(l.b) && l.b[l.i] == '.' {
		l.i++
		if l.digits() == 0 {
			return badNumber(start)
		}
	}
	if l.i < len(l.b) && (l.b[l.i] == 'e' || l.b[l.i] == 'E') {
		l.i++
		if l.i < len(l.b) && (l.b[l.i] == '+' || l.b[l.i] == '-') {
			l.i++
		}
		if l.digits() == 0 {
			return badNumber(start)
		}
	}
	if l.i < len(l.b) && (l.b[l.i] >= '0' && l.b[l.i] <= '9' || l.b[l.i] == '.' || l.b[l.i] == '+' || l.b[l.i] == '-') {
		return badNumber(start)
	}
	return nil
}

func badNumber(start int) error { return fmt.Errorf("bad number at column %d", start+1) }

// scan reads JSON as fechado writes it (Encode: no spaces, no escapes, the fields in the
// catalogue's order), for the decoder's fast paths. Each step checks the next piece in place and
// moves past it; a piece that is not there fails the scan (ok false), after which the steps read
// nothing of use but stay in bounds, so that a fast path checks ok once, at its end. A failed
// scan has decoded nothing for good: its caller decodes the value by the general walk, which
// reports the fault.
type scan struct {
	b  []byte
	i  int
	ok bool
}

// lit steps past k.
func (s *scan) lit(k *literal) {
	s.ok = s.ok && k.at(s.b, s.i)
	s.i += len(k.s)
}

// eat steps past c and reports whether it was there: a choice between pieces (the scan does not
// fail without it).
func (s *scan) eat(c byte) bool {
	if hasByte(s.b, s.i, c) {
		s.i++
		return true
	}
	return false
}

// uint reads a number of fastUint's form.
func (s *scan) uint() int64 {
	v, j := fastUint(s.b, s.i)
	s.ok = s.ok && v >= 0
	s.i = j
	return v
}

// seat reads a seat, 1 to 10.
func (s *scan) seat() Seat {
	v, j := fastSeat(s.b, s.i)
	s.ok = s.ok && v != 0
	s.i = j
	return v
}

// card reads a card, "Xy".
func (s *scan) card() cards.Card {
	b, i := s.b, s.i
	s.i += 4
	if i >= 0 && len(b)-i >= 4 && b[i] == '"' && b[i+3] == '"' {
		if r, su := rankOf[b[i+1]], suitOf[b[i+2]]; r != 0 && su != 0 {
			return cards.New(cards.Rank(r), cards.Suit(su-1))
		}
	}
	s.ok = false
	return 0
}

// str reads a string of bytes 0x20 to 0x7f without escapes, and returns it without its quotes
// (aliasing the line). Such a string is one that lexer.str would return as it is, leaving the
// lexer's wide unset.
func (s *scan) str() []byte {
	b, i := s.b, s.i
	if hasByte(b, i, '"') {
		for j := i + 1; j < len(b); j++ {
			if strStop[b[j]] {
				if b[j] != '"' {
					break
				}
				s.i = j + 1
				return b[i+1 : j]
			}
		}
	}
	s.ok = false
	return nil
}

// boolean reads true or false.
func (s *scan) boolean() bool {
	switch {
	case string(span(s.b, s.i, 4)) == "true":
		s.i += 4
		return true
	case string(span(s.b, s.i, 5)) == "false":
		s.i += 5
		return false
	}
	s.ok = false
	return false
}

// word reads a string that is one of words, and returns the word (no allocation).
func (s *scan) word(words []string) string {
	if w := s.str(); s.ok {
		for _, a := range words {
			if string(w) == a {
				return a
			}
		}
	}
	s.ok = false
	return ""
}

// fixed reads a string of n bytes that passes valid (a UUID, a SHA-256), without its quotes.
func (s *scan) fixed(n int, valid func([]byte) bool) []byte {
	v := span(s.b, s.i+1, n)
	s.ok = s.ok && hasByte(s.b, s.i, '"') && hasByte(s.b, s.i+n+1, '"') && valid(v)
	s.i += n + 2
	return v
}
