package events

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
	"unsafe"

	"github.com/fechado/fechado/cards"
)

// Error is an event that could not be read: it names the file, the line and the field.
type Error struct {
	File  string // "" when the line did not come from a file
	Line  int    // 1-based line number; 0 when unknown
	Field string // the offending field as a path, e.g. "data.seats[1].stack"; "" for the line
	Err   error
}

func (e *Error) Error() string {
	var b bytes.Buffer
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteByte(':')
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, "%d:", e.Line)
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// ErrInvalid is wrapped by every decoding error, so callers can tell bad input from I/O failures.
var ErrInvalid = errors.New("invalid event")

// fieldErr carries the path of the field that failed while decoding.
type fieldErr struct {
	path string
	err  error
}

func (e *fieldErr) Error() string { return e.path + ": " + e.err.Error() }

func at(path string, err error) error {
	if err == nil {
		return nil
	}
	var fe *fieldErr
	if errors.As(err, &fe) {
		if fe.path != "" && fe.path[0] == '[' {
			return &fieldErr{path + fe.path, fe.err}
		}
		return &fieldErr{path + "." + fe.path, fe.err}
	}
	return &fieldErr{path, err}
}

func atIndex(path string, i int, err error) error {
	if err == nil {
		return nil
	}
	p := fmt.Sprintf("%s[%d]", path, i)
	var fe *fieldErr
	if errors.As(err, &fe) {
		return &fieldErr{p + "." + fe.path, fe.err}
	}
	return &fieldErr{p, err}
}

type invalid struct{ error }

func (invalid) Is(target error) bool { return target == ErrInvalid }

// Parse decodes one line (without its newline) strictly: unknown types and fields, missing or
// mistyped fields, bad cards, UUIDs and seats are errors that name the field. The returned
// event's Raw is line itself (not copied).
func Parse(line []byte) (*Event, error) { return parseWith(line, nil) }

// strings keeps the last table and hand ids read, so that the events of a hand share their
// strings instead of allocating them again on every line.
type interner struct{ table, hand string }

// own returns b as a string. With an interner (the Reader's path, where every line is a fresh
// copy that nobody writes again) the string shares the line's bytes instead of copying them.
func (s *interner) own(b []byte) string {
	if s == nil || len(b) == 0 {
		return string(b)
	}
	return unsafe.String(&b[0], len(b))
}

func (s *interner) get(b []byte, last *string) string {
	if s == nil {
		return string(b)
	}
	if string(b) != *last {
		*last = string(b)
	}
	return *last
}

func parseWith(line []byte, in *interner) (*Event, error) {
	e, err := parse(line, in)
	if err != nil {
		var fe *fieldErr
		if errors.As(err, &fe) {
			return nil, &Error{Field: fe.path, Err: invalid{fe.err}}
		}
		return nil, &Error{Err: invalid{err}}
	}
	return e, nil
}

