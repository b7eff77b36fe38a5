package events

import (
	"strconv"
	"unicode/utf8"

	"github.com/fechado/fechado/cards"
)

// Encode returns the event as one JSON line (without newline), the envelope and the data fields
// in the catalogue's order, with prev always present. It does not look at e.Raw.
func Encode(e *Event) []byte { return encode(e, true) }

// encode is Encode, with prev left out when withPrev is false (a public view: Public).
func encode(e *Event, withPrev bool) []byte {
	b := append(make([]byte, 0, 256), `{"id":`...)
	b = appendString(b, e.ID)
	b = append(b, `,"table":`...)
	b = appendString(b, e.Table)
	b = append(b, `,"hand":`...)
	b = appendString(b, e.Hand)
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, int64(e.Seq), 10)
	b = append(b, `,"at":`...)
	b = appendString(b, e.At)
	b = append(b, `,"type":`...)
	b = appendString(b, string(e.Type))
	if withPrev {
		b = append(b, `,"prev":`...)
		b = appendString(b, e.Prev)
	}
	b = append(b, `,"data":`...)
	b = appendData(b, e.Data)
	return append(b, '}')
}

// Seal sets e.Prev to prev, encodes e and sets e.Raw to the encoding. It is how fechado writes the
// events it creates (simulator, importer) and fills a missing prev.
func Seal(e *Event, prev string) {
	e.Prev, e.HasPrev = prev, true
	e.Raw = Encode(e)
}

type obj struct {
	b     []byte
	first bool
}

func (o *obj) key(k string) {
	if o.first {
		o.first = false
	} else {
		o.b = append(o.b, ',')
	}
	o.b = append(o.b, '"')
	o.b = append(o.b, k...)
	o.b = append(o.b, '"', ':')
}

func (o *obj) int(k string, v int64) {
	o.key(k)
	o.b = strconv.AppendInt(o.b, v, 10)
}

func (o *obj) str(k, v string) {
	o.key(k)
	o.b = appendString(o.b, v)
}

func (o *obj) card(k string, c cards.Card) {
	o.key(k)
	o.b = append(o.b, '"')
	o.b = append(o.b, c.String()...)
	o.b = append(o.b, '"')
}

func (o *obj) cards(k string, cs []cards.Card) {
	o.key(k)
	o.b = appendCards(o.b, cs)
}

func appendCards(b []byte, cs []cards.Card) []byte {
	b = append(b, '[')
	for i, c := range cs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, c.String()...)
		b = append(b, '"')
	}
	return append(b, ']')
}

func (o *obj) bool(k string, v bool) {
	o.key(k)
	o.b = strconv.AppendBool(o.b, v)
}

// appendList appends the list xs, each element's object written by f.
func appendList[T any](b []byte, xs []T, f func([]byte, *T) []byte) []byte {
	b = append(b, '[')
	for i := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = f(b, &xs[i])
	}
	return append(b, ']')
}

// appendRules appends hand.started's rules: the preset's name, then the overrides as they were
// read.
func appendRules(b []byte, r *Rules) []byte {
	o := obj{b: append(b, '{'), first: true}
	o.str("name", r.Name)
	for _, ov := range r.Overrides {
		o.b = append(o.b, ',')
		o.b = appendString(o.b, ov.Key) // an override key may need escaping
		o.b = append(o.b, ':')
		o.b = append(o.b, ov.Value...)
	}
	return append(o.b, '}')
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string: quotes, backslashes and control characters escaped,
// everything else (UTF-8 included) as it is. Invalid UTF-8 becomes U+FFFD.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, "\ufffd"...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
