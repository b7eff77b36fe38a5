package recorder_test

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
)

// appendOne appends one event as POST /api/events does: a Recorder of its own, one hand at a
// time.
func appendOne(t *testing.T, l *recorder.Log, e *events.Event) (recorder.Stats, []*recorder.HandError) {
	t.Helper()
	var rejected []*recorder.HandError
	r := l.NewRecorder(context.Background(), recorder.RecordOptions{Window: 1, OnReject: func(he *recorder.HandError) {
		rejected = append(rejected, he)
	}})
	c := *e
	if err := r.Add(&c, "body", 1); err != nil {
		t.Fatal(err)
	}
	st, err := r.Close()
	if err != nil {
		t.Fatal(err)
	}
	return st, rejected
}

// A hand appended one event at a time, as a live table does, follows the event this log appended
// last without reading it back: every event after the first is answered by the cache (Append and
// the Recorder alike), and the log holds the hand byte for byte.
func TestAppendOneAtATimeFollowsItsOwnLast(t *testing.T) {
	l := recordertest.Open(t)
	for _, way := range []string{"Append", "Recorder"} {
		evs := recordertest.Hand(t, "t-last-"+way, 1, 6)
		before := recorder.LastCacheHits(l)
		for _, e := range evs {
			if way == "Append" {
				c := *e
				if _, err := l.Append(context.Background(), &c); err != nil {
					t.Fatalf("%s: seq %d: %v", way, e.Seq, err)
				}
			} else if st, rej := appendOne(t, l, e); st.Appended != 1 || len(rej) > 0 {
				t.Fatalf("%s: seq %d: %+v %v", way, e.Seq, st, rej)
			}
		}
		if hits := recorder.LastCacheHits(l) - before; hits != int64(len(evs)-1) {
			t.Errorf("%s: the cache answered %d appends of %d events, want %d", way, hits, len(evs), len(evs)-1)
		}
		var got [][]byte
		if err := l.ReadHand(context.Background(), evs[0].Table, evs[0].Hand, func(s recorder.Stored) error {
			got = append(got, s.Event.Raw)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(evs) {
			t.Fatalf("%s: the log holds %d events of the hand, want %d", way, len(got), len(evs))
		}
		for i := range got {
			if !bytes.Equal(got[i], evs[i].Raw) {
				t.Errorf("%s: seq %d stored as %s, want %s", way, i+1, got[i], evs[i].Raw)
			}
		}
	}
}

// When another writer appended to the hand since this log's last append, the remembered last
// event is no longer the hand's last: the server refuses the append that expects it, and the
// append ends as it would have without the cache: a different event at the same seq is a
// sequence conflict, the very event stored is skipped.
func TestStaleLastIsRefusedByTheServer(t *testing.T) {
	l := recordertest.Open(t)
	evs := recordertest.Hand(t, "t-stale", 1, 6)
	for _, e := range evs[:3] {
		if st, rej := appendOne(t, l, e); st.Appended != 1 || len(rej) > 0 {
			t.Fatalf("seq %d: %+v %v", e.Seq, st, rej)
		}
	}
	// Another writer's seq 4: the same place, another id and time.
	other := *evs[3]
	other.Raw, other.HasPrev, other.Prev = nil, false, ""
	other.ID = uuid.Must(uuid.NewV7()).String()
	other.At = time.Date(2026, 11, 1, 21, 0, 0, 0, time.UTC).Format("2006-01-02T15:04:05.000Z07:00")
	events.Seal(&other, events.Hash(evs[2].Raw))
	js := recordertest.JetStream(t, l)
	m := nats.NewMsg(recorder.Subject(other.Table, other.Hand))
	m.Data = other.Raw
	m.Header.Set(jetstream.MsgIDHeader, other.ID)
	if _, err := js.PublishMsg(context.Background(), m); err != nil {
		t.Fatal(err)
	}

	before := recorder.LastCacheHits(l)
	st, rej := appendOne(t, l, evs[3])
	if recorder.LastCacheHits(l) != before+1 {
		t.Fatal("the append did not use the remembered last event: the test checks nothing")
	}
	if st.Appended != 0 || len(rej) != 1 || !errors.Is(rej[0], recorder.ErrSequenceConflict) {
		t.Fatalf("our seq 4 over another writer's: %+v %v, want a sequence conflict", st, rej)
	}
	c := other
	ack, err := l.Append(context.Background(), &c)
	if err != nil || !ack.Skipped {
		t.Fatalf("the other writer's seq 4 again: %+v %v, want skipped", ack, err)
	}
}
