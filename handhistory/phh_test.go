package handhistory_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/handhistory"
)

// finishing returns the final stacks in seat order.
func finishing(h handhistory.Hand) []events.Chips {
	var out []events.Chips
	for _, s := range h.Events[len(h.Events)-1].Data.(*events.HandEnded).Stacks {
		out = append(out, s.Stack)
	}
	return out
}

// onlyHand returns the one hand of res, its events checked (checkEvents); it fails the test when
// res skipped anything or holds another number of hands.
func onlyHand(t *testing.T, res *handhistory.Result) handhistory.Hand {
	t.Helper()
	if len(res.Skipped) != 0 || len(res.Hands) != 1 {
		t.Fatalf("hands %d skipped %v", len(res.Hands), res.Skipped)
	}
	checkEvents(t, res.Hands[0])
	return res.Hands[0]
}

func TestPHHFixedShowdown(t *testing.T) {
	h := onlyHand(t, importFile(t, handhistory.PHH, "testdata/phh/fixed-showdown.phh"))
	s := h.Events[0].Data.(*events.HandStarted)
	if h.Table != "phh-fixed-showdown" || s.Dealer != 6 || s.Seats[0].Player != "Ann Lee" || s.Stakes != (events.Stakes{MinBet: 2, MaxBet: 4}) {
		t.Errorf("table %s started %+v", h.Table, s)
	}
	if got, _ := s.Rules.Override("structure"); string(got) != `"fixed"` {
		t.Errorf("structure %s", got)
	}
	// 20:15 in Istanbul (UTC+3).
	if h.Events[0].At != "2024-03-09T20:15:00+03:00" {
		t.Errorf("at %s", h.Events[0].At)
	}
	if got := dealt(h, 2, events.PhaseDeal); got != "As Ks 2h 7c 9d" {
		t.Errorf("p1 dealt %s", got)
	}
	if got := dealt(h, 6, events.PhaseDraw); got != "Jd" {
		t.Errorf("p3 drew %s", got)
	}
	// The draw is written player by player: each discard, then his replacements.
	var order []string
	for _, e := range h.Events {
		switch d := e.Data.(type) {
		case *events.CardsDiscarded:
			order = append(order, fmt.Sprintf("discard %d", d.Seat))
		case *events.CardDealt:
			if d.Phase == events.PhaseDraw {
				order = append(order, fmt.Sprintf("draw %d", d.Seat))
			}
		}
	}
	want := []string{"discard 2", "draw 2", "draw 2", "draw 2", "discard 4", "draw 4", "draw 4", "draw 4", "discard 6", "draw 6"}
	if !slices.Equal(order, want) {
		t.Errorf("draw order %v, want %v", order, want)
	}
	var acts []string
	for _, a := range datas[*events.PlayerActed](h) {
		acts = append(acts, fmt.Sprintf("%d %s %s %d", a.Seat, a.Round, a.Action, a.Amount))
	}
	wantActs := []string{"6 first raise 4", "2 first call 3", "4 first call 2",
		"2 second check 0", "4 second bet 4", "6 second raise 8", "2 second fold 0", "4 second call 4"}
	if !slices.Equal(acts, wantActs) {
		t.Errorf("actions %v, want %v", acts, wantActs)
	}
	if got, want := awards(h), []string{"seat 6 pot 0: 28"}; !slices.Equal(got, want) {
		t.Errorf("awards %v, want %v", got, want)
	}
	if got := finishing(h); !slices.Equal(got, []events.Chips{96, 68, 136}) {
		t.Errorf("final stacks %v", got)
	}
}

