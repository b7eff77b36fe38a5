package rules

import (
	"errors"
	"fmt"
	"math/bits"
	"sync"

	"github.com/fechado/fechado/cards"
)

// Ranking is how a preset orders five-card hands (presets.md, rows "hand ranking", "lowest
// straight" and "suits break ties").
type Ranking struct {
	// Low is the lowest rank of the deck. The lowest straight is the ace and the four lowest
	// ranks (A-2-3-4-5 when Low is 2, A-7-8-9-T when Low is 7), below every other straight.
	Low                 cards.Rank
	FlushBeatsFullHouse bool // br-fechado, tr-kapali
	TripsBeatStraight   bool // tr-kapali
	SuitsBreakTies      bool // tr-kapali: hearts > spades > diamonds > clubs
}

// The decks an Evaluator accepts start at MinLow (52 cards) to MaxLow (24 cards). A higher Low
// would leave five ranks, where the ace-low straight and the ace-high straight are one hand.
const (
	MinLow = cards.Two
	MaxLow = cards.Nine
)

// Validate reports whether an Evaluator can be built for r.
func (r Ranking) Validate() error {
	if r.Low < MinLow || r.Low > MaxLow {
		return fmt.Errorf("lowest rank %v outside %v to %v", r.Low, MinLow, MaxLow)
	}
	return nil
}

// Category of a five-card hand. The constants are listed in the standard order, weakest first;
// a Ranking may order them differently (Evaluator.Eval's Values carry the order).
type Category uint8

// The categories. The zero Category is no category.
const (
	HighCard Category = iota + 1
	Pair
	TwoPair
	Trips // three of a kind
	Straight
	Flush
	FullHouse
	Quads // four of a kind
	StraightFlush
)

var categoryNames = [...]string{"", "high card", "pair", "two pair", "three of a kind", "straight",
	"flush", "full house", "four of a kind", "straight flush"}

// String returns the category's name in lower case, e.g. "three of a kind".
func (c Category) String() string {
	if c < HighCard || c > StraightFlush {
		return fmt.Sprintf("Category(%d)", uint8(c))
	}
	return categoryNames[c]
}

// Value orders hands under one Ranking: higher is better; equal Values are equal hands (a split).
// Values of different Rankings must not be compared. The zero Value is below every hand.
//
// From the most significant bits down, a Value holds the place of its category in the ranking
// (4 bits), the Category (4 bits), the hand's distinct ranks in ranking order (5 × 4 bits: larger
// groups first, then higher rank; the ace of an ace-low straight counts 1 and comes last), and,
// only under SuitsBreakTies, for each of those ranks the suits held (5 × 4 bits: hearts 8, spades
// 4, diamonds 2, clubs 1).
type Value uint64

const (
	suitBits = 20 // the suits part of a Value
	seqBits  = 20 // the ranks part
	catShift = suitBits + seqBits
	ordShift = catShift + 4
)

// Category returns the hand's category.
func (v Value) Category() Category { return Category(v >> catShift & 0xF) }

// Rank returns the i-th distinct rank of the hand in ranking order, the order Describe names
// them in: larger groups first, then higher rank. It is 0 past the last rank, and 1 for the ace of
// an ace-low straight (which comes last).
func (v Value) Rank(i int) cards.Rank { return v.rank(i) }

// rank returns the i-th distinct rank of the hand in ranking order (0 past the last one; 1 for the
// ace of an ace-low straight).
func (v Value) rank(i int) cards.Rank {
	return cards.Rank(v >> (suitBits + 4*(4-i)) & 0xF)
}

// ErrInvalidHand is returned, wrapped with the reason, for a hand that is not five distinct cards
// of the deck.
var ErrInvalidHand = errors.New("invalid hand")

// Evaluator ranks five-card hands under one Ranking with precomputed tables. It is safe for
// concurrent use.
type Evaluator struct {
	r     Ranking
	suits bool // r.SuitsBreakTies
	// Per card (indexed by the card, so that a cards.Card needs no bounds check):
	key  [256]uint32 // the additive key of its rank (rankKeys); 0 outside the deck
	bit  [256]uint16 // 1 << (rank-2)
	sbit [256]uint64 // 1 << (4*rank + suit strength)
	// A table entry is a Value without its suits part, shifted down by suitBits.
	flush [1 << 13]uint32 // flushes by the mask of their ranks
	// Other hands by the sum s of their cards' keys. Of the sums up to five times the largest
	// key (397,075 on 52 cards) 6,175 are used, so the entries are kept dense, in the order of
	// their sums: the entry of s is ranks[below[s/64] + the used sums under s in used[s/64]],
	// about 90 KB touched on 52 cards where a table indexed by s took 2 MB, which cost every
	// process some 6 ms to build (its fresh pages faulted in and cleared). The arrays' lengths
	// are powers of two, indexed modulo their length so that Eval checks no bounds: the largest
	// sum's word is 6,204, and 52 cards' entries with the 0 after them 6,176.
	used  [1 << 13]uint64 // bit s%64 of used[s/64]: s is the sum of five ranks of the deck
	below [1 << 13]uint16 // the used sums in the words before
	ranks [1 << 13]uint32 // the entries of the used sums in the order of the sums, then 0
}

