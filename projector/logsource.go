package projector

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/fechado/fechado/recorder"
)

// LogSource is a Source over the recorder's log, the JetStream stream FECHADO_HANDS. It reads
// the whole stream in order (recorder.Log.ReadRaw) and hands the projector each message's
// payload undecoded, so that a message that is not a valid event goes to quarantine instead of
// stopping the projection.
type LogSource struct {
	Log *recorder.Log
}

// Read implements Source.
func (s *LogSource) Read(ctx context.Context, from uint64, fn func(Message) error) error {
	return s.Log.ReadRaw(ctx, from, func(seq uint64, data []byte) error {
		return fn(Message{Seq: seq, Data: data})
	})
}

// Follow implements Follower: one ordered consumer of the stream from from on, for as long as
// the projector follows the log (recorder.Log.FollowPending).
func (s *LogSource) Follow(ctx context.Context, from uint64, fn func(m Message, pending uint64) error) error {
	return s.Log.FollowPending(ctx, from, func(seq uint64, data []byte, pending uint64) error {
		return fn(Message{Seq: seq, Data: data}, pending)
	})
}

// Wait implements Source. It listens to the stream's subjects and asks the stream for its last
// sequence when something is published (again every few milliseconds for a short while, since
// the notice can come before the store), and at least every WaitRecheck.
func (s *LogSource) Wait(ctx context.Context, after uint64) error {
	wake := make(chan struct{}, 1)
	sub, err := s.Log.Conn().Subscribe(recorder.StreamSubjects, func(*nats.Msg) {
		select {
		case wake <- struct{}{}:
		default:
		}
	})
	if err != nil {
		return fmt.Errorf("projector: waiting for the log: %w", err)
	}
	defer sub.Unsubscribe()
	recheck := time.NewTicker(WaitRecheck)
	defer recheck.Stop()
	var soon <-chan time.Time // set while a publish was seen and not yet stored
	var tries int
	for {
		last, err := s.Log.LastSeq(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("projector: %w", err)
		}
		if last > after {
			return nil
		}
		if soon != nil {
			if tries++; tries < 20 {
				soon = time.After(5 * time.Millisecond)
			} else {
				soon = nil // a publish the stream refused
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-wake:
			soon, tries = time.After(0), 0
		case <-soon:
		case <-recheck.C:
		}
	}
}

// WaitRecheck is the longest LogSource.Wait goes without asking the stream for its last sequence.
const WaitRecheck = time.Second
