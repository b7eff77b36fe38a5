package rules

import (
	"cmp"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fechado/fechado/cards"
	"pgregory.net/rapid"
)

// The rankings of the presets (presets.md "hand ranking", "lowest straight", "suits break ties").
var (
	std = func(low cards.Rank) Ranking { return Ranking{Low: low} }
	br  = func(low cards.Rank) Ranking { return Ranking{Low: low, FlushBeatsFullHouse: true} }
	tr  = func(low cards.Rank) Ranking {
		return Ranking{Low: low, FlushBeatsFullHouse: true, TripsBeatStraight: true, SuitsBreakTies: true}
	}
)

func hand(t testing.TB, s string) [5]cards.Card {
	t.Helper()
	cs, err := cards.ParseList(s)
	if err != nil || len(cs) != 5 {
		t.Fatalf("bad test hand %q: %v", s, err)
	}
	return [5]cards.Card(cs)
}

// forEachHand calls f with every five-card hand of the deck starting at low: cards in canonical
// order, hands in lexicographic order.
func forEachHand(low cards.Rank, f func(h [5]cards.Card)) {
	d := cards.Deck(low)
	n := len(d)
	var h [5]cards.Card
	for a := 0; a < n; a++ {
		h[0] = d[a]
		for b := a + 1; b < n; b++ {
			h[1] = d[b]
			for c := b + 1; c < n; c++ {
				h[2] = d[c]
				for e := c + 1; e < n; e++ {
					h[3] = d[e]
					for g := e + 1; g < n; g++ {
						h[4] = d[g]
						f(h)
					}
				}
			}
		}
	}
}

func binom(n, k int) int {
	if k < 0 || k > n {
		return 0
	}
	r := 1
	for i := 0; i < k; i++ {
		r = r * (n - i) / (i + 1)
	}
	return r
}

// closedCounts are the closed formulas of digest.md §4.1 for r ranks (the ace-low straight being
// A and the four lowest ranks).
func closedCounts(r int) map[Category]int {
	return map[Category]int{
		StraightFlush: 4 * (r - 3),
		Quads:         4 * r * (r - 1),
		FullHouse:     24 * r * (r - 1),
		Flush:         4*binom(r, 5) - 4*(r-3),
		Straight:      1020 * (r - 3),
		Trips:         64 * r * binom(r-1, 2),
		TwoPair:       144 * binom(r, 2) * (r - 2),
		Pair:          384 * r * binom(r-1, 3),
		HighCard:      1020 * (binom(r, 5) - (r - 3)),
	}
}

// digest.md §4.1: every five-card hand of each deck, counted by category. Category boundaries do
// not depend on the order of the categories, so the standard ranking serves for every deck.
func TestCategoryCounts(t *testing.T) {
	table := map[int]map[Category]int{ // digest.md §4.1 table
		32: {StraightFlush: 20, Quads: 224, FullHouse: 1344, Flush: 204, Straight: 5100, Trips: 10752, TwoPair: 24192, Pair: 107520, HighCard: 52020},
		36: {StraightFlush: 24, Quads: 288, FullHouse: 1728, Flush: 480, Straight: 6120, Trips: 16128, TwoPair: 36288, Pair: 193536, HighCard: 122400},
		40: {StraightFlush: 28, Quads: 360, FullHouse: 2160, Flush: 980, Straight: 7140, Trips: 23040, TwoPair: 51840, Pair: 322560, HighCard: 249900},
		52: {StraightFlush: 40, Quads: 624, FullHouse: 3744, Flush: 5108, Straight: 10200, Trips: 54912, TwoPair: 123552, Pair: 1098240, HighCard: 1302540},
	}
	totals := map[int]int{32: 201376, 36: 376992, 40: 658008, 52: 2598960}
	// digest.md §4.1 "other pack sizes": flush 1,816 and full house 2,640 with 44 cards; flush
	// 3,132 and full house 3,168 with 48.
	spot := map[int]map[Category]int{44: {Flush: 1816, FullHouse: 2640}, 48: {Flush: 3132, FullHouse: 3168}}
	for _, low := range []cards.Rank{7, 6, 5, 4, 3, 2} {
		size := 4 * (int(cards.Ace-low) + 1)
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			e := NewEvaluator(std(low))
			got := map[Category]int{}
			total := 0
			forEachHand(low, func(h [5]cards.Card) {
				got[e.Eval(h).Category()]++
				total++
			})
			want := closedCounts(size / 4)
			if w, ok := table[size]; ok {
				want = w
				if total != totals[size] {
					t.Errorf("%d hands, want %d", total, totals[size])
				}
			}
			if total != binom(size, 5) {
				t.Errorf("%d hands, want C(%d,5) = %d", total, size, binom(size, 5))
			}
			for c := HighCard; c <= StraightFlush; c++ {
				if got[c] != want[c] {
					t.Errorf("%v: %d hands, want %d", c, got[c], want[c])
				}
				if f := closedCounts(size / 4)[c]; got[c] != f {
					t.Errorf("%v: %d hands, closed formula says %d", c, got[c], f)
				}
				if w, ok := spot[size][c]; ok && got[c] != w {
					t.Errorf("%v: %d hands, digest says %d", c, got[c], w)
				}
			}
		})
	}
}

