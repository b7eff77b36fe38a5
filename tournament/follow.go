package tournament

import (
	"slices"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/events/handorder"
	"github.com/fechado/fechado/finding"
)

// Only keeps the events of the hands of one tournament: a hand is kept when its hand.started
// names the tournament, and so are the hand's later events. It remembers the hands still open.
type Only struct {
	ID   string
	open map[string]struct{}
}

// Keep reports whether e belongs to a hand of the tournament.
func (o *Only) Keep(e *events.Event) bool {
	if o.open == nil {
		o.open = map[string]struct{}{}
	}
	if hs, ok := e.Data.(*events.HandStarted); ok && e.Seq == 1 {
		if hs.Tournament == nil || hs.Tournament.ID != o.ID {
			return false
		}
		o.open[string([]byte(e.Hand))] = struct{}{}
		return true
	}
	if _, ok := o.open[e.Hand]; !ok {
		return false
	}
	if e.Type == events.HandEndedType {
		delete(o.open, e.Hand)
	}
	return true
}

// Follower replays one tournament from its log up to a moment: the hands ended by then go
// through the model in their order (Follow), whatever order the log holds them in; the hands
// started and not ended are kept with their events so far.
type Follower struct {
	only  Only
	until time.Time
	// Book holds the tournament as the hands ended by the moment leave it (Follow), and Findings
	// their tournament.* findings: both made again when a hand has ended since (Tournament).
	Book     *Book
	Findings []finding.Finding
	hands    []Hand
	followed int
	open     map[string][]*events.Event
	order    []string
}

// NewFollower follows tournament id up to until (the zero time: to the end of the log).
func NewFollower(id string, until time.Time) *Follower {
	return &Follower{only: Only{ID: id}, until: until, Book: NewBook(), open: map[string][]*events.Event{}}
}

// follow brings Book and Findings up to the hands ended so far.
func (f *Follower) follow() {
	if f.followed == len(f.hands) {
		return
	}
	f.Book, f.Findings = Follow(f.hands)
	f.followed = len(f.hands)
}

// Add takes the next event of the log. An event after the moment is left out (a log of whole
// hands in the order they end is not in time order event by event, so the rest of the log is
// read all the same). The events of an ended hand are not kept.
func (f *Follower) Add(e *events.Event) {
	if !f.until.IsZero() {
		if at, err := ParseTime(e.At); err == nil && at.After(f.until) {
			return
		}
	}
	if !f.only.Keep(e) {
		return
	}
	evs, ok := f.open[e.Hand]
	if !ok {
		f.order = append(f.order, string([]byte(e.Hand)))
	}
	evs = append(evs, e)
	if e.Type != events.HandEndedType {
		f.open[e.Hand] = evs
		return
	}
	delete(f.open, e.Hand)
	f.order = slices.DeleteFunc(f.order, func(h string) bool { return h == e.Hand })
	if h, ok := HandOf(evs); ok {
		f.hands = append(f.hands, h)
	}
}

// Running returns the events so far of each hand started and not ended, in the order they began.
func (f *Follower) Running() [][]*events.Event {
	var out [][]*events.Event
	for _, h := range f.order {
		if evs, ok := f.open[h]; ok {
			out = append(out, evs)
		}
	}
	return out
}

// Tournament returns the tournament followed, or nil when none of its hands has ended.
func (f *Follower) Tournament() *Tournament {
	f.follow()
	return f.Book.Get(f.only.ID)
}

// Ordered returns hands, ended hands of tournaments given in any order, in the order the model
// follows them: each table's hands in the order of their chain (handorder.Sort), and the tables
// merged by the end of their next hand, then its start, then the table's id. It is the one order
// of a tournament's hands, whatever order a log holds them in (docs/stream.md).
func Ordered(hs []Hand) []Hand {
	links := make([]handorder.Link, len(hs))
	for i, h := range hs {
		links[i] = linkOf(h)
	}
	byTable := map[string][]Hand{}
	var tables []string
	for _, i := range handorder.SortTables(links) {
		t := hs[i].Table
		if _, ok := byTable[t]; !ok {
			tables = append(tables, t)
		}
		byTable[t] = append(byTable[t], hs[i])
	}
	slices.Sort(tables)
	out := make([]Hand, 0, len(hs))
	heads := make([]int, len(tables))
	for len(out) < len(hs) {
		best := -1
		for ti, t := range tables {
			if heads[ti] == len(byTable[t]) {
				continue
			}
			if best < 0 || before(byTable[t][heads[ti]], byTable[tables[best]][heads[best]]) {
				best = ti
			}
		}
		out = append(out, byTable[tables[best]][heads[best]])
		heads[best]++
	}
	return out
}

// before reports whether a ends before b: by the end, then the start; equal times keep the
// tables in the order of their ids (Ordered tries them in that order).
func before(a, b Hand) bool {
	if c := a.EndAt.Compare(b.EndAt); c != 0 {
		return c < 0
	}
	return a.StartAt.Before(b.StartAt)
}

func linkOf(h Hand) handorder.Link {
	l := handorder.Link{Table: h.Table, Hand: h.ID, Number: h.Start.Number, Start: h.StartAt}
	if h.Start.Previous != nil {
		l.Previous = *h.Start.Previous
	}
	return l
}

// Follow follows hands, ended hands of tournaments in any order, through a new Book in their
// order (Ordered) and returns it with their tournament.* findings: the one computation of the
// tournaments behind every reader (audit, the projector and its pages, replay --tournament).
func Follow(hs []Hand) (*Book, []finding.Finding) {
	b := NewBook()
	var fs []finding.Finding
	for _, h := range Ordered(hs) {
		fs = b.Add(fs, &h)
	}
	return b, fs
}
