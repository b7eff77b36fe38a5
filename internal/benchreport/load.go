package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fechado/fechado/internal/livereport"
)

// loadFlag makes benchreport the room's load on one node (`make load`, internal/benchreport/
// load.sh): benchreport -load [-tables N] [-pace D] [-duration D] [-readers K] … starts `fechado
// serve` on the embedded log in a new folder on a free loopback port, plays `fechado sim --live`
// against it, prints sim's report, serve's peak memory, the CPU serve and sim spent and one line
// per goal of issue 43, PASS or FAIL. make bench runs the same code (runLoad) at a rising number
// of tables.
const loadFlag = "-load"

// The goals of a room on one node (issue 43).
const (
	appendGoalMS = 50
	lagGoalMS    = 1000
	readGoalMS   = 100
	// tablesTarget is how many live tables issue 43 asks one node of 2 cores to hold.
	tablesTarget = 1000
)

// loadConfig is one load: serve and sim --live with these settings.
type loadConfig struct {
	fechado   string
	dir       string // folder of the log, the read models, the auth file, the outputs (made when missing)
	tables    int
	pace      time.Duration
	duration  time.Duration
	readers   int
	auth      bool     // serve --auth, sim writing as an app user
	serveArgs []string // more flags of serve
	profile   bool     // serve's and sim's profiles into dir
	simOut    io.Writer
	simErr    io.Writer // sim's progress lines (nil: dropped)
}

// loadRun is one load's figures.
type loadRun struct {
	Tables     int
	Sim        livereport.Report
	ServeCPU   float64 // seconds of CPU serve spent while sim ran
	SimCPU     float64 // sim's own
	ServeHWM   int64   // serve's peak resident memory (VmHWM) when sim ended, bytes
	ServeRSS   int64   // its resident memory then
	LoadBefore string  // load averages before sim and after it
	LoadAfter  string
	Wall       time.Duration // the whole load: serve's start to its stop
}

// loadGoal is one goal of a room, with the figure it is judged by.
type loadGoal struct {
	Name   string // "append", "lag", "read"
	Text   string // the goal, e.g. "append p99 < 50 ms"
	Figure string // what was measured
	Met    bool
}

// goals judges l by the three goals of issue 43. A goal with no sample, with errors or (the lag)
// with hands whose end the read models never showed is not met: the figure would hide them.
func (l *loadRun) goals() []loadGoal {
	s := &l.Sim
	msText := func(v float64) string { return strconv.FormatFloat(float64(int64(v*10+0.5))/10, 'f', -1, 64) + " ms" }
	return []loadGoal{
		{"append", fmt.Sprintf("append p99 < %d ms", appendGoalMS),
			fmt.Sprintf("%s, %d errors", msText(s.Append.P99), s.Append.Errors),
			s.Append.Count > 0 && s.Append.Errors == 0 && s.Append.P99 < appendGoalMS},
		{"lag", fmt.Sprintf("live-audit lag p99 < %d s", lagGoalMS/1000),
			fmt.Sprintf("%s over %d hands, %d unseen, %d errors", msText(s.Lag.P99), s.Lag.Count, s.LagUnseen, s.Lag.Errors),
			s.Lag.Count > 0 && s.Lag.Errors == 0 && s.LagUnseen == 0 && s.Lag.P99 < lagGoalMS},
		{"read", fmt.Sprintf("read p99 < %d ms", readGoalMS),
			fmt.Sprintf("%s over %d reads, %d errors", msText(s.Read.P99), s.Read.Count, s.Read.Errors),
			s.Read.Count > 0 && s.Read.Errors == 0 && s.Read.P99 < readGoalMS},
	}
}

// allMet reports whether l meets every goal.
func (l *loadRun) allMet() bool {
	for _, g := range l.goals() {
		if !g.Met {
			return false
		}
	}
	return true
}

// failed lists the goals l did not meet, each with its figure.
func (l *loadRun) failed() []string {
	var out []string
	for _, g := range l.goals() {
		if !g.Met {
			out = append(out, g.Text+": "+g.Figure)
		}
	}
	return out
}

// perThousand is seconds of CPU per 1,000 events appended ("-" with none).
func perThousand(cpu float64, events int) string {
	if events == 0 {
		return "-"
	}
	return strconv.FormatFloat(cpu*1000/float64(events), 'f', 3, 64)
}

