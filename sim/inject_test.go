package sim

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/fechado/fechado/events"

	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/rules"
)

// injectPresets lists where each code is tried, in order, until a run injects it.
var injectPresets = []struct {
	rules   string
	players int
}{{"br-fechado", 4}, {"std-draw", 5}, {"tr-kapali", 4}, {"online-draw", 4}, {"br-online", 4}, {"br-fechado", 7}, {"tr-kapali", 6}}

// TestInject is the spec of every injectable code (findings-v1.md): on a table of a preset it
// fits, each hand it was injected into reports it at the hand's recorded seq, and no hand of the
// run (injected or not) has any other error: no mutation has a follow-on error, in its own hand
// or in the table's next hand.
func TestInject(t *testing.T) {
	for _, code := range Injectable() {
		t.Run(string(code), func(t *testing.T) {
			injected := 0
			for k, ps := range injectPresets {
				if p, _ := rules.Lookup(ps.rules); !fits(p, DefaultStakes(ps.rules), code) {
					continue
				}
				cfg := Config{Rules: ps.rules, Players: ps.players, Hands: 12, Seed: uint64(k + 11), Inject: []finding.Code{code}}
				if code == finding.OpenNotAllowed {
					// A player dealt in broke who holds openers, in a hand someone else opens
					// after him (the mutation keeps the rest of the hand): 40 hands find one.
					cfg.Hands = 40
				}
				if code == finding.PotSplit {
					// Ties are rare: a table where one comes in the second hand.
					cfg = Config{Rules: "br-fechado", Players: 4, Hands: 3, Seed: 49, EvenStacks: true, Inject: []finding.Code{code}}
				}
				hands, fs := auditRun(t, cfg)
				byHand := map[string][]finding.Finding{}
				for _, f := range fs {
					byHand[f.Hand] = append(byHand[f.Hand], f)
				}
				for _, h := range hands {
					id := h.Events[0].Hand
					var errs []string
					hit := false
					for _, f := range byHand[id] {
						if h.Injected != "" && f.Code == h.Injected && f.Seq == h.Seq {
							hit = true
							continue
						}
						if f.Severity == finding.Error {
							errs = append(errs, fmt.Sprintf("%s@%d %s", f.Code, f.Seq, f.Message))
						}
					}
					if h.Injected != "" {
						injected++
						if !hit {
							t.Errorf("%s: hand %s: %s not reported at seq %d; findings %v", ps.rules, id, h.Injected, h.Seq, byHand[id])
						}
					}
					if len(errs) > 0 {
						t.Errorf("%s: hand %s (injected %q): other errors %v", ps.rules, id, h.Injected, errs)
					}
				}
				if injected > 0 {
					t.Logf("%s: %d of %d hands injected", ps.rules, injected, len(hands))
					return
				}
			}
			t.Errorf("%s was never injected", code)
		})
	}
}

// checkInjected audits hands and checks that each injected hand reports its code at its seq and
// no other error, and that the other hands have no error.
func checkInjected(t *testing.T, hands []*Hand, fs []finding.Finding) map[finding.Code]int {
	t.Helper()
	byHand := map[string][]finding.Finding{}
	for _, f := range fs {
		byHand[f.Hand] = append(byHand[f.Hand], f)
	}
	got := map[finding.Code]int{}
	for _, h := range hands {
		id := h.Events[0].Hand
		hit := false
		for _, f := range byHand[id] {
			switch {
			case h.Injected != "" && f.Code == h.Injected && f.Seq == h.Seq:
				hit = true
			case f.Severity == finding.Error:
				t.Errorf("hand %s (injected %q at %d): other error %s", id, h.Injected, h.Seq, f.JSON())
			}
		}
		if h.Injected != "" {
			got[h.Injected]++
			if !hit {
				t.Errorf("hand %s: %s not reported at seq %d: %v", id, h.Injected, h.Seq, byHand[id])
			}
		}
	}
	return got
}

// TestInjectRotation injects every code in rotation at one table of each preset: no injected
// irregularity spills into another hand.
func TestInjectRotation(t *testing.T) {
	for _, ps := range []struct {
		rules   string
		players int
	}{{"br-fechado", 5}, {"br-online", 4}, {"tr-kapali", 5}, {"std-draw", 6}, {"online-draw", 5}} {
		t.Run(ps.rules, func(t *testing.T) {
			hands, fs := auditRun(t, Config{Rules: ps.rules, Players: ps.players, Hands: 80, Seed: 99, Inject: InjectableFor(ps.rules)})
			got := checkInjected(t, hands, fs)
			if len(got) < len(InjectableFor(ps.rules))/2 {
				t.Errorf("only %d codes injected in %d hands: %v", len(got), len(hands), got)
			}
			t.Logf("%d hands, %d codes injected", len(hands), len(got))
		})
	}
}

