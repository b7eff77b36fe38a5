package recorder

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/nats-io/nats.go/jetstream"
)

// Stored is an event as the log holds it.
type Stored struct {
	Seq   uint64        // stream sequence
	Event *events.Event // decoded; Event.Raw is the stored line byte for byte
}

// ErrStop, returned by a read callback, ends the read early; the read then returns nil.
var ErrStop = errors.New("stop reading")

// pullBatch is how many messages a read asks the server for at a time. A read whose consumer has
// more than bulkPull messages to deliver when it is made (a whole log or table, a projection
// catching up) asks for more, up to bulkPull: every pull is a request the server answers on its
// own, and the audit of the 929,305 events of a room (audit --all) ran 1.15 times as fast at
// 8,192 a pull as at 1,024 (BENCHMARKS.md, twenty-sixth session). What the client holds is a
// pull's messages, so a bulk pull asks for about bulkBytes of them at the stream's mean size:
// 8,192 events of a few hundred bytes, but 1,024 in a log of long ones (a line may be 1 MB), as
// every read did before. The server could bound a pull's bytes itself, but the client then
// waited after a pull its bytes cut, until its consumer missed two heartbeats (2.5 s a read with
// PullMaxMessagesWithBytesLimit; now and then with PullMaxBytes). Variables, so that tests can
// make reads pull in small steps.
var (
	pullBatch = 1024
	bulkPull  = 8192
	bulkBytes = 8 << 20
)

// pullSize is how many messages a read asks for at a time whose consumer had pending messages to
// deliver when it was made, in a stream whose messages take mean bytes each. A mean not known
// (0) pulls pullBatch, as every read did before: the messages may be long.
func pullSize(pending, mean uint64) int {
	if pending <= uint64(bulkPull) || mean == 0 {
		return pullBatch
	}
	return max(int(min(uint64(bulkPull), uint64(bulkBytes)/mean)), pullBatch)
}

// meanSize is the mean bytes of the stream's messages now (0 when it holds none, or its state
// cannot be had): from the embedded server's own state, else asked of the stream once. Not from
// the state the log read when it opened, which a log opened empty (serve) would keep for good.
func (l *Log) meanSize(ctx context.Context) uint64 {
	st, ok := l.embeddedState()
	if !ok {
		actx, cancel := context.WithTimeout(ctx, l.opts.Timeout)
		info, err := l.stream.Info(actx)
		cancel()
		if err != nil {
			return 0
		}
		st.Msgs, st.Bytes = info.State.Msgs, info.State.Bytes
	}
	if st.Msgs == 0 {
		return 0
	}
	return st.Bytes / st.Msgs
}

