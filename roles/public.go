package roles

import (
	"bytes"
	"encoding/json"

	"github.com/fechado/fechado/events"
)

// View is what a spectator sees of one event: the envelope without prev and the data without
// anything nobody at the table has seen face up. It is published as JSON on
// PublicSubject(table, hand).
//
// prev is always left out: it is the SHA-256 of the previous stored line, so with everything else
// of that line public, trying the 52 possible cards against it would give a hidden card away.
type View struct {
	ID    string          `json:"id"`
	Table string          `json:"table"`
	Hand  string          `json:"hand"`
	Seq   events.Seq      `json:"seq"`
	At    string          `json:"at"`
	Type  events.Type     `json:"type"`
	Data  json.RawMessage `json:"data"`
	// Redacted is set when fields were taken out of Data.
	Redacted bool `json:"redacted,omitempty"`
}

// hidden lists, per type, the data fields that may hold a card nobody saw face up or a seed.
var hidden = map[events.Type][]string{
	events.CardDealtType:      {"card"},  // face down to one player
	events.CardBurnedType:     {"card"},  // face down out of play
	events.CardsDiscardedType: {"cards"}, // face down; data.count says how many
	events.DeckShuffledType:   {"cards"}, // the gathered cards of a reshuffle
	events.DeckRevealedType:   {"seed"},  // the seed gives the whole deck away
}

// PublicView returns what a spectator may see of e while its hand is in progress, and false when
// nothing of e can be shown (e has no decoded data or no valid line). It is a pure function of e:
// card.dealt and card.burned lose their card, cards.discarded its cards (data.count keeps how
// many), a reshuffle's deck.shuffled its gathered cards, deck.revealed its seed, and no event
// keeps prev. Actions, antes and blinds, pots, stacks, the commitment, the cut, exposed cards,
// openers and hands shown are public and stay. Once the hand has ended everything is public:
// see FullView.
func PublicView(e *events.Event) (View, bool) {
	v, data, ok := envelope(e)
	if !ok {
		return View{}, false
	}
	drop := hidden[e.Type]
	if len(drop) == 0 {
		v.Data = data
		return v, true
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return View{}, false
	}
	for _, k := range drop {
		delete(m, k)
	}
	if d, ok := e.Data.(*events.CardsDiscarded); ok {
		m["count"], _ = json.Marshal(len(d.Cards))
	}
	b, err := json.Marshal(m)
	if err != nil {
		return View{}, false
	}
	v.Data, v.Redacted = b, true
	return v, true
}

// FullView returns e with all its data (still without prev), for a hand that has ended: its
// face-down cards and seeds are no secret any more.
func FullView(e *events.Event) (View, bool) {
	v, data, ok := envelope(e)
	v.Data = data
	return v, ok
}

// envelope returns the envelope of e and its data object as stored.
func envelope(e *events.Event) (View, json.RawMessage, bool) {
	if e == nil || e.Data == nil {
		return View{}, nil, false
	}
	raw := e.Raw
	if raw == nil {
		raw = events.Encode(e)
	}
	var line struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(raw, &line); err != nil || !bytes.HasPrefix(bytes.TrimSpace(line.Data), []byte("{")) {
		return View{}, nil, false
	}
	return View{ID: e.ID, Table: e.Table, Hand: e.Hand, Seq: e.Seq, At: e.At, Type: e.Type}, line.Data, true
}

// JSON returns the view as one JSON object, the payload published on the public subject.
func (v View) JSON() []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return nil // not reachable: Data is a JSON object
	}
	return b
}

// Public follows a log in order and says what to publish on the public subjects: the PublicView
// of each event of a hand in progress; at a hand's hand.ended, after its view, the FullView of
// the events that were redacted, so the seed and the face-down cards come out once the hand is
// over. It holds only the redacted events of hands still open. Not safe for concurrent use.
type Public struct {
	withheld map[string][]*events.Event
}

// NewPublic returns an empty Public.
func NewPublic() *Public { return &Public{withheld: map[string][]*events.Event{}} }

// Next returns the views to publish for e, in order (none when e cannot be shown).
func (p *Public) Next(e *events.Event) []View {
	v, ok := PublicView(e)
	if !ok {
		return nil
	}
	out := []View{v}
	if v.Redacted {
		p.withheld[e.Hand] = append(p.withheld[e.Hand], e)
	}
	if e.Type == events.HandEndedType {
		for _, w := range p.withheld[e.Hand] {
			if f, ok := FullView(w); ok {
				out = append(out, f)
			}
		}
		delete(p.withheld, e.Hand)
	}
	return out
}

// Open returns how many hands have redacted events held back.
func (p *Public) Open() int { return len(p.withheld) }
