package handhistory_test

import (
	"errors"
	"os"
	"strings"
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

// A replacement card that an earlier discard threw (here p2 is given the 9h p1 threw) can only
// come from a reshuffle of used cards, which PHH does not record: pokerkit reshuffles the burn,
// the folded hands and every discard when its stub runs out (six players drawing more than the 21
// cards left). The hand is left out, named, rather than written with a card dealt twice, which
// the auditor would report as deck.duplicate-card although the source dealt none twice.
func TestPHHReshuffledCardRefused(t *testing.T) {
	const hand = `variant = 'F5CD'
antes = [0, 0]
blinds_or_straddles = [1, 2]
small_bet = 2
big_bet = 4
starting_stacks = [100, 100]
actions = ['d dh p1 AsKsQsJs9h', 'd dh p2 2c3c4c5c7d', 'p2 cc', 'p1 cc', 'p1 sd 9h', 'p2 sd 7d', 'd dh p1 Ts', 'd dh p2 9h', 'p1 cc', 'p2 cc', 'p1 sm AsKsQsJsTs', 'p2 sm 2c3c4c5c9h']
`
	res, err := handhistory.Import(handhistory.PHH, "reshuffled.phh", []byte(hand))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hands) != 0 || len(res.Skipped) != 1 || !errors.Is(res.Skipped[0], handhistory.ErrUnsupported) ||
		!strings.Contains(res.Skipped[0].Error(), "9h in the draw, a card already used") {
		t.Fatalf("hands %d, skipped %v; want the hand left out for the reshuffled 9h", len(res.Hands), res.Skipped)
	}
	// The same hand with a fresh card imports.
	res, err = handhistory.Import(handhistory.PHH, "fresh.phh", []byte(strings.NewReplacer("p2 9h", "p2 8h", "5c9h", "5c8h").Replace(hand)))
	if err != nil || len(res.Hands) != 1 || len(res.Skipped) != 0 {
		t.Fatalf("fresh card: hands %d, skipped %v, %v", len(res.Hands), res.Skipped, err)
	}
}

// PHH's time is a TOML local time (pokerkit reads it as a datetime.time and writes it unquoted),
// not a string: the export writes it so, in UTC with time_zone "UTC", and reads it back.
func TestPHHExportTimeIsALocalTime(t *testing.T) {
	h := onlyHand(t, importFile(t, handhistory.PHH, "testdata/phh/fixed-showdown.phh")) // 20:15 in Istanbul
	text, refused, err := handhistory.Export(handhistory.PHH, [][]*events.Event{h.Events})
	if err != nil || len(refused) != 0 {
		t.Fatalf("export: %v, refused %v", err, refused)
	}
	if !strings.Contains(string(text), "\ntime = 17:15:00\ntime_zone = \"UTC\"\n") {
		t.Fatalf("want time = 17:15:00 unquoted, in UTC:\n%s", text)
	}
	back := onlyHand(t, mustImport(t, handhistory.PHH, "export.phh", text))
	if back.Events[0].At != "2024-03-09T17:15:00Z" {
		t.Errorf("read back at %s, want 2024-03-09T17:15:00Z", back.Events[0].At)
	}
}

func mustImport(t *testing.T, f handhistory.Format, name string, data []byte) *handhistory.Result {
	t.Helper()
	res, err := handhistory.Import(f, name, data)
	if err != nil {
		t.Fatal(err)
	}
	return res
}
