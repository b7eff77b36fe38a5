package main

import (
	"math"
	"os"

	"github.com/fechado/fechado/internal/hugeheap"
)

// bulkHeap is the heap a command that reads a whole log prepares to grow into
// (hugeheap.Prepare): more than one worker's auditor holds while auditing 10,000 hands.
// bulkMin is the least log that is worth it: the runtime's bookkeeping of the larger heap costs
// a few milliseconds of faults, a fifth of the audit of a one-hand file (BENCHMARKS.md,
// twenty-third session).
const (
	bulkHeap = 32 << 20
	bulkMin  = 4 << 20
)

// prepareHeap readies the heap of a command about to read the stored log through (whole) or
// the files called names, when they hold bulkMin bytes or more: the memory such a command grows
// into is written once and read through (the ids, the hands), so the first faults of its pages
// are much of its cost on some machines (hugeheap).
func prepareHeap(whole bool, names []string) {
	if whole || logBytes(names) >= bulkMin {
		hugeheap.Prepare(bulkHeap)
	}
}

// logBytes returns how many bytes the files hold, as far as their sizes say: standard input
// ("-") counts as a large log, as what is piped in is read to its end.
func logBytes(names []string) int64 {
	var n int64
	for _, name := range names {
		if name == "-" {
			return math.MaxInt64
		}
		if st, err := os.Stat(name); err == nil && st.Mode().IsRegular() {
			n += st.Size()
		}
	}
	return n
}
