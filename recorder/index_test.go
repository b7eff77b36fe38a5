package recorder_test

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/nats-io/nats.go/jetstream"
)

// indexed returns the tables the hand index holds for hand, sorted, joined by commas.
func indexed(t *testing.T, js jetstream.JetStream, hand string) string {
	t.Helper()
	kv, err := js.KeyValue(ctx(t), recorder.IndexBucket)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := kv.ListKeysFiltered(ctx(t), hand+".*")
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for k := range keys.Keys() {
		tables = append(tables, strings.TrimPrefix(k, hand+"."))
	}
	slices.Sort(tables)
	return strings.Join(tables, ",")
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

// Every writer names a hand's table in the index before the hand's first event is stored: the
// Recorder (pipelined) and Append. A hand read by its id alone comes back from the table the
// index names; a hand id recorded at a second table gets a second key, and the read by id alone
// still reports ErrAmbiguousHand (docs/stream.md §5).
func TestHandIndex(t *testing.T) {
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
	for _, h := range [][]*events.Event{a, b, c} {
		if got := indexed(t, l.JetStream(), h[0].Hand); got != h[0].Table {
			t.Fatalf("index of hand %s: %q, want %q", h[0].Hand, got, h[0].Table)
		}
		got := collect(t, func(fn func(recorder.Stored) error) error { return l.ReadHand(ctx(t), "", h[0].Hand, fn) })
		if !bytes.Equal(got, recordertest.Lines(h)) {
			t.Fatalf("hand %s by id: %s", h[0].Hand, firstDiff(got, recordertest.Lines(h)))
		}
	}

	// Recording the same input again stores nothing and leaves the index as it was.
	r = l.NewRecorder(ctx(t), recorder.RecordOptions{})
	if err := r.AddLines(bytes.NewReader(recordertest.Lines(a)), "in.jsonl"); err != nil {
		t.Fatal(err)
	}
	if st, err := r.Close(); err != nil || st.Skipped != int64(len(a)) || st.Appended != 0 {
		t.Fatalf("again: %+v %v", st, err)
	}
	if got := indexed(t, l.JetStream(), a[0].Hand); got != "A" {
		t.Fatalf("index after recording again: %q", got)
	}

	// Hand a's id at table D, once through the Recorder and once (hand c's id) through Append.
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
	for hand, want := range map[string]string{a[0].Hand: "A,D", c[0].Hand: "C,E"} {
		if got := indexed(t, l.JetStream(), hand); got != want {
			t.Fatalf("index of a hand id at two tables: %q, want %q", got, want)
		}
		if err := l.ReadHand(ctx(t), "", hand, func(recorder.Stored) error { return nil }); !errors.Is(err, recorder.ErrAmbiguousHand) {
			t.Fatalf("hand at two tables read by id: %v, want ErrAmbiguousHand", err)
		}
	}
	// The read by id alone trusts the index: a writer that bypasses it (publishing hand b's id at
	// table Z itself) is not seen by it, and the hand at the table the index names is read (the
	// gap docs/stream.md §4 describes; the log itself would report the hand as ambiguous).
	for _, e := range sameHandAt(t, "Z", b[0].Hand) {
		if _, err := l.JetStream().Publish(ctx(t), recorder.Subject(e.Table, e.Hand), e.Raw, jetstream.WithMsgID(e.ID)); err != nil {
			t.Fatal(err)
		}
	}
	got := collect(t, func(fn func(recorder.Stored) error) error { return l.ReadHand(ctx(t), "", b[0].Hand, fn) })
	if !bytes.Equal(got, recordertest.Lines(b)) {
		t.Fatalf("hand b by id, with a copy at table Z outside the index: %s", firstDiff(got, recordertest.Lines(b)))
	}
	if _, err := l.HandSubject(ctx(t), b[0].Hand); !errors.Is(err, recorder.ErrAmbiguousHand) {
		t.Fatalf("the log's own lookup of hand b: %v, want ErrAmbiguousHand", err)
	}
	// An entry whose table holds nothing (a writer stopped between the entry and the event) is
	// not trusted: the read asks the log.
	ghost := recordertest.Hand(t, "F", 1, 0)[0].Hand
	kv, err := l.JetStream().KeyValue(ctx(t), recorder.IndexBucket)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kv.Create(ctx(t), ghost+".F", nil); err != nil {
		t.Fatal(err)
	}
	if err := l.ReadHand(ctx(t), "", ghost, func(recorder.Stored) error { return nil }); !errors.Is(err, recorder.ErrHandNotFound) {
		t.Fatalf("a hand indexed but not stored: %v, want ErrHandNotFound", err)
	}
}

// A log recorded before the index existed gets the index, filled with every hand it holds,
// when it is next opened; a hand id it already held at two tables has both.
func TestHandIndexFilledFromTheLog(t *testing.T) {
	s := startServer(t)
	js := connect(t, s, "", "").js
	if _, err := js.CreateStream(ctx(t), recorder.StreamConfig(1)); err != nil {
		t.Fatal(err)
	}
	a := recordertest.Hand(t, "A", 1, 2)
	b := recordertest.Hand(t, "B", 1, 0)
	twice := sameHandAt(t, "C", a[0].Hand)
	for _, h := range [][]*events.Event{a, b, twice} {
		for _, e := range h {
			if _, err := js.Publish(ctx(t), recorder.Subject(e.Table, e.Hand), e.Raw, jetstream.WithMsgID(e.ID)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := js.KeyValue(ctx(t), recorder.IndexBucket); !errors.Is(err, jetstream.ErrBucketNotFound) {
		t.Fatalf("index before the log was opened: %v", err)
	}
	l, err := recorder.Open(ctx(t), recorder.Options{URLs: []string{s.ClientURL()}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if got := indexed(t, js, b[0].Hand); got != "B" {
		t.Fatalf("index of hand b: %q", got)
	}
	if got := indexed(t, js, a[0].Hand); got != "A,C" {
		t.Fatalf("index of the hand at two tables: %q", got)
	}
	got := collect(t, func(fn func(recorder.Stored) error) error { return l.ReadHand(ctx(t), "", b[0].Hand, fn) })
	if !bytes.Equal(got, recordertest.Lines(b)) {
		t.Fatalf("hand b by id: %s", firstDiff(got, recordertest.Lines(b)))
	}
	if err := l.ReadHand(ctx(t), "", a[0].Hand, func(recorder.Stored) error { return nil }); !errors.Is(err, recorder.ErrAmbiguousHand) {
		t.Fatalf("hand at two tables read by id: %v, want ErrAmbiguousHand", err)
	}
}
