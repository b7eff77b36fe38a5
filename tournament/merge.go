package tournament

import (
	"errors"
	"io"
	"time"

	"github.com/fechado/fechado/events"
)

// merged is one of the logs of Merge, with the event it read last and not yet given.
type merged struct {
	r    *events.Reader
	head *events.Event
	at   time.Time
}

// Merge reads several logs as one, merged in time order: the logs of the tables of a
// tournament, each in its own order, make one log whose hands end in the order they ended. Each
// log is read one event ahead; an event is given to fn (with the reader that read it, for its
// LineSum) when it is the earliest of the heads, the first log first on equal times; fn returns
// false to stop. A line that does not decode is given to invalid and otherwise skipped, and
// counted in bad; an unreadable log stops the merge with its error.
func Merge(rs []*events.Reader, fn func(e *events.Event, r *events.Reader) bool, invalid func(error)) (bad int, err error) {
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
			m.at, _ = ParseTime(e.At)
			return nil
		}
	}
	for _, r := range rs {
		m := &merged{r: r}
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
		if !fn(e, m.r) {
			return bad, nil
		}
		if err := advance(m); err != nil {
			return bad, err
		}
	}
}
