package idset

import (
	"runtime"
	"syscall"
	"unsafe"
)

// hugeBytes is the size of a huge page of x86-64 and arm64 (with pages of 4 KB): a table this
// large or larger is mapped on its own, in pages of that size where the kernel can.
const hugeBytes = 2 << 20

// tableMem is a table's mapping outside the Go heap: unmapped once nothing holds it (a Set holds
// it for as long as it holds the lines).
type tableMem struct{ b []byte }

// makeLines returns n empty lines. A table of 2 MB or more is its own anonymous mapping, which
// the kernel places on a boundary of 2 MB (Linux 6.7 on), with MADV_HUGEPAGE: a check reads a
// line anywhere in 4 MB, and with pages of 4 KB the address of nearly every line misses the TLB,
// which a log streamed through the caches keeps evicting; the prefetch of the line then waits
// for the walk of the page tables. Smaller tables, or a mapping refused, come from the heap.
func makeLines(n int) ([]idLine, *tableMem) {
	size := n * int(unsafe.Sizeof(idLine{}))
	if size < hugeBytes {
		return make([]idLine, n), nil
	}
	b, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return make([]idLine, n), nil
	}
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE) // a hint: refused, the pages stay small
	m := &tableMem{b}
	runtime.AddCleanup(m, func(b []byte) { _ = syscall.Munmap(b) }, b)
	return unsafe.Slice((*idLine)(unsafe.Pointer(&b[0])), n), m
}
