package rules

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
)

// Pot is one pot of a hand: its chips, who may win it and, once hands are known, who does and
// for how much.
type Pot struct {
	Index    int
	Amount   events.Chips
	Eligible []events.Seat
	Winners  []events.Seat
	Shares   map[events.Seat]events.Chips
}

// Award is a pot.awarded as the log records it.
type Award struct {
	Seq    events.Seq
	Seat   events.Seat
	Amount events.Chips
	Pot    int
}

// contender reports whether p may win chips: live, not a false opener, five cards; or, in a
// hand that ends in the blind round before any card is dealt, the last player in. During the
// draw the replacements still owed to him count as held: a player waiting for his draw is
// still in every pot he put chips in (docs/rules.md "Pots and side pots", "pot layers"),
// and a hand is judged on the five cards the draw leaves him.
func (h *Hand) contender(p *Player) bool {
	if !p.Live() {
		return false
	}
	held := p.Held()
	if h.Stage == StageDraw {
		held += h.owed(p)
	}
	if held != 5 {
		// presets.md br-online "pots": the best live hand wins the one pot. When everybody else
		// folds in the blind round nobody holds a card, and the last player in is the only hand
		// left to win it.
		return h.Preset.BlindRound && h.InHand() == 1 && h.noCards()
	}
	if p.Seat == h.Opener && !h.OpenerQualified && h.Preset.MustShowOpeners {
		return false // presets.md "false opener": his hand is dead
	}
	return true
}

// noCards reports whether no player holds a card yet.
func (h *Hand) noCards() bool {
	for _, p := range h.Players {
		if p.Held() != 0 {
			return false
		}
	}
	return true
}

// Excess returns the seat whose chips nobody matched and how many (0 when none).
func (h *Hand) Excess() (events.Seat, events.Chips) {
	var top, second events.Chips
	var seat events.Seat
	for _, p := range h.Players {
		// A dead blind is in the pot but matches no bet: it is no one's excess, and it calls
		// nothing of anyone else's.
		in := p.In - p.Dead
		switch {
		case in > top:
			second, top, seat = top, in, p.Seat
		case in > second:
			second = in
		}
	}
	if top == second {
		return 0, 0
	}
	return seat, top - second
}

// seatSet is a set of seats as a bit mask (bit s = seat s, 1..MaxSeat). Its seats in increasing
// order are in seat order, the order of Players.
type seatSet uint16

func (ss seatSet) has(s events.Seat) bool { return s >= 1 && s <= events.MaxSeat && ss&(1<<s) != 0 }

func (ss seatSet) add(s events.Seat) seatSet { return ss | 1<<s }

func (ss seatSet) len() int { return bits.OnesCount16(uint16(ss)) }

// first returns the lowest seat of a non-empty set; with rest, it walks the set in seat order.
func (ss seatSet) first() events.Seat { return events.Seat(bits.TrailingZeros16(uint16(ss))) }

// rest returns the set without its lowest seat.
func (ss seatSet) rest() seatSet { return ss & (ss - 1) }

// seats returns the seats in seat order, nil for the empty set (what appending them one at a
// time to a nil slice gives).
func (ss seatSet) seats() []events.Seat {
	if ss == 0 {
		return nil
	}
	out := make([]events.Seat, 0, ss.len())
	for x := ss; x != 0; x = x.rest() {
		out = append(out, x.first())
	}
	return out
}

// xpot is a Pot as the hand works it out without allocating: seats as sets, shares by seat. It
// also holds what the log paid each winner of it.
type xpot struct {
	index    int
	amount   events.Chips
	eligible seatSet
	winners  seatSet
	judged   bool                             // ExpectedAwards looked at it: Pot.Shares is not nil
	split    bool                             // its shares are worked out: Pot.Shares has the winners
	shares   [events.MaxSeat + 1]events.Chips // by seat, the winners'
	paid     [events.MaxSeat + 1]events.Chips // by seat, the pot.awarded amounts of this pot
}

// publicPots returns xs as Pot values, as Pots and ExpectedAwards give them (nil for none).
func publicPots(xs []xpot) []Pot {
	if len(xs) == 0 {
		return nil
	}
	out := make([]Pot, len(xs))
	for i := range xs {
		x := &xs[i]
		out[i] = Pot{Index: x.index, Amount: x.amount, Eligible: x.eligible.seats(), Winners: x.winners.seats()}
		if x.judged {
			out[i].Shares = map[events.Seat]events.Chips{}
		}
		if x.split {
			for w := x.winners; w != 0; w = w.rest() {
				out[i].Shares[w.first()] = x.shares[w.first()]
			}
		}
	}
	return out
}