// scan delivers, in stream order, the messages matching filter ("" = all) from stream sequence
// from on, with an ordered consumer (one server-side consumer at a time for the whole read, so
// memory stays flat). It stops after stream sequence last, or when nothing more matches; with
// follow it never stops by itself.
func (l *Log) scan(ctx context.Context, filter string, from, last uint64, follow bool, fn func(jetstream.Msg, uint64) error) error {
	if from == 0 {
		from = 1
	}
	if !follow && from > last {
		return nil
	}
	cfg := jetstream.OrderedConsumerConfig{DeliverPolicy: jetstream.DeliverAllPolicy}
	if filter != "" {
		cfg.FilterSubjects = []string{filter}
	}
	var cons jetstream.Consumer
	var it jetstream.MessagesContext
	// open makes the read's consumer, delivering from stream sequence start on.
	open := func(start uint64) error {
		cfg := cfg
		if start > 1 {
			cfg.DeliverPolicy, cfg.OptStartSeq = jetstream.DeliverByStartSequencePolicy, start
		}
		var err error
		for attempt := 1; ; attempt++ {
			// Bounded per attempt and made again on a timeout, as LastSeq.
			actx, cancel := context.WithTimeout(ctx, l.opts.Timeout)
			cons, err = l.stream.OrderedConsumer(actx, cfg)
			cancel()
			if err == nil || attempt >= maxAttempts || ctx.Err() != nil || !retryable(err) {
				break
			}
		}
		if err != nil {
			cons = nil
			return fmt.Errorf("recorder: reading the log: %w", err)
		}
		var pending, mean uint64
		if info := cons.CachedInfo(); info != nil {
			pending = info.NumPending
		}
		if pending > uint64(bulkPull) { // only a bulk read needs the mean: a read of a hand asks nothing more
			mean = l.meanSize(ctx)
		}
		opts := []jetstream.PullMessagesOpt{jetstream.PullMaxMessages(pullSize(pending, mean))}
		if hb := l.heartbeat(); hb > 0 {
			opts = append(opts, jetstream.PullHeartbeat(hb))
		}
		if it, err = cons.Messages(opts...); err != nil {
			return fmt.Errorf("recorder: reading the log: %w", err)
		}
		return nil
	}
	// release stops the read's consumer. The ordered consumer is ephemeral; it is deleted rather
	// than left to expire, so that many reads in a row (one hand after another) do not pile
	// consumers up.
	release := func() {
		if it != nil {
			it.Stop()
			it = nil
		}
		if cons != nil {
			if info := cons.CachedInfo(); info != nil {
				dctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				_ = l.stream.DeleteConsumer(dctx, info.Name)
				cancel()
			}
			cons = nil
		}
	}
	defer release()
	if err := open(from); err != nil {
		return err
	}
	// Damage is reported, never skipped. The stream denies deletes, so an unfiltered read must
	// see every sequence from from to last: a sequence skipped, or one not delivered within
	// Options.Timeout, is asked of the stream leader (gap, nextMsg), and one it cannot give is a
	// message the store cannot read. The consumer's count of what is pending does not end an
	// unfiltered read short of last: the consumer reads the copy of the replica it was placed
	// on, which may be behind the leader (a moment, or the whole of a node's catching up after
	// a restart), and says "nothing pending" where the leader holds more; the read waits for
	// them. A filtered read does the same with its filter: the consumer's "nothing pending"
	// ends it only once it delivered the last sequence the leader holds for the filter
	// (filterLast, asked once, when the consumer first says it has nothing more), and it counts
	// what it got of each subject against what the stream says it holds.
	next := from
	var pending uint64
	var got map[string]uint64
	if info := cons.CachedInfo(); info != nil {
		pending = info.NumPending
	}
	if filter != "" && !follow {
		got = map[string]uint64{}
	}
	short := func() error {
		if filter == "" {
			if next <= last {
				return l.gap(ctx, next, last+1)
			}
			return nil
		}
		var n uint64
		for _, c := range got {
			n += c
		}
		if n < pending {
			return l.damagedSubject(ctx, filter, got)
		}
		return nil
	}
	// For a filtered read: the last stream sequence delivered, the leader's last of the filter
	// (bounded by last) once asked, and whether the consumer went a whole wait without one.
	delivered, target, asked, idle := from-1, uint64(0), false, false
	// done says whether a filtered read that its consumer says is through may end.
	done := func() (bool, error) {
		if !asked {
			t, err := l.filterLast(ctx, filter)
			if err != nil {
				return false, err
			}
			target, asked = min(t, last), true
		}
		return delivered >= target, nil
	}
	if !follow && pending == 0 && filter != "" {
		if ok, err := done(); err != nil || ok {
			if err != nil {
				return err
			}
			return short()
		}
	}
	var w bound
	defer w.stop()
	for {
		m, err := l.nextMsg(ctx, it, &w, &next, follow, filter == "")
		if errors.Is(err, errStalled) {
			// The store gives the message the read waits for, and the consumer did not deliver
			// it for Options.Timeout: the consumer is lost (its node stopped) or its replica
			// is far behind. A new one delivers from that message on.
			release()
			if err := open(next); err != nil {
				return err
			}
			continue
		}
		if errors.Is(err, errIdle) {
			// A filtered read waits on: unless what it got falls short of what the stream
			// holds for its filter by a message the store cannot give.
			if err := short(); err != nil {
				return err
			}
			if asked && delivered < target {
				// The leader holds more of the filter and the consumer gave nothing for
				// Options.Timeout: it is lost, or its replica far behind. A new one delivers
				// from the message after the last delivered; one that gives nothing for a
				// whole wait more fails the read rather than end it short.
				if idle {
					return fmt.Errorf("recorder: reading %s: the stream leader holds it through stream sequence %d, the read got only through %d within %v", filter, target, delivered, 2*l.opts.Timeout)
				}
				idle = true
				release()
				if err := open(delivered + 1); err != nil {
					return err
				}
			}
			continue
		}
		if err != nil {
			return err
		}
		md, err := m.Metadata()
		if err != nil {
			return fmt.Errorf("recorder: reading the log: %w", err)
		}
		seq := md.Sequence.Stream
		if !follow && seq > last {
			return short()
		}
		if filter == "" {
			if seq > next {
				if err := l.gap(ctx, next, seq); err != nil {
					return err
				}
			}
			next = seq + 1
		} else if got != nil {
			got[m.Subject()]++
			delivered, idle = seq, false
		}
		if err := fn(m, seq); err != nil {
			return err
		}
		if !follow && seq >= last {
			return short()
		}
		if !follow && filter != "" && (md.NumPending == 0 || asked && seq >= target) {
			ok, err := done()
			if err != nil {
				return err
			}
			if ok {
				return short()
			}
		}
	}
}

