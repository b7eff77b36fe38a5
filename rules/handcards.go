package rules

import (
	"fmt"
	"slices"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
)

// Stub returns the cards not yet taken, top first, when the order is known (a machine shuffle
// whose seed the hand knows), or nil. The slice is the caller's: later events do not change it.
func (h *Hand) Stub() []cards.Card {
	if !h.known || h.order == nil {
		return nil
	}
	return append(make([]cards.Card, 0, len(h.order)), h.order...)
}

// StubSet returns the composition of the stub.
func (h *Hand) StubSet() cards.Set { return h.stub }

// Deck returns the set of cards of the hand's deck.
func (h *Hand) Deck() cards.Set { return h.deck }

func (h *Hand) onShuffle(seq events.Seq, d *events.DeckShuffled) {
	if h.lastBurn == seq-1 && h.lastBurn != 0 {
		// A reshuffle forced by the burn taking the last card: the burn still comes right
		// before the next card (tr-kapali fourth card, std-draw fifth).
		h.lastBurn = seq
	}
	h.cutExposed = false
	if d.Cards == nil {
		if h.Stage > StageSetup {
			h.violate(finding.LogSchema, seq, 0, "a reshuffle during the hand must list the gathered cards", nil, nil)
			return
		}
		// The first shuffle (or a reshuffle before the deal: it gathers the whole deck).
		if d.Method == cards.PhysicalMethod && h.Preset.MinShuffles > 0 && (d.Count == nil || *d.Count < h.Preset.MinShuffles) {
			got := 0
			if d.Count != nil {
				got = *d.Count
			}
			h.violate(finding.DeckShuffles, seq, 0, fmt.Sprintf("the deck was shuffled %d times; %s asks for at least %d", got, h.Preset.Name, h.Preset.MinShuffles), h.Preset.MinShuffles, got)
		}
		h.stub = h.deck
		h.setOrder(seq, d, h.deck) // the whole deck, in canonical order
		return
	}
	// A reshuffle of gathered cards.
	var set cards.Set
	for _, c := range d.Cards {
		if !h.deck.Has(c) {
			h.once(finding.DeckForeignCard, seq, 0, fmt.Sprintf("%v is not in the %d-card deck", c, h.deck.Len()), nil, c.String())
			continue
		}
		if set.Has(c) {
			h.once(finding.DeckDuplicateCard, seq, 0, fmt.Sprintf("%v is listed twice in the reshuffle", c), nil, c.String())
		}
		set = set.Add(c)
	}
	h.checkReshuffle(seq, set)
	for _, c := range d.Cards {
		if h.loc[c] == inHand {
			h.once(finding.DeckDuplicateCard, seq, h.holder(c), fmt.Sprintf("%v is reshuffled while seat %d holds it", c, h.holder(c)), nil, c.String())
			continue
		}
		h.loc[c] = inStub
	}
	h.stub = set
	h.reshuffled = true
	h.setOrder(seq, d, set) // the gathered cards, in canonical order
}

