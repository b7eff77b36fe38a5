// Package integrity owns the analysis of collusion: it reads a log of hands and scores every
// pair of players who played together on four signals (table overlap, soft play, chip dumping,
// shared cards), each a statistic with its null distribution and the hands that show it, then
// flags the pairs whose evidence survives a false discovery control over all the pairs scored.
// It uses every card the log records: the whole deal of machine-shuffled hands, also the folded
// players' cards, and at live tables the cards recorded. docs/integrity.md says how to read it.
package integrity

import (
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/rules"
)

// Options tune the analysis; the zero value takes the defaults.
type Options struct {
	// Slot is the period of the overlap test: in each, a player is at the table where he played
	// most hands. 0 = DefaultSlot.
	Slot time.Duration
	// MinHands is the least number of hands two players were dealt in together for the pair to
	// be scored. 0 = DefaultMinHands.
	MinHands int
	// Q is the false discovery rate at which pairs are flagged (Benjamini–Hochberg). 0 = DefaultQ.
	Q float64
}

// The defaults of Options.
const (
	DefaultSlot     = 3 * time.Hour
	DefaultMinHands = 50
	DefaultQ        = 0.01
)

// The kinds of collusion a flagged pair is named by: the behaviour signal with the strongest
// evidence.
const (
	SoftPlay   = "soft-play"
	ChipDump   = "chip-dump"
	ShareCards = "share-cards"
)

// strata of a decision: the strength of the hand (buckets) by the betting round.
const (
	buckets = 6
	strata  = buckets * 2
)

// Analyzer reads the events of a log, in the log's order (hands of several tables may
// interleave), and scores the pairs (Result).
type Analyzer struct {
	o       Options
	open    map[string]*handState
	players []string
	id      map[string]int32
	pairs   map[uint64]*pairStats
	totals  []playerTotals
	seen    map[slotKey]map[string]int // hands by table, per player and slot
	agg     aggStore
	// Hands counts the hands read to their end; Known those with every dealt card known.
	Hands, Known int
}

// aggStore keeps every decision whose cards are known, compactly: who, the stratum (with whether
// a bet was faced), whether he bet or raised, and the other players still in the hand
// (others[end[i-1]:end[i]]).
type aggStore struct {
	me     []int32
	as     []uint8
	hit    []bool
	end    []int32
	others []int32
}

type slotKey struct {
	slot   int64
	player int32
}

type playerTotals struct {
	aggN, aggK   [strata * 2]int32 // decisions, and bets or raises, by stratum and whether a bet was faced
	foldN, foldK [strata]int32     // bets faced, and folds
	// winN and winK: bets faced holding five cards that beat the bettor's at the end, and folds.
	winN, winK [strata]int32
}

type pairStats struct {
	a, b  int32 // a < b
	hands int
	// Soft play, by the acting player (0: a acts, 1: b acts): decisions with the partner in the
	// hand (aggression) and bets of the partner faced (folds).
	aggN, aggK   [2][strata * 2]int32
	foldN, foldK [2][strata]int32
	// Shared cards: facing a third player's bet with the partner in the hand, whether the partner
	// held more (B) or less (W), and the folds and raises.
	shBN, shBF, shWN, shWR, shWF, shBR [2][strata]int32
	// Chip dumping, by the acting player: the partner's bets faced holding the better five cards
	// at the end, and folds.
	winN, winK [2][strata]int32
	// Chips from a to b beyond what the cards explain, per hand.
	dn               int
	dsum             float64
	toB, toA         topk // the hands that moved most chips from a to b, and from b to a
	softEv, shareEv  [2]topk
	together, slots  int
	expected         float64
	aggZ, foldZ      float64
	aggOK, foldOK    bool
	shFoldZ, shRaise float64
	shFoldOK, shROK  bool
	dumpZ            float64
	dumpOK           bool
}

// New returns an Analyzer.
func New(o Options) *Analyzer {
	if o.Slot <= 0 {
		o.Slot = DefaultSlot
	}
	if o.MinHands <= 0 {
		o.MinHands = DefaultMinHands
	}
	if o.Q <= 0 {
		o.Q = DefaultQ
	}
	return &Analyzer{o: o, open: map[string]*handState{}, id: map[string]int32{}, pairs: map[uint64]*pairStats{},
		seen: map[slotKey]map[string]int{}}
}

