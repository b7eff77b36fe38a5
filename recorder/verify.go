package recorder

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/fechado/fechado/events"
	"github.com/nats-io/nats.go/jetstream"
)

// Problem is one thing Verify found wrong.
type Problem struct {
	// Code classifies it: "stream.config" (the configuration no longer protects history),
	// "stream.deleted" (events are missing), "stream.damaged" (a stored message the store cannot
	// read, Seq its stream sequence), or the log.* codes of findings-v1.md for stored
	// events (log.schema, log.sequence, log.duplicate-id, log.chain), plus "log.subject" for an
	// event stored under another hand's subject or Msg-Id.
	Code string
	// Seq is the stream sequence of the event that shows it; 0 for the stream as a whole.
	Seq     uint64
	Subject string
	Message string
}

// Report is what Verify found.
type Report struct {
	Config    jetstream.StreamConfig
	State     jetstream.StreamState
	Events    int64 // events read
	Hands     int64 // hands started (events with seq 1)
	Ended     int64 // hands ended
	Problems  []Problem
	Truncated int64 // problems found beyond the first maxProblems, not listed
}

// OK reports whether nothing is wrong.
func (r *Report) OK() bool { return len(r.Problems) == 0 }

// maxProblems bounds the problems a Report lists.
const maxProblems = 1000

func (r *Report) add(p Problem) {
	if len(r.Problems) >= maxProblems {
		r.Truncated++
		return
	}
	r.Problems = append(r.Problems, p)
}

// Verify checks that the stream still protects history and that the stored events are whole:
// the configuration (file storage, limits retention without any limit, DiscardNew, deletes and
// purges denied, no roll-ups, no message TTLs, delete markers or schedules), that nothing was
// ever removed (first sequence 1, no deleted messages, as many messages as the last sequence),
// and, reading every event once in stream order, that each decodes, sits under its own hand's
// subject and Msg-Id, and that each hand's seq runs from 1 without gaps and its prev chain holds
// (events.Chain). Event ids are remembered to find duplicates, so memory grows with the log.
// The error is non-nil only when the store could not be read. Verify reads only: it creates and
// changes nothing (open the log with Options.Existing so that Open does not either).
func (l *Log) Verify(ctx context.Context) (*Report, error) {
	return l.VerifyReplicas(ctx, 0)
}

// VerifyReplicas is Verify that also requires the stream to have replicas replicas (0: any).
func (l *Log) VerifyReplicas(ctx context.Context, replicas int) (*Report, error) {
	info, err := l.stream.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("recorder: stream %s: %w", StreamName, err)
	}
	r := &Report{Config: info.Config, State: info.State}
	for _, msg := range ConfigProblems(info.Config, replicas) {
		r.add(Problem{Code: "stream.config", Message: msg})
	}
	st := info.State
	if st.Msgs > 0 && st.FirstSeq != 1 {
		r.add(Problem{Code: "stream.deleted", Message: fmt.Sprintf("the first stored message is %d, not 1: messages 1 to %d were removed", st.FirstSeq, st.FirstSeq-1)})
	}
	if st.NumDeleted != 0 {
		r.add(Problem{Code: "stream.deleted", Message: fmt.Sprintf("%d messages were deleted", st.NumDeleted)})
	}
	if st.Msgs != st.LastSeq {
		r.add(Problem{Code: "stream.deleted", Message: fmt.Sprintf("the stream holds %d messages but its last sequence is %d", st.Msgs, st.LastSeq)})
	}
	chain := events.NewChain()
	check := func(m jetstream.Msg, seq uint64) error {
		r.Events++
		subj := m.Subject()
		e, err := events.Parse(m.Data())
		if err != nil {
			r.add(Problem{Code: "log.schema", Seq: seq, Subject: subj, Message: err.Error()})
			return nil
		}
		if subj != Subject(e.Table, e.Hand) {
			r.add(Problem{Code: "log.subject", Seq: seq, Subject: subj, Message: fmt.Sprintf("event of table %s hand %s stored under another subject", e.Table, e.Hand)})
		}
		if id := m.Headers().Get(jetstream.MsgIDHeader); id != e.ID {
			r.add(Problem{Code: "log.subject", Seq: seq, Subject: subj, Message: fmt.Sprintf("Nats-Msg-Id %q is not the event id %s", id, e.ID)})
		}
		if e.Seq == 1 {
			r.Hands++
		}
		for _, p := range chain.Check(e) {
			r.add(Problem{Code: string(p.Kind), Seq: seq, Subject: subj, Message: fmt.Sprintf("hand %s seq %d: %s", e.Hand, p.Seq, p.Message)})
		}
		if e.Type == events.HandEndedType {
			r.Ended++
			chain.Forget(e.Hand)
		}
		return nil
	}
	// A message the store cannot give is damage, not a deletion: each is reported with its
	// sequence (and hand, when the messages after it show it), and the read goes on after it.
	damaged := 0
	for from := uint64(1); from <= st.LastSeq; {
		err = l.scan(ctx, "", from, st.LastSeq, false, check)
		var d *DamagedError
		if !errors.As(err, &d) {
			break
		}
		damaged++
		msg := "cannot be read: the store is damaged"
		if d.Hand != "" {
			msg += fmt.Sprintf(" (hand %s, table %s)", d.Hand, d.Table)
		}
		r.add(Problem{Code: "stream.damaged", Seq: d.Seq, Subject: subjectOf(d), Message: msg})
		from, err = d.Seq+1, nil
	}
	if err != nil {
		return nil, err
	}
	if uint64(r.Events)+uint64(damaged) != st.Msgs {
		r.add(Problem{Code: "stream.deleted", Message: fmt.Sprintf("read %d events, the stream says it holds %d", r.Events, st.Msgs)})
	}
	return r, nil
}

