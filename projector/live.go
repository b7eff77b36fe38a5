package projector

import (
	"context"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/rules"
)

// SeatState is a seat of a table in Live. It holds no face-down card: only how many cards the
// player holds and the cards everybody has seen.
type SeatState struct {
	Seat   events.Seat
	Player string
	// Stack is the chips behind: the hand's starting stack less what he put in, plus what came back.
	Stack events.Chips
	// InFront is what he put in during the current betting round (antes and blinds included
	// before the first round).
	InFront events.Chips
	// InPot is what he put in during the whole hand, less chips returned.
	InPot  events.Chips
	Cards  int  // cards held, face down or up
	Folded bool // folded (his cards are gone)
	AllIn  bool // no chips behind after putting some in
	// Drawn is the number of cards he discarded; -1 before he drew.
	Drawn int
	// Exposed lists cards of his seen face up during the deal or the draw (card.exposed).
	Exposed []cards.Card
	// Openers lists the cards he showed to prove his openers.
	Openers []cards.Card
	// Shown lists the five cards he showed at showdown.
	Shown []cards.Card
	// Won is what pots paid him.
	Won events.Chips
}

// TableState is a table in Live: the hand in progress (or the last one, once ended).
type TableState struct {
	Table  string
	Hand   string // id of the current or last hand
	Number int
	Preset string
	Dealer events.Seat
	// Stage is where the hand stands, as rules.Hand follows it; Passed and Misdeal say how a hand
	// that ended without a showdown finished.
	Stage   rules.Stage
	Passed  bool
	Misdeal bool
	// Round is the betting round in progress or last played ("" before any).
	Round events.Round
	Seats []SeatState // in seat order
	// Away lists the players seated with chips who are not dealt in (events-v1.md §7).
	Away []events.AwaySeat
	// Pot holds the chips in the middle: carry, antes, blinds and bets, less returns and payouts.
	Pot events.Chips
	// Carry is the chips the hand started with in the pot (from passed-out deals).
	Carry events.Chips
	// ToAct is the seat whose turn it is in a betting round (rules.Hand.Turn); 0 outside one.
	ToAct events.Seat
	// Commitment is the published commitment of the hand's machine shuffle ("" if none).
	Commitment string
	Events     int        // events of the hand applied
	Seq        events.Seq // seq of the last one
	At         string     // its time

	// hand follows the public views of the hand's events (nil when its rules cannot be followed).
	hand *rules.Hand
	// version is Live's version at the table's last change (Live.TablesIf).
	version uint64
}

// clone returns a deep copy.
func (t *TableState) clone() TableState {
	c := *t
	c.hand = nil
	c.Away = slices.Clone(t.Away)
	c.Seats = make([]SeatState, len(t.Seats))
	for i, s := range t.Seats {
		s.Exposed = slices.Clone(s.Exposed)
		s.Openers = slices.Clone(s.Openers)
		s.Shown = slices.Clone(s.Shown)
		c.Seats[i] = s
	}
	return c
}

// Live is the state of every table as the stream shows it, for hands in progress. The projector
// applies each event after committing it; readers may call Table, Tables and Subscribe from any
// goroutine. Live never holds a face-down card or a seed: it follows each hand through
// rules.Hand, fed the public view of each event (events.Public), so it knows only card counts
// and the cards seen face up, as a spectator does.
type Live struct {
	mu     sync.RWMutex
	tables map[string]*TableState
	subs   map[*Subscription]struct{}
	// version counts the changes: readers that keep an answer built from Live (the web's
	// GET /api/tables) build it again only when it moved.
	version atomic.Uint64
}

// Version returns a number that grows at every change of a table's state: two calls that return
// the same number saw the same tables.
func (l *Live) Version() uint64 { return l.version.Load() }

// NewLive returns an empty Live.
func NewLive() *Live {
	return &Live{tables: map[string]*TableState{}, subs: map[*Subscription]struct{}{}}
}

// Table returns a copy of the state of table id, and whether Live knows the table.
func (l *Live) Table(id string) (TableState, bool) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	t, ok := l.tables[id]
	if !ok {
		return TableState{}, false
	}
	return t.clone(), true
}

// Tables returns a copy of every table's state, ordered by table id.
func (l *Live) Tables() []TableState {
	l.mu.RLock()
	defer l.mu.RUnlock()
	ts := make([]TableState, 0, len(l.tables))
	for _, t := range l.tables {
		ts = append(ts, t.clone())
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].Table < ts[j].Table })
	return ts
}

// TableVersion names a table of Live and the version of its state: the same version, the same
// state.
type TableVersion struct {
	Table   string
	Version uint64
}

// TablesIf returns every table with the version of its state, ordered by table id, and a copy
// of the state of each table for which stale(table, version) is true, by table id: a reader
// that keeps what it built of each table (the web's GET /api/tables) copies only the tables that
// changed since, not all of a room's at every change of one.
func (l *Live) TablesIf(stale func(table string, version uint64) bool) ([]TableVersion, map[string]TableState) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	all := make([]TableVersion, 0, len(l.tables))
	changed := map[string]TableState{}
	for id, t := range l.tables {
		all = append(all, TableVersion{id, t.version})
		if stale(id, t.version) {
			changed[id] = t.clone()
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Table < all[j].Table })
	return all, changed
}

