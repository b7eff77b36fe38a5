package handhistory

import (
	"regexp"
	"sync"
)

// patterns are the importers' regular expressions, each compiled on its first use: compiled by
// the package's initialisation, the 82 of them cost every fechado process, whatever its command,
// some 4 ms and 1.1 MB before its first line, and only import and the tests use them.
var patterns []func() *regexp.Regexp

// lazyRegexp returns a function that compiles expr on its first call and returns the one
// Regexp after; it panics, as regexp.MustCompile does, if expr does not compile
// (TestEveryPatternCompiles compiles them all). Safe for concurrent use.
func lazyRegexp(expr string) func() *regexp.Regexp {
	re := sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
	patterns = append(patterns, re)
	return re
}
