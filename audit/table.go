package audit

import (
	"fmt"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/rules"
)

// tableState is what the last audited hand of a table leaves for the next one.
type tableState struct {
	dealer    events.Seat
	starter   events.Seat
	seats     []events.Seat
	carry     events.Chips
	passedOut int
	passed    bool
	misdeal   bool
	stacks    map[string]events.Chips // by player
	seatOf    map[string]events.Seat
	preset    rules.Preset
}

// continuity checks a hand's start against the previous hand of its table (table.* codes), then
// records what this hand leaves.
func (a *Auditor) continuity(table string, first *events.Event, h *rules.Hand) []finding.Finding {
	hs := h.Start
	var out []finding.Finding
	add := func(code finding.Code, seat events.Seat, msg string, expected, actual any) {
		out = append(out, mk(first.Hand, table, first.Seq, code, seat, msg, expected, actual))
	}
	prev := a.tables[table]
	p := h.Preset
	for _, s := range hs.Seats {
		if s.Rebuy != nil && *s.Rebuy > 0 && !p.Rebuys {
			add(finding.TableRebuy, s.Seat, fmt.Sprintf("%s rebought %d chips; %s allows no rebuys", s.Player, *s.Rebuy, p.Name), 0, *s.Rebuy)
		}
		if s.Stack == 0 && !p.BrokeDealtIn {
			add(finding.TableSeating, s.Seat, fmt.Sprintf("%s has no chips and was dealt in; %s deals in only players with chips", s.Player, p.Name), nil, s.Player)
		}
	}
	if prev != nil {
		dealt := map[string]bool{}
		for _, s := range hs.Seats {
			dealt[s.Player] = true
			var rebuy events.Chips
			if s.Rebuy != nil {
				rebuy = *s.Rebuy
			}
			if last, ok := prev.stacks[s.Player]; ok && last+rebuy != s.Stack {
				add(finding.TableStack, s.Seat, fmt.Sprintf("%s starts with %d; he ended the last hand with %d and rebought %d", s.Player, s.Stack, last, rebuy), last+rebuy, s.Stack)
			}
		}
		for name, st := range prev.stacks {
			if st > 0 && !dealt[name] {
				add(finding.TableSeating, prev.seatOf[name], fmt.Sprintf("%s still has %d chips but was not dealt in", name, st), name, nil)
			}
		}
		if hs.Carry != prev.carry {
			add(finding.TableCarry, 0, fmt.Sprintf("the hand starts with a carry of %d; the last hand left %d", hs.Carry, prev.carry), prev.carry, hs.Carry)
		}
		wantPassed := 0
		switch {
		case prev.passed:
			wantPassed = prev.passedOut + 1
		case prev.misdeal:
			wantPassed = prev.passedOut
		}
		if hs.PassedOut != wantPassed {
			add(finding.TablePassedOut, 0, fmt.Sprintf("passed_out is %d; the table has had %d passed-out deals in a row", hs.PassedOut, wantPassed), wantPassed, hs.PassedOut)
		}
		if want := nextDealer(prev, hs, p); want != 0 && want != hs.Dealer {
			what := "dealer"
			if p.Starter {
				what = "seat before the starter"
			}
			add(finding.TableDealer, 0, fmt.Sprintf("the %s should be seat %d, not %d", what, want, hs.Dealer), want, hs.Dealer)
		}
	}
	st := &tableState{dealer: hs.Dealer, carry: h.ExpectedCarry(), passedOut: hs.PassedOut, passed: h.Passed,
		misdeal: h.Misdeal, stacks: map[string]events.Chips{}, seatOf: map[string]events.Seat{}, preset: p}
	for _, s := range hs.Seats {
		st.seats = append(st.seats, s.Seat)
	}
	st.starter = rules.NextSeat(st.seats, hs.Dealer)
	for _, pl := range h.Players {
		st.stacks[pl.Name] = pl.Stack
		st.seatOf[pl.Name] = pl.Seat
	}
	if end := endedOf(h); end != nil {
		st.carry = end.Carry
		bySeat := map[events.Seat]events.Chips{}
		for _, s := range end.Stacks {
			bySeat[s.Seat] = s.Stack
		}
		for _, pl := range h.Players {
			if v, ok := bySeat[pl.Seat]; ok {
				st.stacks[pl.Name] = v
			}
		}
	}
	a.tables[table] = st
	return out
}

func endedOf(h *rules.Hand) *events.HandEnded { return h.Ended() }

// nextDealer is where presets.md "next hand" puts the dealer of the hand after prev.
func nextDealer(prev *tableState, hs *events.HandStarted, p rules.Preset) events.Seat {
	var seats []events.Seat
	for _, s := range hs.Seats {
		seats = append(seats, s.Seat)
	}
	return p.NextDealer(seats, prev.dealer, prev.starter, prev.misdeal)
}