// lines are what `make load` prints after sim's report: serve's memory, the CPU, one line per goal,
// then one for all three.
func (l *loadRun) lines() []string {
	s := &l.Sim
	n := s.Append.Count
	offered := 0.0
	if s.PaceMS > 0 {
		offered = float64(s.Tables) * 1000 / s.PaceMS
	}
	rate := 0.0
	if s.Seconds > 0 {
		rate = float64(n) / s.Seconds
	}
	out := []string{
		fmt.Sprintf("==> serve: peak resident memory (VmHWM) %.0f MB, resident now %.0f MB", float64(l.ServeHWM)/1e6, float64(l.ServeRSS)/1e6),
		fmt.Sprintf("==> CPU: serve %.2f s, sim %.2f s for %d events appended (%.1f/s of %.0f offered): serve %s s, sim %s s per 1,000 events",
			l.ServeCPU, l.SimCPU, n, rate, offered, perThousand(l.ServeCPU, n), perThousand(l.SimCPU, n)),
	}
	for _, g := range l.goals() {
		verdict := "FAIL"
		if g.Met {
			verdict = "PASS"
		}
		out = append(out, fmt.Sprintf("==> goal %s: %s: %s", g.Text, g.Figure, verdict))
	}
	all := "NOT every goal met"
	if l.allMet() {
		all = "every goal met"
	}
	return append(out, fmt.Sprintf("==> %d tables: %s", s.Tables, all))
}

// procCPU returns the CPU seconds (user + system) process pid has spent so far: fields 14 and 15
// of /proc/PID/stat, in USER_HZ ticks (100 a second on Linux, whatever the kernel's own tick); the
// command name (field 2) may hold spaces, hence what follows its closing parenthesis.
func procCPU(pid int) (float64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, errors.New("no command name in /proc/PID/stat")
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, errors.New("short /proc/PID/stat")
	}
	utime, err1 := strconv.ParseFloat(f[11], 64)
	stime, err2 := strconv.ParseFloat(f[12], 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return (utime + stime) / 100, nil
}

// procMemory returns a field of /proc/PID/status in kilobytes (VmHWM, VmRSS) as bytes.
func procMemory(pid int, field string) int64 {
	kb, _ := strconv.ParseInt(strings.TrimSuffix(procField(fmt.Sprintf("/proc/%d/status", pid), field), " kB"), 10, 64)
	return kb * 1024
}

