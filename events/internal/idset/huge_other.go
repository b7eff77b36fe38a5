//go:build !linux

package idset

// tableMem is nothing where the table always comes from the heap.
type tableMem struct{}

// makeLines returns n empty lines, from the heap.
func makeLines(n int) ([]idLine, *tableMem) { return make([]idLine, n), nil }
