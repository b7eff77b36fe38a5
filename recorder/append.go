package recorder

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Ack says where an appended event is.
type Ack struct {
	Seq     uint64 // stream sequence of the stored event
	Skipped bool   // the event was already stored, byte for byte; nothing was written
}

// Append appends one event to its hand. It takes the event as decoded, once, by whoever read it:
// with e.Raw set, e must be what events.Parse or an events.Reader returned for e.Raw (or what
// events.Seal made of a valid event), and it is not decoded again; with e.Raw nil, an event built
// in memory, e is encoded and checked by events.Parse as a line read would be. The event is then
// checked against what is stored of the hand: seq must follow the stored last event, and prev,
// when present, must be the SHA-256 of that event's line. When the producer left prev out
// (HasPrev false) the recorder fills it and re-encodes the event canonically; otherwise the line
// is stored byte for byte. On success e.Raw, e.Prev and e.HasPrev are what is stored; on failure e
// is as it was.
//
// The event is published with Nats-Msg-Id = its id and the hand's expected last sequence, so an
// event already stored with identical bytes is reported as skipped, and anything else already
// in its place is a *HandError wrapping ErrSequenceConflict. An invalid event is a *HandError
// wrapping events.ErrInvalid. Other errors mean the store could not be reached.
func (l *Log) Append(ctx context.Context, e *events.Event) (Ack, error) {
	p, err := toAppend(e)
	if err != nil {
		return Ack{}, &HandError{Table: e.Table, Hand: e.Hand, Seq: e.Seq, Err: err}
	}
	j := newJob(p)
	j.evs = append(j.evs, pending{ev: p})
	// The server answers a publish or a read it refuses the user with nothing but an
	// asynchronous error: watching for it ends the append at once.
	wctx, done := l.refused.watch(ctx, j.subject, directGetSubject(j.subject))
	defer done()
	res, err := l.appendHand(wctx, j)
	l.lasts.remember(j, res, err)
	if cause := context.Cause(wctx); err != nil && errors.Is(cause, ErrPermissionDenied) {
		return Ack{}, j.fail(0, cause)
	}
	if err != nil {
		return Ack{}, err
	}
	e.Raw, e.Prev, e.HasPrev = p.Raw, p.Prev, true
	return Ack{Seq: res.lastSeq, Skipped: res.skipped > 0}, nil
}

// toAppend returns the event Append appends: a copy of e, which the append may seal (fill its
// prev) without changing e before it succeeds. An event built in memory (Raw nil) is encoded and
// decoded, so that it is checked as a line read would be; one with Raw was decoded already.
func toAppend(e *events.Event) (*events.Event, error) {
	if e.Raw != nil {
		p := *e
		return &p, nil
	}
	p, err := events.Parse(events.Encode(e))
	if err != nil {
		return nil, err
	}
	if !e.HasPrev {
		p.HasPrev, p.Prev = false, "" // Encode writes prev always
	}
	return p, nil
}

// pending is an event waiting to be appended, with where it came from.
type pending struct {
	ev   *events.Event
	file string
	line int
}

// handJob is the events of one hand to append, in seq order, contiguous.
type handJob struct {
	table, hand, subject string
	evs                  []pending
	rejected             bool
	order                int64         // when the recorder first saw the hand
	after                chan struct{} // closed when an earlier job of the same hand is done
	done                 chan struct{}
	// The event in flight on the recorder's fast path, its expectation, and the counts so far.
	next   int
	expect uint64
	res    handResult
	msg    *nats.Msg // the fast path's message, reused for each event (see Recorder.send)
	// gate is passed once the hand's hand.ended has been sent, or the job is done; before is the
	// gate of the hand handed over before it at its table, which its own hand.ended waits for on
	// the fast path (Recorder.send). Both nil for a job that does not end its hand.
	gate, before *endGate
	// lastSum is the SHA-256 of the last line's bytes as chain last checked the job (the
	// hand's head once the job is stored, which the Log's lastCache keeps); zero before.
	lastSum [sha256.Size]byte
}

