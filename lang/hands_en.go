package lang

// The words of import, export and sim on standard error (issue 45: hands in every tool).
var _ = extend("en", map[string]Text{
	"import.summary":      {Other: "Hands imported: {imported} of {found}. Events: {events}. Files: {files}."},
	"import.skipped":      {Other: "Hands not imported: {n} (see above)."},
	"import.duplicates":   {Other: "Hands found twice and taken once: {n}."},
	"import.stray":        {Other: "Stretches of text that are not a hand, left out: {n}."},
	"import.unreadable":   {Other: "Files that could not be read: {n}."},
	"import.dropped":      {Other: "{where}: hand {hand}: the check of seat {seat} came after the betting round was complete; it changes nothing and was left out."},
	"import.room":         {Other: "{file}: read as {format}."},
	"sim.ended.one-left":  {Other: "Table {table} stopped after {played} of {wanted} hands: {player} holds every chip (the others lost theirs and, out of rebuys, left)."},
	"sim.ended.too-few":   {Other: "Table {table} stopped after {played} of {wanted} hands: {n} players with chips are left, and {preset} deals in at least {min}."},
	"export.refused":      {Other: "Hand {hand} ({preset}) was left out: {format} cannot express the rule {rule} = {value}."},
	"export.summary":      {Other: "Hands written as {format}: {written} of {found}."},
	"export.some-refused": {Other: "some hands were left out (see above)"},
})
