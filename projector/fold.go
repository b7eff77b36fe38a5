package projector

import (
	"strings"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// turkishI maps the Turkish capital dotted I and small dotless ı to i before folding: Unicode's
// folding keeps ı apart and turns İ into i with a combining dot, so without it "ISTANBUL" would
// not find İstanbul nor "ÇAĞLAR" find a name typed with ı.
var turkishI = strings.NewReplacer("İ", "i", "ı", "i")

// fold returns the form of a name the lists' filters compare: Unicode case folding, the Turkish
// i's as one letter, composed (NFC) so that a name typed with combining accents finds the same
// name typed with precomposed letters. The projector stores it beside each player and table name
// (migration 0007) and the filters fold the typed text the same way.
func fold(s string) string {
	return norm.NFC.String(cases.Fold().String(turkishI.Replace(norm.NFC.String(s))))
}
