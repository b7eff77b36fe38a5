package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// errBudget means a step was not run, or was stopped, because the time budget ran out.
var errBudget = errors.New("time budget exhausted")

// run is one whole-process measurement: a command run to its end.
type run struct {
	Args   []string      // the command line, as run
	Wall   time.Duration // elapsed time, start to exit
	CPU    time.Duration // user + system time of the process
	MaxRSS int64         // peak resident set size in bytes (ru_maxrss, what /usr/bin/time -v prints)
	Exit   int
}

// measure runs name with args, its standard output to stdout (nil: the null device), and
// returns its elapsed time, CPU time and peak memory. okExit lists the exit statuses that are
// success (audit exits 1 when it finds an error). The error names the command and carries the
// tail of its standard error.
func measure(ctx context.Context, stdout io.Writer, okExit []int, name string, args ...string) (run, error) {
	return measureEnv(ctx, nil, stdout, okExit, name, args...)
}

// measureEnv is measure with env added to the command's environment.
func measureEnv(ctx context.Context, env []string, stdout io.Writer, okExit []int, name string, args ...string) (run, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	cmd.Stdout = stdout
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	killGroup(cmd)
	r := run{Args: append([]string{name}, args...)}
	start := time.Now()
	err := cmd.Run()
	r.Wall = time.Since(start)
	r.usage(cmd.ProcessState)
	if ctx.Err() != nil {
		return r, errBudget
	}
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && containsInt(okExit, r.Exit)) {
		return r, fmt.Errorf("%s: %v: %s", strings.Join(shortArgs(r.Args), " "), err, tail(stderr.String()))
	}
	return r, nil
}

// usage fills in the exit status, CPU time and peak memory of an ended process (nil: not run).
func (r *run) usage(ps *os.ProcessState) {
	if ps == nil {
		return
	}
	r.Exit = ps.ExitCode()
	r.CPU = ps.UserTime() + ps.SystemTime()
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		r.MaxRSS = ru.Maxrss * 1024 // kilobytes on Linux
	}
}

func containsInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// tail returns the last lines of a command's standard error.
func tail(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > 5 {
		lines = lines[len(lines)-5:]
	}
	return strings.Join(lines, " | ")
}

// shortArgs abbreviates a command line for the report: file operands after the first two are
// counted, not listed.
func shortArgs(args []string) []string {
	var out []string
	files := 0
	for _, a := range args {
		if strings.HasSuffix(a, ".jsonl") {
			if files++; files > 2 {
				continue
			}
		}
		out = append(out, a)
	}
	if files > 2 {
		out = append(out, fmt.Sprintf("… (%d files)", files))
	}
	return out
}

// table is one simulated table's JSON Lines file.
type table struct {
	Path   string
	Table  string   // the table id of its events
	Hands  int      // hand.ended events
	Events int      // lines
	Bytes  int64    //
	Sample []string // hand ids: a uniform sample of at most readSample of the table's hands
}