// filterLast returns the last stream sequence the stream leader holds of filter (a subject, or
// one with wildcards; 0 when it holds none), asked with $JS.API.STREAM.MSG.GET's last_by_subj,
// which only the leader answers. The read's consumer may sit on a replica behind the leader and
// say "nothing pending" where the leader holds more of the filter. A user the leader read is
// refused to (a table device may only use direct gets) gets 0: its reads end where the consumer
// says, as before.
func (l *Log) filterLast(ctx context.Context, filter string) (uint64, error) {
	if l.leaderLastOf != nil {
		return l.leaderLastOf(ctx, filter)
	}
	if l.directOnly.Load() {
		return 0, nil
	}
	for attempt := 1; ; attempt++ {
		actx, cancel := context.WithTimeout(ctx, l.opts.Timeout)
		m, err := l.lastFromLeader(actx, filter)
		cancel()
		switch {
		case err == nil:
			return m.Sequence, nil
		case errors.Is(err, jetstream.ErrMsgNotFound):
			return 0, nil
		}
		if ctx.Err() != nil {
			return 0, fmt.Errorf("recorder: reading the last event of %s: %w", filter, ctx.Err())
		}
		if attempt < maxAttempts && retryable(err) {
			continue // no leader a moment (an election): asked again, as LastSeq
		}
		var ae *jetstream.APIError
		if errors.As(err, &ae) {
			return 0, fmt.Errorf("recorder: reading the last event of %s: %w", filter, err)
		}
		// Refused or never answered (no permission to the request): as last does, ask no more.
		l.directOnly.Store(true)
		return 0, nil
	}
}

// heartbeat is the idle heartbeat a read asks of its consumer; 0 leaves the client's own. The
// client takes two heartbeats missed within one wait for the next message for a consumer that is
// gone (its node stopped, or the stream's leader changed under it) and makes a new one from the
// message after the last delivered. A read waits at most Options.Timeout at a time, so two
// heartbeats must fit in it: with the client's own for ordered consumers (5 s) a lost consumer
// went unnoticed for ever at any timeout under 10 s, the default 5 s among them. An unfiltered
// read also makes a new consumer itself (errStalled); a filtered one only when the leader holds
// more of its filter than the consumer delivered (scan). The server
// takes 0.5 s to 30 s, and the client at most half its 30 s pull expiry.
func (l *Log) heartbeat() time.Duration {
	hb := min(l.opts.Timeout/4, 5*time.Second)
	if hb < 500*time.Millisecond {
		return 0
	}
	return hb
}

