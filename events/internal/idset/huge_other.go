//go:build !linux

package idset

// makeLines returns n empty lines, from the heap.
func makeLines(n int) []idLine {
	l := make([]idLine, n)
	clear(l) // written before it is read (huge_linux.go)
	return l
}
