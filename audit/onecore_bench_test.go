package audit_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"testing"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/eventfiles"
	"github.com/fechado/fechado/internal/logfile"
	"github.com/fechado/fechado/sim"
)

// simulatedLog writes std-draw tables of four players (10,000 hands each, fewer when a player
// wins every chip) to one file in dir until it holds at least hands hands, as `fechado sim
// --rules std-draw --players 4 --hands 10000 --seed K --table bench-K` would, K = 1, 2, …, and
// returns the file and its numbers of hands and events.
func simulatedLog(tb testing.TB, dir string, hands int) (path string, n, evs int) {
	tb.Helper()
	path = filepath.Join(dir, "simulated.jsonl")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for k := 1; n < hands; k++ {
		s, err := sim.New(sim.Config{Rules: "std-draw", Players: 4, Hands: 10000, Seed: uint64(k), Table: fmt.Sprintf("bench-%d", k)})
		if err != nil {
			tb.Fatal(err)
		}
		for n < hands {
			h, err := s.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				tb.Fatal(err)
			}
			if err := sim.WriteHand(w, h); err != nil {
				tb.Fatal(err)
			}
			n++
			evs += len(h.Events)
		}
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return path, n, evs
}

// peakRSS returns the peak resident set size of the process since the last resetPeakRSS, in
// bytes (VmHWM of /proc/self/status), or 0 where Linux's /proc is not there.
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("VmHWM:")); ok {
			kb, _ := strconv.ParseInt(string(bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(v), []byte("kB")))), 10, 64)
			return kb * 1024
		}
	}
	return 0
}

// resetPeakRSS returns the heap the process no longer uses to the system and starts a new peak
// (writing 5 to /proc/self/clear_refs resets VmHWM to the current RSS).
func resetPeakRSS() {
	debug.FreeOSMemory()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// BenchmarkAuditOneCore audits a file of at least 100,000 simulated hands (FECHADO_BENCH_HANDS
// to change it) on one core — GOMAXPROCS=1, so the garbage collector shares that core — exactly
// as `fechado audit FILE` reads it: mapped (logfile.Open), decoded, chained and replayed through
// the rules. It reports hands/s, events/s and the peak resident memory of the process while
// auditing (peak-RSS-MB; the test binary's own baseline included). With FECHADO_BENCH_FILE set
// it audits that JSON Lines file instead (for profiling on a given log; it must be clean).
func BenchmarkAuditOneCore(b *testing.B) {
	want := 100_000
	if s := os.Getenv("FECHADO_BENCH_HANDS"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			b.Fatalf("FECHADO_BENCH_HANDS=%q: want a number of hands", s)
		}
		want = v
	}
	var path string
	var hands, lines int
	if path = os.Getenv("FECHADO_BENCH_FILE"); path != "" {
		hands, lines = countHands(b, path)
	} else {
		path, hands, lines = simulatedLog(b, b.TempDir(), want)
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	auditFile := func() {
		r, closeFile, err := logfile.Open(path) // mapped, as the command maps it
		if err != nil {
			b.Fatal(err)
		}
		defer closeFile()
		a := audit.New(nil)
		if _, err := audit.AuditReader(a, r); err != nil {
			b.Fatal(err)
		}
		a.Close()
		if a.Hands != hands || a.Errors != 0 {
			b.Fatalf("audited %d of %d hands, %d errors: the simulated log should be clean", a.Hands, hands, a.Errors)
		}
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	resetPeakRSS()
	b.SetBytes(st.Size())
	b.ResetTimer()
	for b.Loop() {
		auditFile()
	}
	b.StopTimer()
	peak := peakRSS()
	secs := b.Elapsed().Seconds()
	b.ReportMetric(float64(hands)*float64(b.N)/secs, "hands/s")
	b.ReportMetric(float64(lines)*float64(b.N)/secs, "events/s")
	b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MB")
}

// countHands returns the numbers of hands (hand.ended events) and events of a log file.
func countHands(tb testing.TB, path string) (hands, evs int) {
	tb.Helper()
	for _, e := range eventfiles.Read(tb, path, 0) {
		evs++
		if e.Type == events.HandEndedType {
			hands++
		}
	}
	return hands, evs
}
