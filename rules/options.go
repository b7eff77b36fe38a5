package rules

import (
	"errors"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
)

// Step is the kind of event a hand expects next: what a table console offers to record.
type Step string

// The steps of a hand, in the order presets.md plays them.
const (
	StepShuffle   Step = "shuffle"   // deck.shuffled: the first shuffle of the hand
	StepCut       Step = "cut"       // deck.cut
	StepAnte      Step = "ante"      // ante.posted by Seat, Amount
	StepBlind     Step = "blind"     // blind.posted by Seat, Amount, Blind
	StepDeal      Step = "deal"      // card.dealt of the deal to Seat
	StepMisdeal   Step = "misdeal"   // misdeal.declared: an exposed card calls for it
	StepAction    Step = "action"    // player.acted by Seat within Options
	StepPass      Step = "pass"      // hand.passed: nobody opened
	StepReshuffle Step = "reshuffle" // deck.shuffled of the gathered Cards
	StepDiscard   Step = "discard"   // cards.discarded by Seat, at most MaxDraw cards
	StepBurn      Step = "burn"      // card.burned before the next replacement
	StepDraw      Step = "draw"      // card.dealt of the draw to Seat
	StepShow      Step = "show"      // hand.shown (or hand.mucked) by Seat
	StepReturn    Step = "return"    // bet.returned of Amount to Seat
	StepOpeners   Step = "openers"   // openers.shown by Seat, the opener
	StepAward     Step = "award"     // pot.awarded of Amount from Pot to Seat
	StepReveal    Step = "reveal"    // deck.revealed of the machine shuffle at Shuffle
	StepEnd       Step = "end"       // hand.ended with Stacks and Carry
	StepDone      Step = "done"      // the hand has ended
)

// Advice is what a hand expects next and, for a player's action, the legal choices with their
// amounts: everything a console needs to offer only what the rules allow.
type Advice struct {
	Step   Step
	Seat   events.Seat
	Amount events.Chips
	Blind  events.BlindKind
	// Options are the legal actions when Step is StepAction.
	Options Options
	// MinOpen says in words what opens the pot (the opener's requirement, progressive by the
	// passed-out deals) when an action may open it.
	MinOpen string
	// MaxDraw is the most cards Seat may discard (StepDiscard); Draw the replacements he is
	// still owed (StepDraw).
	MaxDraw, Draw int
	// Cards are the gathered cards of a reshuffle, the opener's cards (StepOpeners), or the
	// cards Seat holds as far as the log says (StepDiscard, StepShow).
	Cards []cards.Card
	// Pot is the pot of an award (StepAward).
	Pot int
	// Pots are the pots the engine expects, with their winners and shares once known.
	Pots []Pot
	// Shuffle is the seq of the machine shuffle whose seed is to be revealed (StepReveal).
	Shuffle events.Seq
	// Stacks and Carry are hand.ended's fields (StepEnd).
	Stacks []events.SeatChips
	Carry  events.Chips
	// MisdealDue is set when an exposed card calls for a misdeal (presets.md, exposed cards).
	MisdealDue bool
	// Remedy is the preset's remedy for an exposed card that this step carries out: a reshuffle
	// and a new cut after a card shown in the cut (StepShuffle).
	Remedy Remedy
	// Declared is the preset's rule on a declared draw count (StepDiscard): whether a player
	// who announced a number may then draw fewer (presets.md "drawing").
	Declared Declared
	// Stage and Round place the hand; PotTotal is every chip in the middle.
	Stage    Stage
	Round    events.Round
	PotTotal events.Chips
}

// ErrNoHand is returned by Advise for events that do not begin with hand.started.
var ErrNoHand = errors.New("rules: a hand begins with hand.started")

// Advise replays a hand's events so far (from hand.started, in seq order) and returns what the
// hand expects next. It follows the same engine the auditor runs, so that an event recorded
// within the advice raises no violation. The replay is private to the call: Advise may move it
// into the next betting round to learn who speaks first and for how much.
func Advise(evs []*events.Event) (Advice, error) {
	a, _, err := AdviseWith(evs, Context{})
	return a, err
}

// Context is what the advice may know beyond a hand's events.
type Context struct {
	// Seeds are the seeds of the hand's machine shuffles, by the seq of their deck.shuffled: the
	// replay then knows the stub's order (Hand.Stub).
	Seeds map[events.Seq]cards.Seed
	// Blinds is where the table's rotation puts a blind game's blinds (Rotation.Place); the
	// zero value puts them left of the button.
	Blinds Blinds
}

