package rules

import (
	"fmt"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
)

// DrawOrder returns the players who draw, in order: the live players from the first left of the
// dealer.
func (h *Hand) DrawOrder() []events.Seat {
	order, n := h.drawSeats()
	if n == 0 {
		return nil
	}
	out := make([]events.Seat, n)
	for i := range out {
		out[i] = events.Seat(order[i])
	}
	return out
}

// drawSeats returns DrawOrder as n seats: the order fixed when the draw began, or else the order
// the players' state gives now.
func (h *Hand) drawSeats() (order [events.MaxSeat]uint8, n int) {
	if h.drawN > 0 {
		return h.drawOrder, h.drawN
	}
	first := h.leftOf(h.Start.Dealer, func(p *Player) bool { return !p.Folded })
	if first == 0 {
		return order, 0
	}
	i := h.index(first)
	for k := 0; k < len(h.Players); k++ {
		p := h.Players[(i+k)%len(h.Players)]
		if !p.Folded {
			order[n] = uint8(p.Seat)
			n++
		}
	}
	return order, n
}

// NextToDraw returns the next player to discard (0 when all have).
func (h *Hand) NextToDraw() events.Seat {
	order, n := h.drawSeats()
	for _, s := range order[:n] {
		if p := h.Player(events.Seat(s)); p.Discards < 0 {
			return p.Seat
		}
	}
	return 0
}

// MaxDraw returns the most cards a player may discard.
func (h *Hand) MaxDraw() int { return h.Preset.MaxDraw }

func (h *Hand) startDraw(seq events.Seq) {
	if h.Stage >= StageDraw {
		return
	}
	if h.Stage == StageBetting && !h.RoundDone {
		h.once(finding.BetRoundIncomplete, seq, h.turn, fmt.Sprintf("the draw began while seat %d still had to act", h.turn), nil, nil)
	}
	h.Stage = StageDraw
	h.drawOrder, h.drawN = h.drawSeats()
}

// Served returns the seat of the player being served in the draw: the last to discard, while
// he still waits for replacements; 0 when nobody is.
func (h *Hand) Served() events.Seat {
	if p := h.Player(h.drawer); p != nil && p.Pending > 0 {
		return p.Seat
	}
	return 0
}

func (h *Hand) othersDone(s events.Seat) bool {
	for _, o := range h.drawOrder[:h.drawN] {
		if events.Seat(o) == s {
			continue
		}
		p := h.Player(events.Seat(o))
		if p.Discards < 0 || p.Pending > 0 {
			return false
		}
	}
	return true
}

