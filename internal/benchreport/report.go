package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// report is everything one run measured.
type report struct {
	cfg        *config
	Start, End time.Time
	Machine    machine
	Commit     commit
	LoadEnd    string
	JQVersion  string
	RawPath    string

	Go     *benchOutput // nil when the Go benchmarks were not run
	GoRaw  []byte
	GoErr  error
	GoTime time.Duration

	Whole *wholeProcess // nil when the whole-process measurements were not run

	// Kept is the hand-written sections of the report this run replaces (keptSections), written
	// again after the Go benchmarks.
	Kept []byte
}

// cmdPkg is the package the whole-process figures are filed under in the raw output.
const cmdPkg = "github.com/fechado/fechado/cmd/fechado"

// raw returns the raw output: go test's, then the whole-process figures as benchmark lines of
// the same format, so that benchstat compares both between two commits.
func (r *report) raw() []byte {
	var b bytes.Buffer
	b.Write(r.GoRaw)
	if r.Whole == nil || (len(r.Whole.sizes) == 0 && r.Whole.spread == nil && r.Whole.loads == nil) {
		return b.Bytes()
	}
	fmt.Fprintf(&b, "pkg: %s\n", cmdPkg)
	r.Whole.spread.raw(&b)
	r.Whole.storeSpread.raw(&b)
	if ls := r.Whole.loads; ls != nil {
		for _, l := range ls.Runs {
			fmt.Fprintf(&b, "BenchmarkCmd/live/tables=%d \t%d\t%d ns/op\t%.1f append-p99-ms\t%.1f lag-p99-ms\t%.1f read-p99-ms\t%d peak-RSS-B\t%.2f CPU-s\n",
				l.Tables, l.Sim.Append.Count, l.Wall.Nanoseconds(), l.Sim.Append.P99, l.Sim.Lag.P99, l.Sim.Read.P99, l.ServeHWM, l.ServeCPU)
		}
	}
	// Named by nominal size, so that two commits' lines pair up even if the simulator's
	// tables end at other hands.
	line := func(name string, size int, run *run, unit string, n int) {
		if run == nil || run.Wall <= 0 {
			return
		}
		fmt.Fprintf(&b, "BenchmarkCmd/%s/size=%d \t1\t%d ns/op\t%.0f %s\t%d peak-RSS-B\t%.2f CPU-s\n",
			name, size, run.Wall.Nanoseconds(), perSecond(n, run.Wall), unit, run.MaxRSS, run.CPU.Seconds())
	}
	for _, s := range r.Whole.sizes {
		switch jr := s.JQRounds; {
		case jr != nil:
			// One line a round of each, as benchstat reads repeated samples.
			for i := range jr.rounds() {
				line("audit", s.Nominal, &jr.Cur[i], "hands/s", s.Hands)
				line("jq", s.Nominal, &jr.Base[i], "hands/s", s.Hands)
			}
		default:
			if s.AuditErr == nil {
				line("audit", s.Nominal, s.Audit, "hands/s", s.Hands)
			}
			if s.JQErr == nil {
				line("jq", s.Nominal, s.JQ, "hands/s", s.Hands)
			}
		}
		// One line a round of each code, the code a key of the name: benchstat -col /code sets
		// the two side by side, and a later run's lines pair with these by name.
		if pa := s.Paired; pa != nil {
			for i := range pa.rounds() {
				line("audit-alternated/code="+r.cfg.baselineName(), s.Nominal, &pa.Base[i], "hands/s", s.Hands)
				line("audit-alternated/code=current", s.Nominal, &pa.Cur[i], "hands/s", s.Hands)
			}
		}
		if s.RecordErr == nil {
			line("record", s.Nominal, s.Record, "events/s", s.RecordedEvents)
		}
		if s.ProjectErr == nil {
			// Every run under one name: benchstat reads them as samples of one benchmark.
			for _, r := range s.projectRuns() {
				line("project", s.Nominal, &r, "events/s", s.Events)
			}
		}
		if s.PlainErr == nil {
			line("publish-plain", s.Nominal, s.Plain, "events/s", s.RecordedEvents)
		}
		if s.DedupErr == nil && s.Dedup != nil {
			line("publish-plain-dedup", s.Nominal, s.Dedup, "events/s", s.RecordedEvents)
		}
		if s.ReadsErr == nil && s.Reads != nil && s.Reads.Reads > 0 {
			fmt.Fprintf(&b, "BenchmarkCmd/read-hand/size=%d \t%d\t%d ns/op\t%.3f p50-ms\t%.3f p99-ms\n",
				s.Nominal, s.Reads.Reads, s.Reads.P50, float64(s.Reads.P50)/1e6, float64(s.Reads.P99)/1e6)
		}
		if s.ModelReadsErr == nil && s.ModelReads != nil && s.ModelReads.Reads > 0 {
			fmt.Fprintf(&b, "BenchmarkCmd/read-hand-models/size=%d \t%d\t%d ns/op\t%.3f p50-ms\t%.3f p99-ms\n",
				s.Nominal, s.ModelReads.Reads, s.ModelReads.P50, float64(s.ModelReads.P50)/1e6, float64(s.ModelReads.P99)/1e6)
		}
		if s.ProjectErr == nil && s.Server != nil {
			// The server served every run of project: its CPU is theirs together.
			fmt.Fprintf(&b, "BenchmarkCmd/project-server/size=%d \t%d\t%d ns/op\t%d peak-RSS-B\t%.2f CPU-s\n", s.Nominal, max(1, len(s.ProjectRuns)), s.Project.Wall.Nanoseconds(), s.Server.MaxRSS, s.Server.CPU.Seconds())
		}
	}
	return b.Bytes()
}

