// Command benchreport owns fechado's benchmark report: it runs the Go benchmarks of every
// package (`go test -bench`), then measures the fechado binary as whole processes on simulated
// logs of growing size (audit against `jq -c .` on the same files, and against the audit of an
// earlier commit's build when given one, record, project: elapsed time and peak memory; the web
// API under 20 clients at the first size and the largest), the audit of a room on every core
// against one worker, and the live tables one node holds (the load of `make load` at a rising
// number of tables), and writes BENCHMARKS.md, keeping its hand-written sections, with the raw
// benchmark output kept under internal/benchreport/testdata/raw/ for benchstat. `make bench` runs
// it through internal/benchreport/bench.sh.
//
// Usage:
//
//	benchreport [-budget 14m] [-sizes 10000,100000,300000,1000000] [-count 1] ...
//
// Every figure of the report comes from the run that writes it. Sizes that would not end
// within the budget are left out, and the report says so.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// config is the command line.
type config struct {
	goCmd, fechado, jq string
	out, rawDir        string
	work, cache        string
	keepWork           bool
	budget             time.Duration
	goShare            float64 // share of the budget the Go benchmarks may use at most
	bench, pkgs        string
	count              int
	benchtime          string
	sizes              []int
	readHands          string // FECHADO_READ_HANDS: the log sizes BenchmarkReadHandLogSize reads from
	tableHands         int
	jqMax              int     // sizes over this many hands leave jq out
	jqRounds           int     // rounds of audit and jq in turn where a round is short
	margin             float64 // the estimate of a size is multiplied by this before it is held to the budget
	rules              string
	players            int
	workers            int
	// baseline is another build of fechado, of an earlier commit (baselineCommit), whose audit
	// is run in turn with this one's on the same files, baselineRounds rounds at the first size.
	baseline, baselineCommit string
	baselineRounds           int
	// apiSeconds is how long the web API is read after project, at the first size and at the
	// largest (0: not at all).
	apiSeconds int
	// loadTables are the numbers of live tables loaded in turn (runLoad), each for loadDuration at
	// loadPace with loadReaders readers; none: no load.
	loadTables   []int
	loadPace     time.Duration
	loadDuration time.Duration
	loadReaders  int
	// spreadRounds is how many rounds of audit --workers NumCPU against --workers 1 the room file
	// gets (0: none).
	spreadRounds int
}

