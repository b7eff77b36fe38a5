package audit

import (
	"fmt"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/rules"
)

// This file holds the single-table checks of version 1.1 (events-v1.md §7, findings-v1.md
// "Version 1.1"): players who sit down (joined), sit out (away) and go (left), and the button and
// blinds of blind games when seats change. The checks across the tables of a tournament are
// tournament.go's.

// seatConflicts reports one player in two places, or one seat with two players, among the seats
// dealt in and away (findings-v1.md v1.1 table.seating).
func seatConflicts(out []finding.Finding, first *events.Event, table string, hs *events.HandStarted) []finding.Finding {
	if len(hs.Away) == 0 {
		return out // the seats dealt in alone are checked with hand.started (log.schema)
	}
	for i, aw := range hs.Away {
		conflict := func(msg string) {
			out = append(out, mk(first.Hand, table, first.Seq, finding.TableSeating, aw.Seat, msg, nil, aw.Player))
		}
		for _, s := range hs.Seats {
			switch {
			case s.Player == aw.Player:
				conflict(fmt.Sprintf("%s is listed both as dealt in at seat %d and as away at seat %d", aw.Player, s.Seat, aw.Seat))
			case s.Seat == aw.Seat:
				conflict(fmt.Sprintf("seat %d holds two players: %s, dealt in, and %s, away", aw.Seat, s.Player, aw.Player))
			}
		}
		for _, o := range hs.Away[:i] {
			switch {
			case o.Player == aw.Player:
				conflict(fmt.Sprintf("%s is listed as away twice, at seats %d and %d", aw.Player, o.Seat, aw.Seat))
			case o.Seat == aw.Seat:
				conflict(fmt.Sprintf("seat %d holds two players who are away: %s and %s", aw.Seat, o.Player, aw.Player))
			}
		}
	}
	return out
}

// seatsAcross checks the players of a hand against those the table's previous hand left: stacks
// carried over (table.stack: the dealt in, plus rebuy; the away, unchanged; a cash-out, exactly
// the last stack) and nobody with chips lost on the way (table.seating: every player with chips
// of the previous hand is dealt in, away or left).
func seatsAcross(out []finding.Finding, first *events.Event, table string, hs *events.HandStarted, prev *tableState) []finding.Finding {
	add := func(code finding.Code, seat events.Seat, msg string, expected, actual any) {
		out = append(out, mk(first.Hand, table, first.Seq, code, seat, msg, expected, actual))
	}
	for _, s := range hs.Seats {
		last := prev.player(s.Player)
		switch {
		case s.From != "":
			// Moved from another table of a tournament: his stack continues there (tournament.move).
		case s.Joined && last != nil && !leftIn(hs, s.Player):
			add(finding.TableSeating, s.Seat, fmt.Sprintf("%s is said to have just sat down, but he was at the table's last hand and did not leave it", s.Player), nil, s.Player)
		case s.Joined:
			// His stack is his buy-in: nothing to continue from at this table.
		case last != nil:
			var rebuy events.Chips
			if s.Rebuy != nil {
				rebuy = *s.Rebuy
			}
			if last.stack+rebuy != s.Stack {
				add(finding.TableStack, s.Seat, fmt.Sprintf("%s starts with %d; he ended the last hand with %d and rebought %d", s.Player, s.Stack, last.stack, rebuy), last.stack+rebuy, s.Stack)
			}
		}
	}
	for _, aw := range hs.Away {
		if last := prev.player(aw.Player); last != nil && last.stack != aw.Stack {
			add(finding.TableStack, aw.Seat, fmt.Sprintf("%s sits out with %d; he had %d at the end of the last hand, and an away player's chips stay untouched", aw.Player, aw.Stack, last.stack), last.stack, aw.Stack)
		}
	}
	for _, l := range hs.Left {
		last := prev.player(l.Player)
		switch {
		case last == nil:
			add(finding.TableSeating, 0, fmt.Sprintf("%s is listed as gone, but he was not at the table's last hand", l.Player), nil, l.Player)
		case last.stack != l.Stack:
			add(finding.TableStack, last.seat, fmt.Sprintf("%s left with %d; his last stack was %d, and a player leaves with exactly his chips", l.Player, l.Stack, last.stack), last.stack, l.Stack)
		case hs.Tournament != nil && l.Stack > 0 && l.To == "":
			add(finding.TableSeating, last.seat, fmt.Sprintf("%s left the tournament table with %d chips without being moved to another table", l.Player, l.Stack), "to", nil)
		case dealtIn(hs, l.Player) || awayIn(hs, l.Player):
			add(finding.TableSeating, last.seat, fmt.Sprintf("%s is listed as gone, but he is still seated", l.Player), nil, l.Player)
		}
	}
	for _, pe := range prev.players {
		if pe.stack > 0 && !dealtIn(hs, pe.name) && !awayIn(hs, pe.name) && !leftIn(hs, pe.name) {
			add(finding.TableSeating, pe.seat, fmt.Sprintf("%s still has %d chips but was neither dealt in, away nor listed as gone", pe.name, pe.stack), pe.name, nil)
		}
	}
	return out
}

