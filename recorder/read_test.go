package recorder_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
)

// appendInterleaved appends the hands event by event, round robin, so that their events
// interleave in the stream.
func appendInterleaved(t *testing.T, l *recorder.Log, hands ...[]*events.Event) {
	t.Helper()
	for i := 0; ; i++ {
		done := true
		for _, h := range hands {
			if i < len(h) {
				done = false
				if _, err := l.Append(ctx(t), h[i]); err != nil {
					t.Fatal(err)
				}
			}
		}
		if done {
			return
		}
	}
}

func collect(t testing.TB, read func(func(recorder.Stored) error) error) []byte {
	t.Helper()
	var b bytes.Buffer
	last := uint64(0)
	err := read(func(s recorder.Stored) error {
		if s.Seq == 0 || s.Seq == last {
			t.Errorf("stream sequence %d after %d", s.Seq, last)
		}
		last = s.Seq
		b.Write(s.Event.Raw)
		b.WriteByte('\n')
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func cat(hands ...[]*events.Event) []byte {
	var b []byte
	for _, h := range hands {
		b = append(b, recordertest.Lines(h)...)
	}
	return b
}

func TestReads(t *testing.T) {
	l := recordertest.Open(t)
	a1 := recordertest.Hand(t, "A", 1, 3)
	b1 := recordertest.Hand(t, "B", 1, 1)
	a2 := recordertest.Hand(t, "A", 2, 0)
	a3 := recordertest.Hand(t, "A", 3, 2)[:3] // still open
	appendInterleaved(t, l, a1, b1, a2)
	appendInterleaved(t, l, a3)

	t.Run("hand", func(t *testing.T) {
		for _, table := range []string{"A", ""} {
			got := collect(t, func(fn func(recorder.Stored) error) error { return l.ReadHand(ctx(t), table, a1[0].Hand, fn) })
			if !bytes.Equal(got, recordertest.Lines(a1)) {
				t.Errorf("table %q: %s", table, firstDiff(got, recordertest.Lines(a1)))
			}
		}
		// A hand id no hand has: b1's with its last digit changed (to 0, or to 1 when it is 0).
		missing := b1[0].Hand[:35] + map[bool]string{true: "1", false: "0"}[b1[0].Hand[35] == '0']
		for _, table := range []string{"A", "B", ""} {
			err := l.ReadHand(ctx(t), table, missing, func(recorder.Stored) error { return nil })
			if !errors.Is(err, recorder.ErrHandNotFound) {
				t.Errorf("table %q: %v, want ErrHandNotFound", table, err)
			}
		}
		if err := l.ReadHand(ctx(t), "A", b1[0].Hand, func(recorder.Stored) error { return nil }); !errors.Is(err, recorder.ErrHandNotFound) {
			t.Errorf("hand at the wrong table: %v", err)
		}
		n := 0
		err := l.ReadHand(ctx(t), "", a1[0].Hand, func(recorder.Stored) error { n++; return recorder.ErrStop })
		if err != nil || n != 1 {
			t.Errorf("stop: %v after %d", err, n)
		}
	})
	t.Run("table", func(t *testing.T) {
		got := collect(t, func(fn func(recorder.Stored) error) error { return l.ReadTable(ctx(t), "A", fn) })
		if want := cat(a1, a2, a3); !bytes.Equal(got, want) {
			t.Errorf("%s", firstDiff(got, want))
		}
		if got := collect(t, func(fn func(recorder.Stored) error) error { return l.ReadTable(ctx(t), "C", fn) }); len(got) != 0 {
			t.Errorf("empty table: %s", got)
		}
	})
	t.Run("hands", func(t *testing.T) {
		want := cat(a1, b1, a2, a3)
		got := collect(t, func(fn func(recorder.Stored) error) error { return l.ReadHands(ctx(t), fn) })
		if !bytes.Equal(got, want) {
			t.Errorf("%s", firstDiff(got, want))
		}
		// With a tiny grouping buffer the oldest open hand is delivered early and read on its own.
		defer recorder.SetMaxBuffered(2)()
		got = collect(t, func(fn func(recorder.Stored) error) error { return l.ReadHands(ctx(t), fn) })
		if !bytes.Equal(got, want) {
			t.Errorf("small buffer: %s", firstDiff(got, want))
		}
	})
	t.Run("all", func(t *testing.T) {
		var seqs []uint64
		err := l.ReadAll(ctx(t), 0, func(s recorder.Stored) error { seqs = append(seqs, s.Seq); return nil })
		total := uint64(len(a1) + len(b1) + len(a2) + len(a3))
		if err != nil || uint64(len(seqs)) != total || seqs[0] != 1 || seqs[len(seqs)-1] != total {
			t.Fatalf("%v: %v", err, seqs)
		}
		seqs = nil
		err = l.ReadAll(ctx(t), total-1, func(s recorder.Stored) error { seqs = append(seqs, s.Seq); return nil })
		if err != nil || len(seqs) != 2 || seqs[0] != total-1 {
			t.Fatalf("from %d: %v %v", total-1, err, seqs)
		}
		if err := l.ReadAll(ctx(t), total+1, func(recorder.Stored) error { t.Error("read past the end"); return nil }); err != nil {
			t.Fatal(err)
		}
	})
}

func TestReadAmbiguousHand(t *testing.T) {
	l := recordertest.Open(t)
	a := recordertest.Hand(t, "A", 1, 0)
	b := recordertest.Hand(t, "B", 1, 0)
	prev := ""
	for _, e := range b { // the same hand id at another table, with its own event ids
		e.Hand = a[0].Hand
		events.Seal(e, prev)
		prev = events.Hash(e.Raw)
	}
	appendInterleaved(t, l, a, b)
	if err := l.ReadHand(ctx(t), "", a[0].Hand, func(recorder.Stored) error { return nil }); !errors.Is(err, recorder.ErrAmbiguousHand) {
		t.Fatalf("%v, want ErrAmbiguousHand", err)
	}
	got := collect(t, func(fn func(recorder.Stored) error) error { return l.ReadHand(ctx(t), "B", a[0].Hand, fn) })
	if !bytes.Equal(got, recordertest.Lines(b)) {
		t.Fatalf("%s", firstDiff(got, recordertest.Lines(b)))
	}
}

// Follow delivers events stored after it started.
func TestFollow(t *testing.T) {
	l := recordertest.Open(t)
	h := recordertest.Hand(t, "A", 1, 2)
	if _, err := l.Append(ctx(t), h[0]); err != nil {
		t.Fatal(err)
	}
	got := make(chan recorder.Stored, len(h))
	c, cancel := context.WithCancel(ctx(t))
	done := make(chan error, 1)
	go func() { done <- l.Follow(c, 0, func(s recorder.Stored) error { got <- s; return nil }) }()
	for _, e := range h[1:] {
		if _, err := l.Append(ctx(t), e); err != nil {
			t.Fatal(err)
		}
	}
	for i, e := range h {
		select {
		case s := <-got:
			if s.Seq != uint64(i+1) || !bytes.Equal(s.Event.Raw, e.Raw) {
				t.Fatalf("event %d: seq %d %s", i, s.Seq, s.Event.Raw)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("event %d not delivered", i)
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Follow ended with %v", err)
	}
}

// A log closed and reopened on the same data folder serves every event; a second process on a
// folder in use is refused.
func TestReopen(t *testing.T) {
	dir := t.TempDir()
	l, err := recorder.Open(ctx(t), recorder.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var want []byte
	// These three share no hand and no event id (others do: see TestVectorsReuseIDs).
	for _, f := range []string{"table-br-fechado.jsonl", "table-std-draw.jsonl", "table-tr-kapali.jsonl"} {
		f = filepath.Join(filepath.Dir(vectors(t)[0]), f)
		in := readFile(t, f)
		if _, rej := record(t, l, f, in); len(rej) > 0 {
			t.Fatal(rej)
		}
		want = append(want, in...)
	}
	if _, err := recorder.Open(ctx(t), recorder.Options{DataDir: dir}); !errors.Is(err, recorder.ErrDataDirInUse) {
		t.Fatalf("second open: %v, want ErrDataDirInUse", err)
	}
	l.Close()
	l = recordertest.OpenDir(t, dir)
	if got := exportHands(t, l); !bytes.Equal(got, want) {
		t.Fatalf("after reopening: %s", firstDiff(got, want))
	}
	if st, rej := record(t, l, "again", want); len(rej) > 0 || st.Skipped != int64(lines(want)) {
		t.Fatalf("recording again after reopening: %+v %v", st, rej)
	}
}

// A hand id reused by another producer's hand (other event ids, other content) is refused as a
// conflict, never stored over the first. The example logs no longer reuse ids (re-issued
// 2026-12-01), so the second hand is the tie with the wrong odd chip given the first one's hand id,
// its prev left for the recorder to fill.
func TestReusedHandIDRefused(t *testing.T) {
	dir := filepath.Dir(vectors(t)[0])
	l := recordertest.Open(t)
	first := readFile(t, filepath.Join(dir, "hand-split-odd-chip-br-fechado.jsonl"))
	if _, rej := record(t, l, "split", first); len(rej) > 0 {
		t.Fatal(rej)
	}
	bad := readFile(t, filepath.Join(dir, "bad-odd-chip-br-fechado.jsonl"))
	hand := regexp.MustCompile(`"hand":"[^"]*"`)
	bad = hand.ReplaceAll(bad, hand.Find(first))
	bad = regexp.MustCompile(`"prev":"[0-9a-f]*",`).ReplaceAll(bad, nil)
	st, rej := record(t, l, "bad", bad)
	if len(rej) != 1 || !errors.Is(rej[0], recorder.ErrSequenceConflict) || st.Appended != 0 {
		t.Fatalf("%+v %v", st, rej)
	}
	if got := exportHands(t, l); !bytes.Equal(got, first) {
		t.Fatal("the refused file changed the log")
	}
}

// TestPullSize proves how many messages a read asks for at a time (pullSize): as before for a
// read of a hand, more for a read of thousands, fewer again where the log's events are long, so
// that a pull holds about the same bytes.
func TestPullSize(t *testing.T) {
	for _, c := range []struct {
		pending, mean uint64
		want          int
	}{
		{0, 400, 1024},                         // nothing to read
		{30, 400, 1024},                        // a hand
		{8192, 400, 1024},                      // up to the bulk threshold, as before
		{8193, 400, 8192},                      // a table: 8 MB would be 20,971 events, at most 8,192
		{929305, 480, 8192},                    // a room
		{929305, 0, 1024},                      // a mean not known: as before, the events may be long
		{929305, 4096, 2048},                   // long events: 8 MB of them
		{929305, 1 << 20, 1024},                // events of 1 MB: never fewer than before
		{math.MaxUint64, math.MaxUint64, 1024}, // a mean no pull could hold
	} {
		if got := recorder.PullSize(c.pending, c.mean); got != c.want {
			t.Errorf("%d pending of %d bytes each: %d a pull, want %d", c.pending, c.mean, got, c.want)
		}
	}
}

// TestReadsInManyPullsDeliverEveryEvent proves that reads that ask for their messages in many
// pulls (here 2 or 4 messages at a time, where pullSize asks for 1,024 or 8,192) deliver every
// event, in order, by hand, by table and by stream sequence.
func TestReadsInManyPullsDeliverEveryEvent(t *testing.T) {
	defer recorder.SetPulls(2, 4, 1<<30)()
	l := recordertest.Open(t)
	a1 := recordertest.Hand(t, "A", 1, 20)
	b1 := recordertest.Hand(t, "B", 1, 15)
	a2 := recordertest.Hand(t, "A", 2, 9)
	appendInterleaved(t, l, a1, b1)
	appendInterleaved(t, l, a2)
	if got, want := collect(t, func(fn func(recorder.Stored) error) error { return l.ReadHands(ctx(t), fn) }), cat(a1, b1, a2); !bytes.Equal(got, want) {
		t.Errorf("hands: %s", firstDiff(got, want))
	}
	if got, want := collect(t, func(fn func(recorder.Stored) error) error { return l.ReadTable(ctx(t), "A", fn) }), cat(a1, a2); !bytes.Equal(got, want) {
		t.Errorf("table: %s", firstDiff(got, want))
	}
	var seqs []uint64
	if err := l.ReadAll(ctx(t), 0, func(s recorder.Stored) error { seqs = append(seqs, s.Seq); return nil }); err != nil {
		t.Fatal(err)
	}
	for i, s := range seqs {
		if s != uint64(i+1) {
			t.Fatalf("all: stream sequence %d at place %d", s, i+1)
		}
	}
	if total := len(a1) + len(b1) + len(a2); len(seqs) != total {
		t.Errorf("all: %d events, want %d", len(seqs), total)
	}
}

// TestMeanSizeIsTheStreamsNow proves that a bulk read sizes its pulls by the stream as it is when
// the read starts, not as it was when the log opened: a log opened empty (serve's) knows no mean,
// then the mean of what was appended since, the figure the stream's info gives, whether read
// from the embedded server's state or asked of the stream.
func TestMeanSizeIsTheStreamsNow(t *testing.T) {
	l := recordertest.Open(t)
	if got := l.MeanSize(ctx(t)); got != 0 {
		t.Fatalf("an empty log's mean: %d bytes, want 0 (not known)", got)
	}
	appendInterleaved(t, l, recordertest.Hand(t, "A", 1, 20), recordertest.Hand(t, "B", 1, 15))
	got := l.MeanSize(ctx(t)) // before the info request below, which would refresh the log's copy
	info, err := l.Stream().Info(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	want := info.State.Bytes / info.State.Msgs
	if got == 0 || got != want {
		t.Errorf("after %d appends the mean is %d bytes, want the stream's %d", info.State.Msgs, got, want)
	}
	// Asked of the stream, as for a log on a cluster: the same figure.
	defer recorder.LeaderAhead(l, 0)()
	if asked := l.MeanSize(ctx(t)); asked != want {
		t.Errorf("asked of the stream, the mean is %d bytes, want %d", asked, want)
	}
}