func main() {
	if len(os.Args) > 1 {
		modes := map[string]func([]string) error{
			plainFlag: func(args []string) error { return publishPlain(args, false) },
			dedupFlag: func(args []string) error { return publishPlain(args, true) },
			readsFlag: func(args []string) error { return timeReads(args, os.Stdout) },
			serveFlag: func(args []string) error { return serveLog(args, os.Stdout) },
			apiFlag:   func(args []string) error { return timeAPI(args, os.Stdout) },
			loadFlag:  func(args []string) error { return loadMain(args, os.Stdout, os.Stderr) },
			pairsFlag: func(args []string) error { return pairsMain(args, os.Stdout) },
		}
		if mode := modes[os.Args[1]]; mode != nil {
			if err := mode(os.Args[2:]); err != nil {
				fmt.Fprintln(os.Stderr, "benchreport:", err)
				os.Exit(1)
			}
			return
		}
	}
	cfg, err := parseFlags(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(2)
	}
	ctx, stop := signalContext()
	defer stop()
	if err := runAll(ctx, cfg, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
}

func parseFlags(args []string) (*config, error) {
	cfg := &config{}
	fs := flag.NewFlagSet("benchreport", flag.ContinueOnError)
	fs.StringVar(&cfg.goCmd, "go", "go", "the go command")
	fs.StringVar(&cfg.fechado, "fechado", "bin/fechado", "the fechado binary to measure")
	fs.StringVar(&cfg.jq, "jq", "jq", "the jq binary, the baseline of audit")
	fs.StringVar(&cfg.out, "out", "BENCHMARKS.md", "the report to write")
	fs.StringVar(&cfg.rawDir, "raw", "internal/benchreport/testdata/raw", "folder of the raw benchmark output, raw-<commit>.txt")
	fs.StringVar(&cfg.work, "work", "bin/bench-work", "scratch folder for simulated logs and the log store (emptied first)")
	fs.BoolVar(&cfg.keepWork, "keep", false, "keep the scratch folder afterwards")
	fs.StringVar(&cfg.cache, "cache", "bin/bench-cache", "folder the Go benchmarks cache big logs in across runs (FECHADO_BENCH_CACHE)")
	fs.DurationVar(&cfg.budget, "budget", 14*time.Minute, "time for the whole run; sizes that would not fit are left out")
	fs.Float64Var(&cfg.goShare, "go-share", 0.6, "share of the budget the Go benchmarks may take at most")
	fs.StringVar(&cfg.bench, "bench", ".", "go test -bench pattern (\"\" skips the Go benchmarks)")
	fs.StringVar(&cfg.pkgs, "pkgs", "./...", "packages to benchmark, space-separated")
	fs.IntVar(&cfg.count, "count", 1, "go test -count")
	fs.StringVar(&cfg.benchtime, "benchtime", "1s", "go test -benchtime")
	sizes := fs.String("sizes", "10000,100000,300000,1000000", "log sizes in hands for the whole-process measurements, ascending; tables are simulated until they hold at least that many (\"\" skips them)")
	fs.StringVar(&cfg.readHands, "read-hands", "10000,1000000", "log sizes in hands, comma-separated, that BenchmarkReadHandLogSize reads hands from (FECHADO_READ_HANDS)")
	fs.Float64Var(&cfg.margin, "margin", 1.3, "safety factor on the time a size is estimated to take before it is held to the budget left")
	fs.IntVar(&cfg.jqRounds, "jq-rounds", 5, "rounds of audit and jq in turn at the sizes where a round takes under 15s (the summary's ratio is the median of the rounds')")
	fs.IntVar(&cfg.jqMax, "jq-max", 300000, "leave jq out of sizes over this many hands (its time grows with the files and it is only the baseline of audit)")
	fs.IntVar(&cfg.tableHands, "table-hands", 10000, "hands per simulated table")
	fs.StringVar(&cfg.rules, "rules", "std-draw", "preset of the simulated tables")
	fs.IntVar(&cfg.players, "players", 4, "players at each simulated table")
	fs.IntVar(&cfg.workers, "workers", runtime.NumCPU(), "tables simulated at once")
	fs.StringVar(&cfg.baseline, "audit-baseline", "", "a fechado built from an earlier commit: its audit --json runs in turn with this one's on the same files (\"\": none)")
	fs.StringVar(&cfg.baselineCommit, "audit-baseline-commit", "", "the commit -audit-baseline was built from, as the report names it")
	fs.IntVar(&cfg.baselineRounds, "audit-baseline-rounds", 15, fmt.Sprintf("rounds of the two audits at the first size (at the largest, at most %d, as the budget allows)", bigBaselineRounds))
	fs.IntVar(&cfg.apiSeconds, "api-seconds", 60, fmt.Sprintf("seconds the web API is read by %d clients at the first size and at the largest, under a serve of the log and its read models (0: not read)", apiClients))
	loadTables := fs.String("load-tables", "500,1000,2000,3000,4000,5000", "numbers of live tables loaded in turn (serve and sim --live, as make load), ascending, until one misses a goal (\"\": no load)")
	fs.DurationVar(&cfg.loadPace, "load-pace", 2*time.Second, "mean time between two events of a live table")
	fs.DurationVar(&cfg.loadDuration, "load-duration", 150*time.Second, "how long the live tables play at each number of tables")
	fs.IntVar(&cfg.loadReaders, "load-readers", 20, "clients reading the API during the load")
	fs.IntVar(&cfg.spreadRounds, "spread-rounds", 7, "rounds of audit --workers NumCPU against --workers 1 on the room file (0: none)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if big, small := readHandSizes(cfg.readHands); big < 1 || small < 1 {
		return nil, fmt.Errorf("-read-hands: %q is not a list of numbers of hands", cfg.readHands)
	}
	if cfg.margin < 1 {
		return nil, errors.New("-margin must be at least 1")
	}
	if cfg.tableHands < 1 || cfg.workers < 1 || cfg.count < 1 || cfg.baselineRounds < 1 {
		return nil, errors.New("-table-hands, -workers, -count and -audit-baseline-rounds must be positive")
	}
	var err error
	if cfg.loadTables, err = ascending(*loadTables, "-load-tables", "a number of tables"); err != nil {
		return nil, err
	}
	if cfg.loadPace <= 0 || cfg.loadDuration <= 0 || cfg.loadReaders < 0 || cfg.spreadRounds < 0 {
		return nil, errors.New("-load-pace and -load-duration must be positive, -load-readers and -spread-rounds not negative")
	}
	if cfg.sizes, err = ascending(*sizes, "-sizes", "a number of hands"); err != nil {
		return nil, err
	}
	return cfg, nil
}

// ascending parses a comma-separated list of positive numbers in ascending order.
func ascending(list, flagName, what string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(list, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%s: %q is not %s", flagName, f, what)
		}
		if len(out) > 0 && n <= out[len(out)-1] {
			return nil, fmt.Errorf("%s must ascend", flagName)
		}
		out = append(out, n)
	}
	return out, nil
}

