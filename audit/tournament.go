package audit

import (
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/tournament"
)

// tourHand is an ended hand of a tournament, kept until the tournaments are followed (Close):
// what the model reads of it, and, for a Tournament callback, copies of its first and last events.
type tourHand struct {
	h   tournament.Hand
	evs []*events.Event
	at  place // where it was judged, in a worker of a Spread
}

// tournament keeps an ended hand of a tournament, judged at its table, for closeTournaments.
// Its tournament.* codes depend on the hands of every table of the tournament in their order
// (tournament.Follow), which only the whole log gives.
func (a *Auditor) tournament(evs []*events.Event, first *events.Event) {
	if a.Alone || len(evs) == 0 {
		return
	}
	end := lastEnded(evs)
	if _, ok := tournament.HandOf([]*events.Event{first, end}); !ok {
		return
	}
	// Kept until Close: copies of the two events, so that the hand holds no piece of the
	// Reader's slabs (events.Reader) alive, only what the model reads.
	s, e := keptCopy(first), keptCopy(end)
	s.Raw, e.Raw = nil, nil
	th, ok := tournament.HandOf([]*events.Event{s, e})
	if !ok {
		return
	}
	t := tourHand{h: th, at: a.at}
	if a.Tournament != nil {
		t.evs = []*events.Event{s, e}
	}
	a.tours = append(a.tours, t)
}

// keptCopy returns a copy of e that shares no memory with the Reader: e parsed again from its
// line; or, for an event read leniently (its line is refused) or made in memory (Raw empty or not
// its line), a copy of the event itself, whose strings are its own already (a lenient event's
// alias a copy of its line). Keeping e would keep what the Reader takes back once the hand is
// judged and hands out again, cleared, for later lines; and a copy of an event that parses would
// keep pieces of its line (its id and time), which a Reader reusing its chunks writes again
// (events.NewReaderReusing): each of the two is copied as it can be.
func keptCopy(e *events.Event) *events.Event {
	if c, err := events.Parse(e.Raw); err == nil {
		return c
	}
	c := *e
	return &c
}

// lastEnded returns the hand.ended among evs (an ended hand has one that counts: the first),
// or the last event.
func lastEnded(evs []*events.Event) *events.Event {
	for _, e := range evs {
		if e.Type == events.HandEndedType {
			return e
		}
	}
	return evs[len(evs)-1]
}

// closeTournaments follows every tournament's hands (tournament.Follow) and reports the
// tournament.* findings, hand by hand in the order followed, each hand with such findings to the
// Tournament callback.
func (a *Auditor) closeTournaments() {
	if len(a.tours) == 0 {
		return
	}
	hs := make([]tournament.Hand, len(a.tours))
	byID := make(map[string]*tourHand, len(a.tours))
	for i := range a.tours {
		hs[i] = a.tours[i].h
		byID[a.tours[i].h.ID] = &a.tours[i]
	}
	a.tours = nil
	book, fs := tournament.Follow(hs)
	a.book = book
	for i := 0; i < len(fs); {
		j := i
		for j < len(fs) && fs[j].Hand == fs[i].Hand && fs[j].Table == fs[i].Table {
			j++
		}
		res := &HandResult{Table: fs[i].Table, Hand: fs[i].Hand}
		for _, f := range fs[i:j] {
			res.Findings = append(res.Findings, a.emit(f))
		}
		if t := byID[fs[i].Hand]; t != nil {
			res.Events = t.evs
		}
		if a.Tournament != nil {
			a.Tournament(res)
		}
		i = j
	}
}

// Tournaments returns the tournaments of the hands audited, as their hands leave them
// (standings, tables, levels), once Close has followed them; nil when no hand belonged to one.
func (a *Auditor) Tournaments() *tournament.Book { return a.book }
