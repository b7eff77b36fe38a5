package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
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

// --memory-limit reads sizes as GOMEMLIMIT does (runtime package documentation, "Environment
// Variables": a number of bytes with an optional unit B, KiB, MiB, GiB or TiB), and off.
func TestParseMemoryLimit(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64 // 0: refused
	}{
		{"400MiB", 400 << 20},
		{"1GiB", 1 << 30},
		{"536870912", 536870912},
		{"2048B", 2048},
		{"64KiB", 64 << 10},
		{"1TiB", 1 << 40},
		{"off", math.MaxInt64},
		{"", 0},
		{"MiB", 0},
		{"400MB", 0}, // GOMEMLIMIT has no decimal units
		{"400mib", 0},
		{"-1MiB", 0},
		{"0", 0},
		{"1.5GiB", 0},
		{"9999999TiB", 0}, // overflows int64
	} {
		got, err := parseMemoryLimit(c.in)
		if c.want == 0 && err == nil {
			t.Errorf("%q: %d, want it refused", c.in, got)
		}
		if c.want != 0 && (err != nil || got != c.want) {
			t.Errorf("%q: %d, %v; want %d", c.in, got, err, c.want)
		}
	}
}

// The commands that take --memory-limit set the process's soft memory limit from it, leave
// GOMEMLIMIT's when the flag is not given, use defaultMemoryLimit when neither is, and refuse a
// size they cannot read as a usage error (docs/stream.md, "Memory").
func TestMemoryLimitFlag(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
	file := vector(t, "table-std-draw.jsonl")
	audit := func(args ...string) int {
		t.Helper()
		code, stderr := projRun(t, append(append([]string{"audit", "--json"}, args...), file)...)
		if code != exitOK && code != exitUsage {
			t.Fatalf("audit %v: exit %d: %s", args, code, stderr)
		}
		return code
	}
	def, _ := parseMemoryLimit(defaultMemoryLimit)
	for _, c := range []struct {
		name, env string
		args      []string
		want      int64
	}{
		{"flag", "", []string{"--memory-limit", "123MiB"}, 123 << 20},
		{"off", "", []string{"--memory-limit", "off"}, math.MaxInt64},
		{"default", "", nil, def},
		{"flag over GOMEMLIMIT", "77MiB", []string{"--memory-limit", "55MiB"}, 55 << 20},
		{"GOMEMLIMIT", "77MiB", nil, 1 << 40}, // left as the runtime has it: here, the sentinel
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("GOMEMLIMIT", c.env) // restored when the test ends
			if c.env == "" {
				os.Unsetenv("GOMEMLIMIT")
			}
			debug.SetMemoryLimit(1 << 40)
			if code := audit(c.args...); code != exitOK {
				t.Fatalf("exit %d", code)
			}
			if got := debug.SetMemoryLimit(-1); got != c.want {
				t.Errorf("memory limit %d, want %d", got, c.want)
			}
		})
	}
	if code := audit("--memory-limit", "400MB"); code != exitUsage {
		t.Errorf("--memory-limit 400MB: exit %d, want %d (usage)", code, exitUsage)
	}
}

// Each command that works through the whole log has the default limit its heap needs: record's
// holds the log server's caches of the blocks it just wrote, which are live, so its default is
// higher than project's (recordMemoryLimit); a record under project's would collect all the time.
func TestEachCommandSetsItsOwnDefaultMemoryLimit(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
	t.Setenv("GOMEMLIMIT", "")
	os.Unsetenv("GOMEMLIMIT")
	data := t.TempDir()
	file := vector(t, "table-std-draw.jsonl")
	for _, c := range []struct {
		args  []string
		limit string
	}{
		{[]string{"record", "--data", data, file}, recordMemoryLimit},
		{[]string{"project", "--data", data, "--db", filepath.Join(t.TempDir(), "p.db")}, defaultMemoryLimit},
		{[]string{"audit", "--json", file}, defaultMemoryLimit},
	} {
		debug.SetMemoryLimit(1 << 40)
		if code, stderr := projRun(t, c.args...); code != exitOK {
			t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
		}
		want, err := parseMemoryLimit(c.limit)
		if err != nil {
			t.Fatal(err)
		}
		if got := debug.SetMemoryLimit(-1); got != want {
			t.Errorf("%s: memory limit %d, want %d (%s)", c.args[0], got, want, c.limit)
		}
	}
	if r, d := recordMemoryLimit, defaultMemoryLimit; r == d {
		t.Errorf("record's default limit %s is project's", r)
	}
}
