package rules_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/replay"
	"github.com/fechado/fechado/rules"
)

// stubHand records an online-draw hand of six players who call the big blind, check and draw
// five cards each, following the advice with fixed seeds, up to the step at which stop says to
// stop (nil: to the end). It returns the events, the seeds and the advice it stopped at.
type stubHand struct {
	t     *testing.T
	evs   []*events.Event
	prev  string
	stub  []cards.Card
	seeds map[events.Seq]cards.Seed
}

func (d *stubHand) emit(data events.Data) {
	seq := events.Seq(len(d.evs) + 1)
	e := &events.Event{ID: fmt.Sprintf("0190b000-0000-7000-8000-%012d", seq), Table: "t-online", Hand: "0190b000-0000-7000-8000-000000000000",
		Seq: seq, At: time.Date(2026, 12, 5, 20, 0, int(seq), 0, time.UTC).Format(time.RFC3339), Type: data.EventType(), Data: data}
	events.Seal(e, d.prev)
	d.prev = events.Hash(e.Raw)
	d.evs = append(d.evs, e)
}

func (d *stubHand) shuffle(in []cards.Card) {
	var seed cards.Seed
	seed[0], seed[1] = byte(len(d.evs)), 0x5d
	d.seeds[events.Seq(len(d.evs)+1)] = seed
	sh := &events.DeckShuffled{Method: cards.ShuffleMethod, Commitment: seed.Commitment()}
	if in == nil {
		in = cards.Deck(cards.Two)
	} else {
		sh.Cards = in
	}
	d.stub = cards.Shuffle(seed, in)
	d.emit(sh)
}

func (d *stubHand) top() cards.Card {
	if len(d.stub) == 0 {
		d.t.Fatal("the stub is empty")
	}
	c := d.stub[0]
	d.stub = d.stub[1:]
	return c
}

// play follows the advice until stop returns true for it (returned) or the hand is done.
func (d *stubHand) play(stop func(rules.Advice) bool) rules.Advice {
	for range 500 {
		a, _, err := rules.AdviseWith(d.evs, rules.Context{Seeds: d.seeds})
		if err != nil {
			d.t.Fatal(err)
		}
		if a.Step == rules.StepDone || stop != nil && stop(a) {
			return a
		}
		switch a.Step {
		case rules.StepShuffle:
			d.shuffle(nil)
		case rules.StepReshuffle:
			d.shuffle(a.Cards)
		case rules.StepCut:
			d.emit(&events.DeckCut{At: 0})
		case rules.StepBlind:
			d.emit(&events.BlindPosted{Seat: a.Seat, Amount: a.Amount, Blind: a.Blind})
		case rules.StepAnte:
			d.emit(&events.AntePosted{Seat: a.Seat, Amount: a.Amount})
		case rules.StepDeal:
			d.emit(&events.CardDealt{Seat: a.Seat, Card: d.top(), Phase: events.PhaseDeal})
		case rules.StepAction:
			act := &events.PlayerActed{Seat: a.Seat, Round: a.Options.Round, Action: events.Check}
			if !a.Options.Check {
				act.Action, act.Amount = events.Call, a.Options.Call
			}
			d.emit(act)
		case rules.StepDiscard:
			d.emit(&events.CardsDiscarded{Seat: a.Seat, Cards: slices.Clone(a.Cards)}) // all five
		case rules.StepBurn:
			d.emit(&events.CardBurned{Card: d.top()})
		case rules.StepDraw:
			d.emit(&events.CardDealt{Seat: a.Seat, Card: d.top(), Phase: events.PhaseDraw})
		case rules.StepShow:
			d.emit(&events.HandShown{Seat: a.Seat, Cards: a.Cards})
		case rules.StepReturn:
			d.emit(&events.BetReturned{Seat: a.Seat, Amount: a.Amount})
		case rules.StepAward:
			d.emit(&events.PotAwarded{Seat: a.Seat, Amount: a.Amount, Pot: a.Pot})
		case rules.StepReveal:
			d.emit(&events.DeckRevealed{Shuffle: a.Shuffle, Seed: d.seeds[a.Shuffle]})
		case rules.StepEnd:
			d.emit(&events.HandEnded{Stacks: a.Stacks, Carry: a.Carry})
		default:
			d.t.Fatalf("unexpected step %s", a.Step)
		}
	}
	d.t.Fatal("the hand did not end")
	return rules.Advice{}
}