func (h *Hand) onDiscard(seq events.Seq, d *events.CardsDiscarded) {
	p := h.seatOf(seq, d.Seat)
	if p == nil {
		return
	}
	h.startDraw(seq)
	if prev := h.Player(h.drawer); prev != nil && prev.Pending > 0 {
		h.once(finding.DrawReplacements, seq, prev.Seat, fmt.Sprintf("seat %d discarded %d and got %d before the next player drew", prev.Seat, prev.Discards, prev.Discards-prev.Pending-int(h.owedLater[prev.Seat])), prev.Discards, prev.Discards-prev.Pending)
		prev.Pending = 0
	}
	switch {
	case p.Folded:
		h.once(finding.DrawOrder, seq, p.Seat, fmt.Sprintf("seat %d folded and cannot draw", p.Seat), nil, p.Seat)
	case p.Discards >= 0:
		h.once(finding.DrawOrder, seq, p.Seat, fmt.Sprintf("seat %d draws a second time", p.Seat), nil, p.Seat)
	default:
		if want := h.NextToDraw(); want != p.Seat {
			h.once(finding.DrawOrder, seq, p.Seat, fmt.Sprintf("seat %d drew before seat %d", p.Seat, want), want, p.Seat)
		}
	}
	if n := len(d.Cards); n > h.Preset.MaxDraw {
		h.violate(finding.DrawTooMany, seq, p.Seat, fmt.Sprintf("seat %d discarded %d cards; %s allows %d", p.Seat, n, h.Preset.Name, h.Preset.MaxDraw), h.Preset.MaxDraw, n)
	}
	if h.Preset.Declared == DeclaredRaiseOnly && d.Declared != nil && len(d.Cards) < *d.Declared {
		h.violate(finding.DrawDeclared, seq, p.Seat, fmt.Sprintf("seat %d declared %d cards and drew %d: %s lets a player raise the number, never lower it", p.Seat, *d.Declared, len(d.Cards), h.Preset.Name), *d.Declared, len(d.Cards))
	}
	thrown := 0 // the discards he could make: a card he does not hold is no discard to replace
	for _, c := range d.Cards {
		i := p.has(c)
		switch {
		case i >= 0:
			p.Cards = append(p.Cards[:i], p.Cards[i+1:]...)
		case p.Hidden > 0 && !(h.loc[c] == inHand && h.owner[c] != 0) && h.stub.Has(c):
			p.Hidden-- // imported hands: a card the log never showed
			h.stub = h.stub.Remove(c)
		default:
			h.once(finding.DrawNotHeld, seq, p.Seat, fmt.Sprintf("seat %d discarded %v, which he does not hold", p.Seat, c), cards.Join(p.Cards, " "), c.String())
			continue
		}
		thrown++
		h.loc[c] = inDiscards
		if h.Preset.DrawSource == DrawUnderStub {
			h.stub = h.stub.Add(c)
			if h.known {
				h.order = append(h.order, c)
			}
		}
	}
	if d.Declared != nil && len(d.Cards) == 0 && *d.Declared > 0 && p.Hidden > 0 {
		// An imported hand whose discards the room never showed.
		p.Hidden -= min(*d.Declared, p.Hidden)
		p.Discards, p.Pending = *d.Declared, *d.Declared
	} else {
		p.Discards, p.Pending = thrown, thrown
	}
	if h.Preset.DelayedFifth && p.Discards == 5 {
		p.Pending = 4
		h.delayed[p.Seat] = true
	}
	h.drawer = p.Seat
}

func (h *Hand) onDrawCard(seq events.Seq, p *Player, d *events.CardDealt) {
	if h.Stage != StageDraw {
		h.once(finding.DrawOrder, seq, p.Seat, "a replacement card outside the draw", nil, nil)
		h.startDraw(seq)
	}
	if h.Preset.DrawSource == DrawReshuffle && !h.reshuffled {
		h.once(finding.DrawProcedure, seq, p.Seat, "the stub and the folded players' cards were not reshuffled before the first replacement", "deck.shuffled before the draw", nil)
		h.reshuffled = true
	}
	switch {
	case p.Seat != h.drawer:
		switch {
		case h.delayed[p.Seat] && p.Pending == 0 && h.othersDone(p.Seat):
			h.delayed[p.Seat] = false // std-draw: the fifth card, after everyone else drew
		case h.owedLater[p.Seat] > 0 && h.othersDone(p.Seat):
			h.owedLater[p.Seat]--
		default:
			h.once(finding.DrawOrder, seq, p.Seat, fmt.Sprintf("a replacement to seat %d while seat %d was drawing", p.Seat, h.drawer), h.drawer, p.Seat)
		}
	case p.Pending > 0:
		p.Pending--
		if h.Preset.BurnBeforeFourth && p.Discards == 4 && p.Pending == 0 && h.lastBurn != seq-1 {
			// tr-kapali "most cards drawn": the fourth card comes after a burned card. The
			// finding carries the seat; its message does not name it, as the explanation
			// quotes the message in a sentence that names the player.
			h.once(finding.DrawProcedure, seq, p.Seat, "the fourth replacement came without a burn before it", "a burned card before the fourth", nil)
		}
	case h.delayed[p.Seat]:
		last := h.othersDone(p.Seat)
		switch {
		case !last:
			h.once(finding.DrawProcedure, seq, p.Seat, "five cards drawn, and the fifth given before the others drew", "the fifth card after everyone else", nil)
		case h.lastBurn != seq-1:
			h.once(finding.DrawProcedure, seq, p.Seat, "the fifth card, given last, came without a burn before it", "a burned card before the fifth", nil)
		}
		h.delayed[p.Seat] = false
	case h.owedLater[p.Seat] > 0:
		if !h.othersDone(p.Seat) {
			h.violate(finding.CardExposedRemedy, seq, p.Seat, fmt.Sprintf("the card replacing an exposed one went to seat %d before every other player drew", p.Seat), "after every other player", "at once")
		}
		h.owedLater[p.Seat]--
	default:
		h.once(finding.DrawReplacements, seq, p.Seat, fmt.Sprintf("seat %d got more replacements than the %d he discarded", p.Seat, p.Discards), p.Discards, p.Discards+1)
	}
	c, ok := h.cardOf(d)
	if !ok {
		p.Hidden++
		return
	}
	// A foreign or duplicate card is reported by take; the player still holds what the log
	// deals him (findings-v1.md: carry on with the state the log records, no cascade).
	h.take(seq, p.Seat, c)
	h.give(p, c)
}

