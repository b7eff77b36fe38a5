package roles

import (
	"regexp"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// ValidName accepts exactly the strings the pattern it replaced matches: drawn from the name
// alphabet with a few bytes outside it (newlines, dots, spaces, UTF-8), around the 64-byte limit.
func TestValidNameMatchesThePattern(t *testing.T) {
	pattern := regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	for _, s := range []string{"", "a", strings.Repeat("x", 64), strings.Repeat("x", 65), "a\n", "\na",
		"a.b", "a b", "é", "A-z_09", "a*", "a>"} {
		if got, want := ValidName(s), pattern.MatchString(s); got != want {
			t.Errorf("ValidName(%q) = %v, the pattern %v", s, got, want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		// Mostly the name alphabet, so that many draws are names.
		alphabet := []rune(strings.Repeat("aZz09_-AQ", 20) + ".\n $*>é\x00\x7f")
		s := string(rapid.SliceOfN(rapid.SampledFrom(alphabet), 0, 70).Draw(t, "runes"))
		if got, want := ValidName(s), pattern.MatchString(s); got != want {
			t.Fatalf("ValidName(%q) = %v, the pattern %v", s, got, want)
		}
	})
}