// Distinct hand values: 7462 in 52 cards under the standard ranking; 1404 (36 cards) and 840
// (32 cards) under br-fechado; with suits breaking ties (tr-kapali) every hand is distinct. Under
// -short tr-kapali is walked on its own 32-card deck only: its 40- and 52-card walks repeat the
// same check on more hands (long: true), and make test-long runs them.
func TestDistinctValues(t *testing.T) {
	tests := []struct {
		name string
		r    Ranking
		want int
		long bool
	}{
		{"std-draw 52", std(2), 7462, false},
		{"br-fechado 36", br(6), 1404, false},
		{"br-fechado 32", br(7), 840, false},
		// presets.md "suits break ties" tr-kapali: hands never tie, so each hand is its own value.
		{"tr-kapali 32", tr(7), 201376, false},
		{"tr-kapali 40", tr(5), 658008, true},
		{"tr-kapali 52", tr(2), 2598960, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.long && testing.Short() {
				t.Skip("the same check as tr-kapali 32 on a larger deck: make test-long runs it")
			}
			e := NewEvaluator(tt.r)
			seen := map[Value]bool{}
			forEachHand(tt.r.Low, func(h [5]cards.Card) { seen[e.Eval(h)] = true })
			if len(seen) != tt.want {
				t.Errorf("%d distinct values, want %d", len(seen), tt.want)
			}
		})
	}
}

// The complete order of every hand of a deck, as a public checksum: each hand written as its five
// cards without spaces (canonical order, hands in lexicographic order), stable-sorted weakest
// first, joined with "\n", no trailing newline. Under -short only the 36-card walk runs: the
// 52-card one sorts every hand of the deck (long: true), whose standard order the short suite
// still checks through its distinct values and category counts (TestDistinctValues,
// TestCategoryCounts), the rapid property against the literal reading, and the walk of
// TestOrderAgainstReference on a smaller deck; make test-long runs it.
func TestOrderChecksums(t *testing.T) {
	tests := []struct {
		name string
		r    Ranking
		want string
		long bool
	}{
		{"std-draw 52", std(2), "488cdd27873395ba75205cd02fb9d6b2", true},
		{"br-fechado 36", br(6), "5b46b727ce4526a68d41b0e55939353c", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.long && testing.Short() {
				t.Skip("the 52-card walk: make test-long runs it")
			}
			if got := orderChecksum(tt.r); got != tt.want {
				t.Errorf("md5 %s, want %s", got, tt.want)
			}
		})
	}
}

// valued is a hand with its value.
type valued struct {
	v Value
	h [5]cards.Card
}

// sortedHands returns every hand of the deck from r.Low up with its value under r, ordered by
// value; hands of one value stay in forEachHand's order.
func sortedHands(r Ranking) []valued {
	e := NewEvaluator(r)
	var all []valued
	forEachHand(r.Low, func(h [5]cards.Card) { all = append(all, valued{e.Eval(h), h}) })
	slices.SortStableFunc(all, func(a, b valued) int { return cmp.Compare(a.v, b.v) })
	return all
}

func orderChecksum(r Ranking) string {
	all := sortedHands(r)
	sum := md5.New()
	buf := make([]byte, 0, 11)
	for i, x := range all {
		buf = buf[:0]
		if i > 0 {
			buf = append(buf, '\n')
		}
		for _, c := range x.h {
			buf = append(buf, c.String()...)
		}
		sum.Write(buf)
	}
	return hex.EncodeToString(sum.Sum(nil))
}