// Pots builds the pots from what every player has put in (presets.md "pot layers").
func (h *Hand) Pots() []Pot {
	var buf [4]xpot
	return publicPots(h.pots(buf[:0]))
}

// pots appends the pots of Pots to dst, which must be empty (an index is a place in dst).
func (h *Hand) pots(dst []xpot) []xpot {
	switch h.Preset.Pots {
	case PotsSingle:
		pot := xpot{index: 0, amount: h.Carry}
		for _, p := range h.Players {
			pot.amount += p.In
			if h.contender(p) {
				pot.eligible = pot.eligible.add(p.Seat)
			}
		}
		return append(dst, pot)
	case PotsAntesFirst:
		base := xpot{index: 0, amount: h.Carry}
		var above [events.MaxSeat + 1]events.Chips // by seat
		for _, p := range h.Players {
			a := min(p.Ante, p.In)
			base.amount += a
			above[p.Seat] = p.In - a
			if h.contender(p) {
				base.eligible = base.eligible.add(p.Seat)
			}
		}
		dst = h.layers(append(dst, base), &above, 0)
		for i := range dst {
			dst[i].index = i
		}
		return dst
	}
	var in [events.MaxSeat + 1]events.Chips // by seat
	for _, p := range h.Players {
		in[p.Seat] = p.In
	}
	dst = h.layers(dst, &in, h.Carry)
	for i := range dst {
		dst[i].index = i
	}
	if len(dst) == 0 && h.Carry > 0 {
		dst = append(dst, xpot{amount: h.Carry})
	}
	return dst
}

// layers cuts contributions (by seat) into layers at each live all-in level and the largest live
// contribution, and appends them to dst; carry joins the lowest layer. Empty layers are dropped.
func (h *Hand) layers(dst []xpot, in *[events.MaxSeat + 1]events.Chips, carry events.Chips) []xpot {
	var buf [events.MaxSeat + 1]events.Chips
	levels := buf[:0]
	var topLive events.Chips
	for _, p := range h.Players {
		if !h.contender(p) {
			continue
		}
		if p.AllIn && (in[p.Seat] > 0 || carry > 0) {
			// A player all-in with nothing in this hand (dealt in with stack 0, his last chips in
			// the carry: events-v1.md §7, 2026-12-05) plays for the lowest layer, the carry alone.
			levels = append(levels, in[p.Seat])
		}
		topLive = max(topLive, in[p.Seat])
	}
	levels = append(levels, topLive)
	slices.Sort(levels)
	// One layer per distinct level: the top one must be the last, which takes every chip above
	// it (folded players' chips that matched each other above the largest live contribution,
	// docs/rules.md "pot layers"), even when the largest live contribution is an all-in's.
	levels = slices.Compact(levels)
	start := len(dst)
	var prev events.Chips
	for k, lv := range levels {
		pot := xpot{}
		if len(dst) == start {
			pot.amount = carry
		}
		last := k == len(levels)-1
		for _, p := range h.Players {
			c := in[p.Seat] - prev
			if c <= 0 && !(lv == 0 && h.contender(p)) {
				continue // the carry's own layer (level 0) is every contender's
			}
			if !last && c > lv-prev {
				c = lv - prev
			}
			pot.amount += max(c, 0)
			// A live player short of the level without being all-in (a short ante or call: an
			// irregularity reported on its own) still plays for the layer: no cascade.
			if h.contender(p) && (in[p.Seat] >= lv || !p.AllIn) {
				pot.eligible = pot.eligible.add(p.Seat)
			}
		}
		prev = lv
		if pot.amount > 0 {
			dst = append(dst, pot)
		}
	}
	return dst
}

// rakeOf returns the rake the log took from pot i.
func (h *Hand) rakeOf(i int) events.Chips { return h.rake[i] }

// Rakes returns the rake the log took from each pot (pot.raked), by pot; nil when none. The map
// is the hand's: read it, do not change it.
func (h *Hand) Rakes() map[int]events.Chips { return h.rake }