func newJob(e *events.Event) *handJob {
	return &handJob{table: e.Table, hand: e.Hand, subject: Subject(e.Table, e.Hand)}
}

func (j *handJob) fail(i int, err error) *HandError {
	p := j.evs[i]
	return &HandError{Table: j.table, Hand: j.hand, Seq: p.ev.Seq, File: p.file, Line: p.line, Err: err}
}

type handResult struct {
	appended, skipped int
	lastSeq           uint64 // stream sequence of the hand's last event handled
}

// storedLast is what is stored of a hand: its last event.
type storedLast struct {
	seq       events.Seq
	streamSeq uint64
	raw       []byte
	ended     bool
}

// last returns the last stored event of a subject; the zero value when the hand is empty.
func (l *Log) last(ctx context.Context, subject string) (storedLast, error) {
	m, err := l.getMsg(ctx, func(ctx context.Context) (*jetstream.RawStreamMsg, error) {
		if info := l.stream.CachedInfo(); info != nil && info.Config.Replicas > 1 && !l.directOnly.Load() {
			m, err := l.lastFromLeader(ctx, subject)
			if err == nil || errors.Is(err, jetstream.ErrMsgNotFound) {
				return m, err
			}
			var ae *jetstream.APIError
			if !errors.As(err, &ae) {
				// Refused (a table device may only use direct gets) or unanswered: from now on
				// ask any replica, as before.
				l.directOnly.Store(true)
			} else {
				return nil, err
			}
		}
		return l.stream.GetLastMsgForSubject(ctx, subject)
	})
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return storedLast{}, nil
	}
	if err != nil {
		return storedLast{}, fmt.Errorf("recorder: reading the last event of %s: %w", subject, err)
	}
	e, err := events.Parse(m.Data)
	if err != nil {
		return storedLast{}, fmt.Errorf("recorder: stream message %d (%s) is not a valid event: %w", m.Sequence, subject, err)
	}
	return storedLast{seq: e.Seq, streamSeq: m.Sequence, raw: m.Data, ended: e.Type == events.HandEndedType}, nil
}

// getMsg runs a direct get with a per-attempt timeout, retrying timeouts.
func (l *Log) getMsg(ctx context.Context, get func(context.Context) (*jetstream.RawStreamMsg, error)) (*jetstream.RawStreamMsg, error) {
	for attempt := 1; ; attempt++ {
		actx, cancel := context.WithTimeout(ctx, l.opts.Timeout)
		m, err := get(actx)
		cancel()
		if err == nil || attempt >= maxAttempts || ctx.Err() != nil || !retryable(err) {
			return m, err
		}
	}
}

// maxAttempts bounds the tries of one request that timed out or found no responder.
const maxAttempts = 5

// maxInProcessAttempts bounds the tries of a publish the server answers with "duplicate message
// id is in process" or with its hand's subject in process: with retryWait that is about four
// seconds, the time a replicated stream takes to elect a new leader.
const maxInProcessAttempts = 9

// errCodeMsgIDInProcess is the server's "duplicate message id is in process" (409, JetStream
// error 10158): a replicated stream still holds an earlier attempt with the same Nats-Msg-Id as
// proposed but not yet stored, typically while it elects a leader. That attempt may still be
// stored or dropped, so the publish is retried, in doubt, once it has settled.
const errCodeMsgIDInProcess jetstream.ErrorCode = 10158

// msgIDInProcess reports whether err is the server's errCodeMsgIDInProcess.
func msgIDInProcess(err error) bool {
	var ae *jetstream.APIError
	return errors.As(err, &ae) && ae.ErrorCode == errCodeMsgIDInProcess
}

