package events

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/fechado/fechado/events/internal/jsonlex"
)

// ParseLenient decodes a line that Parse may refuse, for an auditor that reports a bad line and
// goes on (events-v1.md §8). For a valid line it returns what Parse returns. For a line that Parse
// refuses it returns Parse's error (an *Error naming the field) and, when the line is a JSON
// object whose id, hand and seq are readable, the event read as far as it can be:
//
//   - a field that cannot be read is treated as absent: an optional one is left out (a bad card
//     of card.dealt gives Unknown, as in an imported hand; a bad prev gives HasPrev false), and a
//     required one leaves its nearest optional ancestor out, or, when there is none in the data,
//     the whole payload (Data nil);
//   - a bad or missing table, at or type is left "" (a bad type leaves Data nil too);
//   - Raw is line itself.
//
// A line that is not JSON, or whose id, hand or seq cannot be read, or that is over a limit of
// the decoder (MaxLineSize, MaxDepth), gives only the error: it has no place in a hand's
// sequence and chain.
func ParseLenient(line []byte) (*Event, error) {
	e, err := Parse(line)
	if err == nil {
		return e, nil
	}
	return lenientEvent(line, err), err
}

// NextLenient is Next for an auditor that goes on past a bad line (events-v1.md §8): for a line
// that Next refuses it returns Next's *Error with the event that ParseLenient reads of the line,
// or a nil event when the line is not JSON or its envelope cannot be read. A failed read returns
// a nil event and the error, as Next does.
func (r *Reader) NextLenient() (*Event, error) {
	e, line, err := r.nextLine()
	if err == nil || line == nil || !errors.Is(err, ErrInvalid) {
		return e, err
	}
	return lenientEvent(line, err), err
}

// lenientEvent returns what lenient reads of line, or nil when line is not a JSON object, or
// is over a limit of the decoder (MaxLineSize, MaxDepth): such a line is refused whole, not
// taken apart field by field (each step of which would cost the line again).
func lenientEvent(line []byte, err error) *Event {
	if errors.Is(err, ErrLineTooLong) || errors.Is(err, ErrTooDeep) {
		return nil
	}
	if !json.Valid(line) || bytes.TrimSpace(line)[0] != '{' {
		return nil
	}
	return lenient(line, err)
}

// lenient reads what it can of line, a JSON object that Parse refuses with err: it takes out or
// replaces, one at a time, each field that Parse names, until Parse accepts what is left; then
// it clears what was replaced. It returns nil when id, hand or seq cannot be read.
func lenient(line []byte, err error) *Event {
	work := bytes.Clone(line)
	var cleared []string // envelope fields given a stand-in value, cleared in the result
	noData := false
	for range maxLenientSteps {
		var pe *Error
		if !errors.As(err, &pe) || pe.Field == "" {
			return nil
		}
		path := splitPath(pe.Field)
		switch top := path[0].key; {
		case top == "id" || top == "hand" || top == "seq":
			return nil
		case top == "table" || top == "at":
			work = setMember(work, top, standIn[top])
			cleared = append(cleared, top)
		case top == "prev" && len(path) == 1:
			work = dropMember(work, path)
		case top == "type" || (top == "data" && len(path) == 1):
			if top == "type" {
				cleared = append(cleared, "type")
			}
			noData = true
			work = setMember(setMember(work, "type", `"hand.passed"`), "data", "{}")
		case top == "data":
			var whole bool
			if work, whole = dropOptional(work, path); whole {
				noData = true
			}
		default: // a field the envelope does not have
			before := len(work)
			if work = dropMember(work, path[:1]); len(work) == before {
				return nil
			}
		}
		var e *Event
		if e, err = Parse(work); err == nil {
			e.Raw = line
			for _, f := range cleared {
				switch f {
				case "table":
					e.Table = ""
				case "at":
					e.At = ""
				case "type":
					e.Type = ""
				}
			}
			if noData {
				e.Data = nil
				if !slices.Contains(cleared, "type") {
					e.Type = typeOf(line)
				}
			}
			return e
		}
	}
	return nil
}

// maxLenientSteps bounds the fields lenient takes out of one line.
const maxLenientSteps = 64

// standIn holds valid values for envelope fields that lenient replaces, then clears.
var standIn = map[string]string{"table": `"x"`, "at": `"2000-01-01T00:00:00Z"`}

