//go:build amd64

package idset

import "unsafe"

// prefetch asks the CPU to bring the cache line holding p into its caches (PREFETCHT0), and
// returns at once: the load that needs the line later finds it there instead of waiting for it.
//
//go:noescape
func prefetch(p unsafe.Pointer)
