package recorder

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/fechado/fechado/events"
	"github.com/nats-io/nats.go/jetstream"
)

// ErrDamaged means a message the stream holds cannot be read: the store answers neither with it
// nor with its deletion (fechado's stream denies deletes), as when a byte of a block file was
// flipped on disk. A reader stops with it rather than skip the message or wait for it.
var ErrDamaged = errors.New("damaged")

// DamagedError names a stored message that cannot be read: its stream sequence and, when the
// messages around it show it, the hand it belongs to.
type DamagedError struct {
	Seq   uint64
	Table string // "" when not known
	Hand  string // "" when not known
}

func (e *DamagedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "recorder: stream message %d cannot be read: the store is damaged", e.Seq)
	if e.Hand != "" {
		fmt.Fprintf(&b, " (hand %s, table %s)", e.Hand, e.Table)
	}
	b.WriteString("; run 'fechado verify'")
	return b.String()
}

func (e *DamagedError) Unwrap() error { return ErrDamaged }

// readable reports whether the store can give stream message seq: false when it answers that the
// message is not there (damaged: nothing is ever deleted, and the caller knows seq is within the
// stream), true when it gives it; an error when it cannot be asked. The stream leader answers
// (msgFromLeader): a replica that has not stored the message yet (a moment behind the leader,
// or catching up after a restart) would answer "not found" too, and a reader must not take a
// node loss for damage. While the stream elects a leader the request goes unanswered or is
// refused as unavailable; it is made again, each attempt bounded by Options.Timeout. A log that
// may only use direct gets (a table device) asks any replica, as it can.
func (l *Log) readable(ctx context.Context, seq uint64) (bool, error) {
	var err error
	for attempt := 1; ; attempt++ {
		actx, cancel := context.WithTimeout(ctx, l.opts.Timeout)
		if l.directOnly.Load() {
			_, err = l.stream.GetMsg(actx, seq)
		} else {
			_, err = l.msgFromLeader(actx, seq)
		}
		cancel()
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, jetstream.ErrMsgNotFound):
			return false, nil
		}
		if attempt >= maxAttempts || ctx.Err() != nil || !(retryable(err) || unavailable(err)) {
			return false, fmt.Errorf("recorder: reading stream message %d: %w", seq, err)
		}
	}
}

// unavailable reports whether err is the server's answer that the stream has no leader now.
func unavailable(err error) bool {
	var ae *jetstream.APIError
	return errors.As(err, &ae) && ae.Code == 503
}

// gap returns the DamagedError of the first message in [from, to) the stream holds but cannot
// give, nil when every one of them was deleted (a stream that allows deletes, which fechado's
// does not: reads then pass over them, as they always did; verify reports them). Each one is
// asked of the store (readable): a read that was not given a message is no proof that the store
// cannot give it, and one the store gives is an error of the read, not damage.
func (l *Log) gap(ctx context.Context, from, to uint64) error {
	info, err := l.stream.Info(ctx)
	if err != nil {
		return fmt.Errorf("recorder: stream %s: %w", StreamName, err)
	}
	var deleted []uint64
	if info.State.NumDeleted > 0 {
		if info, err = l.stream.Info(ctx, jetstream.WithDeletedDetails(true)); err != nil {
			return fmt.Errorf("recorder: stream %s: %w", StreamName, err)
		}
		deleted = info.State.Deleted
	}
	for s := from; s < to; s++ {
		if slices.Contains(deleted, s) {
			continue
		}
		ok, err := l.readable(ctx, s)
		if err != nil {
			return err
		}
		if !ok {
			return l.damaged(ctx, s)
		}
		return fmt.Errorf("recorder: reading the log: stream message %d was not delivered, though the store gives it", s)
	}
	return nil
}

// damaged returns the DamagedError of stream message seq, with its hand when one of the next
// messages shows which hand lacks an event there (handOf).
func (l *Log) damaged(ctx context.Context, seq uint64) error {
	d := &DamagedError{Seq: seq}
	d.Table, d.Hand = l.handOf(ctx, seq)
	return d
}

// lookahead bounds the messages handOf reads past a damaged one.
const lookahead = 512

