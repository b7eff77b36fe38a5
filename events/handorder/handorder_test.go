package handorder

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// chain returns n hands of table t numbered from 1, each naming the one before when named is set.
func chain(t string, n int, named bool) []Link {
	var ls []Link
	at := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	for i := range n {
		l := Link{Table: t, Hand: fmt.Sprintf("%s-%03d", t, i+1), Number: i + 1, Start: at.Add(time.Duration(i) * time.Minute)}
		if named && i > 0 {
			l.Previous = ls[i-1].Hand
		}
		ls = append(ls, l)
	}
	return ls
}

// Whatever order two tables' hands arrive in (with and without previous), the Sequencer releases
// each table's hands in the order of their chain, as Sort puts them, and holds only the hands
// that came before the hand before them.
func TestSequencerReleasesTheChainOrderOfAnyArrival(t *testing.T) {
	for _, named := range []bool{true, false} {
		base := append(chain("a", 30, named), chain("b", 20, named)...)
		for seed := range uint64(200) {
			r := rand.New(rand.NewPCG(seed, 1))
			in := slices.Clone(base)
			r.Shuffle(len(in), func(i, j int) { in[i], in[j] = in[j], in[i] })
			got := map[string][]string{}
			s := Sequencer[string]{Release: func(l Link, v string) {
				if v != l.Hand {
					t.Fatalf("released %s with the value of %s", l.Hand, v)
				}
				got[l.Table] = append(got[l.Table], l.Hand)
			}}
			for _, l := range in {
				s.Add(l, l.Hand)
			}
			if s.Held() != 0 {
				t.Fatalf("named %v seed %d: %d hands still held with every chain whole", named, seed, s.Held())
			}
			s.Close()
			for _, tb := range []string{"a", "b"} {
				var want []string
				for _, l := range base {
					if l.Table == tb {
						want = append(want, l.Hand)
					}
				}
				if !slices.Equal(got[tb], want) {
					t.Fatalf("named %v seed %d: table %s released %v", named, seed, tb, got[tb])
				}
				var sorted []string
				for _, i := range SortTables(in) {
					if in[i].Table == tb {
						sorted = append(sorted, in[i].Hand)
					}
				}
				if !slices.Equal(sorted, want) {
					t.Fatalf("named %v seed %d: Sort gives %v", named, seed, sorted)
				}
			}
		}
	}
}

// A chain with a hand missing (never stored, or its first line unreadable): the hands after
// the gap wait until Close, which releases them in their order after the last released, as
// Sort does; a table whose numbering starts again at 1 opens a new chain at once.
func TestSequencerGapsAndNewChains(t *testing.T) {
	ls := chain("a", 10, true)
	gap := append(slices.Clone(ls[:4]), ls[5:]...)
	again := chain("a", 3, true)
	for i := range again {
		again[i].Hand = "a-again-" + fmt.Sprint(i)
		if i > 0 {
			again[i].Previous = again[i-1].Hand
		}
		again[i].Start = ls[9].Start.Add(time.Hour + time.Duration(i)*time.Minute)
	}
	var got []string
	s := Sequencer[int]{Release: func(l Link, _ int) { got = append(got, l.Hand) }}
	for _, l := range slices.Concat(gap[4:], gap[:4]) {
		s.Add(l, 0)
	}
	if s.Held() != 5 {
		t.Errorf("%d held after the gap, want the 5 hands after it", s.Held())
	}
	for _, l := range again {
		s.Add(l, 0)
	}
	s.Close()
	want := []string{"a-001", "a-002", "a-003", "a-004", "a-again-0", "a-again-1", "a-again-2", "a-006", "a-007", "a-008", "a-009", "a-010"}
	if !slices.Equal(got, want) {
		t.Errorf("released %v\nwant %v", got, want)
	}
}
