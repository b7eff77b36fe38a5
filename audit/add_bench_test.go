package audit

import (
	"os"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/eventfiles"
)

// benchEvents decodes the first max lines of FECHADO_BENCH_FILE, or else a log of the table
// vectors repeated with fresh ids, so that the auditor can be timed without the decoder.
func benchEvents(b *testing.B, max int) []*events.Event {
	path := os.Getenv("FECHADO_BENCH_FILE")
	if path == "" {
		path, _ = benchLog(b, b.TempDir(), 25)
	}
	return eventfiles.Read(b, path, max)
}

// BenchmarkAuditorAdd feeds already decoded events to a fresh Auditor per op (about 2,000 hands
// of FECHADO_BENCH_FILE, or 600 of the vectors): the chain, the bookkeeping of open hands, the
// replay through the rules and the continuity of tables, without the decoder. It reports the
// cost per hand.
func BenchmarkAuditorAdd(b *testing.B) {
	evs := benchEvents(b, 50000)
	n := 0
	first, hands := -1, 0
	b.ReportAllocs()
	for b.Loop() {
		a := New(func(finding.Finding) { n++ })
		for _, e := range evs {
			a.Add(e)
		}
		a.Close()
		if first < 0 {
			first = a.Findings
		} else if a.Findings != first {
			b.Fatalf("%d findings, then %d", first, a.Findings)
		}
		hands = a.Hands
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*hands), "ns/hand")
}