// markdown returns BENCHMARKS.md.
func (r *report) markdown() []byte {
	var b bytes.Buffer
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	m := r.Machine
	p("# Benchmarks\n\n")
	p("Written by `make bench` (`internal/benchreport/bench.sh`, which runs `internal/benchreport`) on %s, in %s, at commit `%s`",
		r.Start.UTC().Format("2006-01-02 15:04 MST"), r.End.Sub(r.Start).Round(time.Second), r.Commit.Hash)
	if r.Commit.Dirty {
		p(" with uncommitted changes in the working tree")
	}
	p(".\nEvery figure below comes from this one run; the raw `go test -bench` output, with the\n")
	p("whole-process figures appended in the same format, is [`%s`](%s).\n\n", r.RawPath, r.RawPath)
	cpu := m.CPU
	if r.Go != nil && r.Go.CPU != "" {
		cpu = r.Go.CPU // go test's name for it, often more precise than /proc/cpuinfo's
	}
	p("**Machine:** %s, %d logical CPUs, %.1f GiB of memory, %s, %s.\n", orUnknown(cpu), m.Cores,
		float64(m.MemTotal)/(1<<30), m.Go, m.OS)
	p("Load average (1, 5, 15 min): %s at the start, %s at the end; a load above %d means other work\n",
		orUnknown(m.LoadStart), orUnknown(r.LoadEnd), m.Cores)
	p("shared the CPUs, and the figures then run lower than on an idle machine.\n\n")

	r.summary(p)
	r.presets(p)
	r.growth(p)
	r.apiReads(p)
	r.loadTable(p)
	r.allGo(p)
	b.Write(r.Kept)
	r.how(p)
	r.compare(p)
	r.leftOut(p)
	return b.Bytes()
}

type printer func(format string, a ...any)

// summary is the table of the headline figures, each next to its baseline.
func (r *report) summary(p printer) {
	p("## Summary\n\n")
	p("| Measured | Figure | Baseline (same run) | Ratio |\n|---|---|---|---|\n")
	g := r.Go
	if g == nil {
		g = &benchOutput{byName: map[string]*benchResult{}}
	}
	ratioRow := func(what, name, unit, baseWhat, baseUnit, ratioUnit, ratioNote string) {
		res := g.get(name)
		v, ok := res.median(unit)
		if !ok {
			p("| %s | missing: `%s` did not run (see below) | | |\n", what, name)
			return
		}
		bv, _ := res.median(baseUnit)
		rv, _ := res.median(ratioUnit)
		p("| %s | %s %s | %s: %s %s | %.2f %s |\n", what, thousandsF(v), unit, baseWhat, thousandsF(bv), unit, rv, ratioNote)
	}
	ratioRow("Events appended to the embedded JetStream, every guarantee (`BenchmarkAppend`)", "BenchmarkAppend",
		"events/s", "plain `PublishAsync` of the same payloads", "plain-events/s", "ratio", "of plain")
	ratioRow("A file of simulated hands of a realistic size recorded the way `fechado record` does, every guarantee (`BenchmarkRecordFile`)", "BenchmarkRecordFile",
		"events/s", "plain `PublishAsync` of the same lines to the same server", "plain-events/s", "ratio", "of plain")
	ratioRow("Events projected into SQLite (`BenchmarkProject`)", "BenchmarkProject",
		"events/s", "plain batched inserts of the same rows", "plain-events/s", "ratio", "of plain")

	if s := r.auditSize(); s != nil {
		ratio, rounds := s.Audit.Wall.Seconds()/s.JQ.Wall.Seconds(), "1 round"
		if jr := s.JQRounds; jr != nil && jr.rounds() > 1 {
			rs := pairedRatios(jr.Cur, jr.Base) // audit over jq, round by round
			ratio = quantile(rs, 0.5)
			rounds = fmt.Sprintf("median of %d rounds in turn; the rounds' ratios from %.3f to %.3f", jr.rounds(), quantile(rs, 0), quantile(rs, 1))
		}
		p("| Hands audited from a file on one core, whole process: `fechado audit --json` on %s hands (%s events, %.0f MB), `taskset -c N`, `GOMAXPROCS=1` | %s hands/s (%s), peak memory %.0f MB | `jq -c .` of the same files, one core: %s | %.3f of jq's time (%s); target at most %.2f (issue 43): %s |\n",
			thousands(s.Hands), thousands(s.Events), float64(s.Bytes)/1e6, thousandsF(perSecond(s.Hands, s.Audit.Wall)),
			secs(s.Audit.Wall), float64(s.Audit.MaxRSS)/1e6, secs(s.JQ.Wall), ratio, rounds, jqTarget, metOrNot(ratio <= jqTarget))
	} else {
		p("| Hands audited from a file, whole process, against `jq -c .` | missing: see \"Left out\" | | |\n")
	}
	r.spreadRow(p)
	r.baselineRow(p)
	r.wholeSummary(p)
	r.apiRow(p)
	r.memoryRow(p)
	r.loadRow(p)
	if res := g.get("BenchmarkAuditOneCore"); res != nil {
		v, _ := res.median("hands/s")
		m, _ := res.median("peak-RSS-MB")
		p("| Hands audited in-process on one core (`GOMAXPROCS=1`), file of 100,000 simulated std-draw hands (`BenchmarkAuditOneCore`) | %s hands/s, peak memory %.0f MB | | |\n", thousandsF(v), m)
	}
	if res := g.get("BenchmarkAuditFile"); res != nil {
		v, _ := res.median("hands/s")
		p("| Hands audited in-process, file of 2,400 vector hands (`BenchmarkAuditFile`) | %s hands/s | | |\n", thousandsF(v))
	}
	p("\nEvaluations and simulated hands per preset, and the time and peak memory of `audit` and\n`project` as the log grows, follow.\n\n")
}

