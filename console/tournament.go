package console

import "github.com/fechado/fechado/events"

// tournamentNext is what the next hand's start carries of a tournament (events-v1.md §9): the
// tournament and its level, which the page raises from the tournament's schedule, and the players
// the hand knocked out, whom the next hand lists in left with no chips. Moves are the floor's
// decision: the page records them as the dealer enters them (left with to, seats with from).
type tournamentNext struct {
	ID    string `json:"id"`
	Level int    `json:"level"`
	// KnockedOut are the players whose stack the hand took to 0: they leave the tournament.
	KnockedOut []string `json:"knocked_out,omitempty"`
}

// tournamentOf fills n's tournament part after the hand hs started and end ended. The knocked-out
// players are not among n's seats: a tournament deals nobody in without chips, whatever the
// preset does for broke players at a cash table (getNext).
func tournamentOf(hs *events.HandStarted, end *events.HandEnded, n *nextStart) {
	if hs.Tournament == nil {
		return
	}
	t := &tournamentNext{ID: hs.Tournament.ID, Level: hs.Tournament.Level}
	names := map[events.Seat]string{}
	for _, s := range hs.Seats {
		names[s.Seat] = s.Player
	}
	for _, s := range end.Stacks {
		if s.Stack == 0 && end.Carry == 0 { // with a carry, his last chips may be in it: still in
			t.KnockedOut = append(t.KnockedOut, names[s.Seat])
		}
	}
	n.Tournament = t
}