// ExpectedAwards returns the pots with their winners and shares under the preset, and false when
// the winners cannot be known (a contender's cards are not in the log).
func (h *Hand) ExpectedAwards() ([]Pot, bool) {
	var buf [4]xpot
	xs, ok := h.awards(buf[:0])
	return publicPots(xs), ok
}

// awards appends the pots of ExpectedAwards to dst (empty), with their winners and shares.
// When it returns false, the pots from the one it stopped at are left without shares, as
// ExpectedAwards leaves them.
func (h *Hand) awards(dst []xpot) ([]xpot, bool) {
	pots := h.pots(dst)
	for i := range pots {
		pot := &pots[i]
		pot.judged = true
		if pot.eligible == 0 {
			continue // nobody may win it: it stays for the next deal
		}
		if pot.eligible.len() == 1 {
			pot.winners = pot.eligible
		} else {
			var best Value
			for e := pot.eligible; e != 0; e = e.rest() {
				s := e.first()
				p := h.Player(s)
				if p.Value == 0 {
					return pots, false
				}
				switch {
				case p.Value > best:
					best, pot.winners = p.Value, seatSet(0).add(s)
				case p.Value == best:
					pot.winners = pot.winners.add(s)
				}
			}
		}
		amount := pot.amount - h.rakeOf(pot.index)
		h.split(pot, amount)
	}
	return pots, true
}

// split divides amount among the pot's winners by the preset's split and odd-chip rules.
func (h *Hand) split(pot *xpot, amount events.Chips) {
	var buf [events.MaxSeat]events.Seat
	w := h.oddChipOrder(pot.winners, buf[:0])
	n := events.Chips(len(w))
	var given events.Chips
	if h.Preset.Split == SplitProportional && n > 1 {
		// presets.md br-online: shares in proportion to each winner's total bet, rounded down;
		// the chips left one at a time from the winner left of the dealer.
		var total events.Chips
		for _, s := range w {
			total += h.Player(s).In
		}
		for _, s := range w {
			sh := events.Chips(0)
			if total > 0 {
				sh = amount * h.Player(s).In / total
			}
			pot.shares[s] = sh
			given += sh
		}
	} else {
		for _, s := range w {
			pot.shares[s] = amount / n
			given += amount / n
		}
	}
	for i := 0; given < amount; i++ {
		pot.shares[w[i%len(w)]]++
		given++
	}
	pot.split = true
}

// oddChipOrder appends the tied winners ws to out in the order of the odd chips: from the first
// left of the dealer, or from the last aggressor among them going left (std-draw, seed 004).
func (h *Hand) oddChipOrder(ws seatSet, out []events.Seat) []events.Seat {
	first := h.leftOf(h.Start.Dealer, func(p *Player) bool { return ws.has(p.Seat) })
	if h.Preset.OddChip == OddLastAggressor && ws.has(h.LastAggressor) {
		first = h.LastAggressor
	}
	if first == 0 {
		for x := ws; x != 0; x = x.rest() {
			out = append(out, x.first())
		}
		return out
	}
	i := h.index(first)
	for k := 0; k < len(h.Players); k++ {
		p := h.Players[(i+k)%len(h.Players)]
		if ws.has(p.Seat) {
			out = append(out, p.Seat)
		}
	}
	return out
}

func (h *Hand) onReturned(seq events.Seq, d *events.BetReturned) {
	p := h.seatOf(seq, d.Seat)
	if p == nil {
		return
	}
	if !h.Misdeal {
		h.closeBetting(seq)
		seat, excess := h.Excess()
		if seat != d.Seat || d.Amount > excess {
			h.once(finding.BetReturned, seq, d.Seat, fmt.Sprintf("%d chips returned to seat %d, but only %d of seat %d's chips went unmatched", d.Amount, d.Seat, excess, seat),
				map[string]any{"seat": seat, "amount": excess}, map[string]any{"seat": d.Seat, "amount": d.Amount})
		}
	}
	p.In -= d.Amount
	p.Returned += d.Amount
	p.Stack += d.Amount
}

