package web

import (
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
	// Redacted is set for a hand in progress: the state is that of the hand's public views, and
	// holds only what was seen face up.
	Redacted bool `json:"redacted,omitempty"`
}

// stateAt returns the step after event seq of a hand. evs are the events as shown (handView):
// for a hand in progress (public set) the public views, so that replay.At, through rules.Hand,
// builds a state that never held a face-down card, a discard or a seed.
func stateAt(evs []*events.Event, seq events.Seq, public bool) (Step, error) {
	st, err := replay.At(evs, seq)
	if err != nil {
		return Step{}, err
	}
	s := Step{State: st, Draws: map[events.Seat]int{}, Redacted: public}
	for _, seat := range st.Seats {
		if seat.Drew {
			s.Draws[seat.Seat] = seat.Drawn
		}
	}
	if public {
		// Who may win a pot depends on cards nobody has seen yet (a false opener's hand is
		// dead): the public views cannot tell, so the replayer does not guess.
		for i := range st.Pots {
			st.Pots[i].Eligible = []events.Seat{}
		}
	}
	return s, nil
}
