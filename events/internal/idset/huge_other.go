//go:build !linux

package idset

// makeLines returns n empty lines, from the heap.
func makeLines(n int) []idLine { return make([]idLine, n) }