// errIdle is nextMsg's answer to a filtered read that got nothing for Options.Timeout.
var errIdle = errors.New("no message")

// errStalled is nextMsg's answer to an unfiltered read that was not given, for Options.Timeout,
// a message the stream leader gives.
var errStalled = errors.New("read stalled")

// bound is the deadline of a read's waits for its next message. One bound serves the waits
// that follow one another until it passes, rather than a context and a timer for each message
// (2-3 % of a projection's time); a wait that meets a bound made before it began waits again
// with a new one, so that only a whole Options.Timeout without a message counts as one.
type bound struct {
	ctx    context.Context
	cancel context.CancelFunc
}

// renew returns the bound to wait with, and whether it was made for this wait.
func (b *bound) renew(ctx context.Context, d time.Duration) (context.Context, bool) {
	if b.ctx != nil && b.ctx.Err() == nil {
		return b.ctx, false
	}
	b.stop()
	b.ctx, b.cancel = context.WithTimeout(ctx, d)
	return b.ctx, true
}

func (b *bound) stop() {
	if b.cancel != nil {
		b.cancel()
	}
}

// nextMsg waits for the next message of a read, each wait bounded by Options.Timeout: when none
// comes in that time and the stream holds the sequence an unfiltered read waits for (next), the
// stream leader is asked for it: one it cannot give is reported as damaged instead of waited on,
// one it gives ends the wait with errStalled.
func (l *Log) nextMsg(ctx context.Context, it jetstream.MessagesContext, w *bound, next *uint64, follow, unfiltered bool) (jetstream.Msg, error) {
	for {
		wctx, fresh := w.renew(ctx, l.opts.Timeout)
		m, err := it.Next(jetstream.NextContext(wctx))
		if err == nil {
			return m, nil
		}
		if ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("recorder: reading the log: %w", err)
		}
		if !fresh {
			continue // the bound of earlier waits passed during this one: a whole one again
		}
		if !unfiltered {
			if follow {
				continue
			}
			return nil, errIdle
		}
		last, err := l.LastSeq(ctx)
		if err != nil {
			return nil, err
		}
		if *next > last {
			continue // following: nothing new yet
		}
		ok, err := l.readable(ctx, *next)
		if err != nil {
			return nil, err
		}
		if ok {
			return nil, errStalled
		}
		if err := l.gap(ctx, *next, *next+1); err != nil {
			return nil, err
		}
		*next++ // deleted: the read goes on past it
	}
}

// decode parses a stored message.
func decode(m jetstream.Msg, seq uint64) (Stored, error) {
	return decodeData(m.Data(), seq, m.Subject())
}

// decodeData parses the payload of stream message seq, stored under subject.
func decodeData(data []byte, seq uint64, subject string) (Stored, error) {
	e, err := events.Parse(data)
	if err != nil {
		return Stored{}, fmt.Errorf("recorder: stream message %d (%s) is not a valid event: %w", seq, subject, err)
	}
	return Stored{Seq: seq, Event: e}, nil
}

// decodeWith parses the payload of stream message seq with dec, for a read whose messages are
// each their own allocation, never written again (a direct get's, a consumer's): the read's
// events then share their payloads' bytes and are carved from dec's slabs.
func decodeWith(dec *events.Decoder, data []byte, seq uint64) (Stored, error) {
	e, err := dec.Parse(data)
	if err != nil {
		return Stored{}, fmt.Errorf("recorder: stream message %d is not a valid event: %w", seq, err)
	}
	return Stored{Seq: seq, Event: e}, nil
}

// lastSeq returns the stream's last sequence now.
func (l *Log) lastSeq(ctx context.Context) (uint64, error) { return l.LastSeq(ctx) }