// checkReshuffle checks a reshuffle's cards against what the preset gathers.
func (h *Hand) checkReshuffle(seq events.Seq, set cards.Set) {
	if h.Stage < StageBetting {
		return
	}
	switch h.Preset.DrawSource {
	case DrawReshuffle:
		if !h.reshuffled && h.Round != events.RoundSecond {
			// presets.md "cards for the draw" (br-fechado): before the first replacement the
			// stub and the folded players' cards are reshuffled.
			want := h.stub
			for c := cards.Card(0); c < cards.NumCards; c++ {
				if h.loc[c] == inMuck || (h.loc[c] == inHand && h.Player(h.holder(c)).Folded) {
					want = want.Add(c)
				}
			}
			if set != want {
				h.once(finding.DrawProcedure, seq, 0, "the pre-draw reshuffle must gather the stub and the folded players' cards",
					cards.Join(want.Cards(), " "), cards.Join(set.Cards(), " "))
			}
			for c := cards.Card(0); c < cards.NumCards; c++ {
				if set.Has(c) && h.loc[c] == inHand {
					if p := h.Player(h.holder(c)); p != nil && p.Folded {
						if i := p.has(c); i >= 0 {
							p.Cards = append(p.Cards[:i], p.Cards[i+1:]...)
						}
						h.loc[c] = inStub
					}
				}
			}
			return
		}
	}
	// Any other reshuffle gathers discards (and burned cards) when the stub runs short.
	if h.Preset.DrawSource == DrawUnderStub {
		h.once(finding.DrawProcedure, seq, 0, "br-online never reshuffles: discards go under the stub", nil, nil)
		return
	}
	short := h.stub.Len()
	if h.Preset.DrawSource == DrawNeverBottom {
		short-- // the bottom card is never dealt
	}
	if short > 0 && h.pendingDraw() <= short {
		h.once(finding.DrawProcedure, seq, 0, fmt.Sprintf("a reshuffle while %d cards remain for %d replacements", short, h.pendingDraw()), nil, nil)
		return
	}
	if h.Preset.DrawSource == DrawTopOthers && short <= 0 {
		// presets.md online-draw (2026-12-05): "the discards made so far, except those of the
		// player being served, are shuffled into a new stub".
		if want := h.gatherDiscards(); set != want {
			h.once(finding.DrawProcedure, seq, h.Served(), "when the stub runs out, online-draw shuffles the discards made so far, except those of the player being served, into a new stub",
				cards.Join(want.Cards(), " "), cards.Join(set.Cards(), " "))
		}
	}
}

func (h *Hand) pendingDraw() int {
	n := 0
	for _, p := range h.Players {
		n += p.Pending
	}
	return n
}

// setOrder learns the order of a shuffle of the cards of in (taken in canonical order) when it
// is a machine shuffle whose seed the hand knows and the seed opens its commitment.
func (h *Hand) setOrder(seq events.Seq, d *events.DeckShuffled, in cards.Set) {
	h.known = false
	h.order = nil
	if d.Method != cards.ShuffleMethod {
		return
	}
	seed, ok := h.Seeds[seq]
	if !ok || (d.Commitment != "" && !seed.Opens(d.Commitment)) {
		return
	}
	h.known = true
	h.order = in.Append(h.orderBuf[:0])
	if len(h.order) == 0 {
		h.order = nil // as cards.Shuffle gives for no cards
	}
	cards.ShuffleInPlace(seed, h.order)
}

func (h *Hand) onCut(seq events.Seq, d *events.DeckCut) {
	if h.lastBurn == seq-1 && h.lastBurn != 0 {
		h.lastBurn = seq // as in onShuffle
	}
	n := h.stub.Len()
	if d.At < 0 || (d.At > 0 && d.At >= n) {
		h.violate(finding.LogSchema, seq, 0, fmt.Sprintf("a cut at %d is outside 1..%d", d.At, n-1), nil, d.At)
		return
	}
	if h.known && d.At > 0 {
		if err := cards.CutInPlace(h.order, d.At); err != nil {
			h.order = nil // as cards.Cut gives on an error
		}
	}
}

// take removes c from the top of the stub, checking that it may be there: in the deck, not
// elsewhere, and the card the known order puts on top.
func (h *Hand) take(seq events.Seq, seat events.Seat, c cards.Card) bool {
	if !h.deck.Has(c) {
		h.violate(finding.DeckForeignCard, seq, seat, fmt.Sprintf("%v is not in the %d-card deck (lowest rank %v)", c, h.deck.Len(), h.Low), nil, c.String())
		return false
	}
	if !h.stub.Has(c) {
		where := "already out of the stub"
		switch h.loc[c] {
		case inHand:
			where = fmt.Sprintf("already held by seat %d", h.holder(c))
		case inDiscards:
			where = "already discarded"
		case inBurned:
			where = "already burned"
		}
		h.violate(finding.DeckDuplicateCard, seq, seat, fmt.Sprintf("%v is dealt again: it is %s", c, where), nil, c.String())
		return false
	}
	if h.known && len(h.order) > 0 && h.order[0] != c {
		h.once(finding.DealMismatch, seq, seat, fmt.Sprintf("%v was dealt, but the revealed seed and the cut put %v on top", c, h.order[0]), h.order[0].String(), c.String())
	}
	if h.Preset.DrawSource == DrawNeverBottom && h.Stage >= StageDraw && h.stub.Len() == 1 {
		h.once(finding.DrawProcedure, seq, seat, fmt.Sprintf("%v is the bottom card of the stub, which is never dealt", c), nil, c.String())
	}
	h.stub = h.stub.Remove(c)
	if h.known {
		switch i := slices.Index(h.order, c); {
		case i == 0:
			h.order = h.order[1:] // the top card, as it should be
		case i > 0:
			h.order = append(h.order[:i], h.order[i+1:]...)
		}
	}
	return true
}

