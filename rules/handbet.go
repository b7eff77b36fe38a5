package rules

import (
	"fmt"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
)

// BetSize is the fixed bet of a round in fixed limit: min_bet before the draw, max_bet after.
func (h *Hand) BetSize(r events.Round) events.Chips {
	if r == events.RoundSecond {
		return h.Start.Stakes.MaxBet
	}
	return h.Start.Stakes.MinBet
}

// starter returns who speaks first in round r (0 when nobody can act).
func (h *Hand) starter(r events.Round) events.Seat {
	d := h.Start.Dealer
	switch {
	case r == events.RoundFirst && h.Preset.Blinds:
		bb := h.BigBlind
		if bb == 0 {
			_, bb = h.blindSeats()
		}
		return h.leftOf(bb, canAct)
	case r != events.RoundSecond:
		return h.leftOf(d, canAct)
	}
	switch h.Preset.SecondStarter {
	case StartLastRaiser:
		s := h.LastRaiserFirst
		if s == 0 {
			s = h.Opener
		}
		if s != 0 {
			return h.atOrLeftOf(s, canAct)
		}
	case StartOpener:
		if h.Opener != 0 {
			return h.atOrLeftOf(h.Opener, canAct)
		}
	}
	return h.leftOf(d, canAct)
}

// enterRound moves the hand into betting round r when an action of r arrives.
func (h *Hand) enterRound(seq events.Seq, r events.Round) {
	if h.Stage == StageBetting && h.Round == r {
		return
	}
	if h.Stage == StageBetting && !h.RoundDone {
		h.once(finding.BetRoundIncomplete, seq, h.turn, fmt.Sprintf("round %s closed while seat %d still had to act", h.Round, h.turn), nil, nil)
	}
	switch r {
	case events.RoundBlind:
		if !h.Preset.BlindRound {
			h.violate(finding.BetIllegalAction, seq, 0, fmt.Sprintf("%s has no blind betting round", h.Preset.Name), nil, r)
		}
	case events.RoundFirst:
		if h.Stage < StageDeal {
			h.endSetup(seq)
		}
		if h.misdealDue != 0 {
			h.violate(finding.CardExposedRemedy, seq, 0, "a card exposed among the first two of the deal (or a second exposed card) calls for a misdeal", "misdeal", "play went on")
			h.misdealDue = 0
		}
		for _, p := range h.Players {
			if !p.Folded && p.Held() != 5 {
				h.once(finding.DealCount, seq, p.Seat, fmt.Sprintf("seat %d holds %d cards when betting starts", p.Seat, p.Held()), 5, p.Held())
			}
		}
	case events.RoundSecond:
		h.finishDraw(seq)
	}
	h.Stage = StageBetting
	h.Round = r
	h.RoundDone = false
	h.Raises = 0
	keepBlinds := r == events.RoundFirst && h.Preset.Blinds
	if !keepBlinds {
		h.CurrentBet = 0
		h.LastIncrement = 0
	}
	for _, p := range h.Players {
		p.Acted = false
		if !keepBlinds {
			p.RoundIn = 0
		}
	}
	h.turn = h.starter(r)
	h.RoundDone = h.roundComplete()
}

// closeBetting ends the betting when an event of a later stage arrives.
func (h *Hand) closeBetting(seq events.Seq) {
	if h.Stage == StageBetting && !h.RoundDone {
		h.once(finding.BetRoundIncomplete, seq, h.turn, fmt.Sprintf("round %s closed while seat %d still had to act", h.Round, h.turn), nil, nil)
		h.RoundDone = true
	}
	if h.Stage == StageDraw {
		h.finishDraw(seq)
	}
	if h.Stage < StageShowdown {
		h.Stage = StageShowdown
	}
}

// Options are what the player to act may do, and for how many chips.
type Options struct {
	Seat  events.Seat
	Round events.Round
	Check bool
	// Call is the chips a call puts in (0 when there is nothing to call).
	Call events.Chips
	// Bet: he may bet from MinBet to MaxBet chips; Raise: raise, putting in MinRaise to MaxRaise.
	Bet                bool
	MinBet, MaxBet     events.Chips
	Raise              bool
	MinRaise, MaxRaise events.Chips
	// Opening is set when a bet would open the pot (openers rules apply).
	Opening bool
}

