package events

import (
	"bytes"
	"io"
	"runtime"
	"testing"
)

// The decoder's type indexes follow the catalogue.
func TestTypeIndexesFollowCatalogue(t *testing.T) {
	if len(Types) != numTypes {
		t.Fatalf("%d types in the catalogue, the decoder knows %d", len(Types), numTypes)
	}
	for i, ty := range Types {
		if got, gi := lookupType([]byte(ty)); got != ty || gi != i {
			t.Errorf("lookupType(%s) = %s, %d; want index %d", ty, got, gi, i)
		}
	}
	if _, i := lookupType([]byte("hand.closed")); i != -1 {
		t.Errorf("an unknown type has index %d", i)
	}
}

// repeatReader returns the lines of a file again and again, n times.
type repeatReader struct {
	data []byte
	n, i int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.i == len(r.data) {
		if r.n == 0 {
			return 0, io.EOF
		}
		r.n, r.i = r.n-1, 0
	}
	k := copy(p, r.data[r.i:])
	r.i += k
	return k, nil
}

// The Reader's lines, events and payloads come from chunks, each freed once no event of it is
// referenced: a reader that keeps the last events (as the auditor keeps those of the open hands)
// uses memory that stays flat however long the log.
func TestReaderMemoryFlat(t *testing.T) {
	var data bytes.Buffer
	lines := vectorLines(t)
	for _, l := range lines {
		data.Write(l)
		data.WriteByte('\n')
	}
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	const reps = 120 // ~50 MB of log
	r := NewReader(&repeatReader{data: data.Bytes(), n: reps}, "long.jsonl")
	var window [1000]*Event
	n := 0
	var at25 uint64
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		window[n%len(window)] = e
		n++
		if n == reps/4*len(lines) {
			at25 = heap()
		}
	}
	at100 := heap()
	t.Logf("%d events, %d MB read; heap with the last %d events kept: %d KiB at a quarter, %d KiB at the end",
		n, reps*data.Len()>>20, len(window), at25>>10, at100>>10)
	if at25 == 0 || at100 > at25+4<<20 {
		t.Errorf("the heap grew from %d KiB to %d KiB", at25>>10, at100>>10)
	}
	runtime.KeepAlive(window)
}