// Apply updates the table of e with it. Events of a hand other than the table's current one are
// ignored unless e starts a new hand. The projector calls it for every event it accepted.
func (l *Live) Apply(e *events.Event) {
	l.mu.Lock()
	changed := l.apply(e)
	var subs []*Subscription
	if changed {
		subs = make([]*Subscription, 0, len(l.subs))
		for s := range l.subs {
			subs = append(subs, s)
		}
	}
	l.mu.Unlock()
	for _, s := range subs {
		s.notify(e.Table)
	}
}

func (l *Live) apply(e *events.Event) bool {
	pe, shown := events.Public(e)
	if !shown {
		return false // a burn or a seed: nothing public until the hand ends
	}
	t := l.tables[e.Table]
	if hs, ok := pe.Data.(*events.HandStarted); ok {
		t = &TableState{Table: e.Table, Hand: e.Hand, Number: hs.Number, Preset: hs.Rules.Name, Dealer: hs.Dealer,
			Away: slices.Clone(hs.Away)}
		t.hand, _ = rules.NewHand(pe) // nil for rules it cannot follow: the seats still show
		for _, s := range hs.Seats {
			t.Seats = append(t.Seats, SeatState{Seat: s.Seat, Player: s.Player, Stack: s.Stack, Drawn: -1})
		}
		sort.Slice(t.Seats, func(i, j int) bool { return t.Seats[i].Seat < t.Seats[j].Seat })
		l.tables[e.Table] = t
	} else if t == nil || t.Hand != e.Hand {
		return false
	} else if t.hand != nil {
		t.hand.Apply(pe)
	}
	t.Events++
	t.Seq, t.At = e.Seq, e.At
	t.follow(pe)
	t.version = l.version.Add(1)
	return true
}

// follow updates t with the state of its rules.Hand after e, and what e shows face up.
func (t *TableState) follow(e *events.Event) {
	seat := func(s events.Seat) *SeatState {
		for i := range t.Seats {
			if t.Seats[i].Seat == s {
				return &t.Seats[i]
			}
		}
		return nil
	}
	switch d := e.Data.(type) {
	case *events.DeckShuffled:
		if d.Commitment != "" && t.Commitment == "" {
			t.Commitment = d.Commitment
		}
	case *events.CardExposed:
		if d.Seat != nil && d.Phase != events.PhaseShowdown {
			if s := seat(*d.Seat); s != nil {
				s.Exposed = append(s.Exposed, d.Card)
			}
		}
	case *events.OpenersShown:
		if s := seat(d.Seat); s != nil {
			s.Openers = slices.Clone(d.Cards)
		}
	case *events.HandShown:
		if s := seat(d.Seat); s != nil {
			s.Shown = slices.Clone(d.Cards)
		}
	}
	h := t.hand
	if h == nil {
		return
	}
	t.Stage, t.Round, t.ToAct, t.Passed, t.Misdeal = h.Stage, h.Round, h.Turn(), h.Passed, h.Misdeal
	t.Carry = h.Carry
	t.Pot = h.Pot()
	for _, p := range h.Players {
		s := seat(p.Seat)
		if s == nil {
			continue
		}
		s.Stack, s.InPot, s.InFront, s.Won = p.Stack, p.In, p.RoundIn, p.Won
		s.Folded, s.AllIn = p.Folded, p.AllIn
		s.Cards = len(p.Cards) + p.Hidden
		if p.Folded || p.Mucked {
			s.Cards = 0
		}
		s.Drawn = p.Discards
		t.Pot -= p.Won
	}
	if d, ok := e.Data.(*events.HandEnded); ok {
		for _, st := range d.Stacks {
			if s := seat(st.Seat); s != nil {
				s.Stack = st.Stack
			}
		}
		t.Pot = d.Carry
	}
}

// Subscription tells its reader which tables changed. Changes are coalesced: a slow reader
// gets each changed table once, and reads the latest state with Live.Table; nothing is lost and
// the projector never waits for a reader.
type Subscription struct {
	live    *Live
	mu      sync.Mutex
	pending map[string]struct{}
	ready   chan struct{}
}

// Subscribe returns a Subscription to the changes of every table; Close it when done.
func (l *Live) Subscribe() *Subscription {
	s := &Subscription{live: l, pending: map[string]struct{}{}, ready: make(chan struct{}, 1)}
	l.mu.Lock()
	l.subs[s] = struct{}{}
	l.mu.Unlock()
	return s
}

func (s *Subscription) notify(table string) {
	s.mu.Lock()
	s.pending[table] = struct{}{}
	s.mu.Unlock()
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

// Next waits until at least one table changed since the last call and returns the ids of the
// changed tables, sorted; or returns ctx.Err() when ctx is done first.
func (s *Subscription) Next(ctx context.Context) ([]string, error) {
	for {
		s.mu.Lock()
		if len(s.pending) > 0 {
			ids := make([]string, 0, len(s.pending))
			for id := range s.pending {
				ids = append(ids, id)
			}
			clear(s.pending)
			s.mu.Unlock()
			sort.Strings(ids)
			return ids, nil
		}
		s.mu.Unlock()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-s.ready:
		}
	}
}

// Close ends the subscription.
func (s *Subscription) Close() {
	s.live.mu.Lock()
	delete(s.live.subs, s)
	s.live.mu.Unlock()
}