// holder returns the seat holding c when it is in a hand (h.loc[c] == inHand).
func (h *Hand) holder(c cards.Card) events.Seat { return events.Seat(h.owner[c]) }

func (h *Hand) give(p *Player, c cards.Card) {
	p.add(c)
	h.loc[c] = inHand
	h.owner[c] = uint8(p.Seat)
}

func (h *Hand) onDealt(seq events.Seq, d *events.CardDealt) {
	p := h.seatOf(seq, d.Seat)
	if p == nil {
		return
	}
	if d.Phase == events.PhaseDeal {
		h.onDealCard(seq, p, d)
		return
	}
	h.onDrawCard(seq, p, d)
}

func (h *Hand) onDealCard(seq events.Seq, p *Player, d *events.CardDealt) {
	if h.Stage > StageDeal && !(h.Preset.BlindRound && h.Round == events.RoundBlind) {
		h.once(finding.DealOrder, seq, p.Seat, "a card of the deal after the deal was over", nil, nil)
	}
	if h.Stage < StageDeal || (h.Preset.BlindRound && h.Round == events.RoundBlind) {
		h.endSetup(seq)
		if h.Preset.BlindRound && h.Round == events.RoundBlind {
			h.closeBetting(seq)
		}
		h.Stage = StageDeal
	}
	if h.dealIdx < 5*len(h.Players) { // five cards each
		if want := h.dealSeat(h.dealIdx); want != p.Seat {
			h.once(finding.DealOrder, seq, p.Seat, fmt.Sprintf("this card of the deal belongs to seat %d, clockwise from the dealer's left", want), want, p.Seat)
		}
	} else {
		h.once(finding.DealOrder, seq, p.Seat, "more than five cards dealt to each player", nil, nil)
	}
	h.dealIdx++
	p.Dealt++
	c, ok := h.cardOf(d)
	if !ok {
		p.Hidden++
		return
	}
	h.dealt++
	if h.dealt <= 2 {
		h.dealtEarly = h.dealtEarly.Add(c)
	} else {
		h.dealtLate = h.dealtLate.Add(c)
	}
	// A foreign or duplicate card is reported by take; the player still holds what the log
	// deals him (findings-v1.md: carry on with the state the log records, no cascade).
	h.take(seq, p.Seat, c)
	h.give(p, c)
}

// cardOf returns the card d deals, false when nobody can know it. A card the log does not give
// (an imported hand, or a field that could not be read, events-v1.md §8) is the top card of the
// stub when a revealed seed orders the deck: what the dealer must have dealt, so that the
// rest of the deal is checked from the right place.
func (h *Hand) cardOf(d *events.CardDealt) (cards.Card, bool) {
	switch {
	case !d.Unknown:
		return d.Card, true
	case h.known && len(h.order) > 0:
		return h.order[0], true
	}
	return 0, false
}

// endSetup checks the forced bets once the cards start coming.
func (h *Hand) endSetup(seq events.Seq) {
	if h.Stage >= StageDeal {
		return
	}
	if h.Preset.Ante {
		for _, p := range h.Players {
			want := h.Start.Stakes.Ante
			if p.Start < want {
				want = p.Start
			}
			switch {
			case p.Antes == 0 && want > 0:
				h.violate(finding.AnteAmount, seq, p.Seat, fmt.Sprintf("seat %d was dealt in without an ante of %d", p.Seat, want), want, 0)
			case p.Antes > 1:
				// Reported when the second ante was posted.
			case p.Antes == 1 && p.Ante != want:
				// Reported when posted.
			}
		}
	}
	if h.cutExposed && h.Preset.ExposedCut == RemedyReshuffle {
		h.violate(finding.DeckCutExposed, seq, 0, "a card was exposed in the cut and the deck was dealt without a reshuffle", "a reshuffle and a new cut", nil)
		h.cutExposed = false
	}
}