func (h *Hand) onAwarded(seq events.Seq, d *events.PotAwarded) {
	p := h.seatOf(seq, d.Seat)
	if p == nil {
		return
	}
	h.closeBetting(seq)
	h.Stage = StageSettle
	if !h.awardsStarted {
		h.awardsStarted = true
		if !h.Misdeal {
			if seat, excess := h.Excess(); excess > 0 && h.InHand() > 0 {
				h.once(finding.BetReturned, seq, seat, fmt.Sprintf("%d chips of seat %d went unmatched and were not returned before the award", excess, seat),
					map[string]any{"seat": seat, "amount": excess}, nil)
			}
			h.expected, h.expectedOK = h.awards(h.expected[:0])
		}
	}
	if h.Awards == nil {
		h.Awards = h.awardBuf[:0]
	}
	h.Awards = append(h.Awards, Award{Seq: seq, Seat: d.Seat, Amount: d.Amount, Pot: d.Pot})
	p.Won += d.Amount
	p.Stack += d.Amount
	h.checkAward(seq, p, d)
}

// potFinding reports at most one pot finding per hand (no cascades).
func (h *Hand) potFinding(code finding.Code, seq events.Seq, seat events.Seat, msg string, expected, actual any) {
	if h.potReported {
		return
	}
	h.potReported = true
	h.violate(code, seq, seat, msg, expected, actual)
}

func (h *Hand) checkAward(seq events.Seq, p *Player, d *events.PotAwarded) {
	if h.Misdeal {
		h.potFinding(finding.MisdealSettlement, seq, p.Seat, "after a misdeal nothing is awarded: every chip goes back to its owner", "bet.returned", "pot.awarded")
		return
	}
	if p.Seat == h.Opener && h.Preset.MustShowOpeners && h.Preset.Openers != OpenFree {
		if !h.OpenerQualified {
			h.potFinding(finding.OpenFalseOpenerPaid, seq, p.Seat, fmt.Sprintf("seat %d opened without openers, so his hand is dead, yet he was paid %d", p.Seat, d.Amount), 0, d.Amount)
			return
		}
		if !h.OpenersShown {
			h.potFinding(finding.OpenNotShown, seq, p.Seat, fmt.Sprintf("seat %d opened and was paid without showing openers first", p.Seat), "openers shown before the award", "no openers shown")
			return
		}
	}
	if !h.expectedOK {
		return
	}
	var pot *xpot
	for i := range h.expected {
		if h.expected[i].index == d.Pot {
			pot = &h.expected[i]
		}
	}
	if pot == nil {
		h.potFinding(finding.PotSide, seq, p.Seat, fmt.Sprintf("pot %d does not exist: the hand has %d pot(s)", d.Pot, len(h.expected)), len(h.expected), d.Pot)
		return
	}
	if !pot.eligible.has(p.Seat) {
		code := finding.PotSide
		if len(h.expected) == 1 {
			code = finding.PotWinner
		}
		h.potFinding(code, seq, p.Seat, fmt.Sprintf("seat %d is not eligible for pot %d", p.Seat, d.Pot), pot.eligible.seats(), p.Seat)
		return
	}
	if !pot.split || !pot.winners.has(p.Seat) {
		winners := pot.winners.seats()
		h.potFinding(finding.PotWinner, seq, p.Seat, fmt.Sprintf("pot %d belongs to seat(s) %v, with the best eligible hand, not seat %d", d.Pot, winners, p.Seat), winners, p.Seat)
		return
	}
	pot.paid[p.Seat] += d.Amount
	// One event per recipient per pot (events-v1.md §4): the amount must be his share.
	if got := pot.paid[p.Seat]; got != pot.shares[p.Seat] {
		h.wrongAmount(seq, p.Seat, pot, got)
	}
}

func (h *Hand) wrongAmount(seq events.Seq, seat events.Seat, pot *xpot, got events.Chips) {
	if h.potReported {
		return // potFinding would drop it: spare building the message
	}
	shares := map[string]events.Chips{}
	if pot.split {
		for w := pot.winners; w != 0; w = w.rest() {
			shares[fmt.Sprint(w.first())] = pot.shares[w.first()]
		}
	}
	switch {
	case pot.winners.len() > 1:
		h.potFinding(finding.PotSplit, seq, seat, fmt.Sprintf("pot %d of %d is split among seats %v as %v; seat %d got %d", pot.index, pot.amount, pot.winners.seats(), shares, seat, got), shares, got)
	case len(h.expected) > 1:
		h.potFinding(finding.PotSide, seq, seat, fmt.Sprintf("pot %d holds %d chips, not %d", pot.index, pot.shares[seat], got), pot.shares[seat], got)
	default:
		h.potFinding(finding.PotTotal, seq, seat, fmt.Sprintf("the pot holds %d chips, but %d were paid", pot.shares[seat], got), pot.shares[seat], got)
	}
}

