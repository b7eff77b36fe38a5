package recorder

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/fechado/fechado/events"
	"github.com/nats-io/nats.go/jetstream"
)

// DefaultWindow is how many hands a Recorder appends at once.
const DefaultWindow = 256

// RecordOptions tune a Recorder.
type RecordOptions struct {
	// Window is how many hands are appended at once, each with one event in flight; 0 means
	// DefaultWindow.
	Window int
	// OnReject, when set, is called for every hand (or undecodable line naming no hand) that is
	// not appended, with a *HandError wrapping events.ErrInvalid or ErrSequenceConflict. Calls
	// are serialized; they come from the Recorder's goroutines.
	OnReject func(*HandError)
}

// Stats counts what a Recorder did so far.
type Stats struct {
	Read      int64 // events read that decoded
	Appended  int64 // events stored by this Recorder
	Skipped   int64 // events already stored with identical bytes
	Hands     int64 // hands seen
	Rejected  int64 // hands not appended because an event of theirs is invalid
	Conflicts int64 // hands the store refused (ErrSequenceConflict)
	BadLines  int64 // undecodable lines that name no hand
}

// Recorder appends many hands from files or a producer, validated and pipelined: it buffers each
// hand's events until its hand.ended (or the end of input), checks them all, then appends the
// hand, each event after the previous one's ack, with Window hands in flight at once. A hand
// with an invalid event is rejected as a whole before anything of it is appended (except events
// after its hand.ended, which only show up once the hand was handed over); other hands still go
// in. Memory is bounded by the hands open at once plus the window.
//
// Hands enter the stream in the order they are handed over: each hand's first event is sent from
// the goroutine that hands it over, in order, on the log's one connection. (A hand that continues
// a stored one, repeats a hand still in flight, or meets a conflict or a timeout is handled apart
// and may land later.) Its next events are sent as the acks arrive, from the goroutine that
// receives them, without a goroutine per hand; its hand.ended only once the hand handed over
// before it at its table has sent its own (endGate), so that a table's hands end in the stream
// in the order of the input.
//
// Add, AddLines and Close must be called from one goroutine; Stats from any. Close the Recorder
// before its Log.
type Recorder struct {
	log  *Log
	opts RecordOptions
	ctx  context.Context
	stop context.CancelFunc
	// pub is the recorder's own publisher, whose ack handler drives the hands; made at the
	// first hand the recorder starts (publisher), so that a recorder that only continues hands
	// (POST /api/events of a live table: one event, seq > 1, the slow path) subscribes to no
	// inbox: a subscription made and removed for every request was a tenth of serve's CPU under
	// a room's load (issue 43).
	pub     *fastPub
	pubOnce sync.Once
	pubErr  error

	slots    chan struct{}  // one per hand in flight
	pending  sync.WaitGroup // hands handed over and not finished
	open     map[string]*handJob
	nextSeen int64

	mu       sync.Mutex
	inflight map[string]*handJob // handed over and not finished, by hand id
	fatal    error

	// lastEnd holds, by table, the gate of the last hand handed over that ends there (handOver's
	// goroutine only); gateMu guards every endGate.
	lastEnd map[string]*endGate
	gateMu  sync.Mutex

	ids *runIDs // the event ids of the hands handed over lately (handOver's goroutine only)

	rejectMu sync.Mutex
	halted   atomic.Bool // the store failed or ctx is done
	closed   bool

	read, appended, skipped, hands, rejected, conflicts, badLines atomic.Int64
}

// NewRecorder starts a Recorder; ctx bounds all of its work. Call Close to finish.
func (l *Log) NewRecorder(ctx context.Context, opts RecordOptions) *Recorder {
	if opts.Window <= 0 {
		opts.Window = DefaultWindow
	}
	ctx, stop := context.WithCancel(ctx)
	r := &Recorder{
		log: l, opts: opts, ctx: ctx, stop: stop,
		slots:    make(chan struct{}, opts.Window),
		open:     map[string]*handJob{},
		inflight: map[string]*handJob{},
		lastEnd:  map[string]*endGate{},
		ids:      newRunIDs(),
	}
	context.AfterFunc(ctx, func() { r.halted.Store(true) })
	return r
}

// publisher returns the recorder's publisher, made at the first call. When its inbox cannot be
// made the recorder halts, as the store failing does, and nothing is sent on the fast path.
func (r *Recorder) publisher() (*fastPub, error) {
	r.pubOnce.Do(func() {
		r.pub, r.pubErr = newFastPub(r.log.nc, r.log.opts.Timeout, r.acked, r.refused)
		if r.pubErr != nil {
			r.pubErr = fmt.Errorf("recorder: the acks' inbox: %w", r.pubErr)
			r.fail(r.pubErr)
		}
	})
	return r.pub, r.pubErr
}

