package hugeheap

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestHeapGrowsIntoHugePagesAfterPrepare proves that what is allocated after Prepare lands in
// memory that the kernel was asked to back with huge pages (the "hg" flag of its mapping in
// /proc/self/smaps), and that the heap had no such memory before: the runtime does not ask by
// itself, which is why Prepare exists.
func TestHeapGrowsIntoHugePagesAfterPrepare(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("this kernel has no transparent huge pages:", err)
	}
	const pieces = 16
	allocate := func() (advised int) {
		var fresh []uintptr
		for range pieces {
			b := make([]byte, 1<<20)
			kept = append(kept, b)
			fresh = append(fresh, uintptr(unsafe.Pointer(unsafe.SliceData(b))))
		}
		areas := advisedAreas(t)
		for _, p := range fresh {
			for _, a := range areas {
				if p >= a[0] && p < a[1] {
					advised++
					break
				}
			}
		}
		return advised
	}
	if n := allocate(); n != 0 && !prepared {
		t.Fatalf("before Prepare, %d of %d megabytes were already in memory advised for huge pages", n, pieces)
	}
	Prepare(32 << 20)
	prepared = true
	if n := allocate(); n < pieces*3/4 {
		t.Fatalf("after Prepare, %d of %d megabytes were in memory advised for huge pages, want %d at least", n, pieces, pieces*3/4)
	}
}

// prepared is set once a test has called Prepare: the memory it advised stays so (go test
// -count). kept holds every piece the tests allocate, for the process's life: a piece freed would
// be taken again before the memory Prepare leaves, as the heap takes the lowest free addresses.
var (
	prepared bool
	kept     [][]byte
)

// TestPrepareOfLessThanTwoHugePagesDoesNothing proves that a size too small to hold a whole
// huge page wherever it falls costs no collection.
func TestPrepareOfLessThanTwoHugePagesDoesNothing(t *testing.T) {
	if n := testing.AllocsPerRun(10, func() { Prepare(2*hugeBytes - 1) }); n != 0 {
		t.Fatalf("Prepare of less than two huge pages allocated %v times", n)
	}
}

// advisedAreas returns the start and end of the mappings of the process that have the flag of
// MADV_HUGEPAGE.
func advisedAreas(t *testing.T) [][2]uintptr {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps:", err)
	}
	defer f.Close()
	var out [][2]uintptr
	var cur [2]uintptr
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if flags, ok := strings.CutPrefix(line, "VmFlags:"); ok {
			if strings.Contains(" "+flags+" ", " hg ") {
				out = append(out, cur)
			}
			continue
		}
		field, _, _ := strings.Cut(line, " ")
		lo, hi, ok := strings.Cut(field, "-")
		if !ok {
			continue
		}
		a, err1 := strconv.ParseUint(lo, 16, 64)
		b, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 == nil && err2 == nil {
			cur = [2]uintptr{uintptr(a), uintptr(b)}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