// readTarget, projectPeakTarget, projectGrowthTarget and recordTarget are the figures issue 21
// asks for at a million hands: the p99 of a hand read by id, the projector's peak memory, its
// time a hand against the smallest log's (judged for hands of the same size: a time an event),
// and record's rate as a share of plain publishes.
const (
	readTarget          = 5 * time.Millisecond
	projectPeakTarget   = 200e6
	projectGrowthTarget = 1.2
	recordTarget        = 0.5
)

// wholeSummary gives the summary rows of the whole-process measurements at the largest size
// that has them, each against the smallest size's: reads by hand id, project, record.
func (r *report) wholeSummary(p printer) {
	var sizes []*size
	if r.Whole != nil {
		sizes = r.Whole.sizes
	}
	pick := func(ok func(*size) bool) (small, big *size) {
		for _, s := range sizes {
			if ok(s) {
				if small == nil {
					small = s
				}
				big = s
			}
		}
		return small, big
	}
	small, big := pick(func(s *size) bool { return s.Reads != nil && s.ReadsErr == nil })
	if big == nil {
		p("| Read one hand back by its id from the log alone (the table from the log's subjects, as `fechado export --hand` without read models), p99 over %s random hands | missing: see \"Left out\" | | |\n", thousands(readSample))
	} else {
		p("| Read one hand back by its id from the log alone (the table from the log's subjects, as `fechado export --hand` without read models), p99 over %s random simulated hands of the log of %s hands | %s (median %s); target under %s: %s | the same at %s hands: %s | %.2f× the time |\n",
			thousands(big.Reads.Reads), thousands(big.Hands), ms(big.Reads.P99), ms(big.Reads.P50), ms(int64(readTarget)),
			metOrNot(big.Reads.P99 < int64(readTarget)), thousands(small.Hands), ms(small.Reads.P99), float64(big.Reads.P99)/float64(small.Reads.P99))
	}
	small, big = pick(func(s *size) bool { return s.ModelReads != nil && s.ModelReadsErr == nil })
	if big == nil {
		p("| Read one hand back by its id from the read models (its copy, as `fechado export --hand` beside them, after `project`), p99 over %s random hands | missing: see \"Left out\" | | |\n", thousands(readSample))
	} else {
		p("| Read one hand back by its id from the read models (its copy, as `fechado export --hand` beside them, after `project`), p99 over the same %s hands of the log of %s hands (%s of them from their copy) | %s (median %s); target under %s: %s | the same at %s hands: %s | %.2f× the time |\n",
			thousands(big.ModelReads.Reads), thousands(big.Hands), thousands(big.ModelReads.Copies), ms(big.ModelReads.P99), ms(big.ModelReads.P50), ms(int64(readTarget)),
			metOrNot(big.ModelReads.P99 < int64(readTarget)), thousands(small.Hands), ms(small.ModelReads.P99), float64(big.ModelReads.P99)/float64(small.ModelReads.P99))
	}
	small, big = pick(func(s *size) bool { return s.Project != nil && s.ProjectErr == nil })
	switch {
	case big == nil:
		p("| `fechado project --rebuild`, the projector alone | missing: see \"Left out\" | | |\n")
	case big != sizes[len(sizes)-1]:
		// The largest size did not project (the budget ran out, or the run failed): judging the
		// targets at a smaller size would compare that size with itself.
		last := sizes[len(sizes)-1]
		p("| `fechado project --rebuild` of the log of %s hands, the projector alone | not measured: see \"Left out\" | at %s hands: %.0f µs a hand, peak memory %s MB | — |\n",
			thousands(last.Hands), thousands(big.Hands), microsEach(big.Project.Wall, big.Hands), peakMB(big.Project, nil))
	default:
		// The growth is judged by the time of an event: simulated tables differ in the size of
		// their hands (players knocked out play shorter ones), so the time of a hand of the
		// largest log against the first table's also measures how big its hands are.
		bp, sp := microsEach(big.Project.Wall, big.Hands), microsEach(small.Project.Wall, small.Hands)
		be, se := microsEach(big.Project.Wall, big.Events), microsEach(small.Project.Wall, small.Events)
		p("| `fechado project --rebuild` of the log of %s hands, the projector alone (the log's server in a process of its own, peak memory %s MB) | %.0f µs a hand (%.2f µs an event), peak memory %s MB; target under %.0f MB: %s | the same at %s hands: %.0f µs a hand (%.2f µs an event), %s MB | %.2f× the time an event; target at most %.1f×: %s; %.2f× the time a hand, whose hands average %.1f events against %.1f |\n",
			thousands(big.Hands), peakMB(big.Server, nil), bp, be, peakMB(big.Project, nil), projectPeakTarget/1e6, metOrNot(float64(big.Project.MaxRSS) < projectPeakTarget),
			thousands(small.Hands), sp, se, peakMB(small.Project, nil), be/se, projectGrowthTarget, metOrNot(be/se <= projectGrowthTarget),
			bp/sp, float64(big.Events)/float64(big.Hands), float64(small.Events)/float64(small.Hands))
	}
	_, big = pick(func(s *size) bool {
		return s.Record != nil && s.Plain != nil && s.RecordErr == nil && s.PlainErr == nil && s.Record.Wall > 0
	})
	if big == nil {
		p("| `fechado record`, whole process, against plain publishes | missing: see \"Left out\" | | |\n")
	} else {
		dedup, dedupRatio := "", ""
		if big.Dedup != nil && big.DedupErr == nil {
			dedup = fmt.Sprintf("; the same with only each event id as `Nats-Msg-Id`, the de-duplication every append carries: %s events/s", thousandsF(perSecond(big.RecordedEvents, big.Dedup.Wall)))
			dedupRatio = fmt.Sprintf("; %.3f of the de-duplicated ones", big.Dedup.Wall.Seconds()/big.Record.Wall.Seconds())
		}
		// Three places: the target is met or missed by less than the second one.
		ratio := big.Plain.Wall.Seconds() / big.Record.Wall.Seconds()
		p("| `fechado record` of %s new simulated hands (%s events), whole process, every guarantee | %s events/s (%s) | plain asynchronous publishes of the same lines to a new log on the same embedded server: %s events/s%s | %.3f of plain; target at least %.1f: %s%s |\n",
			thousands(big.RecordedHands), thousands(big.RecordedEvents), thousandsF(perSecond(big.RecordedEvents, big.Record.Wall)), secs(big.Record.Wall),
			thousandsF(perSecond(big.RecordedEvents, big.Plain.Wall)), dedup, ratio, recordTarget, metOrNot(ratio >= recordTarget), dedupRatio)
	}
}

