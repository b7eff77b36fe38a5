package cards

import (
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"sync"
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
// It computes the HMAC (RFC 2104) itself on one SHA-256 digest rather than with crypto/hmac,
// which allocates its digests and pad states anew for every key (about twenty allocations a
// shuffle, and every hand has a new seed), so that a shuffle allocates nothing: the states after the inner and the outer padded key are saved once per seed (as
// crypto/hmac does), and each block restores them instead of hashing the pads again. The
// buffers live in the struct, which comes from a pool: the digest's methods take slices through
// an interface, so slices of a stack array would escape to the heap on every block.
type words struct {
	h     hash.Hash
	state digestState
	// inner and outer are the digest's state after the inner and the outer padded key.
	inner, outer []byte
	innerBuf     [stateSize]byte
	outerBuf     [stateSize]byte
	pad          [sha256.BlockSize]byte // the padded key
	msg          [8]byte
	sum          [sha256.Size]byte // the inner hash of the block
	mac          [sha256.Size]byte // the block
	k            uint64
	used         int
}

// digestState saves and restores a SHA-256 digest's state; crypto/sha256 documents both for
// its digest.
type digestState interface {
	encoding.BinaryAppender
	encoding.BinaryUnmarshaler
}

// stateSize is the size of a saved SHA-256 state (a 4-byte magic, the chaining value, the block
// buffer and the length), the room kept for one; a larger state would only cost an allocation.
const stateSize = 4 + sha256.Size + sha256.BlockSize + 8

var wordsPool = sync.Pool{New: func() any {
	w := &words{h: sha256.New()}
	w.state = w.h.(digestState)
	return w
}}

// reset keys w with seed and rewinds it to block 0.
func (w *words) reset(seed *Seed) {
	const (
		ipad = 0x36
		opad = 0x5c
	)
	// The key (32 bytes, shorter than a block) zero-padded to a block.
	for i := range w.pad {
		var kb byte
		if i < SeedSize {
			kb = seed[i]
		}
		w.pad[i] = kb ^ ipad
	}
	w.h.Reset()
	w.h.Write(w.pad[:])
	w.inner, _ = w.state.AppendBinary(w.innerBuf[:0])
	for i := range w.pad {
		w.pad[i] ^= ipad ^ opad
	}
	w.h.Reset()
	w.h.Write(w.pad[:])
	w.outer, _ = w.state.AppendBinary(w.outerBuf[:0])
	w.k = 0
	w.used = 4
}

func (w *words) next() uint64 {
	if w.used == 4 {
		w.block()
		w.k++
		w.used = 0
	}
	x := binary.BigEndian.Uint64(w.mac[w.used*8:])
	w.used++
	return x
}

// block sets mac to block k: HMAC = H(key^opad || H(key^ipad || k)), from the saved pad states.
func (w *words) block() {
	binary.BigEndian.PutUint64(w.msg[:], w.k)
	w.hash(w.inner, w.msg[:], &w.sum)
	w.hash(w.outer, w.sum[:], &w.mac)
}

// hash sets out to the SHA-256 of a padded key, whose digest state is saved in state, followed
// by msg.
func (w *words) hash(state, msg []byte, out *[sha256.Size]byte) {
	if err := w.state.UnmarshalBinary(state); err != nil {
		panic(err) // a state the digest itself wrote
	}
	w.h.Write(msg)
	w.h.Sum(out[:0])
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
	w := wordsPool.Get().(*words)
	defer wordsPool.Put(w)
	w.reset(&seed)
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