// AdviseWith is Advise knowing ctx. It also returns the replay, to be read only: it may stand in
// the next betting round already.
func AdviseWith(evs []*events.Event, ctx Context) (Advice, *Hand, error) {
	if len(evs) == 0 {
		return Advice{}, nil, ErrNoHand
	}
	h, err := NewHand(evs[0])
	if err != nil {
		return Advice{}, nil, err
	}
	h.Seeds = ctx.Seeds
	var c counts
	for _, e := range evs[1:] {
		h.Apply(e)
		c.add(e)
	}
	c.blindsAt = ctx.Blinds
	a := h.advise(&c, evs[len(evs)-1].Seq+1)
	a.Stage, a.Round, a.PotTotal = h.Stage, h.Round, h.Pot()
	a.MisdealDue = h.misdealDue != 0
	return a, h, nil
}

// counts are what Advise learns of a hand from its event types rather than its state.
type counts struct {
	shuffles, cuts, antes, blinds, deal, acts int
	first, second, passed, misdeal, ended     bool
	// uncut: the deck was shuffled whole since its last cut; blindRound: an action of round
	// blind (br-online) was recorded.
	uncut, blindRound             bool
	blindBy                       map[events.Seat]int // blinds posted, by seat
	blindsAt                      Blinds
	reshuffledForDraw, cutForDraw bool
	machine                       []events.Seq // machine shuffles
	revealed                      map[events.Seq]bool
	lastType                      events.Type
}

func (c *counts) add(e *events.Event) {
	c.lastType = e.Type
	switch d := e.Data.(type) {
	case *events.DeckShuffled:
		c.shuffles++
		if d.Cards != nil && !c.second {
			c.reshuffledForDraw = true
		}
		if d.Method == cards.ShuffleMethod {
			c.machine = append(c.machine, e.Seq)
		}
		if d.Cards == nil {
			c.uncut = true
		}
	case *events.DeckCut:
		c.cuts++
		c.uncut = false
		if c.reshuffledForDraw {
			c.cutForDraw = true
		}
	case *events.AntePosted:
		c.antes++
	case *events.BlindPosted:
		c.blinds++
		if c.blindBy == nil {
			c.blindBy = map[events.Seat]int{}
		}
		c.blindBy[d.Seat]++
	case *events.CardDealt:
		if d.Phase == events.PhaseDeal {
			c.deal++
		}
	case *events.PlayerActed:
		c.acts++
		c.first = c.first || d.Round == events.RoundFirst
		c.second = c.second || d.Round == events.RoundSecond
		c.blindRound = c.blindRound || d.Round == events.RoundBlind
	case *events.HandPassed:
		c.passed = true
	case *events.MisdealDeclared:
		c.misdeal = true
	case *events.DeckRevealed:
		if c.revealed == nil {
			c.revealed = map[events.Seq]bool{}
		}
		c.revealed[d.Shuffle] = true
	case *events.HandEnded:
		c.ended = true
	}
}

// fromLeft returns the players clockwise from the dealer's left.
func (h *Hand) fromLeft() []*Player {
	out := make([]*Player, 0, len(h.Players))
	i := h.dealFirst
	for k := range h.Players {
		out = append(out, h.Players[(i+k)%len(h.Players)])
	}
	return out
}

