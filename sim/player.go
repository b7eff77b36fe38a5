package sim

import (
	"math/rand/v2"
	"sort"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/rules"
)

// Style is how a computer player plays: how good a hand he needs to play on (Tight), how often
// he bets and raises rather than checks and calls (Aggression), how often he bets a poor hand
// (Bluff) and how often he checks a hand he could open with (Slowplay).
type Style struct {
	Name       string
	Tight      float64 // 0 (plays anything) .. 1 (only strong hands)
	Aggression float64 // 0 (passive) .. 1 (aggressive)
	Bluff      float64 // chance of betting or raising with a poor hand
	Slowplay   float64 // chance of checking openers
}

// The styles the seats take in turn.
var styles = []Style{
	{Name: "rock", Tight: 0.8, Aggression: 0.3, Bluff: 0.02, Slowplay: 0.1},
	{Name: "maniac", Tight: 0.15, Aggression: 0.9, Bluff: 0.25, Slowplay: 0.05},
	{Name: "station", Tight: 0.2, Aggression: 0.15, Bluff: 0.03, Slowplay: 0.3},
	{Name: "shark", Tight: 0.55, Aggression: 0.7, Bluff: 0.1, Slowplay: 0.25},
	{Name: "gambler", Tight: 0.35, Aggression: 0.6, Bluff: 0.15, Slowplay: 0.1},
}

// madeStrength rates the categories from trips up, whatever their ranks (indexed by category).
var madeStrength = [...]float64{rules.Trips: 0.7, rules.Straight: 0.78, rules.Flush: 0.84, rules.FullHouse: 0.9,
	rules.Quads: 0.97, rules.StraightFlush: 1}

// strength rates five cards from 0 (nothing) to 1 (the best), with credit for draws before the
// draw.
func strength(ev *rules.Evaluator, hand []cards.Card, beforeDraw bool, low cards.Rank) float64 {
	if len(hand) != 5 {
		return 0
	}
	v := ev.Eval([5]cards.Card(hand))
	hi := func(r cards.Rank) float64 { return float64(r-low) / float64(cards.Ace-low+1) }
	var s float64
	switch c := v.Category(); c {
	case rules.HighCard:
		s = 0.05 + 0.1*hi(maxRank(hand))
	case rules.Pair:
		s = 0.2 + 0.25*hi(pairRank(hand))
	case rules.TwoPair:
		s = 0.55 + 0.1*hi(pairRank(hand))
	default:
		s = madeStrength[c]
	}
	if beforeDraw && s < 0.5 {
		if _, ok := flushDraw(hand); ok {
			s += 0.15
		} else if _, ok := straightDraw(hand); ok {
			s += 0.1
		}
	}
	return s
}

func maxRank(h []cards.Card) cards.Rank {
	var m cards.Rank
	for _, c := range h {
		m = max(m, c.Rank())
	}
	return m
}

func counts(h []cards.Card) map[cards.Rank]int {
	m := map[cards.Rank]int{}
	for _, c := range h {
		m[c.Rank()]++
	}
	return m
}

// pairRank returns the highest rank held at least twice.
func pairRank(h []cards.Card) cards.Rank {
	var best cards.Rank
	for r, n := range counts(h) {
		if n >= 2 && r > best {
			best = r
		}
	}
	return best
}

// flushDraw returns the card off suit when four cards share a suit.
func flushDraw(h []cards.Card) (cards.Card, bool) {
	var n [4]int
	for _, c := range h {
		n[c.Suit()]++
	}
	for s, k := range n {
		if k == 4 {
			for _, c := range h {
				if int(c.Suit()) != s {
					return c, true
				}
			}
		}
	}
	return 0, false
}

// straightDraw returns the card that does not fit when four cards lie within a span of five ranks.
func straightDraw(h []cards.Card) (cards.Card, bool) {
	for skip := range h {
		var rs []int
		seen := map[cards.Rank]bool{}
		ok := true
		for i, c := range h {
			if i == skip {
				continue
			}
			if seen[c.Rank()] {
				ok = false
			}
			seen[c.Rank()] = true
			rs = append(rs, int(c.Rank()))
		}
		sort.Ints(rs)
		if ok && rs[3]-rs[0] <= 4 {
			return h[skip], true
		}
	}
	return 0, false
}