// Stats returns the counts so far.
func (r *Recorder) Stats() Stats {
	return Stats{
		Read: r.read.Load(), Appended: r.appended.Load(), Skipped: r.skipped.Load(),
		Hands: r.hands.Load(), Rejected: r.rejected.Load(), Conflicts: r.conflicts.Load(),
		BadLines: r.badLines.Load(),
	}
}

// err returns the error that stopped the Recorder, if any.
func (r *Recorder) err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fatal != nil {
		return r.fatal
	}
	return r.ctx.Err()
}

func (r *Recorder) fail(err error) {
	r.mu.Lock()
	if r.fatal == nil {
		r.fatal = err
	}
	r.mu.Unlock()
	r.halted.Store(true)
	r.stop()
}

func (r *Recorder) reject(he *HandError) {
	if errors.Is(he, ErrSequenceConflict) {
		r.conflicts.Add(1)
	} else if he.Hand == "" {
		r.badLines.Add(1)
	} else {
		r.rejected.Add(1)
	}
	if r.opts.OnReject != nil {
		r.rejectMu.Lock()
		defer r.rejectMu.Unlock()
		r.opts.OnReject(he)
	}
}

// AddLines reads JSON Lines events from rd (name is used in messages), decodes each once and adds
// it. A line that does not decode rejects its hand: the hand it names (events.Sniff), or, when it
// names none (it is not JSON), the hand of the line before it (events-v1.md §8 places it there),
// unless that hand was handed over already (the line came after its hand.ended): then the line
// is reported alone. A line
// longer than events.MaxLineSize is read past in bounded memory and rejects its hand the same way.
// Reading goes on. It returns an error only when reading rd failed or the Recorder stopped (the
// store failed, or ctx is done).
func (r *Recorder) AddLines(rd io.Reader, name string) error {
	// The Reader's events share its lines' memory instead of copying their strings: the lines
	// are kept until their hands are stored anyway, and a Reader never writes them again.
	er := events.NewReader(rd, name)
	var prevHand string // the hand of the line before, where a line naming none belongs
	for {
		e, line, err := er.NextLine()
		switch {
		case err == io.EOF:
			return nil
		case err != nil && line == nil:
			return err
		case err != nil:
			var ee *events.Error
			if errors.As(err, &ee) {
				ee.File, ee.Line = "", 0 // the HandError names them
			}
			hand := events.Sniff(line).Hand
			if hand == "" && r.open[prevHand] != nil {
				hand = prevHand
			}
			r.rejectLine(hand, err, name, er.Line())
			prevHand = hand
			continue
		}
		prevHand = e.Hand
		if err := r.Add(e, name, er.Line()); err != nil {
			return err
		}
	}
}

// rejectLine rejects the hand of an undecodable line (or reports the line alone).
func (r *Recorder) rejectLine(hand string, err error, file string, line int) {
	if hand == "" {
		r.reject(&HandError{File: file, Line: line, Err: err})
		return
	}
	j := r.open[hand]
	if j == nil {
		j = &handJob{hand: hand}
		r.open[hand] = j
		r.hands.Add(1)
	}
	if !j.rejected {
		r.rejectJob(j, &HandError{Table: j.table, Hand: hand, File: file, Line: line, Err: err})
	}
}

func (r *Recorder) rejectJob(j *handJob, he *HandError) {
	j.rejected, j.evs = true, nil
	r.reject(he)
}

// Add adds one decoded event (file and line say where it came from, for messages; "" and 0 when
// it came from no file). It returns an error only when the Recorder stopped.
func (r *Recorder) Add(e *events.Event, file string, line int) error {
	if r.halted.Load() {
		return r.err()
	}
	r.read.Add(1)
	j := r.open[e.Hand]
	if j == nil {
		j = newJob(e)
		j.order = r.nextSeen
		r.nextSeen++
		r.open[e.Hand] = j
		r.hands.Add(1)
	}
	ended := e.Type == events.HandEndedType
	switch {
	case j.rejected:
	case e.Table != j.table:
		r.rejectJob(j, &HandError{Table: j.table, Hand: j.hand, Seq: e.Seq, File: file, Line: line,
			Err: invalid("table " + e.Table + " differs from the table the hand began at")})
	case len(j.evs) > 0 && e.Seq != j.evs[len(j.evs)-1].ev.Seq+1:
		r.rejectJob(j, &HandError{Table: j.table, Hand: j.hand, Seq: e.Seq, File: file, Line: line,
			Err: invalid("seq " + e.Seq.String() + " follows seq " + j.evs[len(j.evs)-1].ev.Seq.String() + " of the hand")})
	default:
		j.evs = append(j.evs, pending{ev: e, file: file, line: line})
		if ended {
			delete(r.open, e.Hand)
			return r.handOver(j)
		}
		return nil
	}
	if ended {
		delete(r.open, e.Hand)
	}
	return nil
}

