package sim

import (
	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/rules"
)

// available is how many cards the stub can give in the draw (std-draw never deals the bottom one).
func (g *game) available() int {
	if g.h.Preset.DrawSource == rules.DrawNeverBottom {
		return len(g.stub) - 1
	}
	return len(g.stub)
}

// refill reshuffles the cards the preset gathers when the stub has run out: the discards so far
// but the drawing player's own (presets.md online-draw, 2026-12-05; the simulator does the same
// in br-fechado, unless there are no others), plus the burned cards (tr-kapali) or the bottom
// card (std-draw).
func (g *game) refill(drawer events.Seat, own []cards.Card) {
	var set cards.Set
	for _, c := range g.stub {
		set = set.Add(c)
	}
	ownSet := cards.SetOf(own...)
	var others cards.Set
	for _, c := range g.discs {
		if !ownSet.Has(c) {
			others = others.Add(c)
		}
	}
	if others.Len() == 0 {
		others = cards.SetOf(g.discs...)
	}
	set |= others
	if g.h.Preset.DrawSource == rules.DrawTop {
		for _, c := range g.burned {
			set = set.Add(c)
		}
		g.burned = nil
	}
	var rest []cards.Card
	for _, c := range g.discs {
		if !set.Has(c) {
			rest = append(rest, c)
		}
	}
	g.discs = rest
	g.shuffle(set.Cards())
	if len(g.stub) >= 2 && g.s.rng.IntN(2) == 0 {
		g.cut()
	}
}

// top takes the next card for the draw, reshuffling first if the stub has run out.
func (g *game) top(drawer events.Seat, own []cards.Card) (cards.Card, bool) {
	if g.available() <= 0 {
		g.refill(drawer, own)
		if g.available() <= 0 {
			return 0, false
		}
	}
	return g.take(), true
}

func (g *game) burn(drawer events.Seat, own []cards.Card) (cards.Card, bool) {
	c, ok := g.top(drawer, own)
	if ok {
		g.burned = append(g.burned, c)
		g.emit(&events.CardBurned{Card: c})
	}
	return c, ok
}

func (g *game) give(s events.Seat, own []cards.Card) bool {
	c, ok := g.top(s, own)
	if ok {
		g.emit(&events.CardDealt{Seat: s, Card: c, Phase: events.PhaseDraw})
	}
	return ok
}

// draw plays the draw: every live player from the dealer's left discards and gets his cards as
// the preset deals them.
func (g *game) draw() {
	h := g.h
	pr := h.Preset
	if pr.DrawSource == rules.DrawReshuffle {
		// br-fechado: the stub and the folded players' cards, reshuffled before the first
		// replacement, and cut.
		set := cards.SetOf(g.stub...)
		for _, p := range h.Players {
			if p.Folded {
				set |= cards.SetOf(p.Cards...)
			}
		}
		g.shuffle(set.Cards())
		g.cut()
	}
	order := h.DrawOrder()
	plan := map[events.Seat][]cards.Card{}
	fives := false
	for _, s := range order {
		p := h.Player(s)
		d := discards(g.s.rng, g.styles[s], h.Eval, p.Cards, h.MaxDraw())
		if len(d) == 5 && pr.DelayedFifth && fives {
			// The engine follows one delayed fifth card per hand: a second five-card drawer
			// keeps his best card.
			sortByRank(d)
			d = d[:4]
		}
		plan[s] = d
		fives = fives || len(d) == 5
	}
	// An exposed card in the draw, where the preset has a remedy for it.
	exposeSeat := events.Seat(0)
	if pr.ExposedDraw == rules.RemedyBurnNext || (pr.ExposedDraw == rules.RemedyReplaceEnd && !fives) {
		if g.chance(g.rate() / 3) {
			var cands []events.Seat
			for _, s := range order {
				if n := len(plan[s]); n > 0 && n < 5 {
					cands = append(cands, s)
				}
			}
			if len(cands) > 0 {
				exposeSeat = cands[g.s.rng.IntN(len(cands))]
			}
		}
	}
	var delayed, owed events.Seat
	for i, s := range order {
		d := plan[s]
		g.emit(&events.CardsDiscarded{Seat: s, Cards: d})
		if pr.DrawSource == rules.DrawUnderStub {
			g.stub = append(g.stub, d...) // each discard goes under the stub
		} else {
			g.discs = append(g.discs, d...)
		}
		n := len(d)
		if n == 5 && pr.DelayedFifth {
			n = 4
			delayed = s
		}
		for k := 0; k < n; k++ {
			if s == exposeSeat && k == 0 {
				// The dealer turns a card over: burned, and the player gets another.
				c, ok := g.burn(s, d)
				if ok {
					seat := s
					g.exposed = true
					g.emit(&events.CardExposed{Card: c, Phase: events.PhaseDraw, Seat: &seat, Cause: events.CauseDealer})
					if pr.ExposedDraw == rules.RemedyReplaceEnd {
						owed = s
						continue
					}
				}
			}
			if pr.BurnBeforeFourth && len(d) == 4 && k == 3 {
				g.burn(s, d)
			}
			g.give(s, d)
		}
		if delayed == s && i == len(order)-1 {
			// Last to draw: the fifth card after a burn.
			g.burn(s, d)
			g.give(s, d)
			delayed = 0
		}
	}
	if delayed != 0 {
		g.give(delayed, nil)
	}
	if owed != 0 {
		g.give(owed, nil)
	}
}

