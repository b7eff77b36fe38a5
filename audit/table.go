package audit

import (
	"fmt"
	"strings"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/rules"
)

// tableState is what the last audited hand of a table leaves for the next one. Each table has
// one, rewritten in place by each hand once the hand has been checked against it.
type tableState struct {
	dealer    events.Seat
	starter   events.Seat
	seats     []events.Seat
	carry     events.Chips
	passedOut int
	passed    bool
	misdeal   bool
	// players holds each player of the hand once, in the order of his first seat: a table has a
	// handful, so a slice scanned by name serves where a map would allocate for every hand. The
	// names are the table's own copies, not the events' strings (whose memory may be reused, see
	// Auditor.Idle): each is copied once, when its player joins. spare is the list before it,
	// reused for the next.
	players, spare []playerEnd
	// rot is where a blind game's table puts the next hand's button and blinds (events-v1.md §7,
	// the TDA dead button), the rules' own bookkeeping of it; ante games leave it zero.
	rot rules.Rotation
}

// playerEnd is a player as a hand leaves him: his seat and the stack he ended with, or, away, the
// stack he sat out with.
type playerEnd struct {
	name  string
	seat  events.Seat
	stack events.Chips
	away  bool
}

// player returns the entry of the player called name, or nil.
func (st *tableState) player(name string) *playerEnd {
	return findPlayer(st.players, name)
}

// findPlayer returns the entry of ps of the player called name, or nil.
func findPlayer(ps []playerEnd, name string) *playerEnd {
	for i := range ps {
		if ps[i].name == name {
			return &ps[i]
		}
	}
	return nil
}

// continuity checks a hand's start against the previous hand of its table (table.* codes),
// appending the findings to out, then records what this hand leaves.
func (a *Auditor) continuity(out []finding.Finding, table string, first *events.Event, h *rules.Hand) []finding.Finding {
	hs := h.Start
	prev := a.tables[table]
	p := h.Preset
	out = seatingAllowed(out, first, table, hs, p, prev)
	// The seats dealt in, in seat order: for the rotation, and what the next hand rotates from.
	var seatBuf [events.MaxSeat]events.Seat
	seats := seatBuf[:0]
	for _, s := range hs.Seats {
		seats = append(seats, s.Seat)
	}
	out = seatConflicts(out, first, table, hs)
	if prev != nil {
		out = seatsAcross(out, first, table, hs, prev)
		out = carryAcross(out, first, table, hs, prev)
		// presets.md "next hand" puts the dealer of this hand where the last one leaves it; in
		// blind games the TDA dead-button rule does (events-v1.md §7).
		if p.Blinds {
			out = blindRotation(out, first, table, hs, h, prev, seats)
		} else {
			out = dealerAcross(out, first, table, hs, p, seats, prev)
		}
	}
	// The previous state has been read: this hand's replaces it, in the same storage.
	a.continued++
	st := prev
	if st == nil {
		st = &tableState{}
		a.tables[strings.Clone(table)] = st
	}
	last := st.players
	before := *st
	*st = tableState{dealer: hs.Dealer, carry: h.ExpectedCarry(), passedOut: hs.PassedOut, passed: h.Passed,
		misdeal: h.Misdeal, seats: append(st.seats[:0], seats...), players: st.spare[:0]}
	if p.Blinds {
		st.rot = before.rot.After(h)
	}
	st.starter = rules.NextSeat(st.seats, hs.Dealer)
	for _, pl := range h.Players {
		if pe := st.player(pl.Name); pe != nil {
			pe.seat, pe.stack = pl.Seat, pl.Stack
			continue
		}
		name := pl.Name
		if pe := findPlayer(last, name); pe != nil {
			name = pe.name // the table's copy
		} else {
			name = strings.Clone(name)
		}
		st.players = append(st.players, playerEnd{name: name, seat: pl.Seat, stack: pl.Stack})
	}
	for _, aw := range hs.Away {
		// An away player's chips stay on the table (events-v1.md §7): he is still at it.
		if st.player(aw.Player) != nil {
			continue
		}
		name := aw.Player
		if pe := findPlayer(last, name); pe != nil {
			name = pe.name
		} else {
			name = strings.Clone(name)
		}
		st.players = append(st.players, playerEnd{name: name, seat: aw.Seat, stack: aw.Stack, away: true})
	}
	clear(last)
	st.spare = last[:0]
	if end := h.Ended(); end != nil {
		st.carry = end.Carry
		for _, pl := range h.Players {
			if v, ok := rules.EndStack(end, pl.Seat); ok {
				st.player(pl.Name).stack = v
			}
		}
	}
	return out
}

