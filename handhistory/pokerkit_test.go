package handhistory_test

import (
	"os"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/handhistory"
	"github.com/fechado/fechado/internal/testfiles"
)

// The hands of testdata/hh/phh/pokerkit/fivedraw-seed45.phhs were played by pokerkit (a generic
// pokerkit game set up as five-card draw high, fixed limit, one draw; random actions, seed 45:
// that folder's README) and written by pokerkit as PHH. Every one imports, audits without an
// error, and ends with the stacks pokerkit gave it (finishing_stacks, by seat): the awards are
// pokerkit's. Issue 45.
func TestPokerkitHandsImportWithItsAwards(t *testing.T) {
	path := testfiles.File(t, "hh", "phh", "pokerkit", "fivedraw-seed45.phhs")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var src map[string]struct {
		Variant         string
		Seats           []int
		FinishingStacks []int64 `toml:"finishing_stacks"`
	}
	if _, err := toml.Decode(string(data), &src); err != nil {
		t.Fatal(err)
	}
	if len(src) < 50 {
		t.Fatalf("%d hands in the file, want the 60 of its README", len(src))
	}
	res := importFile(t, handhistory.PHH, path)
	if len(res.Hands) != len(src) || len(res.Skipped) != 0 {
		t.Fatalf("imported %d of %d hands, skipped %v", len(res.Hands), len(src), res.Skipped)
	}
	for _, h := range res.Hands {
		checkEvents(t, h)
		s, ok := src[h.Source]
		if !ok || s.Variant != handhistory.PHHFixedDraw {
			t.Fatalf("hand %s: not in the file as %s", h.Source, handhistory.PHHFixedDraw)
		}
		want := map[events.Seat]events.Chips{}
		for i, seat := range s.Seats {
			want[events.Seat(seat)] = events.Chips(s.FinishingStacks[i])
		}
		got := map[events.Seat]events.Chips{}
		for _, st := range h.Events[len(h.Events)-1].Data.(*events.HandEnded).Stacks {
			got[st.Seat] = st.Stack
		}
		if len(got) != len(want) {
			t.Errorf("hand %s: %d seats end, pokerkit's %d", h.Source, len(got), len(want))
		}
		for seat, c := range want {
			if got[seat] != c {
				t.Errorf("hand %s seat %d ends with %d, pokerkit with %d", h.Source, seat, got[seat], c)
			}
		}
	}
	for _, f := range auditImported(t, res) {
		if f.Severity == finding.Error {
			t.Errorf("%s", f.JSON())
		}
	}
	// Not a vacuous sample: showdowns, all-ins and big draws are there.
	var shown, busted, drew4 int
	for _, h := range res.Hands {
		for _, e := range h.Events {
			switch d := e.Data.(type) {
			case *events.HandShown:
				shown++
			case *events.CardsDiscarded:
				if len(d.Cards) >= 4 {
					drew4++
				}
			case *events.HandEnded:
				for _, s := range d.Stacks {
					if s.Stack == 0 {
						busted++
					}
				}
			}
		}
	}
	if shown < 20 || busted < 10 || drew4 < 5 {
		t.Errorf("sample too tame: %d hands shown, %d players busted, %d draws of 4 or 5", shown, busted, drew4)
	}
	t.Logf("%d pokerkit hands: %d shown, %d busted, %d draws of 4+", len(res.Hands), shown, busted, drew4)
}
