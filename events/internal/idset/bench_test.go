package idset

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/fechado/fechado/internal/cputime"
)

// BenchmarkIDKey fingerprints an event id.
func BenchmarkIDKey(b *testing.B) {
	id := "01a2272d-2d7e-7369-b3c8-1a15fe68835d"
	var k uint64
	for b.Loop() {
		k += idKey(id)
	}
	_ = k
}

// idBenchIDs returns n distinct UUIDs, their bytes in one slab as a Reader's chunks hold them:
// random ones (version 4) for "v4"; of version 7 in time order for "v7-ordered", their times
// 0.5 to 2.5 s apart, as a table's events; for "v7-tables", 10 such tables one after the other,
// each starting back at the same time; for "v7-room", tables of 3,700 events one after the
// other, fifty starting back at the same time, then fifty more from where those ended, as
// room20k's tables are cut into hands (its ids' times do this).
func idBenchIDs(n int, kind string) []string {
	r := rand.New(rand.NewPCG(11, 12))
	slab := make([]byte, 0, 36*n)
	ids := make([]string, n)
	const start = 0x01a2272d2600 // 2026-11-29T12:00:00Z, in ms
	at, round, end := uint64(start), uint64(start), uint64(start)
	for i := range ids {
		hi, lo := r.Uint64(), r.Uint64()
		switch kind {
		case "v4":
			hi = hi&^0xf000 | 0x4000
		case "v7-room":
			if i%3700 == 0 {
				if i%(50*3700) == 0 {
					round = end
				}
				at = round
			}
			at += 500 + r.Uint64N(2000)
			end = max(end, at)
			hi = at<<16 | 0x7000 | hi&0xfff
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

// idBenchKinds are the kinds of idBenchIDs the benchmarks check.
var idBenchKinds = []string{"v4", "v7-ordered", "v7-tables", "v7-room"}

// BenchmarkIDCheck checks millions of distinct UUIDs (as many as the events of a long audit)
// with a fresh Set per op; with the default window the generations turn over many times. The ids
// are of each kind of idBenchIDs, checked three ways: Seen of each id alone ("seen"); Prefetch of
// the next id before Seen of the current one, as an audit does while it reads a file ("ahead");
// runs of 3,000 fingerprints worked out first, then SeenKeys, as the deliverer of a spread by
// files does ("keys"). Only the public calls: the same file measures the set of any version.
// Besides the wall time per id, the CPU time per id (cpu-ns/event), which others' work on the
// machine moves less.
func BenchmarkIDCheck(b *testing.B) {
	for _, kind := range idBenchKinds {
		ids := idBenchIDs(2_600_000, kind)
		for _, way := range []string{"seen", "ahead", "keys"} {
			b.Run(kind+"/"+way, func(b *testing.B) {
				keys := make([]Key, 3000)
				b.ReportAllocs()
				cpu := cputime.Process()
				for b.Loop() {
					var s Set
					switch way {
					case "seen":
						for i, id := range ids {
							if s.Seen(id, defaultWindow) {
								b.Fatalf("id %d seen twice", i)
							}
						}
					case "ahead":
						for i, id := range ids {
							if i+1 < len(ids) {
								s.Prefetch(ids[i+1])
							}
							if s.Seen(id, defaultWindow) {
								b.Fatalf("id %d seen twice", i)
							}
						}
					case "keys":
						for from := 0; from < len(ids); from += len(keys) {
							run := keys[:min(len(keys), len(ids)-from)]
							for i := range run {
								run[i] = KeyOf(ids[from+i])
							}
							if i := s.SeenKeys(run, defaultWindow); i < len(run) {
								b.Fatalf("id %d seen twice", from+i)
							}
						}
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ids)), "ns/event")
				b.ReportMetric(float64((cputime.Process()-cpu).Nanoseconds())/float64(b.N*len(ids)), "cpu-ns/event")
			})
		}
	}
}
