package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fechado/fechado/internal/livereport"
)

// md renders one part of the report.
func md(part func(printer)) string {
	var b strings.Builder
	part(func(format string, a ...any) { fmt.Fprintf(&b, format, a...) })
	return b.String()
}

// A later run writes again the sections a person wrote ("Measured outside `make bench`"), in
// their order, and drops the sections the harness writes anew; a heading inside a fenced block
// is text, not a section.
func TestKeptSectionsKeepsHandWrittenOnes(t *testing.T) {
	old := "# Benchmarks\n\nheader\n\n## Summary\n\n| a | b |\n\n## Every Go benchmark\n\ngo\n\n" +
		"## Measured outside `make bench` on 2026-12-05: live tables\n\nlive\n```\n## Summary inside code\n```\n\n" +
		"## Integrity: planted colluders found, measured outside `make bench` on 2026-12-05\n\ncolluders\n" +
		"## How\n\nhow\n\n## Left out\n\n- nothing\n"
	got := string(keptSections([]byte(old)))
	want := "## Measured outside `make bench` on 2026-12-05: live tables\n\nlive\n```\n## Summary inside code\n```\n\n" +
		"## Integrity: planted colluders found, measured outside `make bench` on 2026-12-05\n\ncolluders\n\n"
	if got != want {
		t.Errorf("kept\n%q\nwant\n%q", got, want)
	}
	if k := keptSections([]byte("# Benchmarks\n\n## Summary\n")); len(k) != 0 {
		t.Errorf("a report with no hand-written section keeps %q", k)
	}
	// The report puts them after the Go benchmarks, before how the figures were measured.
	cfg, _ := parseFlags(nil)
	rep := &report{cfg: cfg, Kept: []byte(want)}
	out := string(rep.markdown())
	if i, j, k := strings.Index(out, "## Every Go benchmark"), strings.Index(out, "## Measured outside"), strings.Index(out, "## How"); !(i < j && j < k) || i < 0 {
		t.Errorf("kept sections at %d, Go benchmarks at %d, How at %d", j, i, k)
	}
}

// sim --live's report as it prints it (docs/cli.md, "A room under load") parses into the load's
// figures, and each goal of issue 43 is judged with its errors and, for the lag, the hands never
// seen audited.
func TestLoadGoalsFromSimReport(t *testing.T) {
	const simJSON = `{"tables": 200, "pace_ms": 1000, "seconds": 60.2, "hands_ended": 154,
	 "append": {"count": 11842, "errors": 0, "p50_ms": 1.7, "p99_ms": 30.64, "max_ms": 114.9},
	 "lag": {"count": 154, "errors": 0, "p50_ms": 80, "p99_ms": 151.1, "max_ms": 300}, "lag_unseen": 0,
	 "read": {"count": 11281, "errors": 0, "p50_ms": 5, "p99_ms": 40.4, "max_ms": 90}}`
	l := &loadRun{Tables: 200, ServeCPU: 10.01, SimCPU: 4.76, ServeHWM: 120e6, ServeRSS: 100e6}
	if err := json.Unmarshal([]byte(simJSON), &l.Sim); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"==> serve: peak resident memory (VmHWM) 120 MB, resident now 100 MB",
		"==> CPU: serve 10.01 s, sim 4.76 s for 11842 events appended (196.7/s of 200 offered): serve 0.845 s, sim 0.402 s per 1,000 events",
		"==> goal append p99 < 50 ms: 30.6 ms, 0 errors: PASS",
		"==> goal live-audit lag p99 < 1 s: 151.1 ms over 154 hands, 0 unseen, 0 errors: PASS",
		"==> goal read p99 < 100 ms: 40.4 ms over 11281 reads, 0 errors: PASS",
		"==> 200 tables: every goal met",
	}
	if got := l.lines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, c := range []struct {
		name   string
		change func(*livereport.Report)
		failed string
	}{
		{"append p99 at the goal", func(s *livereport.Report) { s.Append.P99 = 50 }, "append p99 < 50 ms: 50 ms, 0 errors"},
		{"an append refused", func(s *livereport.Report) { s.Append.Errors = 1 }, "append p99 < 50 ms: 30.6 ms, 1 errors"},
		{"a hand never seen audited", func(s *livereport.Report) { s.LagUnseen = 2 }, "live-audit lag p99 < 1 s: 151.1 ms over 154 hands, 2 unseen"},
		{"no hand ended", func(s *livereport.Report) { s.Lag.Count = 0 }, "live-audit lag p99 < 1 s: 151.1 ms over 0 hands"},
		{"reads slow", func(s *livereport.Report) { s.Read.P99 = 123.44 }, "read p99 < 100 ms: 123.4 ms over 11281 reads"},
	} {
		m := *l
		c.change(&m.Sim)
		if m.allMet() {
			t.Errorf("%s: every goal met", c.name)
		}
		if f := strings.Join(m.failed(), "; "); len(m.failed()) != 1 || !strings.Contains(f, c.failed) {
			t.Errorf("%s: failed %q, want one goal with %q", c.name, f, c.failed)
		}
		if got := m.lines()[5]; got != "==> 200 tables: NOT every goal met" {
			t.Errorf("%s: %q", c.name, got)
		}
	}
}

