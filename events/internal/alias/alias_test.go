package alias

import (
	"testing"
	"unsafe"
)

// String copies nothing: the string's bytes are b's, and it reads b's text.
func TestStringSharesTheBytes(t *testing.T) {
	line := []byte(`{"id":"0f8fad5b-d9cb-469f-a165-70867728950e"}`)
	id := line[7:43]
	s := String(id)
	if s != "0f8fad5b-d9cb-469f-a165-70867728950e" {
		t.Fatalf("String = %q", s)
	}
	if unsafe.StringData(s) != &id[0] {
		t.Fatal("String copied the bytes")
	}
	if String(nil) != "" || String(line[:0]) != "" {
		t.Fatal("String of no bytes is not the empty string")
	}
	if n := testing.AllocsPerRun(100, func() { s = String(id) }); n != 0 {
		t.Fatalf("String allocates %v times", n)
	}
}

// What aliasing buys over a copy, per string of an event id's length (36 bytes): the decoder
// makes three or four such strings an event (id, at, prev, a commitment).
func BenchmarkString(b *testing.B) {
	line := []byte(`{"id":"0f8fad5b-d9cb-469f-a165-70867728950e"}`)
	id := line[7:43]
	var s string
	b.Run("alias", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s = String(id)
		}
	})
	b.Run("copy", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s = string(id)
		}
	})
	_ = s
}

// TestWithinTellsTheChunkOfALine proves that Within finds a piece of a chunk in that chunk, up
// to its capacity, and in no other.
func TestWithinTellsTheChunkOfALine(t *testing.T) {
	chunk := make([]byte, 64, 128)
	other := make([]byte, 64)
	for _, c := range []struct {
		name        string
		part, whole []byte
		want        bool
	}{
		{"the first line", chunk[0:10], chunk, true},
		{"a line in the middle", chunk[30:40], chunk, true},
		{"past the length, within the capacity", chunk[100:110], chunk, true},
		{"another chunk", other[0:10], chunk, false},
		{"a copy of the line", append([]byte(nil), chunk[0:10]...), chunk, false},
		{"an empty line", chunk[10:10:10], chunk, false},
		{"no chunk", chunk[0:10], nil, false},
	} {
		if got := Within(c.part, c.whole); got != c.want {
			t.Errorf("%s: Within = %v, want %v", c.name, got, c.want)
		}
	}
}
