package events

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// refChain is the Chain as it was before its id tables, hand cache and ring buffer: two Go maps
// of fingerprints, a map of hands looked up on every event and a slice as the window. The
// differential test below holds Chain to it.
type refChain struct {
	hands    map[string]*handLink
	ids      map[uint64]struct{}
	older    map[uint64]struct{}
	IDWindow int
	ring     []string
	Window   int
	TrackIDs bool
}

func (c *refChain) Check(e *Event) []Problem {
	var ps []Problem
	h := c.hands[e.Hand]
	if h == nil {
		h = &handLink{}
		c.hands[e.Hand] = h
	}
	if c.TrackIDs {
		key := refIDKey(e.ID)
		_, dup := c.ids[key]
		if !dup {
			_, dup = c.older[key]
		}
		if dup {
			ps = append(ps, Problem{ProblemDuplicateID, e.Seq, fmt.Sprintf("event id %s is used twice", e.ID)})
		} else {
			w := c.IDWindow
			if w <= 0 {
				w = DefaultIDWindow
			}
			if c.ids == nil || len(c.ids) >= w {
				c.older, c.ids = c.ids, map[uint64]struct{}{}
			}
			c.ids[key] = struct{}{}
		}
	}
	switch {
	case h.ended:
		ps = append(ps, Problem{ProblemSequence, e.Seq, fmt.Sprintf("event seq %d comes after hand.ended", e.Seq)})
	case e.Seq != h.lastSeq+1:
		ps = append(ps, Problem{ProblemSequence, e.Seq, fmt.Sprintf("seq %d follows seq %d: want %d", e.Seq, h.lastSeq, h.lastSeq+1)})
	}
	if e.HasPrev {
		var buf [2 * sha256.Size]byte
		want := buf[:0]
		if e.Seq != 1 && h.lastSeq != 0 {
			hex.Encode(buf[:], h.last[:])
			want = buf[:]
		}
		if e.Prev != string(want) && !(len(want) == 0 && h.lastSeq == 0 && e.Seq != 1) {
			ps = append(ps, Problem{ProblemChain, e.Seq, fmt.Sprintf("prev %s is not the SHA-256 of the previous line (%s)", ShortHash(e.Prev), ShortHash(string(want)))})
		}
	}
	h.lastSeq = e.Seq
	h.last = sha256.Sum256(e.Raw)
	if e.Type == HandEndedType {
		h.ended = true
	}
	return ps
}

func (c *refChain) Last(hand string) (Seq, string) {
	if h := c.hands[hand]; h != nil && h.lastSeq > 0 {
		return h.lastSeq, hex.EncodeToString(h.last[:])
	}
	return 0, ""
}

func (c *refChain) Ended(hand string) bool {
	h := c.hands[hand]
	return h != nil && h.ended
}

func (c *refChain) Forget(hand string) {
	if _, ok := c.hands[hand]; !ok {
		return
	}
	c.ring = append(c.ring, hand)
	w := c.Window
	if w <= 0 {
		w = DefaultWindow
	}
	for len(c.ring) > w {
		old := c.ring[0]
		c.ring = c.ring[1:]
		delete(c.hands, old)
	}
}

// refIDKey is the key of an id in refChain: its first 32 hex digits, in any case, as 128 bits
// whose two halves are XORed (package idset's fingerprint: ids of equal fingerprints are the same).
func refIDKey(id string) uint64 {
	var b strings.Builder
	for _, c := range strings.ToLower(id) {
		if b.Len() < 32 && strings.ContainsRune("0123456789abcdef", c) {
			b.WriteRune(c)
		}
	}
	digits := b.String() + strings.Repeat("0", 32-b.Len())
	hi, _ := strconv.ParseUint(digits[:16], 16, 64)
	lo, _ := strconv.ParseUint(digits[16:], 16, 64)
	return hi ^ lo
}

