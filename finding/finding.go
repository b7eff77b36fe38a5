// Package finding owns the audit finding catalogue of findings-v1.md: the stable codes with their
// severities, and the Finding record the auditor writes (events-v1.md §6). The rules engine
// reports violations with these codes; the auditor adds the hand and table and prints them.
package finding

import (
	"encoding/json"

	"github.com/fechado/fechado/events"
)

// Code is a stable finding code, e.g. "pot.split".
type Code string

// Severity is how grave a finding is.
type Severity string

// The severities of events-v1.md §6.
const (
	Error   Severity = "error"   // a rule broken or a wrong outcome
	Warning Severity = "warning" // a procedural irregularity
	Info    Severity = "info"
)

// The catalogue of findings-v1.md. Append only: a code is never renamed or removed.
const (
	LogSchema      Code = "log.schema"       // an event is not valid version 1
	LogSequence    Code = "log.sequence"     // seq not contiguous from 1, repeated, or after hand.ended
	LogDuplicateID Code = "log.duplicate-id" // two events share an id
	LogChain       Code = "log.chain"        // prev is not the SHA-256 of the previous stored line
	LogIncomplete  Code = "log.incomplete"   // the hand has no hand.ended

	DeckForeignCard   Code = "deck.foreign-card"   // a card outside the hand's deck
	DeckDuplicateCard Code = "deck.duplicate-card" // one card in two places at once
	DeckCommitment    Code = "deck.commitment"     // a revealed seed does not hash to its commitment
	DeckUnrevealed    Code = "deck.unrevealed"     // a machine shuffle whose seed is never revealed
	DeckCutExposed    Code = "deck.cut-exposed"    // a card exposed in the cut and no reshuffle before the deal
	DeckShuffles      Code = "deck.shuffles"       // too few physical shuffles
	DealMismatch      Code = "deal.mismatch"       // a dealt or burned card is not the one the seed and cut put on top
	DealOrder         Code = "deal.order"          // cards not dealt one at a time clockwise from the dealer's left
	DealCount         Code = "deal.count"          // a player does not hold five cards when betting starts or after the draw

	CardExposed       Code = "card.exposed"        // a card exposed other than at showdown
	CardExposedRemedy Code = "card.exposed-remedy" // an exposed card not handled as the preset requires
	MisdealSettlement Code = "misdeal.settlement"  // after a misdeal, chips not returned to their owners

	AnteAmount          Code = "ante.amount"            // an ante missing, doubled or of the wrong size
	BlindAmount         Code = "blind.amount"           // a blind missing, by the wrong player, or of the wrong size
	OpenWithoutOpeners  Code = "open.without-openers"   // the opener's hand did not qualify
	OpenNotShown        Code = "open.not-shown"         // the opener was paid without showing openers
	OpenFalseOpenerPaid Code = "open.false-opener-paid" // a player who opened without openers was awarded chips
	OpenBelowMinimum    Code = "open.below-minimum"     // an opening bet below the preset's minimum
	OpenNotAllowed      Code = "open.not-allowed"       // an open by a player the preset forbids to open
	BetOutOfTurn        Code = "bet.out-of-turn"        // a player acted when it was not his turn
	BetIllegalAction    Code = "bet.illegal-action"     // an action not available
	BetAmount           Code = "bet.amount"             // chips that do not fit the action
	BetReopen           Code = "bet.reopen"             // a raise when betting was not re-opened, or past the cap
	BetRoundIncomplete  Code = "bet.round-incomplete"   // a round closed while a live player still owed chips
	BetReturned         Code = "bet.returned"           // an uncalled excess not returned, or called chips returned

	DrawTooMany      Code = "draw.too-many"     // more cards discarded than the preset allows
	DrawOrder        Code = "draw.order"        // a player drew out of turn
	DrawNotHeld      Code = "draw.not-held"     // a discarded card the player did not hold
	DrawReplacements Code = "draw.replacements" // replacement count differs from the discards
	DrawDeclared     Code = "draw.declared"     // a declared draw count lowered where forbidden
	DrawProcedure    Code = "draw.procedure"    // burn, reshuffle or delayed-card procedure not followed

	ShowdownCards Code = "showdown.cards" // a shown hand differs from the cards held
	PotWinner     Code = "pot.winner"     // a pot paid to a player who is not the best eligible hand
	PotSplit      Code = "pot.split"      // a tied pot divided wrongly
	PotSide       Code = "pot.side"       // side pots built or paid wrongly
	PotTotal      Code = "pot.total"      // chips created or lost
	PotUnawarded  Code = "pot.unawarded"  // chips left in the pot, neither awarded nor carried
	StackFinal    Code = "stack.final"    // hand.ended stacks differ from the events

	TableStack     Code = "table.stack"      // a starting stack differs from the last final stack plus rebuy
	TableRebuy     Code = "table.rebuy"      // a rebuy where the preset forbids one
	TableDealer    Code = "table.dealer"     // the dealer or starter did not move as the preset says
	TableCarry     Code = "table.carry"      // carry differs from the previous hand's carried chips
	TablePassedOut Code = "table.passed-out" // passed_out does not count the passed-out deals
	TableSeating   Code = "table.seating"    // a player with no chips dealt in where forbidden, or one with chips left out

	TournamentChips Code = "tournament.chips" // the tournament's chips differ from its entries and rebuys
	TournamentMove  Code = "tournament.move"  // a move between tables not carried out as recorded
	TournamentLevel Code = "tournament.level" // one level with two stakes, or a table's level going down
	TournamentPlace Code = "tournament.place" // a player knocked out, with his finishing place
)

