package sim

import (
	"fmt"
	"math/rand/v2"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/rules"
)

// The kinds of collusion a room plants (RoomConfig.Collusion).
const (
	SoftPlay   = "soft-play"   // partners do not bet into each other and fold to each other
	ChipDump   = "chip-dump"   // one partner passes chips to the other
	ShareCards = "share-cards" // partners act knowing each other's cards
)

// CollusionKinds lists the kinds of collusion, in the order the command names them.
var CollusionKinds = []string{SoftPlay, ChipDump, ShareCards}

// How often a colluder departs from his honest decision when the situation arises. They are well
// below 1 on purpose: real colluders hide among honest decisions, and the analysis must find them
// over many hands, not in one.
const (
	softPlayRate   = 0.6  // a bet or raise with the partner still in becomes a check or a call
	softFoldRate   = 0.5  // a hand short of a flush folds to the partner's bet
	dumpFoldRate   = 0.5  // the dumper folds to the receiver's bet, whatever he holds
	dumpPumpRate   = 0.25 // the dumper bets or raises a weak hand into the receiver
	dumpPushRate   = 0.3  // the receiver bets or raises when the dumper is in
	shareFoldRate  = 0.6  // facing a third player's bet, he folds when the partner holds more
	shareRaiseRate = 0.4  // ... and raises when he holds more than the partner
)

// Pair is a planted pair of colluders, as sim --truth writes it. In a chip dump A passes chips
// to B.
type Pair struct {
	A    string `json:"a"`
	B    string `json:"b"`
	Kind string `json:"kind"`
}

// collusion is what the colluders of a room know: who is whose partner and how they collude.
type collusion struct {
	partner map[string]string
	kind    map[string]string // by player
	dumper  map[string]bool   // chip-dump: the player who passes the chips
	rng     *rand.Rand
}

func newCollusion(pairs []Pair, seed uint64) *collusion {
	c := &collusion{partner: map[string]string{}, kind: map[string]string{}, dumper: map[string]bool{},
		rng: rand.New(rand.NewPCG(seed, 0xc0de))}
	for _, p := range pairs {
		c.partner[p.A], c.partner[p.B] = p.B, p.A
		c.kind[p.A], c.kind[p.B] = p.Kind, p.Kind
		if p.Kind == ChipDump {
			c.dumper[p.A] = true
		}
	}
	return c
}

func validKind(k string) error {
	for _, x := range CollusionKinds {
		if x == k {
			return nil
		}
	}
	return fmt.Errorf("%w: collusion %q: one of soft-play, chip-dump, share-cards", ErrConfig, k)
}

// act turns the honest decision d of the player p into the colluder's, when p colludes and his
// partner is still in the hand. It keeps to the options o: every action it returns is legal.
func (c *collusion) act(g *game, o rules.Options, r events.Round, p *rules.Player, str float64, d decision) decision {
	partner, ok := c.partner[p.Name]
	if !ok || r == events.RoundBlind {
		return d
	}
	var q *rules.Player
	for _, x := range g.h.Players {
		if x.Name == partner && !x.Folded && !x.Mucked {
			q = x
		}
	}
	if q == nil {
		return d
	}
	facing := o.Call > 0
	aggressive := d.action == events.Bet || d.action == events.Raise
	passive := func() decision {
		if o.Check {
			return decision{events.Check, 0}
		}
		if facing {
			return decision{events.Call, o.Call}
		}
		return d
	}
	fold := func() decision {
		if o.Check || !facing {
			return passive()
		}
		return decision{events.Fold, 0}
	}
	push := func() decision {
		switch {
		case o.Raise:
			return decision{events.Raise, o.MinRaise}
		case o.Bet && (!o.Opening || g.qualifies(p.Cards)): // openers still open the pot
			return decision{events.Bet, o.MinBet}
		}
		return d
	}
	byPartner := facing && g.h.LastAggressor == q.Seat
	switch c.kind[p.Name] {
	case SoftPlay:
		switch {
		case aggressive && c.rng.Float64() < softPlayRate:
			return passive()
		case byPartner && str < madeStrength[rules.Flush] && c.rng.Float64() < softFoldRate:
			return fold()
		}
	case ChipDump:
		if c.dumper[p.Name] {
			switch {
			case byPartner && c.rng.Float64() < dumpFoldRate:
				return fold()
			case !byPartner && str < 0.45 && c.rng.Float64() < dumpPumpRate:
				return push()
			}
		} else if !aggressive && c.rng.Float64() < dumpPushRate {
			return push()
		}
	case ShareCards:
		if len(p.Cards) != 5 || len(q.Cards) != 5 || !facing || byPartner {
			return d
		}
		mine, his := g.h.Eval.Eval([5]cards.Card(p.Cards)), g.h.Eval.Eval([5]cards.Card(q.Cards))
		switch {
		case his > mine && c.rng.Float64() < shareFoldRate:
			return fold()
		case mine > his && d.action != events.Fold && c.rng.Float64() < shareRaiseRate:
			return push()
		}
	}
	return d
}
