package rules

import "testing"

// BenchmarkEvalPreset evaluates random five-card hands under each preset's ranking with the
// deck it deals to four players (BenchmarkEval measures rankings by name; this one follows
// the presets, so that a preset's figure stays comparable if its deck or ranking changes),
// and reports evals/s.
//
//	go test ./rules -run '^$' -bench EvalPreset
func BenchmarkEvalPreset(b *testing.B) {
	for _, name := range Names() {
		b.Run(name, func(b *testing.B) {
			p, err := Lookup(name)
			if err != nil {
				b.Fatal(err)
			}
			low, ok := p.Low(4)
			if !ok {
				b.Fatalf("%s does not deal to four players", name)
			}
			benchEval(b, EvaluatorFor(p.Ranking(low)), low)
		})
	}
}