func (h *Hand) onAnte(seq events.Seq, d *events.AntePosted) {
	p := h.seatOf(seq, d.Seat)
	if p == nil {
		return
	}
	want := h.Start.Stakes.Ante
	if p.Start < want {
		want = p.Start
	}
	switch {
	case !h.Preset.Ante:
		h.violate(finding.AnteAmount, seq, p.Seat, fmt.Sprintf("%s has no antes", h.Preset.Name), 0, d.Amount)
	case h.Stage >= StageDeal:
		h.violate(finding.AnteAmount, seq, p.Seat, "an ante after the deal began", nil, d.Amount)
	case p.Antes > 0:
		h.violate(finding.AnteAmount, seq, p.Seat, fmt.Sprintf("seat %d antes twice", p.Seat), want, p.Ante+d.Amount)
	case d.Amount != want:
		h.violate(finding.AnteAmount, seq, p.Seat, fmt.Sprintf("an ante of %d; the stakes ask for %d", d.Amount, want), want, d.Amount)
	}
	p.Antes++
	p.Ante += d.Amount
	p.Stack -= d.Amount
	p.In += d.Amount
	if p.Stack <= 0 {
		p.AllIn = true
	}
}

func (h *Hand) onBlind(seq events.Seq, d *events.BlindPosted) {
	p := h.seatOf(seq, d.Seat)
	if p == nil {
		return
	}
	if !h.Preset.Blinds {
		h.violate(finding.BlindAmount, seq, p.Seat, fmt.Sprintf("%s has no blinds", h.Preset.Name), nil, d.Amount)
	} else {
		sb, bb := h.blindSeats()
		// Only the first small and big blind have a place: a newcomer may post an extra live
		// big blind (and a dead small one) from his seat, as online rooms let him.
		noSmall := !h.blindSeen[0]
		first := !h.sawBlind(d.Blind)
		if first && d.Blind == events.BlindBig && (p.Seat == bb || p.Seat == sb && noSmall && len(h.Players) > 2) {
			h.BigBlind = p.Seat // in its place: the first round starts left of it
		}
		if d.Blind == events.BlindBig && (h.PostedBB == 0 || p.Seat == bb && h.PostedBB != bb) {
			h.PostedBB = p.Seat // the first big blind, or a later one in its place
		}
		if first && d.Blind == events.BlindSmall {
			h.SmallBlind = p.Seat // where it was posted, right or wrong: the next hand moves on from it
		}
		switch {
		case !first && d.Blind != events.BlindDead && d.Amount > p.Stack:
			h.violate(finding.BlindAmount, seq, p.Seat, fmt.Sprintf("a blind of %d from a stack of %d", d.Amount, p.Stack), p.Stack, d.Amount)
		case !first:
		case d.Blind == events.BlindSmall && p.Seat != sb:
			h.violate(finding.BlindAmount, seq, p.Seat, fmt.Sprintf("the small blind is seat %d's", sb), sb, p.Seat)
		case d.Blind == events.BlindBig && p.Seat == sb && noSmall && len(h.Players) > 2:
			// TDA dead button (events-v1.md §7): the small blind's seat is empty, so nobody posts
			// it and the big blind is the first player dealt in left of the button. Whether the
			// big blind moved one seat is the table's check (table.dealer).
		case d.Blind == events.BlindBig && p.Seat != bb:
			h.violate(finding.BlindAmount, seq, p.Seat, fmt.Sprintf("the big blind is seat %d's", bb), bb, p.Seat)
		case d.Amount > p.Stack:
			h.violate(finding.BlindAmount, seq, p.Seat, fmt.Sprintf("a blind of %d from a stack of %d", d.Amount, p.Stack), p.Stack, d.Amount)
		}
	}
	amt := d.Amount
	if amt > p.Stack {
		amt = p.Stack
	}
	p.Stack -= amt
	p.In += amt
	if d.Blind == events.BlindDead {
		p.Dead += amt
	}
	if d.Blind != events.BlindDead {
		p.RoundIn += amt
		if p.RoundIn > h.CurrentBet {
			h.CurrentBet = p.RoundIn
			h.LastIncrement = p.RoundIn
		}
	}
	if p.Stack <= 0 {
		p.AllIn = true
	}
}

