package recorder_test

import (
	"testing"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/cputime"
	"github.com/fechado/fechado/recorder/recordertest"
)

// BenchmarkAppendDecoded appends small hands one event at a time with Log.Append, each event
// decoded once from its line first, as the console appends what a table device posts: the cost
// of one append, a round trip to the store included. It reports events/s and the CPU time of the
// process (recorder and embedded server) per event.
//
//	go test ./recorder -run '^$' -bench AppendDecoded
func BenchmarkAppendDecoded(b *testing.B) {
	const hands = 200 // 1,200 events per iteration
	l := recordertest.Open(b)
	var took, cpu time.Duration
	n := 0
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		var lines [][]byte
		for h := range hands {
			for _, e := range recordertest.Hand(b, "bench", i*hands+h+1, 3) {
				lines = append(lines, e.Raw)
			}
		}
		b.StartTimer()
		start, c := time.Now(), cputime.Process()
		for _, line := range lines {
			e, err := events.Parse(line)
			if err != nil {
				b.Fatal(err)
			}
			if a, err := l.Append(b.Context(), e); err != nil || a.Skipped {
				b.Fatalf("%v %+v", err, a)
			}
		}
		took += time.Since(start)
		cpu += cputime.Process() - c
		n += len(lines)
	}
	b.ReportMetric(float64(n)/took.Seconds(), "events/s")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/event")
}