// Options returns the legal actions of the player whose turn it is; ok is false when nobody is
// to act.
func (h *Hand) Options() (o Options, ok bool) {
	s := h.Turn()
	if s == 0 {
		return o, false
	}
	p := h.Player(s)
	o.Seat, o.Round = s, h.Round
	owed := h.CurrentBet - p.RoundIn
	if owed <= 0 {
		o.Check = h.Preset.CheckBeforeOpen
	} else {
		o.Call = min(owed, p.Stack)
	}
	if h.CurrentBet == 0 {
		o.Opening = h.Opener == 0 && (h.Round == events.RoundFirst || h.Round == events.RoundBlind)
		lo, hi := h.betLimits(p, o.Opening)
		if lo <= hi && (!o.Opening || !(h.Preset.BrokeCannotOpen && p.Start == 0)) {
			o.Bet, o.MinBet, o.MaxBet = true, lo, hi
		}
		return o, true
	}
	if owed < p.Stack && !(p.Acted && p.Seen == h.Reopen) && !h.capped() {
		lo, hi := h.raiseLimits(p)
		if lo <= hi {
			o.Raise, o.MinRaise, o.MaxRaise = true, lo, hi
		}
	}
	return o, true
}

func (h *Hand) capped() bool {
	return h.Preset.Structure == FixedLimit && h.Preset.RaiseCap > 0 && h.Raises >= h.Preset.RaiseCap && h.InHand() >= 3
}

// betLimits returns the chips a bet may put in (all-in below the minimum is always allowed).
func (h *Hand) betLimits(p *Player, opening bool) (lo, hi events.Chips) {
	st := h.Start.Stakes
	switch h.Preset.Structure {
	case FixedLimit:
		lo, hi = h.BetSize(h.Round), h.BetSize(h.Round)
	case Spread:
		lo, hi = st.MinBet, st.MaxBet
		if hi == 0 {
			hi = p.Stack
		}
	case PotLimit:
		lo, hi = st.MinBet, h.Pot()
	default:
		lo, hi = st.MinBet, p.Stack
		if h.Preset.OpenAtLeastPot && opening && h.Pot() > lo {
			lo = h.Pot()
		}
	}
	if hi > p.Stack {
		hi = p.Stack
	}
	if lo > p.Stack {
		lo = p.Stack
	}
	if lo < 1 {
		lo = 1
	}
	return lo, hi
}

// fullRaise is the smallest increment that re-opens the betting.
func (h *Hand) fullRaise() events.Chips {
	st := h.Start.Stakes
	switch {
	case h.Preset.Structure == FixedLimit:
		return h.BetSize(h.Round)
	case h.Preset.RaiseByMinBet:
		return st.MinBet
	}
	return max(st.MinBet, h.LastIncrement)
}

// raiseLimits returns the chips a raise may put in, the call included.
func (h *Hand) raiseLimits(p *Player) (lo, hi events.Chips) {
	owed := h.CurrentBet - p.RoundIn
	inc := h.fullRaise()
	lo, hi = owed+inc, p.Stack
	switch h.Preset.Structure {
	case FixedLimit:
		hi = owed + inc
	case Spread:
		if m := h.Start.Stakes.MaxBet; m > 0 && owed+m < hi {
			hi = owed + m
		}
	case PotLimit:
		if m := owed + h.Pot() + owed; m < hi {
			hi = m
		}
	}
	if hi > p.Stack {
		hi = p.Stack
	}
	if lo > p.Stack {
		lo = p.Stack
	}
	return lo, hi
}

