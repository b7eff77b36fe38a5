package idset

import (
	"syscall"
	"unsafe"
)

// hugeBytes is the size of a huge page of x86-64 and arm64 (with pages of 4 KB): a table this
// large or larger is placed on a boundary of it, in pages of that size where the kernel can.
const hugeBytes = 2 << 20

// makeLines returns n empty lines. A table of 2 MB or more is placed on a 2 MB boundary of a
// larger block of the heap, with MADV_HUGEPAGE: a check reads a line anywhere in 4 MB, and with
// pages of 4 KB the address of nearly every line misses the TLB, which a log streamed through the
// caches keeps evicting; the prefetch of the line then waits for the walk of the page tables.
// The table stays in the heap (not a mapping of its own) so that the collector counts it: a
// caller that allocates much (validate parses every line anew) would otherwise collect half as
// often again, its live heap 4 MB smaller (BENCHMARKS.md, twenty-first session). The block's
// unused 2 MB the set never writes: fresh from the system, they take no memory.
func makeLines(n int) []idLine {
	size := n * int(unsafe.Sizeof(idLine{}))
	if size < hugeBytes {
		l := make([]idLine, n)
		clear(l) // written first: see below
		return l
	}
	b := make([]byte, size+hugeBytes)
	off := (hugeBytes - int(uintptr(unsafe.Pointer(&b[0]))%hugeBytes)) % hugeBytes
	t := b[off : off+size]
	_ = syscall.Madvise(t, syscall.MADV_HUGEPAGE) // a hint: refused, the pages stay small
	// Every page written before it is read: a fresh page read first (a check's probe) is mapped
	// to the kernel's page of zeros, and the write after it copies that page and, in a process
	// whose other threads run on other cores (a spread audit's workers), interrupts each of
	// those cores to flush its TLB.
	clear(t)
	return unsafe.Slice((*idLine)(unsafe.Pointer(&t[0])), n)
}