// TestEveryCodeIsAMutation: every code of findings-v1.md is injected by a mutation of a clean
// hand, but the tournament's (played across tables, TournamentInjectable) and those the
// simulator cannot inject alone (NotInjectable, each with its reason).
func TestEveryCodeIsAMutation(t *testing.T) {
	n := 0
	for _, c := range finding.Catalogue {
		_, mutated := mutations[c.Code]
		_, cannot := NotInjectable[c.Code]
		switch {
		case slices.Contains(TournamentInjectable(), c.Code) || c.Code == finding.TournamentPlace:
			if mutated {
				t.Errorf("%s: a tournament code in the table of mutations of one hand", c.Code)
			}
		case mutated && cannot:
			t.Errorf("%s: both a mutation and not injectable", c.Code)
		case mutated:
			n++
		case !cannot:
			t.Errorf("%s: no mutation injects it", c.Code)
		}
	}
	if n != len(mutations) {
		t.Errorf("%d mutations of catalogue codes, %d in the table", n, len(mutations))
	}
}

// TestMutateIsAPurePass: a mutation reads the finished clean hand and returns new events; the
// hand it was given is left as it was, byte for byte, and the same draws give the same bytes.
// Every code is tried on the hands of a clean table of each preset it fits.
func TestMutateIsAPurePass(t *testing.T) {
	for _, name := range rules.Names() {
		hands, err := All(Config{Rules: name, Players: 4, Hands: 10, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		for _, code := range InjectableFor(name) {
			mutated := 0
			for _, h := range hands {
				before := rawLines(h.Events)
				a, ok := Mutate(code, h.Events, rand.New(rand.NewPCG(7, 8)), 3)
				if rawLines(h.Events) != before || encoded(h.Events) != before {
					t.Fatalf("%s %s: Mutate changed the clean hand it was given", name, code)
				}
				if !ok {
					continue
				}
				mutated++
				b, _ := Mutate(code, h.Events, rand.New(rand.NewPCG(7, 8)), 3)
				if rawLines(a) != rawLines(b) {
					t.Errorf("%s %s: the same draws gave two different hands", name, code)
				}
				if rawLines(a) == before {
					t.Errorf("%s %s: the mutation left the hand as it was", name, code)
				}
			}
			if mutated == 0 {
				t.Logf("%s %s: no hand of 10 fits", name, code)
			}
		}
	}
}

func rawLines(evs []*events.Event) string {
	var b strings.Builder
	for _, e := range evs {
		b.Write(e.Raw)
		b.WriteByte('\n')
	}
	return b.String()
}

// encoded encodes the events again from their fields: equal to their lines when nothing
// changed the fields behind them.
func encoded(evs []*events.Event) string {
	var b strings.Builder
	for _, e := range evs {
		b.Write(events.Encode(e))
		b.WriteByte('\n')
	}
	return b.String()
}

// TestInjectAllSameSeedSameBytes: with every code the preset can show in rotation, the same seed
// gives the same log, byte for byte (the mutations draw from the seeded injection source only).
func TestInjectAllSameSeedSameBytes(t *testing.T) {
	for _, name := range rules.Names() {
		cfg := Config{Rules: name, Players: 4, Hands: 30, Seed: 77, Inject: InjectableFor(name)}
		var a, b bytes.Buffer
		if err := Run(cfg, &a); err != nil {
			t.Fatal(err)
		}
		if err := Run(cfg, &b); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: two runs of seed 77 differ", name)
		}
	}
}

// TestFalseOpenerPlaysOn: a false opener (open.without-openers, presets.md "opening": openers
// are needed to open) opens, is answered, draws and shows down; his hand is dead, so the pot is
// paid to another player or carried, and the deal still follows the seed and the cut (the
// auditor reports nothing else). The replayer and the explanations read the hand as played out.
func TestFalseOpenerPlaysOn(t *testing.T) {
	for _, ps := range []struct {
		rules   string
		players int
	}{{"std-draw", 3}, {"br-fechado", 4}, {"tr-kapali", 4}} {
		t.Run(ps.rules, func(t *testing.T) {
			hands, fs := auditRun(t, Config{Rules: ps.rules, Players: ps.players, Hands: 12, Seed: 7, Inject: []finding.Code{finding.OpenWithoutOpeners}})
			checkInjected(t, hands, fs)
			n := 0
			for _, h := range hands {
				if h.Injected == "" {
					continue
				}
				n++
				open := acted(h.Events[h.Seq-1])
				if open == nil || open.Action != events.Bet || open.Round != events.RoundFirst {
					t.Fatalf("hand %s: the finding's event is %s, not the open", h.Events[0].Hand, h.Events[h.Seq-1].Type)
				}
				var answered, drew, showed, paid bool
				for _, e := range h.Events[h.Seq:] {
					switch d := e.Data.(type) {
					case *events.PlayerActed:
						answered = answered || d.Seat != open.Seat
					case *events.CardsDiscarded:
						drew = drew || d.Seat == open.Seat
					case *events.HandShown:
						showed = showed || d.Seat == open.Seat
					case *events.PotAwarded:
						paid = paid || d.Seat == open.Seat
					}
				}
				if !answered || !drew || !showed || paid {
					t.Errorf("hand %s: after the false open: answered %v, he drew %v, showed down %v, was paid %v",
						h.Events[0].Hand, answered, drew, showed, paid)
				}
			}
			if n == 0 {
				t.Fatal("no false open injected")
			}
		})
	}
}

// TestDealerMutationMovesSeatsOnly: table.dealer's mutation writes every player dealt in one
// seat on, among the seats dealt in, dealer included (events-v1.md §7: the auditor follows the
// players by name); each keeps his stack, his cards and his actions, in the same events.
func TestDealerMutationMovesSeatsOnly(t *testing.T) {
	for _, name := range rules.Names() {
		hands, err := All(Config{Rules: name, Players: 4, Hands: 6, Seed: 21})
		if err != nil {
			t.Fatal(err)
		}
		mutated := 0
		for _, h := range hands[1:] {
			evs, ok := Mutate(finding.TableDealer, h.Events, rand.New(rand.NewPCG(1, 2)), 3)
			if !ok {
				continue
			}
			mutated++
			was, now := h.Events[0].Data.(*events.HandStarted), evs[0].Data.(*events.HandStarted)
			var seats []events.Seat
			for _, ss := range was.Seats {
				seats = append(seats, ss.Seat)
			}
			on := func(s events.Seat) events.Seat { return rules.NextSeat(seats, s) }
			if now.Dealer != on(was.Dealer) {
				t.Errorf("%s: dealer %d, want %d (one seat on from %d)", name, now.Dealer, on(was.Dealer), was.Dealer)
			}
			for _, ss := range was.Seats {
				if p := playerAt(now, on(ss.Seat)); p != ss.Player {
					t.Errorf("%s: seat %d holds %q, want %s (from seat %d)", name, on(ss.Seat), p, ss.Player, ss.Seat)
				}
			}
			if len(evs) != len(h.Events) {
				t.Fatalf("%s: %d events, want %d", name, len(evs), len(h.Events))
			}
			for i, e := range h.Events[1:] {
				d, ok := e.Data.(*events.CardDealt)
				if !ok {
					continue
				}
				m := evs[i+1].Data.(*events.CardDealt)
				if playerAt(now, m.Seat) != playerAt(was, d.Seat) || m.Card != d.Card {
					t.Errorf("%s: event %d deals %s to %s, want %s to %s", name, i+2, m.Card, playerAt(now, m.Seat), d.Card, playerAt(was, d.Seat))
				}
			}
		}
		if mutated == 0 {
			t.Errorf("%s: no hand of 5 fits", name)
		}
	}
}

// TestLeftOutIsInNoEvent: table.seating's mutation leaves a player with chips out of the hand
// (findings-v1.md table.seating: "a player with chips left out"): no event names his seat, and
// the same shuffle and cut deal the others.
func TestLeftOutIsInNoEvent(t *testing.T) {
	hands, err := All(Config{Rules: "std-draw", Players: 5, Hands: 12, Seed: 12})
	if err != nil {
		t.Fatal(err)
	}
	mutated := 0
	for _, h := range hands[1:] {
		evs, ok := Mutate(finding.TableSeating, h.Events, rand.New(rand.NewPCG(1, 2)), 3)
		if !ok {
			continue
		}
		mutated++
		was, now := h.Events[0].Data.(*events.HandStarted), evs[0].Data.(*events.HandStarted)
		if len(now.Seats) != len(was.Seats)-1 {
			t.Fatalf("%d seats dealt in, want %d", len(now.Seats), len(was.Seats)-1)
		}
		var out events.Seat
		for _, ss := range was.Seats {
			if playerAt(now, ss.Seat) == "" {
				out = ss.Seat
				if ss.Stack == 0 {
					t.Errorf("seat %d left out with no chips", ss.Seat)
				}
			}
		}
		for _, e := range evs[1:] {
			if strings.Contains(string(e.Raw), fmt.Sprintf(`"seat":%d,`, out)) || strings.Contains(string(e.Raw), fmt.Sprintf(`"seat":%d}`, out)) {
				t.Errorf("seat %d, left out, is in %s", out, e.Raw)
			}
		}
		shuffled := func(evs []*events.Event) string {
			i := slices.IndexFunc(evs, func(e *events.Event) bool { return e.Type == events.DeckShuffledType })
			return string(events.Encode(&events.Event{Type: evs[i].Type, Data: evs[i].Data})) + string(events.Encode(&events.Event{Type: evs[i+1].Type, Data: evs[i+1].Data}))
		}
		if shuffled(evs) != shuffled(h.Events) {
			t.Errorf("the shuffle and cut changed")
		}
	}
	if mutated == 0 {
		t.Fatal("no hand of 11 fits")
	}
}
