package recorder_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/nats-io/nats.go/jetstream"
)

// subjectsOutsideTheLog counts the subjects the server holds in streams other than the log's:
// what the server keeps in memory a subject beside the log's own one a hand (docs/stream.md §4).
func subjectsOutsideTheLog(t *testing.T, l *recorder.Log) uint64 {
	t.Helper()
	var n uint64
	streams := l.JetStream().ListStreams(ctx(t))
	for info := range streams.Info() {
		if info.Config.Name != recorder.StreamName {
			n += info.State.NumSubjects
		}
	}
	if err := streams.Err(); err != nil {
		t.Fatal(err)
	}
	return n
}

// sameHandAt returns the events of a new hand of table whose hand id is hand, sealed.
func sameHandAt(t *testing.T, table, hand string) []*events.Event {
	evs := recordertest.Hand(t, table, 2, 0)
	prev := ""
	for _, e := range evs {
		e.Hand = hand
		events.Seal(e, prev)
		prev = events.Hash(e.Raw)
	}
	return evs
}

// Appending a hand adds one subject to the server, the hand's own in the log, whichever writer
// appends it (the Recorder, pipelined, or Append): nothing outside the stream grows with the
// hands (docs/stream.md §4, "The hand index, removed"). A hand read by its id alone, with no read
// models, comes back from the one table the log holds it at; a hand id stored at two tables is
// reported as ErrAmbiguousHand (stream.md §5).
func TestAppendAddsOneSubjectAHand(t *testing.T) {
	l := recordertest.Open(t)
	a := recordertest.Hand(t, "A", 1, 3)
	b := recordertest.Hand(t, "B", 1, 1)
	r := l.NewRecorder(ctx(t), recorder.RecordOptions{})
	if err := r.AddLines(bytes.NewReader(append(recordertest.Lines(a), recordertest.Lines(b)...)), "in.jsonl"); err != nil {
		t.Fatal(err)
	}
	if st, err := r.Close(); err != nil || st.Appended != int64(len(a)+len(b)) {
		t.Fatalf("%+v %v", st, err)
	}
	c := recordertest.Hand(t, "C", 1, 0)
	for _, e := range c {
		if _, err := l.Append(ctx(t), e); err != nil {
			t.Fatal(err)
		}
	}
	subjects := func() uint64 {
		info, err := l.Stream().Info(ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		return info.State.NumSubjects
	}
	if got := subjects(); got != 3 {
		t.Fatalf("the log holds %d subjects for 3 hands", got)
	}
	if got := subjectsOutsideTheLog(t, l); got != 0 {
		t.Fatalf("the server holds %d subjects outside the log for 3 hands", got)
	}
	for _, h := range [][]*events.Event{a, b, c} {
		got := collect(t, func(fn func(recorder.Stored) error) error { return l.ReadHand(ctx(t), "", h[0].Hand, fn) })
		if !bytes.Equal(got, recordertest.Lines(h)) {
			t.Fatalf("hand %s by id: %s", h[0].Hand, firstDiff(got, recordertest.Lines(h)))
		}
	}

	// Hand a's id at table D through the Recorder, hand c's at table E through Append: two
	// subjects each, and a read by id alone cannot choose.
	r = l.NewRecorder(ctx(t), recorder.RecordOptions{})
	if err := r.AddLines(bytes.NewReader(recordertest.Lines(sameHandAt(t, "D", a[0].Hand))), "d.jsonl"); err != nil {
		t.Fatal(err)
	}
	if st, err := r.Close(); err != nil || st.Appended == 0 {
		t.Fatalf("the same hand id at table D: %+v %v", st, err)
	}
	for _, e := range sameHandAt(t, "E", c[0].Hand) {
		if _, err := l.Append(ctx(t), e); err != nil {
			t.Fatal(err)
		}
	}
	if got := subjects(); got != 5 {
		t.Fatalf("the log holds %d subjects for 5 hands", got)
	}
	for _, hand := range []string{a[0].Hand, c[0].Hand} {
		if err := l.ReadHand(ctx(t), "", hand, func(recorder.Stored) error { return nil }); !errors.Is(err, recorder.ErrAmbiguousHand) {
			t.Fatalf("hand at two tables read by id: %v, want ErrAmbiguousHand", err)
		}
		if _, err := l.HandSubject(ctx(t), hand); !errors.Is(err, recorder.ErrAmbiguousHand) {
			t.Fatalf("the log's lookup of a hand at two tables: %v, want ErrAmbiguousHand", err)
		}
	}
	// With the table named, each of the two is read as it is.
	got := collect(t, func(fn func(recorder.Stored) error) error { return l.ReadHand(ctx(t), "A", a[0].Hand, fn) })
	if !bytes.Equal(got, recordertest.Lines(a)) {
		t.Fatalf("hand a at table A: %s", firstDiff(got, recordertest.Lines(a)))
	}
	ghost := recordertest.Hand(t, "F", 1, 0)[0].Hand
	if err := l.ReadHand(ctx(t), "", ghost, func(recorder.Stored) error { return nil }); !errors.Is(err, recorder.ErrHandNotFound) {
		t.Fatalf("a hand never stored read by id: %v, want ErrHandNotFound", err)
	}
}

// A log recorded while fechado kept the hand index still opens and reads: a process that embeds
// its server and may create streams removes the bucket (which only cost memory) and touches
// nothing of the log; a command that only reads leaves it, and on an external server it is left
// to its operator; reads by id ignore it (docs/stream.md §4).
func TestLegacyHandIndex(t *testing.T) {
	// legacy makes the bucket as the old fechado did, with the keys "<hand>.<table>".
	legacy := func(t *testing.T, js jetstream.JetStream, keys ...string) {
		t.Helper()
		kv, err := js.CreateKeyValue(ctx(t), jetstream.KeyValueConfig{Bucket: recorder.LegacyIndexBucket, History: 1, Storage: jetstream.FileStorage})
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			if _, err := kv.Put(ctx(t), k, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Run("embedded", func(t *testing.T) {
		dir := t.TempDir()
		a, bb := recordertest.Hand(t, "A", 1, 2), recordertest.Hand(t, "B", 1, 0)
		l := recordertest.OpenDir(t, dir)
		for _, h := range [][]*events.Event{a, bb} {
			for _, e := range h {
				if _, err := l.Append(ctx(t), e); err != nil {
					t.Fatal(err)
				}
			}
		}
		ajs, done, err := l.SetupJetStream()
		if err != nil {
			t.Fatal(err)
		}
		legacy(t, ajs, a[0].Hand+".A", bb[0].Hand+".B")
		done()
		before, err := l.LastSeq(ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		l.Close()

		// A command that only reads leaves it.
		l = recordertest.OpenOptions(t, recorder.Options{DataDir: dir, Existing: true})
		if _, err := l.JetStream().KeyValue(ctx(t), recorder.LegacyIndexBucket); err != nil {
			t.Fatalf("the old hand index after a reader opened the log: %v, want it left", err)
		}
		got := collect(t, func(fn func(recorder.Stored) error) error { return l.ReadHand(ctx(t), "", a[0].Hand, fn) })
		if !bytes.Equal(got, recordertest.Lines(a)) {
			t.Fatalf("hand a by id, the old index left: %s", firstDiff(got, recordertest.Lines(a)))
		}
		l.Close()

		l = recordertest.OpenDir(t, dir)
		if _, err := l.JetStream().KeyValue(ctx(t), recorder.LegacyIndexBucket); !errors.Is(err, jetstream.ErrBucketNotFound) {
			t.Fatalf("the old hand index after the log was opened again: %v, want it removed", err)
		}
		if after, err := l.LastSeq(ctx(t)); err != nil || after != before {
			t.Fatalf("the log's last sequence: %d (%v), want %d as before", after, err, before)
		}
		for _, h := range [][]*events.Event{a, bb} {
			got := collect(t, func(fn func(recorder.Stored) error) error { return l.ReadHand(ctx(t), "", h[0].Hand, fn) })
			if !bytes.Equal(got, recordertest.Lines(h)) {
				t.Fatalf("hand %s by id: %s", h[0].Hand, firstDiff(got, recordertest.Lines(h)))
			}
		}
	})
	t.Run("external", func(t *testing.T) {
		s := startServer(t)
		js := connect(t, s, "", "").js
		l, err := recorder.Open(ctx(t), recorder.Options{URLs: []string{s.ClientURL()}})
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		a := recordertest.Hand(t, "A", 1, 1)
		for _, e := range a {
			if _, err := l.Append(ctx(t), e); err != nil {
				t.Fatal(err)
			}
		}
		// The bucket names hand b at table Z, which holds nothing of it: it is read from the
		// table the log holds it at, and appended without a key.
		bb := recordertest.Hand(t, "B", 1, 0)
		legacy(t, js, a[0].Hand+".A", bb[0].Hand+".Z")
		for _, e := range bb {
			if _, err := l.Append(ctx(t), e); err != nil {
				t.Fatal(err)
			}
		}
		kv, err := js.KeyValue(ctx(t), recorder.LegacyIndexBucket)
		if err != nil {
			t.Fatalf("the old hand index on an external server: %v, want it left", err)
		}
		if st, err := kv.Status(ctx(t)); err != nil || st.Values() != 2 {
			t.Fatalf("the old hand index holds %v keys (%v), want the 2 it had", st, err)
		}
		got := collect(t, func(fn func(recorder.Stored) error) error { return l.ReadHand(ctx(t), "", bb[0].Hand, fn) })
		if !bytes.Equal(got, recordertest.Lines(bb)) {
			t.Fatalf("hand b by id: %s", firstDiff(got, recordertest.Lines(bb)))
		}
	})
}
