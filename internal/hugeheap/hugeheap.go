// Package hugeheap owns how a command that reads a whole log asks for the memory its heap grows
// into: in pages of 2 MB where the kernel gives them, rather than of 4 KB.
//
// Every page of 4 KB a process writes first costs a fault, and the kernel clears it. On a virtual
// machine that keeps the guest's page tables in software (as the processors' nested paging would
// in hardware), that fault also leaves the guest, and a fresh page cost about 12.6 µs in all
// where one of a 2 MB page cost 0.25 µs per 4 KB (BENCHMARKS.md, twenty-third session). An audit's
// heap is some ten megabytes written once, so its faults were near a tenth of its time. Go's
// runtime asks for huge pages only for its own metadata, and the machines' default (transparent
// huge pages "madvise") gives them only to memory that asks; Prepare asks for the heap.
package hugeheap

// Prepare makes the heap n bytes larger, asks the kernel to back that memory with huge pages, and
// lets it go at once: the allocations that follow take it before any new memory. Its cost is one
// collection, when the heap is still small; the memory is only ever taken as it is written. Only
// Linux has the hint; elsewhere Prepare does nothing. A command that runs long with a heap that
// grows and shrinks (serve) should not call it: a huge page stays whole while any of it is used.
func Prepare(n int) { prepare(n) }
