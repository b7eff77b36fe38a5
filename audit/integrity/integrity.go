// Package integrity owns the analysis of collusion: it reads a log of hands and scores every
// pair of players who played together on four signals (table overlap, soft play, chip dumping,
// shared cards), each a statistic with its null distribution and the hands that show it, then
// flags the pairs whose evidence survives a false discovery control over all the pairs scored.
// It uses every card the log records: the whole deal of machine-shuffled hands, also the folded
// players' cards, and at live tables the cards recorded. docs/integrity.md says how to read it.
package integrity

import (
	"fmt"
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

// strata of a decision: the strength of the hand (buckets) by the betting round; facing a bet,
// also by its price (prices: the share of the pot after the call that the call is, cut at 0.2,
// 0.3, 0.4), which an honest player answers and a bettor's style sets (a big bettor gets more
// folds from everyone).
const (
	buckets = 6
	strata  = buckets * 2
	prices  = 4
	fstrata = strata * prices       // bets faced
	astrata = strata * (1 + prices) // every decision: no bet owed, or the price of the bet
)

// price places the price of a call among the prices: owed chips over the pot after the call.
func price(owed, pot events.Chips) int {
	if owed <= 0 || pot+owed <= 0 {
		return 0
	}
	r := float64(owed) / float64(pot+owed)
	switch {
	case r < 0.2:
		return 0
	case r < 0.3:
		return 1
	case r < 0.4:
		return 2
	}
	return 3
}

// Analyzer reads the events of a log, in the log's order (hands of several tables may
// interleave), and scores the pairs (Result).
type Analyzer struct {
	o         Options
	open      map[string]*handState
	players   []string
	id        map[string]int32
	tables    map[string]int32 // the contexts of the decisions: one per table id
	games     map[string]int32 // the games (rules and stakes), and the game of each table
	tableGame []int32
	pairs     map[uint64]*pairStats
	seen      map[slotKey]map[string]int // hands by table, per player and slot
	dec       decStore
	// Hands counts the hands read to their end; Known those with every dealt card known.
	Hands, Known int
}

// decStore keeps every decision whose cards are known, compactly, for the tests, which count
// them at scoring time (a flagged partner's decisions then leave the other pairs' baselines): who
// acted, at which table, the stratum, what he did, whose bet he faced (-1: none) and its price,
// and the other players still in the hand (others[end[i-1]:end[i]]) with whether each held better
// five cards than he (better: 1 more, 0 not more, -1 not known). byMe lists each player's
// decisions.
type decStore struct {
	me     []int32
	ctx    []int32
	st     []uint8
	price  []uint8
	act    []uint8
	facing []int32
	end    []int32
	others []int32
	better []int8
	byMe   [][]int32
}

// What a kept decision did (decStore.act).
const (
	actFaced  = 1 << iota // a bet was owed
	actAggr               // bet or raised
	actFold               // folded
	actRaise              // raised
	actWinner             // faced a bet holding five cards that beat the bettor's at the end
)

type slotKey struct {
	slot   int64
	player int32
}

type pairStats struct {
	a, b  int32 // a < b
	hands int
	// The tests' Cochran–Mantel–Haenszel sums by the acting player (0: a acts, 1: b acts), over
	// strata of table, strength and round: soft play's aggression with the partner in the hand and
	// folds to his bets, chip dumping's folds of winners to his bets, shared cards' folds when he
	// holds more and raises when holding more than him.
	agg, fold, win, shF, shR [2]cmh
	softN, shareN            int
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
	return &Analyzer{o: o, open: map[string]*handState{}, id: map[string]int32{}, tables: map[string]int32{}, games: map[string]int32{},
		pairs: map[uint64]*pairStats{}, seen: map[slotKey]map[string]int{}}
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
	price   int         // facing a bet: its price (price)
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
	a.dec.byMe = append(a.dec.byMe, nil)
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
		dec.price = price(min(h.CurrentBet-p.RoundIn, p.Stack), h.Pot())
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
	ctx, ok := a.tables[st.table]
	if !ok {
		ctx = int32(len(a.tables))
		a.tables[st.table] = ctx
		// The game of a table: its rules and stakes (the stakes of its first hand: a
		// tournament's table keeps its game as the levels rise).
		g := game(st.h)
		gi, ok := a.games[g]
		if !ok {
			gi = int32(len(a.games))
			a.games[g] = gi
		}
		a.tableGame = append(a.tableGame, gi)
	}
	for _, d := range st.dec {
		a.decision(hand, ctx, ids, final, d)
	}
	if known {
		a.flow(hand, st, ids)
	}
}

// decision keeps one betting decision for the soft-play, chip-dumping and shared-cards tests,
// with its context: the table it was taken at.
func (a *Analyzer) decision(hand string, ctx int32, ids map[events.Seat]int32, final map[events.Seat]rules.Value, d decision) {
	if d.stratum < 0 {
		return
	}
	me := ids[d.seat]
	var act uint8
	facing := int32(-1)
	if d.facing != 0 {
		act |= actFaced
		if f, ok := ids[d.facing]; ok {
			facing = f
		}
	}
	aggressive := d.action == events.Bet || d.action == events.Raise
	if aggressive {
		act |= actAggr
	}
	if d.action == events.Fold {
		act |= actFold
	}
	if d.action == events.Raise {
		act |= actRaise
	}
	// He held the winner against the bettor: the cards at the end say his fold gave chips away.
	if d.facing != 0 && final[d.seat] != 0 && final[d.facing] != 0 && final[d.seat] > final[d.facing] {
		act |= actWinner
	}
	s := &a.dec
	s.byMe[me] = append(s.byMe[me], int32(len(s.me)))
	s.me = append(s.me, me)
	s.ctx = append(s.ctx, ctx)
	s.st = append(s.st, uint8(d.stratum))
	s.price = append(s.price, uint8(d.price))
	s.act = append(s.act, act)
	s.facing = append(s.facing, facing)
	for _, o := range d.others {
		s.others = append(s.others, ids[o.seat])
		switch {
		case o.value == 0:
			s.better = append(s.better, -1)
		case o.value > d.value:
			s.better = append(s.better, 1)
		default:
			s.better = append(s.better, 0)
		}
		// The evidence: the hands that show each signal best.
		q := a.pair(me, ids[o.seat])
		dir := 0
		if me != q.a {
			dir = 1
		}
		if bucket(d.value) >= 3 && (!aggressive || d.action == events.Fold) {
			q.softEv[dir].add(hand, float64(d.value))
		}
		if d.facing == o.seat && d.action == events.Fold {
			q.softEv[dir].add(hand, float64(d.value))
		}
		if d.facing != 0 && d.facing != o.seat && o.value > d.value && d.action == events.Fold {
			q.shareEv[dir].add(hand, float64(d.value))
		}
	}
	s.end = append(s.end, int32(len(s.others)))
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
//
// Uncalibrated says the statistic could not be calibrated: fewer than MinCalibration pairs carry
// it, too few to estimate its null distribution over the pairs (docs/integrity.md, the empirical
// null). Z is then the raw statistic and P is 1: the signal flags nothing.
type Signal struct {
	Z            float64  `json:"z"`
	P            float64  `json:"p"`
	N            int      `json:"n"`
	Hands        []string `json:"hands,omitempty"`
	Uncalibrated bool     `json:"uncalibrated,omitempty"`
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
	// Uncalibrated lists the signals that could not be calibrated, with how many pairs carry
	// them (fewer than MinCalibration): they flag no pair.
	Uncalibrated []Uncalibrated
}

// Uncalibrated is a signal that could not be calibrated and the number of pairs that carry it.
type Uncalibrated struct {
	Signal string
	Pairs  int
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
	a.count(ex)
	// Raw statistics.
	var aggs, folds, shf, shr, dumps []*float64
	for _, p := range tested {
		p.aggZ, p.aggOK = p.agg[0].plus(p.agg[1]).z()
		p.aggZ = -p.aggZ // against the pair when he bets less with the partner in
		p.foldZ, p.foldOK = p.fold[0].plus(p.fold[1]).z()
		p.shFoldZ, p.shFoldOK = p.shF[0].plus(p.shF[1]).z()
		p.shRaise, p.shROK = p.shR[0].plus(p.shR[1]).z()
		p.dumpZ, p.dumpOK = dump(p)
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
	// A statistic is calibrated against the pairs that carry it (the empirical null), or not at
	// all: too few pairs, and its raw z says nothing a p-value can stand on.
	var cal [5]bool
	for i, zs := range [][]*float64{aggs, folds, shf, shr, dumps} {
		cal[i] = centre(zs)
	}
	r := &Report{Hands: a.Hands, Known: a.Known, Players: len(a.players), Q: a.o.Q, Threshold: -math.Log10(a.o.Q)}
	for _, u := range []struct {
		kind   string
		raw    bool
		cal    bool
		tested int
	}{
		{SoftPlay, len(aggs)+len(folds) > 0, cal[0] || cal[1], max(len(aggs), len(folds))},
		{ChipDump, len(dumps) > 0, cal[4], len(dumps)},
		{ShareCards, len(shf)+len(shr) > 0, cal[2] || cal[3], max(len(shf), len(shr))},
	} {
		if u.raw && !u.cal {
			r.Uncalibrated = append(r.Uncalibrated, Uncalibrated{Signal: u.kind, Pairs: u.tested})
		}
	}
	ps := make([]float64, len(tested))
	for i, p := range tested {
		out := Pair{A: a.players[p.a], B: a.players[p.b], Hands: p.hands,
			Overlap: Overlap{Slots: p.slots, Together: p.together, Expected: p.expected, P: poissonUpper(p.together, p.expected)}}
		out.Soft = twoSided(part{p.aggOK, cal[0], p.aggZ}, part{p.foldOK, cal[1], p.foldZ})
		out.Soft.N = p.softN
		out.Soft.Hands = merge(&p.softEv)
		out.Shared = twoSided(part{p.shFoldOK, cal[2], p.shFoldZ}, part{p.shROK, cal[3], p.shRaise})
		out.Shared.N = p.shareN
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
			if !cal[4] {
				out.Dumping.P, out.Dumping.Uncalibrated = 1, true
			}
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

// ctxTotals are a player's decisions in one context (a table, a game), or those with one other
// player in the hand, by stratum (and, for aggression, whether a bet was faced).
type ctxTotals struct {
	aggN, aggK   [astrata]int32 // decisions, bets and raises
	foldN, foldK [fstrata]int32 // bets faced, folds
	winN, winK   [strata]int32  // bets faced holding five cards that beat the bettor's, folds
}

func (t *ctxTotals) plus(u *ctxTotals) {
	for i := range t.aggN {
		t.aggN[i] += u.aggN[i]
		t.aggK[i] += u.aggK[i]
	}
	for i := range t.foldN {
		t.foldN[i] += u.foldN[i]
		t.foldK[i] += u.foldK[i]
	}
	for i := range t.winN {
		t.winN[i] += u.winN[i]
		t.winK[i] += u.winK[i]
	}
}

func (t *ctxTotals) minus(u *ctxTotals) {
	for i := range t.aggN {
		t.aggN[i] -= u.aggN[i]
		t.aggK[i] -= u.aggK[i]
	}
	for i := range t.foldN {
		t.foldN[i] -= u.foldN[i]
		t.foldK[i] -= u.foldK[i]
	}
	for i := range t.winN {
		t.winN[i] -= u.winN[i]
		t.winK[i] -= u.winK[i]
	}
}

// cell is one player's decisions with one other player in the hand (facing his bet, for folds),
// at one table.
type cell struct {
	other, ctx int32
	ctxTotals
	// Facing a third player's bet with the other in the hand holding more (b) or not (w):
	// decisions, folds, raises.
	bN, bF, bR, wN, wF, wR [strata]int32
}

// count fills the pairs' test sums from the decisions kept.
//
// The soft-play and chip-dumping tests compare a player's decisions with the other in the hand
// (or facing his bet) with his own other decisions, same stratum, same context: his play differs
// from game to game (blinds or antes, limits) and from table to table (the opponents; a computer's
// strategy), and pooled over them a pair who meet mostly at a passive table would look soft. Each
// stratum's baseline is his decisions at that table without the other, plus up to priorWeight
// decisions at his rate at the game (rules and stakes) without the other (cmh.addRate): at a
// table where he played a lot the table rules, at a table of a few hands the game (a table of a
// few hands cannot tell his style there from the pair's effect).
//
// The shared-cards test compares the pair's decisions among themselves (the partner holding more
// or not), strata of table, strength and round: a Cochran–Mantel–Haenszel test.
//
// ex lists flagged partners: a decision of a player with a flagged partner in the hand (for
// aggression), or facing his bet (folds), counts for that pair only and leaves the baseline of
// his other pairs, and one with two such partners in counts for none.
func (a *Analyzer) count(ex map[int32][]int32) {
	for _, p := range a.pairs {
		p.agg, p.fold, p.win, p.shF, p.shR = [2]cmh{}, [2]cmh{}, [2]cmh{}, [2]cmh{}, [2]cmh{}
		p.softN, p.shareN = 0, 0
	}
	s := &a.dec
	for me, list := range s.byMe {
		me := int32(me)
		flaggedWith := ex[me]
		tables := map[int32]*ctxTotals{} // his decisions by table
		games := map[int32]*ctxTotals{}  // and by game
		cells := map[uint64]*cell{}      // with each other, by table
		at := func(o, ctx int32) *cell {
			k := uint64(o)<<32 | uint64(ctx)
			c := cells[k]
			if c == nil {
				c = &cell{other: o, ctx: ctx}
				cells[k] = c
			}
			return c
		}
		for _, i := range list {
			ctx, st, act, facing := s.ctx[i], s.st[i], s.act[i], s.facing[i]
			// fs: the stratum of a bet faced, with its price; as: of any decision.
			fs := int(st)*prices + int(s.price[i])
			as := int(st) * (1 + prices)
			if act&actFaced != 0 {
				as += 1 + int(s.price[i])
			}
			start := int32(0)
			if i > 0 {
				start = s.end[i-1]
			}
			others, better := s.others[start:s.end[i]], s.better[start:s.end[i]]
			t, g := tables[ctx], games[a.tableGame[ctx]]
			if t == nil {
				t = &ctxTotals{}
				tables[ctx] = t
			}
			if g == nil {
				g = &ctxTotals{}
				games[a.tableGame[ctx]] = g
			}
			hit := b2i(act&actAggr != 0)
			fold := b2i(act&actFold != 0)
			flagged, nf := int32(-1), 0
			for _, o := range others {
				if slices.Contains(flaggedWith, o) {
					flagged, nf = o, nf+1
				}
			}
			faced := act&actFaced != 0 && facing >= 0
			for _, x := range []*ctxTotals{t, g} {
				if nf == 0 {
					x.aggN[as]++
					x.aggK[as] += hit
				}
				if faced && !slices.Contains(flaggedWith, facing) {
					x.foldN[fs]++
					x.foldK[fs] += fold
					if act&actWinner != 0 {
						x.winN[st]++
						x.winK[st] += fold
					}
				}
			}
			for k, o := range others {
				if nf == 0 || nf == 1 && o == flagged {
					c := at(o, ctx)
					c.aggN[as]++
					c.aggK[as] += hit
				}
				if faced && facing == o {
					c := at(o, ctx)
					c.foldN[fs]++
					c.foldK[fs] += fold
					if act&actWinner != 0 {
						c.winN[st]++
						c.winK[st] += fold
					}
				}
				if act&actFaced != 0 && facing != o && better[k] >= 0 {
					c := at(o, ctx)
					raise := b2i(act&actRaise != 0)
					if better[k] == 1 {
						c.bN[st]++
						c.bF[st] += fold
						c.bR[st] += raise
					} else {
						c.wN[st]++
						c.wF[st] += fold
						c.wR[st] += raise
					}
				}
			}
		}
		// In the order of the keys: the sums are then the same bits at every run.
		keys := make([]uint64, 0, len(cells))
		for k := range cells {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		// The pair's decisions by game, to take out of the game's baseline.
		withGame := map[uint64]*ctxTotals{}
		for _, k := range keys {
			c := cells[k]
			gk := uint64(c.other)<<32 | uint64(a.tableGame[c.ctx])
			w := withGame[gk]
			if w == nil {
				w = &ctxTotals{}
				withGame[gk] = w
			}
			w.plus(&c.ctxTotals)
		}
		for _, k := range keys {
			c := cells[k]
			p := a.pairs[key(me, c.other)]
			if p == nil || p.hands < a.o.MinHands {
				continue
			}
			dir := 0
			if me != p.a {
				dir = 1
			}
			// The baselines without the pair: a flagged partner's decisions are not in them.
			t := *tables[c.ctx]
			g := *games[a.tableGame[c.ctx]]
			if !slices.Contains(flaggedWith, c.other) {
				t.minus(&c.ctxTotals)
				g.minus(withGame[uint64(c.other)<<32|uint64(a.tableGame[c.ctx])])
			}
			for x := range c.aggN {
				p.agg[dir].addRate(c.aggN[x], c.aggK[x], t.aggN[x], t.aggK[x], g.aggN[x], g.aggK[x])
				p.softN += int(c.aggN[x])
			}
			for x := range fstrata {
				p.fold[dir].addRate(c.foldN[x], c.foldK[x], t.foldN[x], t.foldK[x], g.foldN[x], g.foldK[x])
				p.softN += int(c.foldN[x])
			}
			for x := range strata {
				p.win[dir].addRate(c.winN[x], c.winK[x], t.winN[x], t.winK[x], g.winN[x], g.winK[x])
				p.shF[dir].add(c.bN[x], c.bF[x], c.wN[x], c.wF[x])
				p.shR[dir].add(c.wN[x], c.wR[x], c.bN[x], c.bR[x])
				p.shareN += int(c.bN[x] + c.wN[x])
			}
		}
	}
}

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
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

// dump is the chip-dumping statistic: how much more often a folds a hand that beats b's at the
// end to b's bets than to the others' (same table and strata), less the same of b towards a,
// over its standard error. Positive: chips from a to b. Soft play folds both ways and cancels
// out; a dump goes one way.
func dump(p *pairStats) (float64, bool) {
	var z [2]float64
	for dir := range 2 {
		z[dir], _ = p.win[dir].z() // 0 when the direction has too few decisions
	}
	if z[0] == 0 && z[1] == 0 {
		return 0, false
	}
	return (z[0] - z[1]) / math.Sqrt2, true
}

// part is one test of a signal: whether the pair has enough decisions for it, whether the
// statistic could be calibrated over the pairs, and its z-score.
type part struct {
	ok, cal bool
	z       float64
}

// twoSided combines the two tests of one signal: the stronger calibrated one, its p-value doubled
// (Bonferroni). A signal whose tests could not be calibrated shows the stronger raw z-score with
// no p-value (1).
func twoSided(t1, t2 part) Signal {
	best := func(cal bool) (float64, bool) {
		z, any := math.Inf(-1), false
		for _, t := range []part{t1, t2} {
			if t.ok && (t.cal || !cal) && t.z > z {
				z, any = t.z, true
			}
		}
		return z, any
	}
	if z, ok := best(true); ok {
		return Signal{Z: z, P: math.Min(1, 2*upper(z))}
	}
	if z, ok := best(false); ok {
		return Signal{Z: z, P: 1, Uncalibrated: true}
	}
	return Signal{P: 1}
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

// game names the game a hand is played at: the rules and the stakes.
func game(h *rules.Hand) string {
	st := h.Start.Stakes
	return fmt.Sprintf("%s %d %d %d", h.Preset.Name, st.Ante, st.MinBet, st.MaxBet)
}