// Catalogue lists every code in the order of findings-v1.md with its severity.
var Catalogue = []struct {
	Code     Code
	Severity Severity
}{
	{LogSchema, Error}, {LogSequence, Error}, {LogDuplicateID, Error}, {LogChain, Error}, {LogIncomplete, Info},
	{DeckForeignCard, Error}, {DeckDuplicateCard, Error}, {DeckCommitment, Error}, {DeckUnrevealed, Warning},
	{DeckCutExposed, Error}, {DeckShuffles, Warning}, {DealMismatch, Error}, {DealOrder, Error}, {DealCount, Error},
	{CardExposed, Warning}, {CardExposedRemedy, Error}, {MisdealSettlement, Error},
	{AnteAmount, Error}, {BlindAmount, Error}, {OpenWithoutOpeners, Error}, {OpenNotShown, Error},
	{OpenFalseOpenerPaid, Error}, {OpenBelowMinimum, Error}, {OpenNotAllowed, Error}, {BetOutOfTurn, Error},
	{BetIllegalAction, Error}, {BetAmount, Error}, {BetReopen, Error}, {BetRoundIncomplete, Error}, {BetReturned, Error},
	{DrawTooMany, Error}, {DrawOrder, Error}, {DrawNotHeld, Error}, {DrawReplacements, Error}, {DrawDeclared, Error},
	{DrawProcedure, Error},
	{ShowdownCards, Error}, {PotWinner, Error}, {PotSplit, Error}, {PotSide, Error}, {PotTotal, Error},
	{PotUnawarded, Error}, {StackFinal, Error},
	{TableStack, Error}, {TableRebuy, Error}, {TableDealer, Error}, {TableCarry, Error}, {TablePassedOut, Error},
	{TableSeating, Error},
	{TournamentChips, Error}, {TournamentMove, Error}, {TournamentLevel, Error}, {TournamentPlace, Info},
}

var severities = func() map[Code]Severity {
	m := map[Code]Severity{}
	for _, c := range Catalogue {
		m[c.Code] = c.Severity
	}
	return m
}()

// Severity returns the code's catalogue severity ("" for an unknown code).
func (c Code) Severity() Severity { return severities[c] }

// Known reports whether c is in the catalogue.
func (c Code) Known() bool { _, ok := severities[c]; return ok }

// Rank orders severities from the mildest: info 1, warning 2, error 3; 0 for "" (nothing found).
// A severity this catalogue does not know ranks as an error: an unknown finding is not ignored.
func (s Severity) Rank() int {
	switch s {
	case "":
		return 0
	case Info:
		return 1
	case Warning:
		return 2
	}
	return 3
}

// Worst returns the gravest of the severities of fs ("" when fs is empty); an unknown severity
// counts as Error.
func Worst(fs []Finding) Severity {
	var w Severity
	for _, f := range fs {
		if f.Severity.Rank() > w.Rank() {
			w = f.Severity
		}
	}
	if w.Rank() == 3 {
		return Error
	}
	return w
}

// Finding is one irregularity, as the auditor writes it (events-v1.md §6).
type Finding struct {
	Hand     string      `json:"hand"`
	Table    string      `json:"table"`
	Seq      events.Seq  `json:"seq"`
	Code     Code        `json:"code"`
	Severity Severity    `json:"severity"`
	Seat     events.Seat `json:"seat,omitempty"`
	Message  string      `json:"message"`
	Expected any         `json:"expected,omitempty"`
	Actual   any         `json:"actual,omitempty"`
}

// JSON returns the finding as one JSON line (without newline).
func (f Finding) JSON() []byte {
	b, _ := json.Marshal(f)
	return b
}
