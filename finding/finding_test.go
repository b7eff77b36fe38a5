package finding

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// The catalogue matches findings-v1.md: the same codes, in the same order, with the same
// severities (a code may be added there first, never renamed or removed).
func TestCatalogueMatchesSpec(t *testing.T) {
	path, _ := filepath.Abs(filepath.Join("..", "..", "shared", "spec", "findings-v1.md"))
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the contract folder ../shared is missing beside the repository: %v", err)
	}
	row := regexp.MustCompile("(?m)^\\| `([a-z.-]+)` \\| (error|warning|info) \\|")
	var spec []struct{ code, sev string }
	for _, m := range row.FindAllStringSubmatch(string(b), -1) {
		spec = append(spec, struct{ code, sev string }{m[1], m[2]})
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
