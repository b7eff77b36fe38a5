package recorder_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/cputime"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/nats-io/nats.go/jetstream"
)

// batch is one benchmark iteration's input: fresh hands as JSON Lines, and the same events.
type batch struct {
	lines []byte
	evs   []*events.Event
}

func newBatch(b *testing.B, hands, tables int) batch {
	var bt batch
	for i := range hands {
		h := recordertest.Hand(b, fmt.Sprintf("bench-%d", i%tables), i+1, 3) // 6 events
		bt.evs = append(bt.evs, h...)
	}
	bt.lines = recordertest.Lines(bt.evs)
	return bt
}

// BenchmarkAppend records batches of small hands with every guarantee on (decoding and envelope
// checks, prev chain, Nats-Msg-Id, expected last subject sequence, one event in flight per hand,
// DefaultWindow hands at once) and, for comparison, publishes the same payloads to the same
// subjects of another embedded log with plain PublishAsync (no headers, no checks). It reports
// the recorder's rate as events/s, the plain rate as plain-events/s, and their ratio.
//
//	go test ./recorder -run '^$' -bench Append -benchtime 20x
func BenchmarkAppend(b *testing.B) {
	const hands, tables = 2000, 50 // 12,000 events per iteration
	rec, plain := recordertest.Open(b), recordertest.Open(b)
	js, err := jetstream.New(plain.Conn(), jetstream.WithPublishAsyncMaxPending(4096))
	if err != nil {
		b.Fatal(err)
	}
	var recTime, plainTime, recCPU time.Duration
	var n int
	for b.Loop() {
		b.StopTimer()
		bt := newBatch(b, hands, tables)
		b.StartTimer()

		start, cpu := time.Now(), cputime.Process()
		r := rec.NewRecorder(b.Context(), recorder.RecordOptions{})
		if err := r.AddLines(bytes.NewReader(bt.lines), "bench"); err != nil {
			b.Fatal(err)
		}
		st, err := r.Close()
		if err != nil || st.Appended != int64(len(bt.evs)) {
			b.Fatalf("%v %+v", err, st)
		}
		recTime += time.Since(start)
		recCPU += cputime.Process() - cpu

		start = time.Now()
		for _, e := range bt.evs {
			if _, err := js.PublishAsync(recorder.Subject(e.Table, e.Hand), e.Raw, jetstream.WithStallWait(time.Minute)); err != nil {
				b.Fatal(err)
			}
		}
		select {
		case <-js.PublishAsyncComplete():
		case <-time.After(time.Minute):
			b.Fatal("plain publishes not acknowledged")
		}
		plainTime += time.Since(start)
		n += len(bt.evs)
	}
	recRate, plainRate := float64(n)/recTime.Seconds(), float64(n)/plainTime.Seconds()
	b.ReportMetric(recRate, "events/s")
	b.ReportMetric(plainRate, "plain-events/s")
	b.ReportMetric(recRate/plainRate, "ratio")
	b.ReportMetric(float64(recCPU.Nanoseconds())/float64(n), "cpu-ns/event")
}

// BenchmarkRead reads a log of small hands, recorded with the default window (so that hands
// interleave in the stream), in stream order (ReadAll), grouped by hand (ReadHands, what
// export --all and audit --all do) and raw (ReadRaw, what project reads to catch up), both with
// batched direct gets (hands, raw) and with a consumer (hands-consumer, raw-consumer, as they
// read before and read on a cluster); it
// reports events/s and the process's CPU an event (cpu-ns/event: the client's and the embedded
// server's, on every core).
//
//	go test ./recorder -run '^$' -bench Read
func BenchmarkRead(b *testing.B) {
	l := recordertest.Open(b)
	bt := newBatch(b, 5000, 20)
	r := l.NewRecorder(b.Context(), recorder.RecordOptions{})
	if err := r.AddLines(bytes.NewReader(bt.lines), "bench"); err != nil {
		b.Fatal(err)
	}
	if _, err := r.Close(); err != nil {
		b.Fatal(err)
	}
	for _, mode := range []string{"all", "hands", "hands-consumer", "raw", "raw-consumer"} {
		b.Run(mode, func(b *testing.B) {
			if strings.HasSuffix(mode, "-consumer") {
				defer recorder.SetDirectRaw(false, 0)()
			}
			n := 0
			cpu0 := cputime.Process()
			for b.Loop() {
				fn := func(recorder.Stored) error { n++; return nil }
				raw := func(uint64, []byte) error { n++; return nil }
				var err error
				switch mode {
				case "all":
					err = l.ReadAll(b.Context(), 0, fn)
				case "hands", "hands-consumer":
					err = l.ReadHands(b.Context(), fn)
				default:
					err = l.ReadRaw(b.Context(), 0, raw)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "events/s")
			b.ReportMetric(float64(cputime.Process()-cpu0)/float64(n), "cpu-ns/event")
		})
	}
}