func (h *Hand) onPassed(seq events.Seq) {
	h.closeBetting(seq)
	if h.Opener != 0 {
		h.once(finding.BetRoundIncomplete, seq, h.Opener, "the hand was passed out after seat opened", nil, nil)
	}
	h.Passed = true
	h.Stage = StageSettle
}

// ExpectedCarry returns the chips the hand should leave for the next deal.
func (h *Hand) ExpectedCarry() events.Chips {
	switch {
	case h.Misdeal:
		return h.Carry
	case h.Passed:
		return h.Pot()
	}
	var c events.Chips
	pots := h.expected
	if !h.expectedOK && !h.awardsStarted {
		var buf [4]xpot
		pots = h.pots(buf[:0]) // the pots of ExpectedAwards: awarding them leaves them as they are
	}
	for i := range pots {
		if pots[i].eligible == 0 {
			c += pots[i].amount
		}
	}
	return c
}

func (h *Hand) onEnded(seq events.Seq, d *events.HandEnded) {
	if h.Stage < StageSettle && !h.Passed {
		h.closeBetting(seq)
	}
	if !h.awardsStarted && !h.Misdeal && !h.Passed {
		h.expected, h.expectedOK = h.awards(h.expected[:0])
		if seat, excess := h.Excess(); excess > 0 {
			h.once(finding.BetReturned, seq, seat, fmt.Sprintf("%d chips of seat %d went unmatched and were never returned", excess, seat), excess, 0)
		}
	}
	h.ended = d
	h.Stage = StageEnded
	var in, out events.Chips
	in = h.Carry - h.Raked
	for _, p := range h.Players {
		in += p.In
		out += p.Won
	}
	out += d.Carry
	if h.Misdeal {
		for _, p := range h.Players {
			if p.In != 0 {
				h.once(finding.MisdealSettlement, seq, p.Seat, fmt.Sprintf("after the misdeal seat %d got back %d of the %d chips he put in", p.Seat, p.Returned, p.In+p.Returned), p.In+p.Returned, p.Returned)
			}
		}
	}
	if !h.potReported && !h.Reported(finding.MisdealSettlement) {
		switch {
		case out > in:
			h.potFinding(finding.PotTotal, seq, 0, fmt.Sprintf("%d chips were awarded and carried, but only %d were in the pot", out, in), in, out)
		case out < in:
			h.potFinding(finding.PotUnawarded, seq, 0, fmt.Sprintf("%d chips were left in the pot: neither awarded nor carried", in-out), in-out+d.Carry, d.Carry)
		case d.Carry != h.ExpectedCarry() && !h.Passed && !h.Misdeal:
			h.potFinding(finding.PotUnawarded, seq, 0, fmt.Sprintf("%d chips were carried that belonged to a winner", d.Carry-h.ExpectedCarry()), h.ExpectedCarry(), d.Carry)
		case h.expectedOK && !h.Passed && !h.Misdeal:
			// The first winner paid short, pot by pot in seat order (only the first is reported).
			for i := range h.expected {
				pot := &h.expected[i]
				if !pot.split {
					continue
				}
				for w := pot.winners; w != 0; w = w.rest() {
					if s := w.first(); pot.paid[s] < pot.shares[s] {
						h.wrongAmount(seq, s, pot, pot.paid[s])
					}
				}
			}
		}
	}
	var got [events.MaxSeat + 1]events.Chips // the stacks of hand.ended by seat (the last listed)
	var listed seatSet
	for _, s := range d.Stacks {
		if s.Seat >= 1 && s.Seat <= events.MaxSeat {
			got[s.Seat] = s.Stack
			listed = listed.add(s.Seat)
		}
	}
	for _, p := range h.Players {
		if g, ok := got[p.Seat], listed.has(p.Seat); !ok || g != p.Stack {
			h.once(finding.StackFinal, seq, p.Seat, fmt.Sprintf("hand.ended gives seat %d %d chips; the events leave him %d", p.Seat, g, p.Stack), p.Stack, g)
		}
	}
}
