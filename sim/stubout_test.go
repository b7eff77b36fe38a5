package sim

import (
	"slices"
	"testing"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/audittest"
	"github.com/fechado/fechado/rules"
)

// presets.md online-draw (2026-12-05): "If the stub runs out during the draw (six players can ask
// for more cards than remain), the discards made so far, except those of the player being
// served, are shuffled (deck.shuffled) into a new stub for the players still to draw." The
// simulator's players seldom draw more than three, so the test plays a hand of six whose players
// call, check and draw five each: the stub of 22 runs out while the fifth is served, and the
// simulator's dealer (game.give, refill) reshuffles the others' discards. The engine following
// the hand and the audit of it find nothing wrong.
func TestSimOnlineDrawStubRunsOut(t *testing.T) {
	s, err := New(Config{Rules: "online-draw", Players: 6, Hands: 1, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	h := newSixFiveHand(t, s)
	var reshuffle *events.DeckShuffled
	var servedOwn []cards.Card
	for i, e := range h.evs {
		if d, ok := e.Data.(*events.DeckShuffled); ok && d.Cards != nil {
			reshuffle = d
			for _, p := range h.evs[:i] {
				if cd, ok := p.Data.(*events.CardsDiscarded); ok {
					servedOwn = cd.Cards // the last discard before it: the player being served
				}
			}
		}
	}
	if reshuffle == nil {
		t.Fatal("the stub never ran out")
	}
	if len(reshuffle.Cards) != 20 || slices.ContainsFunc(servedOwn, func(c cards.Card) bool { return slices.Contains(reshuffle.Cards, c) }) {
		t.Errorf("the reshuffle gathers %v; want the 20 discards of the four before, none of the served player's %v", reshuffle.Cards, servedOwn)
	}
	for _, v := range h.problems {
		t.Errorf("the engine reports %s: %s", v.Code, v.Message)
	}
	var log []byte
	for _, e := range h.evs {
		log = append(append(log, e.Raw...), '\n')
	}
	fs, _ := audittest.Findings(t, log, "stub")
	for _, f := range fs {
		t.Errorf("the audit finds %s", f.JSON())
	}
}

// newSixFiveHand plays one hand at s's table with the simulator's dealer (shuffle, blinds, deal,
// the draw from the stub, showdown, settlement) and players who call or check and draw five.
func newSixFiveHand(t *testing.T, s *Sim) *game {
	t.Helper()
	g := &game{s: s, hand: s.newID(), styles: map[events.Seat]Style{}}
	hs := &events.HandStarted{Rules: events.Rules{Name: s.preset.Name}, Number: s.number + 1, Dealer: 1, Stakes: s.stakes}
	for _, p := range s.seats {
		hs.Seats = append(hs.Seats, events.SeatStack{Seat: p.seat, Player: p.name, Stack: 1000})
	}
	h, err := rules.NewHand(g.emit(hs))
	if err != nil {
		t.Fatal(err)
	}
	h.Seeds = map[events.Seq]cards.Seed{}
	g.h = h
	g.shuffle(nil)
	g.forcedBets()
	if !g.deal() {
		t.Fatal("misdeal")
	}
	call := func(r events.Round) {
		o, ok := g.firstOptions(r)
		for ok {
			act := &events.PlayerActed{Seat: o.Seat, Round: r, Action: events.Check}
			if !o.Check {
				act.Action, act.Amount = events.Call, o.Call
			}
			g.emit(act)
			o, ok = g.h.Options()
		}
	}
	call(events.RoundFirst)
	for _, s := range g.h.DrawOrder() {
		d := slices.Clone(g.h.Player(s).Cards)
		g.emit(&events.CardsDiscarded{Seat: s, Cards: d})
		g.discs = append(g.discs, d...)
		for range d {
			if !g.give(s, d) {
				t.Fatalf("no card for seat %d", s)
			}
		}
	}
	call(events.RoundSecond)
	g.showdown()
	g.settle()
	return g
}
