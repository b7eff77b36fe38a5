package audit

import (
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/events/handorder"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/rules"
)

// TableMemory is what the last audited hand of a table leaves for the table.* checks of the
// next one: the dealer and starter, the seats dealt in, the carry, the passed-out count and how
// each player ended. It is plain data (JSON), so that a projector can store it with the hand's
// rows and resume after a restart with the findings an uninterrupted run finds.
type TableMemory struct {
	// Hand is the hand that left it, Number that hand's number.
	Hand      string         `json:"hand"`
	Number    int            `json:"number"`
	Dealer    events.Seat    `json:"dealer"`
	Starter   events.Seat    `json:"starter"`
	Seats     []events.Seat  `json:"seats"`
	Carry     events.Chips   `json:"carry"`
	PassedOut int            `json:"passed_out"`
	Passed    bool           `json:"passed,omitempty"`
	Misdeal   bool           `json:"misdeal,omitempty"`
	Players   []PlayerMemory `json:"players"`
	// BigBlind, BigBlindBefore and DealtIn are a blind game's rotation (rules.Rotation: LastBB,
	// BBBefore, LastDealtIn; its LastButton is Dealer and its Misdeal is Misdeal): the big blinds
	// of the last hand and of the one before it, and how many players that hand dealt in; after a
	// misdeal, those of the hands before it.
	BigBlind       events.Seat `json:"big_blind,omitempty"`
	BigBlindBefore events.Seat `json:"big_blind_before,omitempty"`
	DealtIn        int         `json:"dealt_in,omitempty"`
	// SmallBlind, DealtInSeats and Moving are the rest of the rotation as the last hand recorded
	// it (rules.Rotation: LastSB, LastIn, Moving): where it posted its small blind, the seats it
	// dealt in, and whether the table moves its button (rules.button "moving").
	SmallBlind   events.Seat   `json:"small_blind,omitempty"`
	DealtInSeats rules.SeatSet `json:"dealt_in_seats,omitempty"`
	Moving       bool          `json:"moving,omitempty"`
}

// PlayerMemory is a player as a hand leaves him: his seat and the stack he ended with, or, Away,
// the stack he sat out with (events-v1.md §7).
type PlayerMemory struct {
	Name  string       `json:"name"`
	Seat  events.Seat  `json:"seat"`
	Stack events.Chips `json:"stack"`
	Away  bool         `json:"away,omitempty"`
}

// memory returns the table's state as a TableMemory left by hand.
func (st *tableState) memory(hand string) *TableMemory {
	m := &TableMemory{Hand: hand, Dealer: st.dealer, Starter: st.starter, Seats: append([]events.Seat{}, st.seats...),
		Carry: st.carry, PassedOut: st.passedOut, Passed: st.passed, Misdeal: st.misdeal,
		Players: make([]PlayerMemory, len(st.players)), BigBlind: st.rot.LastBB, BigBlindBefore: st.rot.BBBefore, DealtIn: st.rot.LastDealtIn,
		SmallBlind: st.rot.LastSB, DealtInSeats: st.rot.LastIn, Moving: st.rot.Moving}
	for i, p := range st.players {
		m.Players[i] = PlayerMemory{Name: p.name, Seat: p.seat, Stack: p.stack, Away: p.away}
	}
	return m
}

// state returns m as the Auditor's table state.
func (m *TableMemory) state() *tableState {
	st := &tableState{dealer: m.Dealer, starter: m.Starter, seats: append([]events.Seat{}, m.Seats...),
		carry: m.Carry, passedOut: m.PassedOut, passed: m.Passed, misdeal: m.Misdeal,
		players: make([]playerEnd, len(m.Players)),
		rot: rules.Rotation{LastBB: m.BigBlind, BBBefore: m.BigBlindBefore, LastSB: m.SmallBlind, LastDealtIn: m.DealtIn,
			LastIn: m.DealtInSeats, LastButton: m.Dealer, Misdeal: m.Misdeal, Moving: m.Moving}}
	for i, p := range m.Players {
		st.players[i] = playerEnd{name: p.Name, seat: p.Seat, stack: p.Stack, away: p.Away}
	}
	return st
}

// HandAfter audits the events of one hand, as they arrived, on their own and against prev, what
// the hand before it in its table's chain left (nil: none known), and returns its findings and
// what the table leaves for its next hand: this hand's memory, or prev again when this hand
// could not be followed to its end. It is Judge(evs).After(prev).
//
// Which hand is the one before is the caller's to know (package handorder): hands of one table
// appended concurrently end out of order in the stream, and a projector holds a hand until the
// hand before it has been audited, as the Auditor does. Nothing else is kept from hand to hand,
// so the result is a function of the hand and prev alone: a projector that stores the findings
// and the memory with the hand's rows finds the same after a restart.
func HandAfter(evs []*events.Event, prev *TableMemory) ([]finding.Finding, *TableMemory) {
	return Judge(evs).After(prev)
}