func newStubHand(t *testing.T) *stubHand {
	d := &stubHand{t: t, seeds: map[events.Seq]cards.Seed{}}
	hs := &events.HandStarted{Rules: events.Rules{Name: "online-draw"}, Number: 1, Dealer: 1,
		Stakes: events.Stakes{MinBet: 10}}
	for s := events.Seat(1); s <= 6; s++ {
		hs.Seats = append(hs.Seats, events.SeatStack{Seat: s, Player: fmt.Sprintf("p%d", s), Stack: 500})
	}
	d.emit(hs)
	return d
}

// presets.md online-draw (2026-12-05): "If the stub runs out during the draw (six players can ask
// for more cards than remain), the discards made so far, except those of the player being
// served, are shuffled (deck.shuffled) into a new stub for the players still to draw."
//
// Six players, 30 cards dealt, 22 in the stub; each draws five. The first four take 20, the
// fifth gets the last 2, then the stub has run out: the new stub is the 20 discards of the first
// four (never his own five, nor a burned card), shuffled by its own machine shuffle; he gets his
// other 3 from it and the sixth his five. The engine, the audit and the replay follow it with no
// finding; a reshuffle that also gathers the served player's own discards is draw.procedure.
func TestOnlineDrawStubRunsOut(t *testing.T) {
	d := newStubHand(t)
	a := d.play(func(a rules.Advice) bool { return a.Step == rules.StepReshuffle })
	if a.Step != rules.StepReshuffle {
		t.Fatalf("the hand ended without the stub running out (%s)", a.Step)
	}
	_, h, err := rules.AdviseWith(d.evs, rules.Context{Seeds: d.seeds})
	if err != nil {
		t.Fatal(err)
	}
	served := h.Served()
	var own, others []cards.Card
	for _, e := range d.evs {
		if cd, ok := e.Data.(*events.CardsDiscarded); ok {
			if cd.Seat == served {
				own = append(own, cd.Cards...)
			} else {
				others = append(others, cd.Cards...)
			}
		}
	}
	if served == 0 || len(own) != 5 || len(others) != 20 || h.StubSet().Len() != 0 {
		t.Fatalf("served %d with %d own discards, %d others', %d cards in the stub; want the fifth drawer, 5, 20, 0", served, len(own), len(others), h.StubSet().Len())
	}
	if got, want := cards.SetOf(a.Cards...), cards.SetOf(others...); got != want {
		t.Fatalf("the advice reshuffles %v; want the others' discards %v", a.Cards, others)
	}

	// The right reshuffle, played to the end: no finding anywhere.
	right := *d
	right.evs = slices.Clone(d.evs)
	right.seeds = map[events.Seq]cards.Seed{}
	for k, v := range d.seeds {
		right.seeds[k] = v
	}
	reshuffleAt := events.Seq(len(right.evs) + 1)
	right.play(nil)
	var found []finding.Finding
	au := audit.New(func(f finding.Finding) { found = append(found, f) })
	for _, e := range right.evs {
		au.Add(e)
	}
	au.Close()
	for _, f := range found {
		t.Errorf("the audit finds %s", f.JSON())
	}
	// The replay: after the reshuffle and the 3 cards the fifth drawer took from it, a stub of
	// 17; at the end, the reshuffle's 20 gathered cards and the order its revealed seed gives.
	st, err := replay.At(right.evs, reshuffleAt+3)
	if err != nil {
		t.Fatal(err)
	}
	if st.Deck.StubCount != 17 {
		t.Errorf("the replay after the reshuffle shows %d cards in the stub; want 17", st.Deck.StubCount)
	}
	end, err := replay.At(right.evs, 0)
	if err != nil {
		t.Fatal(err)
	}
	if sh := end.Deck.Shuffles; len(sh) != 2 || sh[1].Seq != reshuffleAt || len(sh[1].Gathered) != 20 || !sh[1].Verified || len(sh[1].Order) != 20 {
		t.Errorf("the replay's shuffles %+v; want the reshuffle at %d of 20 cards, verified, its order known", sh, reshuffleAt)
	}

	// A reshuffle that gathers every discard, the served player's own too.
	wrong := *d
	wrong.evs = slices.Clone(d.evs)
	wrong.seeds = map[events.Seq]cards.Seed{}
	wrong.shuffle(append(slices.Clone(others), own...))
	hw, err := rules.NewHand(wrong.evs[0])
	if err != nil {
		t.Fatal(err)
	}
	var codes []finding.Code
	for _, e := range wrong.evs[1:] {
		for _, v := range hw.Apply(e) {
			codes = append(codes, v.Code)
		}
	}
	if !slices.Equal(codes, []finding.Code{finding.DrawProcedure}) {
		t.Errorf("a reshuffle of every discard gives %v; want one draw.procedure", codes)
	}
}

