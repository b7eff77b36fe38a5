package rules

import (
	"slices"

	"github.com/fechado/fechado/events"
)

// Blinds are the seats of a blind game's button and blinds in one hand. Big 0 means the table's
// rotation does not place them (its first hand): the blinds are then left of the button, as the
// hand's own dealer field puts them. Small 0 with a Big is a dead small blind: nobody posts it.
// Extra are the players who come in by posting a big blind (TDA, new players).
type Blinds struct {
	Button, Small, Big events.Seat
	Extra              []events.Seat
}

// between reports whether seat s lies strictly between the button and the big blind, clockwise.
func (b Blinds) between(s events.Seat) bool {
	if b.Button < b.Big {
		return s > b.Button && s < b.Big
	}
	return s > b.Button || s < b.Big
}

// Deal places the next hand of a blind game and says who is dealt in: the players of the last
// hand still playing (old) and those who sat down since or wait for the big blind (newcomers).
// TDA "new players": a newcomer is dealt in when the big blind reaches him; one seated between
// the button and the big blind waits for it; any other may come in at once by posting a big
// blind (Blinds.Extra). At the table's first hand, or without a big blind to move on from,
// everybody is dealt in; after a misdeal the same players play again and newcomers wait. in is
// in seat order.
func (r Rotation) Deal(old, newcomers []events.Seat, dealer events.Seat) (b Blinds, in []events.Seat) {
	all := slices.Sorted(slices.Values(append(slices.Clone(old), newcomers...)))
	if r.LastBB == 0 {
		return r.Place(all, dealer), all
	}
	in = slices.Clone(old)
	if !r.Misdeal {
		first := r.Place(all, dealer)
		for _, n := range newcomers {
			if n == first.Big || !first.between(n) {
				in = append(in, n)
			}
		}
	}
	slices.Sort(in)
	var waiting SeatSet // the newcomers who wait for the big blind sit at the table, away
	for _, n := range newcomers {
		if !slices.Contains(in, n) {
			waiting |= SeatSetOf([]events.Seat{n})
		}
	}
	b = r.PlaceAway(in, waiting, dealer)
	for _, n := range newcomers {
		if n != b.Big && slices.Contains(in, n) {
			b.Extra = append(b.Extra, n)
		}
	}
	return b, in
}

// Rotation is what a blind game's table remembers of its last hands to place the next one's
// button and blinds (events-v1.md §7): the big blinds of the last hand and of the hand before it,
// the seat that posted the last hand's small blind, how many players the last hand dealt in and
// which seats (LastIn, a bit per seat), its button, whether it was a misdeal, and whether the table
// moves its button (rules.button "moving") rather than by the TDA dead button. Every seat is the
// one the hand recorded, never one the rotation expected of it (events-v1.md §7, continuity): a
// hand that broke the rule moves the next one on from where it really left the table. The zero
// Rotation knows no hand.
type Rotation struct {
	LastBB, BBBefore events.Seat
	LastSB           events.Seat
	LastDealtIn      int
	LastIn           SeatSet
	LastButton       events.Seat
	Misdeal          bool
	Moving           bool
}

// SeatSet is a set of seats, a bit per seat number.
type SeatSet uint16

// SeatSetOf returns the set of seats.
func SeatSetOf(seats []events.Seat) SeatSet {
	var m SeatSet
	for _, s := range seats {
		m |= 1 << s
	}
	return m
}

// Has reports whether s is in the set.
func (m SeatSet) Has(s events.Seat) bool { return s >= 0 && s <= events.MaxSeat && m&(1<<s) != 0 }

// LastSmall is where the last hand's small blind was: the seat that posted it; with none posted
// (a dead small blind), the seat of the big blind of the hand before, where the TDA puts it.
func (r Rotation) LastSmall() events.Seat {
	if r.LastSB != 0 {
		return r.LastSB
	}
	return r.BBBefore
}

// After returns the rotation once hand h has been played (replayed to its end). A misdeal plays
// its button and blinds again: the table's history stays the one before it (Reading R6), only
// marked so that the same button and blinds come back.
func (r Rotation) After(h *Hand) Rotation {
	if h.Misdeal {
		r.Misdeal, r.LastButton = true, h.Start.Dealer
		return r
	}
	seats := seatsOf(h)
	bb := h.BigBlind
	if bb == 0 {
		bb = h.PostedBB // posted out of its place (blind.amount): the table moves on from there
	}
	if bb == 0 {
		// No big blind was posted (the hand ended before): where the rotation put it.
		var away []events.Seat
		for _, a := range h.Start.Away {
			away = append(away, a.Seat)
		}
		bb = r.PlaceAway(seats, SeatSetOf(away), h.Start.Dealer).Big
	}
	return Rotation{LastBB: bb, BBBefore: r.LastBB, LastSB: h.SmallBlind, LastDealtIn: len(h.Players),
		LastIn: SeatSetOf(seats), LastButton: h.Start.Dealer, Moving: h.Preset.Button == events.ButtonMoving}
}