// discards chooses the cards to throw: keep pairs and better, draw to flushes and straights,
// stand pat on made hands, keep high cards with nothing, sometimes stand pat as a bluff.
func discards(r *rand.Rand, st Style, ev *rules.Evaluator, hand []cards.Card, maxDraw int) []cards.Card {
	if len(hand) != 5 {
		return nil
	}
	v := ev.Eval([5]cards.Card(hand))
	cnt := counts(hand)
	keepRanks := func(min int) []cards.Card {
		var out []cards.Card
		for _, c := range hand {
			if cnt[c.Rank()] < min {
				out = append(out, c)
			}
		}
		return out
	}
	var out []cards.Card
	switch v.Category() {
	case rules.Straight, rules.Flush, rules.FullHouse, rules.StraightFlush:
		return nil
	case rules.Quads:
		if r.Float64() < 0.5 {
			return nil
		}
		out = keepRanks(4)
	case rules.Trips:
		out = keepRanks(3)
		if r.Float64() < 0.3 {
			out = out[:1] // keep a kicker
		}
	case rules.TwoPair:
		out = keepRanks(2)
	case rules.Pair:
		out = keepRanks(2)
		if r.Float64() < 0.2*(1-st.Tight) {
			sortByRank(out)
			out = out[:len(out)-1] // keep the highest kicker
		}
	default:
		if c, ok := flushDraw(hand); ok {
			return []cards.Card{c}
		}
		if c, ok := straightDraw(hand); ok && r.Float64() < 0.8 {
			return []cards.Card{c}
		}
		if r.Float64() < st.Bluff {
			return nil // stand pat on nothing
		}
		out = append([]cards.Card(nil), hand...)
		sortByRank(out)
		switch x := r.Float64(); {
		case x < 0.25*(1-st.Tight) && maxDraw >= 5:
			// draw five
		case x < 0.55:
			out = out[:4] // keep the highest card
		default:
			out = out[:3] // keep two high cards
		}
	}
	if len(out) > maxDraw {
		sortByRank(out)
		out = out[:maxDraw]
	}
	return out
}

func sortByRank(cs []cards.Card) {
	sort.Slice(cs, func(i, j int) bool { return cs[i] < cs[j] })
}

// decision is a betting action the player takes.
type decision struct {
	action events.Action
	amount events.Chips
}

// decide picks a legal action from o for a player of style st holding a hand of strength str.
// qualified says whether the hand may open (meaningful when o.Opening).
func decide(r *rand.Rand, st Style, o rules.Options, str float64, qualified bool, pot, stack events.Chips) decision {
	pick := func(lo, hi events.Chips) events.Chips {
		if hi <= lo {
			return lo
		}
		if str > 0.85 && r.Float64() < st.Aggression/2 {
			return hi // push with the nuts
		}
		// Mostly a fraction of the pot, more for aggressive players and strong hands.
		v := lo + events.Chips(float64(pot)*(0.2+st.Aggression*r.Float64()+0.5*str*r.Float64()))
		if r.Float64() < 0.4 {
			v = lo
		}
		return min(max(v, lo), hi)
	}
	bluff := r.Float64() < st.Bluff
	if o.Call == 0 && !o.Raise {
		// Nothing to call: check or bet.
		var want bool
		switch {
		case o.Opening && o.Check:
			// Openers rules: open when he may, unless he slowplays them.
			want = qualified && r.Float64() >= st.Slowplay/2
		default:
			want = str > 0.2+0.4*st.Tight && r.Float64() < 0.4+0.6*st.Aggression
		}
		canBet := o.Bet && (!o.Opening || qualified)
		if canBet && (want || bluff || !o.Check) {
			return decision{events.Bet, pick(o.MinBet, o.MaxBet)}
		}
		if o.Check {
			return decision{events.Check, 0}
		}
		return decision{events.Fold, 0}
	}
	// Facing a bet: fold, call or raise.
	owed := o.Call
	odds := float64(owed) / float64(pot+owed)
	need := 0.1 + 0.35*st.Tight + 0.5*odds
	if o.Check {
		need = -1 // nothing owed (the big blind's option)
	}
	if o.Raise && (str > need+0.3 && r.Float64() < st.Aggression || bluff && str < 0.3) {
		return decision{events.Raise, pick(o.MinRaise, o.MaxRaise)}
	}
	if o.Check {
		return decision{events.Check, 0}
	}
	if str >= need || r.Float64() < 0.25*(1-st.Tight) {
		return decision{events.Call, owed}
	}
	return decision{events.Fold, 0}
}