// simTables makes sure tables[0:n] exist, simulating the missing ones, workers at a time,
// each with its own seed and table id. It returns the wall time it spent.
func (w *wholeProcess) simTables(ctx context.Context, n int) (time.Duration, error) {
	start := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, n)
	sem := make(chan struct{}, w.cfg.workers)
	for len(w.tables) < n {
		w.tables = append(w.tables, &table{Path: filepath.Join(w.cfg.work, fmt.Sprintf("table-%04d.jsonl", len(w.tables)+1))})
		i := len(w.tables) - 1
		t := w.tables[i]
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			_, err := measure(ctx, nil, nil, w.cfg.fechado, "sim", "--rules", w.cfg.rules,
				"--players", strconv.Itoa(w.cfg.players), "--hands", strconv.Itoa(w.cfg.tableHands),
				"--seed", strconv.Itoa(i+1), "--table", fmt.Sprintf("bench-%04d", i+1), "--out", t.Path)
			if err == nil {
				err = t.count()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	return time.Since(start), errors.Join(errs...)
}

// count fills in the table's id, hands, events, bytes and sample of hands from its file.
func (t *table) count() error {
	rng := rand.New(rand.NewPCG(uint64(len(t.Path)), 21))
	f, err := os.Open(t.Path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	ended := []byte(`"type":"hand.ended"`)
	for {
		line, err := r.ReadSlice('\n')
		if len(line) > 0 {
			t.Events++
			t.Bytes += int64(len(line))
			if t.Table == "" {
				t.Table = jsonString(line, `"table":"`)
			}
			if bytes.Contains(line, ended) {
				t.Hands++
				// Reservoir sampling: each hand so far is in the sample with the same chance.
				if len(t.Sample) < readSample {
					t.Sample = append(t.Sample, jsonString(line, `"hand":"`))
				} else if k := rng.IntN(t.Hands); k < readSample {
					t.Sample[k] = jsonString(line, `"hand":"`)
				}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil && err != bufio.ErrBufferFull {
			return err
		}
		if err == bufio.ErrBufferFull {
			return fmt.Errorf("%s: a line longer than 1 MiB", t.Path)
		}
	}
}

// size is the whole-process measurements of one log size.
type size struct {
	Nominal         int    // the size asked for: at least this many hands
	Load            string // load averages before the size's first measurement
	Tables          int
	Hands, Events   int
	Bytes           int64
	Sim             time.Duration // simulating the tables new at this size (not a figure)
	Audit, JQ       *run
	Record, Project *run  // record: only the tables new at this size; project: the median of ProjectRuns
	ProjectRuns     []run // every run of project at this size (projectRounds below projectOnceFrom hands)
	Plain           *run  // the same tables published plainly to a log of their own (publishPlain)
	PlainErr        error
	Dedup           *run // the same with each event id as Nats-Msg-Id (dedupFlag)
	DedupErr        error
	RecordedHands   int        // hands of the tables recorded at this size
	RecordedEvents  int        // their events
	AuditOnly       bool       // record and project were left out to stay within the budget
	NoJQ            bool       // jq was left out: the size is over -jq-max
	Reads           *readTimes // hands read back by id after record (measureReads)
	ReadsRun        *run       // the process that read them
	ModelReads      *readTimes // the same hands read back by id after project, with its read models
	ModelReadsRun   *run       // the process that read them
	ModelReadsErr   error
	Server          *run // the log's server while project ran (measureProject)
	// API is the web API read by apiClients clients with the read models project left (-time-api),
	// APIRun the timer's process; API.ServeMaxRSS is serve's peak memory.
	API                 *apiTimes
	APIRun              *run
	APIErr              error
	RecordErr, AuditErr error
	ProjectErr, JQErr   error
	ReadsErr            error

	// Paired is the audit of the size's files by -audit-baseline and by this commit in turn
	// (nil: not run at this size).
	Paired *pairedAudits
	// JQRounds is audit (Cur) and jq (Base) on the size's files in turn, the first round
	// included (measureJQRounds; nil: jq not run at this size).
	JQRounds *pairedAudits
}

// wholeProcess measures the fechado binary on growing simulated logs.
type wholeProcess struct {
	cfg      *config
	tables   []*table
	sizes    []*size
	notes    []string      // sizes left out, and why
	simWall  time.Duration // time spent simulating tables so far
	simHands int           // hands of the tables simulated so far
	spread   *spreadAudits // audit on every core against one worker (nil: not run)
	// storeSpread is the same on the room's log (audit --all): nil when not run.
	storeSpread *spreadAudits
	loads       *loadSteps // the live tables (nil: not run)
	// loadRunner runs one load in place of runLoad (tests: the rising without serve).
	loadRunner func(context.Context, loadConfig, io.Writer) (*loadRun, error)
}

// measureSizes runs, for each size in turn, audit and jq on the same files, then record of
// the new tables into one growing log and project --rebuild of the whole log. Before each size
// it extrapolates the time the size will take from the previous one, per hand, and leaves out
// what would not end before until: first record and project, then the whole size. With
// -audit-baseline, the first size and the largest also run the baseline's audit and this
// commit's in turn (measurePaired), in the time that estimate leaves.
func (w *wholeProcess) measureSizes(ctx context.Context, until time.Time, progress io.Writer) {
	ctx, cancel := context.WithDeadline(ctx, until) // a step still running then is stopped
	defer cancel()
	data := filepath.Join(w.cfg.work, "log")
	var prev *size
	for i, n := range w.cfg.sizes {
		ntables := w.tablesFor(n)
		rounds := w.cfg.roundsAt(i)
		var reserve time.Duration // the rest of the size after audit and jq, estimated: the rounds against the baseline leave it to record and project
		if prev != nil {
			full, auditOnly := w.estimate(prev, n, ntables)
			reserve = full - auditOnly
			left := time.Until(until)
			switch {
			case full <= left:
			case auditOnly <= left:
				w.notes = append(w.notes, fmt.Sprintf("%s hands: record and project left out, about %s estimated, %s left of the budget",
					thousands(n), full.Round(time.Second), left.Round(time.Second)))
				w.measureSize(ctx, n, data, true, rounds, 0, progress)
				if ctx.Err() != nil {
					w.notes = append(w.notes, fmt.Sprintf("%s hands: stopped when the time budget ran out", thousands(n)))
				}
				return
			default:
				w.notes = append(w.notes, fmt.Sprintf("%s hands and more: left out, about %s estimated for audit and jq alone, %s left of the budget",
					thousands(n), auditOnly.Round(time.Second), left.Round(time.Second)))
				return
			}
		}
		fmt.Fprintf(progress, "benchreport: %s hands\n", thousands(n))
		s := w.measureSize(ctx, n, data, false, rounds, reserve, progress)
		if ctx.Err() != nil {
			w.notes = append(w.notes, fmt.Sprintf("%s hands: stopped when the time budget ran out", thousands(n)))
			return
		}
		if s == nil || s.AuditErr != nil || s.RecordErr != nil || s.ProjectErr != nil || s.JQErr != nil {
			return
		}
		prev = s
	}
}

// estimate extrapolates from prev, per hand, the time of size n of ntables: everything, and
// audit and jq alone (both with the simulation of the new tables; jq only when n is not over
// -jq-max), times -margin. Reading the sample of hands costs what it cost at prev.
func (w *wholeProcess) estimate(prev *size, n, ntables int) (full, auditOnly time.Duration) {
	per := func(r *run, n int) float64 {
		if r == nil {
			return 0
		}
		return float64(r.Wall) / float64(max(n, 1))
	}
	newHands := float64((ntables - len(w.tables)) * w.cfg.tableHands)
	hands := float64(ntables * w.cfg.tableHands)
	a := newHands*float64(w.simWall)/float64(max(w.simHands, 1)) + hands*per(prev.Audit, prev.Hands)
	if n <= w.cfg.jqMax {
		a += hands * per(prev.JQ, prev.Hands)
	}
	f := a + newHands*(per(prev.Record, prev.RecordedHands)+per(prev.Plain, prev.RecordedHands)+per(prev.Dedup, prev.RecordedHands)) +
		hands*per(prev.Project, prev.Hands)
	for _, r := range []*run{prev.ReadsRun, prev.ModelReadsRun} {
		if r != nil {
			f += float64(r.Wall)
		}
	}
	if w.cfg.apiAt(n) {
		// The clients' fixed time, and serve's start, which catches up the log: per hand as at
		// prev when it was read there, else half a minute.
		api := float64(time.Duration(w.cfg.apiSeconds)*time.Second) + float64(30*time.Second)
		if prev.APIRun != nil && prev.API != nil {
			api = float64(time.Duration(w.cfg.apiSeconds)*time.Second) +
				hands*float64(max(prev.APIRun.Wall-time.Duration(w.cfg.apiSeconds)*time.Second, 0))/float64(max(prev.Hands, 1))
		}
		f += api
	}
	return time.Duration(f * w.cfg.margin), time.Duration(a * w.cfg.margin)
}

// tablesFor estimates how many tables hold n hands: the tables simulated so far give the mean
// number of hands per table (a table ends sooner when one player wins every chip).
func (w *wholeProcess) tablesFor(n int) int {
	per := float64(w.cfg.tableHands)
	if len(w.tables) > 0 && w.simHands > 0 {
		per = float64(w.simHands) / float64(len(w.tables))
	}
	return max(1, int(math.Ceil(float64(n)/per)))
}

// simHandsFor simulates tables until the first ones hold at least n hands (or maxTables of
// them), and returns how many tables that is and the time spent.
func (w *wholeProcess) simHandsFor(ctx context.Context, n int) (int, time.Duration, error) {
	const maxTables = 100000
	k := w.tablesFor(n)
	var spent time.Duration
	for {
		d, err := w.simTables(ctx, k)
		spent += d
		if err != nil {
			return k, spent, err
		}
		hands := 0
		for _, t := range w.tables[:k] {
			hands += t.Hands
		}
		if hands >= n || k >= maxTables {
			return k, spent, nil
		}
		k += max(1, int(math.Ceil(float64(n-hands)/float64(max(hands/k, 1)))))
	}
}

// oneCore returns the command line that runs name on one CPU (taskset -c N, when the machine
// has it; the last CPU, as the kernel favours CPU 0 for its own work) and the environment that
// gives the Go runtime one processor (GOMAXPROCS=1): the garbage collector then shares that
// core too.
func oneCore(name string, args ...string) (string, []string, []string) {
	env := []string{"GOMAXPROCS=1"}
	if ts, err := exec.LookPath("taskset"); err == nil {
		return ts, append([]string{"-c", strconv.Itoa(runtime.NumCPU() - 1), name}, args...), env
	}
	return name, args, env
}

// measureSize measures one size of at least n hands; it returns nil when the tables could not
// be simulated. rounds is how many rounds of audit against -audit-baseline it runs at most, each
// only when reserve is still left of the budget after it for the rest of the size.
func (w *wholeProcess) measureSize(ctx context.Context, n int, data string, auditOnly bool, rounds int, reserve time.Duration, progress io.Writer) *size {
	before := len(w.tables)
	ntables, simTime, err := w.simHandsFor(ctx, n)
	if err != nil {
		w.notes = append(w.notes, fmt.Sprintf("%d tables: simulating them failed: %v", ntables, err))
		return nil
	}
	s := &size{Nominal: n, Tables: ntables, Sim: simTime, AuditOnly: auditOnly, Load: loadAverage()}
	var files, fresh []string
	for i, t := range w.tables[:ntables] {
		s.Hands += t.Hands
		s.Events += t.Events
		s.Bytes += t.Bytes
		files = append(files, t.Path)
		if i >= before {
			fresh = append(fresh, t.Path)
			s.RecordedHands += t.Hands
			s.RecordedEvents += t.Events
		}
	}
	w.simWall += simTime
	w.simHands += s.RecordedHands
	w.sizes = append(w.sizes, s)

	// The tables just simulated are still being written back to the disk: flush them first, so
	// that the kernel's writeback does not share the measured core.
	syscall.Sync()
	fmt.Fprintf(progress, "benchreport:   audit --json on one core (%s hands, %.0f MB)\n", thousands(s.Hands), float64(s.Bytes)/1e6)
	name, args, env := oneCore(w.cfg.fechado, append([]string{"audit", "--json"}, files...)...)
	a, err := measureEnv(ctx, env, nil, []int{0, 1}, name, args...)
	s.Audit, s.AuditErr = &a, err
	if n > w.cfg.jqMax {
		s.NoJQ = true
	} else {
		fmt.Fprintf(progress, "benchreport:   jq -c . on one core\n")
		name, args, env = oneCore(w.cfg.jq, append([]string{"-c", "."}, files...)...)
		j, err := measureEnv(ctx, env, nil, nil, name, args...)
		s.JQ, s.JQErr = &j, err
		if s.AuditErr == nil && s.JQErr == nil {
			w.measureJQRounds(ctx, s, files, reserve, progress)
		}
	}
	if rounds > 0 && s.AuditErr == nil {
		w.measurePaired(ctx, s, files, rounds, reserve, progress)
	}
	if auditOnly || s.AuditErr != nil || s.JQErr != nil {
		return s
	}

	fmt.Fprintf(progress, "benchreport:   record (%d new tables)\n", len(fresh))
	r, err := measure(ctx, nil, nil, w.cfg.fechado, append([]string{"record", "--data", data}, fresh...)...)
	s.Record, s.RecordErr = &r, err
	if err != nil {
		return s
	}
	fmt.Fprintf(progress, "benchreport:   %d hands read back by id\n", readSample)
	w.measureReads(ctx, s, data, w.tables[:ntables])
	if self, err := os.Executable(); err != nil {
		s.PlainErr, s.DedupErr = err, err
	} else {
		fmt.Fprintf(progress, "benchreport:   plain publish of the same tables (the baseline of record)\n")
		pl, err := measure(ctx, nil, nil, self, append([]string{plainFlag, data + "-plain"}, fresh...)...)
		s.Plain, s.PlainErr = &pl, err
		// The baseline's log is needed no more: its disk goes to the next size.
		os.RemoveAll(data + "-plain")
		fmt.Fprintf(progress, "benchreport:   the same with each event id as Nats-Msg-Id\n")
		dd, err := measure(ctx, nil, nil, self, append([]string{dedupFlag, data + "-dedup"}, fresh...)...)
		s.Dedup, s.DedupErr = &dd, err
		os.RemoveAll(data + "-dedup")
	}
	fmt.Fprintf(progress, "benchreport:   project --rebuild, the log's server in a process of its own, then the same hands read back with the read models\n")
	w.measureProject(ctx, s, data)
	os.Remove(handListPath(data))
	return s
}

// jqRoundsMax is the longest first round of audit and jq after which more rounds are run: the
// rounds are for the small sizes, where one run of a fraction of a second is at the mercy of
// whatever else the machine does at that moment; at the large ones a run is long enough alone.
const jqRoundsMax = 15 * time.Second

// measureJQRounds runs audit and jq on the files of s in turn, up to -jq-rounds rounds with the
// first (s.Audit and s.JQ, audit first), the order swapped every round, while the budget leaves
// reserve for the rest of the size. s.Audit and s.JQ become the runs of median time, and
// s.JQRounds holds every round (Base the jq runs, Cur the audit's), whose ratios the summary
// takes the median of.
func (w *wholeProcess) measureJQRounds(ctx context.Context, s *size, files []string, reserve time.Duration, progress io.Writer) {
	p := &pairedAudits{Asked: w.cfg.jqRounds, Base: []run{*s.JQ}, Cur: []run{*s.Audit}}
	s.JQRounds = p
	round := s.Audit.Wall + s.JQ.Wall
	if w.cfg.jqRounds < 2 || round > jqRoundsMax {
		return
	}
	fmt.Fprintf(progress, "benchreport:   audit and jq in turn on one core, %d rounds in all\n", w.cfg.jqRounds)
	auditCmd, auditArgs, env := oneCore(w.cfg.fechado, append([]string{"audit", "--json"}, files...)...)
	jqCmd, jqArgs, _ := oneCore(w.cfg.jq, append([]string{"-c", "."}, files...)...)
	for i := 1; i < w.cfg.jqRounds; i++ {
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline)-reserve < time.Duration(float64(round)*w.cfg.margin) {
			w.notes = append(w.notes, fmt.Sprintf("%s hands: audit and jq, %d of %d rounds: the budget left no more", thousands(s.Nominal), i, w.cfg.jqRounds))
			break
		}
		var a, j run
		var aerr, jerr error
		if i%2 == 1 { // jq first in odd rounds
			j, jerr = measureEnv(ctx, env, nil, nil, jqCmd, jqArgs...)
			if jerr == nil {
				a, aerr = measureEnv(ctx, env, nil, []int{0, 1}, auditCmd, auditArgs...)
			}
		} else {
			a, aerr = measureEnv(ctx, env, nil, []int{0, 1}, auditCmd, auditArgs...)
			if aerr == nil {
				j, jerr = measureEnv(ctx, env, nil, nil, jqCmd, jqArgs...)
			}
		}
		if err := errors.Join(aerr, jerr); err != nil {
			p.Err = err
			break
		}
		p.Cur = append(p.Cur, a)
		p.Base = append(p.Base, j)
	}
	s.Audit, s.JQ = medianRun(p.Cur), medianRun(p.Base)
}

// perSecond returns n per second of d.
func perSecond(n int, d time.Duration) float64 {
	if d <= 0 {
		return math.NaN()
	}
	return float64(n) / d.Seconds()
}