func (h *Hand) advise(c *counts, next events.Seq) Advice {
	if c.ended {
		return Advice{Step: StepDone}
	}
	st := h.Start.Stakes
	switch {
	case c.misdeal:
		for _, p := range h.Players {
			if p.In > 0 {
				return Advice{Step: StepReturn, Seat: p.Seat, Amount: p.In}
			}
		}
		return h.finish(c, h.Carry)
	case c.passed:
		return h.finish(c, h.Pot())
	case h.misdealDue != 0:
		// presets.md exposed cards: one of the first two cards of the deal, or a second one.
		return Advice{Step: StepMisdeal}
	case c.shuffles == 0:
		return Advice{Step: StepShuffle}
	case h.Stage == StageSetup && h.cutExposed && h.Preset.ExposedCut == RemedyReshuffle:
		// presets.md exposed cards "in the cut": reshuffle and cut again before the deal.
		return Advice{Step: StepShuffle, Remedy: RemedyReshuffle}
	case c.uncut:
		return Advice{Step: StepCut}
	}
	if h.Stage == StageSetup {
		if h.Preset.Ante {
			for _, p := range h.fromLeft() {
				if p.Antes == 0 && p.Stack > 0 && st.Ante > 0 {
					return Advice{Step: StepAnte, Seat: p.Seat, Amount: min(st.Ante, p.Stack)}
				}
			}
		}
		if h.Preset.Blinds {
			if a, ok := h.adviseBlinds(c.blindsAt, c.blindBy); ok {
				return a
			}
		}
	}
	if h.Preset.BlindRound && c.deal == 0 {
		// presets.md br-online "forced bets": a betting round before any card; the first player
		// bets at least min_bet or folds. Everybody else folding ends the hand before the deal.
		if !c.blindRound {
			h.enterRound(next, events.RoundBlind)
		}
		if h.Stage == StageBetting && h.Round == events.RoundBlind {
			if o, ok := h.Options(); ok {
				return h.action(o)
			}
		}
		if h.InHand() < 2 {
			return h.settle(c)
		}
	}
	n := len(h.Players)
	if c.deal < 5*n {
		return Advice{Step: StepDeal, Seat: h.dealSeat(c.deal)}
	}
	if !c.first {
		h.enterRound(next, events.RoundFirst)
	}
	if h.Stage == StageBetting && h.Round == events.RoundFirst {
		if o, ok := h.Options(); ok {
			return h.action(o)
		}
		switch {
		case h.InHand() < 2:
			return h.settle(c)
		case h.Passes():
			return Advice{Step: StepPass}
		}
	}
	if h.Stage <= StageDraw && h.Round != events.RoundSecond {
		if a, ok := h.adviseDraw(c); ok {
			return a
		}
	}
	if !c.second && h.Stage < StageShowdown {
		h.enterRound(next, events.RoundSecond)
	}
	if h.Stage == StageBetting {
		if o, ok := h.Options(); ok {
			return h.action(o)
		}
	}
	if h.InHand() >= 2 {
		for _, p := range h.showOrder() {
			if p.Live() && !p.Shown {
				return Advice{Step: StepShow, Seat: p.Seat, Cards: append([]cards.Card(nil), p.Cards...)}
			}
		}
	}
	return h.settle(c)
}

func (h *Hand) action(o Options) Advice {
	if o.Opening && h.Preset.Openers != OpenFree && o.Round == events.RoundFirst {
		// Only a player holding openers may open; with his cards unknown the console shows the
		// requirement and leaves the judgement to the dealer.
		if p := h.Player(o.Seat); len(p.Cards) == 5 && !h.Qualifies(h.Eval.Eval([5]cards.Card(p.Cards))) {
			o.Bet, o.MinBet, o.MaxBet = false, 0, 0
		}
	}
	a := Advice{Step: StepAction, Seat: o.Seat, Options: o}
	if o.Opening && h.Preset.Openers != OpenFree {
		a.MinOpen = h.Preset.DescribeMinOpen(h.Start.PassedOut)
	}
	return a
}

// showOrder is the showdown order: from the last aggressor (or the dealer's left) clockwise.
func (h *Hand) showOrder() []*Player {
	order := h.fromLeft()
	if p := h.Player(h.LastAggressor); p != nil && p.Live() {
		for i, q := range order {
			if q.Seat == p.Seat {
				return append(order[i:], order[:i]...)
			}
		}
	}
	return order
}

