package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// benchResult is one benchmark of `go test -bench` output, every sample of every metric.
type benchResult struct {
	Name    string               // without the -GOMAXPROCS suffix, e.g. BenchmarkEval/std-52
	Pkg     string               // import path from the preceding "pkg:" line
	Samples int                  // result lines (go test -count)
	Metrics map[string][]float64 // unit (ns/op, B/op, events/s, ...) → one value per sample
	order   []string             // units in the order the output gave them
}

// median returns the median of the metric's samples, and false when the benchmark did not
// report it.
func (r *benchResult) median(unit string) (float64, bool) {
	if r == nil {
		return 0, false
	}
	vs := r.Metrics[unit]
	if len(vs) == 0 {
		return 0, false
	}
	return quantile(vs, 0.5), true
}

// benchOutput is parsed `go test -bench` output.
type benchOutput struct {
	CPU      string         // the "cpu:" line
	Results  []*benchResult // in output order
	Failures []string       // FAIL lines and panics: packages whose benchmarks did not all run
	byName   map[string]*benchResult
}

// get returns the benchmark called name, or nil.
func (o *benchOutput) get(name string) *benchResult { return o.byName[name] }

// parseBench reads `go test -bench` output (the benchstat text format): configuration lines
// "key: value", result lines "BenchmarkName-P N value unit [value unit]...", and the FAIL
// lines of packages that did not build or whose benchmarks failed. It parses by hand the little
// of the format it needs rather than add golang.org/x/perf to go.mod for one tool.
func parseBench(out []byte) *benchOutput {
	o := &benchOutput{byName: map[string]*benchResult{}}
	pkg := ""
	failing := false // the lines after "--- FAIL" that say why
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if failing && strings.HasPrefix(line, "    ") {
			o.Failures = append(o.Failures, line)
			continue
		}
		failing = strings.HasPrefix(line, "--- FAIL")
		switch {
		case strings.HasPrefix(line, "pkg: "):
			pkg = strings.TrimSpace(strings.TrimPrefix(line, "pkg: "))
		case strings.HasPrefix(line, "cpu: "):
			o.CPU = strings.TrimSpace(strings.TrimPrefix(line, "cpu: "))
		case strings.HasPrefix(line, "FAIL\t"), failing, strings.HasPrefix(line, "panic:"):
			o.Failures = append(o.Failures, line)
		case strings.HasPrefix(line, "Benchmark"):
			o.addResult(pkg, line)
		}
	}
	return o
}

// addResult records one result line; lines that are not results (a benchmark's log output
// starting with its name) are ignored.
func (o *benchOutput) addResult(pkg, line string) {
	f := strings.Fields(line)
	if len(f) < 4 || len(f)%2 != 0 {
		return
	}
	if _, err := strconv.Atoi(f[1]); err != nil {
		return
	}
	name := f[0]
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			name = name[:i]
		}
	}
	r := o.byName[pkg+" "+name]
	if r == nil {
		r = &benchResult{Name: name, Pkg: pkg, Metrics: map[string][]float64{}}
		o.byName[pkg+" "+name] = r
		if o.byName[name] == nil {
			o.byName[name] = r
		}
		o.Results = append(o.Results, r)
	}
	r.Samples++
	for i := 2; i+1 < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			continue
		}
		unit := f[i+1]
		if _, seen := r.Metrics[unit]; !seen {
			r.order = append(r.order, unit)
		}
		r.Metrics[unit] = append(r.Metrics[unit], v)
	}
}

// readHandSizes returns the largest and the smallest log size of a FECHADO_READ_HANDS list, the
// two the summary compares.
func readHandSizes(list string) (big, small int) {
	for f := range strings.SplitSeq(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			continue
		}
		if big == 0 || n > big {
			big = n
		}
		if small == 0 || n < small {
			small = n
		}
	}
	return big, small
}

// goBenchArgs is the `go test` command line of the Go benchmarks.
func goBenchArgs(cfg *config) []string {
	args := []string{"test", "-run", "^$", "-bench", cfg.bench, "-benchmem",
		"-count", strconv.Itoa(cfg.count), "-benchtime", cfg.benchtime, "-timeout", "30m"}
	return append(args, strings.Fields(cfg.pkgs)...)
}

// runGoBench runs the Go benchmarks of every package, one package after the other (go test
// serialises benchmark runs), copying the output to progress as it comes. It stops them at
// until. The error is non-nil when go test failed or was stopped; the output is still
// returned.
func runGoBench(ctx context.Context, cfg *config, until time.Time, progress io.Writer) ([]byte, error) {
	ctx, cancel := context.WithDeadline(ctx, until)
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, cfg.goCmd, goBenchArgs(cfg)...)
	cmd.Env = append(os.Environ(), "FECHADO_BENCH_CACHE="+cfg.cache, "FECHADO_READ_HANDS="+cfg.readHands)
	cmd.Stdout = io.MultiWriter(&out, progress)
	cmd.Stderr = cmd.Stdout
	killGroup(cmd)
	err := cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		err = errBudget
	}
	return out.Bytes(), err
}

// killGroup makes cmd start its own process group and, when its context ends, kills the
// whole group (go test's test binaries, not only go).
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
}