// events-v1.md §7 (2026-12-05), continuity: "a hand that broke a rule is one finding, and the next
// hand is judged from where that hand really left the table". A big blind posted out of its place
// (seat 4 where seat 3 was due: blind.amount in that hand) is where the rotation moves on from,
// with the small blind where it was posted; a later big blind in its place wins over a first one
// out of it.
func TestRotationMovesOnFromTheBlindsAsPosted(t *testing.T) {
	for _, c := range []struct {
		name    string
		blinds  []events.BlindPosted
		bb, sb  events.Seat
		finding bool
	}{
		{"in place", []events.BlindPosted{{Seat: 2, Amount: 5, Blind: events.BlindSmall}, {Seat: 3, Amount: 10, Blind: events.BlindBig}}, 3, 2, false},
		{"the big blind out of its place", []events.BlindPosted{{Seat: 2, Amount: 5, Blind: events.BlindSmall}, {Seat: 4, Amount: 10, Blind: events.BlindBig}}, 4, 2, true},
		{"a first big blind of nothing, then the real one in place", []events.BlindPosted{{Seat: 2, Amount: 5, Blind: events.BlindSmall}, {Seat: 2, Amount: 0, Blind: events.BlindBig}, {Seat: 3, Amount: 10, Blind: events.BlindBig}}, 3, 2, true},
	} {
		d := &stubHand{t: t, seeds: map[events.Seq]cards.Seed{}}
		hs := &events.HandStarted{Rules: events.Rules{Name: "online-draw"}, Number: 1, Dealer: 1, Stakes: events.Stakes{MinBet: 10}}
		for s := events.Seat(1); s <= 4; s++ {
			hs.Seats = append(hs.Seats, events.SeatStack{Seat: s, Player: fmt.Sprintf("p%d", s), Stack: 500})
		}
		d.emit(hs)
		d.shuffle(nil)
		d.emit(&events.DeckCut{At: 0})
		for i := range c.blinds {
			b := c.blinds[i]
			d.emit(&b)
		}
		h, err := rules.NewHand(d.evs[0])
		if err != nil {
			t.Fatal(err)
		}
		var found bool
		for _, e := range d.evs[1:] {
			for _, v := range h.Apply(e) {
				found = found || v.Code == finding.BlindAmount
			}
		}
		r := rules.Rotation{}.After(h)
		if r.LastBB != c.bb || r.LastSB != c.sb || found != c.finding {
			t.Errorf("%s: the rotation moves on from big blind %d, small blind %d (blind.amount %v); want %d, %d (%v)", c.name, r.LastBB, r.LastSB, found, c.bb, c.sb, c.finding)
		}
	}
}