// handState is a hand being read: the rules engine that follows it and the decisions so far.
type handState struct {
	h     *rules.Hand
	table string
	at    time.Time
	dec   []decision
}

// decision is one betting action, with what the log knew at that moment.
type decision struct {
	seat    events.Seat
	round   int // 0 first, 1 second
	action  events.Action
	facing  events.Seat // the last bettor, when a bet was owed; 0 otherwise
	stratum int         // -1: his cards are not all known
	value   rules.Value
	others  []seen // the other players still in the hand
}

type seen struct {
	seat  events.Seat
	value rules.Value // 0: not all known
}

func (a *Analyzer) player(name string) int32 {
	if i, ok := a.id[name]; ok {
		return i
	}
	i := int32(len(a.players))
	name = strings.Clone(name) // the event may be a piece of a mapped file
	a.id[name] = i
	a.players = append(a.players, name)
	a.totals = append(a.totals, playerTotals{})
	return i
}

func (a *Analyzer) pair(x, y int32) *pairStats {
	if x > y {
		x, y = y, x
	}
	k := uint64(x)<<32 | uint64(y)
	p := a.pairs[k]
	if p == nil {
		p = &pairStats{a: x, b: y}
		a.pairs[k] = p
	}
	return p
}

// Add reads the next event of the log. Events of a hand that never started are passed over.
func (a *Analyzer) Add(e *events.Event) {
	if e.Type == events.HandStartedType {
		h, err := rules.NewHand(e)
		if err != nil {
			return
		}
		at, _ := time.Parse(time.RFC3339Nano, e.At)
		a.open[e.Hand] = &handState{h: h, table: strings.Clone(e.Table), at: at}
		return
	}
	st := a.open[e.Hand]
	if st == nil {
		return
	}
	if d, ok := e.Data.(*events.PlayerActed); ok {
		st.decide(d)
	}
	st.h.Apply(e)
	if e.Type == events.HandEndedType {
		delete(a.open, e.Hand)
		a.end(strings.Clone(e.Hand), st)
	}
}

// bucket places a five-card value among the strength buckets: nothing, a small pair, a big pair
// (jacks up), two pair below jacks, two pair with jacks or more, trips or better.
func bucket(v rules.Value) int {
	switch c := v.Category(); {
	case c == rules.HighCard:
		return 0
	case c == rules.Pair && v.Rank(0) < 11:
		return 1
	case c == rules.Pair:
		return 2
	case c == rules.TwoPair && v.Rank(0) < 11:
		return 3
	case c == rules.TwoPair:
		return 4
	}
	return 5
}

func (h *handState) value(p *rules.Player) rules.Value {
	if len(p.Cards) != 5 || p.Hidden > 0 {
		return 0
	}
	return h.h.Eval.Eval([5]cards.Card(p.Cards))
}

func (st *handState) decide(d *events.PlayerActed) {
	h := st.h
	if d.Round != events.RoundFirst && d.Round != events.RoundSecond {
		return
	}
	p := h.Player(d.Seat)
	if p == nil {
		return
	}
	dec := decision{seat: d.Seat, action: d.Action, stratum: -1}
	if d.Round == events.RoundSecond {
		dec.round = 1
	}
	if h.CurrentBet > p.RoundIn {
		dec.facing = h.LastAggressor
	}
	if v := st.value(p); v != 0 {
		dec.value = v
		dec.stratum = bucket(v)*2 + dec.round
	}
	for _, q := range h.Players {
		if q.Seat != d.Seat && !q.Folded && !q.Mucked {
			dec.others = append(dec.others, seen{q.Seat, st.value(q)})
		}
	}
	st.dec = append(st.dec, dec)
}

