package main

import (
	"bufio"
	"bytes"
	"strconv"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/rules"
)

func init() {
	register(&command{
		name:    "rank",
		summary: "rank five-card hands under a preset's ranking",
		usage:   "rank --rules NAME [--low RANK] [HAND…]",
		help: `
Rank ranks five-card hands, best first, under the hand ranking of a preset (presets.md: the order
of the categories, the lowest straight, whether suits break ties) and the deck that starts at
--low (default: the preset's deck for four players: br-fechado 7, br-online 2, tr-kapali 7,
std-draw 2, online-draw 2). The lowest straight is the ace and the four lowest ranks of that deck.

Each HAND is five cards, rank then suit (2-9 T J Q K A, c d h s), separated by spaces or commas or
written together: "Ah Kh Qh Jh Th" or AhKhQhJhTh. With no HAND, rank reads one hand per line from
standard input; blank lines are skipped.

Output: one line per hand, best first:

    position<TAB>cards<TAB>category

The cards are printed as given, in the form "Ah Kh Qh Jh Th". Equal hands share a position, and
equal hands keep their input order; positions use competition ranking, so two hands tied for
first are both 1 and the next hand is 3 ("1, 1, 3"). Under tr-kapali suits break ties, so no two
hands share a position. The category is one of: high card, pair, two pair, three of a kind,
straight, flush, full house, four of a kind, straight flush.

A hand that is not five distinct cards of the deck, or an unknown preset, exits 2 with a message
naming the hand (its number among the arguments, or its line on standard input).`,
		run: runRank,
	})
}

// rankingFor returns the hand ranking of the preset name (rules.Lookup), with Low set to the
// preset's deck for four players.
func rankingFor(name string) (rules.Ranking, error) {
	p, err := rules.Lookup(name)
	if err != nil {
		return rules.Ranking{}, err
	}
	low, _ := p.Low(4) // cli-v1.md: the preset's deck for four players
	return p.Ranking(low), nil
}

// rankedHand is one input hand and its value.
type rankedHand struct {
	v     rules.Value
	cards [5]cards.Card
}

func runRank(m *Main, args []string) error {
	fs := m.flags(commands["rank"])
	name := fs.String("rules", "", "the preset whose ranking applies: br-fechado, br-online, "+
		"tr-kapali, std-draw or online-draw (required)")
	lowFlag := fs.String("low", "", "the lowest rank of the deck, 2 to 9 "+
		"(default: the preset's deck for four players)")
	operands, err := m.parse(fs, args)
	if err != nil {
		return err
	}
	if *name == "" {
		return usageErr("--rules is required (see 'fechado rank --help')")
	}
	r, err := rankingFor(*name)
	if err != nil {
		return usageErr("--rules: %v", err)
	}
	if *lowFlag != "" {
		low, err := cards.ParseRank(*lowFlag)
		if err != nil {
			return usageErr("--low: %v", err)
		}
		r.Low = low
	}
	if err := r.Validate(); err != nil {
		return usageErr("--low: %v", err)
	}
	e := rules.NewEvaluator(r)

	var hands []rankedHand
	buf := make([]cards.Card, 0, 8)
	if len(operands) > 0 {
		for i, s := range operands {
			h, err := rankCmdReadHand(e, []byte(s), buf)
			if err != nil {
				return usageErr("hand %d %q: %v", i+1, s, err)
			}
			hands = append(hands, h)
		}
	} else {
		if m.Stdin == nil {
			return usageErr("no HAND given and no standard input")
		}
		sc := bufio.NewScanner(m.Stdin)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		line := 0
		for sc.Scan() {
			line++
			b := bytes.TrimSpace(sc.Bytes())
			if len(b) == 0 {
				continue
			}
			h, err := rankCmdReadHand(e, b, buf)
			if err != nil {
				return usageErr("stdin line %d %q: %v", line, b, err)
			}
			hands = append(hands, h)
		}
		if err := sc.Err(); err != nil {
			return usageErr("stdin line %d: %v", line+1, err)
		}
	}

	sortBestFirst(hands)
	w := bufio.NewWriterSize(m.Stdout, 64<<10)
	out := make([]byte, 0, 64)
	pos := 0
	for i, h := range hands {
		if i == 0 || h.v != hands[i-1].v {
			pos = i + 1 // competition ranking: 1, 1, 3
		}
		out = strconv.AppendInt(out[:0], int64(pos), 10)
		out = append(out, '\t')
		for j, c := range h.cards {
			if j > 0 {
				out = append(out, ' ')
			}
			out = append(out, rankCmdRanks[c.Rank()-cards.Two], rankCmdSuits[c.Suit()])
		}
		out = append(out, '\t')
		out = append(out, h.v.Category().String()...)
		out = append(out, '\n')
		if _, err := w.Write(out); err != nil {
			return err
		}
	}
	return w.Flush()
}