// adviseDraw returns the next step of the draw; false once the draw is over.
func (h *Hand) adviseDraw(c *counts) (Advice, bool) {
	if h.Preset.DrawSource == DrawReshuffle && !c.reshuffledForDraw {
		// presets.md br-fechado "cards for the draw": the stub and the folded players' cards.
		want := h.stub
		for cd := cards.Card(0); cd < cards.NumCards; cd++ {
			if h.loc[cd] == inMuck || (h.loc[cd] == inHand && h.Player(h.holder(cd)).Folded) {
				want = want.Add(cd)
			}
		}
		return Advice{Step: StepReshuffle, Cards: want.Cards()}, true
	}
	if h.Preset.DrawSource == DrawReshuffle && !c.cutForDraw {
		return Advice{Step: StepCut}, true
	}
	give := func(s events.Seat, burn bool, owed int) (Advice, bool) {
		avail := h.stub.Len()
		if h.Preset.DrawSource == DrawNeverBottom {
			avail--
		}
		if avail <= 0 {
			return Advice{Step: StepReshuffle, Cards: h.gatherDiscards().Cards()}, true
		}
		if burn && h.lastBurn != h.seq {
			return Advice{Step: StepBurn, Seat: s}, true
		}
		return Advice{Step: StepDraw, Seat: s, Draw: owed}, true
	}
	if p := h.Player(h.drawer); p != nil && p.Pending > 0 {
		burn := h.Preset.BurnBeforeFourth && p.Discards == 4 && p.Pending == 1
		return give(p.Seat, burn, p.Pending)
	}
	if s := h.NextToDraw(); s != 0 {
		return Advice{Step: StepDiscard, Seat: s, MaxDraw: h.Preset.MaxDraw, Declared: h.Preset.Declared,
			Cards: append([]cards.Card(nil), h.Player(s).Cards...)}, true
	}
	order, n := h.drawSeats()
	for _, o := range order[:n] {
		s := events.Seat(o)
		if h.delayed[s] && h.othersDone(s) {
			return give(s, true, 1)
		}
		if h.owedLater[s] > 0 && h.othersDone(s) {
			return give(s, false, int(h.owedLater[s]))
		}
	}
	return Advice{}, false
}

// gatherDiscards returns the cards a reshuffle gathers when the stub runs out in the draw: the
// discards, with the burned cards (tr-kapali) or the bottom card (std-draw); in online-draw the
// discards but those of the player being served (presets.md, 2026-12-05).
func (h *Hand) gatherDiscards() cards.Set {
	var set cards.Set
	served := h.Served()
	for cd := cards.Card(0); cd < cards.NumCards; cd++ {
		switch h.loc[cd] {
		case inDiscards:
			if h.Preset.DrawSource == DrawTopOthers && served != 0 && h.holder(cd) == served {
				continue // his own discards stay out of his new cards
			}
			set = set.Add(cd)
		case inBurned:
			if h.Preset.DrawSource == DrawTop {
				set = set.Add(cd)
			}
		}
	}
	if h.Preset.DrawSource == DrawNeverBottom {
		set |= h.stub
	}
	return set & h.deck
}

// settle returns the unmatched excess, asks the opener for his openers, pays the pots the engine
// expects, reveals the seeds and ends the hand.
func (h *Hand) settle(c *counts) Advice {
	if !h.awardsStarted {
		if s, x := h.Excess(); x > 0 && h.InHand() > 0 {
			return Advice{Step: StepReturn, Seat: s, Amount: x}
		}
	}
	pots, ok := h.ExpectedAwards()
	if o := h.Player(h.Opener); o != nil && o.Live() && h.Preset.MustShowOpeners && h.Preset.Openers != OpenFree &&
		len(h.OpenerCards) == 5 && !h.OpenersShown && !h.awardsStarted {
		return Advice{Step: StepOpeners, Seat: o.Seat, Cards: append([]cards.Card(nil), h.OpenerCards...), Pots: pots}
	}
	if ok {
		var paid [events.MaxSeat + 1][8]events.Chips
		for _, aw := range h.Awards {
			if aw.Seat >= 1 && aw.Seat <= events.MaxSeat && aw.Pot >= 0 && aw.Pot < 8 {
				paid[aw.Seat][aw.Pot] += aw.Amount
			}
		}
		for _, pot := range pots {
			for _, w := range pot.Winners {
				if sh := pot.Shares[w]; sh > 0 && pot.Index < 8 && paid[w][pot.Index] < sh {
					return Advice{Step: StepAward, Seat: w, Amount: sh - paid[w][pot.Index], Pot: pot.Index, Pots: pots}
				}
			}
		}
	}
	a := h.finish(c, h.ExpectedCarry())
	a.Pots = pots
	return a
}

// finish reveals the machine shuffles' seeds, then ends the hand with the stacks the events
// leave and carry.
func (h *Hand) finish(c *counts, carry events.Chips) Advice {
	for _, s := range c.machine {
		if !c.revealed[s] {
			return Advice{Step: StepReveal, Shuffle: s}
		}
	}
	a := Advice{Step: StepEnd, Carry: carry}
	for _, p := range h.Players {
		a.Stacks = append(a.Stacks, events.SeatChips{Seat: p.Seat, Stack: p.Stack})
	}
	return a
}
