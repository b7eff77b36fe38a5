package projector

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/fechado/fechado/events"
)

// Message is one event of the stream as a Source delivers it.
type Message struct {
	// Seq is the stream sequence: positive and increasing along the stream (gaps are allowed).
	Seq uint64
	// Data is the stored line of the event, without newline.
	Data []byte
	// Event is Data decoded, when the source has decoded it already; nil means the projector
	// decodes Data itself (and quarantines what does not decode).
	Event *events.Event
}

// Source is the stream the projector reads: the whole log of every table, in stream order.
// A projector reads all of it and never asks for a subset of subjects (a sub-wildcard filter is
// ten times slower on JetStream, research/eventsourcing.md §1.7).
type Source interface {
	// Read calls fn for each message with sequence >= from, in order, up to the last message the
	// stream held when Read was called, then returns nil (a caught-up read). An error from fn
	// stops the read and is returned as it is.
	Read(ctx context.Context, from uint64, fn func(Message) error) error
	// Wait blocks until the stream holds a message with a sequence greater than after, and
	// returns nil; or returns ctx.Err() when ctx is done first.
	Wait(ctx context.Context, after uint64) error
}

// Follower is a Source that can deliver the stream as it grows, without a Read and a Wait for
// every few messages: Projector.Run follows a live log with it once caught up.
type Follower interface {
	Source
	// Follow calls fn for each message with sequence >= from, in order, waiting for new ones,
	// until ctx is done (it returns ctx's error then) or fn returns an error (returned as it is).
	// pending is how many messages the source holds after m as far as it knows: 0 when the
	// follower has caught up with the stream for now.
	Follow(ctx context.Context, from uint64, fn func(m Message, pending uint64) error) error
}

// DefaultPollInterval is how often a FileSource looks for new lines in Wait.
const DefaultPollInterval = 100 * time.Millisecond

// FileSource is a Source over a JSON Lines file of events: the stream sequence of an event is
// its line number (blank lines are skipped, so they leave gaps). Lines appended to the file
// while it is followed are delivered by the next Read; Wait polls the file's size.
type FileSource struct {
	Path string
	// PollInterval is the period of Wait's polling; 0 means DefaultPollInterval.
	PollInterval time.Duration
}

// Read implements Source. A last line without its newline is treated as not yet written and is
// left for a later Read.
func (s *FileSource) Read(ctx context.Context, from uint64, fn func(Message) error) error {
	f, err := os.Open(s.Path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<16)
	var seq uint64
	for {
		if seq%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		line, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A line longer than the buffer: gather it.
			long := append([]byte(nil), line...)
			for err == bufio.ErrBufferFull {
				line, err = r.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err == io.EOF {
			return nil // an unterminated last line is still being written
		}
		if err != nil {
			return fmt.Errorf("%s: %w", s.Path, err)
		}
		seq++
		if seq < from {
			continue
		}
		line = line[:len(line)-1]
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if err := fn(Message{Seq: seq, Data: bytes.Clone(line)}); err != nil {
			return err
		}
	}
}

// Wait implements Source: it polls until the file has a complete line past line after.
func (s *FileSource) Wait(ctx context.Context, after uint64) error {
	every := s.PollInterval
	if every <= 0 {
		every = DefaultPollInterval
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		n, err := s.lines()
		if err != nil {
			return err
		}
		if n > after {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// lines returns the number of the last complete line that is not blank (0 if none).
func (s *FileSource) lines() (uint64, error) {
	f, err := os.Open(s.Path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<16)
	var n, last uint64
	blank := true
	for {
		b, err := r.ReadByte()
		if err == io.EOF {
			return last, nil
		}
		if err != nil {
			return last, err
		}
		switch b {
		case '\n':
			n++
			if !blank {
				last = n
			}
			blank = true
		case ' ', '\t', '\r':
		default:
			blank = false
		}
	}
}
