package sim

import (
	"fmt"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/rules"
)

// game is one hand being played: the events so far, the rules engine that follows them, and the
// cards in the dealer's hands.
type game struct {
	s *Sim
	h *rules.Hand
	// sb and bb are the seats of the blinds in blind games (sb 0: a dead small blind).
	sb, bb events.Seat
	hand   string
	evs    []*events.Event
	prev   string
	stub   []cards.Card // top first
	seeds  []reveal
	discs  []cards.Card // discarded so far, not yet reshuffled
	burned []cards.Card // burned so far, not yet reshuffled
	styles map[events.Seat]Style

	exposed  bool // a card.exposed was written
	misdealt bool
	// problems lists the rule violations the engine reported while the hand was played: a
	// clean hand has none but card.exposed.
	problems []rules.Violation
}

type reveal struct {
	seq  events.Seq
	seed cards.Seed
}

// emit writes the next event of the hand and feeds it to the engine.
func (g *game) emit(d events.Data) *events.Event {
	e := &events.Event{ID: g.s.newID(), Table: g.s.cfg.Table, Hand: g.hand, Seq: events.Seq(len(g.evs) + 1),
		At: g.s.tick(), Type: d.EventType(), Data: d}
	events.Seal(e, g.prev)
	g.prev = events.Hash(e.Raw)
	g.evs = append(g.evs, e)
	if g.h != nil {
		g.problems = append(g.problems, g.h.Apply(e)...)
	}
	return e
}

func (g *game) nextSeq() events.Seq { return events.Seq(len(g.evs) + 1) }

// play plays one hand with the seats dealt in, clean: the dealer and the players follow the
// rules (every injected irregularity is a mutation of the finished hand, inject.go).
func (s *Sim) play(dealt []*seat) (*game, error) {
	s.number++
	g := &game{s: s, hand: s.newID(), styles: map[events.Seat]Style{}}
	var seats []events.Seat
	hs := &events.HandStarted{Rules: events.Rules{Name: s.preset.Name}, Number: s.number, Stakes: s.stakes,
		Carry: s.carry, PassedOut: s.passedOut}
	for _, p := range dealt {
		seats = append(seats, p.seat)
		ss := events.SeatStack{Seat: p.seat, Player: p.name, Stack: p.stack + p.rebuy}
		if r := p.rebuy; r > 0 {
			ss.Rebuy = &r
		}
		ss.Joined, ss.From = p.joined, p.from
		hs.Seats = append(hs.Seats, ss)
		g.styles[p.seat] = p.style
	}
	hs.Away, hs.Left = s.awayList(), s.left
	hs.Dealer = s.nextDealer(seats)
	if s.preset.Blinds {
		hs.Dealer, g.sb, g.bb = s.blinds(seats, hs.Dealer)
	}
	if s.prevHand != "" {
		prev := s.prevHand
		hs.Previous = &prev
	}
	if s.tour != nil {
		tr := *s.tour
		hs.Tournament = &tr
	}
	if s.passed {
		hs.PassedOut = s.passedOut + 1
	} else if !s.misdeal {
		hs.PassedOut = 0
	}
	if !s.preset.PassedOutAllowed {
		hs.PassedOut = 0
	}
	start := g.emit(hs)
	h, err := rules.NewHand(start)
	if err != nil {
		return nil, fmt.Errorf("sim: the engine rejects hand %d: %w", s.number, err)
	}
	h.Seeds = map[events.Seq]cards.Seed{}
	g.h = h
	g.run()
	return g, nil
}

// run plays the hand from the shuffle to hand.ended.
func (g *game) run() {
	g.shuffleAndCut()
	g.forcedBets()
	if g.h.Preset.BlindRound {
		g.betting(events.RoundBlind)
	}
	if !g.deal() {
		g.settleMisdeal()
		return
	}
	g.betting(events.RoundFirst)
	switch {
	case g.h.InHand() < 2:
		g.settle()
		return
	case g.h.Passes():
		g.emit(&events.HandPassed{})
		g.reveals()
		g.end(g.h.Pot())
		return
	}
	g.draw()
	g.betting(events.RoundSecond)
	g.showdown()
	g.settle()
}

