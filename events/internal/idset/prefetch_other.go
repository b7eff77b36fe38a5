//go:build !amd64

package idset

import "unsafe"

// prefetch does nothing where the set has no prefetch instruction to give: the later load waits
// for the line as it would have.
func prefetch(p unsafe.Pointer) {}