// LastSeq returns the stream's last sequence now. Embedded, it is read from the server's state
// of the stream in this process (embeddedLastSeq), without a request. Otherwise each request is
// bounded by Options.Timeout, whatever ctx's own deadline, and one that times out or finds no
// responder is made again (at most 5 times): on a cluster a request sent while the stream elects
// a leader may get no answer at all, and a follower of the log must not wait for it, nor stop.
func (l *Log) LastSeq(ctx context.Context) (uint64, error) {
	if seq, ok := l.embeddedLastSeq(); ok {
		return seq, nil
	}
	for attempt := 1; ; attempt++ {
		actx, cancel := context.WithTimeout(ctx, l.opts.Timeout)
		info, err := l.stream.Info(actx)
		cancel()
		if err == nil {
			return info.State.LastSeq, nil
		}
		if attempt >= maxAttempts || ctx.Err() != nil || !retryable(err) {
			return 0, fmt.Errorf("recorder: stream %s: %w", StreamName, err)
		}
	}
}

func stopped(err error) error {
	if errors.Is(err, ErrStop) {
		return nil
	}
	return err
}

// ReadAll calls fn for every event from stream sequence from (0 or 1 = the start) to the end of
// the log as it is when the call starts, in stream order, read as ReadRaw reads. Memory stays
// flat however long the log. An undecodable stored message ends the read with an error wrapping
// events.ErrInvalid.
func (l *Log) ReadAll(ctx context.Context, from uint64, fn func(Stored) error) error {
	last, err := l.lastSeq(ctx)
	if err != nil {
		return err
	}
	dec := events.NewDecoder()
	return stopped(l.readRaw(ctx, from, last, func(seq uint64, data []byte) error {
		s, err := decodeWith(dec, data, seq)
		if err != nil {
			return err
		}
		return fn(s)
	}))
}

// ReadRaw is ReadAll without decoding: fn gets each stored message's stream sequence and payload
// as stored (valid event or not), for readers that judge the lines themselves, such as the
// projector, which quarantines a line that is not an event instead of stopping. Embedded, it
// reads with batched direct gets (rawdirect.go), and with a consumer from the first message
// they did not give; on a cluster, with a consumer.
func (l *Log) ReadRaw(ctx context.Context, from uint64, fn func(seq uint64, data []byte) error) error {
	last, err := l.lastSeq(ctx)
	if err != nil {
		return err
	}
	return stopped(l.readRaw(ctx, from, last, fn))
}

// readRaw is ReadRaw up to stream sequence last.
func (l *Log) readRaw(ctx context.Context, from, last uint64, fn func(seq uint64, data []byte) error) error {
	if from == 0 {
		from = 1
	}
	if l.srv != nil && directRaw {
		next, err := l.readRawDirect(ctx, from, last, fn)
		if !errors.Is(err, errNotDirect) {
			return err
		}
		from = next
	}
	return l.scan(ctx, "", from, last, false, func(m jetstream.Msg, seq uint64) error {
		return fn(seq, m.Data())
	})
}

// Follow is ReadAll that does not stop at the end of the log: it waits for new events and
// delivers them as they are stored, until ctx is done (it then returns ctx's error) or fn
// returns an error.
func (l *Log) Follow(ctx context.Context, from uint64, fn func(Stored) error) error {
	return stopped(l.scan(ctx, "", from, math.MaxUint64, true, func(m jetstream.Msg, seq uint64) error {
		s, err := decode(m, seq)
		if err != nil {
			return err
		}
		return fn(s)
	}))
}

