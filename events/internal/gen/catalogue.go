package main

// This file is the catalogue of events-v1.md (§4, with the version 1.1 fields of §7): every event
// type and its fields, declared once. The generator writes from it the Go types of package
// events, their encoder and the JSON Schema; the events tests check it against the contract.

// kind is what a field holds, which fixes its Go type, its check, its encoding and its schema.
type kind int

const (
	kSeat     kind = iota // a seat number, 1..10 (Seat)
	kChips                // an amount of chips, from 0 (Chips)
	kCount                // a whole number from 0 (int)
	kPositive             // a whole number from 1 (int)
	kSeq                  // an event's seq, from 1 (Seq)
	kCard                 // a card (cards.Card)
	kCards                // a list of cards ([]cards.Card)
	kText                 // any string
	kName                 // a string of at least one character (player and preset names)
	kTableID              // a table id (string)
	kUUID                 // a UUID (string)
	kHex64                // 64 lowercase hex digits (string)
	kSeed                 // a shuffle's seed: 64 lowercase hex digits (cards.Seed)
	kEnum                 // one of the values of an enumeration
	kBool                 // true or false
	kObject               // an object of the fields of a nested struct
	kList                 // a list of objects of a nested struct
	kRules                // hand.started's rules: the preset's name and raw overrides (Rules)
)

// opt says how a field may be absent and how its Go value says it is.
type opt int

const (
	required   opt = iota
	optPtr         // a pointer, nil when absent
	optZero        // the zero value ("", false, a nil list) when absent
	optUnknown     // a card whose struct's Unknown is set when it is absent
)

// field is one field of a payload or of a nested object.
type field struct {
	json, goName string
	kind         kind
	opt          opt
	enum         string   // kEnum: the enumeration's Go type ("string" for a plain string)
	values       []string // kEnum: the values this field accepts, in the order messages list them
	nested       string   // kObject, kList: the nested struct
	doc          string   // the Go comment of the field (and the schema's description)
	schemaDoc    string   // the schema's description, when it differs from doc
	noun         string   // kName: what the string names, in the message of an empty one
	// legacy (kObject) names the field of the nested struct that a v1 log may give bare, as a
	// string: the object is then read with its other fields zero, and written back bare when
	// they are (the tournament of hand.started, events-v1.md §7).
	legacy string
}

// eventType is one type of the catalogue, in the order of events-v1.md §4.
type eventType struct {
	name, goName string
	constDoc     string // the comment of its Type constant
	doc          string // the comment of its payload struct
	fields       []field
}

// nestedType is a struct of a payload's objects.
type nestedType struct {
	goName, doc string
	noun        string // what an object is, in the message of an unknown field ("a seat")
	fields      []field
}

// enumType is an enumeration of string values with Go constants.
type enumType struct {
	goName, doc, constsDoc string
	values                 []enumValue
}

type enumValue struct{ goName, value, doc string }

var enums = []enumType{
	{"Round", "Round names a betting round.", "The betting rounds.", []enumValue{
		{"RoundBlind", "blind", "a betting round before any card (br-online)"},
		{"RoundFirst", "first", "after the deal"},
		{"RoundSecond", "second", "after the draw"},
	}},
	{"Action", "Action is what a player did in a betting round.", "The actions of player.acted.", []enumValue{
		{"Check", "check", ""}, {"Bet", "bet", ""}, {"Call", "call", ""}, {"Raise", "raise", ""}, {"Fold", "fold", ""},
	}},
	{"Phase", "Phase says when a card was dealt or exposed.", "The phases of card.dealt and card.exposed.", []enumValue{
		{"PhaseCut", "cut", ""}, {"PhaseDeal", "deal", ""}, {"PhaseDraw", "draw", ""}, {"PhaseShowdown", "showdown", ""},
	}},
	{"Cause", "Cause says who exposed a card.", "The causes of card.exposed.", []enumValue{
		{"CauseDealer", "dealer", ""}, {"CausePlayer", "player", ""},
	}},
	{"BlindKind", "BlindKind names a blind.", "The blinds of blind.posted.", []enumValue{
		{"BlindSmall", "small", ""}, {"BlindBig", "big", ""}, {"BlindDead", "dead", ""},
	}},
}

// Short constructors keep the table readable.
func req(json, goName string, k kind) field { return field{json: json, goName: goName, kind: k} }

func optional(json, goName string, k kind, o opt, doc string) field {
	return field{json: json, goName: goName, kind: k, opt: o, doc: doc}
}

func enumField(json, goName, enum string, values ...string) field {
	return field{json: json, goName: goName, kind: kEnum, enum: enum, values: values}
}

func withDoc(f field, doc string) field { f.doc = doc; return f }

var seatAmount = []field{req("seat", "Seat", kSeat), req("amount", "Amount", kChips)}

