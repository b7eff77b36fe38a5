package handhistory_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/explain"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/handhistory"
	"github.com/fechado/fechado/internal/testfiles"
	"github.com/fechado/fechado/lang"
)

// The real PokerStars session of testdata/hh/5-Carddraw-USD-0.10-0.20-200911.txt (repository
// philroberts/FPDB-for-OSX, commit fd7f0f69cc3a5e690c71bde11ba9205583c1a219, file
// pyfpdb/regression-test-files/cash/Stars/Draw/5-Carddraw-USD-0.10-0.20-200911.txt: 30 hands at
// 'Laodica IV' on 2009-11-25, kept byte for byte but the player names, replaced) shows the room's
// moving button: at hand 35839278018 'Player 4' is the big blind at seat 1 (button 5, small blind
// 6) and loses every chip; at the next, 35839303429, PokerStars moves the button one seat, to 6,
// and gives the blinds to the next two players, seats 2 and 3, so nobody posts at seat 1 and seat
// 2 misses a big blind. At 35839492817 the button moves from seat 4 past Player5, who sat down at
// seat 5, to seat 6.
//
// events-v1.md §7 (2026-12-05): PokerStars cash imports declare rules.button "moving", under
// which the session has no irregular hand at all. Declared "dead" (the TDA dead button), hand
// 35839303429 breaks it once — its big blind should have been seat 2 — and is one finding: the
// hands after it are judged from where it really left the table ("continuity compares a hand
// with the hands before it as they were recorded ... one irregular hand, one finding").
func TestMovingButtonSession2009(t *testing.T) {
	res := importFile(t, handhistory.PokerStars, testfiles.File(t, "hh", "5-Carddraw-USD-0.10-0.20-200911.txt"))
	if len(res.Skipped) > 0 || len(res.Hands) != 30 {
		t.Fatalf("%d hands, skipped %v", len(res.Hands), res.Skipped)
	}
	for _, h := range res.Hands {
		if got := h.Events[0].Data.(*events.HandStarted).Rules.Button(); got != events.ButtonMoving {
			t.Fatalf("hand %s declares button %q, want moving (a PokerStars cash game)", h.Source, got)
		}
	}
	for _, f := range auditImported(t, res) {
		if f.Severity == finding.Error || f.Code == finding.TableDealer {
			t.Errorf("moving: %s", f.JSON())
		}
	}

	// The same hands declared "dead": one finding, on the hand that broke the rule.
	dead := &handhistory.Result{}
	for _, h := range res.Hands {
		h.Events = redeclare(t, h.Events, events.ButtonDead)
		dead.Hands = append(dead.Hands, h)
	}
	var dealer []finding.Finding
	for _, f := range auditImported(t, dead) {
		switch {
		case f.Code == finding.TableDealer:
			dealer = append(dealer, f)
		case f.Severity == finding.Error:
			t.Errorf("dead: %s", f.JSON())
		}
	}
	want := find(t, res, "35839303429").Events[0].Hand
	if len(dealer) != 1 {
		t.Fatalf("dead: %d table.dealer findings, want 1 (on hand 35839303429): %v", len(dealer), dealer)
	}
	f := dealer[0]
	if f.Hand != want || fmt.Sprint(f.Expected) != "2" || fmt.Sprint(f.Actual) != "3" {
		t.Errorf("dead: %s; want hand %s, the big blind expected at seat 2, posted at 3", f.JSON(), want)
	}

	// Its sentence, in every language, is about the big blind (Player8's at seat 2, not Player3's at
	// 3), as its message is, never about the dealer.
	var hand []*events.Event
	for _, h := range dead.Hands {
		if h.Events[0].Hand == want {
			hand = h.Events
		}
	}
	xh, err := explain.NewHand(hand)
	if err != nil {
		t.Fatal(err)
	}
	fj := finding.Finding{}
	if err := json.Unmarshal([]byte(f.JSON()), &fj); err != nil { // as a report reads it
		t.Fatal(err)
	}
	if !strings.Contains(f.Message, "big blind") {
		t.Errorf("message %q is not about the big blind", f.Message)
	}
	for code, words := range map[string][2]string{"en": {"big blind", "dealer"}, "pt-BR": {"big blind", "carteador"},
		"tr": {"Büyük kör", "Dağıtan"}, "es": {"ciega grande", "repartidor"}} {
		l, ok := lang.Get(code)
		if !ok {
			t.Fatalf("no language %s", code)
		}
		s := xh.Explain(l, fj).Sentence
		if !strings.Contains(s, words[0]) || strings.Contains(s, words[1]) || !strings.Contains(s, "Player8") || !strings.Contains(s, "Player3") {
			t.Errorf("%s: %q should speak of the big blind (%s), Player8 and Player3, not of the dealer (%s)", code, s, words[0], words[1])
		}
	}
}

