package rules

import "github.com/fechado/fechado/events"

// EndStack returns the stack hand.ended gives seat (events-v1.md §4) and whether it gives one.
// A seat listed more than once has the last stack listed, as the stack.final check reads it, so
// that the table and tournament checks that carry stacks from one hand to the next agree with it.
func EndStack(end *events.HandEnded, seat events.Seat) (events.Chips, bool) {
	for i := len(end.Stacks) - 1; i >= 0; i-- {
		if end.Stacks[i].Seat == seat {
			return end.Stacks[i].Stack, true
		}
	}
	return 0, false
}
