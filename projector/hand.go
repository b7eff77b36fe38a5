package projector

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
)

// hand is the projector's memory of a hand in progress: its accepted events, from hand.started
// on. It is rebuilt after a restart by reading the hand's events again from the stream.
type hand struct {
	id        string
	table     string
	startSeq  uint64 // stream sequence of hand.started
	start     *events.HandStarted
	startedAt string
	lastSeq   events.Seq
	evs       []*events.Event
	// streamSeqs holds the stream sequence of each of evs: the hand's copy (handcopy.go) keeps it.
	streamSeqs  []uint64
	quarantined int
	// all holds every event of the hand that decoded, in the order of the stream, the ones
	// quarantined included: the auditor judges the log as it is.
	all []*events.Event
	// faults holds the findings of lines naming the hand that did not decode.
	faults []finding.Finding
}

// player returns the name of the player at seat s and whether s was dealt in.
func (h *hand) player(s events.Seat) (string, bool) {
	for i := range h.start.Seats {
		if h.start.Seats[i].Seat == s {
			return h.start.Seats[i].Player, true
		}
	}
	return "", false
}

// check returns why e cannot be applied to the hand, or "" when it can.
func (h *hand) check(e *events.Event) string {
	if e.Table != h.table {
		return fmt.Sprintf("table %q differs from the hand's table %q", e.Table, h.table)
	}
	if e.Type == events.HandStartedType {
		return "hand.started of a hand already started"
	}
	if e.Seq <= h.lastSeq {
		return fmt.Sprintf("seq %d does not follow seq %d (repeated or out of order)", e.Seq, h.lastSeq)
	}
	for _, s := range seatsOf(e.Data) {
		if _, ok := h.player(s); !ok {
			return fmt.Sprintf("seat %d was not dealt in", s)
		}
	}
	if e.Type == events.HandEndedType {
		if _, err := unixMilli(e.At); err != nil {
			return err.Error()
		}
	}
	return ""
}

// seatsOf lists the seats an event's data names as a player's seat.
func seatsOf(d events.Data) []events.Seat {
	switch d := d.(type) {
	case *events.AntePosted:
		return []events.Seat{d.Seat}
	case *events.BlindPosted:
		return []events.Seat{d.Seat}
	case *events.CardDealt:
		return []events.Seat{d.Seat}
	case *events.CardExposed:
		if d.Seat != nil {
			return []events.Seat{*d.Seat}
		}
	case *events.PlayerActed:
		return []events.Seat{d.Seat}
	case *events.CardsDiscarded:
		return []events.Seat{d.Seat}
	case *events.OpenersShown:
		return []events.Seat{d.Seat}
	case *events.HandShown:
		return []events.Seat{d.Seat}
	case *events.HandMucked:
		return []events.Seat{d.Seat}
	case *events.BetReturned:
		return []events.Seat{d.Seat}
	case *events.PotAwarded:
		return []events.Seat{d.Seat}
	case *events.HandEnded:
		s := make([]events.Seat, len(d.Stacks))
		for i, st := range d.Stacks {
			s[i] = st.Seat
		}
		return s
	}
	return nil
}

// positions maps each seat dealt in to its position: the number of seats after the dealer
// going clockwise, 1 for the first seat left of the dealer (the first to act).
func positions(hs *events.HandStarted) map[events.Seat]int {
	seats := make([]events.Seat, len(hs.Seats))
	for i, s := range hs.Seats {
		seats[i] = s.Seat
	}
	sort.Slice(seats, func(i, j int) bool { return seats[i] < seats[j] })
	first := 0 // index of the first seat above the dealer, wrapping to 0
	for first < len(seats) && seats[first] <= hs.Dealer {
		first++
	}
	pos := make(map[events.Seat]int, len(seats))
	for k := range seats {
		pos[seats[(first+k)%len(seats)]] = k + 1
	}
	return pos
}

// seatSum is what one player did in a hand: a row of hand_players.
type seatSum struct {
	seat                      events.Seat
	player                    string
	position                  int
	start, end                events.Chips
	putIn, returned, won      events.Chips
	vpip, openChance, opened  bool
	raisedPre, folded, drew   bool
	stoodPat, sawSecond       bool
	wtsd, wsd, aggressivePost bool
	bets, raises, calls       int
	checks, cardsDrawn        int
	shown                     []cards.Card
}

// potSum is a row of pots.
type potSum struct {
	pot     int
	awarded events.Chips
	raked   events.Chips
	winners int
}

// summary is the hand as the read models store it when it ends.
type summary struct {
	seats                              []seatSum // in seat order
	pots                               []potSum  // in pot order
	potTotal, awarded, raked, carryOut events.Chips
	passed, misdeal, showdown          bool
	winners                            string
	endedAt                            string
}

// summarize computes the per-hand and per-player aggregates from the hand's events.
func summarize(h *hand) *summary {
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