func (g *game) rate() float64 { return g.s.cfg.ExposeRate }

func (g *game) chance(p float64) bool { return p > 0 && g.s.rng.Float64() < p }

// shuffle writes a machine shuffle of in (canonical order; nil = the whole deck) and puts the
// cards in the stub.
func (g *game) shuffle(in []cards.Card) {
	seed := g.s.newSeed()
	seq := g.nextSeq()
	g.h.Seeds[seq] = seed
	g.seeds = append(g.seeds, reveal{seq, seed})
	d := &events.DeckShuffled{Method: cards.ShuffleMethod, Commitment: seed.Commitment()}
	if in != nil {
		d.Cards = in
		g.stub = cards.Shuffle(seed, in)
	} else {
		g.stub = cards.Shuffle(seed, cards.Deck(g.h.Low))
	}
	g.emit(d)
}

// cut cuts the stub, by the player to the dealer's right.
func (g *game) cut() {
	n := len(g.stub)
	if n < 2 {
		return
	}
	k := 1 + g.s.rng.IntN(n-1)
	by := rules.PrevSeat(g.seatList(), g.h.Start.Dealer)
	g.stub, _ = cards.Cut(g.stub, k)
	g.emit(&events.DeckCut{At: k, By: &by})
}

func (g *game) seatList() []events.Seat {
	var out []events.Seat
	for _, p := range g.h.Players {
		out = append(out, p.Seat)
	}
	return out
}

func (g *game) shuffleAndCut() {
	g.shuffle(nil)
	if g.h.Preset.ExposedCut == rules.RemedyReshuffle && g.chance(g.rate()/3) {
		// A card shows in the cut: reshuffle and cut again.
		by := rules.PrevSeat(g.seatList(), g.h.Start.Dealer)
		c := g.stub[g.s.rng.IntN(len(g.stub))]
		g.exposed = true
		g.emit(&events.CardExposed{Card: c, Phase: events.PhaseCut, Seat: &by, Cause: events.CausePlayer})
		g.shuffle(nil)
	}
	g.cut()
}

// fromLeft returns the players from the dealer's left, clockwise.
func (g *game) fromLeft() []*rules.Player {
	ps := g.h.Players
	start := 0
	for i, p := range ps {
		if p.Seat > g.h.Start.Dealer {
			start = i
			break
		}
		if i == len(ps)-1 {
			start = 0
		}
	}
	out := make([]*rules.Player, 0, len(ps))
	for i := range ps {
		out = append(out, ps[(start+i)%len(ps)])
	}
	return out
}

func (g *game) forcedBets() {
	st := g.h.Start.Stakes
	if g.h.Preset.Ante {
		for _, p := range g.fromLeft() {
			if a := min(st.Ante, p.Stack); a > 0 {
				g.emit(&events.AntePosted{Seat: p.Seat, Amount: a})
			}
		}
	}
	if g.h.Preset.Blinds {
		sb, bb := g.blindSeats()
		g.s.placedBB, g.s.placedSB = bb, sb // what the rotation moves on from
		if sb != 0 {
			g.emit(&events.BlindPosted{Seat: sb, Amount: min(g.s.cfg.SmallBlind, g.h.Player(sb).Stack), Blind: events.BlindSmall})
		}
		g.emit(&events.BlindPosted{Seat: bb, Amount: min(st.MinBet, g.h.Player(bb).Stack), Blind: events.BlindBig})
	}
}

// blindSeats returns the seats of the blinds: where the table's rotation put them (Sim.blinds),
// else presets.md online-draw: the blinds left of the button; heads-up the button is the small
// blind. A small blind of 0 is dead: nobody posts it.
func (g *game) blindSeats() (events.Seat, events.Seat) {
	if g.bb != 0 {
		return g.sb, g.bb
	}
	seats := g.seatList()
	d := g.h.Start.Dealer
	if len(seats) == 2 {
		return d, rules.NextSeat(seats, d)
	}
	sb := rules.NextSeat(seats, d)
	return sb, rules.NextSeat(seats, sb)
}