// A number of tables the budget cannot hold is left out with one line saying why, without
// starting anything.
func TestMeasureLoadsLeavesOutWhatTheBudgetCannotHold(t *testing.T) {
	cfg, err := parseFlags([]string{"-load-tables", "50,100", "-load-duration", "30s", "-fechado", "/nonexistent/fechado"})
	if err != nil {
		t.Fatal(err)
	}
	w := &wholeProcess{cfg: cfg}
	w.measureLoads(context.Background(), time.Now().Add(time.Minute), nil)
	if len(w.loads.Runs) != 0 || w.loads.Err != nil {
		t.Fatalf("loads %+v", w.loads)
	}
	// 30 s of load and 30 s of serve's start and stop, times the margin 1.3: 78 s.
	want := "live tables: 50, 100 tables and more left out, about 1m18s estimated a size"
	if len(w.notes) != 1 || !strings.HasPrefix(w.notes[0], want) {
		t.Errorf("notes %q, want one starting %q", w.notes, want)
	}
	rep := &report{cfg: cfg, Whole: w}
	if row := md(rep.loadRow); !strings.Contains(row, "missing: see \"Left out\"") {
		t.Errorf("summary row %q", row)
	}
	// Once a size ran, the next is estimated from its whole time.
	w.loads.Runs = []*loadRun{{Wall: 100 * time.Second}}
	if got := w.loadEstimate(); got != 130*time.Second {
		t.Errorf("estimate after a load of 100 s: %v, want 2m10s", got)
	}
	if _, err := parseFlags([]string{"-load-tables", "100,50"}); err == nil {
		t.Error("-load-tables that do not ascend accepted")
	}
}

// The summary gives the largest number of tables that met every goal and what the next size
// missed, against the 1,000 tables issue 43 asks for; the table gives every size.
func TestLoadSummaryRowAndTable(t *testing.T) {
	cfg, err := parseFlags([]string{"-load-tables", "500,1000,2000"})
	if err != nil {
		t.Fatal(err)
	}
	ok := func(tables int) *loadRun {
		return &loadRun{Tables: tables, ServeCPU: 50, SimCPU: 20, ServeHWM: 300e6, LoadAfter: "2.0 1.9 1.8", Sim: livereport.Report{
			Tables: tables, PaceMS: 2000, Seconds: 150, Hands: tables,
			Append: livereport.Figures{Count: 10000, P50: 2, P99: 20}, Lag: livereport.Figures{Count: tables, P50: 100, P99: 400}, Read: livereport.Figures{Count: 5000, P50: 10, P99: 60}}}
	}
	slow := ok(1000)
	slow.Sim.Read.P99 = 180
	w := &wholeProcess{cfg: cfg, loads: &loadSteps{Runs: []*loadRun{ok(500), slow}, Stopped: "2,000 tables not run: 1000 tables already missed a goal"}}
	rep := &report{cfg: cfg, Whole: w}
	wantInReport(t, md(rep.loadRow),
		"| **500 tables**: append p99 20.0 ms, lag p99 400 ms, read p99 60.0 ms; serve 300 MB peak, 5.000 s of CPU per 1,000 events |",
		"| at 1,000 tables: read p99 < 100 ms: 180 ms over 5000 reads, 0 errors (serve 50.0 s of CPU in 150 s, load average 2.0 1.9 1.8) |",
		"target 1,000 tables on 2 cores (issue 43): **not met** |")
	wantInReport(t, md(rep.loadTable),
		"| 500 | 10,000 (250) | 2.0 | 20.0 | 500 | 100 | 400 | 10.0 | 60.0 | 50.0 (5.000) | 20.0 | 300 | 2.0 1.9 1.8 | all met |",
		"| 1,000 | 10,000 (500) |", "**not met**: read p99 < 100 ms: 180 ms",
		"- 2,000 tables not run: 1000 tables already missed a goal.")
	if v, _ := parseBench(rep.raw()).get("BenchmarkCmd/live/tables=1000").median("read-p99-ms"); v != 180 {
		t.Errorf("raw read p99 at 1,000 tables: %v", v)
	}
	// Every size meeting the goals up to 1,000 tables meets the target.
	w.loads = &loadSteps{Runs: []*loadRun{ok(500), ok(1000)}}
	wantInReport(t, md(rep.loadRow), "**1,000 tables**", "every size tried met the three goals", "(issue 43): met |")
}