func metOrNot(ok bool) string {
	if ok {
		return "met"
	}
	return "**not met**"
}

// ms formats nanoseconds as milliseconds.
func ms(ns int64) string { return fmt.Sprintf("%.2f ms", float64(ns)/1e6) }

// jqTarget is the largest share of `jq -c .`'s time that issue 43 asks the audit of a file to take
// on one core; spreadTarget the least speed-up it asks of the audit on 2 cores.
const (
	jqTarget     = 0.05
	spreadTarget = 1.8
)

// auditSize returns the size whose audit is the summary's figure: the smallest with both
// audit and jq measured that holds at least 100,000 hands, else the largest measured.
func (r *report) auditSize() *size {
	if r.Whole == nil {
		return nil
	}
	var best *size
	for _, s := range r.Whole.sizes {
		if s.AuditErr != nil || s.JQErr != nil || s.Audit == nil || s.JQ == nil {
			continue
		}
		if best == nil || best.Hands < 100000 { // sizes ascend
			best = s
		}
	}
	return best
}

// presets lists the per-preset figures against std-draw, the standard ranking and game.
func (r *report) presets(p printer) {
	if r.Go == nil {
		return
	}
	table := func(title, bench, unit, note string) {
		var rows []*benchResult
		for _, res := range r.Go.Results {
			if strings.HasPrefix(res.Name, bench+"/") {
				rows = append(rows, res)
			}
		}
		p("## %s (`%s`)\n\n", title, bench)
		if len(rows) == 0 {
			p("Missing: `%s` did not run (see below).\n\n", bench)
			return
		}
		base, _ := r.Go.get(bench + "/std-draw").median(unit)
		p("%s\n\n| Preset | %s | vs std-draw |\n|---|---|---|\n", note, unit)
		for _, res := range rows {
			v, _ := res.median(unit)
			p("| %s | %s | %.2f |\n", strings.TrimPrefix(res.Name, bench+"/"), thousandsF(v), v/base)
		}
		p("\n")
	}
	table("Five-card evaluations per second", "BenchmarkEvalPreset", "evals/s",
		"Random hands of each preset's deck for four players; the baseline is std-draw, the standard ranking on 52 cards.")
	table("Simulated hands per second", "BenchmarkSimulate", "hands/s",
		"Four computer players, events encoded and sealed, no audit; a table that ends (one player holds every chip) starts again. The baseline is std-draw.")
}

