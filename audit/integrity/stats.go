package integrity

import (
	"math"
	"sort"
)

// upper returns the chance that a standard normal variable is at least z.
func upper(z float64) float64 { return 0.5 * math.Erfc(z/math.Sqrt2) }

// poissonUpper returns P(X ≥ k) for X Poisson with mean mu. Co-seating over many periods is a
// sum of rare independent chances (a Poisson binomial), whose upper tail the Poisson's bounds
// from above: the test errs on the side of not flagging.
func poissonUpper(k int, mu float64) float64 {
	if k <= 0 {
		return 1
	}
	if mu <= 0 {
		return 0
	}
	term := func(j int) float64 {
		lg, _ := math.Lgamma(float64(j + 1))
		return math.Exp(float64(j)*math.Log(mu) - mu - lg)
	}
	if float64(k) <= mu {
		below := 0.0
		for j := 0; j < k; j++ {
			below += term(j)
		}
		return math.Max(0, 1-below)
	}
	sum := 0.0
	for j := k; ; j++ {
		t := term(j)
		sum += t
		if t < 1e-17*sum || j > k+100000 {
			break
		}
	}
	return math.Min(1, sum)
}

// cmh accumulates the Cochran–Mantel–Haenszel test over 2×2 tables, one per stratum: how often
// an act happens in group 1 against group 0, the strata holding fixed what else explains the act
// (the strength of the hand, the round, whether a bet is faced).
type cmh struct {
	obs, exp, v float64
	n           int // decisions in group 1
}

// add adds one stratum: k1 acts in n1 decisions of group 1, k0 in n0 of group 0.
func (c *cmh) add(n1, k1, n0, k0 int32) {
	c.addf(float64(n1), float64(k1), float64(n0), float64(k0))
}

// z is the test's statistic: positive when the act is more frequent in group 1. It is 0 when the
// tables carry no information.
func (c cmh) z() (float64, bool) {
	if c.v < minVariance {
		return 0, false
	}
	return (c.obs - c.exp) / math.Sqrt(c.v), true
}

// minVariance is the least null variance of a statistic for the pair to be tested on it: below
// it the pair has too few decisions of the kind for a normal approximation.
const minVariance = 2

// centre standardises zs against their own distribution (an empirical null, Efron 2004): most
// pairs of a room are honest, so the median and the median absolute deviation of the pairs'
// statistics estimate the null's centre and spread, which the model's assumptions (independent
// decisions, no interaction between players' styles) only approximate. The spread is never taken
// below 1, the theoretical one: the correction can only make the test more cautious.
//
// It reports false, and leaves zs as they are, when there are fewer than MinCalibration: too few
// to estimate a null, and the raw statistics, whose theoretical null real play bends (decisions
// of one hand are not independent; one player's style meets another's), must not flag a pair.
func centre(zs []*float64) bool {
	if len(zs) < MinCalibration {
		return false
	}
	v := make([]float64, len(zs))
	for i, z := range zs {
		v[i] = *z
	}
	med := median(v)
	for i := range v {
		v[i] = math.Abs(v[i] - med)
	}
	scale := math.Max(1, 1.4826*median(v))
	for _, z := range zs {
		*z = (*z - med) / scale
	}
	return true
}

// MinCalibration is the least number of pairs carrying a statistic for it to be calibrated
// (centre) and to flag a pair.
const MinCalibration = 20

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// bh returns the Benjamini–Hochberg adjusted p-values (q-values) of ps, in their order: flagging
// the pairs whose q is at most Q keeps the expected share of honest pairs among those flagged at
// most Q.
func bh(ps []float64) []float64 {
	m := len(ps)
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return ps[idx[a]] < ps[idx[b]] })
	q := make([]float64, m)
	run := 1.0
	for r := m - 1; r >= 0; r-- {
		i := idx[r]
		run = math.Min(run, ps[i]*float64(m)/float64(r+1))
		q[i] = run
	}
	return q
}

// topk keeps the ids of the k hands with the largest keys: a signal's evidence.
type topk struct {
	ids  []string
	keys []float64
}

const evidenceHands = 5

func (t *topk) add(id string, key float64) {
	for i, x := range t.ids {
		if x == id { // one hand, several decisions: the hand once, at its strongest
			t.keys[i] = max(t.keys[i], key)
			return
		}
	}
	if len(t.ids) < evidenceHands {
		t.ids, t.keys = append(t.ids, id), append(t.keys, key)
		return
	}
	lo := 0
	for i, k := range t.keys {
		if k < t.keys[lo] {
			lo = i
		}
	}
	if key > t.keys[lo] {
		t.ids[lo], t.keys[lo] = id, key
	}
}

// sorted returns the ids, largest key first.
func (t *topk) sorted() []string {
	idx := make([]int, len(t.ids))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return t.keys[idx[a]] > t.keys[idx[b]] })
	out := make([]string, len(idx))
	for i, j := range idx {
		out[i] = t.ids[j]
	}
	return out
}

// plus returns the sums of c and d: the test over the strata of both.
func (c cmh) plus(d cmh) cmh {
	return cmh{obs: c.obs + d.obs, exp: c.exp + d.exp, v: c.v + d.v, n: c.n + d.n}
}

// priorWeight is how many decisions of a player's game rate the rate at a table starts from: the
// table's own decisions outweigh it once he has played more there.
const priorWeight = 20

// addRate adds one stratum of a test against a player's own play: k1 acts in n1 decisions of
// group 1 against his decisions without them, kt acts in nt at the table, to which it adds up to
// priorWeight decisions at his rate at the game (kg in ng). The table's decisions rule where he
// played a lot there, the game's rate where he played little. The table of the test is then
// Cochran–Mantel–Haenszel's, with the baseline's counts as weighed.
func (c *cmh) addRate(n1, k1, nt, kt, ng, kg int32) {
	w := math.Min(priorWeight, float64(ng))
	n0, k0 := float64(nt), float64(kt)
	if w > 0 {
		n0 += w
		k0 += w * float64(kg) / float64(ng)
	}
	c.addf(float64(n1), float64(k1), n0, k0)
}

// addf is add with counts that may be weighed (not whole).
func (c *cmh) addf(n1, k1, n0, k0 float64) {
	n := n1 + n0
	if n1 == 0 || n0 == 0 || n < 2 {
		return
	}
	k := k1 + k0
	c.obs += k1
	c.exp += n1 * k / n
	c.v += n1 * n0 * k * (n - k) / (n * n * (n - 1))
	c.n += int(n1)
}