// Pairs of hands where the first beats the second, and pairs that tie.
func TestOrder(t *testing.T) {
	tests := []struct {
		rule          string
		r             Ranking
		better, worse string
	}{
		{`presets.md "hand ranking" std-draw: straight flush above four of a kind`, std(2), "9h 8h 7h 6h 5h", "Ac Ad Ah As Kc"},
		{`presets.md "hand ranking" std-draw: four of a kind above full house`, std(2), "2c 2d 2h 2s 3c", "Ac Ad Ah Ks Kc"},
		{`presets.md "hand ranking" std-draw: full house above flush`, std(2), "2c 2d 2h 3s 3c", "Ah Kh Qh Jh 9h"},
		{`presets.md "hand ranking" std-draw: flush above straight`, std(2), "2h 3h 4h 5h 7h", "Ac Kd Qh Js Tc"},
		{`presets.md "hand ranking" std-draw: straight above three of a kind`, std(2), "Ac 2d 3h 4s 5c", "Ac Ad Ah Ks Qc"},
		{`presets.md "hand ranking" std-draw: three of a kind above two pair`, std(2), "2c 2d 2h 3s 4c", "Ac Ad Kh Ks Qc"},
		{`presets.md "hand ranking" std-draw: two pair above pair`, std(2), "2c 2d 3h 3s 4c", "Ac Ad Kh Qs Jc"},
		{`presets.md "hand ranking" std-draw: pair above high card`, std(2), "2c 2d 3h 4s 5c", "Ac Kd Qh Js 9c"},
		{`presets.md "lowest straight" std-draw: A-2-3-4-5 is the lowest straight`, std(2), "2c 3d 4h 5s 6c", "Ac 2d 3h 4s 5c"},
		{`presets.md "lowest straight" std-draw: A-2-3-4-5 is the lowest straight flush`, std(2), "2c 3c 4c 5c 6c", "Ah 2h 3h 4h 5h"},
		{`presets.md "lowest straight" std-draw: the lowest straight flush is still a straight flush`, std(2), "Ah 2h 3h 4h 5h", "Ac Ad Ah As Kc"},
		{`presets.md "hand ranking" std-draw: ace-high straight is the highest straight`, std(2), "Ac Kd Qh Js Tc", "Kc Qd Jh Ts 9c"},
		{`poker: higher pair wins`, std(2), "Qc Qd 2h 3s 4c", "Jc Jd Ah Ks Qc"},
		{`poker: equal pairs, kickers decide`, std(2), "Jc Jd Ah 3s 2c", "Jh Js Kh Qs Tc"},
		{`poker: equal pairs, last kicker decides`, std(2), "Jc Jd Ah Ks 3c", "Jh Js Ad Kc 2c"},
		{`poker: two pair, higher top pair wins`, std(2), "Kc Kd 2h 2s 3c", "Qc Qd Jh Js Ac"},
		{`poker: two pair, equal top pair, lower pair decides`, std(2), "Kc Kd 3h 3s 2c", "Kh Ks 2h 2s Ac"},
		{`poker: two pair, equal pairs, kicker decides`, std(2), "Kc Kd 3h 3s 5c", "Kh Ks 3c 3d 4c"},
		{`poker: full house by its three of a kind`, std(2), "3c 3d 3h 2s 2c", "2c 2d 2h As Ac"},
		{`poker: four of a kind, kicker decides in the same quads`, std(2), "9c 9d 9h 9s Ac", "9c 9d 9h 9s Kc"},
		{`poker: high card, last card decides`, std(2), "Ac Kd Qh Js 9c", "Ad Kc Qs Jh 8d"},
		{`poker: flush, highest card first`, std(2), "Ah Th 9h 8h 6h", "Ks Qs Js 9s 8s"},
		{`poker: three of a kind, rank first`, std(2), "4c 4d 4h 2s 3c", "3c 3d 3h As Kc"},

		{`presets.md "hand ranking" br-fechado: flush above full house`, br(7), "Ah Jh 9h 8h 7h", "Ac Ad Ah Ks Kc"},
		{`presets.md "hand ranking" br-fechado: four of a kind above flush`, br(7), "7c 7d 7h 7s 8c", "Ah Kh Qh Jh 9h"},
		{`presets.md "hand ranking" br-fechado: full house above straight`, br(7), "7c 7d 7h 8s 8c", "Ac Kd Qh Js Tc"},
		{`presets.md "hand ranking" br-fechado: straight above three of a kind`, br(7), "Ac 7d 8h 9s Tc", "Ac Ad Ah Ks Qc"},
		{`presets.md "lowest straight" br-fechado: A-7-8-9-T in 32 cards is the lowest straight`, br(7), "7c 8d 9h Ts Jc", "Ac 7d 8h 9s Tc"},
		{`presets.md "lowest straight" br-fechado: A-7-8-9-T is the lowest straight flush`, br(7), "7s 8s 9s Ts Js", "Ah 7h 8h 9h Th"},
		{`presets.md "lowest straight" br-fechado: A-6-7-8-9 in 36 cards`, br(6), "6c 7d 8h 9s Tc", "Ac 6d 7h 8s 9c"},
		{`presets.md "lowest straight" br-fechado: A-3-4-5-6 in 48 cards`, br(3), "3c 4d 5h 6s 7c", "Ac 3d 4h 5s 6c"},
		{`presets.md "lowest straight" br-fechado: A-7-8-9-T is a straight, above any three of a kind`, br(7), "Ac 7d 8h 9s Tc", "Ac Ad Ah 7s 8c"},
		{`presets.md "hand ranking" br-online: standard, full house above flush`, std(2), "2c 2d 2h 3s 3c", "Ah Kh Qh Jh 9h"},

		{`presets.md "hand ranking" tr-kapali: three of a kind above straight`, tr(7), "7c 7d 7h 8s 9c", "Ac Kd Qh Js Tc"},
		{`presets.md "hand ranking" tr-kapali: straight above two pair`, tr(7), "Ac 7d 8h 9s Tc", "Ac Ad Kh Ks Qc"},
		{`presets.md "hand ranking" tr-kapali: full house above three of a kind`, tr(7), "7c 7d 7h 8s 8c", "Ac Ad Ah Ks Qc"},
		{`presets.md "hand ranking" tr-kapali: flush above full house`, tr(7), "7h 8h 9h Jh Qh", "Ac Ad Ah Ks Kc"},
		{`presets.md "hand ranking" tr-kapali: four of a kind above flush`, tr(7), "7c 7d 7h 7s 8c", "Ah Kh Qh Jh 9h"},
		{`presets.md "hand ranking" tr-kapali: straight flush above four of a kind`, tr(7), "Ah 7h 8h 9h Th", "Ac Ad Ah As Kc"},
		{`presets.md "lowest straight" tr-kapali: A-7-8-9-T below 7-8-9-T-J`, tr(7), "7c 8c 9d Tc Jc", "Ah 7s 8h 9s Th"},
		{`presets.md "suits break ties" tr-kapali: Ah Ad beats As Ac with the same ranks`, tr(7), "Ah Ad Kc Qc Jc", "As Ac Kc Qc Jc"},
		{`presets.md "suits break ties" tr-kapali: hearts > spades, first card`, tr(7), "Ah Kc Qc Jc 9c", "As Kh Qh Jh 9h"},
		{`presets.md "suits break ties" tr-kapali: spades > diamonds`, tr(7), "As Kc Qc Jc 9c", "Ad Kh Qh Jh 9h"},
		{`presets.md "suits break ties" tr-kapali: diamonds > clubs`, tr(7), "Ad Kc Qc Jc 9c", "Ac Kh Qh Jh 9h"},
		{`presets.md "suits break ties" tr-kapali: the first differing suit decides`, tr(7), "Ah Kd Qc Jc 9c", "Ah Kc Qh Jh 9h"},
		{`presets.md "suits break ties" tr-kapali: larger groups first (the pair before the ace)`, tr(7), "8h 8c Ac Kc Qc", "8s 8d Ah Kh Qh"},
		{`presets.md "suits break ties" tr-kapali: higher pair first in two pair`, tr(7), "Kh Kc 8c 8d 9c", "Ks Kd 8h 8s 9h"},
		{`presets.md "suits break ties" tr-kapali: within a group the higher suit first`, tr(7), "Kh Kc 7c 8c 9c", "Ks Kd 7c 8c 9c"},
		{`presets.md "suits break ties" tr-kapali: flushes of equal ranks by suit`, tr(7), "Ah Jh 9h 8h 7h", "As Js 9s 8s 7s"},
		// Reading: in an ace-low straight the ace is the lowest card, so it comes last in ranking
		// order and the suit of the ten (in 32 cards) is compared first.
		{`presets.md "suits break ties" tr-kapali: the ace of A-7-8-9-T is compared last`, tr(7), "Ac 7d 8d 9d Td", "Ah 7c 8d 9d Td"},
		{`presets.md "suits break ties" tr-kapali: suits only among equal ranks`, tr(7), "Ac Kc Qc Jc 9c", "Ah Kh Qh Jh 8h"},
		{`presets.md "suits break ties" tr-kapali: in 40 cards too`, tr(5), "5h 5d 6c 7c 8c", "5s 5c 6h 7h 8h"},
	}
	for _, tt := range tests {
		e := NewEvaluator(tt.r)
		b, w := e.Eval(hand(t, tt.better)), e.Eval(hand(t, tt.worse))
		if b <= w {
			t.Errorf("%s: %s (%s, %#x) should beat %s (%s, %#x)", tt.rule, tt.better, e.Describe(b), b,
				tt.worse, e.Describe(w), w)
		}
	}
}

