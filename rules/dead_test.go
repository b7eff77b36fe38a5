package rules_test

import (
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/rules"
)

// A dead small blind is in the pot but matches no bet (OnGame's "posts dead blind", PokerStars'
// "posts small & big blinds"): a player who posts it with his big blind has no chips above the
// others' big blind, and a bet nobody calls goes back whole, the dead blind left out of the
// count.
func TestDeadBlindIsNoExcess(t *testing.T) {
	start := &events.Event{Table: "t", Hand: "01900000-0000-7000-8000-000000000001", Seq: 1, At: "2026-01-01T00:00:00Z",
		Type: events.HandStartedType, Data: &events.HandStarted{
			Rules: events.Rules{Name: "online-draw"}, Number: 1, Dealer: 1,
			Seats:  []events.SeatStack{{Seat: 1, Player: "a", Stack: 100}, {Seat: 2, Player: "b", Stack: 100}, {Seat: 3, Player: "c", Stack: 100}},
			Stakes: events.Stakes{MinBet: 10},
		}}
	h, err := rules.NewHand(start)
	if err != nil {
		t.Fatal(err)
	}
	seq := events.Seq(1)
	post := func(s events.Seat, amount events.Chips, kind events.BlindKind) {
		seq++
		h.Apply(&events.Event{Table: "t", Hand: start.Hand, Seq: seq, At: start.At, Type: events.BlindPostedType,
			Data: &events.BlindPosted{Seat: s, Amount: amount, Blind: kind}})
	}
	post(2, 5, events.BlindSmall)
	post(3, 10, events.BlindBig)
	post(1, 10, events.BlindBig)
	post(1, 5, events.BlindDead)
	if p := h.Player(1); p.In != 15 || p.Dead != 5 {
		t.Fatalf("seat 1 in %d, dead %d", p.In, p.Dead)
	}
	if s, x := h.Excess(); x != 0 {
		t.Errorf("seat %d has %d chips nobody matched; the dead blind matches nothing and is no excess", s, x)
	}
}