func (h *Hand) onAction(seq events.Seq, d *events.PlayerActed) {
	p := h.seatOf(seq, d.Seat)
	if p == nil {
		return
	}
	h.enterRound(seq, d.Round)
	h.tally(p, d)
	var skipped events.Seat // the seat whose turn an out-of-turn action took
	switch {
	case p.AllIn && !p.Folded && !p.Mucked && p.Start == 0 && h.Preset.BrokeCannotOpen && d.Action == events.Bet &&
		h.CurrentBet == 0 && h.Opener == 0 && d.Round == events.RoundFirst:
		// presets.md tr-kapali: a player who started with stack 0 may not open; that is the
		// finding (open.not-allowed), not the all-in player's action.
		h.open(seq, p)
		h.applyChips(p, d)
		return
	case p.Folded || p.AllIn || p.Mucked:
		state := "folded"
		if p.AllIn && !p.Folded {
			state = "all-in"
		}
		h.violate(finding.BetIllegalAction, seq, p.Seat, fmt.Sprintf("seat %d is %s and cannot %s", p.Seat, state, d.Action), nil, d.Action)
		h.applyChips(p, d)
		return
	case h.RoundDone:
		code := finding.BetOutOfTurn
		msg := fmt.Sprintf("the %s round was already complete when seat %d acted", d.Round, p.Seat)
		if d.Action == events.Raise || d.Action == events.Bet {
			code = finding.BetReopen
			msg = fmt.Sprintf("the %s round was complete: nobody re-opened the betting to seat %d", d.Round, p.Seat)
		}
		h.violate(code, seq, p.Seat, msg, nil, d.Action)
		h.applyChips(p, d)
		h.RoundDone = h.roundComplete()
		if !h.RoundDone {
			h.turn = h.leftOf(p.Seat, h.needsToAct) // the others answer in turn (no cascade)
		}
		return
	case d.Seat != h.turn:
		h.violate(finding.BetOutOfTurn, seq, p.Seat, fmt.Sprintf("seat %d acted, but it was seat %d's turn", p.Seat, h.turn), h.turn, p.Seat)
		skipped = h.turn
	}
	owed := h.CurrentBet - p.RoundIn
	allIn := d.Amount == p.Stack && d.Amount > 0
	amountErr := func(msg string, want any) {
		h.violate(finding.BetAmount, seq, p.Seat, msg, want, d.Amount)
	}
	if d.Amount > p.Stack {
		amountErr(fmt.Sprintf("seat %d put in %d with only %d chips", p.Seat, d.Amount, p.Stack), p.Stack)
	} else {
		switch d.Action {
		case events.Check:
			switch {
			case owed > 0:
				h.violate(finding.BetIllegalAction, seq, p.Seat, fmt.Sprintf("seat %d checked facing %d chips", p.Seat, owed), "call, raise or fold", "check")
			case !h.Preset.CheckBeforeOpen:
				h.violate(finding.BetIllegalAction, seq, p.Seat, fmt.Sprintf("%s has no check: bet at least %d or fold", h.Preset.Name, h.Start.Stakes.MinBet), "bet or fold", "check")
			case d.Amount != 0:
				amountErr("a check puts in no chips", 0)
			}
		case events.Fold:
			if d.Amount != 0 {
				amountErr("a fold puts in no chips", 0)
			}
		case events.Call:
			want := min(owed, p.Stack)
			switch {
			case owed <= 0:
				h.violate(finding.BetIllegalAction, seq, p.Seat, fmt.Sprintf("seat %d called with nothing to call", p.Seat), "check or bet", "call")
			case d.Amount != want:
				amountErr(fmt.Sprintf("a call of %d; seat %d owed %d", d.Amount, p.Seat, want), want)
			}
		case events.Bet:
			if h.CurrentBet > 0 {
				h.violate(finding.BetIllegalAction, seq, p.Seat, fmt.Sprintf("seat %d bet after the pot was opened: only call, raise or fold", p.Seat), "call, raise or fold", "bet")
				break
			}
			opening := h.Opener == 0 && (d.Round == events.RoundFirst || d.Round == events.RoundBlind)
			lo, hi := h.betLimits(p, opening)
			switch {
			case d.Amount < lo && !allIn && opening:
				h.violate(finding.OpenBelowMinimum, seq, p.Seat, fmt.Sprintf("an opening bet of %d; %s asks for at least %d", d.Amount, h.Preset.Name, lo), lo, d.Amount)
			case d.Amount < lo && !allIn:
				amountErr(fmt.Sprintf("a bet of %d; the least is %d", d.Amount, lo), lo)
			case d.Amount > hi:
				amountErr(fmt.Sprintf("a bet of %d; the most is %d", d.Amount, hi), hi)
			}
			if opening {
				h.open(seq, p)
			}
		case events.Raise:
			if h.CurrentBet == 0 {
				h.violate(finding.BetIllegalAction, seq, p.Seat, fmt.Sprintf("seat %d raised, but nobody had bet", p.Seat), "check or bet", "raise")
				break
			}
			switch {
			case p.Acted && p.Seen == h.Reopen:
				h.violate(finding.BetReopen, seq, p.Seat, fmt.Sprintf("seat %d already acted and faces no full raise since: he may only call or fold", p.Seat), "call or fold", "raise")
			case h.capped():
				h.violate(finding.BetReopen, seq, p.Seat, fmt.Sprintf("the round already has a bet and %d raises, the cap with three or more players", h.Raises), "call or fold", "raise")
			default:
				lo, hi := h.raiseLimits(p)
				switch {
				case d.Amount <= owed:
					amountErr(fmt.Sprintf("a raise of %d does not exceed the %d owed", d.Amount, owed), lo)
				case d.Amount < lo && !allIn:
					amountErr(fmt.Sprintf("a raise putting in %d; the least is %d", d.Amount, lo), lo)
				case d.Amount > hi:
					amountErr(fmt.Sprintf("a raise putting in %d; the most is %d", d.Amount, hi), hi)
				}
			}
		}
	}
	h.applyChips(p, d)
	h.RoundDone = h.roundComplete()
	if !h.RoundDone {
		h.turn = h.leftOf(p.Seat, h.needsToAct)
		if q := h.Player(skipped); q != nil && h.needsToAct(q) {
			h.turn = skipped // the skipped player still speaks next: one finding, not a cascade
		}
	}
}