func TestTies(t *testing.T) {
	tests := []struct {
		rule string
		r    Ranking
		a, b string
	}{
		{`presets.md "suits break ties" std-draw: no; equal ranks split`, std(2), "Ah Kd Qc Js 9h", "As Kc Qd Jh 9d"},
		{`presets.md "suits break ties" std-draw: equal flushes split`, std(2), "Ah Jh 9h 7h 5h", "As Js 9s 7s 5s"},
		{`presets.md "suits break ties" std-draw: equal straights split`, std(2), "Ac 2d 3h 4s 5c", "Ad 2c 3c 4c 5d"},
		{`presets.md "suits break ties" br-fechado: no`, br(7), "Ah Ad Kc Qc Jc", "As Ac Kd Qd Jd"},
		{`presets.md "suits break ties" br-fechado: no, equal A-7-8-9-T`, br(7), "Ah 7d 8d 9d Td", "As 7c 8c 9c Tc"},
		{`the order of the cards does not matter`, tr(7), "Ah Ad Kc Qc Jc", "Jc Qc Kc Ad Ah"},
	}
	for _, tt := range tests {
		e := NewEvaluator(tt.r)
		a, b := e.Eval(hand(t, tt.a)), e.Eval(hand(t, tt.b))
		if a != b {
			t.Errorf("%s: %s (%#x) and %s (%#x) should tie", tt.rule, tt.a, a, tt.b, b)
		}
	}
}

