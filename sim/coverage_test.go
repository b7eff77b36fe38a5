package sim

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/rules"
)

// paths are the rule paths counted by TestCoverageReport, in the order printed.
var paths = []string{
	"hands", "passed-out deals", "opener level 1 (queens)", "opener level 2 (kings)", "opener level 3 (aces)",
	"opener level 4+ (two pair)", "hands with an all-in", "side pots (pot >= 1)", "ties (split pots)",
	"odd chips", "4-card draws", "5-card draws", "pre-draw reshuffles", "stub exhausted (reshuffle)",
	"burns", "exposed in the cut", "exposed in the deal", "exposed in the draw", "misdeals", "busts",
	"matches won", "error findings", "warnings but card.exposed",
}

// coverage plays tables of the preset (every allowed player count in turn, 400 hands at most
// each) until n hands are played, audits them and counts the rule paths.
func coverage(t testing.TB, preset string, n int) map[string]int {
	p, err := rules.Lookup(preset)
	if err != nil {
		t.Fatal(err)
	}
	c := map[string]int{}
	a := audit.New(func(f finding.Finding) {
		switch {
		case f.Severity == finding.Error:
			c["error findings"]++
			t.Errorf("%s", f.JSON())
		case f.Severity == finding.Warning && f.Code != finding.CardExposed:
			c["warnings but card.exposed"]++
			t.Errorf("%s", f.JSON())
		}
	})
	a.Hand = func(h *audit.HandResult) { count(c, h) }
	for table := 0; c["hands"] < n; table++ {
		players := p.MinPlayers + table%(p.MaxPlayers-p.MinPlayers+1)
		s, err := New(Config{Rules: preset, Players: players, Hands: min(400, n-c["hands"]), Seed: uint64(1000 + table),
			Table: fmt.Sprintf("cov-%d", table)})
		if err != nil {
			t.Fatal(err)
		}
		err = forEach(s.Next, func(h *Hand) error {
			for _, e := range h.Events {
				a.Add(e)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if s.Won() {
			c["matches won"]++
		}
	}
	a.Close()
	return c
}

func count(c map[string]int, h *audit.HandResult) {
	c["hands"]++
	st := h.State
	if st == nil {
		return
	}
	if st.Preset.Openers == rules.OpenProgressive {
		switch l := st.Start.PassedOut; {
		case l >= 4:
			c["opener level 4+ (two pair)"]++
		case l == 3:
			c["opener level 3 (aces)"]++
		case l == 2:
			c["opener level 2 (kings)"]++
		case l == 1:
			c["opener level 1 (queens)"]++
		}
	}
	allIn := false
	for _, p := range st.Players {
		if p.AllIn && p.Start > 0 && !st.Misdeal {
			allIn = true
		}
		if p.Start > 0 && p.Stack == 0 && !st.Misdeal {
			c["busts"]++
		}
	}
	if allIn {
		c["hands with an all-in"]++
	}
	side, discarded := false, false
	byPot := map[int][]events.Chips{}
	for i, e := range h.Events {
		switch d := e.Data.(type) {
		case *events.HandPassed:
			c["passed-out deals"]++
		case *events.MisdealDeclared:
			c["misdeals"]++
		case *events.PotAwarded:
			// tr-kapali: pot 0 is the antes and carry; side pots start at pot 2.
			side = side || d.Pot >= 1 && st.Preset.Pots != rules.PotsAntesFirst || d.Pot >= 2
			byPot[d.Pot] = append(byPot[d.Pot], d.Amount)
		case *events.CardsDiscarded:
			discarded = true
			switch len(d.Cards) {
			case 4:
				c["4-card draws"]++
			case 5:
				c["5-card draws"]++
			}
		case *events.DeckShuffled:
			switch {
			case d.Cards != nil && discarded:
				c["stub exhausted (reshuffle)"]++
			case d.Cards != nil:
				c["pre-draw reshuffles"]++
			}
		case *events.CardBurned:
			if i+1 < len(h.Events) && h.Events[i+1].Type == events.CardExposedType {
				continue
			}
			c["burns"]++
		case *events.CardExposed:
			c["exposed in the "+string(d.Phase)]++
		}
	}
	if side {
		c["side pots (pot >= 1)"]++
	}
	tie, odd := false, false
	for _, amounts := range byPot {
		if len(amounts) > 1 {
			tie = true
			for _, a := range amounts {
				odd = odd || a != amounts[0]
			}
		}
	}
	if tie {
		c["ties (split pots)"]++
	}
	if odd {
		c["odd chips"]++
	}
}

// TestCoverageReport prints how often each rule path appears per 10,000 hands of each preset
// (200 hands each under -short, else 10,000), and fails on any error finding.
func TestCoverageReport(t *testing.T) {
	n := 200
	if !testing.Short() {
		n = 10000
	}
	names := rules.Names()
	res := map[string]map[string]int{}
	for _, name := range names {
		res[name] = coverage(t, name, n)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "rule paths per 10,000 hands (%d hands played per preset)\n%-28s", n, "path")
	for _, name := range names {
		fmt.Fprintf(&b, "%12s", name)
	}
	b.WriteString("\n")
	for _, p := range paths {
		fmt.Fprintf(&b, "%-28s", p)
		for _, name := range names {
			v := res[name][p]
			if p != "hands" && p != "matches won" {
				v = v * 10000 / max(1, res[name]["hands"])
			}
			fmt.Fprintf(&b, "%12d", v)
		}
		b.WriteString("\n")
	}
	t.Log("\n" + b.String())
}
