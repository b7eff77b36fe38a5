package recorder_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The big log of BenchmarkReadHandMillion: millionHands tiny hands (hand.started and
// hand.ended), hand i at table i%millionTables, so that the tables' hands interleave in the
// stream as at a busy site.
const (
	millionHands  = 1_000_000
	millionTables = 1_000
	// millionLayout names the cached store; change it when the layout above changes.
	millionLayout = "readhand-1m-v1"
)

// millionHand returns the id and table of hand i of the big log.
func millionHand(i int) (hand, table string) {
	return fmt.Sprintf("00000000-0000-7000-8000-%012d", i), fmt.Sprintf("bench-%04d", i%millionTables)
}

// millionEvents returns hand i of the big log, sealed: hand.started then hand.ended.
func millionEvents(i int) [2]*events.Event {
	hand, table := millionHand(i)
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second)
	data := [2]events.Data{
		&events.HandStarted{
			Rules:  events.Rules{Name: "br-fechado"},
			Number: i/millionTables + 1, Dealer: 1,
			Seats:  []events.SeatStack{{Seat: 1, Player: "ana", Stack: 1000}, {Seat: 2, Player: "bruno", Stack: 1000}},
			Stakes: events.Stakes{Ante: 5, MinBet: 10, MaxBet: 100},
		},
		&events.HandEnded{Stacks: []events.SeatChips{{Seat: 1, Stack: 1000}, {Seat: 2, Stack: 1000}}},
	}
	var evs [2]*events.Event
	prev := ""
	for k, d := range data {
		e := &events.Event{
			ID: fmt.Sprintf("00000000-0000-7000-9000-%012d", 2*i+k), Table: table, Hand: hand,
			Seq: events.Seq(k + 1), At: at.Add(time.Duration(k) * time.Millisecond).Format("2006-01-02T15:04:05.000Z07:00"),
			Type: d.EventType(), Data: d,
		}
		events.Seal(e, prev)
		prev = events.Hash(e.Raw)
		evs[k] = e
	}
	return evs
}

// millionDir returns the folder of the cached big log: under $FECHADO_BENCH_CACHE when set
// (make bench sets it), else under the system's temporary folder, so that it is filled once and
// reused by later runs.
func millionDir() string {
	base := os.Getenv("FECHADO_BENCH_CACHE")
	if base == "" {
		base = filepath.Join(os.TempDir(), "fechado-bench")
	}
	return filepath.Join(base, millionLayout)
}

// openMillion opens the cached big log, filling it first when it is missing or incomplete.
// The fill publishes the sealed events with plain asynchronous publishes carrying their
// Nats-Msg-Id: the stored bytes and subjects are what `fechado record` stores, at a fraction
// of the time its per-hand checks would take for two million events; reads do not depend on how
// the events were appended.
func openMillion(b *testing.B) *recorder.Log {
	b.Helper()
	dir := millionDir()
	done := filepath.Join(dir, "filled")
	// The marker holds what the store was filled for: a store of another stream configuration
	// or subject layout is filled again.
	cfg, err := json.Marshal(recorder.StreamConfig(recorder.DefaultReplicas))
	if err != nil {
		b.Fatal(err)
	}
	mark := fmt.Sprintf("%s %d %s %x\n", millionLayout, millionHands, recorder.Subject("t", "h"), sha256.Sum256(cfg))
	if got, err := os.ReadFile(done); err == nil && string(got) == mark {
		return recordertest.OpenDir(b, filepath.Join(dir, "store"))
	}
	if err := os.RemoveAll(dir); err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	l, err := recorder.Open(context.Background(), recorder.Options{DataDir: filepath.Join(dir, "store"), Timeout: time.Minute})
	if err != nil {
		b.Fatal(err)
	}
	js, err := jetstream.New(l.Conn(), jetstream.WithPublishAsyncMaxPending(4096))
	if err != nil {
		l.Close()
		b.Fatal(err)
	}
	for i := range millionHands {
		for _, e := range millionEvents(i) {
			m := &nats.Msg{Subject: recorder.Subject(e.Table, e.Hand), Data: e.Raw, Header: nats.Header{jetstream.MsgIDHeader: []string{e.ID}}}
			if _, err := js.PublishMsgAsync(m, jetstream.WithStallWait(time.Minute)); err != nil {
				l.Close()
				b.Fatalf("filling the big log, hand %d: %v", i, err)
			}
		}
	}
	select {
	case <-js.PublishAsyncComplete():
	case <-time.After(5 * time.Minute):
		l.Close()
		b.Fatal("filling the big log: publishes not acknowledged")
	}
	info, err := l.Stream().Info(context.Background())
	l.Close()
	if err != nil {
		b.Fatal(err)
	}
	if info.State.Msgs != 2*millionHands {
		b.Fatalf("the big log holds %d events, not %d", info.State.Msgs, 2*millionHands)
	}
	if err := os.WriteFile(done, []byte(mark), 0o644); err != nil {
		b.Fatal(err)
	}
	b.Logf("filled %s with %d hands in %v", dir, millionHands, time.Since(start).Round(time.Second))
	return recordertest.OpenDir(b, filepath.Join(dir, "store"))
}

// BenchmarkReadHandMillion reads one hand back by id out of a log of one million hands (two
// million events, 1,000 tables), by its exact subject (table known) and by hand id alone (table
// looked up first), as BenchmarkReadHand does on 20,000 hands: the two compare how a read grows
// with the log. The log is filled once and cached (see millionDir); the first run spends
// about a minute filling it, outside the timing.
//
//	go test ./recorder -run '^$' -bench ReadHandMillion
func BenchmarkReadHandMillion(b *testing.B) {
	l := openMillion(b)
	for _, mode := range []string{"table", "lookup"} {
		b.Run(mode, func(b *testing.B) {
			i := 0
			for b.Loop() {
				hand, table := millionHand((i * 7919) % millionHands) // spread over the log
				i++
				if mode == "lookup" {
					table = ""
				}
				n := 0
				if err := l.ReadHand(b.Context(), table, hand, func(recorder.Stored) error { n++; return nil }); err != nil || n != 2 {
					b.Fatal(hand, err, n)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "hands/s")
		})
	}
}
