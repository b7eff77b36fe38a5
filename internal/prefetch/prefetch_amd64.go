//go:build amd64

package prefetch

import "unsafe"

// Bytes asks the processor to bring b's bytes into its caches (PREFETCHT0, one a cache line),
// and returns at once: the next lines to hash, asked for a line at a time while the lines before
// them are decoded, are found there instead of waited for.
//
//go:noescape
func Bytes(b []byte)

// Line asks the processor to bring the cache line holding p into its caches (PREFETCHT0), and
// returns at once: the load that needs the line later finds it there instead of waiting for it.
// For a structure's slot (a set's filter line or bucket), where a slice of bytes would be a
// conversion at every call.
//
//go:noescape
func Line(p unsafe.Pointer)
