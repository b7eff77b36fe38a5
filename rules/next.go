package rules

import (
	"slices"

	"github.com/fechado/fechado/events"
)

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

// DealerSubject is what a table.dealer finding is about (findings-v1.md): the dealer the deal
// passing left puts (ante games), the seat before the starter (br-online), the button or the big
// blind of a blind game (events-v1.md §7). The auditor words its message by it and explain its
// sentence, both from the same fields, so that neither says "dealer" of a big blind.
type DealerSubject string

// The subjects of table.dealer.
const (
	SubjectDealer   DealerSubject = "dealer"
	SubjectStarter  DealerSubject = "starter"
	SubjectButton   DealerSubject = "button"
	SubjectBigBlind DealerSubject = "big-blind"
)

// DealerSubjectOf returns what a table.dealer finding of a hand under preset p, which names seat
// dealer as its dealer, is about when its actual value is seat actual: in a blind game the
// finding shows either the button (actual is the hand's dealer) or the big blind (actual is the
// seat that posted it, never the button's: the button posts no big blind with three or more
// players, and heads-up it posts the small one).
func (p Preset) DealerSubjectOf(dealer, actual events.Seat) DealerSubject {
	switch {
	case p.Blinds && actual != dealer:
		return SubjectBigBlind
	case p.Blinds:
		return SubjectButton
	case p.Starter:
		return SubjectStarter
	}
	return SubjectDealer
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

// NextBlinds is the dead-button rule of the TDA for blind games (events-v1.md §7): where the big
// blind and the button of a hand are, given the seats dealt into it (in seat order), the seat of
// the big blind of the last hand and the seat of its small blind (0 when unknown), as that hand
// recorded them, and how many players the last hand dealt in.
//
//   - TDA "dead button": the big blind moves one dealt-in seat to the left every hand, so nobody
//     misses it: it is the first seat dealt in after the last hand's big blind. The small blind is
//     posted from the seat that had the last big blind (none when that player is gone: a dead
//     small blind), and the button goes to the seat that had the last small blind, even when
//     nobody is dealt in there (a dead button); dealer names that seat. The last small blind is
//     where the last hand posted it (Rotation.LastSB) and, when it posted none (a dead small
//     blind), the seat of the big blind of the hand before it: always the hand as recorded, so a
//     hand that broke the rule is judged once, and the next from where it left the table
//     (events-v1.md §7, continuity).
//   - TDA "button in heads-up": with two players the button posts the small blind and the other
//     player the big blind; when play becomes heads-up the button is placed so that nobody takes
//     the big blind twice in a row, which the big blind's move already ensures. Play is not
//     heads-up while a third player still sits at the table: NextBlindsAway.
//   - New players and the big blind: a player who sits down is dealt in when the big blind
//     reaches him, or earlier by posting a big blind from his seat (an extra blind); meanwhile he
//     is away, waiting for it. Either way the big blind moves as above.
//
// ok is false when the rule does not fix the button: without the last two big blinds, or in the
// hand after heads-up play (the button then only has to keep the blinds where the rule puts them).
func NextBlinds(seats []events.Seat, lastBB, lastSB events.Seat, lastDealtIn int) (bb, button events.Seat, ok bool) {
	return NextBlindsAway(seats, 0, lastBB, lastSB, lastDealtIn)
}

// NextBlindsAway is NextBlinds for a hand at which the players of the seats away are seated but
// not dealt in (sitting out, or waiting for the big blind). Two players dealt in are not heads-up
// while the player of the last small blind still sits at the table, out of this hand, and the last
// big blind, dealt in, is the first player after him: the button stays dead on his seat, as on an
// empty one, and the two players dealt in post the small blind (the last big blind, as the TDA
// has it) and the big blind left of it (events.md, Reading R6: a real Boss session of 2011, hand
// 2692988440 of testdata/hh/boss/5CD-FL-EUR-2-4.Opoker.sample.xml, leaves the button with a
// player who sits out, three-handed, and the blinds to the other two; at the next hand he has
// left, play is heads-up and the big blind moves on). Otherwise two players dealt in play
// heads-up: the button posts the small blind.
func NextBlindsAway(seats []events.Seat, away SeatSet, lastBB, lastSB events.Seat, lastDealtIn int) (bb, button events.Seat, ok bool) {
	if lastBB == 0 || len(seats) == 0 {
		return 0, 0, false
	}
	bb = NextSeat(seats, lastBB)
	switch {
	case len(seats) == 2 && !(away.Has(lastSB) && lastDealtIn > 2 && NextSeat(seats, lastSB) == lastBB):
		for _, s := range seats {
			if s != bb {
				return bb, s, true
			}
		}
	case lastSB != 0 && lastDealtIn > 2 && lastSB != bb:
		return bb, lastSB, true
	}
	return bb, 0, false
}

// MovingButton is the moving button of online rooms' cash games (rules.button "moving",
// events-v1.md §7, 2026-12-05): the button moves to the next seat dealt in after the last hand's
// button. A seat dealt in now that was not dealt in to the last hand (a player who sat down, or
// came back from sitting out; last holds the last hand's seats) does not take the button: he comes
// in behind it, as PokerStars deals ("will be allowed to play after the button"; the 2009 session
// of handhistory's tests, hand 35839492817, moves the button from seat 4 past newcomer seat 5 to
// seat 6). When no seat was dealt in to both, the next seat dealt in.
func MovingButton(seats []events.Seat, lastButton events.Seat, last SeatSet) events.Seat {
	var old []events.Seat
	for _, s := range seats {
		if last.Has(s) {
			old = append(old, s)
		}
	}
	if len(old) == 0 {
		return NextSeat(seats, lastButton)
	}
	return NextSeat(old, lastButton)
}

// MovingBlinds places the blinds of a moving-button hand whose button is at seat button: the next
// two seats dealt in after it post the small and the big blind; heads-up the button posts the
// small blind and the other player the big (TDA "button in heads-up").
func MovingBlinds(seats []events.Seat, button events.Seat) Blinds {
	if len(seats) == 2 {
		sb := button
		if !slices.Contains(seats, sb) {
			sb = NextSeat(seats, button)
		}
		return Blinds{Button: button, Small: sb, Big: NextSeat(seats, sb)}
	}
	sb := NextSeat(seats, button)
	return Blinds{Button: button, Small: sb, Big: NextSeat(seats, sb)}
}
