package rules

import (
	"testing"

	"github.com/fechado/fechado/events"
)

// presets.md br-online "pots": one pot after any uncalled excess is returned; the best live hand
// wins all of it. A hand that ends in the blind round, before any card, has one player left in:
// his is the only live hand, so the pot is his.
func TestBlindRoundEnd(t *testing.T) {
	const B = events.RoundBlind
	type act struct {
		seat   events.Seat
		action events.Action
		amount events.Chips
	}
	for _, tc := range []struct {
		rule     string
		acts     []act
		returned events.Chips // to the last player in
		award    events.Chips
	}{
		{`presets.md br-online pots: a bet everybody folds to is returned whole; nothing is left to award`,
			[]act{{2, events.Bet, 10}, {3, events.Fold, 0}, {1, events.Fold, 0}}, 10, 0},
		{`presets.md br-online pots: a raise everybody folds to, the excess over the call returned, the rest awarded to the raiser`,
			[]act{{2, events.Bet, 10}, {3, events.Call, 10}, {1, events.Raise, 30}, {2, events.Fold, 0}, {3, events.Fold, 0}}, 20, 30},
		{`presets.md br-online pots: a bet called then a raise everybody folds to (the caller folds too)`,
			[]act{{2, events.Bet, 10}, {3, events.Raise, 40}, {1, events.Fold, 0}, {2, events.Fold, 0}}, 30, 20},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			b := start(t, "br-online", 1, 0, 10, 0, 500, 500, 500)
			b.ev(&events.DeckShuffled{Method: "hmac-sha256-fy-v1", Commitment: "cb10db06b21ebc4928a9cd039f84fc2e382850003383ac1926584714241da502"})
			b.ev(&events.DeckCut{At: 10})
			for _, a := range tc.acts {
				b.act(a.seat, B, a.action, a.amount)
			}
			last := tc.acts[len(tc.acts)-1]
			winner := b.h.leftOf(last.seat, func(p *Player) bool { return p.Live() })
			b.ev(&events.BetReturned{Seat: winner, Amount: tc.returned})
			if tc.award > 0 {
				b.ev(&events.PotAwarded{Seat: winner, Amount: tc.award, Pot: 0})
			}
			var stacks []events.SeatChips
			for _, p := range b.h.Players {
				stacks = append(stacks, events.SeatChips{Seat: p.Seat, Stack: p.Stack})
			}
			b.ev(&events.HandEnded{Stacks: stacks})
			if len(b.found) != 0 {
				t.Errorf("a clean hand raised %s: %+v", codes(b.found), b.found)
			}
		})
	}
}
