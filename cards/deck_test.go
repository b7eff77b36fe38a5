package cards

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/fechado/fechado/internal/race"
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
	b.ReportAllocs()
	for b.Loop() {
		Shuffle(seed, deck)
	}
}

// ShuffleInPlace and CutInPlace give what Shuffle and Cut give, for every deck, many seeds and
// every cut; Opens agrees with Commitment.
func TestInPlace(t *testing.T) {
	for low := Two; low <= Ace; low++ {
		for n := range 20 {
			var seed Seed
			for i := range seed {
				seed[i] = byte(n*31 + i*7 + int(low))
			}
			deck := Deck(low)
			want := Shuffle(seed, deck)
			got := Deck(low)
			ShuffleInPlace(seed, got)
			if Join(got, " ") != Join(want, " ") {
				t.Fatalf("low %v seed %v: in place %v, Shuffle %v", low, seed, got, want)
			}
			for k := -1; k <= len(deck); k++ {
				wantCut, wantErr := Cut(want, k)
				gotCut := append([]Card(nil), want...)
				err := CutInPlace(gotCut, k)
				switch {
				case (err == nil) != (wantErr == nil):
					t.Fatalf("cut %d of %d: error %v, Cut's %v", k, len(deck), err, wantErr)
				case err != nil:
					if err.Error() != wantErr.Error() || Join(gotCut, " ") != Join(want, " ") {
						t.Fatalf("cut %d of %d: %v, %v", k, len(deck), err, gotCut)
					}
				case Join(gotCut, " ") != Join(wantCut, " "):
					t.Fatalf("cut %d of %d: in place %v, Cut %v", k, len(deck), gotCut, wantCut)
				}
			}
			if c := seed.Commitment(); !seed.Opens(c) || seed.Opens(c[:63]+"x") || (strings.ToUpper(c) != c && seed.Opens(strings.ToUpper(c))) || seed.Opens("") {
				t.Fatalf("Opens disagrees with Commitment %s", c)
			}
		}
	}
	if race.Enabled {
		return // the race detector's instrumentation allocates
	}
	if n := testing.AllocsPerRun(100, func() {
		var cs [NumCards]Card
		copy(cs[:], Deck(Two))
		ShuffleInPlace(vectorSeed(), cs[:])
		_ = CutInPlace(cs[:], 7)
	}); n > 1 {
		t.Errorf("ShuffleInPlace and CutInPlace allocate: %v allocations a run (Deck makes one)", n)
	}
}

func TestSetAppend(t *testing.T) {
	for _, s := range []Set{0, DeckSet(Two), DeckSet(Seven), SetOf(MustParse("2c"), MustParse("As"), MustParse("Td")), Set(^uint64(0))} {
		want := []Card{}
		n := 0
		for c := Card(0); c < 64; c++ {
			if s.Has(c) {
				n++
				if c < NumCards {
					want = append(want, c)
				}
			}
		}
		if got := s.Append([]Card{}); Join(got, " ") != Join(want, " ") || len(got) != len(want) {
			t.Errorf("%x.Append = %v, want %v", uint64(s), got, want)
		}
		if got := s.Cards(); Join(got, " ") != Join(want, " ") || got == nil {
			t.Errorf("%x.Cards = %v, want %v", uint64(s), got, want)
		}
		if s.Len() != n {
			t.Errorf("%x.Len = %d, want %d", uint64(s), s.Len(), n)
		}
	}
}

// hmacWords is the straightforward reading of events-v1.md §3 step 2 with crypto/hmac: the words
// of blocks HMAC-SHA256(seed, k as 8 bytes big-endian), k = 0, 1, 2, …, four big-endian words a
// block.
type hmacWords struct {
	seed  Seed
	k     uint64
	block []byte
}

func (h *hmacWords) next() uint64 {
	if len(h.block) == 0 {
		mac := hmac.New(sha256.New, h.seed[:])
		var msg [8]byte
		binary.BigEndian.PutUint64(msg[:], h.k)
		mac.Write(msg[:])
		h.block = mac.Sum(nil)
		h.k++
	}
	x := binary.BigEndian.Uint64(h.block)
	h.block = h.block[8:]
	return x
}

// refShuffle is the shuffle of events-v1.md §3 as the spec words it, on hmacWords.
func refShuffle(seed Seed, in []Card) []Card {
	cs := append([]Card(nil), in...)
	w := hmacWords{seed: seed}
	for i := len(cs) - 1; i >= 1; i-- {
		m := uint64(i + 1)
		x := w.next()
		// Another word while x >= 2^64 - (2^64 mod m); nothing is drawn again when m divides 2^64.
		if r := -m % m; r != 0 {
			for x >= -r {
				x = w.next()
			}
		}
		j := x % m
		cs[i], cs[j] = cs[j], cs[i]
	}
	return cs
}

// The words of a shuffle are HMAC-SHA256(seed, k), as crypto/hmac computes it, however many
// were asked for first: the later batches (of a redraw, or of a list longer than a deck) go on
// from the right block.
func TestWordsHMAC(t *testing.T) {
	for n := range 8 {
		var seed Seed
		for i := range seed {
			seed[i] = byte(n*13 + i*i)
		}
		for _, asked := range []int{0, 1, 3, 4, 5, 8, 51, 52, 53, 100} {
			var w words
			w.reset(&seed, asked)
			ref := hmacWords{seed: seed}
			for i := range 4*wordBatch*2 + 7 {
				if got, want := w.next(), ref.next(); got != want {
					t.Fatalf("seed %d, %d words asked for: word %d = %x, want %x", n, asked, i, got, want)
				}
			}
		}
	}
}

// Shuffle and ShuffleInPlace give refShuffle's order, on its own words, for many random seeds
// and every length of list from 0 to past a deck (some lists not decks, or with repeated cards:
// the shuffle permutes positions whatever they hold).
func TestShuffleMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for n := 0; n <= 70; n++ {
		for range 40 {
			var seed Seed
			for i := range seed {
				seed[i] = byte(r.Uint32())
			}
			in := make([]Card, n)
			for i := range in {
				in[i] = Card(r.IntN(NumCards))
			}
			if n <= NumCards && r.IntN(2) == 0 {
				in = Deck(Two)[NumCards-n:]
			}
			want := refShuffle(seed, in)
			if got := Shuffle(seed, in); !slices.Equal(got, want) {
				t.Fatalf("%d cards, seed %v: Shuffle %v, reference %v", n, seed, got, want)
			}
			got := slices.Clone(in)
			ShuffleInPlace(seed, got)
			if !slices.Equal(got, want) {
				t.Fatalf("%d cards, seed %v: ShuffleInPlace %v, reference %v", n, seed, got, want)
			}
		}
	}
	// The vectors of events-v1.md §3 through the reference too: it is the spec's shuffle.
	if got := Join(refShuffle(vectorSeed(), Deck(Two))[:10], " "); got != "8c 9c Qc 8d Jc 7s 2h 3h 5s 5h" {
		t.Errorf("reference shuffle of the vector seed: %s", got)
	}
}