// typeOf returns the catalogue type of line's type field, or "".
func typeOf(line []byte) Type {
	var env struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(line, &env) != nil || !Type(env.Type).Known() {
		return ""
	}
	return Type(env.Type)
}

// dropOptional takes out of work the field at path, or, when Parse then says it is missing, its
// nearest ancestor field that may be missing; the data object itself is the last resort (then
// the payload is unknown, and whole is set). An element of a list is never taken out alone: that
// would change the list's meaning; its list is.
func dropOptional(work []byte, path []pathSeg) (_ []byte, whole bool) {
	for n := len(path); n > 1; n-- {
		if path[n-1].index >= 0 {
			continue
		}
		try := dropMember(work, path[:n])
		if len(try) == len(work) {
			continue // not found (a name the path cannot spell): take out its parent
		}
		if _, err := Parse(try); err != nil {
			var pe *Error
			if errors.As(err, &pe) && slices.Equal(splitPath(pe.Field), path[:n]) && pe.Err.Error() == "missing" {
				continue // required: take out its parent instead
			}
		}
		return try, false
	}
	return setMember(setMember(work, "type", `"hand.passed"`), "data", "{}"), true
}

// pathSeg is one step of a field path: a field name, or (index ≥ 0) an element of a list.
type pathSeg struct {
	key   string
	index int
}

// splitPath reads an *Error's field path, e.g. "data.seats[1].stack".
func splitPath(p string) []pathSeg {
	var out []pathSeg
	for _, part := range strings.Split(p, ".") {
		key, rest, _ := strings.Cut(part, "[")
		out = append(out, pathSeg{key: key, index: -1})
		for rest != "" {
			num, after, _ := strings.Cut(rest, "]")
			i, err := strconv.Atoi(num)
			if err != nil {
				return out
			}
			out = append(out, pathSeg{index: i})
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return out
}

// locate finds the field at path (ending with a field name) in the JSON object b: the offsets of
// its name's opening quote and of the end of its value; ok is false when there is none.
func locate(b []byte, path []pathSeg) (start, end int, ok bool) {
	l := &jsonlex.Lexer{B: b}
	for depth, seg := range path {
		last := depth == len(path)-1
		if seg.index >= 0 {
			empty, err := l.OpenArray()
			for i, more := 0, !empty; err == nil && more; i++ {
				if i == seg.index {
					break
				}
				if _, err = l.Skip(); err == nil {
					more, err = l.NextElem()
				}
				if !more {
					return 0, 0, false
				}
			}
			if err != nil || empty {
				return 0, 0, false
			}
			continue
		}
		empty, err := l.Open()
		found := false
		for more := !empty; err == nil && more && !found; {
			l.Peek()
			ks := l.I
			var k []byte
			if k, err = l.Name(); err != nil || l.Expect(':') != nil {
				return 0, 0, false
			}
			if string(k) == seg.key {
				found = true
				if last {
					if _, err = l.Skip(); err != nil {
						return 0, 0, false
					}
					return ks, l.I, true
				}
				break
			}
			if _, err = l.Skip(); err == nil {
				more, err = l.Next()
			}
		}
		if !found || err != nil {
			return 0, 0, false
		}
	}
	return 0, 0, false
}

// dropMember takes the field at path out of b, with the comma that separates it from the next
// field or else from the previous one; b is returned as it is when there is no such field.
func dropMember(b []byte, path []pathSeg) []byte {
	s, e, ok := locate(b, path)
	if !ok {
		return b
	}
	j := e
	for j < len(b) && isSpace(b[j]) {
		j++
	}
	if j < len(b) && b[j] == ',' {
		return append(b[:s:s], b[j+1:]...)
	}
	i := s - 1
	for i >= 0 && isSpace(b[i]) {
		i--
	}
	if i >= 0 && b[i] == ',' {
		s = i
	}
	return append(b[:s:s], b[e:]...)
}

// setMember sets the envelope field name of the JSON object b to value (JSON text): in place of
// its value when it is there, else as the first field.
func setMember(b []byte, name, value string) []byte {
	field := `"` + name + `":` + value
	if s, e, ok := locate(b, []pathSeg{{key: name, index: -1}}); ok {
		return append(append(b[:s:s], field...), b[e:]...)
	}
	i := bytes.IndexByte(b, '{') + 1
	rest := bytes.TrimSpace(b[i:])
	if len(rest) > 0 && rest[0] != '}' {
		field += ","
	}
	return append(append(b[:i:i], field...), b[i:]...)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