// runLoad starts serve in c.dir on a free loopback port, plays sim --live against it for
// c.duration, stops serve and returns the figures. sim's report goes to c.simOut too.
func runLoad(ctx context.Context, c loadConfig, progress io.Writer) (*loadRun, error) {
	start := time.Now()
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return nil, err
	}
	var serveAuth, simAuth []string
	if c.auth {
		// The door a table system writes through (docs/security.md §3): an `app` user whose
		// password the file holds as a bcrypt hash, as a room keeps it; serve checks it on every POST.
		var raw [18]byte
		if _, err := rand.Read(raw[:]); err != nil {
			return nil, err
		}
		pw := base64.RawURLEncoding.EncodeToString(raw[:])
		cmd := exec.CommandContext(ctx, c.fechado, "passwd")
		cmd.Stdin = strings.NewReader(pw + "\n")
		hash, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("fechado passwd: %v", err)
		}
		users, _ := json.Marshal(map[string]any{"users": []map[string]string{{"name": "loadgen", "password": strings.TrimSpace(string(hash)), "role": "app"}}})
		authFile := filepath.Join(c.dir, "auth.json")
		if err := os.WriteFile(authFile, users, 0o600); err != nil {
			return nil, err
		}
		serveAuth = []string{"--auth", authFile}
		simAuth = []string{"--user", "loadgen", "--password", pw}
	}
	addr, err := freePort()
	if err != nil {
		return nil, err
	}
	base := "http://" + addr + "/"
	args := []string{"serve", "--data", filepath.Join(c.dir, "data"), "--db", filepath.Join(c.dir, "fechado.db"), "--http", addr}
	args = append(append(args, serveAuth...), c.serveArgs...)
	var simProf []string
	if c.profile {
		args = append(args, "--cpuprofile", filepath.Join(c.dir, "serve.cpu"), "--memprofile", filepath.Join(c.dir, "serve.mem"))
		simProf = []string{"--cpuprofile", filepath.Join(c.dir, "sim.cpu")}
	}
	fmt.Fprintf(progress, "==> fechado serve --data %s on %s%s\n", filepath.Join(c.dir, "data"), base,
		map[bool]string{true: " (--auth: sim writes as an app user)"}[c.auth])
	srv := exec.CommandContext(ctx, c.fechado, args...)
	killGroup(srv)
	var serveErr bytes.Buffer
	srv.Stderr = &serveErr
	if err := srv.Start(); err != nil {
		return nil, err
	}
	stop := func() {
		srv.Process.Signal(syscall.SIGTERM)
		srv.Wait()
	}
	if err := waitServe(ctx, base, srv, time.Minute); err != nil {
		stop()
		return nil, fmt.Errorf("serve did not answer: %v: %s", err, tail(serveErr.String()))
	}
	pid := srv.Process.Pid
	cpu0, err := procCPU(pid)
	if err != nil {
		stop()
		return nil, err
	}
	l := &loadRun{Tables: c.tables, LoadBefore: loadAverage()}
	fmt.Fprintf(progress, "==> load average before: %s\n", l.LoadBefore)
	simArgs := []string{"sim", "--live", "--target", base, "--tables", strconv.Itoa(c.tables), "--pace", c.pace.String(),
		"--duration", c.duration.String(), "--readers", strconv.Itoa(c.readers)}
	simArgs = append(append(simArgs, simAuth...), simProf...)
	fmt.Fprintf(progress, "==> fechado %s\n", strings.Join(redact(simArgs), " "))
	sim := exec.CommandContext(ctx, c.fechado, simArgs...)
	killGroup(sim)
	var out bytes.Buffer
	sim.Stdout = &out
	if c.simOut != nil {
		sim.Stdout = io.MultiWriter(&out, c.simOut)
	}
	var simErr bytes.Buffer
	sim.Stderr = &simErr
	if c.simErr != nil {
		sim.Stderr = io.MultiWriter(&simErr, c.simErr)
	}
	simRunErr := sim.Run()
	cpu1, cpuErr := procCPU(pid)
	l.ServeHWM, l.ServeRSS = procMemory(pid, "VmHWM"), procMemory(pid, "VmRSS")
	l.LoadAfter = loadAverage()
	fmt.Fprintf(progress, "==> load average after: %s\n", l.LoadAfter)
	stop()
	l.Wall = time.Since(start)
	if ctx.Err() != nil {
		return nil, errBudget
	}
	if simRunErr != nil {
		return nil, fmt.Errorf("fechado sim --live: %v: %s", simRunErr, tail(simErr.String()))
	}
	if cpuErr != nil {
		return nil, cpuErr
	}
	var simRun run
	simRun.usage(sim.ProcessState)
	l.ServeCPU, l.SimCPU = cpu1-cpu0, simRun.CPU.Seconds()
	if err := json.Unmarshal(bytes.TrimSpace(out.Bytes()), &l.Sim); err != nil {
		return nil, fmt.Errorf("sim --live printed %q: %w", strings.TrimSpace(out.String()), err)
	}
	return l, nil
}

// redact hides the value of --password in a command line that is printed.
func redact(args []string) []string {
	out := make([]string, len(args))
	copy(out, args)
	for i := range out[:max(len(out)-1, 0)] {
		if out[i] == "--password" {
			out[i+1] = "…"
		}
	}
	return out
}