// sawBlind records a blind of kind k and reports whether one was posted before in the hand.
func (h *Hand) sawBlind(k events.BlindKind) bool {
	i := -1
	switch k {
	case events.BlindSmall:
		i = 0
	case events.BlindBig:
		i = 1
	case events.BlindDead:
		i = 2
	}
	if i >= 0 {
		seen := h.blindSeen[i]
		h.blindSeen[i] = true
		return seen
	}
	if h.blindOther == nil {
		h.blindOther = map[events.BlindKind]bool{}
	}
	seen := h.blindOther[k]
	h.blindOther[k] = true
	return seen
}

// blindSeats returns the small and big blind seats: left of the button, heads-up the button.
func (h *Hand) blindSeats() (events.Seat, events.Seat) {
	all := func(*Player) bool { return true }
	if len(h.Players) == 2 {
		sb := h.atOrLeftOf(h.Start.Dealer, all)
		return sb, h.leftOf(sb, all)
	}
	sb := h.leftOf(h.Start.Dealer, all)
	return sb, h.leftOf(sb, all)
}

func (h *Hand) onBurned(seq events.Seq, d *events.CardBurned) {
	if h.Stage < StageDeal {
		h.endSetup(seq)
	}
	h.take(seq, 0, d.Card)
	h.loc[d.Card] = inBurned
	h.lastBurn = seq
	h.lastBurned = d.Card
}

func (h *Hand) onExposed(seq events.Seq, d *events.CardExposed) {
	if d.Phase != events.PhaseShowdown {
		var seat events.Seat
		if d.Seat != nil {
			seat = *d.Seat
		}
		h.violate(finding.CardExposed, seq, seat, fmt.Sprintf("%v was exposed during the %s", d.Card, d.Phase), nil, d.Card.String())
		if h.Preset.ExposedError {
			h.Violations[len(h.Violations)-1].Severity = finding.Error
		}
	}
	if h.Preset.ExposedError {
		return // br-online: the exposure itself is the error
	}
	burned := h.lastBurn == seq-1 && h.lastBurned == d.Card
	switch d.Phase {
	case events.PhaseCut:
		h.cutExposed = true
	case events.PhaseDeal:
		h.exposedDeal++
		if burned {
			// Replaced in the deal, where presets.md keeps the card (or calls a misdeal).
			h.violate(finding.CardExposedRemedy, seq, 0, fmt.Sprintf("%v was exposed in the deal and replaced; %s keeps it (or calls a misdeal)", d.Card, h.Preset.Name), "kept", "replaced")
			return
		}
		// Among the first two known cards of the deal, unless it was dealt again later.
		firstTwo := h.dealtEarly.Has(d.Card) && !h.dealtLate.Has(d.Card)
		if firstTwo || h.exposedDeal >= 2 {
			h.misdealDue = seq
		}
	case events.PhaseDraw:
		if h.loc[d.Card] == inHand && !burned {
			h.violate(finding.CardExposedRemedy, seq, h.holder(d.Card), fmt.Sprintf("%v was exposed in the draw and kept; %s burns it and deals another", d.Card, h.Preset.Name), "burned and replaced", "kept")
			return
		}
		if burned {
			if h.Preset.ExposedDraw == RemedyReplaceEnd && h.drawer != 0 {
				if p := h.Player(h.drawer); p != nil && p.Pending > 0 {
					p.Pending--
					h.owedLater[h.drawer]++
				}
			}
		}
	}
}
