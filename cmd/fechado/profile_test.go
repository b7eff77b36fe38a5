package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// pprofStrings returns the uncompressed bytes of a profile file (gzip-compressed protocol
// buffers, whose string table names the sample types).
func pprofStrings(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s is not a profile: %v", path, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return b
}

// project, record and audit write a CPU profile and a heap profile when asked, for go tool pprof.
func TestProfileFlags(t *testing.T) {
	data, dir := t.TempDir(), t.TempDir()
	for _, cmd := range [][]string{
		{"record", "--data", data, "--cpuprofile", filepath.Join(dir, "rec.cpu"), "--memprofile", filepath.Join(dir, "rec.mem"), vector(t, "table-std-draw.jsonl")},
		{"project", "--rebuild", "--data", data, "--cpuprofile", filepath.Join(dir, "proj.cpu"), "--memprofile", filepath.Join(dir, "proj.mem")},
		{"audit", "--json", "--cpuprofile", filepath.Join(dir, "aud.cpu"), "--memprofile", filepath.Join(dir, "aud.mem"), vector(t, "table-std-draw.jsonl")},
	} {
		if code, stderr := projRun(t, cmd...); code != exitOK {
			t.Fatalf("%s: exit %d: %s", cmd[0], code, stderr)
		}
	}
	for _, name := range []string{"rec", "proj", "aud"} {
		if cpu := pprofStrings(t, filepath.Join(dir, name+".cpu")); !bytes.Contains(cpu, []byte("nanoseconds")) {
			t.Errorf("%s.cpu holds no CPU samples", name)
		}
		if mem := pprofStrings(t, filepath.Join(dir, name+".mem")); !bytes.Contains(mem, []byte("inuse_space")) {
			t.Errorf("%s.mem is not a heap profile", name)
		}
	}
	if code, _ := projRun(t, "project", "--data", data, "--memprofile", filepath.Join(dir, "missing", "m")); code == exitOK {
		t.Error("project wrote a profile into a folder that does not exist")
	}
}
