package audit_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/sim"
)

// roomLog returns the lines of a room's log: cash tables of every preset that allows a session,
// each injecting every code it can in rotation, and a tournament of several tables injecting
// its codes, their events interleaved line by line as tables dealing at once are recorded; then
// lines a broken producer leaves (not JSON, cut short, written twice, after hand.ended), so that
// every path of the Auditor that spans the log is taken.
func roomLog(t *testing.T) [][]byte {
	t.Helper()
	var tables [][]*events.Event
	for i, preset := range []string{"std-draw", "tr-kapali", "br-fechado", "online-draw"} {
		s, err := sim.New(sim.Config{Rules: preset, Players: 5, Hands: 40, Seed: uint64(10 + i), Table: fmt.Sprintf("cash-%d", i),
			Cash: sim.CashAllowed(preset), Inject: sim.InjectableFor(preset)})
		if err != nil {
			t.Fatal(err)
		}
		var evs []*events.Event
		for {
			h, err := s.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			evs = append(evs, h.Events...)
		}
		tables = append(tables, evs)
	}
	ts, err := sim.NewTournament(sim.TournamentConfig{Rules: "std-draw", Entries: 14, Tables: 3, Seed: 7, Inject: sim.TournamentInjectable()})
	if err != nil {
		t.Fatal(err)
	}
	var tour []*events.Event
	for {
		h, err := ts.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		tour = append(tour, h.Events...)
	}
	tables = append(tables, tour)
	var lines [][]byte
	for more := true; more; {
		more = false
		for i := range tables {
			// Two events of a table at a time, so that hands of different tables are open at once.
			for k := 0; k < 2 && len(tables[i]) > 0; k++ {
				lines = append(lines, tables[i][0].Raw)
				tables[i] = tables[i][1:]
				more = true
			}
		}
	}
	n := len(lines)
	broken := [][]byte{lines[n/5], []byte("not json at all"), lines[n/3][:len(lines[n/3])/2], lines[n/2]}
	out := append([][]byte{}, lines[:n/4]...)
	for i, b := range broken {
		out = append(out, b)
		out = append(out, lines[n/4+i*n/8:n/4+(i+1)*n/8]...)
	}
	return append(out, lines[n/4+len(broken)*n/8:]...)
}

// auditOutput is what an audit reports: every finding as JSON and every hand's heading, in order,
// and the counts.
func auditOutput(a *audit.Auditor) *bytes.Buffer {
	var out bytes.Buffer
	a.Report = func(f finding.Finding) {
		out.Write(f.JSON())
		out.WriteByte('\n')
	}
	a.Hand = func(h *audit.HandResult) {
		fmt.Fprintf(&out, "hand %s %s %d events %d findings state %t\n", h.Table, h.Hand, len(h.Events), len(h.Findings), h.State != nil)
	}
	return &out
}

// TestParallelFindingsIdentical proves that an audit spread over several cores reports the same
// findings, byte for byte and in the same order, with the same hands and counts, as the audit on
// one goroutine, on a room of cash tables and a tournament dealing at once, with broken lines,
// split into blocks small enough that every block boundary falls in the middle of hands.
func TestParallelFindingsIdentical(t *testing.T) {
	lines := roomLog(t)
	log := append(bytes.Join(lines, []byte("\n")), '\n')
	path := filepath.Join(t.TempDir(), "room.jsonl")
	if err := os.WriteFile(path, log, 0o644); err != nil {
		t.Fatal(err)
	}
	one := audit.New(nil)
	want := auditOutput(one)
	if _, err := audit.AuditReader(one, events.NewReader(bytes.NewReader(log), path)); err != nil {
		t.Fatal(err)
	}
	one.Close()
	t.Logf("%d hands, %d findings", one.Hands, one.Findings)
	if one.Findings < 50 || one.Hands < 200 || !strings.Contains(want.String(), "tournament.") || !strings.Contains(want.String(), "log.schema") {
		t.Fatalf("the room's log should have many hands and findings of every kind: %d hands, %d findings", one.Hands, one.Findings)
	}
	full := want
	defer func(b int) { *audit.BlockSize = b }(*audit.BlockSize)
	for _, bs := range []int{1 << 20, 4096, 300} {
		for _, n := range []int{1, 2, 3, 8} {
			*audit.BlockSize = bs
			par := audit.New(nil)
			got := auditOutput(par)
			if bs == 4096 {
				// Without a Hand callback the workers renew the rules states the reporter is
				// done with: the findings alone, as --json prints them, are compared.
				par.Hand = nil
				got.Reset()
				want = findingsOnly(want)
			}
			// Split in two files at a line, as `fechado audit A B` reads them: one log.
			cut := bytes.IndexByte(log[len(log)/2:], '\n') + len(log)/2 + 1
			logs := []audit.Log{{R: bytes.NewReader(log[:cut]), Name: path}, {R: bytes.NewReader(log[cut:]), Name: path}}
			if n%2 == 0 { // as a mapped file is read: the bytes themselves
				logs = []audit.Log{{Bytes: log[:cut], Name: path}, {Bytes: log[cut:], Name: path}}
			}
			if _, err := audit.ParallelReaders(par, logs, n); err != nil {
				t.Fatal(err)
			}
			par.Close()
			if par.Hands != one.Hands || par.Findings != one.Findings || par.Errors != one.Errors {
				t.Errorf("block %d, %d workers: %d hands %d findings %d errors; one core: %d %d %d", bs, n, par.Hands, par.Findings, par.Errors, one.Hands, one.Findings, one.Errors)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("block %d, %d workers: the report differs from one core's at byte %d", bs, n, firstDiff(got.Bytes(), want.Bytes()))
			}
			want = full
		}
	}
}

