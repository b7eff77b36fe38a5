package replay

import (
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/events/handorder"
)

// Group splits a log into its hands, in the order each hand first appears, each hand's events in
// seq order.
func Group(evs []*events.Event) [][]*events.Event {
	idx := map[string]int{}
	var out [][]*events.Event
	for _, e := range evs {
		i, ok := idx[e.Hand]
		if !ok {
			i = len(out)
			idx[e.Hand] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], e)
	}
	for i := range out {
		out[i] = sorted(out[i])
	}
	return out
}

// HandSummary is one hand of a table replayed to its end: who was dealt in with what, and what
// each left with.
type HandSummary struct {
	Table  string      `json:"table"`
	Hand   string      `json:"hand"`
	Number int         `json:"number"`
	Dealer events.Seat `json:"dealer"`
	// Stacks lists each player dealt in with his stack before and after the hand; Away the
	// players seated with chips who sat it out; Left those gone since the table's last hand.
	Stacks []StackChange `json:"stacks"`
	Away   []Away        `json:"away"`
	Left   []Left        `json:"left"`
	// Carry is the carry the hand started with; EndCarry what it left for the next deal.
	Carry    events.Chips `json:"carry"`
	EndCarry events.Chips `json:"end_carry"`
	Passed   bool         `json:"passed"`
	Misdeal  bool         `json:"misdeal"`
	Ended    bool         `json:"ended"`
	// Breaks lists the players whose starting stack (or stack away, or cash-out) is not what the
	// table's previous hand left them, plus their rebuy (stack continuity); empty when the hand
	// follows on. A player who just sat down (joined) has nothing to follow on from.
	Breaks []Break `json:"breaks"`
	// Err is set when the hand could not be replayed (its stacks are then those it started with).
	Err string `json:"error,omitempty"`
}

// StackChange is one player's stack before and after a hand.
type StackChange struct {
	Seat   events.Seat  `json:"seat"`
	Player string       `json:"player"`
	Rebuy  events.Chips `json:"rebuy"`
	Before events.Chips `json:"before"`
	After  events.Chips `json:"after"`
}

// Break is a starting stack that does not follow from the previous hand of the table.
type Break struct {
	Player string       `json:"player"`
	Want   events.Chips `json:"want"` // the previous final stack plus the rebuy
	Got    events.Chips `json:"got"`
}

// InChainOrder returns hands (each a hand's events in seq order, as Group gives them) table by
// table in the order each table first appears, each table's hands in the order of their chain
// (handorder.Sort: previous, number, start time), whatever order the log holds them in; hands
// that do not begin with hand.started come last, in the order given.
func InChainOrder(hands [][]*events.Event) [][]*events.Event {
	var links []handorder.Link
	var linked, rest [][]*events.Event
	for _, h := range hands {
		if l, ok := handorder.LinkOf(h[0]); ok {
			links = append(links, l)
			linked = append(linked, h)
		} else {
			rest = append(rest, h)
		}
	}
	out := make([][]*events.Event, 0, len(hands))
	for _, i := range handorder.SortTables(links) {
		out = append(out, linked[i])
	}
	return append(out, rest...)
}

// Table replays every hand of a log to its end, each table's hands in the order of their chain
// (InChainOrder), and follows each table's stacks from hand to hand. A log may hold several
// tables; continuity is per table. Final stacks are hand.ended's where the hand ended, else what
// the events leave.
func Table(evs []*events.Event) []HandSummary {
	last := map[string]map[string]events.Chips{} // table → player → stack after its last hand
	var out []HandSummary
	for _, hand := range InChainOrder(Group(evs)) {
		first := hand[0]
		sum := HandSummary{Table: first.Table, Hand: first.Hand, Stacks: []StackChange{}, Breaks: []Break{}}
		hs, ok := first.Data.(*events.HandStarted)
		if !ok {
			sum.Err = ErrNotStarted.Error()
			out = append(out, sum)
			continue
		}
		sum.Number, sum.Dealer, sum.Carry = hs.Number, hs.Dealer, hs.Carry
		sum.Away, sum.Left = awayAndLeft(hs)
		prev := last[first.Table]
		after := map[events.Seat]events.Chips{}
		st, err := At(hand, 0)
		if err != nil {
			sum.Err = err.Error()
		} else {
			sum.Passed, sum.Misdeal, sum.Ended, sum.EndCarry = st.Passed, st.Misdeal, st.Ended, st.EndCarry
			for _, s := range st.Seats {
				after[s.Seat] = s.Stack
			}
		}
		if end := endOf(hand); end != nil {
			for _, s := range end.Stacks {
				after[s.Seat] = s.Stack
			}
		}
		next := map[string]events.Chips{}
		for name, v := range prev {
			next[name] = v // a player who sits out keeps his chips
		}
		for _, s := range hs.Seats {
			c := StackChange{Seat: s.Seat, Player: s.Player, Before: s.Stack, After: s.Stack}
			if s.Rebuy != nil {
				c.Rebuy = *s.Rebuy
			}
			if v, ok := after[s.Seat]; ok {
				c.After = v
			}
			if was, ok := prev[s.Player]; ok && !s.Joined && s.From == "" && was+c.Rebuy != s.Stack {
				sum.Breaks = append(sum.Breaks, Break{Player: s.Player, Want: was + c.Rebuy, Got: s.Stack})
			}
			sum.Stacks = append(sum.Stacks, c)
			next[s.Player] = c.After
		}
		for _, a := range hs.Away {
			if was, ok := prev[a.Player]; ok && was != a.Stack {
				sum.Breaks = append(sum.Breaks, Break{Player: a.Player, Want: was, Got: a.Stack})
			}
			next[a.Player] = a.Stack
		}
		for _, l := range hs.Left {
			if was, ok := prev[l.Player]; ok && was != l.Stack {
				sum.Breaks = append(sum.Breaks, Break{Player: l.Player, Want: was, Got: l.Stack})
			}
			delete(next, l.Player)
		}
		last[first.Table] = next
		out = append(out, sum)
	}
	return out
}

func endOf(hand []*events.Event) *events.HandEnded {
	for i := len(hand) - 1; i >= 0; i-- {
		if d, ok := hand[i].Data.(*events.HandEnded); ok {
			return d
		}
	}
	return nil
}