// end scores a hand read to its end.
func (a *Analyzer) end(hand string, st *handState) {
	h := st.h
	if h.Misdeal || len(h.Players) < 2 {
		return
	}
	a.Hands++
	ids := map[events.Seat]int32{}
	known := true
	for _, p := range h.Players {
		ids[p.Seat] = a.player(p.Name)
		if st.value(p) == 0 {
			known = false
		}
	}
	if known {
		a.Known++
	}
	// Schedules: the hand counts for its table in its slot.
	slot := st.at.UnixNano() / int64(a.o.Slot)
	for _, p := range h.Players {
		k := slotKey{slot, ids[p.Seat]}
		m := a.seen[k]
		if m == nil {
			m = map[string]int{}
			a.seen[k] = m
		}
		m[st.table]++
	}
	for i, p := range h.Players {
		for _, q := range h.Players[i+1:] {
			a.pair(ids[p.Seat], ids[q.Seat]).hands++
		}
	}
	final := map[events.Seat]rules.Value{}
	for _, p := range h.Players {
		final[p.Seat] = st.value(p)
	}
	for _, d := range st.dec {
		a.decision(hand, ids, final, d)
	}
	if known {
		a.flow(hand, st, ids)
	}
}

// decision adds one betting decision to the soft-play and shared-cards tables.
func (a *Analyzer) decision(hand string, ids map[events.Seat]int32, final map[events.Seat]rules.Value, d decision) {
	if d.stratum < 0 {
		return
	}
	me := ids[d.seat]
	t := &a.totals[me]
	facing := 0
	if d.facing != 0 {
		facing = 1
	}
	aggressive := d.action == events.Bet || d.action == events.Raise
	as := d.stratum*2 + facing
	// The aggression tables are counted at scoring time from the decisions kept here, so that a
	// flagged partner's hands can be taken out of both sides of a player's other pairs' tests.
	a.agg.me = append(a.agg.me, me)
	a.agg.as = append(a.agg.as, uint8(as))
	a.agg.hit = append(a.agg.hit, aggressive)
	for _, o := range d.others {
		a.agg.others = append(a.agg.others, ids[o.seat])
	}
	a.agg.end = append(a.agg.end, int32(len(a.agg.others)))
	if d.facing != 0 {
		t.foldN[d.stratum]++
		if d.action == events.Fold {
			t.foldK[d.stratum]++
		}
	}
	// He held the winner against the bettor: the cards at the end say his fold gave chips away.
	winner := d.facing != 0 && final[d.seat] != 0 && final[d.facing] != 0 && final[d.seat] > final[d.facing]
	if winner {
		t.winN[d.stratum]++
		if d.action == events.Fold {
			t.winK[d.stratum]++
		}
	}
	for _, o := range d.others {
		q := a.pair(me, ids[o.seat])
		dir := 0
		if me != q.a {
			dir = 1
		}
		if bucket(d.value) >= 3 && (!aggressive || d.action == events.Fold) {
			q.softEv[dir].add(hand, float64(d.value))
		}
		if d.facing == o.seat && winner {
			q.winN[dir][d.stratum]++
			if d.action == events.Fold {
				q.winK[dir][d.stratum]++
			}
		}
		if d.facing == o.seat {
			q.foldN[dir][d.stratum]++
			if d.action == events.Fold {
				q.foldK[dir][d.stratum]++
				q.softEv[dir].add(hand, float64(d.value))
			}
		}
		if d.facing != 0 && d.facing != o.seat && o.value != 0 {
			if o.value > d.value {
				q.shBN[dir][d.stratum]++
				if d.action == events.Fold {
					q.shBF[dir][d.stratum]++
					q.shareEv[dir].add(hand, float64(d.value))
				}
				if d.action == events.Raise {
					q.shBR[dir][d.stratum]++
				}
			} else {
				q.shWN[dir][d.stratum]++
				if d.action == events.Fold {
					q.shWF[dir][d.stratum]++
				}
				if d.action == events.Raise {
					q.shWR[dir][d.stratum]++
				}
			}
		}
	}
}