func parse(line []byte, in *interner) (*Event, error) {
	if !utf8.Valid(line) {
		return nil, errors.New("not valid UTF-8")
	}
	if bytes.HasPrefix(line, []byte("\xef\xbb\xbf")) {
		return nil, errors.New("a byte-order mark is not allowed: JSON Lines is plain UTF-8")
	}
	l := lexer{b: line}
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
			if err == nil && !isUUID(s) {
				err = fmt.Errorf("%q is not a UUID", s)
			}
			e.ID = in.own(s)
			return at("id", err)
		case "table":
			have |= hTable
			s, err := l.str()
			if err == nil && !isTableID(s) {
				err = fmt.Errorf("%q is not a table id: 1 to 64 of A-Z a-z 0-9 _ -", s)
			}
			if in != nil {
				e.Table = in.get(s, &in.table)
			} else {
				e.Table = string(s)
			}
			return at("table", err)
		case "hand":
			have |= hHand
			s, err := l.str()
			if err == nil && !isUUID(s) {
				err = fmt.Errorf("%q is not a UUID", s)
			}
			if in != nil {
				e.Hand = in.get(s, &in.hand)
			} else {
				e.Hand = string(s)
			}
			return at("hand", err)
		case "seq":
			have |= hSeq
			v, err := l.int()
			if err == nil && v < 1 {
				err = fmt.Errorf("%d is below 1", v)
			}
			e.Seq = Seq(v)
			return at("seq", err)
		case "at":
			have |= hAt
			s, err := l.str()
			if err == nil && !isTime(s) {
				err = fmt.Errorf("%q is not an RFC 3339 time with offset", s)
			}
			e.At = in.own(s)
			return at("at", err)
		case "type":
			have |= hType
			s, err := l.str()
			if err == nil && !Type(s).Known() {
				err = fmt.Errorf("unknown event type %q", s)
			}
			e.Type = Type(s)
			return at("type", err)
		case "prev":
			e.HasPrev = true
			s, err := l.str()
			if err == nil && len(s) != 0 && !isHex64(s) {
				err = fmt.Errorf("%q is not a lowercase hex SHA-256", s)
			}
			e.Prev = in.own(s)
			return at("prev", err)
		case "data":
			have |= hData
			if have&hType != 0 && e.Type.Known() && l.peek() == '{' {
				// The usual order (type before data): decode in place, one pass.
				d, err := decodeDataLexer(e.Type, &l)
				if err != nil {
					return at("data", err)
				}
				e.Data = d
				return nil
			}
			v, err := l.skip()
			if err == nil && v[0] != '{' {
				err = &typeErr{"object", kindOf(v[0])}
			}
			data = v
			return at("data", err)
		default:
			return &fieldErr{string(k), errors.New("unknown field")}
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
			return nil, &fieldErr{f.name, errors.New("missing")}
		}
	}
	if e.Data == nil {
		d, err := decodeData(e.Type, data)
		if err != nil {
			return nil, at("data", err)
		}
		e.Data = d
	}
	return e, nil
}

func kindOf(c byte) string {
	l := lexer{b: []byte{c}}
	return l.kind()
}

var hexLower = func() (t [256]bool) {
	for _, c := range "0123456789abcdef" {
		t[c] = true
	}
	return t
}()

func isHexDigit(c byte) bool { return hexLower[c] }

func isHex64(s []byte) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !isHexDigit(c) {
			return false
		}
	}
	return true
}

