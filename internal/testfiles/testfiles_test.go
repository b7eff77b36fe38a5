package testfiles

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir is the repository's top-level testdata folder, found from any working directory, and holds
// the three copies its README describes.
func TestDirHoldsTheCopies(t *testing.T) {
	d := Dir()
	if !filepath.IsAbs(d) || filepath.Base(d) != "testdata" {
		t.Fatalf("Dir() = %q, want an absolute path ending in testdata", d)
	}
	if _, err := os.Stat(filepath.Join(d, "..", "go.mod")); err != nil {
		t.Errorf("Dir() is not beside the module's go.mod: %v", err)
	}
	if n := len(Glob(t, "vectors/*.jsonl")); n != 9 {
		t.Errorf("%d vectors, want 9", n)
	}
	if n := len(Glob(t, "hh/*.txt")); n != 8 {
		t.Errorf("%d hand histories, want 8", n)
	}
	for _, f := range []string{"events-v1.md", "findings-v1.md", "cli-v1.md"} {
		File(t, "contract", f)
	}
	t.Chdir(t.TempDir())
	if got := Dir(); got != d {
		t.Errorf("from another working directory Dir() = %q, want %q", got, d)
	}
}
