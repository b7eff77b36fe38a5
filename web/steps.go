package web

import (
	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/replay"
)

// Step is the table after one event of a hand, as the hand replayer shows it: the replay state,
// the number of cards each seat discarded, and (added by the API) the event and the findings
// that show at it.
type Step struct {
	*replay.State
	// Draws maps each seat that has drawn to the number of cards it discarded.
	Draws map[events.Seat]int `json:"draws"`
	// Redacted is set for a hand in progress: the state holds only what was seen face up.
	Redacted bool `json:"redacted,omitempty"`
}

// stateAt returns the step after event seq of a hand; with hidden set (the hand is in
// progress) face-down cards, discards, burned cards, the stub and seeds are taken out.
func stateAt(evs []*events.Event, seq events.Seq, hidden bool) (Step, error) {
	st, err := replay.At(evs, seq)
	if err != nil {
		return Step{}, err
	}
	s := Step{State: st, Draws: map[events.Seat]int{}}
	for _, seat := range st.Seats {
		if seat.Drew {
			s.Draws[seat.Seat] = len(seat.Discarded)
		}
	}
	if hidden {
		redactState(st)
		s.Redacted = true
	}
	return s, nil
}

// redactState removes from st everything nobody has seen face up, and what would give it away.
func redactState(st *replay.State) {
	for i := range st.Seats {
		seat := &st.Seats[i]
		seen := cards.SetOf(seat.Seen...)
		visible := []cards.Card{}
		for _, c := range seat.Cards {
			if seen.Has(c) {
				visible = append(visible, c)
			}
		}
		seat.Hidden += len(seat.Cards) - len(visible)
		seat.Cards = visible
		seat.Discarded = []cards.Card{}
		if seat.Hidden > 0 {
			seat.Hand = ""
		}
	}
	// Who may win a pot depends on hidden cards too (a false opener's hand is dead): not shown.
	for i := range st.Pots {
		st.Pots[i].Eligible = []events.Seat{}
	}
	st.Deck.Stub = []cards.Card{}
	st.Deck.Burned = []cards.Card{}
	for i := range st.Deck.Shuffles {
		sh := &st.Deck.Shuffles[i]
		sh.Gathered, sh.Seed, sh.Order, sh.Verified = nil, "", nil, false
	}
}