func TestCategoryAndDescribe(t *testing.T) {
	tests := []struct {
		r        Ranking
		hand     string
		cat      Category
		describe string
	}{
		{std(2), "Ac Kd 9h 7s 5c", HighCard, "ace high"},
		{std(2), "Jc Jd 2h 3s 4c", Pair, "pair of jacks"},
		{std(2), "Kc Kd 4h 4s 2c", TwoPair, "two pair, kings and fours"},
		{std(2), "7c 7d 7h Ks 2c", Trips, "three sevens"},
		{std(2), "2c 3d 4h 5s 6c", Straight, "straight, six high"},
		{std(2), "Ac 2d 3h 4s 5c", Straight, "straight, ace low"},
		{std(2), "Ah Jh 9h 7h 5h", Flush, "flush, ace high"},
		{std(2), "Kc Kd Kh 4s 4c", FullHouse, "full house, kings over fours"},
		{std(2), "6c 6d 6h 6s 2c", Quads, "four sixes"},
		{std(2), "9h 8h 7h 6h 5h", StraightFlush, "straight flush, nine high"},
		{std(2), "Ah 2h 3h 4h 5h", StraightFlush, "straight flush, ace low"},
		{std(2), "Ah Kh Qh Jh Th", StraightFlush, "royal flush"},
		{br(7), "Ac 7d 8h 9s Tc", Straight, "straight, ace low"},
		{br(7), "As 7s 8s 9s Ts", StraightFlush, "straight flush, ace low"},
		{br(7), "Ac Kd 9h 8s 7c", HighCard, "ace high"},
		{tr(7), "Ac Ad Kh Ks 7c", TwoPair, "two pair, aces and kings"},
		{tr(7), "Tc Td Th Ks 7c", Trips, "three tens"},
	}
	for _, tt := range tests {
		e := NewEvaluator(tt.r)
		v := e.Eval(hand(t, tt.hand))
		if got := v.Category(); got != tt.cat {
			t.Errorf("%s: category %v, want %v", tt.hand, got, tt.cat)
		}
		if got := e.Describe(v); got != tt.describe {
			t.Errorf("%s: Describe = %q, want %q", tt.hand, got, tt.describe)
		}
	}
	names := []string{"high card", "pair", "two pair", "three of a kind", "straight", "flush",
		"full house", "four of a kind", "straight flush"}
	for i, want := range names {
		if got := (HighCard + Category(i)).String(); got != want {
			t.Errorf("Category(%d).String() = %q, want %q", HighCard+Category(i), got, want)
		}
	}
}