// growth is the whole-process table: time and peak memory of audit and project by log size.
func (r *report) growth(p printer) {
	w := r.Whole
	p("## Growth with the log: `audit` and `project` as whole processes\n\n")
	if w == nil || len(w.sizes) == 0 {
		p("Not measured in this run (see \"Left out\").\n\n")
		return
	}
	p("Simulated %s tables of up to %s hands each (`fechado sim --rules %s --players %d --hands %d --seed K --table bench-K`; a table ends sooner when one player wins every chip), size N being the first tables that hold at least N hands together, given to each command as separate files in one call.\n",
		w.cfg.rules, thousands(w.cfg.tableHands), w.cfg.rules, w.cfg.players, w.cfg.tableHands)
	p("`audit` and `jq` run on one core: pinned to the last CPU with `taskset -c N` and, for the Go runtime, `GOMAXPROCS=1` (its garbage collector shares the core), after a `sync` that writes the new tables back to the disk. Where a round of the two takes under %s, they run in turn, %d rounds, the order swapped every round; their columns are then the run of median time, and the summary's ratio the median of the rounds' ratios.\n", jqRoundsMax, r.cfg.jqRounds)
	p("Elapsed time and peak resident memory (ru_maxrss, what `/usr/bin/time -v` prints as \"Maximum resident set size\") of each process.\n")
	p("`record` appends only the tables new at that size to one growing log; `project --rebuild` then projects the whole log into a new database.\n\n")
	p("Load is the 1-minute load average just before the size's first command.\n\n")
	p("`log read p50/p99` are the times of reading %s random hands of the log back by id alone, from the log (no read models yet), after `record`, in one process that opened the log first (`benchreport %s DIR HANDFILE`); `models read p50/p99` the times of reading the same hands after `project`, with the read models it left beside the log, as `fechado export --hand` reads them (the hand's copy in the read models), in one process that opened the log and the read models first (`benchreport %s DIR HANDFILE DB`). `project` runs with the log's server in a process of its own (`benchreport %s`, `project --nats URL`): `project peak MB` is the projector's, `server peak MB` the server's. Below %s hands `project` runs %d times against the same server, each into a new database, and its figures are those of the run of median time: a run of a few seconds is swayed by what the machine does at that moment, and the growth to the largest size is judged against it.\n\n", thousands(readSample), readsFlag, readsFlag, serveFlag, thousands(projectOnceFrom), projectRounds)
	p("| Size | Hands | Events | File MB | Load | audit | audit µs/hand | audit peak MB | jq -c . | audit/jq | record (new hands) | log read p50 ms | log read p99 ms | project | project µs/hand | project events/s | project peak MB | server peak MB | models read p50 ms | models read p99 ms |\n")
	p("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range w.sizes {
		load, _, _ := strings.Cut(s.Load, " ")
		p("| %s | %s | %s | %.0f | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			thousands(s.Nominal), thousands(s.Hands), thousands(s.Events), float64(s.Bytes)/1e6, orUnknown(load),
			runSecs(s.Audit, s.AuditErr), perHand(s.Audit, s.AuditErr, s.Hands), peakMB(s.Audit, s.AuditErr),
			runSecs(s.JQ, s.JQErr), ratio(s.Audit, s.AuditErr, s.JQ, s.JQErr),
			recordCell(s), readCell(s, 50), readCell(s, 99), runSecs(s.Project, s.ProjectErr), perHand(s.Project, s.ProjectErr, s.Hands),
			rateCell(s.Project, s.ProjectErr, s.Events), peakMB(s.Project, s.ProjectErr), peakMB(s.Server, s.ProjectErr),
			timesCell(s.ModelReads, s.ModelReadsErr, 50), timesCell(s.ModelReads, s.ModelReadsErr, 99))
	}
	p("\n")
	first := w.sizes[0]
	for _, s := range w.sizes[1:] {
		x, xe := float64(s.Hands)/float64(first.Hands), float64(s.Events)/float64(max(1, first.Events))
		p("- %s → %s hands (×%.1f), %s → %s events (×%.1f):", thousands(first.Hands), thousands(s.Hands), x,
			thousands(first.Events), thousands(s.Events), xe)
		growthOf := func(name string, a, b *run, errA, errB error) {
			if a == nil || b == nil || errA != nil || errB != nil || a.Wall <= 0 {
				return
			}
			p(" %s time ×%.1f (per hand ×%.2f, per event ×%.2f), peak memory ×%.2f;", name, b.Wall.Seconds()/a.Wall.Seconds(),
				b.Wall.Seconds()/a.Wall.Seconds()/x, b.Wall.Seconds()/a.Wall.Seconds()/xe, float64(b.MaxRSS)/float64(a.MaxRSS))
		}
		growthOf("audit", first.Audit, s.Audit, first.AuditErr, s.AuditErr)
		growthOf("jq", first.JQ, s.JQ, first.JQErr, s.JQErr)
		growthOf("project", first.Project, s.Project, first.ProjectErr, s.ProjectErr)
		p("\n")
	}
	p("\nPer event ×1.00 is linear growth of time; peak memory ×1.00 is memory that does not grow with the log. Per hand differs from it when the hands of the larger log are larger on average: tables where players are knocked out play shorter hands.\n\n")
	r.baselineBullets(p)
	for _, s := range w.sizes {
		if s.Record == nil || s.Plain == nil || s.RecordErr != nil || s.PlainErr != nil || s.Record.Wall <= 0 {
			continue
		}
		p("- %s hands, `record` of the %s new hands (%s events) against plain asynchronous publishes of the same lines to a log of their own on the same embedded server, whole processes: %s and %s events/s, %.2f of plain",
			thousands(s.Nominal), thousands(s.RecordedHands), thousands(s.RecordedEvents),
			thousandsF(perSecond(s.RecordedEvents, s.Record.Wall)), thousandsF(perSecond(s.RecordedEvents, s.Plain.Wall)),
			s.Plain.Wall.Seconds()/s.Record.Wall.Seconds())
		if s.Dedup != nil && s.DedupErr == nil {
			p("; the plain publishes with only each event id as `Nats-Msg-Id`: %s events/s (%.2f of plain), of which `record` is %.2f",
				thousandsF(perSecond(s.RecordedEvents, s.Dedup.Wall)), s.Plain.Wall.Seconds()/s.Dedup.Wall.Seconds(), s.Dedup.Wall.Seconds()/s.Record.Wall.Seconds())
		}
		p(".\n")
	}
	// Where project's time a hand goes: CPU that grows is work, wall time that grows without it
	// is waiting (for the disk, or for the other process).
	for _, s := range w.sizes {
		if s.Project == nil || s.ProjectErr != nil || s.Hands == 0 || s.Project.Wall <= 0 {
			continue
		}
		p("- %s hands, `project --rebuild`: %s µs a hand of wall time; of CPU, %s µs a hand in the projector",
			thousands(s.Hands), thousandsF(microsEach(s.Project.Wall, s.Hands)), thousandsF(microsEach(s.Project.CPU, s.Hands)))
		if s.Server != nil {
			// One server served every run: its CPU a run.
			p(" and %s in the log's server", thousandsF(microsEach(s.Server.CPU/time.Duration(max(1, len(s.ProjectRuns))), s.Hands)))
		}
		if len(s.ProjectRuns) > 1 {
			secs := make([]string, len(s.ProjectRuns))
			for i, r := range s.ProjectRuns {
				secs[i] = fmt.Sprintf("%.2f", r.Wall.Seconds())
			}
			p("; the median of %d runs, %s s", len(s.ProjectRuns), strings.Join(secs, ", "))
		}
		p(".\n")
	}
	p("\n")
	for _, s := range w.sizes {
		for _, e := range []error{s.AuditErr, s.JQErr, s.RecordErr, s.ReadsErr, s.PlainErr, s.DedupErr, s.ProjectErr, s.ModelReadsErr, s.APIErr} {
			if e != nil {
				p("- %s hands: **failed**: %v\n", thousands(s.Hands), e)
			}
		}
	}
	p("\n")
}