// scanSubject delivers every stored event of one exact subject, in order, with batched direct
// gets (readDirect). On a replicated stream any replica may answer a direct get, a moment behind
// the leader: the read must then reach the last event the leader holds, and what is missing is
// read through a consumer, which the leader serves. A server that refuses batched direct gets
// is read through a consumer too.
func (l *Log) scanSubject(ctx context.Context, subject string, fn func(Stored) error) error {
	var want uint64
	if info := l.stream.CachedInfo(); info != nil && info.Config.Replicas > 1 {
		st, err := l.last(ctx, subject)
		if err != nil {
			return err
		}
		want = st.streamSeq
	}
	got, err := l.readDirect(ctx, subject, 1, fn)
	switch {
	case errors.Is(err, errDirectRefused):
	case err != nil || got >= want:
		return err
	}
	return l.scan(ctx, subject, got+1, math.MaxUint64, false, func(m jetstream.Msg, seq uint64) error {
		s, err := decode(m, seq)
		if err != nil {
			return err
		}
		return fn(s)
	})
}

// HandSubject finds the subject of a hand when only its id is known. The lookup asks the server
// for the subjects matching fechado.hand.*.<hand>, which it answers from its per-subject index
// (cost grows with the number of tables, not of events). It returns ErrHandNotFound or
// ErrAmbiguousHand.
func (l *Log) HandSubject(ctx context.Context, hand string) (string, error) {
	info, err := l.stream.Info(ctx, jetstream.WithSubjectFilter(SubjectPrefix+"*."+hand))
	if err != nil {
		return "", fmt.Errorf("recorder: looking up hand %s: %w", hand, err)
	}
	switch len(info.State.Subjects) {
	case 0:
		return "", fmt.Errorf("%w: %s", ErrHandNotFound, hand)
	case 1:
		for s := range info.State.Subjects {
			return s, nil
		}
	}
	return "", fmt.Errorf("%w: %s", ErrAmbiguousHand, hand)
}

// ReadHand calls fn for every event of one hand, in seq order. With the table known the hand is
// read from its exact subject with batched direct gets: the server finds the hand's first event
// through its per-subject index, so a read costs the same however long the log (docs/stream.md
// §5). With table "" the table is looked up in the log (HandSubject), a walk whose cost grows
// with the number of tables; callers that keep read models ask them first (projector.ReadHand).
// It returns ErrHandNotFound when nothing of the hand is stored, and ErrAmbiguousHand when the
// hand is at several tables.
func (l *Log) ReadHand(ctx context.Context, table, hand string, fn func(Stored) error) error {
	if table == "" {
		subject, err := l.HandSubject(ctx, hand)
		if err != nil {
			return err
		}
		return l.readHand(ctx, subject, fn)
	}
	return l.readHand(ctx, Subject(table, hand), fn)
}

// readHand reads one hand's subject; ErrHandNotFound when it holds nothing.
func (l *Log) readHand(ctx context.Context, subject string, fn func(Stored) error) error {
	n, err := l.readHandSubject(ctx, subject, fn)
	if err == nil && n == 0 {
		return fmt.Errorf("%w: %s", ErrHandNotFound, subject)
	}
	return stopped(err)
}

// readHandSubject delivers the events of one hand's subject and counts them.
func (l *Log) readHandSubject(ctx context.Context, subject string, fn func(Stored) error) (int, error) {
	n := 0
	err := l.scanSubject(ctx, subject, func(s Stored) error {
		n++
		return fn(s)
	})
	return n, err
}

// ReadTable calls fn for every event of the hands of one table: hand after hand, in the order
// the hands first appear in the stream, each hand's events in seq order. The read filters on
// fechado.hand.<table>.*, a sub-wildcard of the stream's subjects, which the server serves
// several times slower per event than an unfiltered read (research/eventsourcing.md §1.7) but
// touches only the table's events.
func (l *Log) ReadTable(ctx context.Context, table string, fn func(Stored) error) error {
	return stopped(l.grouped(ctx, SubjectPrefix+table+".*", fn))
}

// ReadHands calls fn for every event of the log grouped by hand: hands in the order they first
// appear in the stream, each hand's events in seq order. Events of concurrent hands interleave
// in the stream, so the read buffers each open hand's events until its hand.ended (or until
// the hands before it have been delivered); memory is bounded by the hands open at once, and
// past 65,536 buffered events the oldest open hand is delivered early and the rest of it read
// directly from its subject. The log is read as ReadRaw reads it (embedded, with batched direct
// gets), and each event goes to the hand its own table and hand name (see grouped).
func (l *Log) ReadHands(ctx context.Context, fn func(Stored) error) error {
	return stopped(l.grouped(ctx, "", fn))
}