// rankKeys gives the i-th lowest rank of a deck a key such that the sums of the keys of any five
// ranks, each taken at most four times, are distinct (a greedy search; NewEvaluator checks it).
var rankKeys = [13]uint32{0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415}

// suitStrength orders the suits for SuitsBreakTies: clubs < diamonds < spades < hearts (indexed
// by cards.Suit, whose canonical order is c d h s).
var suitStrength = [4]uint{cards.Clubs: 0, cards.Diamonds: 1, cards.Hearts: 3, cards.Spades: 2}

var evaluatorCache struct {
	sync.Mutex
	m map[Ranking]*Evaluator
}

// NewEvaluator returns the Evaluator of r, building its tables on first use; later calls with the
// same Ranking return the same Evaluator. It panics if r is not valid (see Ranking.Validate).
func NewEvaluator(r Ranking) *Evaluator {
	if err := r.Validate(); err != nil {
		panic("rules.NewEvaluator: " + err.Error())
	}
	evaluatorCache.Lock()
	defer evaluatorCache.Unlock()
	if e, ok := evaluatorCache.m[r]; ok {
		return e
	}
	e := build(r)
	if evaluatorCache.m == nil {
		evaluatorCache.m = make(map[Ranking]*Evaluator)
	}
	evaluatorCache.m[r] = e
	return e
}

// Ranking returns the ranking the evaluator applies.
func (e *Evaluator) Ranking() Ranking { return e.r }

// Eval returns the Value of a hand of five distinct cards of the deck, in any order. It does not
// allocate. On other input it returns an unspecified Value (it does not panic); use EvalSlice for
// input that needs checking.
func (e *Evaluator) Eval(h [5]cards.Card) Value {
	c0, c1, c2, c3, c4 := h[0], h[1], h[2], h[3], h[4]
	var x uint32
	if ((c0^c1)|(c0^c2)|(c0^c3)|(c0^c4))&3 == 0 { // one suit
		x = e.flush[(e.bit[c0]|e.bit[c1]|e.bit[c2]|e.bit[c3]|e.bit[c4])&(1<<13-1)]
	} else {
		x = e.rankEntry(e.key[c0] + e.key[c1] + e.key[c2] + e.key[c3] + e.key[c4])
	}
	v := Value(x) << suitBits
	if e.suits {
		// presets.md "suits break ties": compare the cards one by one in ranking order (larger
		// groups first, then higher rank, the higher suit first within a group); the first
		// differing suit decides. Here: the suits of each distinct rank as a 4-bit set, in the
		// ranking order the entry gives. Comparing those sets one rank after the other as numbers
		// is the same comparison, since two sets of the same size first differ, card by card from
		// the highest suit down, at their highest differing bit.
		//
		// Reading: in an ace-low straight (A-7-8-9-T) the ace is the lowest card, so it comes
		// last in ranking order: T-9-8-7-A, and the ten's suit is compared first.
		w := e.sbit[c0] | e.sbit[c1] | e.sbit[c2] | e.sbit[c3] | e.sbit[c4]
		w |= w >> 52 & 0xF0 // the ace's suits again under rank 1, for an ace-low straight
		s := w >> (4 * (x >> 16 & 0xF) & 63) & 0xF
		s = s<<4 | w>>(4*(x>>12&0xF)&63)&0xF
		s = s<<4 | w>>(4*(x>>8&0xF)&63)&0xF
		s = s<<4 | w>>(4*(x>>4&0xF)&63)&0xF
		s = s<<4 | w>>(4*(x&0xF)&63)&0xF
		v |= Value(s)
	}
	return v
}

// rankEntry returns the entry of the hands whose keys sum to s, or 0 if no five ranks of the deck
// do (a hand with cards outside the deck).
func (e *Evaluator) rankEntry(s uint32) uint32 {
	i, b := s/64%uint32(len(e.used)), s%64
	w := e.used[i]
	x := e.ranks[(uint(e.below[i])+uint(bits.OnesCount64(w&(1<<b-1))))%uint(len(e.ranks))]
	return x & -uint32(w>>b&1)
}

