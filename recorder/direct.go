package recorder

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// directBatch is how many events one batched direct get asks for; a longer hand takes more
// requests, each starting after the last event received.
const directBatch = 256

// numPendingHeader tells, in a batched direct get's answers, how many messages of the subject
// follow.
const numPendingHeader = "Nats-Num-Pending"

// errDirectRefused means the server answered a batched direct get with an error status (a
// server too old for batches, or a malformed request); the caller reads with a consumer instead.
var errDirectRefused = errors.New("batched direct get refused")

// readDirect delivers the stored events of one exact subject from stream sequence from on, in
// order, with batched direct gets ($JS.API.DIRECT.GET.<stream> with next_by_subj and batch):
// one request and one answer per directBatch events, no consumer to create or delete. The file
// store finds the subject's first message through its per-subject index, so the cost is that of
// the message block(s) holding the hand, whatever the log's length. It returns the last stream
// sequence delivered (0 when nothing matched).
func (l *Log) readDirect(ctx context.Context, subject string, from uint64, fn func(Stored) error) (uint64, error) {
	if from == 0 {
		from = 1
	}
	var last uint64
	for {
		got, more, err := l.directRound(ctx, subject, from, fn)
		if got > 0 {
			last = got
		}
		if err != nil || !more {
			return last, err
		}
		from = got + 1
	}
}

// directRound is one batched direct get: it delivers up to directBatch events and says whether
// more of the subject follow them.
func (l *Log) directRound(ctx context.Context, subject string, from uint64, fn func(Stored) error) (last uint64, more bool, err error) {
	req, err := json.Marshal(struct {
		Seq     uint64 `json:"seq"`
		NextFor string `json:"next_by_subj"`
		Batch   int    `json:"batch"`
	}{from, subject, directBatch})
	if err != nil {
		return 0, false, err
	}
	inbox := l.nc.NewInbox()
	sub, err := l.nc.SubscribeSync(inbox)
	if err != nil {
		return 0, false, fmt.Errorf("recorder: reading %s: %w", subject, err)
	}
	defer sub.Unsubscribe() //nolint:errcheck // the subscription only served this request
	if err := l.nc.PublishRequest("$JS.API.DIRECT.GET."+StreamName, inbox, req); err != nil {
		return 0, false, fmt.Errorf("recorder: reading %s: %w", subject, err)
	}
	// Each answer must come within the timeout: a long hand is many answers, each quick.
	for {
		rctx, cancel := context.WithTimeout(ctx, l.opts.Timeout)
		m, err := sub.NextMsgWithContext(rctx)
		cancel()
		if err != nil {
			if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
				err = nats.ErrTimeout
			}
			return last, false, fmt.Errorf("recorder: reading %s: %w", subject, err)
		}
		if len(m.Data) == 0 && m.Header.Get("Status") != "" {
			switch m.Header.Get("Status") {
			case "204": // end of the batch
				np, _ := strconv.ParseUint(m.Header.Get(numPendingHeader), 10, 64)
				return last, np > 0 && last > 0, nil
			case "404": // nothing of the subject from there on
				return last, false, nil
			case "503":
				return last, false, fmt.Errorf("recorder: reading %s: %w", subject, nats.ErrNoResponders)
			}
			return last, false, fmt.Errorf("%w: %s %s", errDirectRefused, m.Header.Get("Status"), m.Header.Get("Description"))
		}
		seq, err := strconv.ParseUint(m.Header.Get(jetstream.SequenceHeader), 10, 64)
		if err != nil {
			return last, false, fmt.Errorf("recorder: reading %s: an answer without its stream sequence", subject)
		}
		last = seq
		s, err := decodeData(m.Data, seq, subject)
		if err != nil {
			return last, false, err
		}
		if err := fn(s); err != nil {
			return last, false, err
		}
	}
}