// flow adds a hand whose every card is known to the chip-dumping test of each pair dealt in: the
// chips that went from one to the other, less what they would have been had the pot gone to the
// best five cards held at the end (the folded players' cards as they folded them, the others'
// after their draws).
func (a *Analyzer) flow(hand string, st *handState, ids map[events.Seat]int32) {
	h := st.h
	var won float64
	var best rules.Value
	for _, p := range h.Players {
		won += float64(p.Won)
		best = max(best, st.value(p))
	}
	if won == 0 {
		return // passed out: the pot goes on
	}
	winners := 0
	for _, p := range h.Players {
		if st.value(p) == best {
			winners++
		}
	}
	fair := func(p *rules.Player) float64 {
		if st.value(p) == best {
			return won / float64(winners)
		}
		return 0
	}
	for i, p := range h.Players {
		for _, q := range h.Players[i+1:] {
			// Chips from p to q: p's chips in the pot that q won, less the other way.
			actual := (float64(p.In)*float64(q.Won) - float64(q.In)*float64(p.Won)) / won
			expect := (float64(p.In)*fair(q) - float64(q.In)*fair(p)) / won
			d := actual - expect
			x, y := ids[p.Seat], ids[q.Seat]
			pr := a.pair(x, y)
			if x != pr.a {
				d = -d
			}
			pr.dn++
			pr.dsum += d
			pr.toB.add(hand, d)
			pr.toA.add(hand, -d)
		}
	}
}

// Signal is one test of a pair: its statistic (a z-score, after the empirical null), its one-sided
// p-value, how many decisions or hands it rests on, and the hands that show it best.
type Signal struct {
	Z     float64  `json:"z"`
	P     float64  `json:"p"`
	N     int      `json:"n"`
	Hands []string `json:"hands,omitempty"`
}

// Overlap is the table-overlap test: in how many periods both played, in how many of them at
// the same table, how many their schedules predict, and the chance of at least as many.
type Overlap struct {
	Slots    int     `json:"slots"`
	Together int     `json:"together"`
	Expected float64 `json:"expected"`
	P        float64 `json:"p"`
}

// Dump is the chip-dumping test: Signal, the direction (chips from From to To) and the chips
// moved beyond the cards' account.
type Dump struct {
	Signal
	From  string  `json:"from"`
	To    string  `json:"to"`
	Chips float64 `json:"chips"`
}

// Pair is a scored pair: a and b (in name order), the hands they were dealt in together, the
// signals, the combined p-value of the behaviour (the least of the three signals', times three),
// its Benjamini–Hochberg q-value over every pair scored, the score -log10(q) and whether the pair
// is flagged (q ≤ Options.Q); Kind names the strongest behaviour signal of a flagged pair.
type Pair struct {
	A       string  `json:"a"`
	B       string  `json:"b"`
	Score   float64 `json:"score"`
	Flagged bool    `json:"flagged"`
	Kind    string  `json:"kind,omitempty"`
	Hands   int     `json:"hands"`
	P       float64 `json:"p"`
	Q       float64 `json:"q"`
	Overlap Overlap `json:"overlap"`
	Soft    Signal  `json:"soft_play"`
	Dumping Dump    `json:"chip_dump"`
	Shared  Signal  `json:"share_cards"`
	rank    float64
}

// Report is the analysis: the pairs scored, highest score first.
type Report struct {
	Hands, Known int
	Players      int
	// Threshold is the least score of a flagged pair: -log10(Options.Q).
	Threshold float64
	Q         float64
	Pairs     []Pair
}

// Result scores the pairs read so far.
//
// A colluder's play with his partner also shifts his play against everyone, which makes his other
// pairs look odd against that baseline: the pairs are scored twice, the second time with each
// flagged pair's decisions taken out of its players' baselines for their other pairs.
func (a *Analyzer) Result() *Report {
	a.overlap()
	r := a.score(nil)
	ex := map[int32][]int32{}
	for _, p := range r.Pairs {
		if p.Flagged {
			x, y := a.id[p.A], a.id[p.B]
			ex[x], ex[y] = append(ex[x], y), append(ex[y], x)
		}
	}
	if len(ex) == 0 {
		return r
	}
	return a.score(ex)
}

// baseline returns me's totals for the tests of the pair (me, other): without his decisions in
// the hands of the partners ex lists for him, other than other.
func (a *Analyzer) baseline(me, other int32, ex map[int32][]int32) *playerTotals {
	if len(ex[me]) == 0 {
		return &a.totals[me]
	}
	t := a.totals[me]
	for _, c := range ex[me] {
		if c == other {
			continue
		}
		lo, hi := me, c
		if lo > hi {
			lo, hi = hi, lo
		}
		q := a.pairs[uint64(lo)<<32|uint64(hi)]
		if q == nil {
			continue
		}
		dir := 0
		if me != q.a {
			dir = 1
		}
		sub := func(n, k []int32, qn, qk []int32) {
			for i := range n {
				n[i] = max(0, n[i]-qn[i])
				k[i] = min(n[i], max(0, k[i]-qk[i]))
			}
		}
		sub(t.foldN[:], t.foldK[:], q.foldN[dir][:], q.foldK[dir][:])
		sub(t.winN[:], t.winK[:], q.winN[dir][:], q.winK[dir][:])
	}
	return &t
}

