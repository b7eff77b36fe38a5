package projector

import (
	"sort"
	"strings"

	"github.com/fechado/fechado/events"
)

// summarizeEvents is the projector's own derivation of a hand's summary from its events, as it
// was before the read models took it from the auditor's rules.Hand: kept here, and only here,
// as the "before" that TestReadModelsTakeTheAuditorsHand compares the rows with.
func summarizeEvents(h *hand) *summary {
	hs := h.start
	pos := positions(hs)
	sum := &summary{seats: make([]seatSum, len(hs.Seats))}
	idx := make(map[events.Seat]*seatSum, len(hs.Seats))
	order := make([]int, len(hs.Seats))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return hs.Seats[order[a]].Seat < hs.Seats[order[b]].Seat })
	for k, i := range order {
		s := hs.Seats[i]
		sum.seats[k] = seatSum{seat: s.Seat, player: s.Player, position: pos[s.Seat], start: s.Stack, end: s.Stack}
		idx[s.Seat] = &sum.seats[k]
	}

	// The opening round is the blind round where there is one (br-online), else round first.
	opening := events.RoundFirst
	blinds := false
	for _, e := range h.evs {
		switch d := e.Data.(type) {
		case *events.PlayerActed:
			if d.Round == events.RoundBlind {
				opening = events.RoundBlind
			}
		case *events.BlindPosted:
			blinds = true
		}
	}
	betMade := blinds // with posted blinds nobody opens: the blind is the bet
	pots := map[int]*potSum{}
	potOf := func(n int) *potSum {
		p := pots[n]
		if p == nil {
			p = &potSum{pot: n}
			pots[n] = p
		}
		return p
	}
	paid := map[[2]int]bool{} // (pot, seat) pairs paid
	var ended *events.HandEnded
	for _, e := range h.evs {
		switch d := e.Data.(type) {
		case *events.AntePosted:
			idx[d.Seat].putIn += d.Amount
		case *events.BlindPosted:
			idx[d.Seat].putIn += d.Amount
		case *events.PlayerActed:
			s := idx[d.Seat]
			s.putIn += d.Amount
			pre := d.Round == events.RoundBlind || d.Round == events.RoundFirst
			switch d.Action {
			case events.Bet:
				s.bets++
			case events.Raise:
				s.raises++
			case events.Call:
				s.calls++
			case events.Check:
				s.checks++
			case events.Fold:
				s.folded = true
			}
			if pre && (d.Action == events.Bet || d.Action == events.Call || d.Action == events.Raise) {
				s.vpip = true
			}
			if pre && d.Action == events.Raise {
				s.raisedPre = true
			}
			if d.Round == events.RoundSecond && (d.Action == events.Bet || d.Action == events.Raise) {
				s.aggressivePost = true
			}
			if d.Round == opening && !betMade {
				s.openChance = true
				if d.Action == events.Bet {
					s.opened = true
					betMade = true
				}
			}
		case *events.CardsDiscarded:
			s := idx[d.Seat]
			s.drew = true
			s.cardsDrawn += len(d.Cards)
		case *events.HandShown:
			idx[d.Seat].shown = d.Cards
		case *events.BetReturned:
			idx[d.Seat].returned += d.Amount
		case *events.PotRaked:
			potOf(d.Pot).raked += d.Amount
			sum.raked += d.Amount
		case *events.PotAwarded:
			idx[d.Seat].won += d.Amount
			p := potOf(d.Pot)
			p.awarded += d.Amount
			if !paid[[2]int{d.Pot, int(d.Seat)}] {
				paid[[2]int{d.Pot, int(d.Seat)}] = true
				p.winners++
			}
			sum.awarded += d.Amount
		case *events.HandPassed:
			sum.passed = true
		case *events.MisdealDeclared:
			sum.misdeal = true
		case *events.HandEnded:
			ended = d
			sum.endedAt = e.At
		}
	}
	live := 0
	for i := range sum.seats {
		if !sum.seats[i].folded {
			live++
		}
	}
	sum.showdown = !sum.passed && !sum.misdeal && live >= 2
	sum.potTotal = hs.Carry
	var winners []string
	for i := range sum.seats {
		s := &sum.seats[i]
		s.end = s.start - s.putIn + s.returned + s.won
		s.stoodPat = s.drew && s.cardsDrawn == 0
		s.sawSecond = s.drew
		s.wtsd = sum.showdown && !s.folded
		s.wsd = s.wtsd && s.won > 0
		sum.potTotal += s.putIn - s.returned
		if s.won > 0 {
			winners = append(winners, s.player)
		}
	}
	if ended != nil {
		sum.carryOut = ended.Carry
		for _, st := range ended.Stacks {
			idx[st.Seat].end = st.Stack
		}
	}
	sum.winners = strings.Join(winners, ",")
	for _, p := range pots {
		sum.pots = append(sum.pots, *p)
	}
	sort.Slice(sum.pots, func(i, j int) bool { return sum.pots[i].pot < sum.pots[j].pot })
	return sum
}
