package audit

import (
	"errors"
	"io"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/tournament"
)

// Only keeps the events of the hands of one tournament: a hand is kept when its hand.started names
// the tournament, and so are the hand's later events. It remembers the hands still open only.
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

// merged is one of the files of AuditMerged, with the event it read last and not yet given.
type merged struct {
	r    *events.Reader
	head *events.Event
	at   time.Time
	open map[string]struct{} // hands of this file given to the auditor and not ended
}

// AuditMerged audits several logs as one, merged in time order: the files of the tables of a
// tournament, each in its own order, make one log whose hands end in the order they ended. Each
// file is read one event ahead; an event is given to the auditor when it is the earliest of the
// heads (the first file first on equal times), and a file recycles the memory it has read once
// no hand it gave is still open. keep, when not nil, chooses the events to audit (Only). A line
// that does not decode is given to invalid (and otherwise skipped) and counted in bad; an
// unreadable file stops the audit with its error.
func AuditMerged(a *Auditor, rs []*events.Reader, keep func(*events.Event) bool, invalid func(error)) (bad int, err error) {
	ms := make([]*merged, 0, len(rs))
	advance := func(m *merged) error {
		for {
			e, err := m.r.Next()
			switch {
			case err == io.EOF:
				m.head = nil
				return nil
			case err != nil:
				var ee *events.Error
				if errors.As(err, &ee) && errors.Is(err, events.ErrInvalid) {
					bad++
					if invalid != nil {
						invalid(err)
					}
					continue
				}
				return err
			}
			m.head = e
			m.at, _ = tournament.ParseTime(e.At)
			return nil
		}
	}
	for _, r := range rs {
		m := &merged{r: r, open: map[string]struct{}{}}
		if err := advance(m); err != nil {
			return bad, err
		}
		ms = append(ms, m)
	}
	for {
		var m *merged
		for _, x := range ms {
			if x.head != nil && (m == nil || x.at.Before(m.at)) {
				m = x
			}
		}
		if m == nil {
			return bad, nil
		}
		e := m.head
		if keep == nil || keep(e) {
			if e.Type == events.HandEndedType {
				delete(m.open, e.Hand)
			} else if _, ok := m.open[e.Hand]; !ok {
				m.open[string([]byte(e.Hand))] = struct{}{}
			}
			a.AddSummed(e, m.r.LineSum())
		}
		if len(m.open) == 0 {
			m.r.Recycle()
		}
		if err := advance(m); err != nil {
			return bad, err
		}
	}
}
