package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const goOutput = `goos: linux
goarch: amd64
pkg: github.com/fechado/fechado/recorder
cpu: Some CPU @ 2.0GHz
BenchmarkAppend-2   	       3	 512345678 ns/op	     23000 events/s	    160000 plain-events/s	         0.1437 ratio	 1234 B/op	 56 allocs/op
BenchmarkAppend-2   	       3	 500000000 ns/op	     25000 events/s	    150000 plain-events/s	         0.1667 ratio	 1234 B/op	 56 allocs/op
BenchmarkAppend-2   	       3	 520000000 ns/op	     24000 events/s	    170000 plain-events/s	         0.1412 ratio	 1234 B/op	 56 allocs/op
BenchmarkReadHand/table-2	  100	  120000 ns/op
    bench_test.go:10: BenchmarkReadHand/table is a log line, not a result
--- FAIL: BenchmarkRead/all
    bench_test.go:99: boom
PASS
ok  	github.com/fechado/fechado/recorder	12.3s
pkg: github.com/fechado/fechado/rules
BenchmarkEvalPreset/std-draw-2 	100000000	  10.5 ns/op	 95238095 evals/s
BenchmarkReadHandLogSize/hands=10000/table-2 	1	  200000000 ns/op	0.2 ms/read	0.15 p50-ms	2.00 p99-ms
BenchmarkReadHandLogSize/hands=1000000/table-2 	1	  300000000 ns/op	0.3 ms/read	0.25 p50-ms	3.00 p99-ms
BenchmarkReadHandLogSize/hands=1000000/lookup-2 	1	  500000000 ns/op	0.5 ms/read	0.40 p50-ms	5.00 p99-ms
FAIL	github.com/fechado/fechado/projector [build failed]
`

func TestParseBench(t *testing.T) {
	o := parseBench([]byte(goOutput))
	if o.CPU != "Some CPU @ 2.0GHz" {
		t.Errorf("cpu %q", o.CPU)
	}
	if len(o.Results) != 6 {
		t.Fatalf("%d results, want 6: %+v", len(o.Results), o.Results)
	}
	a := o.get("BenchmarkAppend")
	if a == nil || a.Pkg != "github.com/fechado/fechado/recorder" || a.Samples != 3 {
		t.Fatalf("BenchmarkAppend: %+v", a)
	}
	if v, ok := a.median("events/s"); !ok || v != 24000 {
		t.Errorf("median events/s %v %v, want 24000", v, ok)
	}
	if v, _ := a.median("ratio"); v != 0.1437 {
		t.Errorf("median ratio %v, want 0.1437", v)
	}
	if _, ok := a.median("hands/s"); ok {
		t.Error("a metric the benchmark did not report has a median")
	}
	if got := strings.Join(a.order, " "); got != "ns/op events/s plain-events/s ratio B/op allocs/op" {
		t.Errorf("units in order %q", got)
	}
	if r := o.get("BenchmarkReadHand/table"); r == nil || r.Samples != 1 {
		t.Errorf("a log line starting with a benchmark's name counted as a result: %+v", r)
	}
	if r := o.get("BenchmarkEvalPreset/std-draw"); r == nil || r.Pkg != "github.com/fechado/fechado/rules" {
		t.Errorf("EvalPreset: %+v", r)
	}
	if len(o.Failures) != 3 || !strings.Contains(o.Failures[1], "boom") || !strings.Contains(o.Failures[2], "projector") {
		t.Errorf("failures %q", o.Failures)
	}
	var none *benchResult
	if _, ok := none.median("ns/op"); ok {
		t.Error("a missing benchmark has a median")
	}
	if v, _ := (&benchResult{Metrics: map[string][]float64{"x": {4, 1, 3, 2}}}).median("x"); v != 2.5 {
		t.Errorf("median of an even count %v, want 2.5", v)
	}
}

