package explain

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/fechado/fechado/rules"
)

// Every anchor the rulebook cites, for every code under every preset, exists in docs/rules.md.
func TestAnchorsExistInRulesDoc(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", Doc))
	if err != nil {
		t.Fatalf("the rules the findings cite: %v", err)
	}
	ids := map[string]bool{}
	for _, m := range regexp.MustCompile(`<a id="([^"]+)"`).FindAllSubmatch(b, -1) {
		ids[string(m[1])] = true
	}
	n := 0
	for _, p := range rules.Names() {
		for _, c := range Codes() {
			r, _ := RuleFor(c, p)
			if r.Anchor == "" {
				continue
			}
			n++
			if !ids[r.Anchor] {
				t.Errorf("%s under %s cites #%s, which %s does not have", c, p, r.Anchor, Doc)
			}
		}
	}
	if n == 0 {
		t.Fatal("the rulebook cites no anchor")
	}
}
