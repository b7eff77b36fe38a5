package cards

import (
	"strings"
	"testing"
)

func vectorSeed() Seed {
	var s Seed
	for i := range s {
		s[i] = byte(i)
	}
	return s
}

// The test vectors of events-v1.md §3.
func TestShuffleVectors(t *testing.T) {
	seed := vectorSeed()
	if got, want := seed.Commitment(), "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"; got != want {
		t.Fatalf("commitment = %s, want %s", got, want)
	}
	for _, tc := range []struct {
		low  Rank
		n    int
		want string
	}{
		{Two, 52, "8c 9c Qc 8d Jc 7s 2h 3h 5s 5h"},
		{Seven, 32, "7c Ks Kc Ts Jd Kd Ad Tc 7h Qc"},
	} {
		deck := Shuffle(seed, Deck(tc.low))
		if len(deck) != tc.n {
			t.Fatalf("low %v: %d cards, want %d", tc.low, len(deck), tc.n)
		}
		if got := Join(deck[:10], " "); got != tc.want {
			t.Errorf("low %v: top ten = %s, want %s", tc.low, got, tc.want)
		}
		if SetOf(deck...) != DeckSet(tc.low) {
			t.Errorf("low %v: shuffle lost or doubled a card", tc.low)
		}
	}
}

func TestCut(t *testing.T) {
	deck := Deck(Ace) // As Ah Ad Ac in canonical order: Ac Ad Ah As
	got, err := Cut(deck, 1)
	if err != nil {
		t.Fatal(err)
	}
	if s := Join(got, " "); s != "Ad Ah As Ac" {
		t.Errorf("cut 1 = %s", s)
	}
	if got, _ := Cut(deck, 0); Join(got, " ") != "Ac Ad Ah As" {
		t.Errorf("cut 0 changed the deck")
	}
	for _, k := range []int{-1, 4, 5} {
		if _, err := Cut(deck, k); err == nil {
			t.Errorf("cut %d accepted", k)
		}
	}
}

func TestParseAndString(t *testing.T) {
	for c := Card(0); c < NumCards; c++ {
		p, err := Parse(c.String())
		if err != nil || p != c {
			t.Fatalf("round trip of %v: %v %v", c, p, err)
		}
	}
	if MustParse("2c") != 0 || MustParse("As") != 51 {
		t.Error("canonical order: 2c must be first and As last")
	}
	for _, bad := range []string{"", "A", "1h", "Ax", "ah", "10h", "Ahh"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
	l, err := ParseList("Ah Kh,QhJhTh")
	if err != nil || Join(l, " ") != "Ah Kh Qh Jh Th" {
		t.Errorf("ParseList = %v %v", l, err)
	}
}

func TestDeck(t *testing.T) {
	for low, n := range map[Rank]int{Two: 52, Three: 48, Four: 44, Five: 40, Six: 36, Seven: 32} {
		d := Deck(low)
		if len(d) != n || DeckSet(low).Len() != n {
			t.Errorf("deck from %v: %d cards, set %d, want %d", low, len(d), DeckSet(low).Len(), n)
		}
		if d[0] != New(low, Clubs) || d[len(d)-1] != New(Ace, Spades) {
			t.Errorf("deck from %v: %v … %v", low, d[0], d[len(d)-1])
		}
	}
	if !strings.HasPrefix(Join(Deck(Two), " "), "2c 2d 2h 2s 3c") {
		t.Error("deck not canonical")
	}
}

func BenchmarkShuffle52(b *testing.B) {
	seed := vectorSeed()
	deck := Deck(Two)
	for b.Loop() {
		Shuffle(seed, deck)
	}
}
