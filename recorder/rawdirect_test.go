package recorder_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/nats-io/nats-server/v2/server"
)

// rawMessage is one message of a raw read.
type rawMessage struct {
	seq  uint64
	data string
}

// readRaw returns what ReadRaw delivers from stream sequence from on.
func readRaw(t *testing.T, l *recorder.Log, from uint64) []rawMessage {
	t.Helper()
	var got []rawMessage
	if err := l.ReadRaw(ctx(t), from, func(seq uint64, data []byte) error {
		got = append(got, rawMessage{seq, string(data)})
		return nil
	}); err != nil {
		t.Fatalf("ReadRaw from %d: %v", from, err)
	}
	return got
}

// apiRequests is how many JetStream API requests the embedded server has answered: a consumer
// is made and deleted by two of them; a direct get is none.
func apiRequests(t *testing.T, l *recorder.Log) uint64 {
	t.Helper()
	jsz, err := l.Server().Jsz(&server.JSzOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return jsz.API.Total
}

// rawLog is a log of three tables' hands of different lengths, interleaved in the stream, and
// the number of messages it holds.
func rawLog(t *testing.T) (*recorder.Log, uint64) {
	t.Helper()
	l := recordertest.Open(t)
	var hands [][]*events.Event
	for i, antes := range []int{2, 9, 4, 15, 1, 6} {
		hands = append(hands, recordertest.Hand(t, fmt.Sprintf("t%d", i%3+1), i/3+1, antes))
	}
	appendInterleaved(t, l, hands[:3]...)
	appendInterleaved(t, l, hands[3:]...)
	n := 0
	for _, h := range hands {
		n += len(h)
	}
	return l, uint64(n)
}

// ReadRaw of the embedded log reads with batched direct gets without headers, which do not name
// each message's sequence. It must deliver what a consumer delivers, sequence for sequence and
// byte for byte, from every start and however the batches are cut: by their count (pulls of 1,
// 3 and the default) and by their bytes (one message a batch, a few hundred bytes, 4 MB). And
// it must read without a consumer, or it is not the path this test means to check.
func TestReadRawDirectDeliversWhatTheConsumerDelivers(t *testing.T) {
	l, n := rawLog(t)
	restoreDirect := recorder.SetDirectRaw(false, 0)
	want := readRaw(t, l, 0)
	restoreDirect()
	if uint64(len(want)) != n {
		t.Fatalf("the consumer delivered %d messages, want %d", len(want), n)
	}
	for i, m := range want {
		if m.seq != uint64(i+1) {
			t.Fatalf("the consumer delivered stream sequence %d at place %d", m.seq, i+1)
		}
	}
	for _, pulls := range [][3]int{{1, 1, 1 << 30}, {3, 3, 1 << 30}, {1024, 8192, 8 << 20}} {
		for _, size := range []int{1, 700, 4 << 20} {
			t.Run(fmt.Sprintf("pulls of %d, %d bytes", pulls[0], size), func(t *testing.T) {
				defer recorder.SetPulls(pulls[0], pulls[1], pulls[2])()
				defer recorder.SetDirectRaw(true, size)()
				for _, from := range []uint64{0, 1, 2, n / 2, n - 1, n, n + 1} {
					before := apiRequests(t, l)
					got := readRaw(t, l, from)
					if after := apiRequests(t, l); after != before {
						t.Errorf("from %d: %d JetStream API requests, want none (a consumer read)", from, after-before)
					}
					start := max(from, 1) - 1
					if start > n {
						start = n
					}
					if !equalRaw(got, want[start:]) {
						t.Errorf("from %d: %d messages from %v, want %d from %v", from, len(got), first(got), n-start, first(want[start:]))
					}
				}
			})
		}
	}
}

func equalRaw(a, b []rawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func first(ms []rawMessage) string {
	if len(ms) == 0 {
		return "nothing"
	}
	return fmt.Sprintf("stream sequence %d", ms[0].seq)
}

// A direct read ends at the last sequence it is asked for, although the stream holds more (a
// read ends where the log ended when it started), and says where it stopped.
func TestReadRawDirectStopsAtItsLast(t *testing.T) {
	l, n := rawLog(t)
	defer recorder.SetPulls(3, 3, 1<<30)()
	for _, last := range []uint64{1, 5, n - 1} {
		var seqs []uint64
		next, handedOver, err := l.ReadRawDirect(ctx(t), 2, last, func(seq uint64, _ []byte) error {
			seqs = append(seqs, seq)
			return nil
		})
		if err != nil || handedOver {
			t.Fatalf("to %d: %v, handed over %v", last, err, handedOver)
		}
		if next != max(last+1, 2) {
			t.Errorf("to %d: next %d, want %d", last, next, max(last+1, 2))
		}
		for i, s := range seqs {
			if s != uint64(i+2) {
				t.Fatalf("to %d: stream sequence %d at place %d", last, s, i+1)
			}
		}
		if want := int(max(last, 1) - 1); len(seqs) != want {
			t.Errorf("to %d: %d messages, want %d", last, len(seqs), want)
		}
	}
}

// A direct read asked for more than the store holds (the stream leader ahead of the copy read:
// LeaderAhead) delivers what it holds and hands over to the consumer at the first message it
// could not give; fn's error ends it as it ends any read.
func TestReadRawDirectHandsOverWhereTheStoreEnds(t *testing.T) {
	l, n := rawLog(t)
	defer recorder.SetPulls(4, 4, 1<<30)()
	var seqs []uint64
	next, handedOver, err := l.ReadRawDirect(ctx(t), 1, n+3, func(seq uint64, _ []byte) error {
		seqs = append(seqs, seq)
		return nil
	})
	if err != nil || !handedOver || next != n+1 || uint64(len(seqs)) != n {
		t.Errorf("asked through %d of %d: %d delivered, next %d, handed over %v, %v; want %d, %d, true, nil", n+3, n, len(seqs), next, handedOver, err, n, n+1)
	}
	stop := errors.New("enough")
	seqs = seqs[:0]
	next, handedOver, err = l.ReadRawDirect(ctx(t), 1, n, func(seq uint64, _ []byte) error {
		seqs = append(seqs, seq)
		if len(seqs) == 6 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || handedOver || len(seqs) != 6 {
		t.Errorf("fn stopping at the 6th: %d delivered, next %d, handed over %v, %v", len(seqs), next, handedOver, err)
	}
	var raw bytes.Buffer
	if err := l.ReadRaw(ctx(t), 0, func(uint64, []byte) error {
		raw.WriteByte('x')
		if raw.Len() == 4 {
			return recorder.ErrStop
		}
		return nil
	}); err != nil || raw.Len() != 4 {
		t.Errorf("ReadRaw stopped by ErrStop: %v after %d messages, want nil after 4", err, raw.Len())
	}
}

// readHands returns the stream sequences and lines ReadHands delivers, in its order.
func readHands(t *testing.T, l *recorder.Log) []rawMessage {
	t.Helper()
	var got []rawMessage
	if err := l.ReadHands(ctx(t), func(s recorder.Stored) error {
		got = append(got, rawMessage{s.Seq, string(s.Event.Raw)})
		return nil
	}); err != nil {
		t.Fatalf("ReadHands: %v", err)
	}
	return got
}

// ReadHands of the embedded log reads as ReadRaw does, with direct gets that do not give the
// subjects, and groups each event with the hand it names. It must deliver what it delivers
// through a consumer, in the same order, with a grouping buffer that never overflows and with
// one so small that every open hand is delivered early and the rest of it read on its own.
func TestReadHandsDirectDeliversWhatTheConsumerDelivers(t *testing.T) {
	l, n := rawLog(t)
	for _, buffered := range []int{1 << 16, 2, 0} {
		t.Run(fmt.Sprintf("buffer of %d", buffered), func(t *testing.T) {
			defer recorder.SetMaxBuffered(buffered)()
			restoreDirect := recorder.SetDirectRaw(false, 0)
			want := readHands(t, l)
			restoreDirect()
			if uint64(len(want)) != n {
				t.Fatalf("the consumer delivered %d events, want %d", len(want), n)
			}
			for _, size := range []int{700, 4 << 20} {
				defer recorder.SetDirectRaw(true, size)()
				if got := readHands(t, l); !equalRaw(got, want) {
					t.Errorf("batches of %d bytes: %d events from %v, want %d from %v", size, len(got), first(got), len(want), first(want))
				}
			}
		})
	}
}

// An event stored under another hand's subject (published around the recorder, which verify
// reports as log.subject) is grouped with the hand it names, whichever way the log is read, and
// delivered exactly once, also when that hand is delivered early and the rest of it read on its
// own from its subject: the stray event is then delivered where the read meets it, after that.
func TestReadHandsGroupsAnEventWithTheHandItNames(t *testing.T) {
	l := recordertest.Open(t)
	a1 := recordertest.Hand(t, "A", 1, 2)
	a2 := recordertest.Hand(t, "A", 2, 2)
	appendInterleaved(t, l, a1[:2], a2[:3])
	// a1's third event, stored under a2's subject.
	stray := a1[2]
	js := recordertest.JetStream(t, l)
	if _, err := js.Publish(ctx(t), recorder.Subject("A", a2[0].Hand), stray.Raw); err != nil {
		t.Fatal(err)
	}
	// The rest, published as they come: the recorder would refuse a1's next event, its hand's
	// subject ending before it.
	for _, e := range append(append([]*events.Event(nil), a2[3:]...), a1[3:]...) {
		if _, err := js.Publish(ctx(t), recorder.Subject(e.Table, e.Hand), e.Raw); err != nil {
			t.Fatal(err)
		}
	}
	lines := func(evs ...[]*events.Event) string {
		var b []string
		for _, h := range evs {
			for _, e := range h {
				b = append(b, string(e.Raw))
			}
		}
		return strings.Join(b, "\n")
	}
	for _, c := range []struct {
		buffered int
		want     string
	}{
		{1 << 16, lines(a1, a2)},
		// a1 is delivered early, its first two events, once three are buffered; the rest of its
		// subject then (its fourth and fifth); the stray third when the read meets it.
		{2, lines(a1[:2], a1[3:], a2, a1[2:3])},
	} {
		for _, direct := range []bool{true, false} {
			t.Run(fmt.Sprintf("buffer of %d, direct %v", c.buffered, direct), func(t *testing.T) {
				defer recorder.SetMaxBuffered(c.buffered)()
				defer recorder.SetDirectRaw(direct, 4<<20)()
				got := readHands(t, l)
				seen := map[uint64]bool{}
				var b []string
				for _, m := range got {
					if seen[m.seq] {
						t.Errorf("stream sequence %d delivered twice", m.seq)
					}
					seen[m.seq] = true
					b = append(b, m.data)
				}
				if strings.Join(b, "\n") != c.want {
					t.Errorf("delivered:\n%s\nwant:\n%s", strings.Join(b, "\n"), c.want)
				}
			})
		}
	}
}