// EvalSlice is Eval for a hand that needs checking: five distinct cards, each in the deck that
// starts at the ranking's Low. Its errors wrap ErrInvalidHand.
func (e *Evaluator) EvalSlice(h []cards.Card) (Value, error) {
	if len(h) != 5 {
		return 0, fmt.Errorf("%w: %d cards, want 5", ErrInvalidHand, len(h))
	}
	deck := cards.DeckSet(e.r.Low)
	var seen cards.Set
	for _, c := range h {
		switch {
		case !c.Valid():
			return 0, fmt.Errorf("%w: %v is not a card", ErrInvalidHand, c)
		case !deck.Has(c):
			return 0, fmt.Errorf("%w: %v is not in the %d-card deck (%v to A)", ErrInvalidHand, c,
				deck.Len(), e.r.Low)
		case seen.Has(c):
			return 0, fmt.Errorf("%w: %v appears twice", ErrInvalidHand, c)
		}
		seen = seen.Add(c)
	}
	return e.Eval([5]cards.Card(h)), nil
}

// PairAtLeast reports whether v is at least a pair of rank r: any category above a pair
// qualifies, and a pair qualifies if its rank is r or higher (presets.md "qualifying hand").
func (e *Evaluator) PairAtLeast(v Value, r cards.Rank) bool {
	switch v.Category() {
	case 0, HighCard:
		return false
	case Pair:
		return v.rank(0) >= r
	}
	return true
}

// TwoPairAtLeast reports whether v is two pair or better under the ranking.
func (e *Evaluator) TwoPairAtLeast(v Value) bool {
	c := v.Category()
	return c != 0 && c != HighCard && c != Pair
}

var singular = [...]string{"", "ace", "two", "three", "four", "five", "six", "seven", "eight",
	"nine", "ten", "jack", "queen", "king", "ace"}

func rankName(r cards.Rank) string {
	if int(r) >= len(singular) {
		return r.String()
	}
	return singular[r]
}

func pluralName(r cards.Rank) string {
	if r == 1 {
		r = cards.Ace
	}
	return r.Name()
}

// Describe names the hand of v briefly for humans, e.g. "pair of jacks", "two pair, kings and
// fours", "straight, ace low". It leaves out kickers and suits.
func (e *Evaluator) Describe(v Value) string {
	r0, r1 := v.rank(0), v.rank(1)
	high := func(what string) string {
		if v.rank(4) == 1 {
			return what + ", ace low"
		}
		return what + ", " + rankName(r0) + " high"
	}
	switch v.Category() {
	case HighCard:
		return rankName(r0) + " high"
	case Pair:
		return "pair of " + pluralName(r0)
	case TwoPair:
		return "two pair, " + pluralName(r0) + " and " + pluralName(r1)
	case Trips:
		return "three " + pluralName(r0)
	case Straight:
		return high("straight")
	case Flush:
		return high("flush")
	case FullHouse:
		return "full house, " + pluralName(r0) + " over " + pluralName(r1)
	case Quads:
		return "four " + pluralName(r0)
	case StraightFlush:
		if r0 == cards.Ace {
			return "royal flush"
		}
		return high("straight flush")
	}
	return fmt.Sprintf("Value(%#x)", uint64(v))
}