func TestPHHSession(t *testing.T) {
	res := importFile(t, handhistory.PHH, "testdata/phh/session.phhs")
	if len(res.Skipped) != 0 || len(res.Hands) != 3 {
		t.Fatalf("hands %d skipped %v", len(res.Hands), res.Skipped)
	}
	for _, h := range res.Hands {
		checkEvents(t, h)
	}
	// Heads-up: p1 (seat 1) posts the big blind, p2 (seat 2, the button) the small one.
	h1 := find(t, res, "1")
	var blinds []string
	for _, b := range datas[*events.BlindPosted](h1) {
		blinds = append(blinds, fmt.Sprintf("%d %s %d", b.Seat, b.Blind, b.Amount))
	}
	if want := []string{"2 small 1", "1 big 2"}; !slices.Equal(blinds, want) {
		t.Errorf("blinds %v, want %v", blinds, want)
	}
	if got := datas[*events.BetReturned](h1); len(got) != 1 || got[0].Seat != 2 || got[0].Amount != 4 {
		t.Errorf("returned %+v", got)
	}
	if got := finishing(h1); !slices.Equal(got, []events.Chips{98, 102}) {
		t.Errorf("final %v", got)
	}
	// Side pots decided by the shown hands.
	h2 := find(t, res, "2")
	if got, want := awards(h2), []string{"seat 1 pot 0: 200", "seat 3 pot 1: 210", "seat 2 pot 2: 360"}; !slices.Equal(got, want) {
		t.Errorf("awards %v, want %v", got, want)
	}
	if got := discards(h2); !slices.Equal(got, []string{"1:[]+2", "2:[]+1", "3:[]", "4:[]+3"}) {
		t.Errorf("discards %v", got)
	}
	if got := dealt(h2, 3, events.PhaseDeal); got != "Kh Kc Kd 5s 5d" {
		t.Errorf("the pat hand's deal %s", got)
	}
	// Unknown hands: finishing_stacks decide, and the missing chip is rake.
	h3 := find(t, res, "3")
	if got, want := awards(h3), []string{"rake pot 0: 1", "seat 3 pot 0: 29"}; !slices.Equal(got, want) {
		t.Errorf("awards %v, want %v", got, want)
	}
	if h1.Table == h2.Table || h1.ID == h2.ID {
		t.Errorf("hands of a .phhs file share table or id: %s %s", h1.Table, h1.ID)
	}
}

func TestPHHCents(t *testing.T) {
	h := onlyHand(t, importFile(t, handhistory.PHH, "testdata/phh/pot-cents.phh"))
	s := h.Events[0].Data.(*events.HandStarted)
	if s.Stakes.MinBet != 50 || s.Seats[1].Stack != 3550 || h.Events[0].At != "2025-07-14T00:00:00Z" {
		t.Errorf("stakes %+v seats %+v at %s", s.Stakes, s.Seats, h.Events[0].At)
	}
	if got := finishing(h); !slices.Equal(got, []events.Chips{2050, 3500, 1275}) {
		t.Errorf("final %v", got)
	}
}

func TestPHHRefused(t *testing.T) {
	res := importFile(t, handhistory.PHH, "testdata/phh/lowball.phh")
	if len(res.Hands) != 0 || len(res.Skipped) != 1 || !errors.Is(res.Skipped[0], handhistory.ErrUnsupported) ||
		!strings.Contains(res.Skipped[0].Error(), "N2L1D") {
		t.Fatalf("skipped %v", res.Skipped)
	}
	res = importFile(t, handhistory.PHH, "testdata/phh/broken.phh")
	if len(res.Skipped) != 1 || res.Skipped[0].Line != 3 || !errors.Is(res.Skipped[0], handhistory.ErrMalformed) {
		t.Fatalf("skipped %v", res.Skipped)
	}
	for code := range handhistory.PHHRefused {
		src := fmt.Sprintf("variant = %q\nstarting_stacks = [10, 10]\nactions = []\n", code)
		res := handhistory.ImportPHH("x.phh", []byte(src))
		if len(res.Skipped) != 1 || !errors.Is(res.Skipped[0], handhistory.ErrUnsupported) {
			t.Errorf("%s: %v", code, res.Skipped)
		}
	}
}