// score scores the pairs, with the baselines less the pairs of ex.
func (a *Analyzer) score(ex map[int32][]int32) *Report {
	var tested []*pairStats
	for _, p := range a.pairs {
		if p.hands >= a.o.MinHands {
			tested = append(tested, p)
		}
	}
	sort.Slice(tested, func(i, j int) bool {
		if tested[i].a != tested[j].a {
			return tested[i].a < tested[j].a
		}
		return tested[i].b < tested[j].b
	})
	a.countAggression(ex)
	// Raw statistics.
	var aggs, folds, shf, shr, dumps []*float64
	for _, p := range tested {
		p.aggZ, p.aggOK = a.softAgg(p, ex)
		p.foldZ, p.foldOK = a.softFold(p, ex)
		p.shFoldZ, p.shFoldOK = shareTest(&p.shBN, &p.shBF, &p.shWN, &p.shWF)
		p.shRaise, p.shROK = shareTest(&p.shWN, &p.shWR, &p.shBN, &p.shBR)
		p.dumpZ, p.dumpOK = a.dump(p, ex)
		for _, x := range []struct {
			ok bool
			z  *float64
			to *[]*float64
		}{{p.aggOK, &p.aggZ, &aggs}, {p.foldOK, &p.foldZ, &folds}, {p.shFoldOK, &p.shFoldZ, &shf}, {p.shROK, &p.shRaise, &shr}, {p.dumpOK, &p.dumpZ, &dumps}} {
			if x.ok {
				*x.to = append(*x.to, x.z)
			}
		}
	}
	for _, zs := range [][]*float64{aggs, folds, shf, shr, dumps} {
		centre(zs)
	}
	r := &Report{Hands: a.Hands, Known: a.Known, Players: len(a.players), Q: a.o.Q, Threshold: -math.Log10(a.o.Q)}
	ps := make([]float64, len(tested))
	for i, p := range tested {
		out := Pair{A: a.players[p.a], B: a.players[p.b], Hands: p.hands,
			Overlap: Overlap{Slots: p.slots, Together: p.together, Expected: p.expected, P: poissonUpper(p.together, p.expected)}}
		out.Soft = twoSided(p.aggOK, -p.aggZ, p.foldOK, p.foldZ)
		out.Soft.N = sum2(&p.aggN) + sum2s(&p.foldN)
		out.Soft.Hands = merge(&p.softEv)
		out.Shared = twoSided(p.shFoldOK, p.shFoldZ, p.shROK, p.shRaise)
		out.Shared.N = sum2s(&p.shBN) + sum2s(&p.shWN)
		out.Shared.Hands = merge(&p.shareEv)
		out.Dumping = Dump{Signal: Signal{P: 1, N: p.dn}, From: out.A, To: out.B, Chips: p.dsum}
		if p.dumpOK {
			z := p.dumpZ
			out.Dumping.Hands = p.toB.sorted()
			if z < 0 {
				z = -z
				out.Dumping.From, out.Dumping.To, out.Dumping.Chips = out.B, out.A, -p.dsum
				out.Dumping.Hands = p.toA.sorted()
			}
			out.Dumping.Z, out.Dumping.P = z, math.Min(1, 2*upper(z))
		}
		best := math.Min(out.Soft.P, math.Min(out.Shared.P, out.Dumping.P))
		out.P = math.Min(1, 3*best)
		out.Kind = kind(out.Soft.P, out.Dumping.P, out.Shared.P)
		if out.A > out.B {
			out.A, out.B = out.B, out.A
		}
		ps[i] = out.P
		r.Pairs = append(r.Pairs, out)
	}
	qs := bh(ps)
	for i := range r.Pairs {
		p := &r.Pairs[i]
		p.Q = qs[i]
		p.Score = math.Min(99, -math.Log10(math.Max(p.Q, 1e-99)))
		p.Flagged = p.Q <= a.o.Q
		if !p.Flagged {
			p.Kind = ""
		}
		p.rank = -math.Log10(math.Max(p.P, 1e-300)) - math.Log10(math.Max(p.Overlap.P, 1e-300))/100
	}
	sort.SliceStable(r.Pairs, func(i, j int) bool { return r.Pairs[i].rank > r.Pairs[j].rank })
	return r
}

