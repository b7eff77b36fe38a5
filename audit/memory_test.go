package audit

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/eventfiles"
	"github.com/fechado/fechado/internal/testfiles"
)

// Auditing a long log streams: once the chain's window of closed hands is full, the heap stays
// flat however many more hands come (the table vectors repeated with fresh ids, 4,800 hands).
func TestAuditMemoryFlat(t *testing.T) {
	var base []*events.Event
	for _, name := range []string{"table-br-fechado.jsonl", "table-tr-kapali.jsonl", "table-std-draw.jsonl"} {
		base = append(base, eventfiles.Read(t, testfiles.Path("vectors", name), 0)...)
	}
	a := New(nil)
	a.chain.Window = 256 // fill the windows early; the defaults are just a bigger plateau
	a.chain.IDWindow = 4096
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	const reps = 267 // 18 hands each
	var at25, at100 uint64
	n := 0
	for r := range reps {
		hands := map[string]string{}
		prev := map[string]string{}
		for _, e := range base {
			c := *e
			h, ok := hands[e.Hand]
			if !ok {
				h = fmt.Sprintf("00000000-0000-4000-8000-%06d%06d", r, len(hands))
				hands[e.Hand] = h
			}
			n++
			c.Hand, c.ID = h, fmt.Sprintf("00000000-0000-7000-8000-%012d", n)
			events.Seal(&c, prev[h])
			prev[h] = events.Hash(c.Raw)
			a.Add(&c)
		}
		switch r {
		case reps / 4:
			at25 = heap()
		case reps - 1:
			at100 = heap()
		}
	}
	a.Close()
	if a.Hands != reps*18 {
		t.Fatalf("%d hands audited, want %d", a.Hands, reps*18)
	}
	t.Logf("heap after %d hands: %d KiB; after %d: %d KiB", reps/4*18, at25>>10, reps*18, at100>>10)
	if at100 > at25+2<<20 {
		t.Errorf("the heap grew from %d KiB to %d KiB while auditing 3 times more hands", at25>>10, at100>>10)
	}
}
