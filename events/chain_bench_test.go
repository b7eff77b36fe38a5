package events

import (
	"crypto/sha256"
	"fmt"
	"testing"
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

// BenchmarkIsHashOf compares a prev with the hash of the line before.
func BenchmarkIsHashOf(b *testing.B) {
	sum := sha256.Sum256([]byte("line"))
	prev := Hash([]byte("line"))
	n := 0
	for b.Loop() {
		if IsHashOf(prev, &sum) {
			n++
		}
	}
	if n == 0 {
		b.Fatal("no match")
	}
}