// take takes the top card of the stub.
func (g *game) take() cards.Card {
	c := g.stub[0]
	g.stub = g.stub[1:]
	return c
}

// deal deals five cards to every player one at a time from the dealer's left. It returns false
// when an exposed card calls for a misdeal.
func (g *game) deal() bool {
	order := g.fromLeft()
	n := 5 * len(order)
	expose, second := -1, -1
	if g.h.Preset.ExposedDeal == rules.RemedyKeep && g.chance(g.rate()/3) {
		expose = g.s.rng.IntN(n)
		if g.chance(0.15) && expose < n-1 {
			second = expose + 1 + g.s.rng.IntN(n-expose-1)
		}
	}
	for i := 0; i < n; i++ {
		p := order[i%len(order)]
		c := g.take()
		g.emit(&events.CardDealt{Seat: p.Seat, Card: c, Phase: events.PhaseDeal})
		if i == expose || i == second {
			s := p.Seat
			g.exposed = true
			g.emit(&events.CardExposed{Card: c, Phase: events.PhaseDeal, Seat: &s, Cause: events.CauseDealer})
			if i < 2 || i == second {
				g.emit(&events.MisdealDeclared{Reason: fmt.Sprintf("%v exposed in the deal", c)})
				return false
			}
		}
	}
	return true
}

// settleMisdeal returns every chip put in and ends the void hand.
func (g *game) settleMisdeal() {
	g.misdealt = true
	for _, p := range g.h.Players {
		if p.In > 0 {
			g.emit(&events.BetReturned{Seat: p.Seat, Amount: p.In})
		}
	}
	g.reveals()
	g.end(g.h.Carry)
}

// canAct mirrors the engine: a player still in the betting.
func canAct(p *rules.Player) bool { return !p.Folded && !p.AllIn && !p.Mucked }

// starter returns who speaks first in round r, as presets.md says.
func (g *game) starter(r events.Round) events.Seat {
	h := g.h
	seats := g.seatList()
	left := func(s events.Seat, self bool) events.Seat {
		if self {
			if p := h.Player(s); p != nil && canAct(p) {
				return s
			}
		}
		x := s
		for range seats {
			x = rules.NextSeat(seats, x)
			if canAct(h.Player(x)) {
				return x
			}
		}
		return 0
	}
	d := h.Start.Dealer
	switch {
	case r == events.RoundFirst && h.Preset.Blinds:
		_, bb := g.blindSeats()
		return left(bb, false)
	case r != events.RoundSecond:
		return left(d, false)
	}
	switch h.Preset.SecondStarter {
	case rules.StartLastRaiser:
		s := h.LastRaiserFirst
		if s == 0 {
			s = h.Opener
		}
		if s != 0 {
			return left(s, true)
		}
	case rules.StartOpener:
		if h.Opener != 0 {
			return left(h.Opener, true)
		}
	}
	return left(d, false)
}

