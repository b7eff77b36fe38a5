package rules

import (
	"slices"
	"testing"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
)

// TestDrawEligible steps hands through the draw one event at a time and checks, after each, who
// may win each pot. docs/rules.md "Pots and side pots" (pot layers): a pot's eligible players
// are the live players who contributed up to its top. A player who has thrown his discards and
// waits for his replacements is still live: he stays in every pot he reached, a player who
// folded in the betting is in none, and an all-in player only in the pots he reached.
func TestDrawEligible(t *testing.T) {
	discard := func(s events.Seat, cs string) events.Data {
		l, err := cards.ParseList(cs)
		if err != nil {
			t.Fatal(err)
		}
		return &events.CardsDiscarded{Seat: s, Cards: l}
	}
	dealt := func(s events.Seat, c string) events.Data {
		return &events.CardDealt{Seat: s, Card: cards.MustParse(c), Phase: events.PhaseDraw}
	}
	burn := func(c string) events.Data { return &events.CardBurned{Card: cards.MustParse(c)} }
	type step struct {
		ev   events.Data
		want [][]events.Seat // by pot, its eligible seats after the event
	}
	type act struct {
		seat   events.Seat
		action events.Action
		amount events.Chips
	}
	one := func(s ...events.Seat) [][]events.Seat { return [][]events.Seat{s} }
	four := []string{"Jh Jd 2c 3c 4c", "Ah Kd 9c 8c 7c", "Qh Qd 5s 6s 9d", "Th 9h 8h 2s 3s"}
	for _, tc := range []struct {
		rule   string
		stacks []events.Chips
		acts   []act
		steps  []step
	}{
		{`docs/rules.md "Pots and side pots", pot layers: every live player through the draw, not seat 4 who folded`,
			[]events.Chips{400, 400, 400, 400},
			[]act{{2, events.Check, 0}, {3, events.Bet, 10}, {4, events.Fold, 0}, {1, events.Call, 10}, {2, events.Call, 10}},
			[]step{
				{discard(2, "9c 8c 7c"), one(1, 2, 3)},
				{dealt(2, "Ks"), one(1, 2, 3)},
				{dealt(2, "Kc"), one(1, 2, 3)},
				{dealt(2, "2d"), one(1, 2, 3)},
				{discard(3, "5s 6s 9d"), one(1, 2, 3)},
				{dealt(3, "Ts"), one(1, 2, 3)},
				{dealt(3, "Js"), one(1, 2, 3)},
				{dealt(3, "Tc"), one(1, 2, 3)},
				{discard(1, "2c 3c 4c"), one(1, 2, 3)},
				{dealt(1, "Qs"), one(1, 2, 3)},
				{dealt(1, "Qc"), one(1, 2, 3)},
				{dealt(1, "2h"), one(1, 2, 3)},
			}},
		{`docs/rules.md "Pots and side pots", pot layers: seat 4, all-in for less, stays in the main pot only while he draws`,
			[]events.Chips{400, 400, 400, 12},
			[]act{{2, events.Check, 0}, {3, events.Bet, 10}, {4, events.Call, 7}, {1, events.Call, 10}, {2, events.Call, 10}},
			[]step{
				{discard(2, "9c 8c 7c"), [][]events.Seat{{1, 2, 3, 4}, {1, 2, 3}}},
				{dealt(2, "Ks"), [][]events.Seat{{1, 2, 3, 4}, {1, 2, 3}}},
				{dealt(2, "Kc"), [][]events.Seat{{1, 2, 3, 4}, {1, 2, 3}}},
				{dealt(2, "2d"), [][]events.Seat{{1, 2, 3, 4}, {1, 2, 3}}},
				{discard(3, "5s 6s 9d"), [][]events.Seat{{1, 2, 3, 4}, {1, 2, 3}}},
				{dealt(3, "Ts"), [][]events.Seat{{1, 2, 3, 4}, {1, 2, 3}}},
				{dealt(3, "Js"), [][]events.Seat{{1, 2, 3, 4}, {1, 2, 3}}},
				{dealt(3, "Tc"), [][]events.Seat{{1, 2, 3, 4}, {1, 2, 3}}},
				{discard(4, "2s 3s"), [][]events.Seat{{1, 2, 3, 4}, {1, 2, 3}}},
				{dealt(4, "Qs"), [][]events.Seat{{1, 2, 3, 4}, {1, 2, 3}}},
				{dealt(4, "Qc"), [][]events.Seat{{1, 2, 3, 4}, {1, 2, 3}}},
				{discard(1, "2c 3c 4c"), [][]events.Seat{{1, 2, 3, 4}, {1, 2, 3}}},
				{dealt(1, "2h"), [][]events.Seat{{1, 2, 3, 4}, {1, 2, 3}}},
				{dealt(1, "3h"), [][]events.Seat{{1, 2, 3, 4}, {1, 2, 3}}},
				{dealt(1, "4h"), [][]events.Seat{{1, 2, 3, 4}, {1, 2, 3}}},
			}},
		{`docs/rules.md "Drawing" std-draw: a player who draws five waits for his fifth card until the others have drawn, and plays for the pot meanwhile`,
			[]events.Chips{400, 400, 400, 400},
			[]act{{2, events.Check, 0}, {3, events.Bet, 10}, {4, events.Fold, 0}, {1, events.Fold, 0}, {2, events.Call, 10}},
			[]step{
				{discard(2, "Ah Kd 9c 8c 7c"), one(2, 3)},
				{dealt(2, "Ks"), one(2, 3)},
				{dealt(2, "Kc"), one(2, 3)},
				{dealt(2, "2d"), one(2, 3)},
				{dealt(2, "2h"), one(2, 3)},
				{discard(3, "5s 6s 9d"), one(2, 3)},
				{dealt(3, "Ts"), one(2, 3)},
				{dealt(3, "Js"), one(2, 3)},
				{dealt(3, "Tc"), one(2, 3)},
				{burn("As"), one(2, 3)},
				{dealt(2, "3h"), one(2, 3)},
			}},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			b := start(t, "std-draw", 1, 5, 10, 20, tc.stacks...)
			b.antes().deal(four...)
			for _, a := range tc.acts {
				b.act(a.seat, events.RoundFirst, a.action, a.amount)
			}
			for i, s := range tc.steps {
				b.ev(s.ev)
				if b.h.Stage != StageDraw {
					t.Fatalf("step %d: stage %s, want draw", i, b.h.Stage)
				}
				pots := b.h.Pots()
				if len(pots) != len(s.want) {
					t.Fatalf("step %d (%s): %d pots, want %d", i, s.ev.EventType(), len(pots), len(s.want))
				}
				for k, p := range pots {
					if !slices.Equal(p.Eligible, s.want[k]) {
						t.Errorf("step %d (%s): pot %d eligible %v, want %v", i, s.ev.EventType(), k, p.Eligible, s.want[k])
					}
				}
			}
			if len(b.found) > 0 {
				t.Fatalf("the hand is not clean: %s", codes(b.found))
			}
		})
	}
}
