package projector

import (
	"context"
	"slices"
	"sort"
	"sync"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
)

// Stage says where a hand stands.
type Stage string

// The stages of a hand, as Live follows them.
const (
	StageStarted  Stage = "started"  // hand.started: shuffle, cut, antes, deal
	StageBlind    Stage = "blind"    // betting round blind
	StageFirst    Stage = "first"    // betting round first
	StageDraw     Stage = "draw"     // the draw
	StageSecond   Stage = "second"   // betting round second
	StageShowdown Stage = "showdown" // hands shown or mucked, pots paid
	StagePassed   Stage = "passed"   // nobody opened
	StageMisdeal  Stage = "misdeal"  // the hand is void
	StageEnded    Stage = "ended"    // hand.ended
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
	Won    events.Chips
	acted  bool // has acted since the last bet or raise of the round
	played bool // was dealt in with chips
}

// TableState is a table in Live: the hand in progress (or the last one, once ended).
type TableState struct {
	Table  string
	Hand   string // id of the current or last hand
	Number int
	Preset string
	Dealer events.Seat
	Stage  Stage
	// Round is the betting round in progress or last played ("" before any).
	Round events.Round
	Seats []SeatState // in seat order
	// Pot holds the chips in the middle: carry, antes, blinds and bets, less returns and payouts.
	Pot events.Chips
	// Carry is the chips the hand started with in the pot (from passed-out deals).
	Carry events.Chips
	// ToAct is the seat whose turn it is in a betting round, derived from the actions so far; 0
	// when unknown (before the round's first action) or when the round is complete.
	ToAct events.Seat
	// Commitment is the published commitment of the hand's machine shuffle ("" if none).
	Commitment string
	Events     int        // events of the hand applied
	Seq        events.Seq // seq of the last one
	At         string     // its time
}

// clone returns a deep copy.
func (t *TableState) clone() TableState {
	c := *t
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
// goroutine. Live never holds a face-down card or a seed: only card counts and exposed cards.
type Live struct {
	mu     sync.RWMutex
	tables map[string]*TableState
	subs   map[*Subscription]struct{}
}

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
	t := l.tables[e.Table]
	if hs, ok := e.Data.(*events.HandStarted); ok {
		t = &TableState{Table: e.Table, Hand: e.Hand, Number: hs.Number, Preset: hs.Rules.Name,
			Dealer: hs.Dealer, Stage: StageStarted, Pot: hs.Carry, Carry: hs.Carry}
		for _, s := range hs.Seats {
			t.Seats = append(t.Seats, SeatState{Seat: s.Seat, Player: s.Player, Stack: s.Stack,
				Drawn: -1, played: s.Stack > 0})
		}
		sort.Slice(t.Seats, func(i, j int) bool { return t.Seats[i].Seat < t.Seats[j].Seat })
		l.tables[e.Table] = t
	}
	if t == nil || t.Hand != e.Hand {
		return false
	}
	t.Events++
	t.Seq, t.At = e.Seq, e.At
	seat := func(s events.Seat) *SeatState {
		for i := range t.Seats {
			if t.Seats[i].Seat == s {
				return &t.Seats[i]
			}
		}
		return nil
	}
	put := func(s *SeatState, n events.Chips) {
		s.Stack -= n
		s.InFront += n
		s.InPot += n
		t.Pot += n
		if n > 0 && s.Stack <= 0 {
			s.AllIn = true
		}
	}
	switch d := e.Data.(type) {
	case *events.DeckShuffled:
		if d.Commitment != "" && t.Commitment == "" {
			t.Commitment = d.Commitment
		}
	case *events.AntePosted:
		if s := seat(d.Seat); s != nil {
			put(s, d.Amount)
		}
	case *events.BlindPosted:
		if s := seat(d.Seat); s != nil {
			put(s, d.Amount)
		}
	case *events.CardDealt:
		if s := seat(d.Seat); s != nil {
			s.Cards++
		}
	case *events.CardExposed:
		if d.Seat != nil && d.Phase != events.PhaseShowdown {
			if s := seat(*d.Seat); s != nil {
				s.Exposed = append(s.Exposed, d.Card)
			}
		}
	case *events.PlayerActed:
		s := seat(d.Seat)
		if s == nil {
			break
		}
		if t.Round != d.Round {
			t.Round = d.Round
			for i := range t.Seats {
				t.Seats[i].InFront, t.Seats[i].acted = 0, false
			}
		}
		t.Stage = Stage(d.Round)
		put(s, d.Amount)
		s.acted = true
		switch d.Action {
		case events.Fold:
			s.Folded, s.Cards = true, 0
		case events.Bet, events.Raise:
			for i := range t.Seats {
				if &t.Seats[i] != s {
					t.Seats[i].acted = false
				}
			}
		}
		t.ToAct = t.nextToAct(d.Seat)
	case *events.CardsDiscarded:
		if s := seat(d.Seat); s != nil {
			if s.Drawn < 0 {
				s.Drawn = 0
			}
			s.Drawn += len(d.Cards)
			s.Cards -= len(d.Cards)
		}
		t.Stage, t.ToAct = StageDraw, 0
	case *events.OpenersShown:
		if s := seat(d.Seat); s != nil {
			s.Openers = slices.Clone(d.Cards)
		}
	case *events.HandShown:
		if s := seat(d.Seat); s != nil {
			s.Shown = slices.Clone(d.Cards)
		}
		t.Stage, t.ToAct = StageShowdown, 0
	case *events.HandMucked:
		if s := seat(d.Seat); s != nil {
			s.Cards = 0
		}
		t.Stage, t.ToAct = StageShowdown, 0
	case *events.BetReturned:
		if s := seat(d.Seat); s != nil {
			s.Stack += d.Amount
			s.InPot -= d.Amount
			s.InFront -= d.Amount
			t.Pot -= d.Amount
		}
	case *events.PotRaked:
		t.Pot -= d.Amount
	case *events.PotAwarded:
		if s := seat(d.Seat); s != nil {
			s.Stack += d.Amount
			s.Won += d.Amount
			t.Pot -= d.Amount
		}
		t.ToAct = 0
	case *events.HandPassed:
		t.Stage, t.ToAct = StagePassed, 0
	case *events.MisdealDeclared:
		t.Stage, t.ToAct = StageMisdeal, 0
	case *events.HandEnded:
		for _, st := range d.Stacks {
			if s := seat(st.Seat); s != nil {
				s.Stack = st.Stack
			}
		}
		t.Pot = d.Carry
		t.Stage, t.ToAct = StageEnded, 0
	}
	return true
}

// nextToAct returns the first seat clockwise after from that is in the hand with chips behind
// and still has to act (has not acted since the last bet, or owes chips); 0 if none.
func (t *TableState) nextToAct(from events.Seat) events.Seat {
	var high events.Chips
	for _, s := range t.Seats {
		if s.InFront > high {
			high = s.InFront
		}
	}
	n := len(t.Seats)
	start := 0
	for start < n && t.Seats[start].Seat <= from {
		start++
	}
	for k := range n {
		s := &t.Seats[(start+k)%n]
		if s.Folded || s.AllIn || !s.played {
			continue
		}
		if !s.acted || s.InFront < high {
			return s.Seat
		}
	}
	return 0
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
