package recorder_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
)

// damagedLog records hands of one table into a log of its own, one after another, stops it,
// flips one byte of the stored line of event evIdx of hand handIdx in the stream's block file, and
// opens the log again. It returns the log, the damaged message's stream sequence and its hand.
func damagedLog(t *testing.T, hands, handIdx, evIdx int) (*recorder.Log, uint64, string) {
	t.Helper()
	dir := t.TempDir()
	l, err := recorder.Open(ctx(t), recorder.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var target []byte
	var seq uint64
	var hand string
	n := uint64(0)
	for h := range hands {
		evs := recordertest.Hand(t, "t1", h+1, 4)
		for i, e := range evs {
			if _, err := l.Append(ctx(t), e); err != nil {
				t.Fatal(err)
			}
			n++
			if h == handIdx && i == evIdx {
				target, seq, hand = e.Raw, n, e.Hand
			}
		}
	}
	l.Close()
	blocks, _ := filepath.Glob(filepath.Join(dir, "jetstream", "*", "streams", recorder.StreamName, "msgs", "*.blk"))
	flipped := false
	for _, b := range blocks {
		data, err := os.ReadFile(b)
		if err != nil {
			t.Fatal(err)
		}
		if i := bytes.Index(data, target); i >= 0 {
			data[i+len(target)/2] ^= 0x20
			if err := os.WriteFile(b, data, 0o600); err != nil {
				t.Fatal(err)
			}
			flipped = true
		}
	}
	if !flipped {
		t.Fatal("the event's line is in no block file")
	}
	return recordertest.OpenOptions(t, recorder.Options{DataDir: dir, Timeout: time.Second}), seq, hand
}

// A byte flipped in a stored message, in the middle of the log or in its very last message:
// every read of the log stops with a DamagedError naming the message's stream sequence and its
// hand, within a bounded wait (the last message used to be waited on for ever, and one in the
// middle skipped), and Verify reports it as stream.damaged, not as a deletion. The reads and the
// Verify of a log, and the two logs, go side by side: a read of the last message waits out
// Options.Timeout before it asks the leader, and one after the other they waited 12 seconds.
func TestDamagedMessageIsReported(t *testing.T) {
	t.Parallel() // waits on timeouts, on a log of its own
	const hands = 6
	for _, tc := range []struct {
		name           string
		handIdx, evIdx int
	}{
		{"middle", 2, 3},
		{"last", hands - 1, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l, seq, hand := damagedLog(t, hands, tc.handIdx, tc.evIdx)
			reads := map[string]func() error{
				"ReadAll":   func() error { return l.ReadAll(ctx(t), 0, func(recorder.Stored) error { return nil }) },
				"ReadHands": func() error { return l.ReadHands(ctx(t), func(recorder.Stored) error { return nil }) },
				"ReadTable": func() error { return l.ReadTable(ctx(t), "t1", func(recorder.Stored) error { return nil }) },
				"ReadRaw":   func() error { return l.ReadRaw(ctx(t), 0, func(uint64, []byte) error { return nil }) },
			}
			var wg sync.WaitGroup
			for name, read := range reads {
				wg.Go(func() {
					start := time.Now()
					err := read()
					var d *recorder.DamagedError
					if !errors.As(err, &d) || !errors.Is(err, recorder.ErrDamaged) {
						t.Errorf("%s: %v, want a DamagedError", name, err)
						return
					}
					if d.Seq != seq || d.Hand != hand || d.Table != "t1" {
						t.Errorf("%s: damaged message %d of hand %s at %s, want %d of %s at t1", name, d.Seq, d.Hand, d.Table, seq, hand)
					}
					if !strings.Contains(err.Error(), "stream message") || !strings.Contains(err.Error(), hand) {
						t.Errorf("%s: the error does not name the sequence and the hand: %v", name, err)
					}
					if took := time.Since(start); took > 20*time.Second {
						t.Errorf("%s: took %s", name, took)
					}
				})
			}
			wg.Go(func() {
				r, err := l.Verify(ctx(t))
				if err != nil {
					t.Errorf("verify: %v", err)
					return
				}
				var damaged, deleted int
				for _, p := range r.Problems {
					switch p.Code {
					case "stream.damaged":
						damaged++
						if p.Seq != seq {
							t.Errorf("verify: stream.damaged at %d, want %d", p.Seq, seq)
						}
					case "stream.deleted":
						deleted++
					}
				}
				if damaged != 1 || deleted != 0 {
					t.Errorf("verify: %d stream.damaged and %d stream.deleted problems, want 1 and 0: %+v", damaged, deleted, r.Problems)
				}
			})
			wg.Wait()
		})
	}
}