// signalContext is a context cancelled by Ctrl-C or SIGTERM: the processes started under it are
// then killed and the scratch folders removed.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// runAll runs everything and writes the report and the raw output.
func runAll(ctx context.Context, cfg *config, progress io.Writer) error {
	start := time.Now()
	until := start.Add(cfg.budget)
	rep := &report{cfg: cfg, Start: start, Machine: readMachine(ctx, cfg), Commit: readCommit(ctx)}
	// go test runs each package in its own folder: the cache must not depend on that.
	if abs, err := filepath.Abs(cfg.cache); err == nil {
		cfg.cache = abs
	}
	for _, dir := range []string{cfg.work, cfg.cache, cfg.rawDir} {
		if dir == cfg.work {
			if err := os.RemoveAll(dir); err != nil {
				return err
			}
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	if !cfg.keepWork {
		defer os.RemoveAll(cfg.work)
	}

	if cfg.bench != "" {
		goUntil := start.Add(time.Duration(float64(cfg.budget) * cfg.goShare))
		fmt.Fprintf(progress, "benchreport: %s %s\n", cfg.goCmd, strings.Join(goBenchArgs(cfg), " "))
		raw, err := runGoBench(ctx, cfg, goUntil, progress)
		rep.GoRaw, rep.GoErr, rep.Go = raw, err, parseBench(raw)
		rep.GoTime = time.Since(start)
	}
	if len(cfg.sizes) > 0 || len(cfg.loadTables) > 0 || cfg.spreadRounds > 0 {
		w := &wholeProcess{cfg: cfg}
		rep.Whole = w
		if v, err := readVersion(ctx, cfg.jq, "--version"); err == nil {
			rep.JQVersion = v
		}
		// The spread first: a minute or so, on a file of its own.
		if cfg.spreadRounds > 0 {
			w.measureSpreadRoom(ctx, until, progress)
		}
		if len(cfg.sizes) > 0 {
			// The sizes leave the first load's time to the live tables, so that a budget that
			// holds the sizes also holds one number of tables.
			sizesUntil := until
			if len(cfg.loadTables) > 0 {
				sizesUntil = until.Add(-w.loadEstimate())
			}
			w.measureSizes(ctx, sizesUntil, progress)
		}
		// The live tables last, each number of tables on a new log in a folder of its own.
		if len(cfg.loadTables) > 0 {
			w.measureLoads(ctx, until, progress)
		}
	}
	rep.End = time.Now()
	rep.LoadEnd = loadAverage()
	if err := ctx.Err(); err != nil {
		return err
	}

	rawPath := filepath.Join(cfg.rawDir, "raw-"+rep.Commit.Name()+".txt")
	if err := writeFile(rawPath, rep.raw()); err != nil {
		return err
	}
	rep.RawPath = rawPath
	// The hand-written sections of the report being replaced are written again.
	if old, err := os.ReadFile(cfg.out); err == nil {
		rep.Kept = keptSections(old)
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	md := rep.markdown()
	if err := writeFile(cfg.out, md); err != nil {
		return err
	}
	fmt.Fprintf(progress, "benchreport: wrote %s and %s in %s\n", cfg.out, rawPath, rep.End.Sub(start).Round(time.Second))
	return nil
}

// writeFile replaces path with data, whole or not at all.
func writeFile(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