// maxBuffered bounds the events ReadTable and ReadHands hold while grouping hands (a variable so
// that tests can lower it).
var maxBuffered = 1 << 16

// handKey is a hand: its table and its id, as the event names them.
type handKey struct{ table, hand string }

type group struct {
	key     handKey
	evs     []Stored
	ended   bool
	lastSeq uint64
}

// grouped reads the events of the stream's subjects that match filter ("" for all, read as
// ReadRaw reads) and delivers them grouped by hand. An event's hand is the table and hand the
// event names, not the subject it is stored under: a read without the stored headers (ReadRaw's
// direct gets) does not give the subject, and a read that grouped by subject would cost twice
// the CPU (BENCHMARKS.md, twenty-ninth session). The recorder stores every event under its own
// hand's subject, so for the log it writes both are the same hand; an event stored under
// another hand's subject (written around the recorder) is verify's log.subject, and is grouped
// here with the hand it names, as the audit of the same lines in a file groups it.
func (l *Log) grouped(ctx context.Context, filter string, fn func(Stored) error) error {
	last, err := l.lastSeq(ctx)
	if err != nil {
		return err
	}
	var queue []*group           // open hands, in order of first appearance
	open := map[handKey]*group{} // by hand
	// early holds the stream sequences delivered by the read of a hand delivered early, which
	// the main pass skips when it comes to them.
	early := map[uint64]struct{}{}
	buffered := 0
	emit := func(g *group) error {
		for _, s := range g.evs {
			if err := fn(s); err != nil {
				return err
			}
		}
		buffered -= len(g.evs)
		g.evs = nil
		return nil
	}
	flush := func() error {
		for len(queue) > 0 {
			g := queue[0]
			switch {
			case g.ended:
				if err := emit(g); err != nil {
					return err
				}
			case buffered > maxBuffered:
				// Deliver the oldest open hand now and read the rest of it on its own, from its
				// subject: the events stored there that name the hand (what the main pass would
				// have given it).
				if err := emit(g); err != nil {
					return err
				}
				err := l.scan(ctx, Subject(g.key.table, g.key.hand), g.lastSeq+1, last, false, func(m jetstream.Msg, seq uint64) error {
					s, err := decode(m, seq)
					if err != nil {
						return err
					}
					if (handKey{s.Event.Table, s.Event.Hand}) != g.key {
						return nil
					}
					early[seq] = struct{}{}
					return fn(s)
				})
				if err != nil {
					return err
				}
				delete(open, g.key)
			default:
				return nil
			}
			queue[0] = nil
			queue = queue[1:]
		}
		return nil
	}
	dec := events.NewDecoder()
	each := func(seq uint64, data []byte) error {
		if _, ok := early[seq]; ok {
			delete(early, seq)
			return nil
		}
		s, err := decodeWith(dec, data, seq)
		if err != nil {
			return err
		}
		key := handKey{s.Event.Table, s.Event.Hand}
		g := open[key]
		if g == nil {
			g = &group{key: key}
			open[key] = g
			queue = append(queue, g)
		}
		g.evs = append(g.evs, s)
		g.lastSeq = seq
		buffered++
		if s.Event.Type == events.HandEndedType {
			g.ended = true
			delete(open, key)
		}
		return flush()
	}
	if filter == "" {
		err = l.readRaw(ctx, 1, last, each)
	} else {
		err = l.scan(ctx, filter, 1, last, false, func(m jetstream.Msg, seq uint64) error {
			return each(seq, m.Data())
		})
	}
	if err != nil {
		return err
	}
	for _, g := range queue {
		if err := emit(g); err != nil {
			return err
		}
	}
	return nil
}