// build makes the tables of r.
func build(r Ranking) *Evaluator {
	e := &Evaluator{r: r, suits: r.SuitsBreakTies}
	order := []Category{HighCard, Pair, TwoPair, Trips, Straight, Flush, FullHouse, Quads,
		StraightFlush}
	if r.TripsBeatStraight {
		order[3], order[4] = order[4], order[3]
	}
	if r.FlushBeatsFullHouse {
		order[5], order[6] = order[6], order[5]
	}
	var place [StraightFlush + 1]uint32
	for i, c := range order {
		place[c] = uint32(i + 1)
	}
	n := int(cards.Ace-r.Low) + 1 // ranks in the deck
	for c := cards.Card(0); c < cards.NumCards; c++ {
		if c.Rank() >= r.Low {
			e.key[c] = rankKeys[c.Rank()-r.Low]
		}
		e.bit[c] = 1 << (c.Rank() - 2)
		e.sbit[c] = 1 << (4*uint(c.Rank()) + suitStrength[c.Suit()])
	}
	// Any five keys of the deck (repeats included) sum to at most 5 times the largest; cards
	// outside the deck have key 0.
	words := 5*rankKeys[n-1]/64 + 1
	// Written before the walk reads it: a fresh page read first maps the kernel's page of zeros,
	// and the write after it interrupts the process's other cores to flush their TLBs.
	clear(e.used[:words])

	entry := func(cat Category, seq [5]cards.Rank) uint32 {
		x := place[cat]<<(ordShift-suitBits) | uint32(cat)<<(catShift-suitBits)
		for i, rk := range seq {
			x |= uint32(rk) << (4 * (4 - i))
		}
		return x
	}
	// Every multiset of five ranks of the deck, each at most four times: counts[i] cards of rank
	// Low+i. Its sum and entry are kept in found until the used sums are known.
	type sumEntry struct{ sum, x uint32 }
	found := make([]sumEntry, 0, multisets(n))
	var counts [13]int
	// walk gives counts[i:] the left cards; sum and m are the keys' sum and the mask of the ranks
	// of counts[:i]. Once no card is left the rest of the ranks are 0, and the last rank takes
	// every card left: the walk visits the multisets, not every prefix of counts.
	var walk func(i, left int, sum uint32, m uint16)
	walk = func(i, left int, sum uint32, m uint16) {
		if left == 0 {
			cat, seq := classify(counts[:n], r.Low)
			if e.used[sum/64]&(1<<(sum%64)) != 0 {
				panic("rules: rank keys collide")
			}
			e.used[sum/64] |= 1 << (sum % 64)
			found = append(found, sumEntry{sum, entry(cat, seq)})
			if cat == HighCard || cat == Straight { // five distinct ranks: also as a flush
				fl := Flush
				if cat == Straight {
					fl = StraightFlush
				}
				e.flush[m] = entry(fl, seq)
			}
			return
		}
		if i == n-1 {
			if left <= 4 {
				counts[i] = left
				walk(n, 0, sum+uint32(left)*rankKeys[i], m|1<<(int(r.Low)-2+i))
				counts[i] = 0
			}
			return
		}
		walk(i+1, left, sum, m)
		for k := 1; k <= 4 && k <= left; k++ {
			counts[i] = k
			walk(i+1, left-k, sum+uint32(k)*rankKeys[i], m|1<<(int(r.Low)-2+i))
		}
		counts[i] = 0
	}
	walk(0, 5, 0, 0)
	k := 0
	for i, w := range e.used[:words] {
		e.below[i] = uint16(k)
		k += bits.OnesCount64(w)
	}
	for _, f := range found {
		w := e.used[f.sum/64]
		e.ranks[int(e.below[f.sum/64])+bits.OnesCount64(w&(1<<(f.sum%64)-1))] = f.x
	}
	return e
}

// multisets returns the number of multisets of five of n ranks, each taken at most four times:
// all multisets of five, less the n made of one rank five times.
func multisets(n int) int {
	return (n+4)*(n+3)*(n+2)*(n+1)*n/120 - n
}

// classify returns the category (without flushes) of five ranks given as counts per rank from
// low, and its distinct ranks in ranking order: larger groups first, then higher rank; an ace-low
// straight lists the ace last, as 1.
func classify(counts []int, low cards.Rank) (Category, [5]cards.Rank) {
	// The distinct ranks by the size of their group, each group from the highest rank down: one
	// pass over the ranks (build classifies every multiset of the deck, at every process's first
	// hand of a ranking).
	var groups [5][5]cards.Rank
	var sizes [5]int
	for j := len(counts) - 1; j >= 0; j-- {
		if k := counts[j]; k > 0 {
			groups[k][sizes[k]] = low + cards.Rank(j)
			sizes[k]++
		}
	}
	var seq [5]cards.Rank
	n := 0
	for size := 4; size >= 1; size-- {
		n += copy(seq[n:], groups[size][:sizes[size]])
	}
	first := counts[int(seq[0]-low)]
	switch {
	case first == 4:
		return Quads, seq
	case first == 3 && n == 2:
		return FullHouse, seq
	case first == 3:
		return Trips, seq
	case first == 2 && n == 3:
		return TwoPair, seq
	case first == 2:
		return Pair, seq
	case seq[0]-seq[4] == 4:
		return Straight, seq
	case seq[0] == cards.Ace && seq[1] == low+3 && seq[4] == low:
		// The ace and the four lowest ranks: the lowest straight, the ace counting as the lowest
		// card (presets.md "lowest straight").
		return Straight, [5]cards.Rank{low + 3, low + 2, low + 1, low, 1}
	}
	return HighCard, seq
}