// The API is read at the first size and at the largest only; the summary gives the slowest
// endpoint's p99 and serve's and the server's peak memory there against the first size's.
func TestAPIAndMemorySummaryRows(t *testing.T) {
	cfg, err := parseFlags([]string{"-sizes", "10000,100000,1000000"})
	if err != nil {
		t.Fatal(err)
	}
	for n, want := range map[int]bool{10000: true, 100000: false, 1000000: true} {
		if cfg.apiAt(n) != want {
			t.Errorf("API read at %d hands: %v", n, !want)
		}
	}
	api := func(worst float64, serve int64) *apiTimes {
		return &apiTimes{Clients: 20, Seconds: 60, Requests: 6000, ServeIdleHWM: serve / 2, ServeMaxRSS: serve, Endpoints: []apiEndpoint{
			{Name: "GET /api/hands", Count: 100, P50: 3, P99: 9}, {Name: "GET /api/players", Count: 100, P50: 20, P99: worst}, {Name: "GET /metrics", Count: 100, P50: 1, P99: 2}}}
	}
	w := &wholeProcess{cfg: cfg, sizes: []*size{
		{Nominal: 10000, Hands: 10000, API: api(40, 100e6), Server: &run{MaxRSS: 105e6}},
		{Nominal: 1000000, Hands: 1007784, API: api(99.5, 450e6), Server: &run{MaxRSS: 691e6}},
	}}
	rep := &report{cfg: cfg, Whole: w}
	wantInReport(t, md(rep.apiRow),
		"at 1,007,784 hands | `GET /api/players`: p99 99.5 ms (median 20.0 ms); 6,000 requests, 0 errors; target every endpoint under 100 ms (issue 43): met | the same at 10,000 hands: `GET /api/players`, p99 40.0 ms | 2.49× the time |")
	wantInReport(t, md(rep.memoryRow),
		"at 1,007,784 hands | serve 225 MB idle, 450 MB under the clients; the server 691 MB; target both under 500 MB (issue 43): **not met** | at 10,000 hands: serve 50 MB idle, 100 MB under the clients; the server 105 MB | serve ×4.50, the server ×6.58 |")
	// An endpoint that only failed is the worst, whatever the others' times.
	w.sizes[1].API.Endpoints[0] = apiEndpoint{Name: "GET /api/hands", Errors: 3}
	wantInReport(t, md(rep.apiRow), "`GET /api/hands`: p99 0.0 ms", "3 errors", "(issue 43): **not met**")
	w.sizes[1].Server.MaxRSS = 400e6
	wantInReport(t, md(rep.memoryRow), "(issue 43): met")
}

