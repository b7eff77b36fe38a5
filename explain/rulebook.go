package explain

import (
	"strings"

	"github.com/fechado/fechado/docs"
	"github.com/fechado/fechado/finding"
)

// Rule is the rule a finding enforces, as a person cites it.
type Rule struct {
	// Title is the lang key of the rule's name ("rule.opening").
	Title string
	// Anchor is the rule's anchor in docs/rules.md ("br-fechado-opening"), "" for a rule of the
	// event log's contract rather than of a preset.
	Anchor string
	// Section is where a rule of the contract is written (a section of events-v1.md).
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

// The rules findings enforce. A preset's rule is anchored at #<preset>-<anchor> in docs/rules.md,
// whose topics these anchors follow; a rule of the log's contract is the same for every preset.
var (
	tContract     = topic{"rule.contract", "", "events-v1.md §2–§5"}
	tDeck         = topic{"rule.deck", "players-and-deck", ""}
	tShuffle      = topic{"rule.shuffle", "shuffle-and-cut", ""}
	tShuffles     = topic{"rule.shuffles", "shuffle-and-cut", ""}
	tCut          = topic{"rule.cut", "shuffle-and-cut", ""}
	tDeal         = topic{"rule.deal", "shuffle-and-cut", ""}
	tExposed      = topic{"rule.exposed-deal", "exposed-cards", ""}
	tMisdeal      = topic{"rule.misdeal", "misdeal", ""}
	tForced       = topic{"rule.forced-bets", "forced-bets", ""}
	tOpening      = topic{"rule.opening", "opening", ""}
	tShow         = topic{"rule.openers-shown", "showing-openers", ""}
	tFalse        = topic{"rule.false-opener", "showing-openers", ""}
	tBetting      = topic{"rule.betting", "betting", ""}
	tReopen       = topic{"rule.reopening", "betting", ""}
	tTurn         = topic{"rule.turn", "who-acts-first", ""}
	tNobodyOpens  = topic{"rule.nobody-opens", "nobody-opens", ""}
	tDraw         = topic{"rule.draw", "drawing", ""}
	tDrawOrder    = topic{"rule.draw-order", "drawing", ""}
	tDrawCards    = topic{"rule.draw-cards", "drawing", ""}
	tDeclared     = topic{"rule.draw-declared", "drawing", ""}
	tRanking      = topic{"rule.ranking", "ranking", ""}
	tPots         = topic{"rule.pots", "pots", ""}
	tTies         = topic{"rule.ties", "ties", ""}
	tNext         = topic{"rule.next-hand", "next-hand", ""}
	tSeatsTourney = topic{"rule.tournament", "seats-that-change", ""}
)

// rulebook maps every finding code to the rule it enforces. One table for every preset: the
// preset gives the anchor's prefix and the source.
var rulebook = map[finding.Code]topic{
	finding.LogSchema: tContract, finding.LogSequence: tContract, finding.LogDuplicateID: tContract,
	finding.LogChain: tContract, finding.LogIncomplete: tContract,

	finding.DeckForeignCard: tDeck, finding.DeckDuplicateCard: tDeck, finding.DeckCommitment: tShuffle,
	finding.DeckUnrevealed: tShuffle, finding.DeckCutExposed: tCut, finding.DeckShuffles: tShuffles,
	finding.DealMismatch: tShuffle, finding.DealOrder: tDeal, finding.DealCount: tDrawCards,

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

	finding.TableStack: tNext, finding.TableRebuy: tNext, finding.TableDealer: tNext, finding.TableCarry: tNobodyOpens,
	finding.TablePassedOut: tNobodyOpens, finding.TableSeating: tNext,

	"tournament.chips": tSeatsTourney, "tournament.move": tSeatsTourney, "tournament.level": tSeatsTourney,
	"tournament.place": tSeatsTourney,
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

// RuleText returns the paragraph of docs/rules.md under anchor, as written there (the rule, its
// source quoted and translated, the reasoning), without the anchor's tag; false when the document
// has no such anchor.
func RuleText(anchor string) (string, bool) {
	tag := `<a id="` + anchor + `"></a>`
	i := strings.Index(docs.Rules, tag)
	if anchor == "" || i < 0 {
		return "", false
	}
	s := docs.Rules[i+len(tag):]
	if j := strings.Index(s, "\n\n"); j >= 0 {
		s = s[:j]
	}
	return strings.TrimSpace(strings.ReplaceAll(s, "\n", " ")), true
}
