package events

import (
	"strconv"
	"unicode/utf8"

	"github.com/fechado/fechado/cards"
)

// Encode returns the event as one JSON line (without newline), the envelope and the data fields
// in the catalogue's order, with prev always present. It does not look at e.Raw.
func Encode(e *Event) []byte { return AppendEncode(make([]byte, 0, 256), e) }

// AppendEncode appends the encoding of e to b.
func AppendEncode(b []byte, e *Event) []byte {
	b = append(b, `{"id":`...)
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
	b = append(b, `,"prev":`...)
	b = appendString(b, e.Prev)
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

func appendData(b []byte, d Data) []byte {
	o := obj{b: append(b, '{'), first: true}
	switch v := d.(type) {
	case *HandStarted:
		o.key("rules")
		r := obj{b: append(o.b, '{'), first: true}
		r.str("name", v.Rules.Name)
		for _, ov := range v.Rules.Overrides {
			if r.first {
				r.first = false
			} else {
				r.b = append(r.b, ',')
			}
			r.b = appendString(r.b, ov.Key) // an override key may need escaping
			r.b = append(r.b, ':')
			r.b = append(r.b, ov.Value...)
		}
		o.b = append(r.b, '}')
		o.int("number", int64(v.Number))
		o.int("dealer", int64(v.Dealer))
		o.key("seats")
		o.b = append(o.b, '[')
		for i, s := range v.Seats {
			if i > 0 {
				o.b = append(o.b, ',')
			}
			so := obj{b: append(o.b, '{'), first: true}
			so.int("seat", int64(s.Seat))
			so.str("player", s.Player)
			so.int("stack", int64(s.Stack))
			if s.Rebuy != nil {
				so.int("rebuy", int64(*s.Rebuy))
			}
			if s.Joined {
				so.key("joined")
				so.b = append(so.b, "true"...)
			}
			if s.From != "" {
				so.str("from", s.From)
			}
			o.b = append(so.b, '}')
		}
		o.b = append(o.b, ']')
		o.key("stakes")
		so := obj{b: append(o.b, '{'), first: true}
		so.int("ante", int64(v.Stakes.Ante))
		so.int("min_bet", int64(v.Stakes.MinBet))
		so.int("max_bet", int64(v.Stakes.MaxBet))
		o.b = append(so.b, '}')
		o.int("carry", int64(v.Carry))
		o.int("passed_out", int64(v.PassedOut))
		if t := v.Tournament; t != nil && t.Level == 0 {
			o.str("tournament", t.ID) // a v1 log's bare id: written back as it was read
		} else if t != nil {
			o.key("tournament")
			to := obj{b: append(o.b, '{'), first: true}
			to.str("id", t.ID)
			to.int("level", int64(t.Level))
			if t.Entries != nil {
				to.int("entries", int64(*t.Entries))
			}
			if t.Stack != nil {
				to.int("stack", int64(*t.Stack))
			}
			o.b = append(to.b, '}')
		}
		if v.Previous != nil {
			o.str("previous", *v.Previous)
		}
		if v.Away != nil {
			o.key("away")
			o.b = append(o.b, '[')
			for i, a := range v.Away {
				if i > 0 {
					o.b = append(o.b, ',')
				}
				ao := obj{b: append(o.b, '{'), first: true}
				ao.int("seat", int64(a.Seat))
				ao.str("player", a.Player)
				ao.int("stack", int64(a.Stack))
				o.b = append(ao.b, '}')
			}
			o.b = append(o.b, ']')
		}
		if v.Left != nil {
			o.key("left")
			o.b = append(o.b, '[')
			for i, p := range v.Left {
				if i > 0 {
					o.b = append(o.b, ',')
				}
				po := obj{b: append(o.b, '{'), first: true}
				po.str("player", p.Player)
				po.int("stack", int64(p.Stack))
				if p.To != "" {
					po.str("to", p.To)
				}
				o.b = append(po.b, '}')
			}
			o.b = append(o.b, ']')
		}
	case *DeckShuffled:
		o.str("method", v.Method)
		if v.Commitment != "" {
			o.str("commitment", v.Commitment)
		}
		if v.Count != nil {
			o.int("count", int64(*v.Count))
		}
		if v.By != nil {
			o.int("by", int64(*v.By))
		}
		if v.Cards != nil {
			o.cards("cards", v.Cards)
		}
	case *DeckCut:
		o.int("at", int64(v.At))
		if v.By != nil {
			o.int("by", int64(*v.By))
		}
	case *AntePosted:
		o.int("seat", int64(v.Seat))
		o.int("amount", int64(v.Amount))
	case *BlindPosted:
		o.int("seat", int64(v.Seat))
		o.int("amount", int64(v.Amount))
		o.str("blind", string(v.Blind))
	case *CardDealt:
		o.int("seat", int64(v.Seat))
		if !v.Unknown {
			o.card("card", v.Card)
		}
		o.str("phase", string(v.Phase))
	case *CardBurned:
		o.card("card", v.Card)
	case *CardExposed:
		o.card("card", v.Card)
		o.str("phase", string(v.Phase))
		if v.Seat != nil {
			o.int("seat", int64(*v.Seat))
		}
		if v.Cause != "" {
			o.str("cause", string(v.Cause))
		}
	case *MisdealDeclared:
		o.str("reason", v.Reason)
	case *PlayerActed:
		o.int("seat", int64(v.Seat))
		o.str("round", string(v.Round))
		o.str("action", string(v.Action))
		o.int("amount", int64(v.Amount))
	case *CardsDiscarded:
		o.int("seat", int64(v.Seat))
		o.cards("cards", v.Cards)
		if v.Declared != nil {
			o.int("declared", int64(*v.Declared))
		}
	case *OpenersShown:
		o.int("seat", int64(v.Seat))
		o.cards("cards", v.Cards)
	case *HandShown:
		o.int("seat", int64(v.Seat))
		o.cards("cards", v.Cards)
	case *HandMucked:
		o.int("seat", int64(v.Seat))
	case *BetReturned:
		o.int("seat", int64(v.Seat))
		o.int("amount", int64(v.Amount))
	case *PotRaked:
		o.int("pot", int64(v.Pot))
		o.int("amount", int64(v.Amount))
	case *PotAwarded:
		o.int("seat", int64(v.Seat))
		o.int("amount", int64(v.Amount))
		o.int("pot", int64(v.Pot))
	case *HandPassed:
	case *DeckRevealed:
		o.int("shuffle", int64(v.Shuffle))
		o.str("seed", v.Seed.String())
	case *HandEnded:
		o.key("stacks")
		o.b = append(o.b, '[')
		for i, s := range v.Stacks {
			if i > 0 {
				o.b = append(o.b, ',')
			}
			so := obj{b: append(o.b, '{'), first: true}
			so.int("seat", int64(s.Seat))
			so.int("stack", int64(s.Stack))
			o.b = append(so.b, '}')
		}
		o.b = append(o.b, ']')
		o.int("carry", int64(v.Carry))
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
