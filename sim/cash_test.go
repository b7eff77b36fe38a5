package sim

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/rules"
)

// corpus is what simulating and auditing a preset's clean tables gave.
type corpus struct {
	hands, errors int
	warnings      map[finding.Code]int // other than the documented exposures
	exposures     int                  // card.exposed warnings of the dealer's deliberate exposures
	away, left    int                  // hands with a player away; players who left
	joined, rebuy int                  // players who sat down; rebuys
}

// playCorpus plays tables of every player count of preset, each of up to perTable hands, cash
// sessions where the preset allows them (every other table, from the second), until hands are played, and audits
// each table's log.
func playCorpus(t *testing.T, preset string, hands, perTable int) corpus {
	p, _ := rules.Lookup(preset)
	c := corpus{warnings: map[finding.Code]int{}}
	for table := 0; c.hands < hands; table++ {
		n := p.MinPlayers + table%(p.MaxPlayers-p.MinPlayers+1)
		cfg := Config{Rules: preset, Players: n, Hands: min(perTable, hands-c.hands), Seed: uint64(9000 + table),
			Table: fmt.Sprintf("corpus-%d", table), Cash: CashAllowed(preset) && table%2 == 1}
		hs, fs := auditRun(t, cfg)
		if len(hs) == 0 {
			t.Fatalf("%s table %d played no hand", preset, table)
		}
		exposed := map[string]bool{}
		for _, h := range hs {
			exposed[h.Events[0].Hand] = h.Exposed
			st := h.Events[0].Data.(*events.HandStarted)
			if len(st.Away) > 0 {
				c.away++
			}
			c.left += len(st.Left)
			for _, s := range st.Seats {
				if s.Joined {
					c.joined++
				}
				if s.Rebuy != nil {
					c.rebuy++
				}
			}
		}
		c.hands += len(hs)
		for _, f := range fs {
			switch {
			case f.Code == finding.CardExposed && exposed[f.Hand]:
				c.exposures++
			case f.Severity == finding.Error:
				if c.errors++; c.errors <= 5 {
					t.Errorf("%s", f.JSON())
				}
			case f.Severity == finding.Warning:
				if c.warnings[f.Code]++; c.warnings[f.Code] <= 5 {
					t.Errorf("%s", f.JSON())
				}
			}
		}
	}
	return c
}