// loadMain is benchreport -load: one load, as `make load` runs it.
func loadMain(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("benchreport "+loadFlag, flag.ContinueOnError)
	c := loadConfig{simOut: stdout, simErr: stderr}
	fs.StringVar(&c.fechado, "fechado", "bin/fechado", "the fechado binary")
	fs.IntVar(&c.tables, "tables", 100, "tables dealing at once")
	fs.DurationVar(&c.pace, "pace", 2*time.Second, "mean time between two events of a table")
	fs.DurationVar(&c.duration, "duration", 150*time.Second, "how long the tables play")
	fs.IntVar(&c.readers, "readers", 20, "clients reading the API meanwhile")
	fs.BoolVar(&c.auth, "auth", true, "serve --auth, sim writing as an app user (false: writes open)")
	serveArgs := fs.String("serve-args", "", "more flags of serve, split at spaces")
	keep := fs.Bool("keep", false, "keep the folder (its path is printed)")
	fs.BoolVar(&c.profile, "profile", false, "serve's CPU and heap profiles and sim's CPU profile in the folder (implies -keep)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 || c.tables < 1 || c.pace <= 0 || c.duration <= 0 || c.readers < 0 {
		return errors.New("usage: benchreport -load [-tables N ≥ 1] [-pace D] [-duration D] [-readers K] [-auth=false] [-serve-args ARGS] [-keep] [-profile]")
	}
	c.serveArgs = strings.Fields(*serveArgs)
	dir, err := os.MkdirTemp("", "fechado-load-")
	if err != nil {
		return err
	}
	c.dir = dir
	if *keep || c.profile {
		defer fmt.Fprintf(stderr, "==> kept %s\n", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	ctx, stopSignals := signalContext()
	defer stopSignals()
	l, err := runLoad(ctx, c, stderr)
	if err != nil {
		return err
	}
	for _, line := range l.lines() {
		fmt.Fprintln(stdout, line)
	}
	return nil
}

// loadSteps is the load at a rising number of tables in make bench: each size's figures, and why
// the rising stopped.
type loadSteps struct {
	Runs    []*loadRun
	Err     error // a load that failed to run (not one that missed a goal)
	ErrAt   int   // its tables
	Stopped string
}

// measureLoads runs the load at each number of tables of -load-tables in turn, each in a folder of
// its own under the scratch folder, until one misses a goal, fails, or the next would not end
// before until (estimated from the last one, times -margin).
func (w *wholeProcess) measureLoads(ctx context.Context, until time.Time, progress io.Writer) {
	ls := &loadSteps{}
	w.loads = ls
	ctx, cancel := context.WithDeadline(ctx, until)
	defer cancel()
	for i, n := range w.cfg.loadTables {
		est := w.loadEstimate()
		if left := time.Until(until); left < est {
			w.notes = append(w.notes, fmt.Sprintf("live tables: %s and more left out, about %s estimated a size, %s left of the budget",
				tablesList(w.cfg.loadTables[i:]), est.Round(time.Second), max(left, 0).Round(time.Second)))
			return
		}
		fmt.Fprintf(progress, "benchreport: live tables: %d tables, pace %s, %s, %d readers\n", n, w.cfg.loadPace, w.cfg.loadDuration, w.cfg.loadReaders)
		dir := filepath.Join(w.cfg.work, fmt.Sprintf("load-%d", n))
		load := runLoad
		if w.loadRunner != nil {
			load = w.loadRunner
		}
		l, err := load(ctx, loadConfig{fechado: w.cfg.fechado, dir: dir, tables: n, pace: w.cfg.loadPace,
			duration: w.cfg.loadDuration, readers: w.cfg.loadReaders, auth: true}, io.Discard)
		os.RemoveAll(dir)
		if err != nil {
			ls.Err, ls.ErrAt = err, n
			if errors.Is(err, errBudget) {
				w.notes = append(w.notes, fmt.Sprintf("live tables: %d tables stopped when the time budget ran out", n))
				ls.Err = nil
			}
			return
		}
		ls.Runs = append(ls.Runs, l)
		for _, line := range l.lines() {
			fmt.Fprintf(progress, "benchreport:   %s\n", strings.TrimPrefix(line, "==> "))
		}
		if !l.allMet() {
			if rest := w.cfg.loadTables[i+1:]; len(rest) > 0 {
				ls.Stopped = fmt.Sprintf("%s not run: %d tables already missed a goal", tablesList(rest), n)
			}
			return
		}
	}
}

// loadEstimate is the time the next load is expected to take, times -margin: the last one's, else
// the duration with sim's wait for the last lags (10 s) and a start and stop of serve (20 s).
func (w *wholeProcess) loadEstimate() time.Duration {
	if ls := w.loads; ls != nil && len(ls.Runs) > 0 {
		return time.Duration(float64(ls.Runs[len(ls.Runs)-1].Wall) * w.cfg.margin)
	}
	return time.Duration(float64(w.cfg.loadDuration+30*time.Second) * w.cfg.margin)
}

// tablesList is "500, 1,000 tables".
func tablesList(ns []int) string {
	var s []string
	for _, n := range ns {
		s = append(s, thousands(n))
	}
	return strings.Join(s, ", ") + " tables"
}

// loadRow is the summary row of the live tables: the largest number of tables that met every
// goal, and what the next size missed.
func (r *report) loadRow(p printer) {
	what := fmt.Sprintf("Live tables one node holds: `fechado serve --auth` on the embedded log, `fechado sim --live` writing each event by `POST /api/events` as an app user, one event every %s a table, %d clients reading the API, %s a size; the largest number meeting append p99 < %d ms, live-audit lag p99 < 1 s and read p99 < %d ms",
		r.cfg.loadPace, r.cfg.loadReaders, r.cfg.loadDuration, appendGoalMS, readGoalMS)
	ls := (*loadSteps)(nil)
	if r.Whole != nil {
		ls = r.Whole.loads
	}
	if ls == nil || (len(ls.Runs) == 0 && ls.Err == nil) {
		p("| %s | missing: see \"Left out\" | | |\n", what)
		return
	}
	var best, next *loadRun
	for _, l := range ls.Runs {
		if l.allMet() {
			best = l
		} else if next == nil {
			next = l
		}
	}
	figure := "none of the sizes tried"
	reached := 0
	if best != nil {
		reached = best.Tables
		figure = fmt.Sprintf("**%s tables**: append p99 %.1f ms, lag p99 %.0f ms, read p99 %.1f ms; serve %.0f MB peak, %s s of CPU per 1,000 events",
			thousands(best.Tables), best.Sim.Append.P99, best.Sim.Lag.P99, best.Sim.Read.P99, float64(best.ServeHWM)/1e6, perThousand(best.ServeCPU, best.Sim.Append.Count))
	}
	limit := ""
	switch {
	case next != nil:
		limit = fmt.Sprintf("at %s tables: %s (serve %.1f s of CPU in %.0f s, load average %s)", thousands(next.Tables), strings.Join(next.failed(), "; "),
			next.ServeCPU, next.Sim.Seconds, next.LoadAfter)
	case ls.Err != nil:
		limit = fmt.Sprintf("at %s tables the load failed: %v", thousands(ls.ErrAt), ls.Err)
	default:
		limit = "every size tried met the three goals; the next was left out (see \"Left out\")"
	}
	p("| %s | %s | %s | target %s tables on 2 cores (issue 43): %s |\n", what, figure, limit, thousands(tablesTarget), metOrNot(reached >= tablesTarget))
}

// loadTable is the report's section of the live tables: each size's three p99s, serve's CPU and
// peak memory.
func (r *report) loadTable(p printer) {
	if r.Whole == nil || r.Whole.loads == nil || (len(r.Whole.loads.Runs) == 0 && r.Whole.loads.Err == nil) {
		return
	}
	ls := r.Whole.loads
	p("## Live tables on one node\n\n")
	p("`benchreport %s` (what `make load` runs) at each number of tables of `-load-tables` (`LOAD_TABLES`) in turn, until one misses a goal: `fechado serve --auth` on the embedded log in a new folder, on a free loopback port; `fechado sim --live` plays the tables against it for %s, each event a `POST /api/events` as an `app` user (bcrypt-hashed password), one every %s a table on average, while %d clients read the API, one request every 100 ms each (lists of tables, hands and players, a hand shown ended); the live-audit lag is from a `hand.ended` appended to the read models showing that hand ended and audited. Times in milliseconds. `serve CPU` is the CPU seconds serve spent while sim ran (`/proc/PID/stat`), `serve peak MB` its `VmHWM` when sim ended. Goals (issue 43): append p99 < %d ms, lag p99 < 1 s, read p99 < %d ms.\n\n",
		loadFlag, r.cfg.loadDuration, r.cfg.loadPace, r.cfg.loadReaders, appendGoalMS, readGoalMS)
	p("| Tables | Events appended (offered/s) | append p50 | append p99 | hands ended | lag p50 | lag p99 | read p50 | read p99 | serve CPU s (a 1,000 events) | sim CPU s | serve peak MB | Load after | Goals |\n")
	p("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n")
	for _, l := range ls.Runs {
		s := &l.Sim
		verdict := "all met"
		if f := l.failed(); len(f) > 0 {
			verdict = "**not met**: " + strings.Join(f, "; ")
		}
		offered := 0.0
		if s.PaceMS > 0 {
			offered = float64(s.Tables) * 1000 / s.PaceMS
		}
		p("| %s | %s (%.0f) | %.1f | %.1f | %s | %.0f | %.0f | %.1f | %.1f | %.1f (%s) | %.1f | %.0f | %s | %s |\n",
			thousands(l.Tables), thousands(s.Append.Count), offered, s.Append.P50, s.Append.P99, thousands(s.Hands),
			s.Lag.P50, s.Lag.P99, s.Read.P50, s.Read.P99, l.ServeCPU, perThousand(l.ServeCPU, s.Append.Count), l.SimCPU,
			float64(l.ServeHWM)/1e6, l.LoadAfter, verdict)
	}
	p("\n")
	if ls.Err != nil {
		p("- %s tables: **failed**: %v\n", thousands(ls.ErrAt), ls.Err)
	}
	if ls.Stopped != "" {
		p("- %s.\n", ls.Stopped)
	}
	p("\n")
}
