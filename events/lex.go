package events

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// lexer reads the JSON of one line. It is hand-written because the auditor decodes millions of
// events a second: it allocates only for strings that hold escapes and for the payload itself.
type lexer struct {
	b []byte
	i int
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

// str reads a string. The result aliases the line when it holds no escape.
func (l *lexer) str() ([]byte, error) {
	if l.peek() != '"' {
		return nil, &typeErr{"string", l.kind()}
	}
	l.i++
	start := l.i
	for l.i < len(l.b) {
		c := l.b[l.i]
		switch {
		case c == '"':
			s := l.b[start:l.i]
			l.i++
			return s, nil
		case c == '\\':
			return l.strSlow(start)
		case c < 0x20:
			return nil, fmt.Errorf("control character in string at column %d", l.i+1)
		}
		l.i++
	}
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

// int reads an integer: JSON numbers with a fraction or exponent are refused.
func (l *lexer) int() (int64, error) {
	c := l.peek()
	if c != '-' && (c < '0' || c > '9') {
		return 0, &typeErr{"integer", l.kind()}
	}
	start := l.i
	neg := false
	if c == '-' {
		neg = true
		l.i++
	}
	digits := l.i
	var v int64
	for l.i < len(l.b) && l.b[l.i] >= '0' && l.b[l.i] <= '9' {
		if v > (1<<62)/5 {
			return 0, fmt.Errorf("integer too large at column %d", start+1)
		}
		v = v*10 + int64(l.b[l.i]-'0')
		l.i++
	}
	if l.i == digits {
		return 0, fmt.Errorf("bad number at column %d", start+1)
	}
	if l.b[digits] == '0' && l.i-digits > 1 {
		return 0, fmt.Errorf("bad number at column %d: leading zero", start+1)
	}
	if l.i < len(l.b) && (l.b[l.i] == '.' || l.b[l.i] == 'e' || l.b[l.i] == 'E') {
		return 0, fmt.Errorf("want integer, got a number with a fraction or exponent at column %d", start+1)
	}
	if neg {
		v = -v
	}
	return v, nil
}

// object calls fn for each key; fn must consume the value. Repeated keys are refused.
func (l *lexer) object(fn func(key []byte) error) error {
	if l.peek() != '{' {
		return &typeErr{"object", l.kind()}
	}
	l.i++
	if l.peek() == '}' {
		l.i++
		return nil
	}
	var seen [16][]byte
	n := 0
	for {
		k, err := l.str()
		if err != nil {
			var te *typeErr
			if errors.As(err, &te) {
				return fmt.Errorf("want a field name at column %d", l.i+1)
			}
			return err
		}
		for _, s := range seen[:n] {
			if string(s) == string(k) {
				return fmt.Errorf("field %q appears twice", k)
			}
		}
		if n < len(seen) {
			seen[n] = k
			n++
		}
		if err := l.expect(':'); err != nil {
			return err
		}
		if err := fn(k); err != nil {
			return err
		}
		switch l.peek() {
		case ',':
			l.i++
		case '}':
			l.i++
			return nil
		case 0:
			return errEnd
		default:
			return fmt.Errorf("want ',' or '}' at column %d, got %q", l.i+1, l.b[l.i])
		}
	}
}

// array calls fn for each element; fn must consume it.
func (l *lexer) array(fn func(i int) error) error {
	if l.peek() != '[' {
		return &typeErr{"array", l.kind()}
	}
	l.i++
	if l.peek() == ']' {
		l.i++
		return nil
	}
	for i := 0; ; i++ {
		if err := fn(i); err != nil {
			return err
		}
		switch l.peek() {
		case ',':
			l.i++
		case ']':
			l.i++
			return nil
		case 0:
			return errEnd
		default:
			return fmt.Errorf("want ',' or ']' at column %d, got %q", l.i+1, l.b[l.i])
		}
	}
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
		err = l.object(func([]byte) error { _, err := l.skip(); return err })
	case c == '[':
		err = l.array(func(int) error { _, err := l.skip(); return err })
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

func (l *lexer) lit(s string) error {
	if l.i+len(s) > len(l.b) || string(l.b[l.i:l.i+len(s)]) != s {
		return fmt.Errorf("bad literal at column %d", l.i+1)
	}
	l.i += len(s)
	return nil
}

// number consumes a number of the JSON grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (l *lexer) number() error {
	start := l.i
	bad := func() error { return fmt.Errorf("bad number at column %d", start+1) }
	digits := func() int {
		n := 0
		for l.i < len(l.b) && l.b[l.i] >= '0' && l.b[l.i] <= '9' {
			l.i++
			n++
		}
		return n
	}
	if l.i < len(l.b) && l.b[l.i] == '-' {
		l.i++
	}
	if l.i < len(l.b) && l.b[l.i] == '0' {
		l.i++
	} else if digits() == 0 {
		return bad()
	}
	if l.i < len(l.b) && l.b[l.i] == '.' {
		l.i++
		if digits() == 0 {
			return bad()
		}
	}
	if l.i < len(l.b) && (l.b[l.i] == 'e' || l.b[l.i] == 'E') {
		l.i++
		if l.i < len(l.b) && (l.b[l.i] == '+' || l.b[l.i] == '-') {
			l.i++
		}
		if digits() == 0 {
			return bad()
		}
	}
	if l.i < len(l.b) && (l.b[l.i] >= '0' && l.b[l.i] <= '9' || l.b[l.i] == '.' || l.b[l.i] == '+' || l.b[l.i] == '-') {
		return bad()
	}
	return nil
}
