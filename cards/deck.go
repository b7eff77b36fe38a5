package cards

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"

	"github.com/fechado/fechado/internal/multisha"
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
	var buf [2 * sha256.Size]byte
	hex.Encode(buf[:], sum[:])
	return string(buf[:])
}

// Opens reports whether commitment is the seed's Commitment (the lowercase hex SHA-256 of its 32
// bytes), without building the string.
func (s Seed) Opens(commitment string) bool {
	if len(commitment) != 2*sha256.Size {
		return false
	}
	const digits = "0123456789abcdef"
	sum := sha256.Sum256(s[:])
	for i, b := range sum {
		if commitment[2*i] != digits[b>>4] || commitment[2*i+1] != digits[b&0x0f] {
			return false
		}
	}
	return true
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
//
// The blocks are independent of one another, so they are computed in batches by
// multisha.HMACCounter, which hashes the padded key once and then four blocks at once (on a CPU
// with the SHA extensions): a 52-card shuffle takes its 13 blocks in one call, about half the
// time of computing them one at a time through a crypto/sha256 digest (BenchmarkShuffleInPlace,
// in BENCHMARKS.md). The struct holds no pointers, so that it lives on the shuffle's stack and a
// shuffle allocates nothing.
type words struct {
	seed Seed
	buf  [wordBatch][multisha.Size]byte
	// n blocks are computed in buf, of which j words are taken; k is the number of the block
	// after buf[n-1].
	n, j int
	k    uint64
}

// wordBatch is the most blocks computed at once: the 51 words of a 52-card shuffle, four a block.
// A shuffle asks for as many blocks as it needs words; more only when a word is drawn again (with
// a chance below 2^-58 a word) or for a longer list of cards.
const wordBatch = (NumCards - 1 + 3) / 4

// reset keys w with seed, rewinds it to block 0, and computes the blocks for the first want
// words.
func (w *words) reset(seed *Seed, want int) {
	w.seed = *seed
	w.k = 0
	w.fill(want)
}

// fill computes the blocks that hold the next want words (at least one block, at most a batch).
func (w *words) fill(want int) {
	w.n = min(max((want+3)/4, 1), len(w.buf))
	multisha.HMACCounter(w.buf[:w.n], w.seed[:], w.k)
	w.k += uint64(w.n)
	w.j = 0
}

// next returns the next word, computing another batch of blocks when those computed are used up.
func (w *words) next() uint64 {
	if w.j == 4*w.n {
		w.fill(4 * len(w.buf))
	}
	x := binary.BigEndian.Uint64(w.buf[w.j/4][w.j%4*8:])
	w.j++
	return x
}

// Shuffle returns the cards in the order the hmac-sha256-fy-v1 shuffle with this seed puts them,
// position 0 being the top of the deck. The input must be in canonical order (the whole deck, or
// for a reshuffle the gathered cards as the event lists them); it is not modified.
func Shuffle(seed Seed, in []Card) []Card {
	out := append([]Card(nil), in...)
	ShuffleInPlace(seed, out)
	return out
}

// ShuffleInPlace puts cs in the order the hmac-sha256-fy-v1 shuffle with this seed gives them,
// as Shuffle does for a copy: cs must be in canonical order. It allocates nothing.
func ShuffleInPlace(seed Seed, cs []Card) {
	if len(cs) < 2 {
		return
	}
	var w words
	w.reset(&seed, len(cs)-1) // the words of a shuffle without redraws
	for i := len(cs) - 1; i >= 1; i-- {
		m := uint64(i + 1)
		x := w.next()
		// A word x >= 2^64 - (2^64 mod m) is drawn again (no modulo bias). As 2^64 mod m < m,
		// only x >= 2^64 - m can be: the division is skipped for all other words.
		if x >= -m {
			r := -m % m // 2^64 mod m
			for r != 0 && x >= -r {
				x = w.next()
			}
		}
		j := x % m
		cs[i], cs[j] = cs[j], cs[i]
	}
}

// Cut moves the top k cards to the bottom: new = old[k:] + old[:k]. k = 0 means no cut. It
// returns a new slice and an error when k is outside 0..n-1.
func Cut(in []Card, k int) ([]Card, error) {
	if err := checkCut(len(in), k); err != nil {
		return nil, err
	}
	out := make([]Card, 0, len(in))
	out = append(out, in[k:]...)
	return append(out, in[:k]...), nil
}

// CutInPlace is Cut done on cs itself: it rotates the top k cards to the bottom, and allocates
// nothing. It returns Cut's error, leaving cs as it was, when k is outside 0..n-1.
func CutInPlace(cs []Card, k int) error {
	if err := checkCut(len(cs), k); err != nil {
		return err
	}
	// A rotation by three reversals: reversing the top a and the rest b each, then the whole,
	// turns a b into b a.
	reverse(cs[:k])
	reverse(cs[k:])
	reverse(cs)
	return nil
}

func reverse(cs []Card) {
	for i, j := 0, len(cs)-1; i < j; i, j = i+1, j-1 {
		cs[i], cs[j] = cs[j], cs[i]
	}
}

// checkCut returns the error of a cut at k of n cards: k must be in 0..n-1.
func checkCut(n, k int) error {
	if k < 0 || (k > 0 && k >= n) {
		return fmt.Errorf("cut at %d is outside 1..%d", k, n-1)
	}
	return nil
}
