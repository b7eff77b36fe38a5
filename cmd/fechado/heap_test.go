package main

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// TestLogBytesSumsTheFilesAndCountsStandardInputAsLarge proves what decides whether a command
// prepares its heap (prepareHeap): the regular files' sizes summed, a missing file or a folder
// counted as nothing (their error is the command's to report), and standard input as a log
// larger than any threshold.
func TestLogBytesSumsTheFilesAndCountsStandardInputAsLarge(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.jsonl")
	large := filepath.Join(dir, "large.jsonl")
	if err := os.WriteFile(small, make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(large, make([]byte, 5000), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		files []string
		want  int64
	}{
		{"no file", nil, 0},
		{"one file", []string{small}, 1000},
		{"two files summed", []string{small, large}, 6000},
		{"a missing file and a folder count as nothing", []string{small, filepath.Join(dir, "none"), dir}, 1000},
		{"standard input is a large log", []string{small, "-"}, math.MaxInt64},
	} {
		if got := logBytes(c.files); got != c.want {
			t.Errorf("%s: logBytes = %d, want %d", c.name, got, c.want)
		}
	}
}