// awayIn reports whether hs lists name as away.
func awayIn(hs *events.HandStarted, name string) bool {
	for _, a := range hs.Away {
		if a.Player == name {
			return true
		}
	}
	return false
}

// leftIn reports whether hs lists name as gone.
func leftIn(hs *events.HandStarted, name string) bool {
	for _, l := range hs.Left {
		if l.Player == name {
			return true
		}
	}
	return false
}

// blindRotation checks the big blind and the button of a blind game against the last hands of
// its table as they were recorded (rules.Rotation): the TDA dead-button rule of events-v1.md §7
// (rules.NextBlinds), or the moving button when the hand declares rules.button "moving"
// (rules.MovingButton). After a misdeal the same button and blinds play again.
func blindRotation(out []finding.Finding, first *events.Event, table string, hs *events.HandStarted, h *rules.Hand, prev *tableState, seats []events.Seat) []finding.Finding {
	add := func(expected, actual events.Seat, misdeal bool) {
		out = dealerFinding(out, first, table, h.Preset, hs.Dealer, expected, actual, misdeal)
	}
	r := prev.rot
	if r.Misdeal {
		if hs.Dealer != r.LastButton {
			add(r.LastButton, hs.Dealer, true)
		}
		return out
	}
	if h.Preset.Button == events.ButtonMoving {
		if r.LastButton == 0 || len(seats) == 0 {
			return out
		}
		if want := rules.MovingButton(seats, r.LastButton, r.LastIn); want != hs.Dealer {
			add(want, hs.Dealer, false)
		}
		return out // the blinds left of it are the hand's own check (blind.amount)
	}
	var away []events.Seat // seated, not dealt in: the dead button may stay on one's seat
	for _, a := range hs.Away {
		away = append(away, a.Seat)
	}
	bb, button, ok := rules.NextBlindsAway(seats, rules.SeatSetOf(away), r.LastBB, r.LastSmall(), r.LastDealtIn)
	switch {
	case bb != 0 && h.BigBlind != 0 && h.BigBlind != bb && h.BigBlind != hs.Dealer:
		add(bb, h.BigBlind, false)
	case ok && button != hs.Dealer:
		add(button, hs.Dealer, false)
	}
	return out
}

// dealerFinding appends a table.dealer finding, worded by what it is about: the dealer, the seat
// before the starter, the button or the big blind (rules.DealerSubjectOf, by which explain words
// its sentence from the same fields: the hand's dealer and the finding's actual seat).
func dealerFinding(out []finding.Finding, first *events.Event, table string, p rules.Preset, dealer, expected, actual events.Seat, misdeal bool) []finding.Finding {
	var msg string
	switch p.DealerSubjectOf(dealer, actual) {
	case rules.SubjectBigBlind:
		msg = fmt.Sprintf("the big blind moves one player to the left every hand: seat %d, not %d", expected, actual)
	case rules.SubjectButton:
		switch {
		case misdeal:
			msg = fmt.Sprintf("after a misdeal the button stays at seat %d, not %d", expected, actual)
		case p.Button == events.ButtonMoving:
			msg = fmt.Sprintf("the button moves to the next seat dealt in: seat %d, not %d", expected, actual)
		default:
			msg = fmt.Sprintf("the button should be at seat %d (where the last hand's small blind was, even if nobody plays there), not %d", expected, actual)
		}
	case rules.SubjectStarter:
		msg = fmt.Sprintf("the seat before the starter should be seat %d, not %d", expected, actual)
	default:
		msg = fmt.Sprintf("the dealer should be seat %d, not %d", expected, actual)
	}
	return append(out, mk(first.Hand, table, first.Seq, finding.TableDealer, 0, msg, expected, actual))
}
