package rules

import (
	"testing"

	"github.com/fechado/fechado/cards"
)

// directRanks is the table the evaluator kept before its entries were made dense: indexed by the
// sum of the five cards' keys, every used sum's entry, 0 elsewhere. It is build's walk and
// classify as they were, kept here as the reference the dense table must agree with.
func directRanks(r Ranking) []uint32 {
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
	n := int(cards.Ace-r.Low) + 1
	ranks := make([]uint32, 5*rankKeys[n-1]+1)
	var counts [13]int
	var walk func(i, left int)
	walk = func(i, left int) {
		if i == n {
			if left > 0 {
				return
			}
			cat, seq := classifyByScans(counts[:n], r.Low)
			var sum uint32
			for j, k := range counts[:n] {
				sum += uint32(k) * rankKeys[j]
			}
			x := place[cat]<<(ordShift-suitBits) | uint32(cat)<<(catShift-suitBits)
			for i, rk := range seq {
				x |= uint32(rk) << (4 * (4 - i))
			}
			ranks[sum] = x
			return
		}
		for k := 0; k <= 4 && k <= left; k++ {
			counts[i] = k
			walk(i+1, left-k)
		}
		counts[i] = 0
	}
	walk(0, 5)
	return ranks
}

// classifyByScans is classify as it was, one scan of the ranks for each size of group: the
// reference of directRanks.
func classifyByScans(counts []int, low cards.Rank) (Category, [5]cards.Rank) {
	var seq [5]cards.Rank
	n := 0
	for size := 4; size >= 1; size-- {
		for j := len(counts) - 1; j >= 0; j-- {
			if counts[j] == size {
				seq[n] = low + cards.Rank(j)
				n++
			}
		}
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
		return Straight, [5]cards.Rank{low + 3, low + 2, low + 1, low, 1}
	}
	return HighCard, seq
}

// Eval reads a hand that is not a flush as the entry of its keys' sum, and the sum of five cards'
// keys, cards outside the deck counting 0, is never above five times the largest key. So the
// dense table gives every hand, garbage included, the Value the direct table gave if it agrees
// with it on every sum up to that bound: checked for every deck an Evaluator accepts (the
// presets' and the short decks of a hand's override) under every ranking.
func TestDenseRanksAgreeWithDirectTable(t *testing.T) {
	for low := MinLow; low <= MaxLow; low++ {
		for f := range 8 {
			r := Ranking{Low: low, FlushBeatsFullHouse: f&1 != 0, TripsBeatStraight: f&2 != 0,
				SuitsBreakTies: f&4 != 0}
			e := build(r)
			want := directRanks(r)
			used := 0
			for s, x := range want {
				if got := e.rankEntry(uint32(s)); got != x {
					t.Fatalf("%+v: sum %d: entry %#x, the direct table's %#x", r, s, got, x)
				}
				if x != 0 {
					used++
				}
			}
			if n := int(cards.Ace-low) + 1; used != multisets(n) {
				t.Fatalf("%+v: %d sums used, want %d multisets of %d ranks", r, used, multisets(n), n)
			}
		}
	}
}

// BenchmarkBuildEvaluator builds the tables of the 52-card deck's standard ranking: the cost
// a process pays on its first hand of std-draw.
func BenchmarkBuildEvaluator(b *testing.B) {
	for b.Loop() {
		_ = build(Ranking{Low: cards.Two})
	}
}