// presets.md "minimum to open" and "qualifying hand": any category above a pair qualifies; a
// pair qualifies if its rank is at least the named one.
func TestOpeners(t *testing.T) {
	tests := []struct {
		r       Ranking
		hand    string
		min     cards.Rank
		pair    bool // PairAtLeast(min)
		twoPair bool
	}{
		{br(7), "Jc Jd 7h 8s 9c", cards.Jack, true, false},
		{br(7), "Jc Jd 7h 8s 9c", cards.Queen, false, false},
		{br(7), "Tc Td Ah Ks Qc", cards.Jack, false, false},
		{br(7), "Ac Kd Qh Js 9c", cards.Jack, false, false},
		{br(7), "7c 7d 8h 8s 9c", cards.Ace, true, true},
		{br(7), "7c 7d 7h 8s 9c", cards.Ace, true, true},
		{br(7), "Ac 7d 8h 9s Tc", cards.Ace, true, true},
		{br(7), "Ah Jh 9h 8h 7h", cards.Ace, true, true},
		{tr(7), "Kc Kd 7h 8s 9c", cards.King, true, false}, // tr-kapali: "per rua"
		{tr(7), "Qc Qd Ah Ks 9c", cards.King, false, false},
		{std(2), "Jc Jd 2h 3s 4c", cards.Jack, true, false}, // std-draw: jacks or better
		{std(2), "Ac Ad Ah As 2c", cards.Jack, true, true},
	}
	for _, tt := range tests {
		e := NewEvaluator(tt.r)
		v := e.Eval(hand(t, tt.hand))
		if got := e.PairAtLeast(v, tt.min); got != tt.pair {
			t.Errorf("%s: PairAtLeast(%v) = %v, want %v", tt.hand, tt.min, got, tt.pair)
		}
		if got := e.TwoPairAtLeast(v); got != tt.twoPair {
			t.Errorf("%s: TwoPairAtLeast = %v, want %v", tt.hand, got, tt.twoPair)
		}
	}
	e := NewEvaluator(std(2))
	if e.PairAtLeast(0, cards.Two) || e.TwoPairAtLeast(0) {
		t.Error("the zero Value qualifies")
	}
}

func TestEvalSliceErrors(t *testing.T) {
	tests := []struct {
		r    Ranking
		hand []cards.Card
		want string
	}{
		{br(7), []cards.Card{cards.MustParse("Ah"), cards.MustParse("Kh"), cards.MustParse("Qh"), cards.MustParse("Jh")}, "invalid hand: 4 cards, want 5"},
		{br(7), nil, "invalid hand: 0 cards, want 5"},
		{br(7), []cards.Card{cards.MustParse("Ah"), cards.MustParse("Kh"), cards.MustParse("Qh"), cards.MustParse("Jh"), cards.MustParse("Th"), cards.MustParse("9h")}, "invalid hand: 6 cards, want 5"},
		{br(7), []cards.Card{cards.MustParse("Ah"), cards.MustParse("Kh"), cards.MustParse("Ah"), cards.MustParse("Jh"), cards.MustParse("Th")}, "invalid hand: Ah appears twice"},
		{br(7), []cards.Card{cards.MustParse("Ah"), cards.MustParse("Kh"), cards.MustParse("Qh"), cards.MustParse("Jh"), cards.MustParse("6h")}, "invalid hand: 6h is not in the 32-card deck (7 to A)"},
		{std(2), []cards.Card{cards.MustParse("Ah"), cards.MustParse("Kh"), cards.MustParse("Qh"), cards.MustParse("Jh"), 52}, "invalid hand: Card(52) is not a card"},
	}
	for _, tt := range tests {
		_, err := NewEvaluator(tt.r).EvalSlice(tt.hand)
		if err == nil || err.Error() != tt.want || !errors.Is(err, ErrInvalidHand) {
			t.Errorf("%v: error %v, want %q wrapping ErrInvalidHand", tt.hand, err, tt.want)
		}
	}
	good := hand(t, "Ac 7d 8h 9s Tc")
	if _, err := NewEvaluator(br(7)).EvalSlice(good[:]); err != nil {
		t.Errorf("good hand: %v", err)
	}
}

func TestRankingValidate(t *testing.T) {
	for low := cards.Rank(0); low <= cards.Ace+1; low++ {
		err := Ranking{Low: low}.Validate()
		if ok := low >= 2 && low <= 9; ok != (err == nil) {
			t.Errorf("Low %d: Validate() = %v", low, err)
		}
	}
	if a, b := NewEvaluator(tr(7)), NewEvaluator(tr(7)); a != b {
		t.Error("NewEvaluator does not reuse the evaluator of a ranking")
	}
}

// NewEvaluator and Eval are safe for concurrent use (run with -race).
func TestConcurrentUse(t *testing.T) {
	r := Ranking{Low: cards.Eight, TripsBeatStraight: true} // used by no other test
	h := hand(t, "Ah Kh Qh Jh Th")
	done := make(chan Value)
	for range 4 {
		go func() { done <- NewEvaluator(r).Eval(h) }()
	}
	first := <-done
	for range 3 {
		if v := <-done; v != first {
			t.Errorf("Eval gave %#x and %#x", first, v)
		}
	}
}

