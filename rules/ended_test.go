package rules

import (
	"testing"

	"github.com/fechado/fechado/events"
)

// EndStack reads the stacks of hand.ended (events-v1.md §4): a seat's stack, none for a seat not
// listed, and the last one for a seat listed twice (as stack.final reads it).
func TestEndStack(t *testing.T) {
	end := &events.HandEnded{Stacks: []events.SeatChips{{Seat: 1, Stack: 100}, {Seat: 3, Stack: 0}, {Seat: 1, Stack: 70}}}
	for _, tc := range []struct {
		seat  events.Seat
		stack events.Chips
		ok    bool
	}{
		{1, 70, true},
		{3, 0, true},
		{2, 0, false},
		{10, 0, false},
	} {
		if got, ok := EndStack(end, tc.seat); got != tc.stack || ok != tc.ok {
			t.Errorf("EndStack(seat %d) = %d, %v; want %d, %v", tc.seat, got, ok, tc.stack, tc.ok)
		}
	}
	if _, ok := EndStack(&events.HandEnded{}, 1); ok {
		t.Error("a hand.ended without stacks gives seat 1 a stack")
	}
}
