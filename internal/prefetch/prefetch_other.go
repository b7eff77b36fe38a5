//go:build !amd64

package prefetch

import "unsafe"

// Bytes does nothing where there is no prefetch instruction to give: the later reading waits
// for the bytes as it would have.
func Bytes(b []byte) {}

// Line does nothing where there is no prefetch instruction to give: the later load waits for the
// line as it would have.
func Line(p unsafe.Pointer) {}
