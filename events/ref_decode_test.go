package events

// This file is the decoder as it was before it was rewritten for speed (closures, one allocation
// per field), kept as an oracle: the tests compare the two on every input they have.

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/fechado/fechado/cards"
)

// refParseLine is the former Parse.
func refParseLine(line []byte) (*Event, error) { return refParseWith(line, nil) }

// lexer reads the JSON of one line. It is hand-written because the auditor decodes millions of
// events a second: it allocates only for strings that hold escapes and for the payload itself.
type refLexer struct {
	b []byte
	i int
}

func (l *refLexer) ws() {
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
func (l *refLexer) peek() byte {
	l.ws()
	if l.i >= len(l.b) {
		return 0
	}
	return l.b[l.i]
}

var errRefEnd = errors.New("unexpected end of line (truncated JSON?)")

func (l *refLexer) expect(c byte) error {
	switch l.peek() {
	case c:
		l.i++
		return nil
	case 0:
		return errRefEnd
	default:
		return fmt.Errorf("want %q at column %d, got %q", c, l.i+1, l.b[l.i])
	}
}

// kind names the JSON type of the next value, for messages.
func (l *refLexer) kind() string {
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
type refTypeErr struct{ want, got string }

func (e *refTypeErr) Error() string { return "want " + e.want + ", got " + e.got }

// str reads a string. The result aliases the line when it holds no escape.
func (l *refLexer) str() ([]byte, error) {
	if l.peek() != '"' {
		return nil, &refTypeErr{"string", l.kind()}
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
	return nil, errRefEnd
}

func (l *refLexer) strSlow(start int) ([]byte, error) {
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
			return nil, errRefEnd
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
	return nil, errRefEnd
}

func (l *refLexer) hex4() (rune, error) {
	if l.i+4 > len(l.b) {
		return 0, errRefEnd
	}
	v, err := strconv.ParseUint(string(l.b[l.i:l.i+4]), 16, 16)
	if err != nil {
		return 0, fmt.Errorf("bad \\u escape at column %d", l.i+1)
	}
	l.i += 4
	return rune(v), nil
}

// int reads an integer: JSON numbers with a fraction or exponent are refused.
func (l *refLexer) int() (int64, error) {
	c := l.peek()
	if c != '-' && (c < '0' || c > '9') {
		return 0, &refTypeErr{"integer", l.kind()}
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
func (l *refLexer) object(fn func(key []byte) error) error {
	if l.peek() != '{' {
		return &refTypeErr{"object", l.kind()}
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
			var te *refTypeErr
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
			return errRefEnd
		default:
			return fmt.Errorf("want ',' or '}' at column %d, got %q", l.i+1, l.b[l.i])
		}
	}
}

// array calls fn for each element; fn must consume it.
func (l *refLexer) array(fn func(i int) error) error {
	if l.peek() != '[' {
		return &refTypeErr{"array", l.kind()}
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
			return errRefEnd
		default:
			return fmt.Errorf("want ',' or ']' at column %d, got %q", l.i+1, l.b[l.i])
		}
	}
}

// skip consumes any value, checking that it is well formed, and returns its bytes.
func (l *refLexer) skip() ([]byte, error) {
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
		err = errRefEnd
	default:
		err = fmt.Errorf("unexpected %q at column %d", c, l.i+1)
	}
	if err != nil {
		return nil, err
	}
	return l.b[start:l.i], nil
}

func (l *refLexer) lit(s string) error {
	if l.i+len(s) > len(l.b) || string(l.b[l.i:l.i+len(s)]) != s {
		return fmt.Errorf("bad literal at column %d", l.i+1)
	}
	l.i += len(s)
	return nil
}

// number consumes a number of the JSON grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (l *refLexer) number() error {
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

// fieldErr carries the path of the field that failed while decoding.
type refFieldErr struct {
	path string
	err  error
}

func (e *refFieldErr) Error() string { return e.path + ": " + e.err.Error() }

func refAt(path string, err error) error {
	if err == nil {
		return nil
	}
	var fe *refFieldErr
	if errors.As(err, &fe) {
		if fe.path != "" && fe.path[0] == '[' {
			return &refFieldErr{path + fe.path, fe.err}
		}
		return &refFieldErr{path + "." + fe.path, fe.err}
	}
	return &refFieldErr{path, err}
}

func refAtIndex(path string, i int, err error) error {
	if err == nil {
		return nil
	}
	p := fmt.Sprintf("%s[%d]", path, i)
	var fe *refFieldErr
	if errors.As(err, &fe) {
		return &refFieldErr{p + "." + fe.path, fe.err}
	}
	return &refFieldErr{p, err}
}

type refInvalid struct{ error }

func (refInvalid) Is(target error) bool { return target == ErrInvalid }

// strings keeps the last table and hand ids read, so that the events of a hand share their
// strings instead of allocating them again on every line.
type refInterner struct{ table, hand string }

// own returns b as a string. With an interner (the Reader's path, where every line is a fresh
// copy that nobody writes again) the string shares the line's bytes instead of copying them.
func (s *refInterner) own(b []byte) string {
	if s == nil || len(b) == 0 {
		return string(b)
	}
	return unsafe.String(&b[0], len(b))
}

func (s *refInterner) get(b []byte, last *string) string {
	if s == nil {
		return string(b)
	}
	if string(b) != *last {
		*last = string(b)
	}
	return *last
}

func refParseWith(line []byte, in *refInterner) (*Event, error) {
	e, err := refParse(line, in)
	if err != nil {
		var fe *refFieldErr
		if errors.As(err, &fe) {
			return nil, &Error{Field: fe.path, Err: refInvalid{fe.err}}
		}
		return nil, &Error{Err: refInvalid{err}}
	}
	return e, nil
}

func refParse(line []byte, in *refInterner) (*Event, error) {
	if !utf8.Valid(line) {
		return nil, errors.New("not valid UTF-8")
	}
	if bytes.HasPrefix(line, []byte("\xef\xbb\xbf")) {
		return nil, errors.New("a byte-order mark is not allowed: JSON Lines is plain UTF-8")
	}
	l := refLexer{b: line}
	e := &Event{Raw: line}
	var data []byte
	var have uint16
	const (
		hID = 1 << iota
		hTable
		hHand
		hSeq
		hAt
		hType
		hData
	)
	err := l.object(func(k []byte) error {
		switch string(k) {
		case "id":
			have |= hID
			s, err := l.str()
			if err == nil && !refIsUUID(s) {
				err = fmt.Errorf("%q is not a UUID", s)
			}
			e.ID = in.own(s)
			return refAt("id", err)
		case "table":
			have |= hTable
			s, err := l.str()
			if err == nil && !refIsTableID(s) {
				err = fmt.Errorf("%q is not a table id: 1 to 64 of A-Z a-z 0-9 _ -", s)
			}
			if in != nil {
				e.Table = in.get(s, &in.table)
			} else {
				e.Table = string(s)
			}
			return refAt("table", err)
		case "hand":
			have |= hHand
			s, err := l.str()
			if err == nil && !refIsUUID(s) {
				err = fmt.Errorf("%q is not a UUID", s)
			}
			if in != nil {
				e.Hand = in.get(s, &in.hand)
			} else {
				e.Hand = string(s)
			}
			return refAt("hand", err)
		case "seq":
			have |= hSeq
			v, err := l.int()
			if err == nil && v < 1 {
				err = fmt.Errorf("%d is below 1", v)
			}
			e.Seq = Seq(v)
			return refAt("seq", err)
		case "at":
			have |= hAt
			s, err := l.str()
			if err == nil && !refIsTime(s) {
				err = fmt.Errorf("%q is not an RFC 3339 time with offset", s)
			}
			e.At = in.own(s)
			return refAt("at", err)
		case "type":
			have |= hType
			s, err := l.str()
			if err == nil && !Type(s).Known() {
				err = fmt.Errorf("unknown event type %q", s)
			}
			e.Type = Type(s)
			return refAt("type", err)
		case "prev":
			e.HasPrev = true
			s, err := l.str()
			if err == nil && len(s) != 0 && !refIsHex64(s) {
				err = fmt.Errorf("%q is not a lowercase hex SHA-256", s)
			}
			e.Prev = in.own(s)
			return refAt("prev", err)
		case "data":
			have |= hData
			if have&hType != 0 && e.Type.Known() && l.peek() == '{' {
				// The usual order (type before data): decode in place, one pass.
				d, err := refDecodeDataLexer(e.Type, &l)
				if err != nil {
					return refAt("data", err)
				}
				e.Data = d
				return nil
			}
			v, err := l.skip()
			if err == nil && v[0] != '{' {
				err = &refTypeErr{"object", refKindOf(v[0])}
			}
			data = v
			return refAt("data", err)
		default:
			return &refFieldErr{string(k), errors.New("unknown field")}
		}
	})
	if err != nil {
		return nil, err
	}
	if l.peek() != 0 {
		return nil, fmt.Errorf("extra text after the event at column %d", l.i+1)
	}
	for _, f := range []struct {
		bit  uint16
		name string
	}{{hID, "id"}, {hTable, "table"}, {hHand, "hand"}, {hSeq, "seq"}, {hAt, "at"}, {hType, "type"}, {hData, "data"}} {
		if have&f.bit == 0 {
			return nil, &refFieldErr{f.name, errors.New("missing")}
		}
	}
	if e.Data == nil {
		d, err := refDecodeData(e.Type, data)
		if err != nil {
			return nil, refAt("data", err)
		}
		e.Data = d
	}
	return e, nil
}

func refKindOf(c byte) string {
	l := refLexer{b: []byte{c}}
	return l.kind()
}

var refHexLower = func() (t [256]bool) {
	for _, c := range "0123456789abcdef" {
		t[c] = true
	}
	return t
}()

func refIsHexDigit(c byte) bool { return refHexLower[c] }

func refIsHex64(s []byte) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !refIsHexDigit(c) {
			return false
		}
	}
	return true
}