// Eval must not panic or index out of range on garbage (cards outside the deck, repeats).
func TestEvalGarbage(t *testing.T) {
	e := NewEvaluator(tr(7))
	for _, h := range [][5]cards.Card{{0, 0, 0, 0, 0}, {51, 51, 51, 51, 51}, {255, 254, 60, 1, 2}, {2, 6, 10, 14, 18}} {
		_ = e.Eval(h)
	}
	if n := testing.AllocsPerRun(100, func() { _ = e.Eval([5]cards.Card{51, 47, 43, 39, 35}) }); n != 0 {
		t.Errorf("Eval allocates %v times", n)
	}
}

// refKey is a slow, literal reading of the rules: the place of the category under the ranking,
// the five ranks in ranking order (larger groups first, then higher rank; the ace of the lowest
// straight last, as 1), then the five suit strengths in that order, the higher suit first within a
// group (hearts 3 > spades 2 > diamonds 1 > clubs 0), only when suits break ties.
func refKey(r Ranking, h [5]cards.Card) []int {
	count := map[cards.Rank]int{}
	for _, c := range h {
		count[c.Rank()]++
	}
	flush := true
	for _, c := range h {
		flush = flush && c.Suit() == h[0].Suit()
	}
	rank := func(c cards.Card) int { return int(c.Rank()) }
	strength := map[cards.Suit]int{cards.Hearts: 3, cards.Spades: 2, cards.Diamonds: 1, cards.Clubs: 0}
	rs := []int{}
	for rk := range count {
		rs = append(rs, int(rk))
	}
	slices.Sort(rs)
	straight := false
	if len(rs) == 5 {
		if rs[4]-rs[0] == 4 {
			straight = true
		}
		low := int(r.Low)
		if slices.Equal(rs, []int{low, low + 1, low + 2, low + 3, 14}) {
			straight = true
			rank = func(c cards.Card) int {
				if c.Rank() == cards.Ace {
					return 1
				}
				return int(c.Rank())
			}
		}
	}
	cs := h
	slices.SortFunc(cs[:], func(a, b cards.Card) int {
		if d := count[b.Rank()] - count[a.Rank()]; d != 0 {
			return d
		}
		if d := rank(b) - rank(a); d != 0 {
			return d
		}
		return strength[b.Suit()] - strength[a.Suit()]
	})
	var cat Category
	switch first, n := count[cs[0].Rank()], len(count); {
	case straight && flush:
		cat = StraightFlush
	case first == 4:
		cat = Quads
	case first == 3 && n == 2:
		cat = FullHouse
	case flush:
		cat = Flush
	case straight:
		cat = Straight
	case first == 3:
		cat = Trips
	case n == 3:
		cat = TwoPair
	case n == 4:
		cat = Pair
	default:
		cat = HighCard
	}
	places := map[Category]int{HighCard: 1, Pair: 2, TwoPair: 3, Trips: 4, Straight: 5, Flush: 6, FullHouse: 7, Quads: 8, StraightFlush: 9}
	if r.TripsBeatStraight {
		places[Trips], places[Straight] = places[Straight], places[Trips]
	}
	if r.FlushBeatsFullHouse {
		places[Flush], places[FullHouse] = places[FullHouse], places[Flush]
	}
	key := []int{places[cat]}
	for _, c := range cs {
		key = append(key, rank(c))
	}
	if r.SuitsBreakTies {
		for _, c := range cs {
			key = append(key, strength[c.Suit()])
		}
	}
	return key
}

func genRanking() *rapid.Generator[Ranking] {
	return rapid.Custom(func(t *rapid.T) Ranking {
		return Ranking{
			Low:                 cards.Rank(rapid.IntRange(int(MinLow), int(MaxLow)).Draw(t, "low")),
			FlushBeatsFullHouse: rapid.Bool().Draw(t, "flushBeatsFullHouse"),
			TripsBeatStraight:   rapid.Bool().Draw(t, "tripsBeatStraight"),
			SuitsBreakTies:      rapid.Bool().Draw(t, "suitsBreakTies"),
		}
	})
}