// owed returns the cards the draw still owes p: his replacements not yet dealt, the ones
// held back for later (an exposed card's, std-draw's fifth card).
func (h *Hand) owed(p *Player) int {
	n := p.Pending + int(h.owedLater[p.Seat])
	if h.delayed[p.Seat] {
		n++
	}
	return n
}

// finishDraw checks, once the draw is over, that every drawer got his replacements.
func (h *Hand) finishDraw(seq events.Seq) {
	if h.Stage != StageDraw {
		return
	}
	for _, o := range h.drawOrder[:h.drawN] {
		s := events.Seat(o)
		p := h.Player(s)
		if p.Folded || p.Mucked {
			continue
		}
		owed := h.owed(p)
		switch {
		case owed > 0:
			h.once(finding.DrawReplacements, seq, s, fmt.Sprintf("seat %d discarded %d and got %d", s, p.Discards, p.Discards-owed), p.Discards, p.Discards-owed)
		case p.Discards >= 0 && p.Held() != 5 && !h.Reported(finding.DrawReplacements):
			// (a wrong number of replacements already explains a wrong count: no cascade)
			h.once(finding.DealCount, seq, s, fmt.Sprintf("seat %d holds %d cards after the draw", s, p.Held()), 5, p.Held())
		}
	}
	h.Stage = StageBetting
	h.RoundDone = true
}

func (h *Hand) onShown(seq events.Seq, d *events.HandShown) {
	p := h.seatOf(seq, d.Seat)
	if p == nil {
		return
	}
	h.closeBetting(seq)
	p.Shown = true
	p.ShownCards = append(p.shownBuf[:0], d.Cards...)
	if p.Hidden > 0 {
		// An imported hand: the showdown is where the log first sees these cards.
		for _, c := range d.Cards {
			if p.has(c) < 0 {
				p.add(c)
				h.stub = h.stub.Remove(c)
				h.loc[c], h.owner[c] = inHand, uint8(p.Seat)
			}
		}
		p.Hidden = 0
	} else if len(d.Cards) != len(p.Cards) || cards.SetOf(d.Cards...) != cards.SetOf(p.Cards...) {
		h.violate(finding.ShowdownCards, seq, p.Seat, fmt.Sprintf("seat %d showed %s but holds %s", p.Seat, cards.Join(d.Cards, " "), cards.Join(p.Cards, " ")),
			cards.Join(p.Cards, " "), cards.Join(d.Cards, " "))
	}
	if v, err := h.Eval.EvalSlice(p.Cards); err == nil {
		p.Value = v
	}
	if p.Seat == h.Opener {
		if v, err := h.Eval.EvalSlice(d.Cards); err == nil && h.Qualifies(v) {
			h.OpenersShown = true
		}
	}
}
