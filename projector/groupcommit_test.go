package projector

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// countingFollower is a LogSource that counts the messages its Follow delivered.
type countingFollower struct {
	LogSource
	delivered atomic.Uint64 // the last stream sequence delivered
}

func (c *countingFollower) Follow(ctx context.Context, from uint64, fn func(Message, uint64) error) error {
	return c.LogSource.Follow(ctx, from, func(m Message, pending uint64) error {
		err := fn(m, pending)
		c.delivered.Store(m.Seq)
		return err
	})
}

// runUntil runs p until stop is called, and returns stop, which waits for Run to return.
func runUntil(t *testing.T, p *Projector) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	return func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Run did not return after cancel")
		}
	}
}

// TestGroupedCommitsExactlyOnceAcrossAStop: a projector following the log keeps a batch open
// after it caught up (GroupCommit); one stopped with events taken into a batch it has not
// committed (as a crash leaves it) has stored none of them, and the next one projects them
// once: the read models are row for row those of one catch-up of the whole log.
func TestGroupedCommitsExactlyOnceAcrossAStop(t *testing.T) {
	lines := buildCorpus(t, 1)
	l := openLog(t)
	third := len(lines) / 3
	first := publishLines(t, l, lines[:third])
	db := openDB(t)

	// A window far longer than the test: nothing taken while following is committed.
	src := &countingFollower{LogSource: LogSource{Log: l}}
	p := New(db, src)
	p.GroupCommit = time.Hour
	stop := runUntil(t, p)
	waitCheckpoint(t, db, first) // the catch-up commits as before
	second := appendByTable(t, l, lines[third:2*third])
	deadline := time.Now().Add(20 * time.Second)
	for src.delivered.Load() < second {
		if time.Now().After(deadline) {
			t.Fatalf("the follower delivered through %d after 20 s, want %d", src.delivered.Load(), second)
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond) // the last message taken into the batch
	stop()
	cp, err := ReadCheckpoint(context.Background(), db, DefaultName)
	if err != nil {
		t.Fatal(err)
	}
	if cp != first {
		t.Fatalf("stopped with a batch open: checkpoint %d, want %d (the catch-up's): the test lost no batch", cp, first)
	}

	// The next projector commits as soon as it catches up, and follows the rest.
	p2 := New(db, &LogSource{Log: l})
	p2.GroupCommit = -1
	stop = runUntil(t, p2)
	last := appendByTable(t, l, lines[2*third:])
	waitCheckpoint(t, db, last)
	stop()

	want := openDB(t)
	if _, err := New(want, &LogSource{Log: l}).CatchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	if a, b := dump(t, want), dump(t, db); a != b {
		t.Fatalf("followed with grouped commits, stopped and resumed, differs from a catch-up: %s", firstDiff(a, b))
	}
}

// TestGroupCommitWaitsItsWindowOnce: caught up, a following projector commits the batch once the
// window has passed, without another event to push it, and not before.
func TestGroupCommitWaitsItsWindowOnce(t *testing.T) {
	lines := buildCorpus(t, 1)
	l := openLog(t)
	half := len(lines) / 2
	first := publishLines(t, l, lines[:half])
	db := openDB(t)
	p := New(db, &LogSource{Log: l})
	p.GroupCommit = 400 * time.Millisecond
	var commits atomic.Int64
	p.OnCommit = func(Progress) { commits.Add(1) }
	stop := runUntil(t, p)
	defer stop()
	waitCheckpoint(t, db, first)
	before := commits.Load()
	t0 := time.Now()
	last := appendLines(t, l, lines[half:half+1])
	waitCheckpoint(t, db, last)
	took := time.Since(t0)
	if took < 350*time.Millisecond {
		t.Errorf("committed %v after the event, before the 400 ms window", took)
	}
	if n := commits.Load() - before; n != 1 {
		t.Errorf("%d commits for one event, want 1", n)
	}
}