// allGo lists every Go benchmark with the median of each metric.
func (r *report) allGo(p printer) {
	p("## Every Go benchmark\n\n")
	if r.Go == nil {
		p("Not run (`-bench \"\"`).\n\n")
		return
	}
	if r.cfg.count == 1 {
		p("One run each (`-count 1`, `-benchtime %s`)", r.cfg.benchtime)
	} else {
		p("Medians of %d runs each (`-count %d`, `-benchtime %s`)", r.cfg.count, r.cfg.count, r.cfg.benchtime)
	}
	p("; GOMAXPROCS=%d. `go test` took %s.\n\n", r.Machine.Cores, r.GoTime.Round(time.Second))
	p("| Package | Benchmark | Time per op | Other metrics |\n|---|---|---:|---|\n")
	for _, res := range r.Go.Results {
		ns, _ := res.median("ns/op")
		var other []string
		for _, unit := range res.order {
			if unit == "ns/op" {
				continue
			}
			v, _ := res.median(unit)
			other = append(other, thousandsF(v)+" "+unit)
		}
		p("| %s | %s | %s | %s |\n", strings.TrimPrefix(res.Pkg, "github.com/fechado/fechado/"),
			strings.TrimPrefix(res.Name, "Benchmark"), nanos(ns), strings.Join(other, ", "))
	}
	p("\n")
	if r.GoErr != nil || len(r.Go.Failures) > 0 {
		p("**Not every package's benchmarks ran:** `go test` ended with %v.\n\n", r.GoErr)
		for _, f := range r.Go.Failures {
			p("    %s\n", f)
		}
		p("\n")
	}
}

