package recorder

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
)

// This file reads the raw log of the embedded server with batched direct gets by stream
// sequence instead of a consumer. The embedded server holds the stream's only copy and answers
// its direct gets itself, so what they give is what a consumer would deliver; asked without the
// stored headers (no_hdr), the server sends each message as it is stored, where a consumer adds
// its reply subject and the stored headers (Nats-Msg-Id, Nats-Expected-Last-Subject-Sequence),
// which the client parses, and where a direct get with headers makes up six more. Read this way,
// an event costs the process less than half the CPU it costs through a consumer (`go test
// ./recorder -run '^$' -bench 'Read$'`, raw against raw-consumer; BENCHMARKS.md, twenty-eighth
// session). A direct get without headers does not name each message's sequence:
// a batch ends with the last sequence it sent, and its messages are taken for the sequences from
// the first asked to that one only when they are exactly that many. Anything else (a gap, a
// message the store cannot give, an answer that does not come, a refusal) hands the read over
// to the consumer, from the first message not delivered, which reports it as it always did.

// directRaw says whether ReadRaw of an embedded log reads with batched direct gets (a variable
// so that tests can read the same log both ways).
var directRaw = true

// directRawBytes bounds the bytes of one batch (the request's max_bytes; the server stops after
// the message that reaches it). The next batch is asked for before the last is delivered, so a
// read holds about two batches: what a bulk pull holds (bulkBytes). A variable for the tests.
var directRawBytes = bulkBytes / 2

// errNotDirect: the direct read stopped short of its end for a reason the consumer reports.
var errNotDirect = errors.New("direct read given up")

// directRawRequest is a batched direct get by stream sequence ($JS.API.DIRECT.GET.<stream>).
type directRawRequest struct {
	Seq      uint64 `json:"seq"`
	Batch    int    `json:"batch"`
	MaxBytes int    `json:"max_bytes"`
	NoHdr    bool   `json:"no_hdr"`
}

// lastSequenceHeader is the header of a batch's end-of-batch status that names the last stream
// sequence the batch sent.
const lastSequenceHeader = "Nats-Last-Sequence"

// readRawDirect delivers stream messages from through last to fn, in order, with batched direct
// gets. It returns the first sequence it did not deliver, and errNotDirect when the consumer
// must go on from there; any other error is fn's or ctx's.
func (l *Log) readRawDirect(ctx context.Context, from, last uint64, fn func(seq uint64, data []byte) error) (uint64, error) {
	next := from
	if next > last {
		return next, nil
	}
	var mean uint64
	if last-from+1 > uint64(bulkPull) { // as scan: only a bulk read needs the mean
		mean = l.meanSize(ctx)
	}
	count := uint64(pullSize(last-from+1, mean))
	// Room for two batches and their ends: the client drops what does not fit (a slow
	// consumer), which the count of a batch would then catch.
	ch := make(chan *nats.Msg, 2*count+2)
	inbox := l.nc.NewInbox()
	sub, err := l.nc.ChanSubscribe(inbox, ch)
	if err != nil {
		return next, fmt.Errorf("%w: %v", errNotDirect, err)
	}
	defer sub.Unsubscribe() //nolint:errcheck // the subscription only served this read
	wait := newWaiter(l.opts.Timeout)
	defer wait.stop()
	ask := func(seq uint64) error {
		req, err := json.Marshal(directRawRequest{Seq: seq, Batch: int(min(count, last-seq+1)), MaxBytes: directRawBytes, NoHdr: true})
		if err == nil {
			err = l.nc.PublishRequest("$JS.API.DIRECT.GET."+StreamName, inbox, req)
		}
		if err != nil {
			return fmt.Errorf("%w: %v", errNotDirect, err)
		}
		return nil
	}
	if err := ask(next); err != nil {
		return next, err
	}
	batch := make([][]byte, 0, count)
	for next <= last {
		batch = batch[:0]
		var end *nats.Msg // the batch's end-of-batch status
		for end == nil {
			m, err := wait.next(ctx, ch)
			switch {
			case ctx.Err() != nil:
				return next, ctx.Err()
			case err != nil:
				return next, fmt.Errorf("%w: %v", errNotDirect, err)
			case m.Header.Get("Status") != "":
				end = m
			default:
				batch = append(batch, m.Data)
			}
		}
		// 204 ends a batch; 404 says the store gave nothing from next on, although the stream
		// holds through last: a message it cannot read, which the consumer reports.
		if st := end.Header.Get("Status"); st != "204" {
			return next, fmt.Errorf("%w: status %s %s at stream sequence %d", errNotDirect, st, end.Header.Get("Description"), next)
		}
		lseq, err := strconv.ParseUint(end.Header.Get(lastSequenceHeader), 10, 64)
		n := uint64(len(batch))
		if err != nil || n == 0 || lseq != next+n-1 || lseq > last {
			return next, fmt.Errorf("%w: %d messages from stream sequence %d end at %s", errNotDirect, n, next, end.Header.Get(lastSequenceHeader))
		}
		start := next
		next = lseq + 1
		if next <= last {
			if err := ask(next); err != nil {
				// What this batch holds is sound: deliver it, then the consumer goes on.
				if derr := deliverBatch(start, batch, fn); derr != nil {
					return start, derr
				}
				return next, err
			}
		}
		if err := deliverBatch(start, batch, fn); err != nil {
			return start, err
		}
	}
	return next, nil
}

// waiter takes a read's messages off its channel, waiting at most timeout for each (or until
// ctx is done) on one timer, set only when no message is there yet: a context and its timer made
// for each of a million messages cost a fifth of the read.
type waiter struct {
	timeout time.Duration
	t       *time.Timer
}

func newWaiter(timeout time.Duration) *waiter {
	t := time.NewTimer(timeout)
	t.Stop()
	return &waiter{timeout: timeout, t: t}
}

func (w *waiter) stop() { w.t.Stop() }

func (w *waiter) next(ctx context.Context, ch <-chan *nats.Msg) (*nats.Msg, error) {
	select {
	case m := <-ch:
		return m, nil
	default:
	}
	w.t.Reset(w.timeout)
	defer w.t.Stop()
	select {
	case m := <-ch:
		return m, nil
	case <-w.t.C:
		return nil, nats.ErrTimeout
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// deliverBatch gives fn the messages of one batch, the first being stream sequence start.
func deliverBatch(start uint64, batch [][]byte, fn func(seq uint64, data []byte) error) error {
	for i, data := range batch {
		if err := fn(start+uint64(i), data); err != nil {
			return err
		}
	}
	return nil
}