// subjectInProcess reports whether err is the server's "wrong last sequence" without a sequence
// (API error 10164): on a replicated stream the leader gives it to a publish expecting its
// subject's last sequence while another publish on that subject is proposed but not yet stored.
// For an append that is an earlier attempt of its own whose Nats-Msg-Id has left the
// de-duplication window (within it the server answers 10158 first), or another writer's append to
// the same hand: either may still be stored or dropped, so the publish is retried, in doubt,
// once it has settled, and the expectation then decides (settle).
func subjectInProcess(err error) bool {
	var ae *jetstream.APIError
	return errors.As(err, &ae) && ae.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant
}

// retryable reports whether a request that failed with err may be made again as it was: it timed
// out, found no responder, was cut by a disconnection, or met an earlier attempt still in process.
func retryable(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout) ||
		errors.Is(err, jetstream.ErrAsyncPublishTimeout) || errors.Is(err, jetstream.ErrNoStreamResponse) ||
		errors.Is(err, nats.ErrNoResponders) || errors.Is(err, nats.ErrDisconnected) ||
		errors.Is(err, jetstream.ErrTooManyStalledMsgs) || msgIDInProcess(err) || subjectInProcess(err)
}

// attemptsFor is how many tries a request that failed with err gets in all.
func attemptsFor(err error) int {
	if msgIDInProcess(err) || subjectInProcess(err) {
		return maxInProcessAttempts
	}
	return maxAttempts
}

// wrongLast reports whether err is the server's refusal of an expected last subject sequence.
func wrongLast(err error) bool {
	var ae *jetstream.APIError
	return errors.As(err, &ae) && (ae.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
		ae.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant)
}

// appendHand appends a job's events in order, each after the previous one's ack. A *HandError
// reports an invalid or refused hand; any other error means the store failed.
func (l *Log) appendHand(ctx context.Context, j *handJob) (handResult, error) {
	var res handResult
	first := j.evs[0].ev.Seq
	if first == 1 {
		// Checked first: a hand refused leaves nothing in the log.
		if err := j.chain("", l.MaxEvent()); err != nil {
			return res, err
		}
		return l.publishFrom(ctx, j, 0, 0, false, res)
	}
	// What the first event must follow: nothing for seq 1, else the stored last event.
	pred, expect := "", uint64(0)
	if c, ok := l.lasts.get(j.subject); ok && first > 1 && c.seq == first-1 {
		// This log appended the event before, and the server checks that it is still the
		// hand's last (lastcache.go).
		l.lasts.hits.Add(1)
		pred, expect = c.hash, c.streamSeq
	} else if first > 1 {
		st, err := l.last(ctx, j.subject)
		if err != nil {
			return res, err
		}
		switch {
		case st.seq < first-1:
			return res, j.fail(0, invalid(fmt.Sprintf("seq %d does not follow what is stored of the hand (its last seq is %d)", first, st.seq)))
		case st.seq >= first:
			return l.appendOverlapping(ctx, j, 0, res)
		case st.ended:
			return res, j.fail(0, invalid(fmt.Sprintf("the stored hand already ended at seq %d", st.seq)))
		}
		pred, expect = events.Hash(st.raw), st.streamSeq
	}
	if err := j.chain(pred, l.MaxEvent()); err != nil {
		return res, err
	}
	return l.publishFrom(ctx, j, 0, expect, false, res)
}

