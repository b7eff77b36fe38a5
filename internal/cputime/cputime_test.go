package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestProcessCountsWork proves that Process grows by the CPU a fixed piece of work takes,
// whatever else runs on the machine: 50 million dependent multiply-adds take at least four cycles
// each (above 40 ms at 5 GHz), so Process must grow by more than 10 ms.
func TestProcessCountsWork(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no process CPU time on", runtime.GOOS)
	}
	before := Process()
	x := uint64(1)
	for range 50_000_000 {
		x = x*6364136223846793005 + 1442695040888963407
	}
	used := Process() - before
	if x == 0 || used < 10*time.Millisecond {
		t.Fatalf("50 million multiply-adds used %v of CPU by Process", used)
	}
}
