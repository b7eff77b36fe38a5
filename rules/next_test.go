package rules

import (
	"testing"

	"github.com/fechado/fechado/events"
)

// presets.md "next hand", checked against the dealers of the example vectors.
func TestNextDealer(t *testing.T) {
	br, _ := Lookup("br-fechado")
	online, _ := Lookup("br-online")
	four := []events.Seat{1, 2, 3, 4}
	for _, tc := range []struct {
		rule            string
		p               Preset
		seats           []events.Seat
		dealer, starter events.Seat
		misdeal         bool
		want            events.Seat
	}{
		{`br-fechado: the deal passes to the left (vector hand 1 → 2)`, br, four, 3, 4, false, 4},
		{`br-fechado: wraps round the table`, br, four, 4, 1, false, 1},
		{`br-fechado: a busted dealer's left (vector hand 3 → 4: seat 1 out)`, br, []events.Seat{2, 3, 4}, 1, 2, false, 2},
		{`misdeal: the same dealer deals again`, br, four, 2, 3, true, 2},
		{`br-online: the starter passes left; dealer = the seat before him (vector hand 1 → 2)`, online, four, 3, 4, false, 4},
		{`br-online: the next starter skips a player who is out`, online, []events.Seat{1, 3, 4}, 4, 1, false, 1},
	} {
		if got := tc.p.NextDealer(tc.seats, tc.dealer, tc.starter, tc.misdeal); got != tc.want {
			t.Errorf("%s: got %d, want %d", tc.rule, got, tc.want)
		}
	}
	if NextSeat(nil, 3) != 0 || PrevSeat(nil, 3) != 0 {
		t.Error("an empty table has no seats")
	}
}