// countAggression counts the aggression tables from the decisions kept. A decision of a player
// with a partner ex lists in the hand counts for that pair only, and one with two such partners
// for none: the others' tests then compare his honest play with his honest play.
func (a *Analyzer) countAggression(ex map[int32][]int32) {
	for i := range a.totals {
		a.totals[i].aggN, a.totals[i].aggK = [strata * 2]int32{}, [strata * 2]int32{}
	}
	for _, p := range a.pairs {
		p.aggN, p.aggK = [2][strata * 2]int32{}, [2][strata * 2]int32{}
	}
	start := int32(0)
	for i, me := range a.agg.me {
		others := a.agg.others[start:a.agg.end[i]]
		start = a.agg.end[i]
		as, hit := a.agg.as[i], a.agg.hit[i]
		flagged, n := int32(-1), 0
		for _, o := range others {
			if slices.Contains(ex[me], o) {
				flagged, n = o, n+1
			}
		}
		count := func(o int32) {
			q := a.pairs[key(me, o)]
			if q == nil {
				return
			}
			dir := 0
			if me != q.a {
				dir = 1
			}
			q.aggN[dir][as]++
			if hit {
				q.aggK[dir][as]++
			}
		}
		switch n {
		case 0:
			a.totals[me].aggN[as]++
			if hit {
				a.totals[me].aggK[as]++
			}
			for _, o := range others {
				count(o)
			}
		case 1:
			count(flagged)
		}
	}
}

func key(x, y int32) uint64 {
	if x > y {
		x, y = y, x
	}
	return uint64(x)<<32 | uint64(y)
}

// strongP is the p-value under which a signal names the kind of a flagged pair before a less
// specific one with a smaller p-value.
const strongP = 1e-4

// kind names a pair's collusion by its signals: a chip dump also shows as folds to the partner
// (soft play) one way, so the one-way test, more specific, names it when it is strong; likewise
// shared cards before the others. Otherwise the signal with the least p-value names it.
func kind(soft, dump, share float64) string {
	switch {
	case share <= strongP && share <= 100*min(soft, dump):
		return ShareCards
	case dump <= strongP:
		return ChipDump
	case soft <= min(dump, share):
		return SoftPlay
	case dump <= share:
		return ChipDump
	}
	return ShareCards
}

// softAgg tests whether the players of p bet and raise less when the other is in the hand than
// in the same strata otherwise (a negative statistic).
func (a *Analyzer) softAgg(p *pairStats, ex map[int32][]int32) (float64, bool) {
	var c cmh
	for dir, me := range [2]int32{p.a, p.b} {
		t := a.baseline(me, [2]int32{p.b, p.a}[dir], ex)
		// The decisions with a flagged partner in are not among his totals (countAggression).
		partner := slices.Contains(ex[me], [2]int32{p.b, p.a}[dir])
		for s := range t.aggN {
			n1, k1 := p.aggN[dir][s], p.aggK[dir][s]
			n0, k0 := t.aggN[s]-n1, t.aggK[s]-k1
			if partner {
				n0, k0 = t.aggN[s], t.aggK[s]
			}
			c.add(n1, k1, n0, k0)
		}
	}
	return c.z()
}

// softFold tests whether they fold to each other's bets more than to the others' in the same
// strata (a positive statistic).
func (a *Analyzer) softFold(p *pairStats, ex map[int32][]int32) (float64, bool) {
	var c cmh
	for dir, me := range [2]int32{p.a, p.b} {
		t := a.baseline(me, [2]int32{p.b, p.a}[dir], ex)
		for s := range t.foldN {
			n1, k1 := p.foldN[dir][s], p.foldK[dir][s]
			c.add(n1, k1, t.foldN[s]-n1, t.foldK[s]-k1)
		}
	}
	return c.z()
}

