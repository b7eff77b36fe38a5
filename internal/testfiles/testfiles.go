// Package testfiles finds the repository's own test data for the tests of every package: the
// top-level testdata folder, with the example vectors of an independent implementation, the real
// hand histories and a copy of the contract (testdata/README.md says where each came from).
//
// The folder is found from this source file's path, so a test finds it at any package depth and
// the repository needs nothing beside it.
package testfiles

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"testing"
)

// startDir is the working directory at the start of the test binary.
var startDir, startErr = os.Getwd()

// Dir returns the absolute path of the repository's testdata folder.
func Dir() string {
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		d := filepath.Join(filepath.Dir(file), "..", "..", "testdata")
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
	}
	// Built with -trimpath (make test uses it) the source path is not absolute: look upwards
	// for the module's go.mod from the working directory the test binary started in (go test
	// starts it in the package's folder), which a test's t.Chdir does not move.
	wd, err := startDir, startErr
	if err != nil {
		return "testdata"
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return filepath.Join(d, "testdata")
		}
		if filepath.Dir(d) == d {
			return filepath.Join(wd, "testdata")
		}
	}
}

// Path returns the path of elem under the testdata folder, e.g. Path("vectors", "table-std-draw.jsonl").
func Path(elem ...string) string {
	return filepath.Join(append([]string{Dir()}, elem...)...)
}

// Glob returns the files under the testdata folder that match pattern (e.g. "vectors/*.jsonl"),
// sorted; tb fails when none does, since a test without its data would prove nothing.
func Glob(tb testing.TB, pattern string) []string {
	tb.Helper()
	files, err := filepath.Glob(Path(pattern))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no file matches testdata/%s in %s (%v)", pattern, Dir(), err)
	}
	sort.Strings(files)
	return files
}

// File returns the path of a file under the testdata folder; tb fails when it is missing.
func File(tb testing.TB, elem ...string) string {
	tb.Helper()
	p := Path(elem...)
	if _, err := os.Stat(p); err != nil {
		tb.Fatalf("the test data file is missing: %v", err)
	}
	return p
}