// The load rises through -load-tables and stops at the first number that misses a goal, the
// numbers after it named as not run; a load that fails to run stops it too, and says so.
func TestMeasureLoadsStopsAtTheFirstMiss(t *testing.T) {
	cfg, err := parseFlags([]string{"-load-tables", "10,20,30,40", "-load-duration", "1s", "-load-pace", "500ms", "-load-readers", "3"})
	if err != nil {
		t.Fatal(err)
	}
	var asked []loadConfig
	fake := func(readP99 map[int]float64, failAt int) func(context.Context, loadConfig, io.Writer) (*loadRun, error) {
		return func(_ context.Context, c loadConfig, _ io.Writer) (*loadRun, error) {
			asked = append(asked, c)
			if c.tables == failAt {
				return nil, errors.New("serve did not answer")
			}
			return &loadRun{Tables: c.tables, Wall: 2 * time.Second, Sim: livereport.Report{Tables: c.tables, PaceMS: 500, Seconds: 1,
				Append: livereport.Figures{Count: 100, P99: 10}, Lag: livereport.Figures{Count: 5, P99: 200}, Read: livereport.Figures{Count: 50, P99: readP99[c.tables]}}}, nil
		}
	}
	w := &wholeProcess{cfg: cfg, loadRunner: fake(map[int]float64{10: 20, 20: 60, 30: 150, 40: 20}, 0)}
	w.measureLoads(context.Background(), time.Now().Add(time.Hour), io.Discard)
	if len(asked) != 3 || len(w.loads.Runs) != 3 {
		t.Fatalf("%d loads asked, %d runs: want 3, the last the first to miss", len(asked), len(w.loads.Runs))
	}
	for i, c := range asked {
		if c.tables != cfg.loadTables[i] || c.pace != 500*time.Millisecond || c.duration != time.Second || c.readers != 3 || !c.auth ||
			c.dir != filepath.Join(cfg.work, fmt.Sprintf("load-%d", c.tables)) {
			t.Errorf("load %d: %+v", i, c)
		}
	}
	if w.loads.Stopped != "40 tables not run: 30 tables already missed a goal" || w.loads.Err != nil {
		t.Errorf("stopped %q, err %v", w.loads.Stopped, w.loads.Err)
	}
	rep := &report{cfg: cfg, Whole: w}
	wantInReport(t, md(rep.loadRow), "**20 tables**", "at 30 tables: read p99 < 100 ms: 150 ms")
	wantInReport(t, md(rep.leftOut), "- live tables: 40 tables not run: 30 tables already missed a goal.")

	asked = nil
	w = &wholeProcess{cfg: cfg, loadRunner: fake(map[int]float64{10: 20}, 20)}
	w.measureLoads(context.Background(), time.Now().Add(time.Hour), io.Discard)
	if len(asked) != 2 || len(w.loads.Runs) != 1 || w.loads.ErrAt != 20 || w.loads.Err == nil {
		t.Fatalf("a load that failed: %d asked, %+v", len(asked), w.loads)
	}
	rep = &report{cfg: cfg, Whole: w}
	wantInReport(t, md(rep.loadRow), "**10 tables**", "at 20 tables the load failed: serve did not answer")
	wantInReport(t, md(rep.loadTable), "- 20 tables: **failed**: serve did not answer")
}

// The estimate of the largest size holds the API's reads there: the clients' fixed time and
// serve's start, which grows with the log as it did at the size before.
func TestEstimateHoldsTheAPIAtTheLargestSize(t *testing.T) {
	full := func(apiSeconds string) time.Duration {
		cfg, err := parseFlags([]string{"-sizes", "1000,2000,4000", "-table-hands", "1000", "-margin", "1", "-api-seconds", apiSeconds})
		if err != nil {
			t.Fatal(err)
		}
		w := &wholeProcess{cfg: cfg, tables: make([]*table, 1), simHands: 1000}
		prev := &size{Hands: 1000, RecordedHands: 1000, Audit: &run{Wall: time.Second},
			API: &apiTimes{}, APIRun: &run{Wall: 65 * time.Second}}
		f, _ := w.estimate(prev, 4000, 4)
		return f
	}
	// 60 s of clients, and serve's 5 s start at 1,000 hands four times over at 4,000.
	if got := full("60") - full("0"); got != 80*time.Second {
		t.Errorf("the API's share of the estimate: %v, want 1m20s", got)
	}
}