// shareTest tests whether an act is more frequent in group 1 than group 0 of each direction and
// stratum: folds when the partner holds more than when he holds less, raises the other way.
func shareTest(n1, k1, n0, k0 *[2][strata]int32) (float64, bool) {
	var c cmh
	for dir := range 2 {
		for s := range strata {
			c.add(n1[dir][s], k1[dir][s], n0[dir][s], k0[dir][s])
		}
	}
	return c.z()
}

// dump is the chip-dumping statistic: how much more often a folds a hand that beats b's at the
// end to b's bets than to the others' (same strata), less the same of b towards a, over its
// standard error. Positive: chips from a to b. Soft play folds both ways and cancels out; a
// dump goes one way.
func (a *Analyzer) dump(p *pairStats, ex map[int32][]int32) (float64, bool) {
	var z [2]float64
	for dir, me := range [2]int32{p.a, p.b} {
		var c cmh
		t := a.baseline(me, [2]int32{p.b, p.a}[dir], ex)
		for s := range t.winN {
			n1, k1 := p.winN[dir][s], p.winK[dir][s]
			c.add(n1, k1, t.winN[s]-n1, t.winK[s]-k1)
		}
		var ok bool
		if z[dir], ok = c.z(); !ok && c.v < minVariance/4 {
			z[dir] = 0
		}
	}
	if z[0] == 0 && z[1] == 0 {
		return 0, false
	}
	return (z[0] - z[1]) / math.Sqrt2, true
}

// twoSided combines the two tests of one signal: the stronger, its p-value doubled (Bonferroni).
func twoSided(ok1 bool, z1 float64, ok2 bool, z2 float64) Signal {
	s := Signal{P: 1}
	if !ok1 && !ok2 {
		return s
	}
	z := math.Inf(-1)
	if ok1 {
		z = z1
	}
	if ok2 && z2 > z {
		z = z2
	}
	return Signal{Z: z, P: math.Min(1, 2*upper(z))}
}

func merge(t *[2]topk) []string {
	var all topk
	for i := range t {
		for k, id := range t[i].ids {
			all.add(id, t[i].keys[k])
		}
	}
	return all.sorted()
}

func sum2(x *[2][strata * 2]int32) (n int) {
	for i := range x {
		for _, v := range x[i] {
			n += int(v)
		}
	}
	return n
}

func sum2s(x *[2][strata]int32) (n int) {
	for i := range x {
		for _, v := range x[i] {
			n += int(v)
		}
	}
	return n
}

// overlap counts, for every pair, the periods in which both played, those at the same table,
// and the number their schedules predict: in a period where N players play, n_t at table t, two
// of them chosen at random share a table with chance Σ n_t(n_t-1) / N(N-1).
func (a *Analyzer) overlap() {
	type at struct {
		player int32
		table  string
	}
	bySlot := map[int64][]at{}
	for k, m := range a.seen {
		best, n := "", -1
		for t, c := range m {
			if c > n || c == n && t < best {
				best, n = t, c
			}
		}
		bySlot[k.slot] = append(bySlot[k.slot], at{k.player, best})
	}
	for _, p := range a.pairs {
		p.slots, p.together, p.expected = 0, 0, 0
	}
	// The slots in time order: the sums of chances are then the same bits at every run (a map's
	// order is not), so the same log gives the same report byte for byte.
	slots := make([]int64, 0, len(bySlot))
	for k := range bySlot {
		slots = append(slots, k)
	}
	slices.Sort(slots)
	for _, slot := range slots {
		ps := bySlot[slot]
		if len(ps) < 2 {
			continue
		}
		count := map[string]int{}
		for _, x := range ps {
			count[x.table]++
		}
		var same float64
		for _, n := range count {
			same += float64(n * (n - 1))
		}
		n := float64(len(ps))
		chance := same / (n * (n - 1))
		for i, x := range ps {
			for _, y := range ps[i+1:] {
				lo, hi := x.player, y.player
				if lo > hi {
					lo, hi = hi, lo
				}
				p := a.pairs[uint64(lo)<<32|uint64(hi)]
				if p == nil {
					continue // never dealt in together: not scored
				}
				p.slots++
				p.expected += chance
				if x.table == y.table {
					p.together++
				}
			}
		}
	}
}
