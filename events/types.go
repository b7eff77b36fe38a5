// Package events is fechado's vocabulary: the event log of events-v1.md as Go types, a strict
// decoder that names file, line and field (and a lenient one that reads what it can of a bad line,
// for the audit of events-v1.md §8), an encoder that writes the catalogue's field order, and
// the SHA-256 chain that links the events of a hand. It keeps every stored line byte for byte. It
// imports neither NATS nor SQLite: the rules, replay and audit run on a file with neither.
package events

import (
	"strconv"

	"github.com/fechado/fechado/cards"
)

// Seat is a seat number, 1..10, increasing clockwise.
type Seat int

// MaxSeat is the highest seat number.
const MaxSeat Seat = 10

// String returns the seat number.
func (s Seat) String() string { return strconv.Itoa(int(s)) }

// Chips is an amount of chips; chips are whole numbers.
type Chips int64

// String returns the amount.
func (c Chips) String() string { return strconv.FormatInt(int64(c), 10) }

// Seq is an event's position in its hand, 1 for hand.started.
type Seq int

// String returns the number.
func (s Seq) String() string { return strconv.Itoa(int(s)) }

// Round names a betting round.
type Round string

// The betting rounds.
const (
	RoundBlind  Round = "blind"  // a betting round before any card (br-online)
	RoundFirst  Round = "first"  // after the deal
	RoundSecond Round = "second" // after the draw
)

// Action is what a player did in a betting round.
type Action string

// The actions of player.acted.
const (
	Check Action = "check"
	Bet   Action = "bet"
	Call  Action = "call"
	Raise Action = "raise"
	Fold  Action = "fold"
)

// Phase says when a card was dealt or exposed.
type Phase string

// The phases of card.dealt and card.exposed.
const (
	PhaseCut      Phase = "cut"
	PhaseDeal     Phase = "deal"
	PhaseDraw     Phase = "draw"
	PhaseShowdown Phase = "showdown"
)

// Cause says who exposed a card.
type Cause string

// The causes of card.exposed.
const (
	CauseDealer Cause = "dealer"
	CausePlayer Cause = "player"
)

// BlindKind names a blind.
type BlindKind string

// The blinds of blind.posted.
const (
	BlindSmall BlindKind = "small"
	BlindBig   BlindKind = "big"
	BlindDead  BlindKind = "dead"
)

// Event is one event of the log: the envelope of events-v1.md §2 and its typed data.
type Event struct {
	ID    string // UUID of the event; the de-duplication key
	Table string // table id
	Hand  string // UUID of the hand
	Seq   Seq    // position in the hand
	At    string // RFC 3339 time with offset, as written
	Type  Type   // the event type
	Prev  string // lowercase hex SHA-256 of the previous stored line; "" for seq 1 or when absent
	// HasPrev reports whether the line carried a prev field at all (it is optional on input).
	HasPrev bool
	// Data is the type's payload: a pointer to the struct of the type (e.g. *PlayerActed).
	Data Data
	// Raw is the line as stored, without the newline. The chain hashes these exact bytes.
	Raw []byte
}

// Data is the payload of an event; each event type has its own struct.
type Data interface {
	// EventType returns the type the payload belongs to.
	EventType() Type
}

// SeatStack is a seat of hand.started.
type SeatStack struct {
	Seat   Seat
	Player string
	Stack  Chips
	// Rebuy is the chips added since the previous hand (included in Stack); nil when absent.
	Rebuy *Chips
	// Joined (v1.1) says the player sat down at this table since its previous hand: Stack is his
	// buy-in and there is nothing to continue from at this table.
	Joined bool
	// From (v1.1, tournaments) is the table the player was moved from; "" when absent. His Stack
	// continues his final stack at that table.
	From string
}

// AwaySeat (v1.1) is a player seated with chips who is not dealt in: sitting out, waiting for the
// big blind, absent. His chips stay on the table untouched.
type AwaySeat struct {
	Seat   Seat
	Player string
	Stack  Chips // his current stack
}

// LeftPlayer (v1.1) is a player who was at the table's previous hand (dealt in or away) and is gone.
type LeftPlayer struct {
	Player string
	// Stack is what he took: in a cash game his last stack; in a tournament 0 (knocked out) or, with
	// To, all his chips.
	Stack Chips
	// To (tournaments) is the table he was moved to; "" when absent.
	To string
}

// Tournament (v1.1) ties a hand to a tournament: every table of one tournament shares ID.
type Tournament struct {
	ID string
	// Level is the blind/ante level (1, 2, …) whose amounts the hand's stakes carry; 0 when a v1
	// log gave the tournament as a bare id.
	Level int
	// Entries is the number of players who entered; nil when absent.
	Entries *int
	// Stack is the starting stack of each entry; nil when absent.
	Stack *Chips
}

// Stakes are the forced bet and the betting limits of a hand.
type Stakes struct {
	Ante   Chips
	MinBet Chips
	MaxBet Chips // 0 = no limit
}

// Override is one ruleset parameter set by a hand, kept as its raw JSON value.
type Override struct {
	Key   string
	Value []byte
}

// Rules names a hand's preset and its overrides, in the order written.
type Rules struct {
	Name      string
	Overrides []Override
}

// Override returns the raw JSON value of key and whether it is set.
func (r Rules) Override(key string) ([]byte, bool) {
	for _, o := range r.Overrides {
		if o.Key == key {
			return o.Value, true
		}
	}
	return nil, false
}

