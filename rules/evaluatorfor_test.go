package rules

import (
	"sync"
	"testing"

	"github.com/fechado/fechado/cards"
)

// EvaluatorFor builds each ranking's evaluator on its first use: goroutines that ask for the
// rankings of every preset and deck at once (the workers of a spread audit meeting their first
// hands) all get the one evaluator NewEvaluator keeps for it, whichever built it, and the
// evaluator ranks by that ranking.
func TestEvaluatorForSharesOneEvaluatorPerRanking(t *testing.T) {
	var rankings []Ranking
	for _, p := range presets {
		for n := p.MinPlayers; n <= p.MaxPlayers; n++ {
			if low, ok := p.Low(n); ok {
				rankings = append(rankings, p.Ranking(low))
			}
		}
	}
	rankings = append(rankings, Ranking{Low: cards.Five}) // no preset's: a hand's override
	const workers = 4
	got := make([][]*Evaluator, workers)
	var wg sync.WaitGroup
	for k := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rankings {
				got[k] = append(got[k], EvaluatorFor(rankings[(i+k)%len(rankings)]))
			}
		}()
	}
	wg.Wait()
	for k := range workers {
		for i, e := range got[k] {
			r := rankings[(i+k)%len(rankings)]
			if want := NewEvaluator(r); e != want {
				t.Fatalf("goroutine %d, ranking %+v: EvaluatorFor gave another evaluator than NewEvaluator keeps", k, r)
			}
			if e.Ranking() != r {
				t.Fatalf("goroutine %d: EvaluatorFor(%+v) ranks by %+v", k, r, e.Ranking())
			}
		}
	}
	// Once built, every later call hands out the same one.
	for _, r := range rankings {
		if EvaluatorFor(r) != NewEvaluator(r) {
			t.Errorf("%+v: a later EvaluatorFor gave another evaluator", r)
		}
	}
}
