package cards

import "testing"

// BenchmarkShuffleInPlace shuffles the 52-card deck with the vector seed into the caller's array,
// as the rules re-derive a deck from a revealed seed (BenchmarkShuffle52 measures Shuffle).
//
//	GOMAXPROCS=1 go test ./cards -run '^$' -bench . -benchmem
func BenchmarkShuffleInPlace(b *testing.B) {
	seed := vectorSeed()
	deck := Deck(Two)
	b.ReportAllocs()
	var cs [NumCards]Card
	for b.Loop() {
		copy(cs[:], deck)
		ShuffleInPlace(seed, cs[:])
	}
}

// BenchmarkCommitment hashes a seed to its commitment, and checks a commitment with Opens.
func BenchmarkCommitment(b *testing.B) {
	seed := vectorSeed()
	c := seed.Commitment()
	b.Run("Commitment", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if seed.Commitment() != c {
				b.Fatal("commitment changed")
			}
		}
	})
	b.Run("Opens", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !seed.Opens(c) {
				b.Fatal("commitment changed")
			}
		}
	})
}
