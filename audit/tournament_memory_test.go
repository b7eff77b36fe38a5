package audit_test

import (
	"bytes"
	"runtime"
	"testing"
	"time"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/sim"
)

// The audit of a tournament keeps one record per player and per table, and of each hand only
// its hand.started and hand.ended, which the one order of a tournament's hands needs once every
// hand has been read (tournament.Follow at Close): with levels four times as long, a tournament
// of 200 entries plays about three times as many hands, and once the chain's windows are full
// (set small here, as in TestAuditMemoryFlat) the audit's live heap grows by no more than
// perHand bytes a hand more.
func TestAuditTournamentMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("plays two tournaments of 200 entries")
	}
	var peaks [2]uint64
	var counts [2]int
	for i, level := range []time.Duration{10 * time.Minute, 40 * time.Minute} {
		var log bytes.Buffer
		if err := sim.RunTournament(sim.TournamentConfig{Rules: "br-fechado", Entries: 200, Tables: 25, Seed: 4, Level: level}, &log); err != nil {
			t.Fatal(err)
		}
		a := audit.New(func(finding.Finding) {})
		audit.SetWindows(a, 256, 4096)
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		base := ms.HeapInuse
		a.Hand = func(*audit.HandResult) {
			if counts[i]++; counts[i]%128 == 0 {
				runtime.GC() // the live heap, whatever the collector's pace
				runtime.ReadMemStats(&ms)
				peaks[i] = max(peaks[i], ms.HeapInuse-min(ms.HeapInuse, base))
			}
		}
		if _, err := audit.AuditReader(a, events.NewReader(bytes.NewReader(log.Bytes()), "tournament")); err != nil {
			t.Fatal(err)
		}
		a.Close()
		if tr := a.Tournaments().Get(sim.DefaultTournament); tr == nil || !tr.Finished() {
			t.Fatal("the tournament did not finish")
		}
	}
	t.Logf("%d hands: peak heap %d KiB over the log; %d hands: %d KiB", counts[0], peaks[0]>>10, counts[1], peaks[1]>>10)
	if counts[1] < 2*counts[0] {
		t.Fatalf("the longer levels played %d hands, the shorter %d: not enough to compare", counts[1], counts[0])
	}
	const perHand = 2 << 10
	if grown := uint64(counts[1]-counts[0]) * perHand; peaks[1] > peaks[0]+grown+1<<20 {
		t.Errorf("the heap grew from %d KiB to %d KiB with %d hands instead of %d: more than %d bytes a hand", peaks[0]>>10, peaks[1]>>10, counts[1], counts[0], perHand)
	}
}