// handOver starts appending a complete (or, at the end, incomplete) hand once a slot of the
// window is free.
func (r *Recorder) handOver(j *handJob) error {
	if r.halted.Load() {
		return r.err()
	}
	if i := r.ids.claim(j); i >= 0 {
		p := j.evs[i]
		r.rejectJob(j, &HandError{Table: j.table, Hand: j.hand, Seq: p.ev.Seq, File: p.file, Line: p.line,
			Err: invalid("event id " + p.ev.ID + " is an event of another hand of this run: nothing of the hand was stored")})
		return r.err()
	}
	select {
	case r.slots <- struct{}{}:
	case <-r.ctx.Done():
		return r.err()
	}
	r.pending.Add(1)
	j.done = make(chan struct{})
	r.mu.Lock()
	if prior := r.inflight[j.hand]; prior != nil {
		j.after = prior.done // the same hand again: append after the earlier part settled
	}
	r.inflight[j.hand] = j
	r.mu.Unlock()
	if j.evs[len(j.evs)-1].ev.Type == events.HandEndedType {
		j.gate, j.before = &endGate{}, r.lastEnd[j.table]
		r.lastEnd[j.table] = j.gate
	}
	if j.after != nil || j.evs[0].ev.Seq != 1 {
		go r.slow(j)
		return r.err()
	}
	if err := j.chain("", r.log.MaxEvent()); err != nil {
		r.finish(j, err)
		return r.err()
	}
	if _, err := r.publisher(); err != nil {
		r.finish(j, err)
		return r.err()
	}
	r.send(j, 0, 0)
	return r.err()
}

// endGate keeps a table's hand.ended events in the order their hands were handed over, which
// is the order of the input: a hand's hand.ended is sent on the fast path only once the hand
// handed over before it at its table has sent its own (or is done, whatever became of it). The
// hands' other events go on as their acks come, so only the hand.ended events wait, and rarely
// long: the hands of a table are handed over in order. The messages of the recorder's one
// connection are stored in the order they are sent, so the stream holds each table's hands
// ending in their chain's order, and a projector reading it judges each hand at its hand.ended
// instead of keeping it until the hand before it comes (projector/order.go). It is the usual
// order, not a promise: a hand appended the slow way (a retry, a conflict, a hand continuing a
// stored one) or by another writer may still end out of it, and readers judge that too.
type endGate struct {
	passed bool
	waiter *handJob // the next hand's job, stopped before its hand.ended until passed
}

// pass passes j's gate and sends the hand.ended events that waited for it, one after another.
func (r *Recorder) pass(j *handJob) {
	for j != nil && j.gate != nil {
		r.gateMu.Lock()
		g := j.gate
		if g.passed {
			r.gateMu.Unlock()
			return
		}
		g.passed = true
		w := g.waiter
		g.waiter, j.before = nil, nil // j.before: no longer needed
		r.gateMu.Unlock()
		if w == nil {
			return
		}
		if r.halted.Load() {
			r.finish(w, r.ctx.Err()) // passes w's gate in turn
			return
		}
		if !r.publish(w) {
			return
		}
		j = w
	}
}

// send publishes j.evs[i] on the fast path; acked or refused takes it from there. A hand.ended
// waits for the hand before it at its table (endGate).
func (r *Recorder) send(j *handJob, i int, expect uint64) {
	j.next, j.expect = i, expect
	if j.gate != nil && i == len(j.evs)-1 {
		r.gateMu.Lock()
		if b := j.before; b != nil && !b.passed {
			b.waiter = j
			r.gateMu.Unlock()
			return // sent by pass
		}
		j.before = nil
		r.gateMu.Unlock()
		if r.publish(j) {
			r.pass(j)
		}
		return
	}
	r.publish(j)
}

