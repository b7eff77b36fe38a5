package events

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// chainBenchEvents builds hands×perHand events of distinct hands in log order, as a simulated
// table writes them: UUIDv7-like ids, each hand's events sharing one hand string (as the
// Reader's interner gives them), every line ~300 bytes and prev chained, the last of each hand a
// hand.ended.
func chainBenchEvents(hands, perHand int) []Event {
	raw := make([]byte, 300)
	for i := range raw {
		raw[i] = 'a' + byte(i%26)
	}
	prev := Hash(raw)
	evs := make([]Event, 0, hands*perHand)
	n := uint64(0)
	for h := range hands {
		hand := fmt.Sprintf("01a2272d-%04x-7e3d-b5c1-%012x", h&0xffff, uint64(h)*0x9e3779b97f4a7c15>>16)
		for s := 1; s <= perHand; s++ {
			n++
			r := n * 0x9e3779b97f4a7c15
			e := Event{
				ID:   fmt.Sprintf("01a2272d-%04x-7%03x-b%03x-%012x", n>>16&0xffff, n&0xfff, r>>52, r&0xffffffffffff),
				Hand: hand, Table: "bench-1", Seq: Seq(s), Type: PlayerActedType, HasPrev: true, Raw: raw,
			}
			if s > 1 {
				e.Prev = prev
			}
			if s == perHand {
				e.Type = HandEndedType
			}
			evs = append(evs, e)
		}
	}
	return evs
}

// BenchmarkChainCheck checks the events of 10,000 hands of 25 events (as many as /tmp/fd/t1.jsonl)
// with a fresh Chain per op, forgetting each hand at its hand.ended as the auditor does; it
// reports the cost per event. The SHA-256 of each 300-byte line is part of it.
func BenchmarkChainCheck(b *testing.B) {
	evs := chainBenchEvents(10000, 25)
	b.ReportAllocs()
	for b.Loop() {
		c := NewChain()
		for i := range evs {
			e := &evs[i]
			if ps := c.Check(e); len(ps) != 0 {
				b.Fatal(ps)
			}
			if e.Type == HandEndedType {
				c.Forget(e.Hand)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(evs)), "ns/event")
}

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

// BenchmarkLineHash is the floor of Check: the SHA-256 of a 300-byte line.
func BenchmarkLineHash(b *testing.B) {
	line := make([]byte, 300)
	var s byte
	for b.Loop() {
		sum := sha256.Sum256(line)
		s += sum[0]
	}
	_ = s
}

// BenchmarkIsHexOf compares a prev with the hash of the line before.
func BenchmarkIsHexOf(b *testing.B) {
	sum := sha256.Sum256([]byte("line"))
	prev := Hash([]byte("line"))
	n := 0
	for b.Loop() {
		if isHexOf(prev, &sum) {
			n++
		}
	}
	if n == 0 {
		b.Fatal("no match")
	}
}

// idBenchIDs returns n distinct UUIDs, their bytes in one slab as a Reader's chunks hold them:
// random ones (version 4) for "v4"; of version 7 in time order for "v7-ordered", their times
// 0.5 to 2.5 s apart, as a table's events; for "v7-tables", 10 such tables one after the other,
// each starting back at the same time, as /tmp/fd/h100k.jsonl has them.
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

// BenchmarkIDCheck isolates the duplicate-id check: 2.6 M distinct UUIDs (as many events as an
// audit of ≈94,000 hands) through one fresh Chain per op, all in one hand whose line sums are
// given, so that the rest of CheckSum is a seq comparison and a 32-byte copy. With the default
// window the id generations turn over about 20 times. The ids are random (v4), or UUIDv7 in
// time order, or of 10 tables one after the other (see idBenchIDs).
func BenchmarkIDCheck(b *testing.B) {
	for _, kind := range []string{"v4", "v7-ordered", "v7-tables"} {
		b.Run(kind, func(b *testing.B) {
			ids := idBenchIDs(2_600_000, kind)
			var sum [sha256.Size]byte
			e := Event{Hand: "01a2272d-2600-7e3d-b5c1-10eef75906e6", Table: "bench-1", Type: PlayerActedType}
			b.ReportAllocs()
			for b.Loop() {
				c := NewChain()
				for i, id := range ids {
					e.ID, e.Seq = id, Seq(i+1)
					if ps := c.CheckSum(&e, &sum); len(ps) != 0 {
						b.Fatal(ps)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ids)), "ns/event")
		})
	}
}
