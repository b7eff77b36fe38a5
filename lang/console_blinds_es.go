package lang

// The table console's words for the blind games, a declared draw count and a card shown in the
// cut (console/assets/console.js).
var _ = extend("es", map[string]Text{
	"console.setup.small_blind":           {Other: "Ciega pequeña"},
	"console.setup.big_blind":             {Other: "Ciega grande"},
	"console.setup.ante.blinds":           {Other: "Ante (0 si no hay)"},
	"console.step.blind.small":            {Other: "{player} (asiento {seat}) pone la ciega pequeña de {amount}."},
	"console.step.blind.big":              {Other: "{player} (asiento {seat}) pone la ciega grande de {amount}."},
	"console.step.blind.dead":             {Other: "{player} (asiento {seat}) pone una ciega muerta de {amount}."},
	"console.step.blind.record":           {Other: "Ciega puesta"},
	"console.step.discard.declared":       {Other: "¿Cuántas cartas anunció {player} (asiento {seat})?"},
	"console.step.discard.declared.lower": {One: "{player} (asiento {seat}) anunció {n} carta: puede pedir más, nunca menos.", Other: "{player} (asiento {seat}) anunció {n} cartas: puede pedir más, nunca menos."},
})
