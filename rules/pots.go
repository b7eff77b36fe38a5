package rules

import (
	"fmt"
	"sort"

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

// contender reports whether p may win chips: live, not a false opener, five cards.
func (h *Hand) contender(p *Player) bool {
	if !p.Live() || p.Held() != 5 {
		return false
	}
	if p.Seat == h.Opener && !h.OpenerQualified && h.Preset.MustShowOpeners {
		return false // presets.md "false opener": his hand is dead
	}
	return true
}

// Excess returns the seat whose chips nobody matched and how many (0 when none).
func (h *Hand) Excess() (events.Seat, events.Chips) {
	var top, second events.Chips
	var seat events.Seat
	for _, p := range h.Players {
		switch {
		case p.In > top:
			second, top, seat = top, p.In, p.Seat
		case p.In > second:
			second = p.In
		}
	}
	if top == second {
		return 0, 0
	}
	return seat, top - second
}

// Pots builds the pots from what every player has put in (presets.md "pot layers").
func (h *Hand) Pots() []Pot {
	live := func(p *Player) bool { return h.contender(p) }
	switch h.Preset.Pots {
	case PotsSingle:
		pot := Pot{Index: 0, Amount: h.Carry}
		for _, p := range h.Players {
			pot.Amount += p.In
			if live(p) {
				pot.Eligible = append(pot.Eligible, p.Seat)
			}
		}
		return []Pot{pot}
	case PotsAntesFirst:
		base := Pot{Index: 0, Amount: h.Carry}
		above := map[events.Seat]events.Chips{}
		for _, p := range h.Players {
			a := min(p.Ante, p.In)
			base.Amount += a
			above[p.Seat] = p.In - a
			if live(p) {
				base.Eligible = append(base.Eligible, p.Seat)
			}
		}
		pots := []Pot{base}
		for _, q := range h.layers(above, 0, live) {
			q.Index = len(pots)
			pots = append(pots, q)
		}
		return pots
	}
	in := map[events.Seat]events.Chips{}
	for _, p := range h.Players {
		in[p.Seat] = p.In
	}
	pots := h.layers(in, h.Carry, live)
	for i := range pots {
		pots[i].Index = i
	}
	if len(pots) == 0 && h.Carry > 0 {
		pots = []Pot{{Amount: h.Carry}}
	}
	return pots
}

// layers cuts contributions into layers at each live all-in level and the largest live
// contribution; carry joins the lowest layer. Empty layers are dropped.
func (h *Hand) layers(in map[events.Seat]events.Chips, carry events.Chips, live func(*Player) bool) []Pot {
	var levels []events.Chips
	var topLive events.Chips
	for _, p := range h.Players {
		if !live(p) {
			continue
		}
		if p.AllIn && in[p.Seat] > 0 {
			levels = append(levels, in[p.Seat])
		}
		topLive = max(topLive, in[p.Seat])
	}
	levels = append(levels, topLive)
	sort.Slice(levels, func(i, j int) bool { return levels[i] < levels[j] })
	var pots []Pot
	var prev events.Chips
	for k, lv := range levels {
		if lv <= prev && k > 0 {
			continue
		}
		pot := Pot{}
		if len(pots) == 0 {
			pot.Amount = carry
		}
		last := k == len(levels)-1
		for _, p := range h.Players {
			c := in[p.Seat] - prev
			if c <= 0 {
				continue
			}
			if !last && c > lv-prev {
				c = lv - prev
			}
			pot.Amount += c
			// A live player short of the level without being all-in (a short ante or call: an
			// irregularity reported on its own) still plays for the layer: no cascade.
			if live(p) && (in[p.Seat] >= lv || !p.AllIn) {
				pot.Eligible = append(pot.Eligible, p.Seat)
			}
		}
		prev = lv
		if pot.Amount > 0 {
			pots = append(pots, pot)
		}
	}
	return pots
}

// rakeOf returns the rake the log took from pot i.
func (h *Hand) rakeOf(i int) events.Chips { return h.rake[i] }

// ExpectedAwards returns the pots with their winners and shares under the preset, and false when
// the winners cannot be known (a contender's cards are not in the log).
func (h *Hand) ExpectedAwards() ([]Pot, bool) {
	pots := h.Pots()
	for i := range pots {
		pot := &pots[i]
		pot.Shares = map[events.Seat]events.Chips{}
		if len(pot.Eligible) == 0 {
			continue // nobody may win it: it stays for the next deal
		}
		if len(pot.Eligible) == 1 {
			pot.Winners = pot.Eligible
		} else {
			var best Value
			for _, s := range pot.Eligible {
				p := h.Player(s)
				if p.Value == 0 {
					return pots, false
				}
				switch {
				case p.Value > best:
					best, pot.Winners = p.Value, []events.Seat{s}
				case p.Value == best:
					pot.Winners = append(pot.Winners, s)
				}
			}
		}
		amount := pot.Amount - h.rakeOf(pot.Index)
		h.split(pot, amount)
	}
	return pots, true
}

// split divides amount among the pot's winners by the preset's split and odd-chip rules.
func (h *Hand) split(pot *Pot, amount events.Chips) {
	w := h.oddChipOrder(pot.Winners)
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
			pot.Shares[s] = sh
			given += sh
		}
	} else {
		for _, s := range w {
			pot.Shares[s] = amount / n
			given += amount / n
		}
	}
	for i := 0; given < amount; i++ {
		pot.Shares[w[i%len(w)]]++
		given++
	}
}

