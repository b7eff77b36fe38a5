package recorder

import (
	"context"
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

// MsgAt returns the payload of stream message seq and its subject, as stored.
func (l *Log) MsgAt(ctx context.Context, seq uint64) (subject string, data []byte, err error) {
	m, err := l.stream.GetMsg(ctx, seq)
	if err != nil {
		return "", nil, err
	}
	return m.Subject, m.Data, nil
}