// firstOptions are the options of the round's first player, before the engine has entered the
// round (it does so on the round's first action).
func (g *game) firstOptions(r events.Round) (rules.Options, bool) {
	h := g.h
	var o rules.Options
	if h.InHand() < 2 {
		return o, false
	}
	keep := r == events.RoundFirst && h.Preset.Blinds
	cur := events.Chips(0)
	lastInc := events.Chips(0)
	if keep {
		cur, lastInc = h.CurrentBet, h.LastIncrement
	}
	active := 0
	for _, p := range h.Players {
		if canAct(p) {
			active++
		}
	}
	s := g.starter(r)
	if s == 0 {
		return o, false
	}
	p := h.Player(s)
	roundIn := events.Chips(0)
	if keep {
		roundIn = p.RoundIn
	}
	owed := cur - roundIn
	if active < 2 && owed <= 0 {
		return o, false
	}
	st := h.Start.Stakes
	o.Seat, o.Round = s, r
	if owed <= 0 {
		o.Check = h.Preset.CheckBeforeOpen
	} else {
		o.Call = min(owed, p.Stack)
	}
	if cur == 0 {
		o.Opening = h.Opener == 0 && (r == events.RoundFirst || r == events.RoundBlind)
		var lo, hi events.Chips
		switch h.Preset.Structure {
		case rules.FixedLimit:
			lo, hi = h.BetSize(r), h.BetSize(r)
		case rules.Spread:
			lo, hi = st.MinBet, st.MaxBet
			if hi == 0 {
				hi = p.Stack
			}
		case rules.PotLimit:
			lo, hi = st.MinBet, h.Pot()
		default:
			lo, hi = st.MinBet, p.Stack
			if h.Preset.OpenAtLeastPot && o.Opening && h.Pot() > lo {
				lo = h.Pot()
			}
		}
		hi, lo = min(hi, p.Stack), min(lo, p.Stack)
		lo = max(lo, 1)
		if lo <= hi && (!o.Opening || !(h.Preset.BrokeCannotOpen && p.Start == 0)) {
			o.Bet, o.MinBet, o.MaxBet = true, lo, hi
		}
		return o, true
	}
	if owed < p.Stack {
		inc := max(st.MinBet, lastInc)
		if h.Preset.Structure == rules.FixedLimit {
			inc = h.BetSize(r)
		} else if h.Preset.RaiseByMinBet {
			inc = st.MinBet
		}
		lo, hi := owed+inc, p.Stack
		switch h.Preset.Structure {
		case rules.FixedLimit:
			hi = owed + inc
		case rules.Spread:
			if m := st.MaxBet; m > 0 && owed+m < hi {
				hi = owed + m
			}
		case rules.PotLimit:
			if m := owed + h.Pot() + owed; m < hi {
				hi = m
			}
		}
		hi, lo = min(hi, p.Stack), min(lo, p.Stack)
		if lo <= hi {
			o.Raise, o.MinRaise, o.MaxRaise = true, lo, hi
		}
	}
	return o, true
}

// qualifies reports whether the cards may open under the hand's openers rule.
func (g *game) qualifies(hand []cards.Card) bool {
	h := g.h
	if len(hand) != 5 {
		return false
	}
	if h.Preset.Openers == rules.OpenFree {
		return true
	}
	return h.Qualifies(h.Eval.Eval([5]cards.Card(hand)))
}

// betting plays round r to its end.
func (g *game) betting(r events.Round) {
	o, ok := g.firstOptions(r)
	for ok {
		g.act(o, r)
		o, ok = g.h.Options()
	}
}

func (g *game) act(o rules.Options, r events.Round) {
	h := g.h
	p := h.Player(o.Seat)
	var str float64
	if r == events.RoundBlind {
		str = 0.3 + 0.4*g.s.rng.Float64() // no cards yet
	} else {
		str = strength(h.Eval, p.Cards, r == events.RoundFirst, h.Low)
	}
	d := decide(g.s.rng, g.styles[o.Seat], o, str, g.qualifies(p.Cards), h.Pot(), p.Stack)
	if r == events.RoundBlind && d.action == events.Fold {
		// Someone must call the blind round's bet: the last player to speak does not fold to it.
		callers := 0
		for _, q := range h.Players {
			if q.Seat != o.Seat && !q.Folded && q.RoundIn > 0 && q.RoundIn >= h.CurrentBet && q.Seat != h.Opener {
				callers++
			}
		}
		open := 0
		for _, q := range h.Players {
			if !q.Folded && q.Seat != o.Seat && (!q.Acted) {
				open++
			}
		}
		if callers == 0 && open == 0 && o.Call > 0 {
			d = decision{events.Call, o.Call}
		}
	}
	if r == events.RoundBlind && o.Opening && d.action != events.Bet {
		d = decision{events.Bet, o.MinBet} // the round's starter bets the blind
	}
	if g.s.collude != nil {
		d = g.s.collude.act(g, o, r, p, str, d)
	}
	g.emit(&events.PlayerActed{Seat: o.Seat, Round: r, Action: d.action, Amount: d.amount})
}