// Judgement is a hand audited on its own, HandAfter's first step: the hand replayed through
// its rules (State), waiting to be judged against the hand before it at its table (After).
// The read models take what the hand did (chips, returns, the opener, the showdown) from its
// State, the auditor's reading of the hand, whether or not the hand before it is known yet.
type Judgement struct {
	a           *Auditor
	out         []finding.Finding
	rest        func() // feeds the lines after the hand ended
	table, hand string
	hs          *events.HandStarted
	state       *rules.Hand
	done        bool
}

// Judge replays the events of one hand, as they arrived, through its rules, as HandAfter does
// before it looks at the hand before it.
func Judge(evs []*events.Event) *Judgement {
	return judge(evs, func(e *events.Event) *events.Event { return e }, (*Auditor).Add)
}

// JudgeLines is Judge of a hand's lines some of which are not valid events (events-v1.md §8),
// fed as AuditReader feeds a file's (Auditor.AddLine): the hand's first line is its hand.started.
// It is how a projector that met such lines in a hand judges the hand as `fechado audit` does.
func JudgeLines(lines []Line) *Judgement {
	return judge(lines, func(l Line) *events.Event { return l.Event }, (*Auditor).AddLine)
}

// judge is Judge of xs, lines or events: ev is the event of one (nil: none could be read), add
// feeds it.
func judge[T any](xs []T, ev func(T) *events.Event, add func(*Auditor, T)) *Judgement {
	j := &Judgement{}
	if len(xs) == 0 || ev(xs[0]) == nil {
		return j
	}
	a := New(func(f finding.Finding) { j.out = append(j.out, f) })
	a.Alone = true // the tournament's other tables are not known here, nor the chain
	a.hold = true
	j.a, j.table, j.hand = a, ev(xs[0]).Table, ev(xs[0]).Hand
	for _, x := range xs {
		if e := ev(x); e != nil {
			if hs, ok := e.Data.(*events.HandStarted); ok {
				j.hs = hs
				break
			}
		}
	}
	for i, x := range xs {
		add(a, x)
		if a.held != nil {
			rest := xs[i+1:]
			j.rest = func() {
				for _, x := range rest {
					add(a, x)
				}
			}
			break
		}
	}
	if a.held == nil {
		// It never ended: Close audits it (log.incomplete) and holds it likewise.
		for _, h := range a.order {
			if p, ok := a.open[h]; ok {
				a.finish(p)
				break
			}
		}
	}
	if a.held != nil && a.held.res != nil {
		j.state = a.held.res.State
		a.hand, a.seeds = nil, nil // another hand among evs gets its own, not this one's
	}
	return j
}

// State returns the rules.Hand the hand was replayed through, as its last event left it; nil
// when it could not be (no hand.started first, or rules.NewHand refused it: the findings say
// why). It stays as it is after After.
func (j *Judgement) State() *rules.Hand { return j.state }

// After judges the hand against prev, what the hand before it in its table's chain left (nil:
// none known), and returns every finding of the hand, in the order HandAfter gives them, and
// what the table leaves for its next hand (see HandAfter). It is called once.
func (j *Judgement) After(prev *TableMemory) ([]finding.Finding, *TableMemory) {
	if j.done {
		panic("audit: Judgement.After called twice")
	}
	j.done = true
	a := j.a
	if a == nil {
		return nil, prev
	}
	if prev != nil && j.hs != nil {
		a.tables[j.table] = prev.state()
	}
	a.hold = false
	if p := a.held; p != nil {
		a.held = nil
		a.judgeHand(p)
	}
	if j.rest != nil {
		j.rest()
	}
	a.Close()
	if a.continued == 0 {
		return j.out, prev
	}
	m := a.tables[j.table].memory(j.hand)
	m.Number = j.hs.Number
	return j.out, m
}

// Link returns the link of the hand that left m in its table's chain (handorder.Follows).
func (m *TableMemory) Link(table string) handorder.Link {
	return handorder.Link{Table: table, Hand: m.Hand, Number: m.Number}
}

// Unreadable returns the log.schema finding of a line that is not a valid event: err says why;
// the hand and table are those the line names, when known.
func Unreadable(err error, hand, table string, seq events.Seq) finding.Finding {
	return mk(hand, table, seq, finding.LogSchema, 0, "this line is not a valid event: "+err.Error(), nil, nil)
}
