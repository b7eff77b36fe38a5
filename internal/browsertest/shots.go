package browsertest

import (
	"flag"
	"os"
)

// ShotsKept reports whether the screenshots a browser test takes outlive it: go test keeps a
// test's artifact folder (testing.T.ArtifactDir) only with -artifacts, and the tests also write
// to $FECHADO_ARTIFACTS when it is set. Otherwise the folder is removed as the test ends, and a
// full-page PNG costs chromium a tenth of a second or more of CPU for nothing: the tests then
// skip the capture and keep what they check on the way (the page loaded, its width, the
// viewport it leaves).
func ShotsKept() bool {
	if os.Getenv("FECHADO_ARTIFACTS") != "" {
		return true
	}
	f := flag.Lookup("test.artifacts")
	return f != nil && f.Value.String() == "true"
}
