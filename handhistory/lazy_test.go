package handhistory

import (
	"regexp"
	"testing"
)

// Every importer's pattern compiles (lazyRegexp compiles none before its first use, where
// regexp.MustCompile in the package's initialisation made a bad one fail every process), and
// each call hands out the one Regexp.
func TestEveryPatternCompiles(t *testing.T) {
	if len(patterns) < 80 {
		t.Fatalf("%d patterns registered, want the importers' 82", len(patterns))
	}
	seen := map[*regexp.Regexp]bool{}
	for i, re := range patterns {
		r := re()
		if r == nil || re() != r {
			t.Fatalf("pattern %d: compiled to %p then %p", i, r, re())
		}
		if seen[r] {
			t.Fatalf("pattern %d (%s): the Regexp of another pattern", i, r)
		}
		seen[r] = true
	}
}
