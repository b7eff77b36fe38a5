package events

import "github.com/fechado/fechado/cards"

// Public returns what a spectator may see of e while its hand is in progress, and false when
// nothing of e can be shown until the hand ends (docs/security.md §4). It is the one redaction of
// a hand in progress: the public subjects, the web's live feed and the projector's live tables
// all take it. The view is a new event, e is not changed; it is a valid v1 event, as the log
// holds for hands whose cards the recorder never saw (imported hand histories), so that
// rules.Hand follows it:
//   - card.dealt loses its card (card is optional: "absent where the recorder never saw it");
//   - cards.discarded shows cards: [] with declared, the number of cards discarded;
//   - a reshuffle's deck.shuffled loses its gathered cards (optional);
//   - card.burned and deck.revealed, whose card and seed cannot be left out of a valid event,
//     are not shown until the hand ends;
//   - no event keeps prev: it is the SHA-256 of the previous stored line, so with everything else
//     of that line public, trying the 52 possible cards against it would give a hidden card away.
//
// Actions, antes and blinds, pots, stacks, the commitment, the cut, exposed cards, openers and
// hands shown are public and stay. The view's Raw is its encoding (Encode's, without prev); its
// Data is e's own, shared, when nothing of it was hidden, so Redacted(e, view) tells whether
// anything was. An event without data (what ParseLenient could not read) shows nothing.
func Public(e *Event) (*Event, bool) {
	if e == nil || e.Data == nil {
		return nil, false
	}
	data := e.Data
	switch d := e.Data.(type) {
	case *CardBurned, *DeckRevealed:
		return nil, false
	case *CardDealt:
		if !d.Unknown {
			c := *d
			c.Card, c.Unknown = cards.Card(0), true
			data = &c
		}
	case *DeckShuffled:
		if d.Cards != nil {
			c := *d
			c.Cards = nil
			data = &c
		}
	case *CardsDiscarded:
		n := len(d.Cards)
		if d.Declared != nil && len(d.Cards) == 0 {
			n = *d.Declared // already a count only (an imported hand)
		}
		data = &CardsDiscarded{Seat: d.Seat, Cards: []cards.Card{}, Declared: &n}
	}
	return Unsealed(e, data), true
}

// Redacted reports whether the view v, which Public returned for e, hides something of e.
func Redacted(e, v *Event) bool { return v != nil && v.Data != e.Data }

// Unsealed returns e with data and without prev, as a new event whose Raw is its encoding
// without prev: a view of e, not a stored line (the chain cannot hash it). With e.Data it is
// everything of e but prev, what spectators see once the hand has ended.
func Unsealed(e *Event, data Data) *Event {
	v := &Event{ID: e.ID, Table: e.Table, Hand: e.Hand, Seq: e.Seq, At: e.At, Type: e.Type, Data: data}
	v.Raw = encode(v, false)
	return v
}