// chain fills prev where it is missing and checks it where it is present, from pred (the hash of
// the stored event before the first one), checks that ids do not repeat within the hand, and
// that no line, its prev filled in, is longer than limit (Log.MaxEvent): the store would refuse
// it, after the events before it were stored.
func (j *handJob) chain(pred string, limit int) error {
	var sum [sha256.Size]byte
	var ids map[string]struct{} // for long hands; short ones are scanned
	if len(j.evs) > 64 {
		ids = make(map[string]struct{}, len(j.evs))
	}
	for i, p := range j.evs {
		e := p.ev
		dup := false
		if ids != nil {
			_, dup = ids[e.ID]
			ids[e.ID] = struct{}{}
		} else {
			for _, q := range j.evs[:i] {
				dup = dup || q.ev.ID == e.ID
			}
		}
		if dup {
			return j.fail(i, invalid(fmt.Sprintf("event id %s is used twice in the hand", e.ID)))
		}
		// From the second line on, the previous line's hash is sum: prev is compared with it
		// without encoding it, and it is encoded only to fill in a prev or to report a wrong one.
		linked := e.HasPrev && (i == 0 && e.Prev == pred || i > 0 && events.IsHashOf(e.Prev, &sum))
		if i > 0 && !linked {
			pred = hex.EncodeToString(sum[:])
		}
		switch {
		case !e.HasPrev:
			events.Seal(e, pred)
		case !linked:
			return j.fail(i, invalid(fmt.Sprintf("prev %s is not the SHA-256 of the previous line of the hand (%s)", events.ShortHash(e.Prev), events.ShortHash(pred))))
		}
		if len(e.Raw) > limit {
			return j.fail(i, invalid(fmt.Sprintf("the event is %d bytes long, over the %d bytes the log takes (docs/events.md, Input limits)", len(e.Raw), limit)))
		}
		sum = sha256.Sum256(e.Raw)
	}
	j.lastSum = sum
	return nil
}

// publishFrom publishes j.evs[i:], the first expecting the subject's last sequence to be expect.
// inDoubt says that an earlier attempt at j.evs[i] may have been stored.
func (l *Log) publishFrom(ctx context.Context, j *handJob, i int, expect uint64, inDoubt bool, res handResult) (handResult, error) {
	for i < len(j.evs) {
		ack, retried, err := l.publish(ctx, j.subject, j.evs[i].ev, expect)
		var done bool
		i, expect, done, err = l.settle(ctx, j, i, expect, ack, retried || inDoubt, err, &res)
		if err != nil || done {
			return res, err
		}
		inDoubt = false
	}
	return res, nil
}

// settle takes the outcome of publishing j.evs[i] with expectation expect (an ack, or err) and
// returns where to go on: the next event to publish and its expectation. done means the rest of
// the hand was dealt with. retried says an earlier attempt at the event may have been stored.
func (l *Log) settle(ctx context.Context, j *handJob, i int, expect uint64, ack *jetstream.PubAck, retried bool, err error, res *handResult) (next int, nextExpect uint64, done bool, _ error) {
	e := j.evs[i].ev
	switch {
	case err == nil && !ack.Duplicate:
		res.appended++
		res.lastSeq = ack.Sequence
		return i + 1, ack.Sequence, false, nil
	case err == nil:
		// The id was seen within the de-duplication window: this very event, or another one.
		r := l.reader()
		m, err := r.getMsg(ctx, func(ctx context.Context) (*jetstream.RawStreamMsg, error) {
			return r.stream.GetMsg(ctx, ack.Sequence)
		})
		if err != nil {
			return i, expect, false, fmt.Errorf("recorder: reading stream message %d: %w", ack.Sequence, err)
		}
		if m.Subject != j.subject || !bytes.Equal(m.Data, e.Raw) {
			return i, expect, false, j.fail(i, conflict(fmt.Sprintf("event id %s is already stored (stream message %d) with other content", e.ID, ack.Sequence)))
		}
		res.skipped++
		res.lastSeq = ack.Sequence
		return i + 1, ack.Sequence, false, nil
	case wrongLast(err):
		// Something else is now last in the hand: this very event (stored by an earlier run or
		// an attempt whose ack was lost), or another writer's.
		st, err := l.last(ctx, j.subject)
		if err != nil {
			return i, expect, false, err
		}
		k := int(st.seq - j.evs[0].ev.Seq) // index of the stored last event among ours
		switch {
		case k < i-1 || k < 0:
			return i, expect, false, j.fail(i, conflict(fmt.Sprintf("the stored hand ends at seq %d, before this event's place", st.seq)))
		case k == i-1 && st.streamSeq == expect:
			// What is stored is what we expected, yet the server refused: another append to the
			// hand stayed in process through every attempt (subjectInProcess).
			return i, expect, false, j.fail(i, conflict(fmt.Sprintf("another append to the hand after seq %d stayed in process", st.seq)))
		case k == i-1:
			// Our predecessor is last, at another stream sequence than we expected.
			if !bytes.Equal(st.raw, j.evs[k].ev.Raw) {
				return i, expect, false, j.fail(i, conflict(fmt.Sprintf("seq %d is stored with other content", st.seq)))
			}
			return i, st.streamSeq, false, nil
		case k >= len(j.evs):
			*res, err = l.appendOverlapping(ctx, j, i, *res)
			return len(j.evs), 0, true, err
		case !bytes.Equal(st.raw, j.evs[k].ev.Raw):
			return i, expect, false, j.fail(i, conflict(fmt.Sprintf("the hand already holds seq %d and it differs from this input", st.seq)))
		}
		// The chain links each stored event to the one before: the stored last event equal to
		// ours means everything before it is ours too.
		n := k - i + 1
		if retried {
			res.appended++ // our earlier attempt landed
			n--
		}
		res.skipped += n
		res.lastSeq = st.streamSeq
		return k + 1, st.streamSeq, false, nil
	}
	return i, expect, false, fmt.Errorf("recorder: appending %s seq %d: %w", j.subject, e.Seq, err)
}

