package handhistory_test

import (
	"fmt"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/handhistory"
)

// A session of six hands at one table (testdata/pokerstars/session-comings-goings.txt, written
// in PokerStars' format) becomes one table whose hands chain by previous and say what happened
// between them (events-v1.md §7), as worked out by hand from the text:
//
//   - hand 1: Ann, Ben, Cat, Dan dealt in, button seat 1; Dan sits out and Eve sits down in it;
//   - hand 2: Dan "is sitting out" in the header: away with his 500; Eve joined (her 500 is her
//     buy-in) and posts the big blind as it reaches her; button seat 2; Ben leaves after it;
//   - hand 3: Ben gone with his 498 (left); Dan still away; button seat 3 (the TDA dead button:
//     the seat of hand 1's big blind);
//   - hand 4: Dan back and dealt in, not joined; Cat's stack went from 500 to 1000 between hands:
//     a rebuy of 500; button seat 5;
//   - hand 5: Dan goes all in on the big blind against Eve and loses every chip; button seat 1;
//   - hand 6: Dan buys in again for 500 (rebuy, not joined: he never left); button seat 3, the
//     small blind his, the big blind Eve's.
//
// Every hand audits with no finding at all.
func TestSessionComingsAndGoings(t *testing.T) {
	res := importFile(t, handhistory.PokerStars, "testdata/pokerstars/session-comings-goings.txt")
	if len(res.Skipped) > 0 || len(res.Hands) != 6 {
		t.Fatalf("%d hands, skipped %v", len(res.Hands), res.Skipped)
	}
	type want struct {
		dealer events.Seat
		seats  string
		away   string
		left   string
	}
	for i, w := range []want{
		{1, "1 Ann 500, 2 Ben 500, 3 Cat 500, 4 Dan 500", "", ""},
		{2, "1 Ann 500, 2 Ben 498, 3 Cat 502, 5 Eve 500 joined", "4 Dan 500", ""},
		{3, "1 Ann 500, 3 Cat 500, 5 Eve 502", "4 Dan 500", "Ben 498"},
		{5, "1 Ann 502, 3 Cat 1000 rebuy 500, 4 Dan 500, 5 Eve 500", "", ""},
		{1, "1 Ann 500, 3 Cat 1002, 4 Dan 500, 5 Eve 500", "", ""},
		{3, "1 Ann 500, 3 Cat 1000, 4 Dan 500 rebuy 500, 5 Eve 1002", "", ""},
	} {
		h := res.Hands[i]
		hs := h.Events[0].Data.(*events.HandStarted)
		var seats, away, left string
		for k, s := range hs.Seats {
			if k > 0 {
				seats += ", "
			}
			seats += fmt.Sprintf("%d %s %d", s.Seat, s.Player, s.Stack)
			if s.Rebuy != nil {
				seats += fmt.Sprintf(" rebuy %d", *s.Rebuy)
			}
			if s.Joined {
				seats += " joined"
			}
		}
		for _, a := range hs.Away {
			away += fmt.Sprintf("%d %s %d", a.Seat, a.Player, a.Stack)
		}
		for _, l := range hs.Left {
			left += fmt.Sprintf("%s %d", l.Player, l.Stack)
		}
		if hs.Dealer != w.dealer || seats != w.seats || away != w.away || left != w.left {
			t.Errorf("hand %d: dealer %d, seats %q, away %q, left %q; want %d, %q, %q, %q", i+1, hs.Dealer, seats, away, left, w.dealer, w.seats, w.away, w.left)
		}
		if h.Table != res.Hands[0].Table || hs.Number != i+1 {
			t.Errorf("hand %d: table %s, number %d", i+1, h.Table, hs.Number)
		}
		if i > 0 && (hs.Previous == nil || *hs.Previous != res.Hands[i-1].ID) {
			t.Errorf("hand %d: previous %v, want %s", i+1, hs.Previous, res.Hands[i-1].ID)
		}
	}
	for _, f := range auditImported(t, res) {
		t.Errorf("%s", f.JSON())
	}
}
