// Package recordertest starts disposable hand logs for the tests of other packages: an embedded
// server with JetStream storing in the test's temporary folder, shut down when the test ends.
package recordertest

import (
	"context"
	"testing"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/roles"
	"github.com/google/uuid"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Open starts an embedded log in a fresh tb.TempDir() and closes it when the test ends.
func Open(tb testing.TB) *recorder.Log {
	tb.Helper()
	return OpenDir(tb, tb.TempDir())
}

// OpenDir starts an embedded log on dir (to reopen a log a test stopped) and closes it when the
// test ends.
func OpenDir(tb testing.TB, dir string) *recorder.Log {
	tb.Helper()
	return OpenOptions(tb, recorder.Options{DataDir: dir})
}

// OpenAuth starts an embedded log in a fresh tb.TempDir() whose server lets in the users of a,
// each held to its role's permissions (recorder.ServerUsers), and closes it when the test ends.
func OpenAuth(tb testing.TB, a *roles.Auth) *recorder.Log {
	tb.Helper()
	return OpenOptions(tb, recorder.Options{DataDir: tb.TempDir(), Auth: recorder.ServerUsers(a)})
}

// OpenOptions starts a log with o and closes it when the test ends.
func OpenOptions(tb testing.TB, o recorder.Options) *recorder.Log {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	l, err := recorder.Open(ctx, o)
	if err != nil {
		tb.Fatalf("recordertest: %v", err)
	}
	tb.Cleanup(l.Close)
	return l
}

// JetStream connects another NATS client, with opts, to the embedded server of l (the test's
// own, outside the recorder's code) and returns its JetStream; the connection closes when the
// test ends.
func JetStream(tb testing.TB, l *recorder.Log, opts ...nats.Option) jetstream.JetStream {
	tb.Helper()
	nc, err := nats.Connect("", append([]nats.Option{nats.InProcessServer(l.Server())}, opts...)...)
	if err != nil {
		tb.Fatalf("recordertest: %v", err)
	}
	tb.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		tb.Fatalf("recordertest: %v", err)
	}
	return js
}

// Hand returns a small valid hand of table, sealed with events.Seal (prev filled): hand.started
// with two seats, a physical deck.shuffled, antes ante.posted and hand.ended; ids are UUIDv7.
// number is the hand's number at the table; it also spaces the events' times.
func Hand(tb testing.TB, table string, number, antes int) []*events.Event {
	tb.Helper()
	id := func() string {
		u, err := uuid.NewV7()
		if err != nil {
			tb.Fatal(err)
		}
		return u.String()
	}
	hand := id()
	start := time.Date(2026, 11, 1, 20, 0, 0, 0, time.UTC).Add(time.Duration(number) * time.Minute)
	stacks := []events.SeatChips{{Seat: 1, Stack: 1000}, {Seat: 2, Stack: 1000}}
	data := []events.Data{&events.HandStarted{
		Rules:  events.Rules{Name: "br-fechado"},
		Number: number, Dealer: 1,
		Seats:  []events.SeatStack{{Seat: 1, Player: "ana", Stack: 1000}, {Seat: 2, Player: "bruno", Stack: 1000}},
		Stakes: events.Stakes{Ante: 5, MinBet: 10, MaxBet: 100},
	}, &events.DeckShuffled{Method: "physical"}}
	for i := range antes {
		data = append(data, &events.AntePosted{Seat: events.Seat(1 + i%2), Amount: 5})
	}
	data = append(data, &events.HandEnded{Stacks: stacks})
	evs := make([]*events.Event, len(data))
	prev := ""
	for i, d := range data {
		e := &events.Event{
			ID: id(), Table: table, Hand: hand, Seq: events.Seq(i + 1),
			At:   start.Add(time.Duration(i) * time.Second).Format("2006-01-02T15:04:05.000Z07:00"),
			Type: d.EventType(), Data: d,
		}
		events.Seal(e, prev)
		prev = events.Hash(e.Raw)
		evs[i] = e
	}
	return evs
}

// Lines returns events as JSON Lines.
func Lines(evs []*events.Event) []byte {
	var b []byte
	for _, e := range evs {
		b = append(b, e.Raw...)
		b = append(b, '\n')
	}
	return b
}
