package finding

import (
	"bytes"
	"os"
	"regexp"
	"testing"

	"github.com/fechado/fechado/internal/testfiles"
)

// The catalogue matches findings-v1.md: the same codes, in the same order, with the same
// severities (a code may be added there first, never renamed or removed). The codes of the
// contract's version 1.1 section come in with the work that implements them (seats that change,
// tournaments), so until then they may be missing from the catalogue; every other code may not.
func TestCatalogueMatchesSpec(t *testing.T) {
	b, err := os.ReadFile(testfiles.File(t, "contract", "findings-v1.md"))
	if err != nil {
		t.Fatal(err)
	}
	v11 := bytes.Index(b, []byte("\n## Version 1.1"))
	if v11 < 0 {
		t.Fatal("findings-v1.md has no version 1.1 section")
	}
	row := regexp.MustCompile("(?m)^\\| `([a-z.-]+)` \\| (error|warning|info) \\|")
	var spec []struct{ code, sev string }
	for _, m := range row.FindAllSubmatchIndex(b, -1) {
		code, sev := string(b[m[2]:m[3]]), string(b[m[4]:m[5]])
		if m[0] > v11 && !Code(code).Known() {
			t.Logf("%s: in version 1.1 of the contract, not yet in the catalogue", code)
			continue
		}
		spec = append(spec, struct{ code, sev string }{code, sev})
	}
	if len(spec) != len(Catalogue) {
		t.Fatalf("spec lists %d codes, catalogue %d", len(spec), len(Catalogue))
	}
	for i, s := range spec {
		c := Catalogue[i]
		if string(c.Code) != s.code || string(c.Severity) != s.sev {
			t.Errorf("row %d: spec %s %s, catalogue %s %s", i, s.code, s.sev, c.Code, c.Severity)
		}
	}
	if !LogChain.Known() || Code("x.y").Known() || PotSplit.Severity() != Error || DeckUnrevealed.Severity() != Warning {
		t.Error("Known/Severity lookups are wrong")
	}
}
