package recorder_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The logs of BenchmarkReadHandLogSize hold tiny hands (hand.started and hand.ended), hand i at
// table i%sizeTables, so that the tables' hands interleave in the stream as at a busy site.
const (
	sizeTables = 1_000
	// sizeLayout names the cached store; change it when the layout above changes.
	sizeLayout = "readhand-v4" // v4: no hand index bucket beside the log
)

// sizeHand returns the id and table of hand i.
func sizeHand(i int) (hand, table string) {
	return fmt.Sprintf("00000000-0000-7000-8000-%012d", i), fmt.Sprintf("bench-%04d", i%sizeTables)
}

// sizeEvents returns hand i, sealed: hand.started then hand.ended.
func sizeEvents(i int) [2]*events.Event {
	hand, table := sizeHand(i)
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second)
	data := [2]events.Data{
		&events.HandStarted{
			Rules:  events.Rules{Name: "br-fechado"},
			Number: i/sizeTables + 1, Dealer: 1,
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

// fillLog stores hands [0, hands) in a new log on dir with plain asynchronous publishes
// carrying each event's Nats-Msg-Id: the stored bytes and subjects are what `fechado record`
// stores, at a fraction of the time its
// per-hand checks take for millions of events; reads do not depend on how the events were
// appended.
func fillLog(b *testing.B, dir string, hands int) {
	b.Helper()
	l, err := recorder.Open(context.Background(), recorder.Options{DataDir: dir, Timeout: time.Minute})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	js, err := jetstream.New(l.Conn(), jetstream.WithPublishAsyncMaxPending(4096))
	if err != nil {
		b.Fatal(err)
	}
	for i := range hands {
		for _, e := range sizeEvents(i) {
			m := &nats.Msg{Subject: recorder.Subject(e.Table, e.Hand), Data: e.Raw, Header: nats.Header{jetstream.MsgIDHeader: []string{e.ID}}}
			if _, err := js.PublishMsgAsync(m, jetstream.WithStallWait(time.Minute)); err != nil {
				b.Fatalf("filling the log, hand %d: %v", i, err)
			}
		}
	}
	select {
	case <-js.PublishAsyncComplete():
	case <-time.After(5 * time.Minute):
		b.Fatal("filling the log: publishes not acknowledged")
	}
	info, err := l.Stream().Info(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	if info.State.Msgs != uint64(2*hands) {
		b.Fatalf("the log holds %d events, not %d", info.State.Msgs, 2*hands)
	}
}

// cachedLog opens a log of hands kept across runs, under $FECHADO_BENCH_CACHE when set (make
// bench sets it) or else under the system's temporary folder, filling it first when it is
// missing, incomplete, or was filled for another stream configuration or subject layout.
func cachedLog(b *testing.B, hands int) *recorder.Log {
	b.Helper()
	base := os.Getenv("FECHADO_BENCH_CACHE")
	if base == "" {
		base = filepath.Join(os.TempDir(), "fechado-bench")
	}
	dir := filepath.Join(base, fmt.Sprintf("%s-%d", sizeLayout, hands))
	cfg, err := json.Marshal(recorder.StreamConfig(recorder.DefaultReplicas))
	if err != nil {
		b.Fatal(err)
	}
	mark := fmt.Sprintf("%s %d %s %x\n", sizeLayout, hands, recorder.Subject("t", "h"), sha256.Sum256(cfg))
	done := filepath.Join(dir, "filled")
	if got, err := os.ReadFile(done); err != nil || string(got) != mark {
		if err := os.RemoveAll(dir); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		fillLog(b, filepath.Join(dir, "store"), hands)
		if err := os.WriteFile(done, []byte(mark), 0o644); err != nil {
			b.Fatal(err)
		}
		b.Logf("filled %s with %d hands in %v", dir, hands, time.Since(start).Round(time.Second))
	}
	return recordertest.OpenDir(b, filepath.Join(dir, "store"))
}

// readHandSizes are the log sizes BenchmarkReadHandLogSize reads from: $FECHADO_READ_HANDS, a
// comma-separated list of hand counts (make bench gives 10000,1000000), else 10,000 and 100,000.
func readHandSizes(b *testing.B) []int {
	v := os.Getenv("FECHADO_READ_HANDS")
	if v == "" {
		return []int{10_000, 100_000}
	}
	var sizes []int
	for f := range strings.SplitSeq(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			b.Fatalf("FECHADO_READ_HANDS: %q is not a number of hands", f)
		}
		sizes = append(sizes, n)
	}
	return sizes
}

// readSample is how many random hands one iteration of BenchmarkReadHandLogSize reads: the
// percentiles it reports are over at least that many reads.
const readSample = 1000

// BenchmarkReadHandLogSize reads hands back by id, chosen at random over the whole log, out of
// logs of different sizes (readHandSizes) at 1,000 tables, by the hand's exact subject (table
// known, as from the read models) and by hand id alone (lookup: the table looked up in the log's
// per-subject index, HandSubject, a walk over every table's node), so that the sizes show
// whether a read grows with the log. One iteration reads readSample random hands; it reports the mean, the
// median and the 99th percentile of one read (ms/read, p50-ms, p99-ms) over every read of the
// run. A log over 100,000 hands is filled once and cached (see cachedLog); filling it is
// outside the timing.
//
//	go test ./recorder -run '^$' -bench ReadHandLogSize
//	FECHADO_READ_HANDS=10000,1000000 go test ./recorder -run '^$' -bench ReadHandLogSize
func BenchmarkReadHandLogSize(b *testing.B) {
	for _, hands := range readHandSizes(b) {
		b.Run(fmt.Sprintf("hands=%d", hands), func(b *testing.B) {
			var l *recorder.Log
			if hands > 100_000 {
				l = cachedLog(b, hands)
			} else {
				dir := b.TempDir()
				fillLog(b, dir, hands)
				l = recordertest.OpenDir(b, dir)
			}
			for _, mode := range []string{"table", "lookup"} {
				b.Run(mode, func(b *testing.B) {
					rng := rand.New(rand.NewPCG(uint64(hands), 7))
					var took []time.Duration
					for b.Loop() {
						for range readSample {
							hand, table := sizeHand(rng.IntN(hands))
							n := 0
							start := time.Now()
							if mode == "lookup" {
								table = ""
							}
							if err := l.ReadHand(b.Context(), table, hand, func(recorder.Stored) error { n++; return nil }); err != nil || n != 2 {
								b.Fatal(hand, err, n)
							}
							took = append(took, time.Since(start))
						}
					}
					slices.Sort(took)
					b.ReportMetric(float64(len(took))/b.Elapsed().Seconds(), "hands/s")
					b.ReportMetric(ms(b.Elapsed())/float64(len(took)), "ms/read")
					b.ReportMetric(ms(took[len(took)/2]), "p50-ms")
					b.ReportMetric(ms(took[(len(took)*99+99)/100-1]), "p99-ms")
				})
			}
		})
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