// rankCmdReadHand parses one hand (cards separated by spaces, tabs or commas, or written
// together, as cards.ParseList reads them) into buf's storage and evaluates it.
func rankCmdReadHand(e *rules.Evaluator, s []byte, buf []cards.Card) (rankedHand, error) {
	hand := buf[:0]
	for i := 0; i < len(s); {
		if b := s[i]; b == ' ' || b == '\t' || b == ',' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' && s[j] != ',' {
			j++
		}
		tok := s[i:j]
		if len(tok)%2 != 0 {
			_, err := cards.Parse(string(tok))
			return rankedHand{}, err
		}
		for k := 0; k < len(tok); k += 2 {
			c, ok := rankCmdParseCard(tok[k], tok[k+1])
			if !ok {
				_, err := cards.Parse(string(tok[k : k+2]))
				return rankedHand{}, err
			}
			hand = append(hand, c)
		}
		i = j
	}
	v, err := e.EvalSlice(hand)
	if err != nil {
		return rankedHand{}, err
	}
	return rankedHand{v: v, cards: [5]cards.Card(hand)}, nil
}

const (
	rankCmdRanks = "23456789TJQKA" // as cards.ParseRank reads them, from cards.Two
	rankCmdSuits = "cdhs"          // as cards.ParseSuit reads them, in cards.Suit order
)

// rankCmdRankIndex and rankCmdSuitIndex map a character to 1 + its index in rankCmdRanks or
// rankCmdSuits, and any other byte to 0.
var rankCmdRankIndex, rankCmdSuitIndex = func() (r, s [256]uint8) {
	for i := range len(rankCmdRanks) {
		r[rankCmdRanks[i]] = uint8(i + 1)
	}
	for i := range len(rankCmdSuits) {
		s[rankCmdSuits[i]] = uint8(i + 1)
	}
	return r, s
}()

// rankCmdParseCard is cards.Parse for two bytes, without allocating.
func rankCmdParseCard(r, s byte) (cards.Card, bool) {
	ri, si := rankCmdRankIndex[r], rankCmdSuitIndex[s]
	if ri == 0 || si == 0 {
		return 0, false
	}
	return cards.New(cards.Two+cards.Rank(ri-1), cards.Suit(si-1)), true
}

// sortBestFirst sorts hands best first, equal hands in input order: a stable radix sort on the
// Values (least significant byte first), which for millions of hands is several times faster than
// a stable comparison sort.
func sortBestFirst(hands []rankedHand) {
	if len(hands) < 2 {
		return
	}
	src, dst := hands, make([]rankedHand, len(hands))
	for shift := 0; shift < 64; shift += 8 {
		var count [256]int
		for _, h := range src {
			count[byte(^h.v>>shift)]++
		}
		if count[byte(^src[0].v>>shift)] == len(src) {
			continue // every hand has this byte: nothing to do
		}
		pos := 0
		for i, c := range count {
			count[i] = pos
			pos += c
		}
		for _, h := range src {
			b := byte(^h.v >> shift)
			dst[count[b]] = h
			count[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &hands[0] {
		copy(hands, src)
	}
}