// subjectOf is the subject of a damaged message's hand, "" when not known.
func subjectOf(d *DamagedError) string {
	if d.Hand == "" {
		return ""
	}
	return Subject(d.Table, d.Hand)
}

// ConfigProblems lists how c differs from the configuration docs/stream.md requires, each as a
// sentence naming the setting: how it fails to protect history, and, when replicas > 0, a replica
// count other than replicas. Nil means c is as required.
func ConfigProblems(c jetstream.StreamConfig, replicas int) []string {
	ps := AppendOnlyProblems(c, StreamSubjects, "events", "a hand")
	if replicas > 0 && c.Replicas != replicas {
		ps = append(ps, fmt.Sprintf("replicas is %d, not %d", c.Replicas, replicas))
	}
	return ps
}

// AppendOnlyProblems lists how c fails to keep every message of an append-only stream of fechado
// (the hands' FECHADO_HANDS, the checkpoints' FECHADO_TLOG) as it was appended, each as a sentence
// naming the setting: storage, retention, limits, discard policy, deletes, purges, roll-ups,
// per-message TTLs, delete markers, schedules, and that it captures subjects. what names the
// stream's messages ("events"), unit what one subject holds ("a hand"). Nil means c keeps them.
func AppendOnlyProblems(c jetstream.StreamConfig, subjects, what, unit string) []string {
	var ps []string
	add := func(ok bool, msg string) {
		if !ok {
			ps = append(ps, msg)
		}
	}
	add(c.Storage == jetstream.FileStorage, "storage is "+c.Storage.String()+", not file")
	add(c.Retention == jetstream.LimitsPolicy, "retention is "+c.Retention.String()+", not limits: acknowledged or uninteresting "+what+" would be removed")
	add(c.MaxMsgs <= 0, fmt.Sprintf("max_msgs is %d: old %s would be dropped", c.MaxMsgs, what))
	add(c.MaxBytes <= 0, fmt.Sprintf("max_bytes is %d: old %s would be dropped", c.MaxBytes, what))
	add(c.MaxAge == 0, fmt.Sprintf("max_age is %s: old %s would expire", c.MaxAge, what))
	add(c.MaxMsgsPerSubject <= 0, fmt.Sprintf("max_msgs_per_subject is %d: %s's early %s would be dropped", c.MaxMsgsPerSubject, unit, what))
	add(c.Discard == jetstream.DiscardNew, "discard policy is old, not new")
	add(c.DenyDelete, "deny_delete is off: "+what+" can be deleted")
	add(c.DenyPurge, "deny_purge is off: the stream can be purged")
	add(!c.AllowRollup, "roll-ups are allowed: one message can replace "+unit)
	add(!c.AllowMsgTTL, "per-message TTLs are allowed: "+what+" can expire")
	add(c.SubjectDeleteMarkerTTL == 0, "subject delete markers are on")
	add(!c.AllowMsgSchedules, "message schedules are on")
	add(slices.Contains(c.Subjects, subjects), "the stream does not capture "+subjects)
	return ps
}
