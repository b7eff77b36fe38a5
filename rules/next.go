package rules

import "github.com/fechado/fechado/events"

// NextSeat returns the first of seats (in seat order) strictly clockwise after s, wrapping
// around; 0 when seats is empty.
func NextSeat(seats []events.Seat, s events.Seat) events.Seat {
	for _, x := range seats {
		if x > s {
			return x
		}
	}
	if len(seats) == 0 {
		return 0
	}
	return seats[0]
}

// PrevSeat returns the seat of seats (in seat order) just counter-clockwise before s; 0 when seats
// is empty.
func PrevSeat(seats []events.Seat, s events.Seat) events.Seat {
	if len(seats) == 0 {
		return 0
	}
	out := seats[len(seats)-1]
	for _, x := range seats {
		if x < s {
			out = x
		}
	}
	return out
}

// NextDealer is presets.md "next hand": where the dealer of the next hand sits, given the seats
// dealt into it, the last hand's dealer and starter (the first player left of its dealer), and
// whether the last hand was a misdeal. The deal passes left; after a misdeal the same dealer
// deals again; in br-online (Starter) the starter passes left even if he folded, and dealer names
// the seat just before him.
func (p Preset) NextDealer(seats []events.Seat, lastDealer, lastStarter events.Seat, misdeal bool) events.Seat {
	switch {
	case len(seats) == 0:
		return 0
	case misdeal:
		return lastDealer
	case p.Starter:
		return PrevSeat(seats, NextSeat(seats, lastStarter))
	}
	return NextSeat(seats, lastDealer)
}

// Qualifies reports whether a hand of value v opens under the hand's openers rule (presets.md
// "minimum to open", progressive by passed_out in br-fechado).
func (h *Hand) Qualifies(v Value) bool {
	pair, two := h.Preset.MinOpen(h.Start.PassedOut)
	switch {
	case two:
		return h.Eval.TwoPairAtLeast(v)
	case pair == 0:
		return true
	}
	return h.Eval.PairAtLeast(v, pair)
}