// publish publishes j.evs[j.next] with j.expect, and reports whether it was sent: if not, the slow
// path takes the hand over.
func (r *Recorder) publish(j *handJob) bool {
	i, expect := j.next, j.expect
	// One message a hand, its fields set again for each event: PublishMsg copies a message out
	// before it returns, and the hand has one event in flight. (The slow path's
	// PublishMsgAsync keeps its message for retries: it gets one of its own each time.)
	e := j.evs[i].ev
	if j.msg == nil {
		j.msg = eventMsg(j.subject, e, expect)
	} else {
		j.msg.Data = e.Raw
		j.msg.Header[jetstream.MsgIDHeader][0] = e.ID
		j.msg.Header[jetstream.ExpectedLastSubjSeqHeader][0] = strconv.FormatUint(expect, 10)
	}
	pub, _ := r.publisher() // made by handOver, which every hand on the fast path went through
	if err := pub.publish(j, j.msg); err != nil {
		go r.resume(j, nil, err)
		return false
	}
	return true
}

// acked is the publisher's ack handler: a clean ack sends the hand's next event at once.
func (r *Recorder) acked(j *handJob, seq uint64, duplicate bool) {
	if duplicate {
		go r.resume(j, &jetstream.PubAck{Sequence: seq, Duplicate: true}, nil)
		return
	}
	j.res.appended++
	j.res.lastSeq = seq
	switch {
	case j.next+1 == len(j.evs):
		r.finish(j, nil)
	case r.halted.Load():
		r.finish(j, r.ctx.Err())
	default:
		r.send(j, j.next+1, seq)
	}
}

// refused is the publisher's error handler. It is called from the publisher's goroutines, so it
// only hands the event over to a goroutine of its own.
func (r *Recorder) refused(j *handJob, err error) {
	go r.resume(j, nil, err)
}

// resume settles an event the fast path could not (a duplicate id, a conflict, a timeout) and
// appends the rest of its hand the synchronous way.
func (r *Recorder) resume(j *handJob, ack *jetstream.PubAck, err error) {
	res, i, expect, inDoubt := j.res, j.next, j.expect, false
	if err := r.ctx.Err(); err != nil {
		r.finish(j, err)
		return
	}
	if err != nil && retryable(err) {
		inDoubt = true // publishFrom sends it again, with the same Msg-Id and expectation
	} else {
		var done bool
		i, expect, done, err = r.log.settle(r.ctx, j, i, expect, ack, false, err, &res)
		if err != nil || done {
			j.res = res
			r.finish(j, err)
			return
		}
	}
	j.res, err = r.log.publishFrom(r.ctx, j, i, expect, inDoubt, res)
	r.finish(j, err)
}

// slow appends a hand that must wait for an earlier part of itself or look at what is stored
// first.
func (r *Recorder) slow(j *handJob) {
	if j.after != nil {
		select {
		case <-j.after:
		case <-r.ctx.Done():
		}
	}
	if err := r.ctx.Err(); err != nil {
		r.finish(j, err)
		return
	}
	var err error
	j.res, err = r.log.appendHand(r.ctx, j)
	r.finish(j, err)
}

// finish accounts for a hand that is done and frees its slot.
func (r *Recorder) finish(j *handJob, err error) {
	r.log.lasts.remember(j, j.res, err)
	r.appended.Add(int64(j.res.appended))
	r.skipped.Add(int64(j.res.skipped))
	var he *HandError
	switch {
	case err == nil:
	case errors.As(err, &he):
		r.reject(he)
	case r.ctx.Err() != nil:
	default:
		r.fail(err)
	}
	r.mu.Lock()
	if r.inflight[j.hand] == j {
		delete(r.inflight, j.hand)
	}
	r.mu.Unlock()
	r.pass(j)
	close(j.done)
	<-r.slots
	r.pending.Done()
}

// Close appends the hands still open (the input ended before their hand.ended), waits for every
// append and returns the counts. The error is the store failure (or ctx's error) that stopped
// the Recorder, if any; rejected hands are not errors here (see Stats and OnReject). Calling it
// again returns the same.
func (r *Recorder) Close() (Stats, error) {
	if r.closed {
		return r.Stats(), r.err()
	}
	r.closed = true
	var rest []*handJob
	for _, j := range r.open {
		if !j.rejected && len(j.evs) > 0 {
			rest = append(rest, j)
		}
	}
	sort.Slice(rest, func(a, b int) bool { return rest[a].order < rest[b].order })
	r.open = map[string]*handJob{}
	for _, j := range rest {
		if r.handOver(j) != nil {
			break
		}
	}
	r.pending.Wait()
	r.pubOnce.Do(func() {}) // none made from now on
	if r.pub != nil {
		r.pub.close()
	}
	err := r.err()
	r.stop()
	return r.Stats(), err
}
