package hugeheap

import (
	"runtime"
	"syscall"
	"unsafe"
)

// hugeBytes is the size of a huge page of x86-64 and arm64 (with pages of 4 KB).
const hugeBytes = 2 << 20

func prepare(n int) {
	if n < 2*hugeBytes {
		return
	}
	advise(make([]byte, n))
	runtime.GC() // frees the block: nothing holds it once advise returns
}

// advise asks for huge pages for the whole huge pages b holds. The hint stays with the addresses
// (the runtime never maps its heap again), so whatever the heap later puts there has it too. A
// kernel without transparent huge pages refuses it, and the pages stay small.
func advise(b []byte) {
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	from := int((hugeBytes - p%hugeBytes) % hugeBytes)
	to := from + (len(b)-from)/hugeBytes*hugeBytes
	if to > from {
		_ = syscall.Madvise(b[from:to], syscall.MADV_HUGEPAGE)
	}
}