// how says how each figure was measured.
func (r *report) how(p printer) {
	p("## How\n\n")
	p("- Go benchmarks (`testing.B`, `for b.Loop()`, custom rates with `b.ReportMetric`): `%s %s`, with `FECHADO_BENCH_CACHE=%s`.\n",
		r.cfg.goCmd, strings.Join(goBenchArgs(r.cfg), " "), relPath(r.cfg.cache))
	p("- `BenchmarkAppend` (recorder): batches of 2,000 six-event hands at 50 tables through a `Recorder` (decoding and envelope checks, prev chain, `Nats-Msg-Id`, expected last subject sequence, one event in flight per hand, 256 hands at once) into an embedded server with file storage; the baseline publishes the same payloads to the same subjects of a second embedded log with plain `PublishAsync`, no headers, no checks.\n")
	p("- `BenchmarkProject` (projector): an interleaved file of 200 tables (about 58,500 events) projected into a fresh SQLite database; the baseline decodes the same file and inserts the same rows into the same schema in transactions of the same size, without checkpoint, hand state, checks or quarantine.\n")
	p("- `BenchmarkRecordFile` (recorder): a file of 4 simulated std-draw tables of 1,000 hands (about 29 events a hand) recorded by a `Recorder` from its bytes, as `fechado record` does, into a new embedded log each iteration; the baseline publishes the same lines to the same subjects of a second new embedded log with plain `PublishAsync`, in the same run.\n")
	p("- `BenchmarkReadHandLogSize` (recorder, `FECHADO_READ_HANDS=%s`): `Log.ReadHand` of hands (hand.started, hand.ended) chosen at random over logs of those sizes at 1,000 tables, interleaved in the stream, 1,000 reads an iteration; p50 and p99 are over every read. A read is one batched direct get on the hand's subject; the first read of a message block not read for a while loads and indexes the whole block (8 MB), which is what the p99 shows. The logs are filled with plain asynchronous publishes of the sealed events, outside the timing, and logs over 100,000 hands are cached in the cache folder across runs (filled again when the stream configuration changes). The two-event hands keep the big log within the budget: 2 million events rather than the 29 million of a million played hands; a read touches only its hand's subject and block.\n", r.cfg.readHands)
	p("- Reads by hand id (whole process, after `record` at each size): `benchreport %s DIR HANDFILE` opens the log on DIR as fechado's commands do (the same embedded server and options), outside the timing, then reads %s hands by their id alone with `Log.ReadHand` (table \"\"), as `fechado export --hand ID` does without read models: the table from the log's per-subject index (`HandSubject`), then the hand's own subject. The hands are chosen at random over every table of the log, each table in proportion to its hands, out of a uniform sample of each table's hands taken while counting its file; p50 and p99 are over the %s reads, nearest rank.\n", readsFlag, thousands(readSample), thousands(readSample))
	p("- Reads by hand id from the read models (whole process, after `project` at each size): `benchreport %s DIR HANDFILE DB` opens the log on DIR and the read models DB that `project --rebuild` just wrote (read-only, as `fechado export --hand` opens `DIR/fechado.db`), outside the timing, then reads the same %s hands by their id alone with `projector.ReadHand`, as `fechado export --hand ID` does beside read models: the hand's copy of its stored lines (`hand_events`, one lookup, then the lines decoded), or the log when the read models hold no copy the log may trust. The log's server is its own again (the projection's has stopped), so the log's blocks it read for `project` are no longer in its memory; the read models' file may still be in the page cache, as it is on a node that serves them.\n", readsFlag, thousands(readSample))
	p("- `project` (whole process): `benchreport %s DIR` serves the log on DIR as fechado's commands do, with the embedded server also listening on a loopback port, in a process of its own; `fechado project --nats URL --db FILE --rebuild` then projects the whole log into a new database, so that its time and peak memory are the projector's alone. The server's peak memory is its process's (the server's index of the log's subjects, one a hand, grows with the hands). The database is deleted afterwards.\n", serveFlag)
	p("- Whole-process baseline of `record`: `benchreport %s DIR FILE…` opens a log of its own on DIR as fechado does (the same embedded server and stream) and publishes the same new tables' lines to their hands' subjects with plain `PublishAsync` (no headers, no checks), waiting for every ack. `benchreport %s DIR FILE…` does the same with one header, each line's event id as `Nats-Msg-Id`: the de-duplication alone, which the server checks and keeps for every append of `record`, so that the share of `record`'s time that this one guarantee costs the server shows beside the rest.\n", plainFlag, dedupFlag)
	p("- Whole processes: `%s`, run by `internal/benchreport` one at a time, nothing else of the harness running; elapsed wall time from start to exit, peak memory from `wait4`'s rusage. jq is %s. The standard output of `audit --json` and of `jq -c .` goes to `/dev/null`.\n",
		r.cfg.fechado, orUnknown(r.JQVersion))
	if r.cfg.baseline != "" {
		name := r.cfg.baselineName()
		p("- `audit` against the code of %s: `internal/benchreport/bench.sh` builds that commit's `fechado` from a temporary git worktree into `%s` (later runs reuse it). At the first size, %d rounds (at the largest, up to %d, when the budget leaves the time beyond record and project): in each, its `audit --json` and this commit's on the same files, one after the other, on one core (`taskset -c N`, `GOMAXPROCS=1`) as `audit` above; the one that runs first changes each round. Each round gives the time of %s over this commit's, which is this commit's rate as a share of the other's; the summary gives the median of these ratios, which leaves out what slowed a whole round (the machine busy for a moment) better than the ratio of two medians would. The first round's two outputs go to files and are compared byte for byte (their SHA-256), with the exit statuses; the other rounds' go to `/dev/null`.\n",
			name, r.cfg.baseline, r.cfg.baselineRounds, bigBaselineRounds, name)
	}
	p("- The audit on every core against one worker: a room's file, `fechado sim %s` (many cash tables whose hands interleave, as a room's export does), simulated once into the cache folder and reused; `fechado audit --json --workers N` (N = %d, the CPUs) and `--workers 1` on it, whole processes, not pinned, one after the other in each of %d rounds, the one that runs first changing each round; each round gives one worker's time over N workers', and the summary the median of these ratios. The first round's two outputs go to files and are compared byte for byte (their SHA-256), with the exit statuses. Then the same file is recorded into a log of its own (`fechado record --data DIR`, the embedded server), and the same rounds run `fechado audit --all --json --workers N --data DIR` and `--workers 1`: the audit of the stored log, read through the embedded server in the audit's process; the first round's one-worker output is also compared with the file's.\n",
		strings.Join(roomArgs, " "), r.Machine.Cores, r.cfg.spreadRounds)
	p("- Live tables: see \"Live tables on one node\"; `make load` runs the same code (`benchreport %s`) for one number of tables.\n", loadFlag)
	p("- Alternated pairs, in the sections measured outside `make bench`: `bin/benchreport %s [-n RUNS] [-warmup W] 'COMMAND A' 'COMMAND B'` runs the two commands in turn (each through `sh -c`, its output thrown away), A B A B …, after the warm-up pairs, and prints each one's median CPU (user + system, from `wait4`, its children included), wall and peak memory, and the ratio A/B pair by pair: its median, lowest and highest. Pairing keeps a ratio meaningful on a machine whose speed drifts while it runs; `taskset -c 0` in both commands pins them to one core.\n", pairsFlag)
	p("- Budget: the run aims to end within %s; the Go benchmarks may take %.0f%% of it. The audit on every core runs first, each round only when the one before says it fits; before each log size the harness extrapolates its time from the previous size, per hand, and leaves out what would not fit, keeping the first number of live tables' time; the live tables run last, each number only when the last one's time says it fits.\n\n",
		r.cfg.budget, 100*r.cfg.goShare)
}

// compare explains benchstat.
func (r *report) compare(p printer) {
	p("## Comparing two commits\n\n")
	p("Each run keeps its raw output as `%s/raw-<commit>.txt` (`-dirty` when the tree had uncommitted changes): `go test -bench` output, then the whole-process figures as `BenchmarkCmd/...` lines of the same format. To compare two commits, run `make bench` at each (or `git worktree add ../old OLD && make -C ../old bench`), then:\n\n", r.cfg.rawDir)
	p("    go run golang.org/x/perf/cmd/benchstat@latest internal/benchreport/testdata/raw/raw-OLD.txt internal/benchreport/testdata/raw/raw-NEW.txt\n\n")
	p("benchstat needs several samples of a benchmark to say whether a change is significant: for that, run the Go benchmarks alone with more samples, e.g. `go test -run '^$' -bench . -count 6 ./recorder > new.txt`, at each commit. The whole-process lines are one sample each.\n\n")
	if r.cfg.baseline != "" {
		p("Within one run, the rounds against %s are the lines `BenchmarkCmd/audit-alternated/code=…`, one a round of each code: `benchstat -filter '.fullname:/audit-alternated/' -col /code %s` sets the two codes side by side (as two sets of samples; the summary's ratio takes them round by round).\n\n",
			r.cfg.baselineName(), r.RawPath)
	}
}

