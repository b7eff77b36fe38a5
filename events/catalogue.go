package events

// Type is an event type of the catalogue (events-v1.md §4).
type Type string

// The catalogue of event types, in the order of events-v1.md §4. Append only: a type is never
// renamed or removed.
const (
	// HandStartedType opens a hand: rules, number, dealer, seats and stacks, stakes, carry.
	HandStartedType Type = "hand.started"
	// DeckShuffledType records a shuffle (and its commitment for a machine shuffle).
	DeckShuffledType Type = "deck.shuffled"
	// DeckCutType records the cut.
	DeckCutType Type = "deck.cut"
	// AntePostedType records an ante.
	AntePostedType Type = "ante.posted"
	// BlindPostedType records a blind (online-draw only).
	BlindPostedType Type = "blind.posted"
	// CardDealtType records a card dealt off the top to a seat.
	CardDealtType Type = "card.dealt"
	// CardBurnedType records a card burned off the top.
	CardBurnedType Type = "card.burned"
	// CardExposedType records a card seen face up.
	CardExposedType Type = "card.exposed"
	// MisdealDeclaredType voids the hand.
	MisdealDeclaredType Type = "misdeal.declared"
	// PlayerActedType records check, bet, call, raise or fold.
	PlayerActedType Type = "player.acted"
	// CardsDiscardedType records a player's discards (none: stands pat).
	CardsDiscardedType Type = "cards.discarded"
	// OpenersShownType records the cards that qualified an open.
	OpenersShownType Type = "openers.shown"
	// HandShownType records five cards shown at showdown.
	HandShownType Type = "hand.shown"
	// HandMuckedType records a hand mucked at showdown.
	HandMuckedType Type = "hand.mucked"
	// BetReturnedType records unmatched chips given back.
	BetReturnedType Type = "bet.returned"
	// PotRakedType records the house's share of a pot.
	PotRakedType Type = "pot.raked"
	// PotAwardedType records chips of a pot paid to a seat.
	PotAwardedType Type = "pot.awarded"
	// HandPassedType records that nobody opened.
	HandPassedType Type = "hand.passed"
	// DeckRevealedType reveals a shuffle's seed.
	DeckRevealedType Type = "deck.revealed"
	// HandEndedType closes the hand with final stacks and carry.
	HandEndedType Type = "hand.ended"
)

// Types lists every event type in catalogue order.
var Types = []Type{
	HandStartedType, DeckShuffledType, DeckCutType, AntePostedType, BlindPostedType,
	CardDealtType, CardBurnedType, CardExposedType, MisdealDeclaredType, PlayerActedType,
	CardsDiscardedType, OpenersShownType, HandShownType, HandMuckedType, BetReturnedType,
	PotRakedType, PotAwardedType, HandPassedType, DeckRevealedType, HandEndedType,
}

// Fields lists each type's data fields in catalogue order; a trailing "?" marks an optional one.
var Fields = map[Type][]string{
	HandStartedType:     {"rules", "number", "dealer", "seats", "stakes", "carry", "passed_out", "tournament?", "previous?", "away?", "left?"},
	DeckShuffledType:    {"method", "commitment?", "count?", "by?", "cards?"},
	DeckCutType:         {"at", "by?"},
	AntePostedType:      {"seat", "amount"},
	BlindPostedType:     {"seat", "amount", "blind"},
	CardDealtType:       {"seat", "card?", "phase"},
	CardBurnedType:      {"card"},
	CardExposedType:     {"card", "phase", "seat?", "cause?"},
	MisdealDeclaredType: {"reason"},
	PlayerActedType:     {"seat", "round", "action", "amount"},
	CardsDiscardedType:  {"seat", "cards", "declared?"},
	OpenersShownType:    {"seat", "cards"},
	HandShownType:       {"seat", "cards"},
	HandMuckedType:      {"seat"},
	BetReturnedType:     {"seat", "amount"},
	PotRakedType:        {"pot", "amount"},
	PotAwardedType:      {"seat", "amount", "pot"},
	HandPassedType:      {},
	DeckRevealedType:    {"shuffle", "seed"},
	HandEndedType:       {"stacks", "carry"},
}

// Known reports whether t is in the catalogue.
func (t Type) Known() bool {
	_, ok := Fields[t]
	return ok
}

// String returns the type's name.
func (t Type) String() string { return string(t) }