// publish sends one event with its Msg-Id and expectation, and waits for the ack. Attempts that
// time out are retried with the same Msg-Id and expectation; retried reports whether any was.
func (l *Log) publish(ctx context.Context, subject string, e *events.Event, expect uint64) (*jetstream.PubAck, bool, error) {
	retried := false
	for attempt := 1; ; attempt++ {
		f, err := l.js.PublishMsgAsync(eventMsg(subject, e, expect))
		if err == nil {
			select {
			case ack := <-f.Ok():
				return ack, retried, nil
			case err = <-f.Err():
			case <-ctx.Done():
				return nil, retried, ctx.Err()
			}
		}
		if !retryable(err) || attempt >= attemptsFor(err) {
			return nil, retried, err
		}
		retried = true
		select {
		case <-time.After(retryWait(attempt)):
		case <-ctx.Done():
			return nil, retried, ctx.Err()
		}
	}
}

// eventMsg is the message of an event: its line, Nats-Msg-Id = its id, and the expected last
// sequence of its hand's subject (what jetstream.WithMsgID and
// jetstream.WithExpectLastSequencePerSubject set, without their per-call allocations).
func eventMsg(subject string, e *events.Event, expect uint64) *nats.Msg {
	return &nats.Msg{Subject: subject, Data: e.Raw, Header: nats.Header{
		jetstream.MsgIDHeader:               []string{e.ID},
		jetstream.ExpectedLastSubjSeqHeader: []string{strconv.FormatUint(expect, 10)},
	}}
}

// retryWait is the pause before try attempt+1: 100 ms more each time, at most one second.
func retryWait(attempt int) time.Duration {
	return min(time.Duration(attempt)*100*time.Millisecond, time.Second)
}

