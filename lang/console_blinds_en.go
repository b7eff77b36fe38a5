package lang

// The table console's words for the blind games, a declared draw count and a card shown in the
// cut (console/assets/console.js).
var _ = extend("en", map[string]Text{
	"console.setup.small_blind":           {Other: "Small blind"},
	"console.setup.big_blind":             {Other: "Big blind"},
	"console.setup.ante.blinds":           {Other: "Ante (0 for none)"},
	"console.step.blind.small":            {Other: "{player} (seat {seat}) posts the small blind of {amount}."},
	"console.step.blind.big":              {Other: "{player} (seat {seat}) posts the big blind of {amount}."},
	"console.step.blind.dead":             {Other: "{player} (seat {seat}) posts a dead blind of {amount}."},
	"console.step.blind.record":           {Other: "Blind posted"},
	"console.step.discard.declared":       {Other: "How many cards did {player} (seat {seat}) announce?"},
	"console.step.discard.declared.lower": {One: "{player} (seat {seat}) announced {n} card: he may draw more, never fewer.", Other: "{player} (seat {seat}) announced {n} cards: he may draw more, never fewer."},
})
