package idset

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// BenchmarkIDKey fingerprints an event id.
func BenchmarkIDKey(b *testing.B) {
	id := "01a2272d-2d7e-7369-b3c8-1a15fe68835d"
	var k uint64
	for b.Loop() {
		f, hi := idKey(id)
		k += f ^ hi
	}
	_ = k
}

// idBenchIDs returns n distinct UUIDs, their bytes in one slab as a Reader's chunks hold them:
// random ones (version 4) for "v4"; of version 7 in time order for "v7-ordered", their times
// 0.5 to 2.5 s apart, as a table's events; for "v7-tables", 10 such tables one after the other,
// each starting back at the same time.
func idBenchIDs(n int, kind string) []string {
	r := rand.New(rand.NewPCG(11, 12))
	slab := make([]byte, 0, 36*n)
	ids := make([]string, n)
	const start = 0x01a2272d2600 // 2026-11-29T12:00:00Z, in ms
	at := uint64(start)
	for i := range ids {
		hi, lo := r.Uint64(), r.Uint64()
		switch kind {
		case "v4":
			hi = hi&^0xf000 | 0x4000
		case "v7-tables":
			if i%(n/10) == 0 {
				at = start
			}
			fallthrough
		case "v7-ordered":
			at += 500 + r.Uint64N(2000)
			hi = at<<16 | 0x7000 | hi&0xfff
		default:
			panic(kind)
		}
		lo = lo&^(3<<62) | 2<<62
		from := len(slab)
		slab = fmt.Appendf(slab, "%08x-%04x-%04x-%04x-%012x", hi>>32, hi>>16&0xffff, hi&0xffff, lo>>48, lo&0xffffffffffff)
		ids[i] = unsafe.String(&slab[from], 36)
	}
	return ids
}

// BenchmarkIDCheck checks millions of distinct UUIDs (as many as the events of a long audit)
// with a fresh Set per op; with the default window the generations turn over many times. The ids are random (v4), or UUIDv7 in
// time order, or of 10 tables one after the other (see idBenchIDs).
func BenchmarkIDCheck(b *testing.B) {
	for _, kind := range []string{"v4", "v7-ordered", "v7-tables"} {
		b.Run(kind, func(b *testing.B) {
			ids := idBenchIDs(2_600_000, kind)
			b.ReportAllocs()
			for b.Loop() {
				var s Set
				for i, id := range ids {
					if s.Seen(id, defaultWindow) {
						b.Fatalf("id %d seen twice", i)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ids)), "ns/event")
		})
	}
}