func genHand(low cards.Rank) *rapid.Generator[[5]cards.Card] {
	return rapid.Custom(func(t *rapid.T) [5]cards.Card {
		// Flushes and pairs are rare among random cards: draw ranks and suits from small pools
		// now and then.
		ranks := rapid.SliceOfN(rapid.IntRange(int(low), int(cards.Ace)), 5, 5).Draw(t, "ranks")
		suits := rapid.SliceOfN(rapid.IntRange(0, 3), 5, 5).Draw(t, "suits")
		var h [5]cards.Card
		var seen cards.Set
		for i := range h {
			c := cards.New(cards.Rank(ranks[i]), cards.Suit(suits[i]))
			for seen.Has(c) { // the next free card of the deck, wrapping around
				c++
				if c == cards.NumCards {
					c = cards.New(low, cards.Clubs)
				}
			}
			seen = seen.Add(c)
			h[i] = c
		}
		return h
	})
}

func TestEvalProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := genRanking().Draw(t, "ranking")
		e := NewEvaluator(r)
		h := genHand(r.Low).Draw(t, "hand")
		v := e.Eval(h)

		// Eval is invariant under permutation of the five cards.
		p := rapid.Permutation(h[:]).Draw(t, "permutation")
		if w := e.Eval([5]cards.Card(p)); w != v {
			t.Fatalf("Eval(%v) = %#x, Eval(%v) = %#x", h, v, p, w)
		}
		// EvalSlice agrees with Eval.
		if w, err := e.EvalSlice(p); err != nil || w != v {
			t.Fatalf("EvalSlice(%v) = %#x, %v; Eval = %#x", p, w, err, v)
		}
		// Without suits breaking ties, a consistent renaming of the suits changes nothing.
		if !r.SuitsBreakTies {
			perm := rapid.Permutation([]cards.Suit{0, 1, 2, 3}).Draw(t, "suits")
			var q [5]cards.Card
			for i, c := range h {
				q[i] = cards.New(c.Rank(), perm[c.Suit()])
			}
			if w := e.Eval(q); w != v {
				t.Fatalf("suits renamed %v: Eval(%v) = %#x, Eval(%v) = %#x", perm, h, v, q, w)
			}
		}
		// The order agrees with a literal reading of the rules.
		g := genHand(r.Low).Draw(t, "other")
		w := e.Eval(g)
		if got, want := cmp.Compare(v, w), slices.Compare(refKey(r, h), refKey(r, g)); got != want {
			t.Fatalf("%v (%s) vs %v (%s): Eval compares %d, the rules %d (%v vs %v)", h,
				e.Describe(v), g, e.Describe(w), got, want, refKey(r, h), refKey(r, g))
		}
		if v.Category() != Category(0) && e.Describe(v) == "" {
			t.Fatalf("no description for %v", h)
		}
	})
}

// The whole order of some decks against the literal reading, hand by hand against a neighbour.
// Under -short tr-kapali's order is walked on the 24-card deck: its walks of larger decks repeat
// that check on more hands, and make test-long runs them.
func TestOrderAgainstReference(t *testing.T) {
	rankings := []Ranking{br(7), std(9), tr(9)}
	if !testing.Short() {
		rankings = append(rankings, tr(7), tr(5), tr(6))
	}
	for _, r := range rankings {
		all := sortedHands(r)
		for i := 1; i < len(all); i++ {
			a, b := refKey(r, all[i-1].h), refKey(r, all[i].h)
			if c := slices.Compare(a, b); (all[i-1].v == all[i].v) != (c == 0) || c > 0 {
				t.Fatalf("%+v: %v then %v: rules compare %d", r, all[i-1].h, all[i].h, c)
			}
		}
	}
}

func BenchmarkEval(b *testing.B) {
	benchmarks := []struct {
		name string
		r    Ranking
	}{
		{"std-52", std(2)},
		{"br-fechado-32", br(7)},
		{"tr-kapali-40-suits", tr(5)},
		{"br-fechado-36", br(6)},
		{"tr-kapali-32-suits", tr(7)},
	}
	for _, bm := range benchmarks {
		b.Run(bm.name, func(b *testing.B) { benchEval(b, NewEvaluator(bm.r), bm.r.Low) })
	}
}

// benchEval evaluates random five-card hands of the deck from low up with e, and reports evals/s.
func benchEval(b *testing.B, e *Evaluator, low cards.Rank) {
	const n = 1 << 14
	hands := make([][5]cards.Card, n)
	rng := rand.New(rand.NewPCG(1, 2))
	deck := cards.Deck(low)
	for i := range hands {
		rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
		hands[i] = [5]cards.Card(deck[:5])
	}
	var sink Value
	i := 0
	for b.Loop() {
		sink ^= e.Eval(hands[i&(n-1)])
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "evals/s")
	if sink == 1 {
		b.Log(sink)
	}
}
