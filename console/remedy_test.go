package console_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/rules"
	"github.com/google/uuid"
)

// physical plays a hand of preset through the API with a physical deck whose cards the test
// gives: the deal from deal (in the order of the deal), the replacements from draw; the first
// discard of seat 2 is his cards thrown, with declared set. It returns the answer to that discard
// and the stored events.
func (e *env) physical(preset string, deal, throw, draw []string, declared int) (answer, []*events.Event) {
	t := e.t
	t.Helper()
	h := &hand{table: "mesa-1", id: uuid.NewString()}
	var a answer
	e.call("mesa1", "senha1", "POST", "/console/api/hands/"+h.id+"/events", h.event(&events.HandStarted{Rules: events.Rules{Name: preset},
		Number: 1, Dealer: 1, Stakes: events.Stakes{Ante: 1, MinBet: 10, MaxBet: 20},
		Seats: []events.SeatStack{{Seat: 1, Player: "Ana", Stack: 100}, {Seat: 2, Player: "Beto", Stack: 100}, {Seat: 3, Player: "Caio", Stack: 100}}}), &a)
	card := func(s string) cards.Card {
		c, err := cards.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	var atDiscard answer
	a = e.playWith(h, a, func(a answer) events.Data {
		ad := a.Advice
		switch ad.Step {
		case rules.StepShuffle:
			n := 3
			return &events.DeckShuffled{Method: cards.PhysicalMethod, Count: &n}
		case rules.StepDeal:
			c := deal[0]
			deal = deal[1:]
			return &events.CardDealt{Seat: ad.Seat, Card: card(c), Phase: events.PhaseDeal}
		case rules.StepDraw:
			c := draw[0]
			draw = draw[1:]
			return &events.CardDealt{Seat: ad.Seat, Card: card(c), Phase: events.PhaseDraw}
		case rules.StepDiscard:
			if ad.Declared != mustPreset(t, preset).Declared {
				t.Errorf("the discard's advice gives the declared rule %q, want %s's", ad.Declared, preset)
			}
			d := &events.CardsDiscarded{Seat: ad.Seat, Cards: []cards.Card{}}
			if ad.Seat == 2 {
				for _, c := range throw {
					d.Cards = append(d.Cards, card(c))
				}
				d.Declared = &declared
				atDiscard.Advice.Step = "waiting for the discard's answer"
			}
			return d
		}
		if atDiscard.Advice.Step == "waiting for the discard's answer" {
			atDiscard = a
		}
		return nil
	})
	evs := a.stored(t)
	return atDiscard, evs
}

func mustPreset(t *testing.T, name string) rules.Preset {
	p, err := rules.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDeclaredCount: the console records a draw count announced before the discard
// (cards.discarded declared, events-v1.md 6.11). Under tr-kapali a player may raise the number he
// announced but never lower it (presets.md tr-kapali "drawing"): announcing three and throwing two
// is what the engine warns of at once and the auditor reports (draw.declared). Under std-draw the
// number may change until a card is dealt in answer: the same discard is clean.
func TestDeclaredCount(t *testing.T) {
	for _, c := range []struct {
		preset string
		deal   []string // seat 2 opens: kings for tr-kapali, jacks for std-draw
		flag   bool
	}{
		{"tr-kapali", []string{"Ks", "Qs", "As", "Kh", "Qh", "Ah", "7c", "8c", "9c", "8d", "9d", "Td", "9s", "Ts", "Js"}, true},
		{"std-draw", []string{"Js", "Qs", "As", "Jh", "Qh", "Ah", "2c", "8c", "9c", "3d", "9d", "Td", "4s", "Ts", "5s"}, false},
	} {
		t.Run(c.preset, func(t *testing.T) {
			e := newEnv(t)
			// Beto (seat 2) announces three cards and throws two.
			throw := []string{c.deal[6], c.deal[9]}
			at, evs := e.physical(c.preset, c.deal, throw, []string{"Jc", "Jd"}, 3)
			warned := slices.Contains(at.WarningCodes, string(finding.DrawDeclared))
			flagged := false
			for _, f := range audit.Hand(evs) {
				switch {
				case f.Code == finding.DrawDeclared:
					flagged = true
				case f.Severity != finding.Info:
					t.Errorf("the audit finds %s", f.JSON())
				}
			}
			if warned != c.flag || flagged != c.flag {
				t.Errorf("three announced, two thrown: the console warns %v and the auditor reports draw.declared %v, want %v", warned, flagged, c.flag)
			}
			for _, ev := range evs {
				if d, ok := ev.Data.(*events.CardsDiscarded); ok && d.Seat == 2 && (d.Declared == nil || *d.Declared != 3) {
					t.Errorf("the stored discard does not keep the number announced: %s", ev.Raw)
				}
			}
		})
	}
}

// TestCutExposed: a card shown while the deck is cut (card.exposed, phase cut, events-v1.md §5).
// Where the preset's remedy is a reshuffle and a new cut (presets.md exposed cards "in the cut")
// the console asks for them before anything else; the hand recorded that way has no finding but
// the exposure. br-online allows no exposed card: no remedy is offered, and the exposure itself is
// the error.
func TestCutExposed(t *testing.T) {
	for _, preset := range []string{"br-fechado", "online-draw", "br-online"} {
		t.Run(preset, func(t *testing.T) {
			e := newEnv(t)
			p := mustPreset(t, preset)
			h := &hand{table: "mesa-1", id: uuid.NewString()}
			path := "/console/api/hands/" + h.id + "/events"
			var a answer
			e.call("mesa1", "senha1", "POST", path, h.event(&events.HandStarted{Rules: events.Rules{Name: preset}, Number: 1, Dealer: 1,
				Stakes: events.Stakes{Ante: 1, MinBet: 10, MaxBet: 20},
				Seats:  []events.SeatStack{{Seat: 1, Player: "Ana", Stack: 100}, {Seat: 2, Player: "Beto", Stack: 100}, {Seat: 3, Player: "Caio", Stack: 100}}}), &a)
			var sh map[string]string // the console's machine shuffle: it deals the cards itself
			e.call("mesa1", "senha1", "POST", "/console/api/hands/"+h.id+"/shuffle", []byte(`{"seq":2}`), &sh)
			e.call("mesa1", "senha1", "POST", path, h.event(&events.DeckShuffled{Method: sh["method"], Commitment: sh["commitment"]}), &a)
			by := events.Seat(3)
			if code := e.call("mesa1", "senha1", "POST", path, h.event(&events.CardExposed{Card: cards.MustParse("Qd"), Phase: events.PhaseCut, Seat: &by, Cause: events.CausePlayer}), &a); code != http.StatusOK {
				t.Fatalf("the exposure: %d %s", code, a.Detail)
			}
			wantStep, wantRemedy := rules.StepShuffle, rules.RemedyReshuffle
			if p.ExposedCut != rules.RemedyReshuffle {
				wantStep, wantRemedy = rules.StepCut, ""
			}
			if a.Advice.Step != wantStep || a.Advice.Remedy != wantRemedy {
				t.Fatalf("after a card shown in the cut the console asks for %s (remedy %q), want %s (%q)", a.Advice.Step, a.Advice.Remedy, wantStep, wantRemedy)
			}
			a = e.play(h, a)
			evs := a.stored(t)
			shuffles := 0
			for _, ev := range evs {
				if ev.Type == events.DeckShuffledType && ev.Seq < 6 {
					shuffles++
				}
			}
			if want := map[bool]int{true: 2, false: 1}[wantRemedy != ""]; shuffles != want {
				t.Errorf("%d shuffles before the deal, want %d", shuffles, want)
			}
			for _, f := range audit.Hand(evs) {
				switch {
				case f.Code == finding.CardExposed:
					if want := map[bool]finding.Severity{true: finding.Error, false: finding.Warning}[p.ExposedError]; f.Severity != want {
						t.Errorf("the exposure is a finding of severity %s, want %s", f.Severity, want)
					}
				case f.Severity != finding.Info:
					t.Errorf("the audit finds %s", f.JSON())
				}
			}
		})
	}
}
