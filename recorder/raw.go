package recorder

import (
	"context"
	"fmt"
	"math"

	"github.com/nats-io/nats.go/jetstream"
)

// FollowRaw is ReadRaw that does not stop at the end of the log: fn gets each stored message's
// stream sequence and payload byte for byte, as they are stored, until ctx is done (it then
// returns ctx's error) or fn returns an error. The transparency log's Merkle tree
// (recorder/checkpoint) follows the log this way: its leaves are the bytes as stored, decoded or
// not.
func (l *Log) FollowRaw(ctx context.Context, from uint64, fn func(seq uint64, data []byte) error) error {
	return stopped(l.scan(ctx, "", from, math.MaxUint64, true, func(m jetstream.Msg, seq uint64) error {
		return fn(seq, m.Data())
	}))
}

// FollowPending is FollowRaw that also tells fn how many messages the read's consumer says the
// stream holds after this one (0: the read has caught up with the log for now). The projector
// follows a live log this way: one consumer for as long as it follows, rather than a read and a
// wait (a consumer made and deleted, a subscription, three requests for the stream's last
// sequence) for every few events, and it commits a batch once caught up.
func (l *Log) FollowPending(ctx context.Context, from uint64, fn func(seq uint64, data []byte, pending uint64) error) error {
	return stopped(l.scan(ctx, "", from, math.MaxUint64, true, func(m jetstream.Msg, seq uint64) error {
		md, err := m.Metadata()
		if err != nil {
			return fmt.Errorf("recorder: reading the log: %w", err)
		}
		return fn(seq, m.Data(), md.NumPending)
	}))
}

// MsgAt returns the payload of stream message seq and its subject, as stored.
func (l *Log) MsgAt(ctx context.Context, seq uint64) (subject string, data []byte, err error) {
	m, err := l.stream.GetMsg(ctx, seq)
	if err != nil {
		return "", nil, err
	}
	return m.Subject, m.Data, nil
}
