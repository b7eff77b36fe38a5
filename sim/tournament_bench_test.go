package sim

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/audittest"
)

// auditTournamentLog audits log as `fechado audit` does and returns the hands audited; with
// sample, it also returns the highest live heap (collected every 256 hands) over base.
func auditTournamentLog(tb testing.TB, log []byte, sample bool, base uint64) (hands int, peak uint64) {
	a := audit.New(func(finding.Finding) {})
	var ms runtime.MemStats
	measure := func() {
		runtime.GC()
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapAlloc-min(ms.HeapAlloc, base))
	}
	if sample {
		// A Hand callback makes the auditor keep each hand's result: only while sampling.
		a.Hand = func(h *audit.HandResult) {
			if hands++; hands%256 == 0 {
				measure()
			}
		}
	}
	audittest.Run(tb, a, log, "tournament")
	if sample {
		measure()
	}
	hands = a.Hands
	if tr := a.Tournaments().Get(DefaultTournament); tr == nil || !tr.Finished() {
		tb.Fatal("the tournament did not finish")
	}
	return hands, peak
}

// A tournament of 1,000 entries (125 tables of br-fechado) audited as a whole: hands a second,
// B/op, and the peak live heap of the audit (the log itself, held in memory, set apart). The
// levels last 10 and 40 minutes: about three times as many hands with the same players and
// tables.
func BenchmarkAuditTournament(b *testing.B) {
	for _, level := range []time.Duration{10 * time.Minute, 40 * time.Minute} {
		b.Run(fmt.Sprintf("entries=1000/level=%v", level), func(b *testing.B) {
			log, _ := playTournament(b, TournamentConfig{Rules: "br-fechado", Entries: 1000, Tables: 125, Seed: 1, Level: level})
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			_, peak := auditTournamentLog(b, log, true, ms.HeapAlloc)
			b.SetBytes(int64(len(log)))
			b.ReportAllocs()
			b.ResetTimer()
			n := 0
			for range b.N {
				n, _ = auditTournamentLog(b, log, false, 0)
			}
			b.StopTimer()
			b.ReportMetric(float64(n), "hands")
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "hands/s")
			b.ReportMetric(float64(peak)/(1<<20), "peak-live-MiB")
		})
	}
}
