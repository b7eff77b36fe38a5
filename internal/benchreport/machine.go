package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
)

// machine is what the figures were measured on.
type machine struct {
	CPU       string // model name
	Cores     int    // logical CPUs (GOMAXPROCS of the benchmarks)
	MemTotal  int64  // bytes
	Go        string // go version of the go command that ran the benchmarks
	OS        string // GOOS/GOARCH and kernel release
	LoadStart string // /proc/loadavg at the start: 1, 5 and 15 minute load averages
}

func readMachine(ctx context.Context, cfg *config) machine {
	m := machine{Cores: runtime.NumCPU(), OS: runtime.GOOS + "/" + runtime.GOARCH, LoadStart: loadAverage()}
	if v, err := readVersion(ctx, cfg.goCmd, "env", "GOVERSION"); err == nil {
		m.Go = v
	} else {
		m.Go = runtime.Version()
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.OS += ", Linux " + strings.TrimSpace(string(b))
	}
	m.CPU = procField("/proc/cpuinfo", "model name")
	if kb, err := strconv.ParseInt(strings.TrimSuffix(procField("/proc/meminfo", "MemTotal"), " kB"), 10, 64); err == nil {
		m.MemTotal = kb * 1024
	}
	return m
}

// procField returns the value of the first "key: value" line of a /proc file with that key.
func procField(path, key string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// loadAverage returns the 1, 5 and 15 minute load averages, "" when unknown.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// readVersion runs a command and returns its first output line.
func readVersion(ctx context.Context, name string, args ...string) (string, error) {
	out, err := exec.CommandContext(ctx, name, args...).Output()
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return line, nil
}

// commit is the source the figures were measured on.
type commit struct {
	Hash  string // abbreviated HEAD, "unknown" outside a git checkout
	Dirty bool   // files differ from HEAD (the report and its raw outputs aside)
}

// Name is the hash, with "-dirty" when the working tree is not HEAD.
func (c commit) Name() string {
	if c.Dirty {
		return c.Hash + "-dirty"
	}
	return c.Hash
}

func readCommit(ctx context.Context) commit {
	c := commit{Hash: "unknown"}
	if h, err := readVersion(ctx, "git", "rev-parse", "--short=12", "HEAD"); err == nil && h != "" {
		c.Hash = h
	}
	out, err := exec.CommandContext(ctx, "git", "status", "--porcelain").Output()
	if err != nil {
		return c
	}
	for _, line := range strings.Split(string(out), "\n") {
		if len(line) < 4 {
			continue
		}
		path := line[3:]
		if path == "BENCHMARKS.md" || strings.HasPrefix(path, "internal/benchreport/testdata/raw/") {
			continue
		}
		c.Dirty = true
	}
	return c
}