// showdown shows the live hands from the last aggressor (or the dealer's left) round the table;
// a player beaten by a hand already shown, that competes for everything he does, may muck.
func (g *game) showdown() {
	h := g.h
	if h.InHand() < 2 {
		return
	}
	first := h.LastAggressor
	if first == 0 || h.Player(first).Folded {
		first = 0
	}
	order := g.fromLeft()
	if first != 0 {
		for i, p := range order {
			if p.Seat == first {
				order = append(order[i:], order[:i]...)
				break
			}
		}
	}
	var shown []*rules.Player
	for _, p := range order {
		if p.Folded {
			continue
		}
		if len(p.Cards) != 5 {
			g.emit(&events.HandMucked{Seat: p.Seat}) // a short hand cannot win
			continue
		}
		v := h.Eval.Eval([5]cards.Card(p.Cards))
		beaten := false
		for _, q := range shown {
			if q.Value > v && q.In >= p.In {
				beaten = true
			}
		}
		if beaten && p.Seat != h.Opener && g.s.rng.Float64() < 0.4 {
			g.emit(&events.HandMucked{Seat: p.Seat})
			continue
		}
		g.emit(&events.HandShown{Seat: p.Seat, Cards: append([]cards.Card(nil), p.Cards...)})
		shown = append(shown, p)
	}
}

// settle returns the uncalled excess, shows openers, pays the pots, reveals the seeds and ends
// the hand.
func (g *game) settle() {
	h := g.h
	if s, x := h.Excess(); x > 0 && h.InHand() > 0 {
		g.emit(&events.BetReturned{Seat: s, Amount: x})
	}
	pots, _ := h.ExpectedAwards()
	if o := h.Player(h.Opener); o != nil && o.Live() && h.Preset.MustShowOpeners && h.Preset.Openers != rules.OpenFree && len(h.OpenerCards) == 5 {
		g.emit(&events.OpenersShown{Seat: o.Seat, Cards: openers(h, h.OpenerCards)})
	}
	for _, pot := range pots {
		for _, w := range pot.Winners {
			if a := pot.Shares[w]; a > 0 {
				g.emit(&events.PotAwarded{Seat: w, Amount: a, Pot: pot.Index})
			}
		}
	}
	g.reveals()
	g.end(h.ExpectedCarry())
}

// openers returns the cards that make the open: the pairs, trips or quads, or all five cards.
func openers(h *rules.Hand, hand []cards.Card) []cards.Card {
	v := h.Eval.Eval([5]cards.Card(hand))
	switch v.Category() {
	case rules.Pair, rules.TwoPair, rules.Trips, rules.Quads:
		cnt := counts(hand)
		var out []cards.Card
		for _, c := range hand {
			if cnt[c.Rank()] >= 2 {
				out = append(out, c)
			}
		}
		return out
	}
	return append([]cards.Card(nil), hand...)
}

// reveals reveals the seed of every shuffle of the hand.
func (g *game) reveals() {
	for _, r := range g.seeds {
		g.emit(&events.DeckRevealed{Shuffle: r.seq, Seed: r.seed})
	}
}

func (g *game) end(carry events.Chips) {
	d := &events.HandEnded{Carry: carry}
	for _, p := range g.h.Players {
		d.Stacks = append(d.Stacks, events.SeatChips{Seat: p.Seat, Stack: p.Stack})
	}
	g.emit(d)
}
