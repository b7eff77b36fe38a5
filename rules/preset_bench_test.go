package rules_test

import (
	"math/rand/v2"
	"testing"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/rules"
)

// BenchmarkEvalPreset evaluates random five-card hands under each preset's ranking with the
// deck it deals to four players (BenchmarkEval measures rankings by name; this one follows
// the presets, so that a preset's figure stays comparable if its deck or ranking changes),
// and reports evals/s.
//
//	go test ./rules -run '^$' -bench EvalPreset
func BenchmarkEvalPreset(b *testing.B) {
	for _, name := range rules.Names() {
		b.Run(name, func(b *testing.B) {
			p, err := rules.Lookup(name)
			if err != nil {
				b.Fatal(err)
			}
			low, ok := p.Low(4)
			if !ok {
				b.Fatalf("%s does not deal to four players", name)
			}
			e := rules.EvaluatorFor(p.Ranking(low))
			const n = 1 << 14
			hands := make([][5]cards.Card, n)
			rng := rand.New(rand.NewPCG(1, 2))
			deck := cards.Deck(low)
			for i := range hands {
				rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
				hands[i] = [5]cards.Card(deck[:5])
			}
			var sink rules.Value
			i := 0
			for b.Loop() {
				sink ^= e.Eval(hands[i&(n-1)])
				i++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "evals/s")
			if sink == 1 {
				b.Log(sink)
			}
		})
	}
}