// handOf finds the hand of the unreadable stream message seq: among the events stored right after
// it, the first whose hand's stored events skip one between a stream sequence before seq and one
// after it. ("", "") when none of the next messages shows it.
func (l *Log) handOf(ctx context.Context, seq uint64) (table, hand string) {
	tried := map[string]bool{}
	for s := seq + 1; s <= seq+lookahead; s++ {
		subject, e, found, err := l.eventAt(ctx, s)
		if err != nil {
			return "", ""
		}
		if !found || e == nil || e.Seq == 1 || tried[subject] {
			continue
		}
		tried[subject] = true
		// The hand's events as the store gives them: a gap whose two sides bracket seq.
		var seqs []uint64
		var evSeqs []events.Seq
		err = l.scanSubject(ctx, subject, func(st Stored) error {
			seqs, evSeqs = append(seqs, st.Seq), append(evSeqs, st.Event.Seq)
			if st.Seq > s {
				return ErrStop
			}
			return nil
		})
		if err != nil && !errors.Is(err, ErrStop) {
			continue
		}
		for i := range evSeqs {
			before := uint64(0)
			want := events.Seq(1)
			if i > 0 {
				before, want = seqs[i-1], evSeqs[i-1]+1
			}
			if evSeqs[i] != want && before < seq && seqs[i] > seq {
				return e.Table, e.Hand
			}
		}
	}
	// None after it: a hand whose last stored events come before it and which the store says
	// holds more than it gives (the message was its last).
	for s := seq - 1; s >= 1 && s+lookahead > seq; s-- {
		subject, e, found, err := l.eventAt(ctx, s)
		if err != nil {
			return "", ""
		}
		if !found || e == nil || e.Type == events.HandEndedType || tried[subject] {
			continue
		}
		tried[subject] = true
		if held, gave, err := l.subjectCounts(ctx, subject); err == nil && gave < held {
			return e.Table, e.Hand
		}
	}
	return "", ""
}

// eventAt reads stream message seq within the log's timeout: its subject and its event (nil when
// it does not decode); found is false when the store has no such message, err set when the store
// failed.
func (l *Log) eventAt(ctx context.Context, seq uint64) (subject string, e *events.Event, found bool, err error) {
	actx, cancel := context.WithTimeout(ctx, l.opts.Timeout)
	m, err := l.stream.GetMsg(actx, seq)
	cancel()
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return "", nil, false, nil
	}
	if err != nil {
		return "", nil, false, err
	}
	e, _ = events.Parse(m.Data)
	return m.Subject, e, true, nil
}

// subjectCounts returns how many messages the stream holds under subject and how many of them
// the store gives.
func (l *Log) subjectCounts(ctx context.Context, subject string) (held, gave uint64, err error) {
	info, err := l.stream.Info(ctx, jetstream.WithSubjectFilter(subject))
	if err != nil {
		return 0, 0, err
	}
	held = info.State.Subjects[subject]
	err = l.scanSubject(ctx, subject, func(Stored) error {
		gave++
		return nil
	})
	return held, gave, err
}

// damagedSubject finds, after a filtered read delivered fewer messages than the stream holds
// for filter, the message it could not read: the subject whose stored events skip one, and the
// stream sequence between the two events around the gap that the store cannot give. nil when
// every message can be read (the difference was stored after the read began).
func (l *Log) damagedSubject(ctx context.Context, filter string, got map[string]uint64) error {
	info, err := l.stream.Info(ctx, jetstream.WithSubjectFilter(filter))
	if err != nil {
		return fmt.Errorf("recorder: stream %s: %w", StreamName, err)
	}
	subjects := make([]string, 0)
	for subj, n := range info.State.Subjects {
		if got[subj] < n {
			subjects = append(subjects, subj)
		}
	}
	slices.Sort(subjects)
	for _, subj := range subjects {
		var prev uint64
		var prevEv events.Seq
		var table, hand string
		var found error
		probe := func(from, to uint64) error {
			for s := from; s < to; s++ {
				ok, err := l.readable(ctx, s)
				if err != nil {
					return err
				}
				if !ok {
					found = &DamagedError{Seq: s, Table: table, Hand: hand}
					return ErrStop
				}
			}
			return nil
		}
		err := l.scanSubject(ctx, subj, func(st Stored) error {
			table, hand = st.Event.Table, st.Event.Hand
			if st.Event.Seq != prevEv+1 {
				if err := probe(prev+1, st.Seq); err != nil {
					return err
				}
			}
			prev, prevEv = st.Seq, st.Event.Seq
			return nil
		})
		if err == nil && found == nil && hand != "" {
			// The unreadable message comes after the last one the store gives.
			last, lerr := l.LastSeq(ctx)
			if lerr != nil {
				return lerr
			}
			err = probe(prev+1, min(last, prev+8*lookahead)+1)
		}
		if found != nil {
			return found
		}
		if err != nil && !errors.Is(err, ErrStop) {
			return err
		}
	}
	return nil // nothing unreadable: messages stored since the read began
}