var nested = []nestedType{
	{goName: "SeatStack", noun: "a seat", doc: "SeatStack is a seat of hand.started.", fields: []field{
		req("seat", "Seat", kSeat),
		{json: "player", goName: "Player", kind: kName, noun: "player"},
		req("stack", "Stack", kChips),
		optional("rebuy", "Rebuy", kChips, optPtr, "Rebuy is the chips added since the previous hand (included in Stack); nil when absent."),
		{json: "joined", goName: "Joined", kind: kBool, opt: optZero,
			doc:       "Joined (v1.1) says the player sat down at this table since its previous hand: Stack is his\nbuy-in and there is nothing to continue from at this table.",
			schemaDoc: "v1.1: the player sat down at this table since its previous hand; stack is his buy-in."},
		{json: "from", goName: "From", kind: kTableID, opt: optZero,
			doc:       "From (v1.1, tournaments) is the table the player was moved from; \"\" when absent. His Stack\ncontinues his final stack at that table.",
			schemaDoc: "v1.1, tournaments: the table the player was moved from."},
	}},
	{goName: "AwaySeat", noun: "an away seat", doc: "AwaySeat (v1.1) is a player seated with chips who is not dealt in: sitting out, waiting for the\nbig blind, absent. His chips stay on the table untouched.", fields: []field{
		req("seat", "Seat", kSeat),
		{json: "player", goName: "Player", kind: kName, noun: "player"},
		withDoc(req("stack", "Stack", kChips), "Stack is his current stack."),
	}},
	{goName: "LeftPlayer", noun: "a player who left", doc: "LeftPlayer (v1.1) is a player who was at the table's previous hand (dealt in or away) and is gone.", fields: []field{
		{json: "player", goName: "Player", kind: kName, noun: "player"},
		withDoc(req("stack", "Stack", kChips), "Stack is what he took: in a cash game his last stack; in a tournament 0 (knocked out) or, with\nTo, all his chips."),
		{json: "to", goName: "To", kind: kTableID, opt: optZero,
			doc: "To (tournaments) is the table he was moved to; \"\" when absent.", schemaDoc: "tournaments: the table the player was moved to"},
	}},
	{goName: "Tournament", noun: "a tournament", doc: "Tournament (v1.1) ties a hand to a tournament: every table of one tournament shares ID.", fields: []field{
		{json: "id", goName: "ID", kind: kName, noun: "tournament id", doc: "ID names the tournament."},
		withDoc(req("level", "Level", kPositive), "Level is the blind/ante level (1, 2, …) whose amounts the hand's stakes carry; 0 when a v1\nlog gave the tournament as a bare id."),
		optional("entries", "Entries", kPositive, optPtr, "Entries is the number of players who entered; nil when absent."),
		optional("stack", "Stack", kChips, optPtr, "Stack is the starting stack of each entry; nil when absent."),
	}},
	{goName: "Stakes", noun: "stakes", doc: "Stakes are the forced bet and the betting limits of a hand.", fields: []field{
		req("ante", "Ante", kChips),
		req("min_bet", "MinBet", kChips),
		{json: "max_bet", goName: "MaxBet", kind: kChips, doc: "MaxBet is the highest bet; 0 = no limit.", schemaDoc: "0 = no limit"},
	}},
	{goName: "SeatChips", noun: "a stack", doc: "SeatChips is a seat's final stack in hand.ended.", fields: []field{
		req("seat", "Seat", kSeat),
		req("stack", "Stack", kChips),
	}},
}

