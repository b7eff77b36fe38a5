package rules_test

import (
	"fmt"
	"testing"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/rules"
	"github.com/fechado/fechado/sim"
)

// TestRenewSameAsNewHand replays simulated hands of every preset, clean and with every injectable
// fault, twice: each on a fresh NewHand, and all on one Hand restarted with Renew. After every
// event the two must be in the same state, so no value of a hand leaks into the next one.
func TestRenewSameAsNewHand(t *testing.T) {
	for _, preset := range rules.Names() {
		for _, inject := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/inject=%v", preset, inject), func(t *testing.T) {
				p, err := rules.Lookup(preset)
				if err != nil {
					t.Fatal(err)
				}
				// As many players as the preset seats, up to 5: a later hand with fewer players
				// than an earlier one reuses part of its array.
				cfg := sim.Config{Rules: preset, Players: min(5, p.MaxPlayers), Hands: 60, Seed: 7, Table: "renew"}
				if inject {
					cfg.Inject = sim.InjectableFor(preset)
				}
				hands, err := sim.All(cfg)
				if err != nil {
					t.Fatal(err)
				}
				var reused *rules.Hand
				for _, h := range hands {
					replayBoth(t, h.Events, &reused)
				}
				if len(hands) < 10 {
					t.Fatalf("only %d hands simulated", len(hands))
				}
			})
		}
	}
}

// replayBoth replays one hand's events on a fresh Hand and on *reused (renewed), comparing them
// after each event.
func replayBoth(t *testing.T, evs []*events.Event, reused **rules.Hand) {
	t.Helper()
	seeds := map[events.Seq]cards.Seed{}
	for _, e := range evs {
		if d, ok := e.Data.(*events.DeckRevealed); ok {
			seeds[d.Shuffle] = d.Seed
		}
	}
	fresh, ferr := rules.NewHand(evs[0])
	renewed, rerr := rules.Renew(*reused, evs[0])
	if (ferr == nil) != (rerr == nil) {
		t.Fatalf("NewHand: %v; Renew: %v", ferr, rerr)
	}
	if ferr != nil {
		return
	}
	*reused = renewed
	fresh.Seeds, renewed.Seeds = seeds, seeds
	if !rules.SameState(fresh, renewed) {
		t.Fatalf("hand %s differs at its start", evs[0].Hand)
	}
	for _, e := range evs[1:] {
		fresh.Apply(e)
		renewed.Apply(e)
		if !rules.SameState(fresh, renewed) {
			t.Fatalf("hand %s differs after seq %d (%s):\nfresh   %+v\nrenewed %+v", e.Hand, e.Seq, e.Type, fresh.Violations, renewed.Violations)
		}
	}
}
