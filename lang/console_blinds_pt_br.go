package lang

// The table console's words for the blind games, a declared draw count and a card shown in the
// cut (console/assets/console.js).
var _ = extend("pt-BR", map[string]Text{
	"console.setup.small_blind":           {Other: "Small blind"},
	"console.setup.big_blind":             {Other: "Big blind"},
	"console.setup.ante.blinds":           {Other: "Pingo (0 se não houver)"},
	"console.step.blind.small":            {Other: "{player} (lugar {seat}) põe o small blind de {amount}."},
	"console.step.blind.big":              {Other: "{player} (lugar {seat}) põe o big blind de {amount}."},
	"console.step.blind.dead":             {Other: "{player} (lugar {seat}) põe um blind morto de {amount}."},
	"console.step.blind.record":           {Other: "Blind posto"},
	"console.step.discard.declared":       {Other: "Quantas cartas {player} (lugar {seat}) anunciou?"},
	"console.step.discard.declared.lower": {One: "{player} (lugar {seat}) anunciou {n} carta: pode trocar mais, nunca menos.", Other: "{player} (lugar {seat}) anunciou {n} cartas: pode trocar mais, nunca menos."},
})
