package lang

// The table console's words for the blind games, a declared draw count and a card shown in the
// cut (console/assets/console.js).
var _ = extend("tr", map[string]Text{
	"console.setup.small_blind":           {Other: "Küçük blind"},
	"console.setup.big_blind":             {Other: "Büyük blind"},
	"console.setup.ante.blinds":           {Other: "Ante (yoksa 0)"},
	"console.step.blind.small":            {Other: "{player} ({seat}. yer) {amount} küçük blind koyar."},
	"console.step.blind.big":              {Other: "{player} ({seat}. yer) {amount} büyük blind koyar."},
	"console.step.blind.dead":             {Other: "{player} ({seat}. yer) {amount} ölü blind koyar."},
	"console.step.blind.record":           {Other: "Blind kondu"},
	"console.step.discard.declared":       {Other: "{player} ({seat}. yer) kaç kağıt değiştireceğini söyledi?"},
	"console.step.discard.declared.lower": {Other: "{player} ({seat}. yer) {n} kağıt söyledi: daha fazla değiştirebilir, daha az değiştiremez."},
})