// appendOverlapping handles a hand part of which is already stored and whose overlap cannot be
// judged from the stored last event alone: it reads the stored hand, compares j.evs[i:] event by
// event with it and appends what follows it.
func (l *Log) appendOverlapping(ctx context.Context, j *handJob, i int, res handResult) (handResult, error) {
	var stored []Stored
	err := l.reader().scanSubject(ctx, j.subject, func(s Stored) error {
		stored = append(stored, s)
		return nil
	})
	if err != nil {
		return res, err
	}
	for n, s := range stored {
		if s.Event.Seq != events.Seq(n+1) {
			return res, j.fail(i, conflict(fmt.Sprintf("the stored hand is broken: its event %d has seq %d", n+1, s.Event.Seq)))
		}
	}
	first := int(j.evs[0].ev.Seq)
	if first-1 > len(stored) {
		return res, j.fail(0, invalid(fmt.Sprintf("seq %d does not follow what is stored of the hand (its last seq is %d)", first, len(stored))))
	}
	if i == 0 {
		pred := ""
		if first > 1 {
			pred = events.Hash(stored[first-2].Event.Raw)
		}
		if err := j.chain(pred, l.MaxEvent()); err != nil {
			return res, err
		}
	}
	for ; i < len(j.evs) && first-1+i < len(stored); i++ {
		s := stored[first-1+i]
		if !bytes.Equal(s.Event.Raw, j.evs[i].ev.Raw) {
			return res, j.fail(i, conflict(fmt.Sprintf("the hand already holds seq %d and it differs from this input", s.Event.Seq)))
		}
		res.skipped++
		res.lastSeq = s.Seq
	}
	if i == len(j.evs) {
		return res, nil
	}
	last := stored[len(stored)-1]
	if last.Event.Type == events.HandEndedType {
		return res, j.fail(i, invalid(fmt.Sprintf("the stored hand already ended at seq %d", last.Event.Seq)))
	}
	return l.publishFrom(ctx, j, i, last.Seq, false, res)
}

// lastFromLeader asks the stream leader for the last message of subject ($JS.API.STREAM.MSG.GET).
// On a replicated stream a direct get may be answered by a replica that lags behind, and then an
// append expecting that stale last sequence is refused: the leader's answer is current.
func (l *Log) lastFromLeader(ctx context.Context, subject string) (*jetstream.RawStreamMsg, error) {
	return l.getFromLeader(ctx, struct {
		LastBySubject string `json:"last_by_subj"`
	}{subject}, "the last event of "+subject)
}

// msgFromLeader asks the stream leader for stream message seq ($JS.API.STREAM.MSG.GET). Only the
// leader answers that request, and only once it has applied every message the stream committed
// (a new leader too), so its "not found" for a sequence the stream holds is the store's own; a
// direct get may be answered by any replica, one a moment behind or still catching up after a
// restart, whose "not found" only says it has not stored the message yet.
func (l *Log) msgFromLeader(ctx context.Context, seq uint64) (*jetstream.RawStreamMsg, error) {
	return l.getFromLeader(ctx, struct {
		Seq uint64 `json:"seq"`
	}{seq}, fmt.Sprintf("stream message %d", seq))
}

// getFromLeader sends one $JS.API.STREAM.MSG.GET request; what names what it asks for in errors.
func (l *Log) getFromLeader(ctx context.Context, request any, what string) (*jetstream.RawStreamMsg, error) {
	req, err := json.Marshal(request)
	if err != nil {
		return nil, err
	}
	resp, err := l.nc.RequestWithContext(ctx, "$JS.API.STREAM.MSG.GET."+StreamName, req)
	if err != nil {
		return nil, err
	}
	var r struct {
		Error *struct {
			Code        int    `json:"code"`
			ErrorCode   uint16 `json:"err_code"`
			Description string `json:"description"`
		} `json:"error"`
		Message *struct {
			Subject string `json:"subject"`
			Seq     uint64 `json:"seq"`
			Data    []byte `json:"data"`
		} `json:"message"`
	}
	if err := json.Unmarshal(resp.Data, &r); err != nil {
		return nil, fmt.Errorf("recorder: reading %s: %w", what, err)
	}
	switch {
	case r.Error != nil && r.Error.Code == 404:
		return nil, jetstream.ErrMsgNotFound
	case r.Error != nil:
		return nil, &jetstream.APIError{Code: r.Error.Code, ErrorCode: jetstream.ErrorCode(r.Error.ErrorCode), Description: r.Error.Description}
	case r.Message == nil:
		return nil, fmt.Errorf("recorder: reading %s: empty answer", what)
	}
	return &jetstream.RawStreamMsg{Subject: r.Message.Subject, Sequence: r.Message.Seq, Data: r.Message.Data}, nil
}
