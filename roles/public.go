package roles

import (
	"bytes"
	"encoding/json"

	"github.com/fechado/fechado/events"
)

// View is what a spectator sees of one event: a valid v1 event (events-v1.md §4), without prev.
// While its hand is in progress (PublicView) the data holds nothing nobody at the table has seen
// face up; once the hand has ended (FullView) it holds everything. It is published as JSON on
// PublicSubject(table, hand), with the header ViewHeader saying which view it is: a view is not a
// stored line (no prev, data taken out), and must not be taken for one.
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
	// Redacted is set when the data was changed to hide cards (not part of the event's JSON).
	Redacted bool `json:"-"`
	// Kind is ViewPublic or ViewFull (not part of the event's JSON: see ViewHeader).
	Kind string `json:"-"`
}

// ViewHeader is the NATS header of a message on a public subject; its value is ViewPublic or
// ViewFull.
const ViewHeader = "Fechado-View"

// The values of ViewHeader.
const (
	ViewPublic = "public" // PublicView: a hand in progress, face-down cards taken out
	ViewFull   = "full"   // FullView: a hand that ended, everything but prev
)

// PublicView returns what a spectator may see of e while its hand is in progress, and false when
// nothing of e can be shown until the hand ends. It is a pure function of e, and its JSON is a
// valid v1 event, as the log holds for hands whose cards the recorder never saw (imported hand
// histories), so that rules.Hand follows it:
//   - card.dealt loses its card (card is optional: "absent where the recorder never saw it");
//   - cards.discarded shows cards: [] with declared, the number of cards discarded;
//   - a reshuffle's deck.shuffled loses its gathered cards (optional);
//   - card.burned and deck.revealed, whose card and seed cannot be left out of a valid event,
//     are not shown until the hand ends (Public releases them then);
//   - no event keeps prev.
//
// Actions, antes and blinds, pots, stacks, the commitment, the cut, exposed cards, openers and
// hands shown are public and stay. Once the hand has ended everything is public: see FullView.
func PublicView(e *events.Event) (View, bool) {
	v, data, ok := envelope(e)
	if !ok {
		return View{}, false
	}
	v.Kind = ViewPublic
	var drop string
	switch d := e.Data.(type) {
	case *events.CardBurned, *events.DeckRevealed:
		return View{}, false
	case *events.CardDealt:
		drop = "card"
	case *events.DeckShuffled:
		drop = "cards"
	case *events.CardsDiscarded:
		n := len(d.Cards)
		if d.Declared != nil && len(d.Cards) == 0 {
			n = *d.Declared // already a count only (an imported hand)
		}
		m := map[string]any{"seat": d.Seat, "cards": []string{}, "declared": n}
		b, err := json.Marshal(m)
		if err != nil {
			return View{}, false
		}
		v.Data, v.Redacted = b, true
		return v, true
	}
	var m map[string]json.RawMessage
	if drop == "" || json.Unmarshal(data, &m) != nil {
		v.Data = data
		return v, drop == ""
	}
	if _, ok := m[drop]; !ok {
		v.Data = data
		return v, true
	}
	delete(m, drop)
	b, err := json.Marshal(m)
	if err != nil {
		return View{}, false
	}
	v.Data, v.Redacted = b, true
	return v, true
}

// Event returns the view as an event (decoded from its JSON), for rules.Hand and replay.
func (v View) Event() (*events.Event, error) { return events.Parse(v.JSON()) }

// FullView returns e with all its data (still without prev), for a hand that has ended: its
// face-down cards and seeds are no secret any more.
func FullView(e *events.Event) (View, bool) {
	v, data, ok := envelope(e)
	v.Data, v.Kind = data, ViewFull
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
// the events that were redacted or withheld, so the seed and the face-down cards come out once
// the hand is over. It holds only those events of hands still open. Not safe for concurrent use.
type Public struct {
	withheld map[string][]*events.Event
}

// NewPublic returns an empty Public.
func NewPublic() *Public { return &Public{withheld: map[string][]*events.Event{}} }

// Next returns the views to publish for e, in order (none when e cannot be shown).
func (p *Public) Next(e *events.Event) []View {
	v, ok := PublicView(e)
	if !ok {
		if _, full := FullView(e); full {
			p.withheld[e.Hand] = append(p.withheld[e.Hand], e) // shown at hand.ended
		}
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