// isUUID accepts the 8-4-4-4-12 hexadecimal form, in either case.
func refIsUUID(s []byte) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !refIsHexDigit(c) && !(c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}

func refIsTableID(s []byte) bool {
	if len(s) < 1 || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// isTime accepts RFC 3339 date-times with an offset: YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM).
func refIsTime(s []byte) bool {
	d := func(i, n int) (int, bool) {
		if i+n > len(s) {
			return 0, false
		}
		v := 0
		for _, c := range s[i : i+n] {
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		return v, true
	}
	sep := func(i int, c byte) bool { return i < len(s) && s[i] == c }
	_, ok1 := d(0, 4)
	mo, ok2 := d(5, 2)
	dd, ok3 := d(8, 2)
	hh, ok4 := d(11, 2)
	mi, ok5 := d(14, 2)
	ss, ok6 := d(17, 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && sep(4, '-') && sep(7, '-') && sep(10, 'T') &&
		sep(13, ':') && sep(16, ':')) {
		return false
	}
	if mo < 1 || mo > 12 || dd < 1 || dd > 31 || hh > 23 || mi > 59 || ss > 60 {
		return false
	}
	i := 19
	if sep(i, '.') {
		i++
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == j {
			return false
		}
	}
	if sep(i, 'Z') {
		return i+1 == len(s)
	}
	if !sep(i, '+') && !sep(i, '-') {
		return false
	}
	oh, ok := d(i+1, 2)
	om, ok2 := d(i+4, 2)
	return ok && ok2 && sep(i+3, ':') && i+6 == len(s) && oh <= 23 && om <= 59
}

// decodeData decodes the payload of type t from the JSON object b.
func refDecodeData(t Type, b []byte) (Data, error) {
	l := &refLexer{b: b}
	d, err := refDecodeDataLexer(t, l)
	if err == nil && l.peek() != 0 {
		err = fmt.Errorf("extra text after the data object at column %d", l.i+1)
	}
	return d, err
}

// decodeDataLexer decodes the payload of type t from the object at l's position.
func refDecodeDataLexer(t Type, l *refLexer) (Data, error) {
	var d Data
	var err error
	switch t {
	case HandStartedType:
		d, err = refDecHandStarted(l)
	case DeckShuffledType:
		d, err = refDecDeckShuffled(l)
	case DeckCutType:
		v := &DeckCut{}
		d, err = v, refFields(l, t, func(k string) error {
			switch k {
			case "at":
				n, err := refNonNeg(l)
				v.At = int(n)
				return err
			case "by":
				s, err := refSeat(l)
				v.By = &s
				return err
			}
			return nil
		})
	case AntePostedType:
		v := &AntePosted{}
		d, err = v, refFields(l, t, func(k string) error {
			switch k {
			case "seat":
				return refSeatInto(l, &v.Seat)
			case "amount":
				return refChipsInto(l, &v.Amount)
			}
			return nil
		})
	case BlindPostedType:
		v := &BlindPosted{}
		d, err = v, refFields(l, t, func(k string) error {
			switch k {
			case "seat":
				return refSeatInto(l, &v.Seat)
			case "amount":
				return refChipsInto(l, &v.Amount)
			case "blind":
				s, err := refEnum(l, "small", "big", "dead")
				v.Blind = BlindKind(s)
				return err
			}
			return nil
		})
	case CardDealtType:
		v := &CardDealt{Unknown: true}
		d, err = v, refFields(l, t, func(k string) error {
			switch k {
			case "seat":
				return refSeatInto(l, &v.Seat)
			case "card":
				v.Unknown = false
				return refCardInto(l, &v.Card)
			case "phase":
				s, err := refEnum(l, "deal", "draw")
				v.Phase = Phase(s)
				return err
			}
			return nil
		})
	case CardBurnedType:
		v := &CardBurned{}
		d, err = v, refFields(l, t, func(k string) error { return refCardInto(l, &v.Card) })
	case CardExposedType:
		v := &CardExposed{}
		d, err = v, refFields(l, t, func(k string) error {
			switch k {
			case "card":
				return refCardInto(l, &v.Card)
			case "phase":
				s, err := refEnum(l, "cut", "deal", "draw", "showdown")
				v.Phase = Phase(s)
				return err
			case "seat":
				s, err := refSeat(l)
				v.Seat = &s
				return err
			case "cause":
				s, err := refEnum(l, "dealer", "player")
				v.Cause = Cause(s)
				return err
			}
			return nil
		})
	case MisdealDeclaredType:
		v := &MisdealDeclared{}
		d, err = v, refFields(l, t, func(k string) error {
			s, err := l.str()
			v.Reason = string(s)
			return err
		})
	case PlayerActedType:
		v := &PlayerActed{}
		d, err = v, refFields(l, t, func(k string) error {
			switch k {
			case "seat":
				return refSeatInto(l, &v.Seat)
			case "round":
				s, err := refEnum(l, "blind", "first", "second")
				v.Round = Round(s)
				return err
			case "action":
				s, err := refEnum(l, "check", "bet", "call", "raise", "fold")
				v.Action = Action(s)
				return err
			case "amount":
				return refChipsInto(l, &v.Amount)
			}
			return nil
		})
	case CardsDiscardedType:
		v := &CardsDiscarded{}
		d, err = v, refFields(l, t, func(k string) error {
			switch k {
			case "seat":
				return refSeatInto(l, &v.Seat)
			case "cards":
				cs, err := refCardList(l)
				v.Cards = cs
				return err
			case "declared":
				n, err := refNonNeg(l)
				i := int(n)
				v.Declared = &i
				return err
			}
			return nil
		})
	case OpenersShownType:
		v := &OpenersShown{}
		d, err = v, refFields(l, t, func(k string) error {
			if k == "seat" {
				return refSeatInto(l, &v.Seat)
			}
			cs, err := refCardList(l)
			v.Cards = cs
			return err
		})
	case HandShownType:
		v := &HandShown{}
		d, err = v, refFields(l, t, func(k string) error {
			if k == "seat" {
				return refSeatInto(l, &v.Seat)
			}
			cs, err := refCardList(l)
			v.Cards = cs
			return err
		})
	case HandMuckedType:
		v := &HandMucked{}
		d, err = v, refFields(l, t, func(k string) error { return refSeatInto(l, &v.Seat) })
	case BetReturnedType:
		v := &BetReturned{}
		d, err = v, refFields(l, t, func(k string) error {
			if k == "seat" {
				return refSeatInto(l, &v.Seat)
			}
			return refChipsInto(l, &v.Amount)
		})
	case PotRakedType:
		v := &PotRaked{}
		d, err = v, refFields(l, t, func(k string) error {
			if k == "pot" {
				n, err := refNonNeg(l)
				v.Pot = int(n)
				return err
			}
			return refChipsInto(l, &v.Amount)
		})
	case PotAwardedType:
		v := &PotAwarded{}
		d, err = v, refFields(l, t, func(k string) error {
			switch k {
			case "seat":
				return refSeatInto(l, &v.Seat)
			case "amount":
				return refChipsInto(l, &v.Amount)
			case "pot":
				n, err := refNonNeg(l)
				v.Pot = int(n)
				return err
			}
			return nil
		})
	case HandPassedType:
		d, err = &HandPassed{}, refFields(l, t, func(string) error { return nil })
	case DeckRevealedType:
		v := &DeckRevealed{}
		d, err = v, refFields(l, t, func(k string) error {
			if k == "shuffle" {
				n, err := l.int()
				if err == nil && n < 1 {
					err = fmt.Errorf("%d is below 1", n)
				}
				v.Shuffle = Seq(n)
				return err
			}
			s, err := l.str()
			if err != nil {
				return err
			}
			if !refIsHex64(s) {
				return fmt.Errorf("%q is not 64 lowercase hex digits", s)
			}
			v.Seed, err = cards.ParseSeed(string(s))
			return err
		})
	case HandEndedType:
		d, err = refDecHandEnded(l)
	default:
		return nil, fmt.Errorf("unknown event type %q", t)
	}
	if err != nil {
		return nil, err
	}
	return d, nil
}

// fields walks an object of type t's data, refusing unknown fields and reporting missing ones;
// fn decodes the value of a known field.
func refFields(l *refLexer, t Type, fn func(k string) error) error {
	spec := Fields[t]
	var have uint32
	err := l.object(func(kb []byte) error {
		for i, f := range spec {
			name := f
			if n := len(f); f[n-1] == '?' {
				name = f[:n-1]
			}
			if name == string(kb) {
				have |= 1 << i
				return refAt(name, fn(name))
			}
		}
		return &refFieldErr{string(kb), fmt.Errorf("unknown field for %s", t)}
	})
	if err != nil {
		return err
	}
	for i, f := range spec {
		if f[len(f)-1] != '?' && have&(1<<i) == 0 {
			return &refFieldErr{f, errors.New("missing")}
		}
	}
	return nil
}

func refSeat(l *refLexer) (Seat, error) {
	v, err := l.int()
	if err != nil {
		return 0, err
	}
	if v < 1 || v > int64(MaxSeat) {
		return 0, fmt.Errorf("seat %d is outside 1..%d", v, MaxSeat)
	}
	return Seat(v), nil
}

func refSeatInto(l *refLexer, s *Seat) (err error) {
	*s, err = refSeat(l)
	return err
}

func refNonNeg(l *refLexer) (int64, error) {
	v, err := l.int()
	if err == nil && v < 0 {
		err = fmt.Errorf("%d is negative", v)
	}
	return v, err
}

func refChipsInto(l *refLexer, c *Chips) error {
	v, err := refNonNeg(l)
	*c = Chips(v)
	return err
}

func refCardInto(l *refLexer, c *cards.Card) error {
	s, err := l.str()
	if err != nil {
		return err
	}
	*c, err = cards.Parse(string(s))
	return err
}

func refCardList(l *refLexer) ([]cards.Card, error) {
	out := make([]cards.Card, 0, 5)
	err := l.array(func(i int) error {
		var c cards.Card
		if err := refCardInto(l, &c); err != nil {
			return refAtIndex("", i, err)
		}
		out = append(out, c)
		return nil
	})
	return out, err
}

func refEnum(l *refLexer, allowed ...string) (string, error) {
	s, err := l.str()
	if err != nil {
		return "", err
	}
	for _, a := range allowed {
		if string(s) == a {
			return a, nil
		}
	}
	return "", fmt.Errorf("%q is not one of %q", s, allowed)
}

func refDecDeckShuffled(l *refLexer) (Data, error) {
	v := &DeckShuffled{}
	err := refFields(l, DeckShuffledType, func(k string) error {
		switch k {
		case "method":
			s, err := refEnum(l, cards.ShuffleMethod, cards.PhysicalMethod)
			v.Method = s
			return err
		case "commitment":
			s, err := l.str()
			if err == nil && !refIsHex64(s) {
				err = fmt.Errorf("%q is not a lowercase hex SHA-256", s)
			}
			v.Commitment = string(s)
			return err
		case "count":
			n, err := refNonNeg(l)
			i := int(n)
			v.Count = &i
			return err
		case "by":
			s, err := refSeat(l)
			v.By = &s
			return err
		case "cards":
			cs, err := refCardList(l)
			v.Cards = cs
			return err
		}
		return nil
	})
	return v, err
}

func refDecHandStarted(l *refLexer) (Data, error) {
	v := &HandStarted{}
	err := refFields(l, HandStartedType, func(k string) error {
		switch k {
		case "rules":
			return refDecRules(l, &v.Rules)
		case "number":
			n, err := l.int()
			if err == nil && n < 1 {
				err = fmt.Errorf("%d is below 1", n)
			}
			v.Number = int(n)
			return err
		case "dealer":
			return refSeatInto(l, &v.Dealer)
		case "seats":
			v.Seats = []SeatStack{} // a list that is there is never nil
			return l.array(func(i int) error {
				var s SeatStack
				var have uint8
				err := l.object(func(kb []byte) error {
					switch string(kb) {
					case "seat":
						have |= 1
						return refAt("seat", refSeatInto(l, &s.Seat))
					case "player":
						have |= 2
						p, err := l.str()
						if err == nil && len(p) == 0 {
							err = errors.New("empty player")
						}
						s.Player = string(p)
						return refAt("player", err)
					case "stack":
						have |= 4
						return refAt("stack", refChipsInto(l, &s.Stack))
					case "rebuy":
						var c Chips
						err := refChipsInto(l, &c)
						s.Rebuy = &c
						return refAt("rebuy", err)
					case "joined": // v1.1
						b, err := refBool(l)
						s.Joined = b
						return refAt("joined", err)
					case "from": // v1.1
						t, err := refTableID(l)
						s.From = t
						return refAt("from", err)
					}
					return &refFieldErr{string(kb), errors.New("unknown field for a seat")}
				})
				if err == nil {
					// The former code ranged over a map here, and so named one of several missing
					// fields at random; now the first in catalogue order.
					for _, f := range []struct {
						bit  uint8
						name string
					}{{1, "seat"}, {2, "player"}, {4, "stack"}} {
						if have&f.bit == 0 {
							err = &refFieldErr{f.name, errors.New("missing")}
							break
						}
					}
				}
				v.Seats = append(v.Seats, s)
				return refAtIndex("", i, err)
			})
		case "stakes":
			var have uint8
			err := l.object(func(kb []byte) error {
				switch string(kb) {
				case "ante":
					have |= 1
					return refAt("ante", refChipsInto(l, &v.Stakes.Ante))
				case "min_bet":
					have |= 2
					return refAt("min_bet", refChipsInto(l, &v.Stakes.MinBet))
				case "max_bet":
					have |= 4
					return refAt("max_bet", refChipsInto(l, &v.Stakes.MaxBet))
				}
				return &refFieldErr{string(kb), errors.New("unknown field for stakes")}
			})
			if err == nil {
				// The former code ranged over a map here, and so named one of several missing
				// fields at random; now the first in catalogue order.
				for _, f := range []struct {
					bit  uint8
					name string
				}{{1, "ante"}, {2, "min_bet"}, {4, "max_bet"}} {
					if have&f.bit == 0 {
						err = &refFieldErr{f.name, errors.New("missing")}
						break
					}
				}
			}
			return err
		case "carry":
			return refChipsInto(l, &v.Carry)
		case "passed_out":
			n, err := refNonNeg(l)
			v.PassedOut = int(n)
			return err
		case "tournament":
			t, err := refDecTournament(l)
			v.Tournament = t
			return err
		case "previous":
			s, err := l.str()
			if err == nil && !refIsUUID(s) {
				err = fmt.Errorf("%q is not a UUID", s)
			}
			p := string(s)
			v.Previous = &p
			return err
		case "away":
			v.Away = []AwaySeat{}
			return l.array(func(i int) error {
				a, err := refDecAway(l)
				v.Away = append(v.Away, a)
				return refAtIndex("", i, err)
			})
		case "left":
			v.Left = []LeftPlayer{}
			return l.array(func(i int) error {
				p, err := refDecLeft(l)
				v.Left = append(v.Left, p)
				return refAtIndex("", i, err)
			})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return v, nil
}

// refBool reads true or false.
func refBool(l *refLexer) (bool, error) {
	switch l.peek() {
	case 't':
		return true, l.lit("true")
	case 'f':
		return false, l.lit("false")
	}
	return false, &refTypeErr{"boolean", l.kind()}
}

// refTableID reads a table id given in data (v1.1 from and to).
func refTableID(l *refLexer) (string, error) {
	s, err := l.str()
	if err == nil && !refIsTableID(s) {
		err = fmt.Errorf("%q is not a table id: 1 to 64 of A-Z a-z 0-9 _ -", s)
	}
	return string(s), err
}

// refMissing names the first of names (in catalogue order) whose bit is not in have.
func refMissing(have uint8, names ...string) error {
	for i, n := range names {
		if have&(1<<i) == 0 {
			return &refFieldErr{n, errors.New("missing")}
		}
	}
	return nil
}

// refDecTournament reads hand.started's tournament (events-v1.md §7): the v1.1 object, or a v1
// log's bare string, read as the id with level 0.
func refDecTournament(l *refLexer) (*Tournament, error) {
	t := &Tournament{}
	if l.peek() == '"' {
		s, err := l.str()
		t.ID = string(s)
		return t, err
	}
	var have uint8
	err := l.object(func(kb []byte) error {
		switch string(kb) {
		case "id":
			have |= 1
			s, err := l.str()
			if err == nil && len(s) == 0 {
				err = errors.New("empty tournament id")
			}
			t.ID = string(s)
			return refAt("id", err)
		case "level":
			have |= 2
			n, err := l.int()
			if err == nil && n < 1 {
				err = fmt.Errorf("%d is below 1", n)
			}
			t.Level = int(n)
			return refAt("level", err)
		case "entries":
			n, err := l.int()
			if err == nil && n < 1 {
				err = fmt.Errorf("%d is below 1", n)
			}
			e := int(n)
			t.Entries = &e
			return refAt("entries", err)
		case "stack":
			var c Chips
			err := refChipsInto(l, &c)
			t.Stack = &c
			return refAt("stack", err)
		}
		return &refFieldErr{string(kb), errors.New("unknown field for a tournament")}
	})
	if err == nil {
		err = refMissing(have, "id", "level")
	}
	if err != nil {
		return nil, err
	}
	return t, nil
}

// refDecAway reads an entry of hand.started's away list (v1.1).
func refDecAway(l *refLexer) (AwaySeat, error) {
	var a AwaySeat
	var have uint8
	err := l.object(func(kb []byte) error {
		switch string(kb) {
		case "seat":
			have |= 1
			return refAt("seat", refSeatInto(l, &a.Seat))
		case "player":
			have |= 2
			p, err := l.str()
			if err == nil && len(p) == 0 {
				err = errors.New("empty player")
			}
			a.Player = string(p)
			return refAt("player", err)
		case "stack":
			have |= 4
			return refAt("stack", refChipsInto(l, &a.Stack))
		}
		return &refFieldErr{string(kb), errors.New("unknown field for an away seat")}
	})
	if err == nil {
		err = refMissing(have, "seat", "player", "stack")
	}
	return a, err
}

// refDecLeft reads an entry of hand.started's left list (v1.1).
func refDecLeft(l *refLexer) (LeftPlayer, error) {
	var p LeftPlayer
	var have uint8
	err := l.object(func(kb []byte) error {
		switch string(kb) {
		case "player":
			have |= 1
			s, err := l.str()
			if err == nil && len(s) == 0 {
				err = errors.New("empty player")
			}
			p.Player = string(s)
			return refAt("player", err)
		case "stack":
			have |= 2
			return refAt("stack", refChipsInto(l, &p.Stack))
		case "to":
			t, err := refTableID(l)
			p.To = t
			return refAt("to", err)
		}
		return &refFieldErr{string(kb), errors.New("unknown field for a player who left")}
	})
	if err == nil {
		err = refMissing(have, "player", "stack")
	}
	return p, err
}

func refDecRules(l *refLexer, r *Rules) error {
	named := false
	err := l.object(func(kb []byte) error {
		if string(kb) == "name" {
			named = true
			s, err := l.str()
			if err == nil && len(s) == 0 {
				err = errors.New("empty preset name")
			}
			r.Name = string(s)
			return refAt("name", err)
		}
		raw, err := l.skip()
		if err != nil {
			return refAt(string(kb), err)
		}
		r.Overrides = append(r.Overrides, Override{Key: string(kb), Value: append([]byte(nil), raw...)})
		return nil
	})
	if err == nil && !named {
		err = &refFieldErr{"name", errors.New("missing")}
	}
	return err
}

func refDecHandEnded(l *refLexer) (Data, error) {
	v := &HandEnded{}
	err := refFields(l, HandEndedType, func(k string) error {
		if k == "carry" {
			return refChipsInto(l, &v.Carry)
		}
		v.Stacks = make([]SeatChips, 0, 8)
		return l.array(func(i int) error {
			var s SeatChips
			var have uint8
			err := l.object(func(kb []byte) error {
				switch string(kb) {
				case "seat":
					have |= 1
					return refAt("seat", refSeatInto(l, &s.Seat))
				case "stack":
					have |= 2
					return refAt("stack", refChipsInto(l, &s.Stack))
				}
				return &refFieldErr{string(kb), errors.New("unknown field for a stack")}
			})
			if err == nil {
				err = refMissing(have, "seat", "stack") // the first in catalogue order
			}
			v.Stacks = append(v.Stacks, s)
			return refAtIndex("", i, err)
		})
	})
	return v, err
}
