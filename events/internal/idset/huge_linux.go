package idset

import (
	"syscall"
	"unsafe"
)

// hugePages asks the kernel to back the table's memory with pages of 2 MB where it can
// (MADV_HUGEPAGE, for the kernels whose transparent huge pages are left to madvise): a check
// reads a line anywhere in 4 MB, and with pages of 4 KB the address of nearly every line is
// missing from the TLB, which a log streamed through the caches keeps evicting. A hint only: an
// error leaves the pages as they were.
func hugePages(lines []idLine) {
	const huge = 2 << 20
	if len(lines) == 0 {
		return
	}
	p := unsafe.Pointer(&lines[0])
	start := uintptr(p)
	end := start + uintptr(len(lines))*unsafe.Sizeof(lines[0])
	from, to := (start+huge-1)&^(huge-1), end&^(huge-1)
	if from >= to {
		return
	}
	_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(p, from-start)), to-from), syscall.MADV_HUGEPAGE)
}
