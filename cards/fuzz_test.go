package cards

import (
	"slices"
	"testing"
)

// FuzzParseList checks the card-list reader on any text: it never panics, every card it returns
// is valid, and writing the list back with Join reads back the same cards.
func FuzzParseList(f *testing.F) {
	for _, s := range []string{"Ah Kh Qh Jh Th", "AhKhQhJhTh", "2c,3d, 4h\t5s", "", " ", "10h", "Ah K",
		"ahkh", "AhKh Qh", "Xx", "A", "AhK", "\xff\xfe", "Ah\u00a0Kh"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cs, err := ParseList(s)
		if err != nil {
			return
		}
		for _, c := range cs {
			if !c.Valid() {
				t.Fatalf("ParseList(%q) returned invalid card %d", s, c)
			}
		}
		back, err := ParseList(Join(cs, " "))
		if err != nil || !slices.Equal(back, cs) {
			t.Fatalf("ParseList(%q) = %v; Join and ParseList give %v, %v", s, cs, back, err)
		}
	})
}

// FuzzShuffle checks the shuffle for any seed, any deck and any cut: the result is a
// permutation of the deck, the input is not modified, and the same seed gives the same order.
func FuzzShuffle(f *testing.F) {
	v := vectorSeed()
	f.Add(v[:], uint8(0), 0)         // the deck from 2
	f.Add(v[:], uint8(Seven-Two), 5) // the deck from 7
	f.Add(make([]byte, SeedSize), uint8(Ace-Two), 3)
	f.Add([]byte{0xff}, uint8(King-Two), -1)
	f.Fuzz(func(t *testing.T, seedBytes []byte, lowByte uint8, cut int) {
		var seed Seed // the first 32 bytes, zero-padded
		copy(seed[:], seedBytes)
		low := Two + Rank(lowByte%13) // 0 is 2, 5 is 7, 12 is ace
		deck := Deck(low)
		in := slices.Clone(deck)
		out := Shuffle(seed, in)
		if !slices.Equal(in, deck) {
			t.Fatal("Shuffle modified its input")
		}
		if len(out) != len(deck) || SetOf(out...) != DeckSet(low) || SetOf(out...).Len() != len(deck) {
			t.Fatalf("low %s: %s is not a permutation of the deck", low, Join(out, " "))
		}
		if again := Shuffle(seed, deck); !slices.Equal(again, out) {
			t.Fatal("the same seed gave two orders")
		}
		k := cut % len(deck)
		if k < 0 {
			k = -k
		}
		c, err := Cut(out, k)
		if err != nil {
			t.Fatalf("Cut(%d) of %d cards: %v", k, len(out), err)
		}
		if !slices.Equal(c, append(slices.Clone(out[k:]), out[:k]...)) || SetOf(c...) != DeckSet(low) {
			t.Fatalf("Cut(%d) is not old[k:] + old[:k]", k)
		}
	})
}
