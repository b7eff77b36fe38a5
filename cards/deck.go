package cards

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
)

// ShuffleMethod names the machine shuffle of events-v1.md §3.
const ShuffleMethod = "hmac-sha256-fy-v1"

// PhysicalMethod names a shuffle done by hand at a live table.
const PhysicalMethod = "physical"

// SeedSize is the size in bytes of a shuffle seed.
const SeedSize = 32

// Seed is the secret of one machine shuffle.
type Seed [SeedSize]byte

// ParseSeed reads a seed written as 64 hexadecimal digits.
func ParseSeed(s string) (Seed, error) {
	var seed Seed
	if len(s) != 2*SeedSize {
		return seed, fmt.Errorf("bad seed: want %d hex digits, got %d characters", 2*SeedSize, len(s))
	}
	if _, err := hex.Decode(seed[:], []byte(s)); err != nil {
		return seed, fmt.Errorf("bad seed: %v", err)
	}
	return seed, nil
}

// String returns the seed as 64 lowercase hex digits.
func (s Seed) String() string { return hex.EncodeToString(s[:]) }

// Commitment returns the lowercase hex SHA-256 of the seed's 32 bytes, published in deck.shuffled
// before the seed itself is revealed.
func (s Seed) Commitment() string {
	sum := sha256.Sum256(s[:])
	return hex.EncodeToString(sum[:])
}

// Deck returns the deck that starts at rank low: every card of rank low to ace, in canonical order.
func Deck(low Rank) []Card {
	if !low.Valid() {
		return nil
	}
	out := make([]Card, 0, 4*(int(Ace-low)+1))
	for c := New(low, Clubs); c < NumCards; c++ {
		out = append(out, c)
	}
	return out
}

// DeckSet returns the cards of the deck that starts at rank low as a set.
func DeckSet(low Rank) Set {
	if !low.Valid() {
		return 0
	}
	return Set(^uint64(0)>>(64-NumCards)) &^ Set(uint64(1)<<New(low, Clubs)-1)
}

// words yields the random words of §3 step 2: block k = HMAC-SHA256(seed, k as 8 bytes big-endian),
// four big-endian uint64 words per block, in order.
type words struct {
	mac   [sha256.Size]byte
	h     hash.Hash
	k     uint64
	used  int
	ready bool
}

func (w *words) next() uint64 {
	if !w.ready || w.used == 4 {
		w.h.Reset()
		var msg [8]byte
		binary.BigEndian.PutUint64(msg[:], w.k)
		w.h.Write(msg[:])
		w.h.Sum(w.mac[:0])
		w.k++
		w.used = 0
		w.ready = true
	}
	x := binary.BigEndian.Uint64(w.mac[w.used*8:])
	w.used++
	return x
}

// Shuffle returns the cards in the order the hmac-sha256-fy-v1 shuffle with this seed puts them,
// position 0 being the top of the deck. The input must be in canonical order (the whole deck, or
// for a reshuffle the gathered cards as the event lists them); it is not modified.
func Shuffle(seed Seed, in []Card) []Card {
	out := append([]Card(nil), in...)
	w := words{h: hmac.New(sha256.New, seed[:])}
	for i := len(out) - 1; i >= 1; i-- {
		m := uint64(i + 1)
		r := -m % m // 2^64 mod m
		x := w.next()
		for r != 0 && x >= -r {
			x = w.next()
		}
		j := x % m
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// Cut moves the top k cards to the bottom: new = old[k:] + old[:k]. k = 0 means no cut. It
// returns a new slice and an error when k is outside 0..n-1.
func Cut(in []Card, k int) ([]Card, error) {
	if k < 0 || (k > 0 && k >= len(in)) {
		return nil, fmt.Errorf("cut at %d is outside 1..%d", k, len(in)-1)
	}
	out := make([]Card, 0, len(in))
	out = append(out, in[k:]...)
	return append(out, in[:k]...), nil
}
