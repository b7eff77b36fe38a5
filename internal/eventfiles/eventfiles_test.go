package eventfiles

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fechado/fechado/internal/testfiles"
)

// Read returns a file's events in order and stops at max, Parse reads the same from memory, and Vectors returns every vector's events
// in file order: as many as the vector files hold lines.
func TestReadAndVectors(t *testing.T) {
	files := testfiles.Glob(t, "vectors/*.jsonl")
	lines := 0
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lines += strings.Count(strings.TrimSpace(string(b)), "\n") + 1
	}
	all := Vectors(t)
	if len(all) != lines {
		t.Fatalf("Vectors returned %d events, the vector files hold %d lines", len(all), lines)
	}
	first := Read(t, files[0], 0)
	for i, e := range first {
		if string(all[i].Raw) != string(e.Raw) {
			t.Fatalf("event %d of %s: Vectors has %s, Read %s", i, filepath.Base(files[0]), all[i].Raw, e.Raw)
		}
		if i > 0 && e.Hand == first[i-1].Hand && e.Seq != first[i-1].Seq+1 {
			t.Fatalf("event %d of %s is out of file order", i, filepath.Base(files[0]))
		}
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if parsed := Parse(t, b, "first"); len(parsed) != len(first) || string(parsed[len(parsed)-1].Raw) != string(first[len(first)-1].Raw) {
		t.Fatalf("Parse of %s returned %d events, Read %d", filepath.Base(files[0]), len(parsed), len(first))
	}
	if head := Read(t, files[0], 3); len(head) != 3 || string(head[2].Raw) != string(first[2].Raw) {
		t.Fatalf("Read with max 3 returned %d events", len(head))
	}
}