// A read whose consumer was placed on a replica that has not stored the last messages the stream
// leader names yet (a moment behind, or catching up after a restart, as during a node loss:
// docs/deployment.md §4) waits for them: the consumer's "nothing pending" is its replica's, and
// the read used to end there and call the first message it had not been given damaged.
func TestReadWaitsForWhatTheLeaderHoldsAhead(t *testing.T) {
	readDuringLeaderAhead(t, "messages", false, func(l *recorder.Log, got func(seq uint64)) error {
		return l.ReadRaw(ctx(t), 0, func(seq uint64, _ []byte) error { got(seq); return nil })
	})
}

// A filtered read's consumer may sit on a replica behind the stream leader, and its "nothing
// pending" was taken for the end of the read: a table's replay or audit during a node loss saw
// fewer events than the leader holds. ReadTable waits for the last the leader holds of its filter.
func TestReadTableWaitsForWhatTheLeaderHoldsOfItsFilter(t *testing.T) {
	readDuringLeaderAhead(t, "events of table t1", true, func(l *recorder.Log, got func(seq uint64)) error {
		return l.ReadTable(ctx(t), "t1", func(s recorder.Stored) error { got(s.Seq); return nil })
	})
}

// readDuringLeaderAhead stores a hand of table t1, makes the leader name k messages more than
// the reader's replica holds (and, filtered, the filter's last as the leader has it), and reads
// with read: when the read reaches the first hand's last message, the replica stores a second
// hand of k events. The read must return every one of the n+k, in order.
func readDuringLeaderAhead(t *testing.T, what string, filtered bool, read func(l *recorder.Log, got func(seq uint64)) error) {
	t.Helper()
	l := recordertest.Open(t)
	first, second := recordertest.Hand(t, "t1", 1, 4), recordertest.Hand(t, "t1", 2, 3)
	appendAll := appender(t, l)
	if err := appendAll(first); err != nil {
		t.Fatal(err)
	}
	n, k := uint64(len(first)), uint64(len(second))
	defer recorder.LeaderAhead(l, k)()
	if filtered {
		defer recorder.FilterLeaderAt(l, n+k)()
	}

	var seqs []uint64
	stored := make(chan error, 1)
	err := read(l, func(seq uint64) {
		seqs = append(seqs, seq)
		if seq == n {
			// The replica stores the leader's last messages now.
			go func() { stored <- appendAll(second) }()
		}
	})
	if err != nil {
		t.Fatalf("reading %s: %v, want the %d the leader holds", what, err, n+k)
	}
	if err := <-stored; err != nil {
		t.Fatal(err)
	}
	readOneToN(t, what, seqs, n+k)
}

