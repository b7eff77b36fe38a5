package tournament

import (
	"slices"
	"time"

	"github.com/fechado/fechado/events"
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
// through the model (Book), the hands started and not ended are kept with their events so far.
type Follower struct {
	only  Only
	until time.Time
	// Book holds the tournament as the hands ended by the moment leave it.
	Book *Book
	// Findings are the tournament.* findings of those hands.
	Findings []finding.Finding
	open     map[string][]*events.Event
	order    []string
}

// NewFollower follows tournament id up to until (the zero time: to the end of the log).
func NewFollower(id string, until time.Time) *Follower {
	return &Follower{only: Only{ID: id}, until: until, Book: NewBook(), open: map[string][]*events.Event{}}
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
		f.Findings = f.Book.Add(f.Findings, &h)
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
func (f *Follower) Tournament() *Tournament { return f.Book.Get(f.only.ID) }