// redeclare returns a copy of a hand's events whose hand.started declares rules.button b,
// re-sealed so that the chain holds.
func redeclare(t *testing.T, evs []*events.Event, b events.Button) []*events.Event {
	t.Helper()
	out := make([]*events.Event, len(evs))
	prev := ""
	for i, e := range evs {
		c := *e
		if hs, ok := e.Data.(*events.HandStarted); ok {
			s := *hs
			s.Rules.Overrides = slices.DeleteFunc(slices.Clone(s.Rules.Overrides), func(o events.Override) bool { return o.Key == "button" })
			s.Rules.Overrides = append(s.Rules.Overrides, events.Override{Key: "button", Value: []byte(`"` + string(b) + `"`)})
			c.Data = &s
		}
		events.Seal(&c, prev)
		prev = events.Hash(c.Raw)
		out[i] = &c
	}
	return out
}

// The Boss session of testdata/hh/boss/5CD-FL-EUR-2-4.Opoker.sample.xml (Opoker, 2011-09-11, 14
// hands three-handed at 'Table FCD 192') is dealt by the TDA dead button, not the moving button of
// the other rooms (events.md, Reading R6): at hand 2692988440 Player2 sits out and keeps the
// button at seat 2 (the last small blind), the other two posting the blinds left of it; at
// 2692989117 he has left, play is heads-up and the big blind moves on from seat 5 to seat 3, the
// button (seat 5) posting the small blind. Declared "dead", as its import does, the session has
// no irregular hand; declared "moving", both hands break it.
func TestBossSittingOutKeepsDeadButton(t *testing.T) {
	res := importFile(t, handhistory.Boss, testfilesGlob(t, "boss/5CD-FL-EUR-2-4.Opoker.sample.xml")[0])
	if len(res.Hands) != 14 || len(res.Skipped) != 0 {
		t.Fatalf("%d hands, skipped %v", len(res.Hands), res.Skipped)
	}
	for _, h := range res.Hands {
		if got := h.Events[0].Data.(*events.HandStarted).Rules.Button(); got != events.ButtonDead {
			t.Fatalf("hand %s declares button %q, want dead (Boss)", h.Source, got)
		}
	}
	hs := find(t, res, "2692988440").Events[0].Data.(*events.HandStarted)
	if hs.Dealer != 2 || len(hs.Seats) != 2 || len(hs.Away) != 1 || hs.Away[0].Seat != 2 {
		t.Fatalf("hand 2692988440: dealer %d, seats %v, away %v; want the button at seat 2, away", hs.Dealer, hs.Seats, hs.Away)
	}
	for _, f := range auditImported(t, res) {
		if f.Severity == finding.Error || f.Code == finding.TableDealer {
			t.Errorf("dead: %s", f.JSON())
		}
	}

	moving := &handhistory.Result{}
	for _, h := range res.Hands {
		h.Events = redeclare(t, h.Events, events.ButtonMoving)
		moving.Hands = append(moving.Hands, h)
	}
	var at []string
	for _, f := range auditImported(t, moving) {
		if f.Code == finding.TableDealer {
			at = append(at, f.Hand)
		}
	}
	want := []string{find(t, res, "2692988440").Events[0].Hand, find(t, res, "2692989117").Events[0].Hand}
	if !slices.Equal(at, want) {
		t.Errorf("moving: table.dealer at %v, want at hands 2692988440 and 2692989117 %v", at, want)
	}
}