// TestParallelLineNumbers proves that a bad line's finding names its line in the whole file,
// whichever block it was decoded in.
func TestParallelLineNumbers(t *testing.T) {
	lines := roomLog(t)
	log := append(bytes.Join(lines, []byte("\n")), '\n')
	defer func(b int) { *audit.BlockSize = b }(*audit.BlockSize)
	*audit.BlockSize = 500
	a := audit.New(nil)
	got := auditOutput(a)
	if _, err := audit.ParallelReaders(a, []audit.Log{{R: bytes.NewReader(log), Name: "room.jsonl"}}, 2); err != nil {
		t.Fatal(err)
	}
	a.Close()
	for i, l := range lines {
		if string(l) == "not json at all" && !strings.Contains(got.String(), fmt.Sprintf("room.jsonl:%d", i+1)) {
			t.Errorf("no finding names room.jsonl:%d, the line that is not JSON", i+1)
		}
	}
}

// TestParallelSpreadStored proves that Spread alone (the stored log, events decoded elsewhere)
// reports as one goroutine does.
func TestParallelSpreadStored(t *testing.T) {
	lines := roomLog(t)
	feed := func(a *audit.Auditor) {
		for _, l := range lines {
			if e, err := events.Parse(l); err == nil {
				a.Add(e)
			}
		}
		a.Close()
	}
	one := audit.New(nil)
	want := auditOutput(one)
	feed(one)
	par := audit.New(nil)
	got := auditOutput(par)
	par.Spread(runtime.GOMAXPROCS(0) + 1)
	feed(par)
	if !bytes.Equal(got.Bytes(), want.Bytes()) || par.Hands != one.Hands {
		t.Errorf("spread: the report differs from one core's at byte %d", firstDiff(got.Bytes(), want.Bytes()))
	}
}

// findingsOnly returns the lines of an auditOutput that are findings, not hands' headings.
func findingsOnly(b *bytes.Buffer) *bytes.Buffer {
	var out bytes.Buffer
	for line := range bytes.Lines(b.Bytes()) {
		if !bytes.HasPrefix(line, []byte("hand ")) {
			out.Write(line)
		}
	}
	return &out
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// BenchmarkAuditParallel audits the same file of at least 100,000 simulated hands of many tables
// (FECHADO_BENCH_HANDS to change it) on one goroutine as `fechado audit --workers 1` does, and
// spread over every core as `fechado audit` does, and reports hands/s of each: run it with
// -cpu 1,2 to compare one core with two.
func BenchmarkAuditParallel(b *testing.B) {
	want := 100_000
	if s := os.Getenv("FECHADO_BENCH_HANDS"); s != "" {
		fmt.Sscan(s, &want)
	}
	path, hands := simulatedRoom(b, b.TempDir(), want)
	for _, mode := range []string{"one", "spread"} {
		b.Run(mode, func(b *testing.B) {
			for b.Loop() {
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				a := audit.New(nil)
				if mode == "one" {
					_, err = audit.AuditReader(a, events.NewReader(f, path))
				} else {
					_, err = audit.ParallelReaders(a, []audit.Log{{R: f, Name: path}}, runtime.GOMAXPROCS(0))
				}
				a.Close()
				f.Close()
				if err != nil || a.Hands != hands {
					b.Fatalf("%v: %d of %d hands", err, a.Hands, hands)
				}
			}
			b.ReportMetric(float64(hands)*float64(b.N)/b.Elapsed().Seconds(), "hands/s")
		})
	}
}

// simulatedRoom writes std-draw tables of four players, 1,000 hands each, their hands
// interleaved as tables dealing at once are, until the file holds hands hands.
func simulatedRoom(tb testing.TB, dir string, hands int) (string, int) {
	tb.Helper()
	var sims []*sim.Sim
	for k := range max(hands/1000, 1) {
		s, err := sim.New(sim.Config{Rules: "std-draw", Players: 4, Hands: 1000, Seed: uint64(k + 1), Table: fmt.Sprintf("room-%d", k),
			Start: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)})
		if err != nil {
			tb.Fatal(err)
		}
		sims = append(sims, s)
	}
	var buf bytes.Buffer
	n := 0
	for len(sims) > 0 && n < hands {
		live := sims[:0]
		for _, s := range sims {
			h, err := s.Next()
			if err == io.EOF {
				continue
			}
			if err != nil {
				tb.Fatal(err)
			}
			if err := sim.WriteHand(&buf, h); err != nil {
				tb.Fatal(err)
			}
			n++
			live = append(live, s)
		}
		sims = live
	}
	path := filepath.Join(dir, "room.jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path, n
}