// oddChipOrder orders tied winners for the odd chips: from the first left of the dealer, or from
// the last aggressor among them going left (std-draw, seed 004).
func (h *Hand) oddChipOrder(ws []events.Seat) []events.Seat {
	in := map[events.Seat]bool{}
	for _, s := range ws {
		in[s] = true
	}
	start := h.Start.Dealer
	from := func(s events.Seat) bool { return true }
	_ = from
	var out []events.Seat
	first := h.leftOf(start, func(p *Player) bool { return in[p.Seat] })
	if h.Preset.OddChip == OddLastAggressor && in[h.LastAggressor] {
		first = h.LastAggressor
	}
	if first == 0 {
		return ws
	}
	i := h.index(first)
	for k := 0; k < len(h.Players); k++ {
		p := h.Players[(i+k)%len(h.Players)]
		if in[p.Seat] {
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
			h.expected, h.expectedOK = h.ExpectedAwards()
		}
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
	var pot *Pot
	for i := range h.expected {
		if h.expected[i].Index == d.Pot {
			pot = &h.expected[i]
		}
	}
	if pot == nil {
		h.potFinding(finding.PotSide, seq, p.Seat, fmt.Sprintf("pot %d does not exist: the hand has %d pot(s)", d.Pot, len(h.expected)), len(h.expected), d.Pot)
		return
	}
	eligible := false
	for _, s := range pot.Eligible {
		eligible = eligible || s == p.Seat
	}
	if !eligible {
		code := finding.PotSide
		if len(h.expected) == 1 {
			code = finding.PotWinner
		}
		h.potFinding(code, seq, p.Seat, fmt.Sprintf("seat %d is not eligible for pot %d", p.Seat, d.Pot), pot.Eligible, p.Seat)
		return
	}
	want, winner := pot.Shares[p.Seat]
	if !winner {
		h.potFinding(finding.PotWinner, seq, p.Seat, fmt.Sprintf("pot %d belongs to seat(s) %v, with the best eligible hand, not seat %d", d.Pot, pot.Winners, p.Seat), pot.Winners, p.Seat)
		return
	}
	h.paid[[2]int{d.Pot, int(p.Seat)}] += d.Amount
	// One event per recipient per pot (events-v1.md §4): the amount must be his share.
	if got := h.paid[[2]int{d.Pot, int(p.Seat)}]; got != want {
		h.wrongAmount(seq, p.Seat, pot, got)
	}
}

func (h *Hand) wrongAmount(seq events.Seq, seat events.Seat, pot *Pot, got events.Chips) {
	shares := map[string]events.Chips{}
	for s, v := range pot.Shares {
		shares[fmt.Sprint(s)] = v
	}
	switch {
	case len(pot.Winners) > 1:
		h.potFinding(finding.PotSplit, seq, seat, fmt.Sprintf("pot %d of %d is split among seats %v as %v; seat %d got %d", pot.Index, pot.Amount, pot.Winners, shares, seat, got), shares, got)
	case len(h.expected) > 1:
		h.potFinding(finding.PotSide, seq, seat, fmt.Sprintf("pot %d holds %d chips, not %d", pot.Index, pot.Shares[seat], got), pot.Shares[seat], got)
	default:
		h.potFinding(finding.PotTotal, seq, seat, fmt.Sprintf("the pot holds %d chips, but %d were paid", pot.Shares[seat], got), pot.Shares[seat], got)
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
	if h.expectedOK || h.awardsStarted {
		for _, pot := range h.expected {
			if len(pot.Eligible) == 0 {
				c += pot.Amount
			}
		}
		return c
	}
	pots, _ := h.ExpectedAwards()
	for _, pot := range pots {
		if len(pot.Eligible) == 0 {
			c += pot.Amount
		}
	}
	return c
}

func (h *Hand) onEnded(seq events.Seq, d *events.HandEnded) {
	if h.Stage < StageSettle && !h.Passed {
		h.closeBetting(seq)
	}
	if !h.awardsStarted && !h.Misdeal && !h.Passed {
		h.expected, h.expectedOK = h.ExpectedAwards()
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
			for _, pot := range h.expected {
				for s, want := range pot.Shares {
					if got := h.paid[[2]int{pot.Index, int(s)}]; got < want {
						h.wrongAmount(seq, s, &pot, got)
					}
				}
			}
		}
	}
	got := map[events.Seat]events.Chips{}
	for _, s := range d.Stacks {
		got[s.Seat] = s.Stack
	}
	for _, p := range h.Players {
		if g, ok := got[p.Seat]; !ok || g != p.Stack {
			h.once(finding.StackFinal, seq, p.Seat, fmt.Sprintf("hand.ended gives seat %d %d chips; the events leave him %d", p.Seat, g, p.Stack), p.Stack, g)
		}
	}
}