// isUUID accepts the 8-4-4-4-12 hexadecimal form, in either case.
func isUUID(s []byte) bool {
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
			if !isHexDigit(c) && !(c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}

func isTableID(s []byte) bool {
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
func isTime(s []byte) bool {
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

// Reader reads the events of a JSON Lines file one at a time, so that memory stays flat however
// long the file. Errors are *Error values naming the file and the line.
type Reader struct {
	in   interner
	name string
	r    *bufio.Reader
	line int
	err  error
}

// NewReader returns a Reader of r; name is used in error messages (a file name, or "-").
func NewReader(r io.Reader, name string) *Reader {
	return &Reader{name: name, r: bufio.NewReaderSize(r, 1<<16)}
}

// Line returns the line number of the last line read.
func (r *Reader) Line() int { return r.line }

// Name returns the name given to NewReader.
func (r *Reader) Name() string { return r.name }

// Next returns the next event, or io.EOF at the end. Blank lines are skipped. A line that fails
// to decode returns an *Error; reading may go on with the next line after it. The event's Raw
// is a fresh copy of the line.
func (r *Reader) Next() (*Event, error) {
	for {
		line, err := r.ReadLine()
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		e, err := parseWith(line, &r.in)
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

// ReadLine returns the next raw line (a fresh copy, without "\n"), or io.EOF at the end. A last
// line without a newline is returned as it is; the decoder then judges whether it is complete.
func (r *Reader) ReadLine() ([]byte, error) {
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

// decodeData decodes the payload of type t from the JSON object b.
func decodeData(t Type, b []byte) (Data, error) {
	l := &lexer{b: b}
	d, err := decodeDataLexer(t, l)
	if err == nil && l.peek() != 0 {
		err = fmt.Errorf("extra text after the data object at column %d", l.i+1)
	}
	return d, err
}

// decodeDataLexer decodes the payload of type t from the object at l's position.
func decodeDataLexer(t Type, l *lexer) (Data, error) {
	var d Data
	var err error
	switch t {
	case HandStartedType:
		d, err = decHandStarted(l)
	case DeckShuffledType:
		d, err = decDeckShuffled(l)
	case DeckCutType:
		v := &DeckCut{}
		d, err = v, fields(l, t, func(k string) error {
			switch k {
			case "at":
				n, err := nonNeg(l)
				v.At = int(n)
				return err
			case "by":
				s, err := seat(l)
				v.By = &s
				return err
			}
			return nil
		})
	case AntePostedType:
		v := &AntePosted{}
		d, err = v, fields(l, t, func(k string) error {
			switch k {
			case "seat":
				return seatInto(l, &v.Seat)
			case "amount":
				return chipsInto(l, &v.Amount)
			}
			return nil
		})
	case BlindPostedType:
		v := &BlindPosted{}
		d, err = v, fields(l, t, func(k string) error {
			switch k {
			case "seat":
				return seatInto(l, &v.Seat)
			case "amount":
				return chipsInto(l, &v.Amount)
			case "blind":
				s, err := enum(l, "small", "big", "dead")
				v.Blind = BlindKind(s)
				return err
			}
			return nil
		})
	case CardDealtType:
		v := &CardDealt{Unknown: true}
		d, err = v, fields(l, t, func(k string) error {
			switch k {
			case "seat":
				return seatInto(l, &v.Seat)
			case "card":
				v.Unknown = false
				return cardInto(l, &v.Card)
			case "phase":
				s, err := enum(l, "deal", "draw")
				v.Phase = Phase(s)
				return err
			}
			return nil
		})
	case CardBurnedType:
		v := &CardBurned{}
		d, err = v, fields(l, t, func(k string) error { return cardInto(l, &v.Card) })
	case CardExposedType:
		v := &CardExposed{}
		d, err = v, fields(l, t, func(k string) error {
			switch k {
			case "card":
				return cardInto(l, &v.Card)
			case "phase":
				s, err := enum(l, "cut", "deal", "draw", "showdown")
				v.Phase = Phase(s)
				return err
			case "seat":
				s, err := seat(l)
				v.Seat = &s
				return err
			case "cause":
				s, err := enum(l, "dealer", "player")
				v.Cause = Cause(s)
				return err
			}
			return nil
		})
	case MisdealDeclaredType:
		v := &MisdealDeclared{}
		d, err = v, fields(l, t, func(k string) error {
			s, err := l.str()
			v.Reason = string(s)
			return err
		})
	case PlayerActedType:
		v := &PlayerActed{}
		d, err = v, fields(l, t, func(k string) error {
			switch k {
			case "seat":
				return seatInto(l, &v.Seat)
			case "round":
				s, err := enum(l, "blind", "first", "second")
				v.Round = Round(s)
				return err
			case "action":
				s, err := enum(l, "check", "bet", "call", "raise", "fold")
				v.Action = Action(s)
				return err
			case "amount":
				return chipsInto(l, &v.Amount)
			}
			return nil
		})
	case CardsDiscardedType:
		v := &CardsDiscarded{}
		d, err = v, fields(l, t, func(k string) error {
			switch k {
			case "seat":
				return seatInto(l, &v.Seat)
			case "cards":
				cs, err := cardList(l)
				v.Cards = cs
				return err
			case "declared":
				n, err := nonNeg(l)
				i := int(n)
				v.Declared = &i
				return err
			}
			return nil
		})
	case OpenersShownType:
		v := &OpenersShown{}
		d, err = v, fields(l, t, func(k string) error {
			if k == "seat" {
				return seatInto(l, &v.Seat)
			}
			cs, err := cardList(l)
			v.Cards = cs
			return err
		})
	case HandShownType:
		v := &HandShown{}
		d, err = v, fields(l, t, func(k string) error {
			if k == "seat" {
				return seatInto(l, &v.Seat)
			}
			cs, err := cardList(l)
			v.Cards = cs
			return err
		})
	case HandMuckedType:
		v := &HandMucked{}
		d, err = v, fields(l, t, func(k string) error { return seatInto(l, &v.Seat) })
	case BetReturnedType:
		v := &BetReturned{}
		d, err = v, fields(l, t, func(k string) error {
			if k == "seat" {
				return seatInto(l, &v.Seat)
			}
			return chipsInto(l, &v.Amount)
		})
	case PotRakedType:
		v := &PotRaked{}
		d, err = v, fields(l, t, func(k string) error {
			if k == "pot" {
				n, err := nonNeg(l)
				v.Pot = int(n)
				return err
			}
			return chipsInto(l, &v.Amount)
		})
	case PotAwardedType:
		v := &PotAwarded{}
		d, err = v, fields(l, t, func(k string) error {
			switch k {
			case "seat":
				return seatInto(l, &v.Seat)
			case "amount":
				return chipsInto(l, &v.Amount)
			case "pot":
				n, err := nonNeg(l)
				v.Pot = int(n)
				return err
			}
			return nil
		})
	case HandPassedType:
		d, err = &HandPassed{}, fields(l, t, func(string) error { return nil })
	case DeckRevealedType:
		v := &DeckRevealed{}
		d, err = v, fields(l, t, func(k string) error {
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
			if !isHex64(s) {
				return fmt.Errorf("%q is not 64 lowercase hex digits", s)
			}
			v.Seed, err = cards.ParseSeed(string(s))
			return err
		})
	case HandEndedType:
		d, err = decHandEnded(l)
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
func fields(l *lexer, t Type, fn func(k string) error) error {
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
				return at(name, fn(name))
			}
		}
		return &fieldErr{string(kb), fmt.Errorf("unknown field for %s", t)}
	})
	if err != nil {
		return err
	}
	for i, f := range spec {
		if f[len(f)-1] != '?' && have&(1<<i) == 0 {
			return &fieldErr{f, errors.New("missing")}
		}
	}
	return nil
}

func seat(l *lexer) (Seat, error) {
	v, err := l.int()
	if err != nil {
		return 0, err
	}
	if v < 1 || v > int64(MaxSeat) {
		return 0, fmt.Errorf("seat %d is outside 1..%d", v, MaxSeat)
	}
	return Seat(v), nil
}

func seatInto(l *lexer, s *Seat) (err error) {
	*s, err = seat(l)
	return err
}

func nonNeg(l *lexer) (int64, error) {
	v, err := l.int()
	if err == nil && v < 0 {
		err = fmt.Errorf("%d is negative", v)
	}
	return v, err
}

func chipsInto(l *lexer, c *Chips) error {
	v, err := nonNeg(l)
	*c = Chips(v)
	return err
}

func cardInto(l *lexer, c *cards.Card) error {
	s, err := l.str()
	if err != nil {
		return err
	}
	*c, err = cards.Parse(string(s))
	return err
}

func cardList(l *lexer) ([]cards.Card, error) {
	out := make([]cards.Card, 0, 5)
	err := l.array(func(i int) error {
		var c cards.Card
		if err := cardInto(l, &c); err != nil {
			return atIndex("", i, err)
		}
		out = append(out, c)
		return nil
	})
	return out, err
}

func enum(l *lexer, allowed ...string) (string, error) {
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

func decDeckShuffled(l *lexer) (Data, error) {
	v := &DeckShuffled{}
	err := fields(l, DeckShuffledType, func(k string) error {
		switch k {
		case "method":
			s, err := enum(l, cards.ShuffleMethod, cards.PhysicalMethod)
			v.Method = s
			return err
		case "commitment":
			s, err := l.str()
			if err == nil && !isHex64(s) {
				err = fmt.Errorf("%q is not a lowercase hex SHA-256", s)
			}
			v.Commitment = string(s)
			return err
		case "count":
			n, err := nonNeg(l)
			i := int(n)
			v.Count = &i
			return err
		case "by":
			s, err := seat(l)
			v.By = &s
			return err
		case "cards":
			cs, err := cardList(l)
			v.Cards = cs
			return err
		}
		return nil
	})
	return v, err
}

func optString(l *lexer, dst **string) error {
	s, err := l.str()
	if err != nil {
		return err
	}
	str := string(s)
	*dst = &str
	return nil
}

func decHandStarted(l *lexer) (Data, error) {
	v := &HandStarted{}
	err := fields(l, HandStartedType, func(k string) error {
		switch k {
		case "rules":
			return decRules(l, &v.Rules)
		case "number":
			n, err := l.int()
			if err == nil && n < 1 {
				err = fmt.Errorf("%d is below 1", n)
			}
			v.Number = int(n)
			return err
		case "dealer":
			return seatInto(l, &v.Dealer)
		case "seats":
			return l.array(func(i int) error {
				var s SeatStack
				var have uint8
				err := l.object(func(kb []byte) error {
					switch string(kb) {
					case "seat":
						have |= 1
						return at("seat", seatInto(l, &s.Seat))
					case "player":
						have |= 2
						p, err := l.str()
						if err == nil && len(p) == 0 {
							err = errors.New("empty player")
						}
						s.Player = string(p)
						return at("player", err)
					case "stack":
						have |= 4
						return at("stack", chipsInto(l, &s.Stack))
					case "rebuy":
						var c Chips
						err := chipsInto(l, &c)
						s.Rebuy = &c
						return at("rebuy", err)
					}
					return &fieldErr{string(kb), errors.New("unknown field for a seat")}
				})
				if err == nil {
					for bit, name := range map[uint8]string{1: "seat", 2: "player", 4: "stack"} {
						if have&bit == 0 {
							err = &fieldErr{name, errors.New("missing")}
						}
					}
				}
				v.Seats = append(v.Seats, s)
				return atIndex("", i, err)
			})
		case "stakes":
			var have uint8
			err := l.object(func(kb []byte) error {
				switch string(kb) {
				case "ante":
					have |= 1
					return at("ante", chipsInto(l, &v.Stakes.Ante))
				case "min_bet":
					have |= 2
					return at("min_bet", chipsInto(l, &v.Stakes.MinBet))
				case "max_bet":
					have |= 4
					return at("max_bet", chipsInto(l, &v.Stakes.MaxBet))
				}
				return &fieldErr{string(kb), errors.New("unknown field for stakes")}
			})
			if err == nil {
				for bit, name := range map[uint8]string{1: "ante", 2: "min_bet", 4: "max_bet"} {
					if have&bit == 0 {
						err = &fieldErr{name, errors.New("missing")}
					}
				}
			}
			return err
		case "carry":
			return chipsInto(l, &v.Carry)
		case "passed_out":
			n, err := nonNeg(l)
			v.PassedOut = int(n)
			return err
		case "tournament":
			return optString(l, &v.Tournament)
		case "previous":
			s, err := l.str()
			if err == nil && !isUUID(s) {
				err = fmt.Errorf("%q is not a UUID", s)
			}
			p := string(s)
			v.Previous = &p
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return v, nil
}

func decRules(l *lexer, r *Rules) error {
	named := false
	err := l.object(func(kb []byte) error {
		if string(kb) == "name" {
			named = true
			s, err := l.str()
			if err == nil && len(s) == 0 {
				err = errors.New("empty preset name")
			}
			r.Name = string(s)
			return at("name", err)
		}
		raw, err := l.skip()
		if err != nil {
			return at(string(kb), err)
		}
		r.Overrides = append(r.Overrides, Override{Key: string(kb), Value: append([]byte(nil), raw...)})
		return nil
	})
	if err == nil && !named {
		err = &fieldErr{"name", errors.New("missing")}
	}
	return err
}

func decHandEnded(l *lexer) (Data, error) {
	v := &HandEnded{}
	err := fields(l, HandEndedType, func(k string) error {
		if k == "carry" {
			return chipsInto(l, &v.Carry)
		}
		v.Stacks = make([]SeatChips, 0, 8)
		return l.array(func(i int) error {
			var s SeatChips
			var have uint8
			err := l.object(func(kb []byte) error {
				switch string(kb) {
				case "seat":
					have |= 1
					return at("seat", seatInto(l, &s.Seat))
				case "stack":
					have |= 2
					return at("stack", chipsInto(l, &s.Stack))
				}
				return &fieldErr{string(kb), errors.New("unknown field for a stack")}
			})
			if err == nil && have != 3 {
				name := "seat"
				if have&2 == 0 {
					name = "stack"
				}
				err = &fieldErr{name, errors.New("missing")}
			}
			v.Stacks = append(v.Stacks, s)
			return atIndex("", i, err)
		})
	})
	return v, err
}