func seatsOf(h *Hand) []events.Seat {
	out := make([]events.Seat, 0, len(h.Players))
	for _, p := range h.Players {
		out = append(out, p.Seat)
	}
	return out
}

// Place returns the button and blinds of the next hand, dealt to seats (in seat order), by
// NextBlinds; dealer is the button the deal passing left would give, used only when the rotation
// knows no big blind. After a misdeal the history before it gives the same button and blinds. When NextBlinds does
// not fix the button (the table's second hand, or after heads-up play), the small blind is the
// seat dealt in before the big blind and the button the one before that.
//
// A table that moves its button (Moving) places it by MovingButton and the blinds on the next two
// seats dealt in after it.
func (r Rotation) Place(seats []events.Seat, dealer events.Seat) Blinds {
	return r.PlaceAway(seats, 0, dealer)
}

// PlaceAway is Place for a hand at which the players of the seats away sit at the table without
// being dealt in: by NextBlindsAway, the dead button may stay on the seat of one of them, and the
// two players dealt in then post the small and the big blind left of it.
func (r Rotation) PlaceAway(seats []events.Seat, away SeatSet, dealer events.Seat) Blinds {
	if r.Misdeal && r.LastBB == 0 {
		return Blinds{Button: r.LastButton} // the misdealt first hand's button again
	}
	if r.Moving && r.LastButton != 0 && len(seats) > 0 {
		if r.Misdeal {
			return MovingBlinds(seats, r.LastButton)
		}
		return MovingBlinds(seats, MovingButton(seats, r.LastButton, r.LastIn))
	}
	bb, button, ok := NextBlindsAway(seats, away, r.LastBB, r.LastSmall(), r.LastDealtIn)
	switch {
	case bb == 0:
		return Blinds{Button: dealer}
	case len(seats) == 2 && ok && !slices.Contains(seats, button):
		return Blinds{Button: button, Small: r.LastBB, Big: bb} // a dead button on a seat away
	case len(seats) == 2:
		return Blinds{Button: button, Small: button, Big: bb}
	case !ok:
		sb := PrevSeat(seats, bb)
		return Blinds{Button: PrevSeat(seats, sb), Small: sb, Big: bb}
	}
	b := Blinds{Button: button, Big: bb}
	if slices.Contains(seats, r.LastBB) {
		b.Small = r.LastBB // else the last big blind's player is gone: a dead small blind
	}
	return b
}

// SmallBlind is the small blind fechado posts when the table names none: half the big blind
// (min_bet), at least one chip (as `fechado sim --small-blind` defaults it).
func SmallBlind(st events.Stakes) events.Chips { return max(1, st.MinBet/2) }

// adviseBlinds returns the next blind to post before the deal of a blind game (presets.md
// online-draw "forced bets"): the small blind, then the big blind, where the table's rotation puts
// them (or left of the button), then an extra big blind from each newcomer who comes in by
// posting one (Blinds.Extra). false when every blind is in.
func (h *Hand) adviseBlinds(at Blinds, posted map[events.Seat]int) (Advice, bool) {
	sb, bb := h.blindSeats()
	if h.Player(at.Big) != nil && (at.Small == 0 || h.Player(at.Small) != nil) {
		sb, bb = at.Small, at.Big
	}
	st := h.Start.Stakes
	post := func(s events.Seat, amount events.Chips, kind events.BlindKind) (Advice, bool) {
		p := h.Player(s)
		return Advice{Step: StepBlind, Seat: s, Amount: min(amount, p.Stack), Blind: kind}, true
	}
	if !h.blindSeen[1] {
		if sb != 0 && !h.blindSeen[0] && sb != bb {
			if p := h.Player(sb); p != nil && p.Stack > 0 {
				return post(sb, SmallBlind(st), events.BlindSmall)
			}
		}
		if p := h.Player(bb); p != nil && p.Stack > 0 {
			return post(bb, st.MinBet, events.BlindBig)
		}
	}
	for _, s := range at.Extra {
		if p := h.Player(s); p != nil && s != bb && posted[s] == 0 && p.Stack > 0 {
			return post(s, st.MinBet, events.BlindBig)
		}
	}
	return Advice{}, false
}