// Bad PHH hands are reported with the line of the action at fault.
func TestPHHBadAction(t *testing.T) {
	src := `variant = "N5CD"
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = [
  "d dh p1 ??????????",
  "d dh p2 ??????????",
  "p2 cbr 500",
]
`
	res := handhistory.ImportPHH("x.phh", []byte(src))
	if len(res.Skipped) != 1 || res.Skipped[0].Line != 8 || !errors.Is(res.Skipped[0], handhistory.ErrInconsistent) {
		t.Fatalf("skipped %v", res.Skipped)
	}
	res = handhistory.ImportPHH("x.phh", []byte(strings.Replace(src, `"p2 cbr 500"`, `"p2 xx"`, 1)))
	if len(res.Skipped) != 1 || res.Skipped[0].Line != 8 || !errors.Is(res.Skipped[0], handhistory.ErrMalformed) {
		t.Fatalf("skipped %v", res.Skipped)
	}
	// A contested pot with unknown hands and no finishing_stacks cannot be settled.
	res = handhistory.ImportPHH("x.phh", []byte(strings.Replace(src, `"p2 cbr 500"`, `"p2 cc", "p1 cc", "p1 sd", "p2 sd", "p1 cc", "p2 cc"`, 1)))
	if len(res.Skipped) != 1 || !errors.Is(res.Skipped[0], handhistory.ErrUnsupported) {
		t.Fatalf("skipped %v", res.Skipped)
	}
}

// A tied pot is split as rules splits it (presets.md online-draw "split": equal shares, the odd
// chip to the first tied winner left of the dealer), not by the reader's own arithmetic.
func TestPHHTieOddChip(t *testing.T) {
	src := `variant = "N5CD"
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = [
  "d dh p1 AsKsQdJc9h", "d dh p2 AhKhQcJd9s", "d dh p3 2c3d4h5s7c",
  "p3 cbr 5", "p1 cc", "p2 cc",
  "p1 sd", "p2 sd", "p3 sd",
  "p1 cc", "p2 cc", "p3 cbr 10", "p1 cc", "p2 cc",
  "p3 sm 2c3d4h5s7c", "p1 sm AsKsQdJc9h", "p2 sm AhKhQcJd9s",
]
`
	h := onlyHand(t, handhistory.ImportPHH("tie.phh", []byte(src)))
	// 45 chips for two equal hands: p1, the first left of the button (p3), gets the odd one.
	if got, want := awards(h), []string{"seat 1 pot 0: 23", "seat 2 pot 0: 22"}; !slices.Equal(got, want) {
		t.Errorf("awards %v, want %v", got, want)
	}
	if got := finishing(h); !slices.Equal(got, []events.Chips{108, 107, 85}) {
		t.Errorf("final stacks %v", got)
	}
}

// pokerkit records the big blind's check after the small blind called all-in heads-up, when
// nobody is left to bet against: the importer leaves that check out and says so (Hand.Dropped),
// rather than write an action the auditor refuses as bet.out-of-turn (issue 45).
func TestPHHCheckAfterClosedRoundIsDropped(t *testing.T) {
	h := onlyHand(t, importFile(t, handhistory.PHH, "testdata/phh/allin-check.phh"))
	if len(h.Dropped) != 1 || h.Dropped[0].Seat != 1 || h.Dropped[0].Round != events.RoundFirst || h.Dropped[0].Line == 0 {
		t.Fatalf("dropped %+v, want seat 1's check of round first", h.Dropped)
	}
	checks := 0
	for _, e := range h.Events {
		if a, ok := e.Data.(*events.PlayerActed); ok && a.Action == events.Check {
			checks++
		}
	}
	if checks != 0 {
		t.Errorf("%d checks written", checks)
	}
	if got := finishing(h); !slices.Equal(got, []events.Chips{102, 0}) {
		t.Errorf("finishing %v", got)
	}
	for _, f := range auditImported(t, &handhistory.Result{Hands: []handhistory.Hand{h}}) {
		t.Errorf("%s", f.JSON())
	}
}