// Chain answers as refChain does on random logs with every fault: duplicate ids (in either
// generation, and fingerprints that collide), seq gaps and repeats, events after hand.ended and
// after the hand left the window, wrong, missing and uppercase prev, equal hands in distinct
// strings, small windows so that hands and id generations turn over, the ids' table made at a
// size told beforehand (ExpectIDs) or grown.
func TestChainMatchesReference(t *testing.T) {
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 7))
		c := NewChain()
		ref := &refChain{hands: map[string]*handLink{}, TrackIDs: true}
		c.Window = r.IntN(4) // 0 is DefaultWindow
		ref.Window = c.Window
		c.IDWindow = r.IntN(6)
		steps := 400
		if seed%4 == 3 {
			// Generations large enough for the id tables to grow and batch their insertions.
			c.IDWindow, steps = 20+r.IntN(300), 2000
		}
		ref.IDWindow = c.IDWindow
		if seed%3 == 1 {
			c.ExpectIDs(r.IntN(2 * steps)) // told about how many come: fewer or more than do
		}
		if seed%10 == 9 {
			c.TrackIDs, ref.TrackIDs = false, false
		}
		hands := make([]string, 2+r.IntN(6))
		for i := range hands {
			hands[i] = fmt.Sprintf("83a3b53a-28d7-4272-b797-%012d", i)
		}
		next := map[string]Seq{}
		last := map[string][]byte{}
		ids := []string{"00000000-0000-0000-0000-000000000000", "{00000000-0000-0000-0000-000000000000}", "x", ""}
		for step := range steps {
			h := hands[r.IntN(len(hands))]
			if r.IntN(3) == 0 {
				h = strings.Clone(h) // the same hand in another string
			}
			e := &Event{Hand: h, Table: "T", Type: PlayerActedType}
			switch r.IntN(8) {
			case 0:
				e.ID = ids[r.IntN(len(ids))]
			case 1:
				e.ID = strings.ToUpper(ids[max(0, len(ids)-1-r.IntN(400))]) // a recent one
			default:
				e.ID = fmt.Sprintf("908b5493-a4e9-4345-%04x-%012x", seed, step)
				ids = append(ids, e.ID)
			}
			e.Seq = next[h] + 1
			switch r.IntN(10) {
			case 0:
				e.Seq += Seq(r.IntN(3)) - 1
			case 1:
				e.Seq = 1
			}
			next[h] = e.Seq
			e.Raw = fmt.Appendf(nil, "line %d of %s", step, h)
			e.HasPrev = r.IntN(6) != 0
			if e.HasPrev && e.Seq != 1 {
				if l, ok := last[h]; ok {
					e.Prev = Hash(l)
				}
				switch r.IntN(10) {
				case 0:
					e.Prev = ""
				case 1:
					e.Prev = strings.ToUpper(e.Prev)
				case 2:
					e.Prev = Hash([]byte("another line"))
				case 3:
					e.Prev = "abc"
				}
			}
			last[h] = e.Raw
			if r.IntN(12) == 0 {
				e.Type = HandEndedType
			}
			if got, want := c.Check(e), ref.Check(e); !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d step %d: %+v: Check = %v, want %v", seed, step, e, got, want)
			}
			if e.Type == HandEndedType || r.IntN(15) == 0 {
				c.Forget(h)
				ref.Forget(h)
				if r.IntN(4) == 0 {
					c.Forget(h)
					ref.Forget(h)
				}
			}
			for _, h := range hands {
				gs, gh := c.Last(h)
				ws, wh := ref.Last(h)
				if gs != ws || gh != wh || c.Ended(h) != ref.Ended(h) {
					t.Fatalf("seed %d step %d: hand %s: Last %d %s, Ended %v; want %d %s, %v", seed, step, h, gs, gh, c.Ended(h), ws, wh, ref.Ended(h))
				}
			}
		}
		if len(c.hands) != len(ref.hands) || len(c.forgotten) != len(ref.ring) {
			t.Fatalf("seed %d: %d hands and %d in the window, want %d and %d", seed, len(c.hands), len(c.forgotten), len(ref.hands), len(ref.ring))
		}
	}
}

// Once its windows are full, checking more hands allocates nothing.
func TestChainSteadyStateAllocs(t *testing.T) {
	evs := chainBenchEvents(1600, 5)
	c := NewChain()
	c.Window, c.IDWindow = 64, 256
	// Each call checks the next 1,000 events (200 hands): the first fills the windows; the next
	// four let the map of hands settle, whose deletions leave tombstones that made it split its
	// tables now and then for a while after (4 allocations in 21 of 300 runs when only one call
	// came before AllocsPerRun's; none in 1,500 with five); then AllocsPerRun's warm-up, and the
	// call it measures.
	run := func() {
		for i := range 1000 {
			e := &evs[i]
			if ps := c.Check(e); len(ps) != 0 {
				t.Fatal(ps)
			}
			if e.Type == HandEndedType {
				c.Forget(e.Hand)
			}
		}
		evs = evs[1000:]
	}
	for range 5 {
		run()
	}
	if n := testing.AllocsPerRun(1, run); n != 0 {
		t.Errorf("%v allocations per 1,000 events", n)
	}
}

// IsHashOf agrees with comparing to hex.EncodeToString, digit by digit.
func TestIsHashOf(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 2000 {
		var sum [sha256.Size]byte
		for j := range sum {
			sum[j] = byte(r.Uint32())
		}
		if i < 256 {
			for j := range sum {
				sum[j] = byte(i) // every byte value in every position
			}
		}
		s := hex.EncodeToString(sum[:])
		if !IsHashOf(s, &sum) {
			t.Fatalf("%s is not the hex of %x", s, sum)
		}
		b := []byte(s)
		k := r.IntN(len(b))
		b[k] = "0123456789abcdefABCDEFg "[r.IntN(24)]
		if got, want := IsHashOf(string(b), &sum), string(b) == s; got != want {
			t.Fatalf("IsHashOf(%s, %x) = %v", b, sum, got)
		}
		if IsHashOf(strings.ToUpper(s), &sum) != (strings.ToUpper(s) == s) || IsHashOf(s[:63], &sum) || IsHashOf(s+"0", &sum) {
			t.Fatalf("IsHashOf accepts another spelling of %x", sum)
		}
	}
}
