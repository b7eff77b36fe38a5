package audit_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/events/handorder"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/rules"
	"github.com/fechado/fechado/sim"
)

// HandAfter, hand by hand with each hand's TableMemory passed on through JSON (as the projector
// stores it), finds what one Auditor finds over the whole table log, table.* findings
// (findings-v1.md "table continuity") included.
func TestHandAfterChainsLikeOneAuditor(t *testing.T) {
	for _, preset := range []string{"br-fechado", "std-draw", "br-online"} {
		hs, err := sim.All(sim.Config{Rules: preset, Players: 4, Hands: 12, Seed: 9, Table: "t-" + preset,
			Inject: []finding.Code{finding.TableDealer, finding.StackFinal}})
		if err != nil {
			t.Fatal(err)
		}
		whole, byHand := chainHandByHand(t, hs)
		continuity := 0
		for _, f := range whole {
			if strings.HasPrefix(string(f.Code), "table.") {
				continuity++
			}
		}
		if continuity == 0 {
			t.Fatalf("%s: no table.* finding in the log: the test proves nothing", preset)
		}
		if fmt.Sprint(whole) != fmt.Sprint(byHand) {
			t.Errorf("%s: hand by hand\n%v\none auditor\n%v", preset, byHand, whole)
		}
	}
}

// Hands of a clean table arriving out of order (appended concurrently, they end out of order in
// the stream), with and without previous, put back in their chain's order by a
// handorder.Sequencer as the projector does and audited with HandAfter: no table.* finding, and
// the memory left is the last hand's.
func TestHandAfterOutOfOrder(t *testing.T) {
	hs, err := sim.All(sim.Config{Rules: "br-fechado", Players: 4, Hands: 5, Seed: 9, Table: "t", ExposeRate: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, withPrevious := range []bool{true, false} {
		var mem *audit.TableMemory
		var order []int
		seq := handorder.Sequencer[int]{}
		seq.Release = func(_ handorder.Link, i int) {
			order = append(order, i)
			evs := hs[i].Events
			if !withPrevious {
				c := *evs[0]
				st := *c.Data.(*events.HandStarted)
				st.Previous = nil
				c.Data = &st
				evs = append([]*events.Event{&c}, evs[1:]...)
			}
			fs, next := audit.HandAfter(evs, mem)
			for _, f := range fs {
				if strings.HasPrefix(string(f.Code), "table.") {
					t.Errorf("previous %v: hand %d: %s %s", withPrevious, i+1, f.Code, f.Message)
				}
			}
			mem = next
		}
		for _, i := range []int{1, 0, 3, 2, 4} {
			l, _ := handorder.LinkOf(hs[i].Events[0])
			if !withPrevious {
				l.Previous = ""
			}
			seq.Add(l, i)
		}
		seq.Close()
		if fmt.Sprint(order) != "[0 1 2 3 4]" {
			t.Errorf("previous %v: judged in the order %v", withPrevious, order)
		}
		if mem.Hand != hs[4].Events[0].Hand || mem.Number != 5 {
			t.Errorf("previous %v: the memory left is hand %d's, want the last hand's", withPrevious, mem.Number)
		}
	}
}

// A blind game's misdeal plays again with its button and blinds, and the rotation after it goes
// on from the hands before it (events-v1.md §7, rules.Rotation): audited hand by hand through the
// JSON of each hand's memory, a table with misdeals and injected dealer faults gives what one
// auditor of the whole log gives, and the clean hands after a misdeal give no table.dealer.
func TestHandAfterChainsThroughMisdeals(t *testing.T) {
	for _, preset := range []string{"online-draw"} { // br-online deals again without a misdeal
		hs, err := sim.All(sim.Config{Rules: preset, Players: 5, Hands: 80, Seed: 3, Table: "m-" + preset,
			ExposeRate: 0.3, Inject: []finding.Code{finding.TableDealer}})
		if err != nil {
			t.Fatal(err)
		}
		misdeals, injected := 0, map[string]bool{}
		for _, h := range hs {
			rh, err := rules.NewHand(h.Events[0])
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range h.Events[1:] {
				rh.Apply(e)
			}
			if rh.Misdeal {
				misdeals++
			}
			if h.Injected != "" {
				injected[h.Events[0].Hand] = true
			}
		}
		whole, byHand := chainHandByHand(t, hs)
		if misdeals == 0 {
			t.Fatalf("%s: no misdeal in %d hands: the test proves nothing", preset, len(hs))
		}
		if fmt.Sprint(whole) != fmt.Sprint(byHand) {
			t.Errorf("%s: hand by hand\n%v\none auditor\n%v", preset, byHand, whole)
		}
		for _, f := range whole {
			if f.Code == finding.TableDealer && !injected[f.Hand] {
				t.Errorf("%s: a table.dealer finding in a hand played by the rules: %s", preset, f.JSON())
			}
		}
	}
}

// chainHandByHand audits the hands of one table twice: with one Auditor over the whole log
// (whole), and hand by hand with HandAfter, each hand's TableMemory passed on through JSON as the
// projector stores it (byHand). Each memory must name the hand that left it.
func chainHandByHand(t *testing.T, hs []*sim.Hand) (whole, byHand []finding.Finding) {
	t.Helper()
	a := audit.New(func(f finding.Finding) { whole = append(whole, f) })
	var mem *audit.TableMemory
	for _, h := range hs {
		for _, e := range h.Events {
			a.Add(e)
		}
		fs, next := audit.HandAfter(h.Events, mem)
		byHand = append(byHand, fs...)
		b, err := json.Marshal(next)
		if err != nil {
			t.Fatal(err)
		}
		mem = &audit.TableMemory{}
		if err := json.Unmarshal(b, mem); err != nil {
			t.Fatal(err)
		}
		if mem.Hand != h.Events[0].Hand {
			t.Fatalf("the memory after hand %s names hand %s", h.Events[0].Hand, mem.Hand)
		}
	}
	a.Close()
	return whole, byHand
}