// leftOut lists what this run did not measure, and why.
func (r *report) leftOut(p printer) {
	var notes []string
	if r.Whole != nil {
		notes = append(notes, r.Whole.notes...)
		if ls := r.Whole.loads; ls != nil && ls.Stopped != "" {
			notes = append(notes, "live tables: "+ls.Stopped)
		}
		if len(r.cfg.sizes) == 0 {
			notes = append(notes, "whole-process measurements of the log's sizes: not run (`-sizes \"\"`)")
		}
		for _, s := range r.Whole.sizes {
			if s.NoJQ {
				notes = append(notes, fmt.Sprintf("%s hands: `jq -c .` left out (sizes over %s hands, `-jq-max`): it is only the baseline of audit, measured at the smaller sizes, and would take several minutes of the budget", thousands(s.Nominal), thousands(r.cfg.jqMax)))
			}
		}
		if n := len(r.Whole.sizes); n > 0 && len(r.cfg.sizes) > n {
			var skipped []string
			for _, s := range r.cfg.sizes[n:] {
				skipped = append(skipped, thousands(s))
			}
			notes = append(notes, fmt.Sprintf("sizes not measured in this run: %s hands", strings.Join(skipped, ", ")))
		}
	} else {
		notes = append(notes, "whole-process measurements: not run (`-sizes \"\"`)")
	}
	if r.GoErr != nil {
		notes = append(notes, fmt.Sprintf("Go benchmarks: `go test` ended with %v: a benchmark failed or a package did not build (see \"Every Go benchmark\")", r.GoErr))
	}
	p("## Left out\n\n")
	if len(notes) == 0 {
		p("Nothing: every size was measured.\n")
		return
	}
	for _, n := range slices.Compact(notes) {
		p("- %s.\n", strings.TrimSuffix(n, "."))
	}
}

func recordCell(s *size) string {
	if s.AuditOnly {
		return "left out"
	}
	if s.Record == nil {
		return "—"
	}
	if s.RecordErr != nil {
		return "failed"
	}
	return fmt.Sprintf("%s (%s)", secs(s.Record.Wall), thousands(s.RecordedHands))
}

// readCell is the p50 or p99 of the reads by hand id from the log of a size.
func readCell(s *size, pct int) string { return timesCell(s.Reads, s.ReadsErr, pct) }

// timesCell is the p50 or p99 of reads by hand id, in milliseconds.
func timesCell(rt *readTimes, err error, pct int) string {
	switch {
	case err != nil:
		return "failed"
	case rt == nil:
		return "—"
	case pct == 50:
		return fmt.Sprintf("%.2f", float64(rt.P50)/1e6)
	}
	return fmt.Sprintf("%.2f", float64(rt.P99)/1e6)
}

func runSecs(r *run, err error) string {
	switch {
	case r == nil:
		return "—"
	case err != nil:
		return "failed"
	}
	return secs(r.Wall)
}

func perHand(r *run, err error, hands int) string {
	if r == nil || err != nil || hands == 0 {
		return "—"
	}
	return fmt.Sprintf("%.0f", microsEach(r.Wall, hands))
}

func peakMB(r *run, err error) string {
	if r == nil || err != nil || r.MaxRSS == 0 {
		return "—"
	}
	return fmt.Sprintf("%.0f", float64(r.MaxRSS)/1e6)
}

func rateCell(r *run, err error, n int) string {
	if r == nil || err != nil {
		return "—"
	}
	return thousandsF(perSecond(n, r.Wall))
}

func ratio(a *run, errA error, b *run, errB error) string {
	if a == nil || b == nil || errA != nil || errB != nil || b.Wall <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f", a.Wall.Seconds()/b.Wall.Seconds())
}

func secs(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }

// nanos formats a ns/op figure in a readable unit.
func nanos(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.2f s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.1f µs", ns/1e3)
	}
	return fmt.Sprintf("%.1f ns", ns)
}

// thousands formats n with thousands separators.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// thousandsF formats a metric: whole numbers with separators from 100 up, else three
// significant digits.
func thousandsF(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "—"
	case math.Abs(v) >= 100:
		return thousands(int(math.Round(v)))
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// relPath returns path relative to the working directory (the repository's, under make bench)
// when it lies within it: the report names the repository's folders, not where this machine keeps
// the repository.
func relPath(path string) string {
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	rel, err := filepath.Rel(wd, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return path
	}
	return rel
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// microsEach is d spread over n (hands or events), in microseconds.
func microsEach(d time.Duration, n int) float64 {
	return float64(d.Microseconds()) / float64(n)
}

// keptSections returns the sections of an earlier report that a person wrote, to be written again
// by the run that replaces it: every "## " section whose heading says it was measured outside
// `make bench` (figures of other runs, with how they were taken), in their order, each to the
// next "## " heading. The sections the harness writes are made anew.
func keptSections(old []byte) []byte {
	var out bytes.Buffer
	keep := false
	inCode := false
	for _, line := range bytes.SplitAfter(old, []byte("\n")) {
		// A fenced block may hold a line starting with "## " that is no heading.
		if bytes.HasPrefix(line, []byte("```")) {
			inCode = !inCode
		}
		if !inCode && bytes.HasPrefix(line, []byte("## ")) {
			keep = bytes.Contains(bytes.ToLower(line), []byte("outside `make bench`"))
		}
		if keep {
			out.Write(line)
		}
	}
	if out.Len() > 0 && !bytes.HasSuffix(out.Bytes(), []byte("\n\n")) {
		out.WriteString("\n")
	}
	return out.Bytes()
}