// tally counts p's action d in his Tally, before the action changes the hand.
func (h *Hand) tally(p *Player, d *events.PlayerActed) {
	t := &p.Tally
	switch d.Action {
	case events.Bet:
		t.Bets++
	case events.Raise:
		t.Raises++
	case events.Call:
		t.Calls++
	case events.Check:
		t.Checks++
	}
	chips := d.Action == events.Bet || d.Action == events.Call || d.Action == events.Raise
	switch d.Round {
	case events.RoundBlind, events.RoundFirst:
		t.VPIP = t.VPIP || chips
		t.RaisedFirst = t.RaisedFirst || d.Action == events.Raise
		t.OpenChance = t.OpenChance || h.Opener == 0 && h.CurrentBet == 0
	case events.RoundSecond:
		t.AggressiveSecond = t.AggressiveSecond || d.Action == events.Bet || d.Action == events.Raise
	}
}

// open records the opener and checks his openers.
func (h *Hand) open(seq events.Seq, p *Player) {
	h.Opener = p.Seat
	h.OpenerCards = nil
	if len(p.Cards) > 0 {
		h.OpenerCards = append(h.openerBuf[:0], p.Cards...) // a copy: p.Cards changes in the draw
	}
	h.OpenerQualified = true
	if h.Preset.BrokeCannotOpen && p.Start == 0 {
		h.violate(finding.OpenNotAllowed, seq, p.Seat, fmt.Sprintf("seat %d started the hand with no chips and may not open", p.Seat), nil, nil)
	}
	if h.Preset.Openers == OpenFree || h.Round != events.RoundFirst {
		return
	}
	if len(p.Cards) != 5 {
		return // unknown cards: cannot judge
	}
	v := h.Eval.Eval([5]cards.Card(p.Cards))
	h.OpenerValue = v
	if !h.Qualifies(v) {
		h.OpenerQualified = false
		h.violate(finding.OpenWithoutOpeners, seq, p.Seat,
			fmt.Sprintf("seat %d opened with %s (%s); %s", p.Seat, cards.Join(p.Cards, " "), h.Eval.Describe(v), h.Preset.DescribeMinOpen(h.Start.PassedOut)),
			h.Preset.DescribeMinOpen(h.Start.PassedOut), h.Eval.Describe(v))
	}
}

// applyChips moves the chips of an action, whatever its legality: the log is the record.
func (h *Hand) applyChips(p *Player, d *events.PlayerActed) {
	p.Acted = true
	if d.Action == events.Fold {
		p.Folded = true
		p.Seen = h.Reopen
		return
	}
	amt := d.Amount
	if amt > p.Stack {
		amt = p.Stack
	}
	before := h.CurrentBet
	h.put(p, amt)
	if p.RoundIn > h.CurrentBet {
		inc := p.RoundIn - before
		full := inc >= h.fullRaise()
		if h.Preset.HalfBetReopens && h.Preset.Structure == FixedLimit && 2*inc >= h.BetSize(h.Round) {
			full = true
		}
		if before == 0 {
			full = true // a bet always opens the action to everyone
		}
		if full {
			h.Reopen++
			if inc > h.LastIncrement {
				h.LastIncrement = inc
			}
		}
		h.CurrentBet = p.RoundIn
		if d.Action == events.Raise || (d.Action != events.Bet && before > 0) {
			h.Raises++
		}
		h.LastAggressor = p.Seat
		if h.Round == events.RoundFirst && before > 0 {
			h.LastRaiserFirst = p.Seat
		}
	}
	p.Seen = h.Reopen
}

func (h *Hand) onOpenersShown(seq events.Seq, d *events.OpenersShown) {
	if d.Seat != h.Opener || h.Opener == 0 {
		return
	}
	held := cards.SetOf(h.OpenerCards...)
	for _, c := range d.Cards {
		if !held.Has(c) && len(h.OpenerCards) == 5 {
			return // not cards he opened with: nothing proven
		}
	}
	if h.partialQualifies(d.Cards) {
		h.OpenersShown = true
	}
}

// partialQualifies judges shown openers that may be fewer than five cards.
func (h *Hand) partialQualifies(cs []cards.Card) bool {
	if len(cs) == 5 {
		v, err := h.Eval.EvalSlice(cs)
		return err == nil && h.Qualifies(v)
	}
	pair, two := h.Preset.MinOpen(h.Start.PassedOut)
	if pair == 0 && !two {
		return true
	}
	var count [15]int
	for _, c := range cs {
		count[c.Rank()]++
	}
	pairs, best := 0, cards.Rank(0)
	for r := cards.Two; r <= cards.Ace; r++ {
		if count[r] >= 2 {
			pairs++
			best = r
		}
		if count[r] >= 3 {
			return true
		}
	}
	if two {
		return pairs >= 2
	}
	return pairs >= 2 || best >= pair
}
