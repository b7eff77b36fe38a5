package audit

import (
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/eventfiles"
	"github.com/fechado/fechado/internal/testfiles"
	"github.com/fechado/fechado/rules"
)

// The projector's read models take a hand from Judge's rules.Hand, before the hand is judged
// against the one before it: the state is there for every hand of a table, it is the hand as
// its hand.ended leaves it (each final stack as the events leave it, the awards paid), and
// After, judging it against the hand before it (no finding in a clean table), leaves it as it
// was, even when the events given hold a later hand too.
func TestProjectorsJudgementKeepsTheState(t *testing.T) {
	evs := eventfiles.Read(t, testfiles.Path("vectors", "table-std-draw.jsonl"), 0)
	var hands [][]*events.Event
	for _, e := range evs {
		if e.Type == events.HandStartedType {
			hands = append(hands, nil)
		}
		hands[len(hands)-1] = append(hands[len(hands)-1], e)
	}
	if len(hands) < 3 {
		t.Fatalf("%d hands", len(hands))
	}
	var prev *TableMemory
	for i, h := range hands {
		given := h
		if i+1 < len(hands) {
			given = append(append([]*events.Event{}, h...), hands[i+1]...) // a later hand after it
		}
		j := Judge(given)
		st := j.State()
		if st == nil || st.Ended() == nil {
			t.Fatalf("hand %d: no state at its end", i+1)
		}
		stacks := func(st *rules.Hand) []events.Chips {
			var out []events.Chips
			for _, p := range st.Players {
				out = append(out, p.Stack, p.PutIn(), p.Won)
			}
			return out
		}
		before := stacks(st)
		for _, p := range st.Players {
			if end, ok := rules.EndStack(st.Ended(), p.Seat); !ok || end != p.Stack {
				t.Errorf("hand %d seat %d: the state leaves %d, hand.ended says %d", i+1, p.Seat, p.Stack, end)
			}
		}
		var won events.Chips
		for _, a := range st.Awards {
			won += a.Amount
		}
		if won == 0 && !st.Passed {
			t.Errorf("hand %d: no award in the state", i+1)
		}
		if fs, _ := j.After(prev); len(fs) != 0 {
			t.Errorf("hand %d of a clean table: After finds %v", i+1, fs)
		}
		if after := stacks(st); len(after) != len(before) || func() bool {
			for k := range after {
				if after[k] != before[k] {
					return true
				}
			}
			return false
		}() {
			t.Errorf("hand %d: After changed the state: %v, then %v", i+1, before, after)
		}
		_, next := HandAfter(h, prev) // what this hand alone leaves its table
		if next == nil || next.Hand != h[0].Hand {
			t.Fatalf("hand %d: the memory left is %+v, want this hand's", i+1, next)
		}
		prev = next
	}
}