var catalogue = []eventType{
	{"hand.started", "HandStarted", "opens a hand: rules, number, dealer, seats and stacks, stakes, carry.", "HandStarted opens a hand.", []field{
		req("rules", "Rules", kRules),
		req("number", "Number", kPositive),
		req("dealer", "Dealer", kSeat),
		{json: "seats", goName: "Seats", kind: kList, nested: "SeatStack"},
		{json: "stakes", goName: "Stakes", kind: kObject, nested: "Stakes"},
		req("carry", "Carry", kChips),
		req("passed_out", "PassedOut", kCount),
		{json: "tournament", goName: "Tournament", kind: kObject, opt: optPtr, nested: "Tournament", legacy: "ID",
			doc:       "Tournament (v1.1) is the tournament the hand belongs to; nil when absent. A v1 log's bare\nstring is read as its ID, with Level 0.",
			schemaDoc: "v1.1: the tournament the hand belongs to. A v1 log may carry a bare string, read as the tournament's id with no level."},
		optional("previous", "Previous", kUUID, optPtr, "Previous is the id of the previous hand at this table; nil when absent."),
		{json: "away", goName: "Away", kind: kList, opt: optZero, nested: "AwaySeat",
			doc:       "Away (v1.1) lists the players seated with chips who are not dealt in; nil when absent.",
			schemaDoc: "v1.1: players seated with chips who are not dealt in."},
		{json: "left", goName: "Left", kind: kList, opt: optZero, nested: "LeftPlayer",
			doc:       "Left (v1.1) lists the players of the previous hand who are gone; nil when absent.",
			schemaDoc: "v1.1: players of the table's previous hand who are gone, with the chips they took."},
	}},
	{"deck.shuffled", "DeckShuffled", "records a shuffle (and its commitment for a machine shuffle).", "DeckShuffled records a shuffle: the first of the hand, or a reshuffle of gathered cards.", []field{
		enumField("method", "Method", "string", "hmac-sha256-fy-v1", "physical"),
		optional("commitment", "Commitment", kHex64, optZero, "Commitment is the SHA-256 of the seed of a machine shuffle; \"\" when absent."),
		optional("count", "Count", kCount, optPtr, ""),
		optional("by", "By", kSeat, optPtr, ""),
		optional("cards", "Cards", kCards, optZero, "Cards lists the gathered cards of a reshuffle in canonical order; nil when absent."),
	}},
	{"deck.cut", "DeckCut", "records the cut.", "DeckCut records a cut at At (0 = nobody cut).", []field{
		req("at", "At", kCount),
		optional("by", "By", kSeat, optPtr, ""),
	}},
	{"ante.posted", "AntePosted", "records an ante.", "AntePosted records an ante.", seatAmount},
	{"blind.posted", "BlindPosted", "records a blind (online-draw only).", "BlindPosted records a blind (online-draw).", []field{
		req("seat", "Seat", kSeat), req("amount", "Amount", kChips), enumField("blind", "Blind", "BlindKind", "small", "big", "dead"),
	}},
	{"card.dealt", "CardDealt", "records a card dealt off the top to a seat.", "CardDealt records a card taken off the top to a seat.", []field{
		req("seat", "Seat", kSeat),
		optional("card", "Card", kCard, optUnknown, "Card is the card dealt; meaningless when Unknown."),
		enumField("phase", "Phase", "Phase", "deal", "draw"),
	}},
	{"card.burned", "CardBurned", "records a card burned off the top.", "CardBurned records a card taken off the top and out of play.", []field{
		req("card", "Card", kCard),
	}},
	{"card.exposed", "CardExposed", "records a card seen face up.", "CardExposed records a card seen face up.", []field{
		req("card", "Card", kCard),
		enumField("phase", "Phase", "Phase", "cut", "deal", "draw", "showdown"),
		optional("seat", "Seat", kSeat, optPtr, ""),
		{json: "cause", goName: "Cause", kind: kEnum, opt: optZero, enum: "Cause", values: []string{"dealer", "player"}, doc: "Cause is who exposed the card; \"\" when absent."},
	}},
	{"misdeal.declared", "MisdealDeclared", "voids the hand.", "MisdealDeclared voids the hand.", []field{
		req("reason", "Reason", kText),
	}},
	{"player.acted", "PlayerActed", "records check, bet, call, raise or fold.", "PlayerActed records a betting action.", []field{
		req("seat", "Seat", kSeat),
		enumField("round", "Round", "Round", "blind", "first", "second"),
		enumField("action", "Action", "Action", "check", "bet", "call", "raise", "fold"),
		req("amount", "Amount", kChips),
	}},
	{"cards.discarded", "CardsDiscarded", "records a player's discards (none: stands pat).", "CardsDiscarded records a player's discards; none means he stands pat.", []field{
		req("seat", "Seat", kSeat),
		req("cards", "Cards", kCards),
		optional("declared", "Declared", kCount, optPtr, ""),
	}},
	{"openers.shown", "OpenersShown", "records the cards that qualified an open.", "OpenersShown records the cards that qualified an open.", []field{
		req("seat", "Seat", kSeat), req("cards", "Cards", kCards),
	}},
	{"hand.shown", "HandShown", "records five cards shown at showdown.", "HandShown records five cards shown at showdown.", []field{
		req("seat", "Seat", kSeat), req("cards", "Cards", kCards),
	}},
	{"hand.mucked", "HandMucked", "records a hand mucked at showdown.", "HandMucked records a hand given up unseen at showdown.", []field{
		req("seat", "Seat", kSeat),
	}},
	{"bet.returned", "BetReturned", "records unmatched chips given back.", "BetReturned records chips nobody matched given back.", seatAmount},
	{"pot.raked", "PotRaked", "records the house's share of a pot.", "PotRaked records the house's share of a pot.", []field{
		req("pot", "Pot", kCount), req("amount", "Amount", kChips),
	}},
	{"pot.awarded", "PotAwarded", "records chips of a pot paid to a seat.", "PotAwarded records chips of a pot paid to a seat.", []field{
		req("seat", "Seat", kSeat), req("amount", "Amount", kChips), req("pot", "Pot", kCount),
	}},
	{"hand.passed", "HandPassed", "records that nobody opened.", "HandPassed records that nobody opened: the pot carries to the next deal.", nil},
	{"deck.revealed", "DeckRevealed", "reveals a shuffle's seed.", "DeckRevealed reveals the seed of the shuffle at seq Shuffle.", []field{
		req("shuffle", "Shuffle", kSeq), req("seed", "Seed", kSeed),
	}},
	{"hand.ended", "HandEnded", "closes the hand with final stacks and carry.", "HandEnded closes a hand with the final stacks and the chips left for the next deal.", []field{
		{json: "stacks", goName: "Stacks", kind: kList, nested: "SeatChips"},
		req("carry", "Carry", kChips),
	}},
}
