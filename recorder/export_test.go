package recorder

import (
	"context"
	"errors"

	"github.com/nats-io/nats.go/jetstream"
)

// SetMaxBuffered lowers the grouping buffer for a test and returns a func that restores it.
func SetMaxBuffered(n int) (restore func()) {
	old := maxBuffered
	maxBuffered = n
	return func() { maxBuffered = old }
}

// SetPulls makes reads ask for batch messages at a time, and those with more than bulk to
// deliver for up to bulk, about size bytes of them (pullSize), for a test; restore undoes it.
func SetPulls(batch, bulk, size int) (restore func()) {
	oldBatch, oldBulk, oldSize := pullBatch, bulkPull, bulkBytes
	pullBatch, bulkPull, bulkBytes = batch, bulk, size
	return func() { pullBatch, bulkPull, bulkBytes = oldBatch, oldBulk, oldSize }
}

// SetDirectRaw makes ReadRaw of an embedded log read with batched direct gets of at most bytes
// each (on) or with a consumer (off), for a test; restore undoes it.
func SetDirectRaw(on bool, bytes int) (restore func()) {
	oldOn, oldBytes := directRaw, directRawBytes
	directRaw, directRawBytes = on, bytes
	return func() { directRaw, directRawBytes = oldOn, oldBytes }
}

// ReadRawDirect is readRawDirect for a test: the messages from through last, with batched direct
// gets; next is the first not delivered, and handedOver says the consumer would go on from there.
func (l *Log) ReadRawDirect(ctx context.Context, from, last uint64, fn func(uint64, []byte) error) (next uint64, handedOver bool, err error) {
	next, err = l.readRawDirect(ctx, from, last, fn)
	if errors.Is(err, errNotDirect) {
		return next, true, nil
	}
	return next, false, err
}

// PullSize is pullSize.
func PullSize(pending, mean uint64) int { return pullSize(pending, mean) }

// MeanSize is meanSize.
func (l *Log) MeanSize(ctx context.Context) uint64 { return l.meanSize(ctx) }

// Readable is readable for a test: whether the store can give stream message seq.
func (l *Log) Readable(ctx context.Context, seq uint64) (bool, error) { return l.readable(ctx, seq) }

// LeaderAhead makes l's stream information name k messages more than the store holds, as the
// stream leader's does while the replica a read's consumer was placed on has not stored the last
// k yet. restore undoes it.
func LeaderAhead(l *Log, k uint64) (restore func()) {
	s := l.stream
	l.stream, l.askInfo = aheadStream{Stream: s, k: k}, true
	return func() { l.stream, l.askInfo = s, false }
}

type aheadStream struct {
	jetstream.Stream
	k uint64
}

func (a aheadStream) Info(ctx context.Context, opts ...jetstream.StreamInfoOpt) (*jetstream.StreamInfo, error) {
	info, err := a.Stream.Info(ctx, opts...)
	if err != nil {
		return nil, err
	}
	c := *info
	c.State.Msgs += a.k
	c.State.LastSeq += a.k
	return &c, nil
}

// DirectGetsBehind makes every direct get of l's stream answer "not found", as one answered by a
// replica that has not stored the message yet (a restarted node catching up) does. restore
// undoes it.
func DirectGetsBehind(l *Log) (restore func()) {
	s := l.stream
	l.stream = behindStream{Stream: s}
	return func() { l.stream = s }
}

type behindStream struct{ jetstream.Stream }

func (behindStream) GetMsg(context.Context, uint64, ...jetstream.GetMsgOpt) (*jetstream.RawStreamMsg, error) {
	return nil, jetstream.ErrMsgNotFound
}

// FilterLeaderAt makes the stream leader's answer to "the last stream sequence of a filter" seq
// for every filter, as the leader's is while the replica a filtered read's consumer was placed on
// has not stored the filter's last messages yet. restore undoes it.
func FilterLeaderAt(l *Log, seq uint64) (restore func()) {
	l.leaderLastOf = func(context.Context, string) (uint64, error) { return seq, nil }
	return func() { l.leaderLastOf = nil }
}

// FilterLast is filterLast for a test: the last stream sequence the leader holds of filter.
func (l *Log) FilterLast(ctx context.Context, filter string) (uint64, error) {
	return l.filterLast(ctx, filter)
}

// LastCacheHits is how many appends l's cache of hands' last events answered (lastcache.go).
func LastCacheHits(l *Log) int64 { return l.lasts.hits.Load() }