func TestParseFlags(t *testing.T) {
	cfg, err := parseFlags([]string{"-sizes", "1000, 3000", "-table-hands", "1000"})
	if err != nil || len(cfg.sizes) != 2 || cfg.sizes[1] != 3000 {
		t.Fatalf("%v %+v", err, cfg)
	}
	if cfg, err := parseFlags([]string{"-sizes", ""}); err != nil || len(cfg.sizes) != 0 {
		t.Errorf("-sizes \"\": %v %v", cfg, err)
	}
	for _, bad := range [][]string{
		{"-sizes", "15x00"},
		{"-sizes", "2000,1000", "-table-hands", "1000"},
		{"-sizes", "0"},
		{"-count", "0"},
		{"operand"},
	} {
		if _, err := parseFlags(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestMeasure(t *testing.T) {
	ctx := context.Background()
	r, err := measure(ctx, nil, nil, "sh", "-c", "echo oops >&2; exit 3")
	if err == nil || !strings.Contains(err.Error(), "oops") || r.Exit != 3 {
		t.Errorf("exit 3 not allowed: %+v %v", r, err)
	}
	r, err = measure(ctx, nil, []int{0, 3}, "sh", "-c", "exit 3")
	if err != nil || r.Exit != 3 || r.MaxRSS <= 0 || r.Wall <= 0 {
		t.Errorf("exit 3 allowed: %+v %v", r, err)
	}
	ctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := measure(ctx, nil, nil, "sh", "-c", "sleep 30 & sleep 30"); !errors.Is(err, errBudget) {
		t.Errorf("stopped at the deadline: %v", err)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("stopping took %v", d)
	}
}

func TestTableCount(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	data := `{"type":"hand.started"}` + "\n" + `{"type":"hand.ended"}` + "\n" + `{"type":"hand.ended"}`
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	tb := &table{Path: path}
	if err := tb.count(); err != nil || tb.Hands != 2 || tb.Events != 3 || tb.Bytes != int64(len(data)) {
		t.Errorf("%+v %v", tb, err)
	}
}

func TestEstimate(t *testing.T) {
	cfg := &config{tableHands: 10, jqMax: 100, margin: 1.3}
	w := &wholeProcess{cfg: cfg, tables: make([]*table, 2), simWall: 2 * time.Second, simHands: 20}
	prev := &size{Hands: 20, RecordedHands: 20,
		Audit: &run{Wall: 2 * time.Second}, JQ: &run{Wall: 4 * time.Second},
		Record: &run{Wall: 10 * time.Second}, Project: &run{Wall: 6 * time.Second}}
	w.sizes = []*size{prev}
	full, auditOnly := w.estimate(prev, 100, 10) // 80 new hands, 100 in all
	// per hand: sim 0.1 s, audit 0.1, jq 0.2, record 0.5, project 0.3; 30% margin
	if want := time.Duration(1.3 * float64(80*100*time.Millisecond+100*300*time.Millisecond)); auditOnly != want {
		t.Errorf("audit only %v, want %v", auditOnly, want)
	}
	if want := auditOnly + time.Duration(1.3*float64(80*500*time.Millisecond+100*300*time.Millisecond)); full != want {
		t.Errorf("full %v, want %v", full, want)
	}
	// Over -jq-max jq is left out; the plain publish and the reads count when they were measured.
	prev.Plain, prev.ReadsRun = &run{Wall: 4 * time.Second}, &run{Wall: time.Second}
	full, auditOnly = w.estimate(prev, 101, 10)
	if want := time.Duration(1.3 * float64(80*100*time.Millisecond+100*100*time.Millisecond)); auditOnly != want {
		t.Errorf("over -jq-max: audit only %v, want %v", auditOnly, want)
	}
	if want := auditOnly + time.Duration(1.3*float64(80*700*time.Millisecond+100*300*time.Millisecond+time.Second)); full != want {
		t.Errorf("over -jq-max: full %v, want %v", full, want)
	}
}

// The raw output is what benchstat reads: the whole-process lines parse back as benchmarks.
func TestReportRawAndMarkdown(t *testing.T) {
	cfg, err := parseFlags([]string{"-sizes", "1000,2000", "-table-hands", "1000"})
	if err != nil {
		t.Fatal(err)
	}
	mk := func(wall time.Duration, rss int64) *run { return &run{Wall: wall, MaxRSS: rss} }
	projected := mk(4*time.Second, 120e6)
	projected.CPU = 3 * time.Second
	server := mk(0, 300e6)
	server.CPU = 1500 * time.Millisecond
	w := &wholeProcess{cfg: cfg, sizes: []*size{
		{Nominal: 1000, Load: "1.50 2.00 3.00", Hands: 1000, Events: 25000, Bytes: 7e6, RecordedHands: 1000, RecordedEvents: 25000,
			Audit: mk(time.Second, 50e6), JQ: mk(2*time.Second, 5e6), Record: mk(3*time.Second, 100e6), Project: projected,
			Plain: mk(1500*time.Millisecond, 60e6), Server: server,
			Reads: &readTimes{Reads: 1000, P50: 4e5, P99: 2e6}, ModelReads: &readTimes{Reads: 1000, P50: 1e5, P99: 4e5, Copies: 990}},
		{Nominal: 2000, Hands: 2000, Events: 50000, Bytes: 14e6, RecordedHands: 1000, RecordedEvents: 25000,
			Audit: mk(2*time.Second, 50e6), JQ: mk(4*time.Second, 5e6), ProjectErr: errors.New("project broke"),
			Record: mk(3*time.Second, 100e6), Project: mk(time.Second, 0),
			Reads: &readTimes{Reads: 1000, P50: 5e5, P99: 3e6}},
	}, notes: []string{"3,000 hands and more: left out"}}
	secs := func(ss ...float64) []run {
		var rs []run
		for _, v := range ss {
			rs = append(rs, *mk(time.Duration(v*float64(time.Second)), 60e6))
		}
		return rs
	}
	w.spread = &spreadAudits{Room: table{Hands: 20000, Events: 935000, Bytes: 281e6}, Workers: 2,
		Pairs: &pairedAudits{Asked: 3, Base: secs(2, 2.2, 1.8), Cur: secs(1, 1, 1.2), Checked: true, Identical: true}}
	rep := &report{cfg: cfg, Start: time.Now(), End: time.Now().Add(time.Minute), Commit: commit{Hash: "abc", Dirty: true},
		Go: parseBench([]byte(goOutput)), GoRaw: []byte(goOutput), Whole: w, RawPath: "internal/benchreport/testdata/raw/raw-abc-dirty.txt"}

	o := parseBench(rep.raw())
	a := o.get("BenchmarkCmd/audit/size=2000")
	if a == nil || a.Pkg != cmdPkg {
		t.Fatalf("raw output: %+v", o.Results)
	}
	if v, _ := a.median("hands/s"); v != 1000 {
		t.Errorf("audit at 2,000 hands: %v hands/s, want 1000", v)
	}
	if v, _ := o.get("BenchmarkCmd/project/size=1000").median("events/s"); v != 6250 {
		t.Errorf("project at 1,000 hands: %v events/s, want 6250", v)
	}
	if v, _ := o.get("BenchmarkCmd/project-server/size=1000").median("CPU-s"); v != 1.5 {
		t.Errorf("the server's CPU while project ran at 1,000 hands: %v s, want 1.5", v)
	}
	if o.get("BenchmarkCmd/project/size=2000") != nil {
		t.Error("a failed run is in the raw output")
	}
	// Three runs of project: three samples in the raw output, the median run in the report.
	saved := *w.sizes[0]
	w.sizes[0].ProjectRuns = []run{*mk(5*time.Second, 1), *mk(3*time.Second, 1), *mk(4*time.Second, 1)}
	w.sizes[0].Project = medianRun(w.sizes[0].ProjectRuns)
	if got := w.sizes[0].Project.Wall; got != 4*time.Second {
		t.Errorf("median run %v, want 4s", got)
	}
	o = parseBench(rep.raw())
	if pr := o.get("BenchmarkCmd/project/size=1000"); pr == nil || pr.Samples != 3 {
		t.Errorf("raw output of three runs of project: %+v", pr)
	}
	if md := string(rep.markdown()); !strings.Contains(md, "the median of 3 runs, 5.00, 3.00, 4.00 s") {
		t.Errorf("the report does not give the three runs of project:\n%s", md)
	}
	*w.sizes[0] = saved
	if v, _ := o.get("BenchmarkCmd/read-hand/size=2000").median("p99-ms"); v != 3 {
		t.Errorf("read p99 at 2,000 hands: %v ms, want 3", v)
	}
	if v, _ := o.get("BenchmarkCmd/read-hand-models/size=1000").median("p99-ms"); v != 0.4 {
		t.Errorf("read p99 from the read models at 1,000 hands: %v ms, want 0.4", v)
	}
	if o.get("BenchmarkCmd/read-hand-models/size=2000") != nil {
		t.Error("reads from read models that were not measured are in the raw output")
	}
	if o.get("BenchmarkAppend") == nil {
		t.Error("go test output lost")
	}

	md := string(rep.markdown())
	wantInReport(t, md,
		"commit `abc` with uncommitted changes",
		"Some CPU @ 2.0GHz",
		"| 24,000 events/s | plain `PublishAsync` of the same payloads: 160,000 events/s | 0.14 of plain |",
		"missing: `BenchmarkProject` did not run",
		"`fechado audit --json` on 2,000 hands (50,000 events, 14 MB), `taskset -c N`, `GOMAXPROCS=1` | 1,000 hands/s (2.00 s), peak memory 50 MB | `jq -c .` of the same files, one core: 4.00 s | 0.500 of jq's time (1 round); target at most 0.05 (issue 43): **not met** |",
		"on 20,000 hands (935,000 events, 281 MB), 3 rounds; the findings (the first round's two `--json` outputs) identical byte for byte | `--workers 2`: median 1.00 s (20,000 hands/s), peak memory 60 MB | `--workers 1`: median 2.00 s, peak memory 60 MB | 2.00× the speed of one worker (median of the rounds' ratios, quartiles 1.75 and 2.10); target at least 1.8× on 2 cores (issue 43): met |",
		"| 1,000 | 1,000 | 25,000 | 7 | 1.50 | 1.00 s | 1000 | 50 | 2.00 s | 0.50 | 3.00 s (1,000) | 0.40 | 2.00 | 4.00 s | 4000 | 6,250 | 120 | 300 | 0.10 | 0.40 |\n",
		"| 3.00 s (1,000) | 0.50 | 3.00 | failed | — | — | — | — | — | — |\n",
		"(the table from the log's subjects, as `fechado export --hand` without read models), p99 over 1,000 random simulated hands of the log of 2,000 hands",
		"p99 over the same 1,000 hands of the log of 1,000 hands (990 of them from their copy) | 0.40 ms (median 0.10 ms); target under 5.00 ms: met | the same at 1,000 hands: 0.40 ms | 1.00× the time |",
		"1,000 → 2,000 hands (×2.0), 25,000 → 50,000 events (×2.0): audit time ×2.0 (per hand ×1.00, per event ×1.00), peak memory ×1.00",
		"2,000 hands: **failed**: project broke",
		"| std-draw | 95,238,095 | 1.00 |",
		"3,000 hands and more: left out.",
		"- 1,000 hands, `record` of the 1,000 new hands (25,000 events) against plain asynchronous publishes of the same lines to a log of their own on the same embedded server, whole processes: 8,333 and 16,667 events/s, 0.50 of plain.",
		"- 1,000 hands, `project --rebuild`: 4,000 µs a hand of wall time; of CPU, 3,000 µs a hand in the projector and 1,500 in the log's server.",
		"benchstat@latest internal/benchreport/testdata/raw/raw-OLD.txt internal/benchreport/testdata/raw/raw-NEW.txt",
		"**Not every package's benchmarks ran:**",
		"random simulated hands of the log of 2,000 hands | 3.00 ms (median 0.50 ms); target under 5.00 ms: met | the same at 1,000 hands: 2.00 ms | 1.50× the time |",
		"| `fechado project --rebuild` of the log of 2,000 hands, the projector alone | not measured: see \"Left out\" | at 1,000 hands: 4000 µs a hand, peak memory 120 MB | — |",
		"| `fechado record` of 1,000 new simulated hands (25,000 events), whole process, every guarantee | 8,333 events/s (3.00 s) |",
	)

	// With the largest size projected, its targets are judged against the smallest size's.
	w.sizes[1].Project, w.sizes[1].ProjectErr, w.sizes[1].Server = mk(10*time.Second, 130e6), nil, mk(0, 310e6)
	md = string(rep.markdown())
	want := "| `fechado project --rebuild` of the log of 2,000 hands, the projector alone (the log's server in a process of its own, peak memory 310 MB) | 5000 µs a hand (200.00 µs an event), peak memory 130 MB; target under 200 MB: met | the same at 1,000 hands: 4000 µs a hand (160.00 µs an event), 120 MB | 1.25× the time an event; target at most 1.2×: **not met**; 1.25× the time a hand, whose hands average 25.0 events against 25.0 |"
	if !strings.Contains(md, want) {
		t.Errorf("BENCHMARKS.md lacks %q\n%s", want, md)
	}
	// Larger hands take longer: the growth is judged by the time of an event.
	w.sizes[1].Events = 60000
	md = string(rep.markdown())
	want = "| 5000 µs a hand (166.67 µs an event), peak memory 130 MB; target under 200 MB: met | the same at 1,000 hands: 4000 µs a hand (160.00 µs an event), 120 MB | 1.04× the time an event; target at most 1.2×: met; 1.25× the time a hand, whose hands average 30.0 events against 25.0 |"
	if !strings.Contains(md, want) {
		t.Errorf("BENCHMARKS.md lacks %q\n%s", want, md)
	}
	w.sizes[1].Events = 50000

	// The spread: a round each of one worker and of every core in the raw output, and findings
	// that differ fail the goal however fast the spread.
	if sp := parseBench(rep.raw()).get("BenchmarkCmd/audit-spread/workers=2"); sp == nil || sp.Samples != 3 {
		t.Errorf("the spread's rounds in the raw output: %+v", sp)
	}
	w.spread.Pairs.Identical = false
	wantInReport(t, string(rep.markdown()), "**the findings differ**", "target at least 1.8× on 2 cores (issue 43): **not met**")
	w.spread.Pairs.Identical = true

	// The same on the stored log: its own rounds in the raw output, its row with the time against
	// the file's, and findings that differ from the file's fail the goal however fast the spread.
	rec := mk(20*time.Second, 300e6)
	w.storeSpread = &spreadAudits{Room: w.spread.Room, Workers: 2, Data: "log", Record: rec, FileChecked: true, FileSame: true,
		Pairs: &pairedAudits{Asked: 3, Base: secs(4, 4.4, 3.6), Cur: secs(2, 2, 2.4), Checked: true, Identical: true}}
	if sp := parseBench(rep.raw()).get("BenchmarkCmd/audit-all-spread/workers=1"); sp == nil || sp.Samples != 3 {
		t.Errorf("the stored log's rounds in the raw output: %+v", sp)
	}
	wantInReport(t, string(rep.markdown()),
		"(its embedded server in the audit's process), whole processes, not pinned, in turn on 20,000 hands (935,000 events, 281 MB), 3 rounds; the findings (the first round's two `--json` outputs) identical byte for byte | `--workers 2`: median 2.00 s (10,000 hands/s), peak memory 60 MB | `--workers 1`: median 4.00 s, peak memory 60 MB | 2.00× the speed of one worker (median of the rounds' ratios, quartiles 1.75 and 2.10); target at least 1.8× on 2 cores (issue 43): met; one worker's findings identical to the file's; `--workers 2` takes 2.0× the time of the file's audit on as many workers; `record` took 20.00 s (46,750 events/s) |")
	w.storeSpread.FileSame = false
	wantInReport(t, string(rep.markdown()), "(issue 43): **not met**; one worker's findings **differ from the file's**")
	w.storeSpread = nil
	wantInReport(t, string(rep.markdown()), "The same room's log audited from the store on every core: `fechado audit --all --json --workers N --data DIR` against `--workers 1`, the room's file recorded with `fechado record --data DIR` (its embedded server in the audit's process), whole processes, not pinned, in turn | missing: see \"Left out\" | | |")

	// Just under the target is not met: the ratio has three places.
	w.sizes[0].Plain = mk(1490*time.Millisecond, 60e6)
	wantInReport(t, string(rep.markdown()), "| 0.497 of plain; target at least 0.5: **not met** |")
	w.sizes[0].Plain = mk(1500*time.Millisecond, 60e6)

	// With the de-duplicated baseline measured, record is given against it too.
	w.sizes[0].Dedup = mk(2500*time.Millisecond, 60e6)
	if v, _ := parseBench(rep.raw()).get("BenchmarkCmd/publish-plain-dedup/size=1000").median("events/s"); v != 10000 {
		t.Errorf("the de-duplicated publishes at 1,000 hands: %v events/s, want 10000", v)
	}
	wantInReport(t, string(rep.markdown()),
		"on the same embedded server: 16,667 events/s; the same with only each event id as `Nats-Msg-Id`, the de-duplication every append carries: 10,000 events/s | 0.500 of plain; target at least 0.5: met; 0.833 of the de-duplicated ones |",
		"whole processes: 8,333 and 16,667 events/s, 0.50 of plain; the plain publishes with only each event id as `Nats-Msg-Id`: 10,000 events/s (0.60 of plain), of which `record` is 0.83.",
	)
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", -1234567: "-1,234,567", 100000: "100,000"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
	for v, want := range map[float64]string{0.1437: "0.144", 12.29: "12.3", 99652987.4: "99,652,987"} {
		if got := thousandsF(v); got != want {
			t.Errorf("thousandsF(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestAuditSize(t *testing.T) {
	ok := &run{Wall: time.Second}
	mk := func(nominals ...int) *report {
		w := &wholeProcess{}
		for _, n := range nominals {
			w.sizes = append(w.sizes, &size{Nominal: n, Hands: n + 7, Audit: ok, JQ: ok}) // at least n
		}
		return &report{Whole: w}
	}
	for _, c := range []struct {
		sizes []int
		want  int
	}{
		{[]int{10000}, 10000},
		{[]int{10000, 100000, 300000}, 100000},
		{[]int{10000, 50000, 300000}, 300000}, // the smallest of at least 100,000 hands
		{[]int{300000, 1000000}, 300000},
		{[]int{10000, 50000}, 50000}, // none that large: the largest
	} {
		if got := mk(c.sizes...).auditSize(); got == nil || got.Nominal != c.want {
			t.Errorf("%v: %+v, want %d", c.sizes, got, c.want)
		}
	}
	r := mk(10000, 100000)
	r.Whole.sizes[1].JQErr = errBudget
	if got := r.auditSize(); got.Nominal != 10000 {
		t.Errorf("a size without jq chosen: %d", got.Nominal)
	}
}

func TestPercentile(t *testing.T) {
	var ds []time.Duration
	for i := 1; i <= 1000; i++ {
		ds = append(ds, time.Duration(i))
	}
	for p, want := range map[float64]time.Duration{50: 500, 99: 990, 100: 1000, 0.01: 1} {
		if got := percentile(ds, p); got != want {
			t.Errorf("p%v = %v, want %v", p, got, want)
		}
	}
	if percentile(nil, 99) != 0 {
		t.Error("no times: not 0")
	}
}

// The hands read back are distinct, come from the tables' samples, and from every table in
// proportion to its hands.
func TestSampleHands(t *testing.T) {
	mkTable := func(id string, hands, sample int) *table {
		tb := &table{Table: id, Hands: hands}
		for i := range sample {
			tb.Sample = append(tb.Sample, fmt.Sprintf("%s-%d", id, i))
		}
		return tb
	}
	tables := []*table{mkTable("a", 9000, 1000), mkTable("b", 1000, 1000), mkTable("c", 0, 0)}
	got := sampleHands(tables, 200, rand.New(rand.NewPCG(1, 2)))
	if len(got) != 200 {
		t.Fatalf("%d hands", len(got))
	}
	seen := map[handRef]bool{}
	from := map[string]int{}
	for _, h := range got {
		if seen[h] || !strings.HasPrefix(h.Hand, h.Table+"-") {
			t.Fatalf("%+v repeated or not of its table", h)
		}
		seen[h] = true
		from[h.Table]++
	}
	if from["a"] < 165 || from["a"] > 195 || from["c"] != 0 {
		t.Errorf("hands by table %v, want about 180 of a", from)
	}
	if n := len(sampleHands(tables[1:], 5000, rand.New(rand.NewPCG(1, 2)))); n != 1000 {
		t.Errorf("more hands asked than sampled: %d", n)
	}
}

// The ratio of a round is the baseline's time over the current one's in that round; the figure is
// their median, which a round slow for both (the machine busy) moves less than the medians of
// each taken apart.
func TestPairedRatios(t *testing.T) {
	runs := func(ms ...int) []run {
		var rs []run
		for _, m := range ms {
			rs = append(rs, run{Wall: time.Duration(m) * time.Millisecond})
		}
		return rs
	}
	for _, c := range []struct {
		name         string
		base, cur    []run
		n            int
		med, q1, q3  float64
		medOfMedians float64 // the ratio of the two medians, for contrast
	}{
		{"steady", runs(400, 400, 400), runs(500, 500, 500), 3, 0.8, 0.8, 0.8, 0.8},
		{"a slow round for both", runs(400, 400, 400, 400, 1200), runs(500, 500, 500, 1000, 1500), 5, 0.8, 0.8, 0.8, 0.8},
		{"noise apart", runs(400, 900, 450, 420, 800), runs(500, 600, 1000, 525, 1000), 5, 0.8, 0.8, 0.8, 0.75},
		{"even count", runs(700, 800, 900, 1000), runs(1000, 1000, 1000, 1000), 4, 0.85, 0.775, 0.925, 0.85},
		{"a round cut short", runs(800, 900, 1000), runs(1000, 1000), 2, 0.85, 0.825, 0.875, 0.9},
	} {
		rs := pairedRatios(c.base, c.cur)
		near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
		if len(rs) != c.n || !near(quantile(rs, 0.5), c.med) || !near(quantile(rs, 0.25), c.q1) || !near(quantile(rs, 0.75), c.q3) {
			t.Errorf("%s: ratios %v: median %v, quartiles %v and %v; want %d, %v, %v, %v", c.name, rs,
				quantile(rs, 0.5), quantile(rs, 0.25), quantile(rs, 0.75), c.n, c.med, c.q1, c.q3)
		}
		if m := float64(wallAt(c.base, 0.5)) / float64(wallAt(c.cur, 0.5)); !near(m, c.medOfMedians) {
			t.Errorf("%s: ratio of the medians %v, want %v", c.name, m, c.medOfMedians)
		}
	}
	if rs := pairedRatios(nil, runs(500)); len(rs) != 0 || !math.IsNaN(quantile(rs, 0.5)) {
		t.Errorf("no round: %v", rs)
	}
	if q := quantile([]float64{3, 1, 2}, 0); q != 1 {
		t.Errorf("the least of three: %v", q)
	}
}

// baselineReport is a report of one 1,000-hand size whose rounds against the baseline have the
// current code take 1 s and the baseline base each.
func baselineReport(t *testing.T, name string, base ...time.Duration) *report {
	t.Helper()
	cfg, err := parseFlags([]string{"-sizes", "1000", "-audit-baseline", "bin/fechado-" + name, "-audit-baseline-commit", name, "-bench", ""})
	if err != nil {
		t.Fatal(err)
	}
	pa := &pairedAudits{Asked: 15, Checked: true, Identical: true}
	for _, b := range base {
		pa.Base = append(pa.Base, run{Wall: b, MaxRSS: 40e6})
		pa.Cur = append(pa.Cur, run{Wall: time.Second, MaxRSS: 80e6})
	}
	w := &wholeProcess{cfg: cfg, sizes: []*size{{Nominal: 1000, Hands: 1000, Events: 25000, Bytes: 7e6,
		Audit: &run{Wall: time.Second}, JQ: &run{Wall: 2 * time.Second}, Paired: pa}}}
	return &report{cfg: cfg, Start: time.Now(), End: time.Now(), Commit: commit{Hash: "abc"}, Whole: w, RawPath: "internal/benchreport/testdata/raw/raw-abc.txt"}
}

func TestBaselineVerdict(t *testing.T) {
	for _, c := range []struct {
		base time.Duration
		want string
	}{
		{790 * time.Millisecond, "0.79× the rate (median of the rounds' ratios); target at least 0.8×: **not met** |"},
		{800 * time.Millisecond, "0.80× the rate (median of the rounds' ratios); target at least 0.8×: met |"},
		{810 * time.Millisecond, "0.81× the rate (median of the rounds' ratios); target at least 0.8×: met |"},
	} {
		md := string(baselineReport(t, "3f492ce", c.base, c.base, c.base).markdown())
		if !strings.Contains(md, c.want) {
			t.Errorf("%v: BENCHMARKS.md lacks %q\n%s", c.base, c.want, md)
		}
	}
}

func TestReportBaseline(t *testing.T) {
	// Without -audit-baseline the report is as it was: no row, no bullet, no raw lines.
	rep := baselineReport(t, "3f492ce", 800*time.Millisecond)
	rep.cfg.baseline, rep.Whole.sizes[0].Paired = "", nil
	if md := string(rep.markdown()); strings.Contains(md, "against the code of") || strings.Contains(md, "alternated") {
		t.Errorf("a report without a baseline speaks of one:\n%s", md)
	}
	if raw := string(rep.raw()); strings.Contains(raw, "alternated") {
		t.Errorf("raw output without a baseline:\n%s", raw)
	}

	rep = baselineReport(t, "3f492ce", 800*time.Millisecond, 850*time.Millisecond, 700*time.Millisecond, 900*time.Millisecond, 750*time.Millisecond)
	md := string(rep.markdown())
	wantInReport(t, md,
		"| Hands audited, whole process, against the code of 3f492ce (when issue 21 was filed), same files, alternated: `fechado audit --json` on 1,000 hands, one core, 5 rounds, the findings identical byte for byte | 1,000 hands/s (median 1.00 s) | the code of 3f492ce: 1,250 hands/s (median 0.80 s) | 0.80× the rate (median of the rounds' ratios); target at least 0.8×: met |",
		"- 1,000 hands, `audit --json` of the code of 3f492ce and of this commit in turn on the same files, on one core, 5 rounds of the 15 asked (the one that runs first changing each round): 3f492ce median 0.80 s, fastest 0.70 s, peak memory 40 MB; this commit median 1.00 s, fastest 1.00 s, peak memory 80 MB; the time of 3f492ce over this commit's in each round (this commit's rate as a share of the other's): median 0.80, quartiles 0.75 and 0.85. The findings (the first round's two `--json` outputs) are identical byte for byte.\n",
		"- `audit` against the code of 3f492ce: `internal/benchreport/bench.sh` builds that commit's `fechado` from a temporary git worktree into `bin/fechado-3f492ce`",
	)
	o := parseBench(rep.raw())
	base, cur := o.get("BenchmarkCmd/audit-alternated/code=3f492ce/size=1000"), o.get("BenchmarkCmd/audit-alternated/code=current/size=1000")
	if base == nil || cur == nil || base.Samples != 5 || cur.Samples != 5 {
		t.Fatalf("raw output: %+v %+v", base, cur)
	}
	if v, _ := base.median("hands/s"); v != 1250 {
		t.Errorf("the baseline's median %v hands/s, want 1250", v)
	}
	if v, _ := cur.median("peak-RSS-B"); v != 80e6 {
		t.Errorf("the current code's peak memory %v, want 80e6", v)
	}

	// Findings that differ are said plainly; a baseline other than issue 21's has no target.
	rep = baselineReport(t, "0123abc", 900*time.Millisecond)
	pa := rep.Whole.sizes[0].Paired
	pa.Identical, pa.BaseBytes, pa.CurBytes, pa.Cur[0].Exit = false, 1200, 1300, 1
	md = string(rep.markdown())
	wantInReport(t, md,
		"against the code of 0123abc, same files, alternated: `fechado audit --json` on 1,000 hands, one core, 1 round, **the findings differ** |",
		"| 0.90× the rate (median of the rounds' ratios) |",
		"**The findings differ**: the first round's two `--json` outputs are not the same (1,200 bytes from 0123abc, 1,300 from this commit; exit statuses 0 and 1).",
	)
	if strings.Contains(md, "issue 21") {
		t.Error("another baseline is named as issue 21's")
	}

	// No round measured: the row says so instead of a figure.
	rep.Whole.sizes[0].Paired = &pairedAudits{Asked: 15, Err: errBudget}
	if md := string(rep.markdown()); !strings.Contains(md, "alternated | missing: see below and \"Left out\" | | |") {
		t.Errorf("no round: %s", md)
	}
}

// measureJQRounds runs audit and jq in turn, jq first in odd rounds; the size's runs become
// the ones of median time, and the summary's ratio is the median of the rounds' ratios, not the
// ratio of the medians.
func TestMeasureJQRoundsAlternatesAndTakesTheMedianRatio(t *testing.T) {
	dir := t.TempDir()
	order := filepath.Join(dir, "order")
	script := func(name string) string {
		path := filepath.Join(dir, name)
		body := fmt.Sprintf("#!/bin/sh\necho %s >>%s\n", name, order)
		if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	cfg := &config{fechado: script("audit"), jq: script("jq"), work: dir, margin: 1.3, jqRounds: 4}
	w := &wholeProcess{cfg: cfg}
	first := run{Wall: time.Millisecond}
	s := &size{Nominal: 10, Audit: &first, JQ: &run{Wall: 2 * time.Millisecond}}
	w.measureJQRounds(context.Background(), s, []string{"t.jsonl"}, 0, io.Discard)
	jr := s.JQRounds
	if jr == nil || jr.Err != nil || jr.rounds() != 4 {
		t.Fatalf("%+v", jr)
	}
	// The first round is the size's own (audit, then jq); three more follow.
	if got, _ := os.ReadFile(order); string(got) != "jq\naudit\naudit\njq\njq\naudit\n" {
		t.Errorf("runs in the order %q", got)
	}

	// The report: rounds of 1/2, 1/4, 3/4 and 2/8 give the ratios 0.5, 0.25, 0.75, 0.25,
	// whose median is 0.375; the ratio of the median runs would be 2/4 = 0.5.
	ms := func(v ...float64) []run {
		var rs []run
		for _, x := range v {
			rs = append(rs, run{Wall: time.Duration(x * float64(time.Millisecond))})
		}
		return rs
	}
	s = &size{Nominal: 10, Hands: 10, Events: 100, Bytes: 1e6}
	s.JQRounds = &pairedAudits{Cur: ms(1, 1, 3, 2), Base: ms(2, 4, 4, 8)}
	s.Audit, s.JQ = medianRun(s.JQRounds.Cur), medianRun(s.JQRounds.Base)
	rep := &report{cfg: &config{jqRounds: 4}, Whole: &wholeProcess{cfg: cfg, sizes: []*size{s}}}
	wantInReport(t, string(rep.markdown()),
		"0.375 of jq's time (median of 4 rounds in turn; the rounds' ratios from 0.250 to 0.750); target at most 0.05")
	o := parseBench(rep.raw())
	if a := o.get("BenchmarkCmd/audit/size=10"); a == nil || a.Samples != 4 {
		t.Errorf("raw output: one audit line a round wanted: %+v", a)
	}

	// A first round over jqRoundsMax is the only one.
	if err := os.Remove(order); err != nil {
		t.Fatal(err)
	}
	s = &size{Nominal: 10, Audit: &run{Wall: 10 * time.Second}, JQ: &run{Wall: 10 * time.Second}}
	w.measureJQRounds(context.Background(), s, []string{"t.jsonl"}, 0, io.Discard)
	if s.JQRounds.rounds() != 1 {
		t.Errorf("a long first round was followed by %d more", s.JQRounds.rounds()-1)
	}
	if _, err := os.Stat(order); err == nil {
		t.Error("a long first round ran again")
	}
}

// measurePaired runs the two binaries in turn, the first changing each round, compares the
// first round's outputs, and leaves out the rounds the budget has no room for.
func TestMeasurePaired(t *testing.T) {
	dir := t.TempDir()
	order := filepath.Join(dir, "order")
	script := func(name, out string) string {
		path := filepath.Join(dir, name)
		body := fmt.Sprintf("#!/bin/sh\necho %s >>%s\necho '%s'\n", name, order, out)
		if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	cfg := &config{baseline: script("old", `{"code":"x"}`), fechado: script("new", `{"code":"x"}`), work: dir, margin: 1.3}
	w := &wholeProcess{cfg: cfg}
	s := &size{Nominal: 10, Audit: &run{Wall: time.Millisecond}}
	w.measurePaired(context.Background(), s, []string{"t.jsonl"}, 3, 0, io.Discard)
	pa := s.Paired
	if pa.Err != nil || pa.rounds() != 3 || !pa.Checked || !pa.Identical {
		t.Fatalf("%+v", pa)
	}
	if got, _ := os.ReadFile(order); string(got) != "old\nnew\nnew\nold\nold\nnew\n" {
		t.Errorf("runs in the order %q", got)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "audit-*.json")); len(left) != 0 {
		t.Errorf("identical outputs kept: %v", left)
	}

	cfg.fechado = script("other", `{"code":"y"}`)
	s = &size{Nominal: 10, Audit: &run{Wall: time.Millisecond}}
	w.measurePaired(context.Background(), s, []string{"t.jsonl"}, 1, 0, io.Discard)
	if pa := s.Paired; pa.Err != nil || !pa.Checked || pa.Identical || pa.BaseBytes != 13 {
		t.Errorf("different outputs: %+v", pa)
	}

	// A round estimated longer than the time left beyond the reserve is not run, and noted.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s = &size{Nominal: 10, Audit: &run{Wall: 10 * time.Second}}
	w.measurePaired(ctx, s, []string{"t.jsonl"}, 2, 40*time.Second, io.Discard)
	if s.Paired.rounds() != 0 || len(w.notes) != 1 || !strings.Contains(w.notes[0], "10 hands: audit against the code of old left out: a round of the two was estimated at about 26s,") ||
		!strings.HasSuffix(w.notes[0], "left of the budget beyond record and project") {
		t.Errorf("over the budget: %+v %q", s.Paired, w.notes)
	}
}

// The report names the repository's folders, not where this machine keeps the repository: a
// path within the working directory is given relative to it, one outside as it is.
func TestRelPath(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, want string }{
		{filepath.Join(wd, "bin", "bench-cache"), filepath.Join("bin", "bench-cache")},
		{filepath.Join(filepath.Dir(wd), "elsewhere"), filepath.Join(filepath.Dir(wd), "elsewhere")},
		{"/", "/"},
	} {
		if got := relPath(c.in); got != c.want {
			t.Errorf("relPath(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// wantInReport fails t for each of wants that the report md lacks, and prints md once for all the
// misses of the test.
func wantInReport(t *testing.T, md string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if strings.Contains(md, want) {
			continue
		}
		if !t.Failed() {
			t.Log(md)
		}
		t.Errorf("BENCHMARKS.md lacks %q", want)
	}
}
