package integrity

import (
	"math"
	"slices"
	"testing"
)

func near(a, b, rel float64) bool { return math.Abs(a-b) <= rel*math.Abs(b) }

// The Poisson tail against values worked by hand: P(X ≥ 3 | 2) = 1 − 5e⁻², P(X ≥ 10 | 2) from the
// sum of the terms below 10.
func TestPoissonUpperAgainstHandWorkedValues(t *testing.T) {
	for _, c := range []struct {
		k    int
		mu   float64
		want float64
	}{
		{0, 2, 1},
		{3, 2, 1 - 5*math.Exp(-2)},
		{10, 2, 4.6498075017109564e-05},
		{1, 0, 0},
	} {
		if got := poissonUpper(c.k, c.mu); !near(got, c.want, 1e-9) && !(c.want == 0 && got == 0) {
			t.Errorf("P(X ≥ %d | %g) = %g, want %g", c.k, c.mu, got, c.want)
		}
	}
}

// Benjamini–Hochberg: the q-values of Benjamini and Hochberg (1995), step-up, worked by hand.
func TestBHStepUp(t *testing.T) {
	got := bh([]float64{0.01, 0.04, 0.03, 0.5})
	want := []float64{0.04, 0.16 / 3, 0.16 / 3, 0.5}
	for i := range want {
		if !near(got[i], want[i], 1e-12) {
			t.Fatalf("q = %v, want %v", got, want)
		}
	}
}

// One stratum of the Cochran–Mantel–Haenszel test: 60 of 100 against 40 of 100; the hypergeometric
// mean is 50 and variance 100·100·100·100/(200²·199).
func TestCMHOneStratum(t *testing.T) {
	var c cmh
	c.add(100, 60, 100, 40)
	z, ok := c.z()
	want := 10 / math.Sqrt(1e8/(40000*199))
	if !ok || !near(z, want, 1e-12) {
		t.Fatalf("z = %g (%v), want %g", z, ok, want)
	}
	// A stratum with one group empty says nothing; too little variance is no test.
	var d cmh
	d.add(10, 5, 0, 0)
	d.add(1, 1, 1, 0)
	if _, ok := d.z(); ok {
		t.Error("a test on 2 decisions")
	}
}

// The empirical null moves the centre to the median and never narrows the spread below 1.
func TestCentreNeverNarrows(t *testing.T) {
	var v []float64
	for i := range 40 {
		v = append(v, 3+0.01*float64(i%5)) // centred at 3, tiny spread
	}
	v = append(v, 12) // one pair far out
	ps := make([]*float64, len(v))
	for i := range v {
		ps[i] = &v[i]
	}
	centre(ps)
	if math.Abs(v[0]) > 0.1 || !near(v[len(v)-1], 9, 0.01) {
		t.Errorf("after centring: first %g (want about 0), last %g (want 9: the spread kept at 1)", v[0], v[len(v)-1])
	}
}

func TestEvidenceKeepsEachHandOnceStrongestFirst(t *testing.T) {
	var k topk
	for i, id := range []string{"a", "b", "a", "c", "d", "e", "f", "b"} {
		k.add(id, float64(i))
	}
	if got := k.sorted(); !slices.Equal(got, []string{"b", "f", "e", "d", "c"}) {
		t.Errorf("evidence %v", got)
	}
}

// The baseline of a test against a player's own play: his decisions at the table, plus
// priorWeight decisions at his rate at the game (all of them when he has fewer).
func TestAddRateWeighsTheGameByPriorWeight(t *testing.T) {
	for _, c := range []struct {
		nt, kt, ng, kg int32
		n0, k0         float64
	}{
		{0, 0, 100, 40, priorWeight, 0.4 * priorWeight},
		{50, 10, 100, 40, 50 + priorWeight, 10 + 0.4*priorWeight},
		{5, 1, 10, 5, 15, 6}, // fewer game decisions than priorWeight: all of them
	} {
		var got, want cmh
		got.addRate(30, 9, c.nt, c.kt, c.ng, c.kg)
		want.addf(30, 9, c.n0, c.k0)
		if !near(got.exp, want.exp, 1e-12) || !near(got.v, want.v, 1e-12) || got.obs != 9 {
			t.Errorf("%+v: %+v, want %+v", c, got, want)
		}
	}
}
