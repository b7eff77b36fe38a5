package projector

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/rules"
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
	// faults holds findings of lines the hand's audit does not take (audit.go, stray).
	faults []finding.Finding
	// bad holds the lines placed in the hand that did not decode (audit.Place), each with the
	// number of events of all before it: the auditor judges them where they lie (lines).
	bad []badLine
	// judgeTook is the time the auditor took to replay the hand on its own (audit.Judge).
	judgeTook time.Duration
}

// badLine is a line of a hand that did not decode, after the first at events of hand.all.
type badLine struct {
	at   int
	line audit.Line
}

// lines returns every line of the hand in the order of the stream, as the auditor of a file
// meets them: its events (all) and the lines that did not decode (bad).
func (h *hand) lines() []audit.Line {
	out := make([]audit.Line, 0, len(h.all)+len(h.bad))
	i := 0
	for _, b := range h.bad {
		for ; i < b.at; i++ {
			out = append(out, audit.Line{Event: h.all[i]})
		}
		out = append(out, b.line)
	}
	for ; i < len(h.all); i++ {
		out = append(out, audit.Line{Event: h.all[i]})
	}
	return out
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

// summarize returns the hand as the read models store it, taken from st, the auditor's
// rules.Hand of it (audit.Judgement.State): the chips each player put in, had returned and won,
// the opener, who showed what and whether the hand went to a showdown are the auditor's
// reading of the hand, not a second one. The positions, the name of each player and when the
// hand ended are the log's (hand.started, hand.ended); so are the final stacks, which the
// auditor checks (stack.final). st is nil when the rules cannot follow the hand (an unknown
// preset, a player count it does not allow: a log.schema finding): each player's row then
// keeps his stacks and counts nothing else.
func summarize(h *hand, st *rules.Hand) *summary {
	hs := h.start
	pos := positions(hs)
	sum := &summary{}
	var end *events.HandEnded
	if last := h.evs[len(h.evs)-1]; last.Type == events.HandEndedType {
		end, _ = last.Data.(*events.HandEnded)
		sum.endedAt = last.At
	}
	if end != nil {
		sum.carryOut = end.Carry
	}
	if st == nil {
		sum.seats = make([]seatSum, len(hs.Seats))
		for k, s := range hs.Seats {
			sum.seats[k] = seatSum{seat: s.Seat, player: s.Player, position: pos[s.Seat], start: s.Stack, end: s.Stack}
			if end != nil {
				if e, ok := rules.EndStack(end, s.Seat); ok {
					sum.seats[k].end = e
				}
			}
		}
		sort.Slice(sum.seats, func(i, j int) bool { return sum.seats[i].seat < sum.seats[j].seat })
		sum.potTotal = hs.Carry
		return sum
	}
	sum.seats = make([]seatSum, len(st.Players)) // hs.Seats, as the rules took them
	sum.passed, sum.misdeal, sum.showdown = st.Passed, st.Misdeal, st.Showdown()
	sum.raked = st.Raked
	sum.potTotal = st.Pot() + st.Raked // the carry and every chip put in and not returned
	var winners []string
	for k, p := range st.Players { // in seat order
		x := &sum.seats[k]
		*x = seatSum{seat: p.Seat, player: p.Name, position: pos[p.Seat], start: p.Start, end: p.Stack,
			putIn: p.PutIn(), returned: p.Returned, won: p.Won,
			vpip: p.Tally.VPIP, openChance: p.Tally.OpenChance, opened: p.Seat == st.Opener,
			raisedPre: p.Tally.RaisedFirst, folded: p.Folded, drew: p.Discards >= 0,
			aggressivePost: p.Tally.AggressiveSecond,
			bets:           p.Tally.Bets, raises: p.Tally.Raises, calls: p.Tally.Calls, checks: p.Tally.Checks,
			shown: p.ShownCards}
		if x.drew {
			x.cardsDrawn = p.Discards
		}
		x.stoodPat = x.drew && x.cardsDrawn == 0
		x.sawSecond = x.drew
		x.wtsd = sum.showdown && !x.folded
		x.wsd = x.wtsd && x.won > 0
		if end != nil {
			if e, ok := rules.EndStack(end, p.Seat); ok {
				x.end = e // the log's record; the auditor checks it against the events
			}
		}
		if x.won > 0 {
			winners = append(winners, p.Name)
		}
	}
	sum.winners = strings.Join(winners, ",")
	for _, a := range st.Awards {
		sum.awarded += a.Amount
	}
	for pot, r := range st.Rakes() {
		sum.pots = append(sum.pots, potSum{pot: pot, raked: r})
	}
	for i, a := range st.Awards {
		k := slices.IndexFunc(sum.pots, func(p potSum) bool { return p.pot == a.Pot })
		if k < 0 {
			sum.pots = append(sum.pots, potSum{pot: a.Pot})
			k = len(sum.pots) - 1
		}
		sum.pots[k].awarded += a.Amount
		if !slices.ContainsFunc(st.Awards[:i], func(b rules.Award) bool { return b.Pot == a.Pot && b.Seat == a.Seat }) {
			sum.pots[k].winners++ // each seat paid from the pot once
		}
	}
	slices.SortFunc(sum.pots, func(a, b potSum) int { return cmp.Compare(a.pot, b.pot) })
	return sum
}