// The leader's last of a filter, which ends a filtered read, is the filter's own: a table's
// wildcard (fechado.hand.<table>.*) as well as one hand's subject, and 0 for one it holds none of.
func TestFilterLastIsTheLeadersLastOfTheFilter(t *testing.T) {
	l := recordertest.Open(t)
	last := map[string]uint64{}
	for _, h := range [][]*events.Event{recordertest.Hand(t, "t1", 1, 4), recordertest.Hand(t, "t2", 2, 3), recordertest.Hand(t, "t1", 3, 2)} {
		for _, e := range h {
			r, err := l.Append(ctx(t), e)
			if err != nil {
				t.Fatal(err)
			}
			last[recorder.SubjectPrefix+e.Table+".*"] = r.Seq
			last[recorder.Subject(e.Table, e.Hand)] = r.Seq
		}
	}
	last[recorder.SubjectPrefix+"t9.*"] = 0
	for filter, want := range last {
		got, err := l.FilterLast(ctx(t), filter)
		if err != nil {
			t.Fatalf("FilterLast(%s): %v", filter, err)
		}
		if got != want {
			t.Errorf("FilterLast(%s) = %d, want %d", filter, got, want)
		}
	}
}

// A filtered read whose consumer never delivers what the leader holds of its filter fails with
// an error naming both sequences, rather than end short or wait for ever.
func TestReadTableFailsWhenTheLeaderHoldsMoreThanComes(t *testing.T) {
	t.Parallel() // waits on timeouts, on a log of its own
	l := recordertest.OpenOptions(t, recorder.Options{DataDir: t.TempDir(), Timeout: time.Second})
	evs := recordertest.Hand(t, "t1", 1, 4)
	for _, e := range evs {
		if _, err := l.Append(ctx(t), e); err != nil {
			t.Fatal(err)
		}
	}
	n := uint64(len(evs))
	defer recorder.LeaderAhead(l, 2)()
	defer recorder.FilterLeaderAt(l, n+2)()
	start := time.Now()
	read := 0
	err := l.ReadTable(ctx(t), "t1", func(recorder.Stored) error { read++; return nil })
	if err == nil {
		t.Fatalf("ReadTable ended without error after %d events; the leader holds %d", read, n+2)
	}
	for _, want := range []string{fmt.Sprint(n + 2), fmt.Sprint(n)} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name sequence %s", err, want)
		}
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("ReadTable failed after %v, want within a few Options.Timeout", d)
	}
}

// Whether the store can give a message is asked of the stream leader: a direct get may be
// answered by a replica that has not stored the message yet (a restarted node catching up), and
// its "not found" taken for damage stopped every serve node reading through it.
func TestReadableAsksTheLeaderNotAReplicaBehind(t *testing.T) {
	l := recordertest.Open(t)
	evs := recordertest.Hand(t, "t1", 1, 4)
	for _, e := range evs {
		if _, err := l.Append(ctx(t), e); err != nil {
			t.Fatal(err)
		}
	}
	defer recorder.DirectGetsBehind(l)()
	for _, tc := range []struct {
		seq  uint64
		want bool
	}{
		{1, true},
		{uint64(len(evs)), true},
		{uint64(len(evs)) + 1, false}, // not stored: the leader says so too
	} {
		ok, err := l.Readable(ctx(t), tc.seq)
		if err != nil || ok != tc.want {
			t.Errorf("Readable(%d) = %v, %v; want %v", tc.seq, ok, err, tc.want)
		}
	}
}

// appender returns a function that appends events to l one by one, for a test's goroutine.
func appender(t *testing.T, l *recorder.Log) func([]*events.Event) error {
	return func(evs []*events.Event) error {
		for _, e := range evs {
			if _, err := l.Append(ctx(t), e); err != nil {
				return err
			}
		}
		return nil
	}
}

// readOneToN fails t unless a read gave the stream sequences 1 to n, in order.
func readOneToN(t *testing.T, what string, seqs []uint64, n uint64) {
	t.Helper()
	if uint64(len(seqs)) != n {
		t.Fatalf("read %d %s, want %d", len(seqs), what, n)
	}
	for i, s := range seqs {
		if s != uint64(i+1) {
			t.Fatalf("item %d of the read (%s) has stream sequence %d, want %d", i, what, s, i+1)
		}
	}
}