// seatingAllowed checks each seat hs deals in against preset p: a rebuy only where p allows
// rebuys, and a player without chips only where p deals such players in, or where his last
// chips are in the pot the table's last hand (prev) carried to this one: he was dealt in to it
// and it left a carry (events-v1.md §7, 2026-12-05).
func seatingAllowed(out []finding.Finding, first *events.Event, table string, hs *events.HandStarted, p rules.Preset, prev *tableState) []finding.Finding {
	for _, s := range hs.Seats {
		if s.Rebuy != nil && *s.Rebuy > 0 && !p.Rebuys {
			out = append(out, mk(first.Hand, table, first.Seq, finding.TableRebuy, s.Seat, fmt.Sprintf("%s rebought %d chips; %s allows no rebuys", s.Player, *s.Rebuy, p.Name), 0, *s.Rebuy))
		}
		if s.Stack == 0 && !p.BrokeDealtIn && !prev.sharesCarry(s.Player) {
			out = append(out, mk(first.Hand, table, first.Seq, finding.TableSeating, s.Seat, fmt.Sprintf("%s has no chips and was dealt in; %s deals in only players with chips", s.Player, p.Name), nil, s.Player))
		}
	}
	return out
}

// sharesCarry reports whether the player called name has chips in the pot the table's last hand
// carried: he was dealt in to it (not away) and it left a carry. A nil state has no last hand.
func (st *tableState) sharesCarry(name string) bool {
	if st == nil || st.carry == 0 {
		return false
	}
	pe := st.player(name)
	return pe != nil && !pe.away
}

// carryAcross checks the carry and the passed_out count of hs against what the table's previous
// hand left (prev): a passed-out deal adds one to the count, a misdeal keeps it, any other hand
// starts it again from 0.
func carryAcross(out []finding.Finding, first *events.Event, table string, hs *events.HandStarted, prev *tableState) []finding.Finding {
	if hs.Carry != prev.carry {
		out = append(out, mk(first.Hand, table, first.Seq, finding.TableCarry, 0, fmt.Sprintf("the hand starts with a carry of %d; the last hand left %d", hs.Carry, prev.carry), prev.carry, hs.Carry))
	}
	wantPassed := 0
	switch {
	case prev.passed:
		wantPassed = prev.passedOut + 1
	case prev.misdeal:
		wantPassed = prev.passedOut
	}
	if hs.PassedOut != wantPassed {
		out = append(out, mk(first.Hand, table, first.Seq, finding.TablePassedOut, 0, fmt.Sprintf("passed_out is %d; the table has had %d passed-out deals in a row", hs.PassedOut, wantPassed), wantPassed, hs.PassedOut))
	}
	return out
}

// dealerAcross checks the dealer of hs (or, in a preset with a starter, the seat before him)
// against where preset p's "next hand" rule moves it from the previous hand (prev), in games
// without blinds; seats are the seats hs deals in, in seat order.
func dealerAcross(out []finding.Finding, first *events.Event, table string, hs *events.HandStarted, p rules.Preset, seats []events.Seat, prev *tableState) []finding.Finding {
	if want := p.NextDealer(seats, prev.dealer, prev.starter, prev.misdeal); want != 0 && want != hs.Dealer {
		out = dealerFinding(out, first, table, p, hs.Dealer, want, hs.Dealer, prev.misdeal)
	}
	return out
}

// dealtIn reports whether hs deals name in.
func dealtIn(hs *events.HandStarted, name string) bool {
	for _, s := range hs.Seats {
		if s.Player == name {
			return true
		}
	}
	return false
}