// HandStarted opens a hand.
type HandStarted struct {
	Rules      Rules
	Number     int
	Dealer     Seat
	Seats      []SeatStack
	Stakes     Stakes
	Carry      Chips
	PassedOut  int
	Tournament *Tournament // optional (v1.1 object; a v1 bare string is read as its ID)
	Previous   *string     // optional: id of the previous hand at this table
	// Away (v1.1) lists the players seated with chips who are not dealt in; nil when absent.
	Away []AwaySeat
	// Left (v1.1) lists the players of the previous hand who are gone; nil when absent.
	Left []LeftPlayer
}

// DeckShuffled records a shuffle: the first of the hand, or a reshuffle of gathered cards.
type DeckShuffled struct {
	Method     string
	Commitment string // "" when absent
	Count      *int
	By         *Seat
	// Cards lists the gathered cards of a reshuffle in canonical order; nil when absent.
	Cards []cards.Card
}

// DeckCut records a cut at At (0 = nobody cut).
type DeckCut struct {
	At int
	By *Seat
}

// AntePosted records an ante.
type AntePosted struct {
	Seat   Seat
	Amount Chips
}

// BlindPosted records a blind (online-draw).
type BlindPosted struct {
	Seat   Seat
	Amount Chips
	Blind  BlindKind
}

// CardDealt records a card taken off the top to a seat.
type CardDealt struct {
	Seat Seat
	// Card is the card dealt; meaningless when Unknown.
	Card cards.Card
	// Unknown is set when the card field is absent: the recorder never saw it.
	Unknown bool
	Phase   Phase
}

// CardBurned records a card taken off the top and out of play.
type CardBurned struct {
	Card cards.Card
}

// CardExposed records a card seen face up.
type CardExposed struct {
	Card  cards.Card
	Phase Phase
	Seat  *Seat
	Cause Cause // "" when absent
}

// MisdealDeclared voids the hand.
type MisdealDeclared struct {
	Reason string
}

// PlayerActed records a betting action.
type PlayerActed struct {
	Seat   Seat
	Round  Round
	Action Action
	Amount Chips
}

// CardsDiscarded records a player's discards; none means he stands pat.
type CardsDiscarded struct {
	Seat     Seat
	Cards    []cards.Card
	Declared *int
}

// OpenersShown records the cards that qualified an open.
type OpenersShown struct {
	Seat  Seat
	Cards []cards.Card
}

// HandShown records five cards shown at showdown.
type HandShown struct {
	Seat  Seat
	Cards []cards.Card
}

// HandMucked records a hand given up unseen at showdown.
type HandMucked struct {
	Seat Seat
}

// BetReturned records chips nobody matched given back.
type BetReturned struct {
	Seat   Seat
	Amount Chips
}

// PotRaked records the house's share of a pot.
type PotRaked struct {
	Pot    int
	Amount Chips
}

// PotAwarded records chips of a pot paid to a seat.
type PotAwarded struct {
	Seat   Seat
	Amount Chips
	Pot    int
}

// HandPassed records that nobody opened: the pot carries to the next deal.
type HandPassed struct{}

// DeckRevealed reveals the seed of the shuffle at seq Shuffle.
type DeckRevealed struct {
	Shuffle Seq
	Seed    cards.Seed
}

// HandEnded closes a hand with the final stacks and the chips left for the next deal.
type HandEnded struct {
	Stacks []SeatChips
	Carry  Chips
}

// SeatChips is a seat's final stack in hand.ended.
type SeatChips struct {
	Seat  Seat
	Stack Chips
}

// EventType implements Data.
func (*HandStarted) EventType() Type { return HandStartedType }

// EventType implements Data.
func (*DeckShuffled) EventType() Type { return DeckShuffledType }

// EventType implements Data.
func (*DeckCut) EventType() Type { return DeckCutType }

// EventType implements Data.
func (*AntePosted) EventType() Type { return AntePostedType }

// EventType implements Data.
func (*BlindPosted) EventType() Type { return BlindPostedType }

// EventType implements Data.
func (*CardDealt) EventType() Type { return CardDealtType }

// EventType implements Data.
func (*CardBurned) EventType() Type { return CardBurnedType }

// EventType implements Data.
func (*CardExposed) EventType() Type { return CardExposedType }

// EventType implements Data.
func (*MisdealDeclared) EventType() Type { return MisdealDeclaredType }

// EventType implements Data.
func (*PlayerActed) EventType() Type { return PlayerActedType }

// EventType implements Data.
func (*CardsDiscarded) EventType() Type { return CardsDiscardedType }

// EventType implements Data.
func (*OpenersShown) EventType() Type { return OpenersShownType }

// EventType implements Data.
func (*HandShown) EventType() Type { return HandShownType }

// EventType implements Data.
func (*HandMucked) EventType() Type { return HandMuckedType }

// EventType implements Data.
func (*BetReturned) EventType() Type { return BetReturnedType }

// EventType implements Data.
func (*PotRaked) EventType() Type { return PotRakedType }

// EventType implements Data.
func (*PotAwarded) EventType() Type { return PotAwardedType }

// EventType implements Data.
func (*HandPassed) EventType() Type { return HandPassedType }

// EventType implements Data.
func (*DeckRevealed) EventType() Type { return DeckRevealedType }

// EventType implements Data.
func (*HandEnded) EventType() Type { return HandEndedType }
