package explain

import "github.com/fechado/fechado/finding"

// Rule is the rule a finding enforces, as a person cites it.
type Rule struct {
	// Title is the lang key of the rule's name ("rule.opening").
	Title string
	// Anchor is the rule's anchor in docs/rules.md ("br-fechado-opening"), "" for a rule of the
	// event log's contract rather than of a preset.
	Anchor string
	// Section is where the rule is written: the row of presets.md, or the section of events-v1.md.
	Section string
	// Source is where the rule comes from (the preset's seed and the rulebooks it adopts).
	Source string
}

// Where says where the rule is written: its anchor in docs/rules.md, or the section of the
// contract for a rule of the log.
func (r Rule) Where() string {
	if r.Anchor != "" {
		return Doc + "#" + r.Anchor
	}
	return r.Section
}

// Doc is the document the anchors of Rule point into.
const Doc = "docs/rules.md"

// topic is one rule of the rulebook: its title key, the anchor's topic, and where it is written.
type topic struct {
	title   string
	anchor  string // "" for a rule of the log's contract
	section string
}

// The rules findings enforce. A preset's rule is anchored at #<preset>-<anchor> in docs/rules.md.
var (
	tContract   = topic{"rule.contract", "", "events-v1.md §2–§5"}
	tTournament = topic{"rule.tournament", "", "events-v1.md §7"}
	tShuffle    = topic{"rule.shuffle", "shuffle", "events-v1.md §3; presets.md, cards for the draw"}
	tDeck       = topic{"rule.deck", "deck", "presets.md, deck_low by players"}
	tShuffles   = topic{"rule.shuffles", "shuffles", "presets.md, physical shuffles before the deal"}
	tCut        = topic{"rule.cut", "cut", "presets.md, card exposed in the cut"}
	tDeal       = topic{"rule.deal", "deal", "presets.md, the deal"}
	tExposed    = topic{"rule.exposed-deal", "exposed-cards", "presets.md, card exposed in the deal and in the draw"}
	tMisdeal    = topic{"rule.misdeal", "misdeal", "presets.md, misdeal"}
	tForced     = topic{"rule.forced-bets", "forced-bets", "presets.md, forced bets"}
	tOpening    = topic{"rule.opening", "opening", "presets.md, minimum to open"}
	tBetting    = topic{"rule.betting", "betting", "presets.md, betting"}
	tReopen     = topic{"rule.reopening", "reopening", "presets.md, re-opening"}
	tTurn       = topic{"rule.turn", "turn", "presets.md, round first and second start with"}
	tDraw       = topic{"rule.draw", "draw", "presets.md, most cards drawn"}
	tDrawOrder  = topic{"rule.draw-order", "draw-order", "presets.md, draw order"}
	tDrawCards  = topic{"rule.draw-cards", "draw-cards", "presets.md, cards for the draw"}
	tDeclared   = topic{"rule.draw-declared", "draw-declared", "presets.md, declared draw count"}
	tShow       = topic{"rule.openers-shown", "openers", "presets.md, opener must show openers to win"}
	tFalse      = topic{"rule.false-opener", "false-opener", "presets.md, false opener"}
	tRanking    = topic{"rule.ranking", "ranking", "presets.md, hand ranking"}
	tPots       = topic{"rule.pots", "pots", "presets.md, pots"}
	tTies       = topic{"rule.ties", "ties", "presets.md, tied hands"}
	tNext       = topic{"rule.next-hand", "next-hand", "presets.md, next hand"}
)

// rulebook maps every finding code to the rule it enforces. One table for every preset: the
// preset gives the anchor's prefix and the source.
var rulebook = map[finding.Code]topic{
	finding.LogSchema: tContract, finding.LogSequence: tContract, finding.LogDuplicateID: tContract,
	finding.LogChain: tContract, finding.LogIncomplete: tContract,

	finding.DeckForeignCard: tDeck, finding.DeckDuplicateCard: tDeck, finding.DeckCommitment: tShuffle,
	finding.DeckUnrevealed: tShuffle, finding.DeckCutExposed: tCut, finding.DeckShuffles: tShuffles,
	finding.DealMismatch: tShuffle, finding.DealOrder: tDeal, finding.DealCount: tDeal,

	finding.CardExposed: tExposed, finding.CardExposedRemedy: tExposed, finding.MisdealSettlement: tMisdeal,

	finding.AnteAmount: tForced, finding.BlindAmount: tForced, finding.OpenWithoutOpeners: tOpening,
	finding.OpenNotShown: tShow, finding.OpenFalseOpenerPaid: tFalse, finding.OpenBelowMinimum: tBetting,
	finding.OpenNotAllowed: tOpening, finding.BetOutOfTurn: tTurn, finding.BetIllegalAction: tBetting,
	finding.BetAmount: tBetting, finding.BetReopen: tReopen, finding.BetRoundIncomplete: tBetting,
	finding.BetReturned: tPots,

	finding.DrawTooMany: tDraw, finding.DrawOrder: tDrawOrder, finding.DrawNotHeld: tDrawCards,
	finding.DrawReplacements: tDrawCards, finding.DrawDeclared: tDeclared, finding.DrawProcedure: tDrawCards,

	finding.ShowdownCards: tRanking, finding.PotWinner: tRanking, finding.PotSplit: tTies,
	finding.PotSide: tPots, finding.PotTotal: tPots, finding.PotUnawarded: tPots, finding.StackFinal: tPots,

	finding.TableStack: tNext, finding.TableRebuy: tNext, finding.TableDealer: tNext, finding.TableCarry: tNext,
	finding.TablePassedOut: tNext, finding.TableSeating: tNext,

	"tournament.chips": tTournament, "tournament.move": tTournament, "tournament.level": tTournament,
	"tournament.place": tTournament,
}

// sources names where each preset's rules come from (presets.md, "source").
var sources = map[string]string{
	"br-fechado":  "seed 000, Pôquer Fechado",
	"br-online":   "seed 001, Poker Fechado of an online site",
	"tr-kapali":   "seed 003, Kapalı Poker",
	"std-draw":    "seed 004 and Robert's Rules of Poker, jacks or better",
	"online-draw": "five-card draw as online card rooms deal it",
}

// Codes lists every code the rulebook knows.
func Codes() []finding.Code {
	out := make([]finding.Code, 0, len(rulebook))
	for c := range rulebook {
		out = append(out, c)
	}
	return out
}

// RuleFor returns the rule code enforces under preset (false for a code the rulebook does not
// know). Rules of the log's contract have no anchor: they are the same under every preset.
func RuleFor(code finding.Code, preset string) (Rule, bool) {
	t, ok := rulebook[code]
	if !ok {
		return Rule{}, false
	}
	r := Rule{Title: t.title, Section: t.section, Source: sources[preset]}
	if t.anchor != "" && preset != "" {
		r.Anchor = preset + "-" + t.anchor
	}
	if t.anchor == "" {
		r.Source = "events-v1.md"
	}
	return r, true
}