// The simulator's clean corpora, cash sessions included (events-v1.md §7: players sit out, come
// back, leave with their chips, sit down with a buy-in, rebuy), audit with no error and no warning
// but the card.exposed of the dealer's deliberate exposures: an independent check of the auditor
// against the simulator. 400 hands a preset under -short; without it (make test-long) 10,000, and
// it logs the table.
func TestCleanCorpora(t *testing.T) {
	hands, perTable := 400, 100
	if !testing.Short() {
		hands, perTable = 10000, 1000
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-12s %7s %7s %9s %10s %6s %5s %7s %6s\n", "preset", "hands", "errors", "warnings", "exposures", "away", "left", "joined", "rebuy")
	for _, name := range rules.Names() {
		c := playCorpus(t, name, hands, perTable)
		var ws []string
		for code, n := range c.warnings {
			ws = append(ws, fmt.Sprintf("%s %d", code, n))
		}
		sort.Strings(ws)
		fmt.Fprintf(&b, "%-12s %7d %7d %9s %10d %6d %5d %7d %6d\n", name, c.hands, c.errors, strings.Join(append(ws, ""), ""), c.exposures, c.away, c.left, c.joined, c.rebuy)
		if CashAllowed(name) && (c.away == 0 || c.left == 0 || c.joined == 0) {
			t.Errorf("%s: the cash sessions had %d hands with a player away, %d players leaving, %d sitting down", name, c.away, c.left, c.joined)
		}
	}
	t.Log(b.String())
}

// Every code injected at a cash table is still reported alone, at its hand and event: players who
// sit out, leave and sit down raise nothing of their own around it.
func TestInjectCash(t *testing.T) {
	for _, name := range rules.Names() {
		if !CashAllowed(name) {
			continue
		}
		t.Run(name, func(t *testing.T) {
			got, played := map[finding.Code]int{}, 0
			for table := 0; played < 150; table++ { // a table ends when one player wins every chip
				hands, fs := auditRun(t, Config{Rules: name, Players: 5, Hands: 150 - played, Seed: uint64(31 + table), Cash: true,
					Inject: InjectableFor(name)})
				for c, n := range checkInjected(t, hands, fs) {
					got[c] += n
				}
				played += len(hands)
			}
			if len(got) < len(InjectableFor(name))/2 {
				t.Errorf("only %d codes injected in %d hands: %v", len(got), played, got)
			}
		})
	}
}

// The TDA rule on new players and the big blind (rules.NextBlinds), as the simulator plays it in
// online-draw: a player who sits down or comes back from sitting out waits, away, until the big
// blind reaches his seat, so he is dealt in as the big blind, one such player a hand. Only when
// fewer than two players stay dealt in does the game start again with everyone.
func TestWaitForBigBlind(t *testing.T) {
	checked, waited := 0, 0
	for seed := uint64(1); seed <= 12; seed++ {
		hands, err := All(Config{Rules: "online-draw", Players: 4 + int(seed%3), Hands: 200, Seed: seed, Cash: true})
		if err != nil {
			t.Fatal(err)
		}
		var last map[string]bool
		for _, h := range hands {
			hs := h.Events[0].Data.(*events.HandStarted)
			in := map[string]bool{}
			for _, s := range hs.Seats {
				in[s.Player] = true
			}
			var bb events.Seat
			for _, e := range h.Events {
				if b, ok := e.Data.(*events.BlindPosted); ok && b.Blind == events.BlindBig {
					bb = b.Seat
				}
			}
			var back []events.SeatStack
			stayed := 0
			for _, s := range hs.Seats {
				if last[s.Player] {
					stayed++
				} else {
					back = append(back, s)
				}
			}
			if last != nil && stayed >= 2 {
				if len(back) > 1 {
					t.Errorf("seed %d hand %d: %d players dealt in again at once: %v", seed, hs.Number, len(back), back)
				}
				for _, s := range back {
					checked++
					if s.Seat != bb {
						t.Errorf("seed %d hand %d: %s dealt in at seat %d, but the big blind is seat %d", seed, hs.Number, s.Player, s.Seat, bb)
					}
				}
			}
			waited += len(hs.Away)
			last = in
		}
	}
	if checked < 10 || waited == 0 {
		t.Errorf("only %d players came back or sat down, %d players away: the rule is not exercised", checked, waited)
	}
	t.Logf("%d players dealt in again or sitting down, each as the big blind", checked)
}

// events.md Reading R6: a player who sits out on the seat of the last small blind keeps the dead
// button, and the two players dealt in post the blinds left of it (rules.NextBlindsAway), as the
// auditor expects. Cash sessions that reach the case, a misdeal among them (5 players, seed 2:
// the replayed small blind is the first player left of the dead button, not the button), play
// and audit clean.
func TestDeadButtonStaysWithAPlayerAway(t *testing.T) {
	reached := 0
	for _, cfg := range []Config{
		{Rules: "online-draw", Players: 5, Hands: 400, Seed: 2, Cash: true},
		{Rules: "online-draw", Players: 3, Hands: 400, Seed: 1, Cash: true},
		{Rules: "online-draw", Players: 6, Hands: 400, Seed: 3, Cash: true},
	} {
		hands, fs := auditRun(t, cfg)
		clean(t, hands, fs)
		for _, h := range hands {
			hs := h.Events[0].Data.(*events.HandStarted)
			if len(hs.Seats) != 2 {
				continue
			}
			for _, a := range hs.Away {
				if a.Seat == hs.Dealer {
					reached++
				}
			}
		}
	}
	if reached == 0 {
		t.Fatal("no hand with two players dealt in and the button on the seat of a player away: the case is not exercised")
	}
	t.Logf("%d hands with the dead button on the seat of a player away", reached)
}
