package prefetch

import (
	"bytes"
	"slices"
	"testing"
	"unsafe"
)

// Bytes only asks: it reads nothing the caller can see, writes nothing, and takes slices of any
// length and alignment, empty and nil included, up to the last byte of their memory.
func TestBytesLeavesMemoryAsItWas(t *testing.T) {
	b := make([]byte, 4096+100)
	for i := range b {
		b[i] = byte(i * 7)
	}
	want := bytes.Clone(b)
	Bytes(nil)
	Bytes(b[:0])
	for _, c := range [][2]int{{0, 1}, {1, 64}, {63, 65}, {0, len(b)}, {len(b) - 1, len(b)}, {100, 4096 + 100}} {
		Bytes(b[c[0]:c[1]])
	}
	if !bytes.Equal(b, want) {
		t.Error("Bytes changed the memory it was given")
	}
}

// Line only asks as well: the word it is given the address of, and its neighbours, are as they were.
func TestLineLeavesMemoryAsItWas(t *testing.T) {
	w := [16]uint64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	want := w
	for i := range w {
		Line(unsafe.Pointer(&w[i]))
	}
	if w != want {
		t.Error("Line changed the memory it was given")
	}
}

// Of asks as Line does, for a typed pointer: the value and the values around it are as they were.
func TestOfLeavesMemoryAsItWas(t *testing.T) {
	type slot struct {
		key   uint64
		table int32
	}
	s := []slot{{1, 2}, {3, 4}, {5, 6}}
	want := slices.Clone(s)
	for i := range s {
		Of(&s[i])
	}
	if !slices.Equal(s, want) {
		t.Error("Of changed the memory it was given")
	}
}
