package audit

import (
	"fmt"
	"io"
	"os"
	"slices"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
)

// recordTo makes a's callbacks write what they are given to put, one line each: every finding,
// every hand with its findings' count (and whether its state was followed).
func recordTo(a *Auditor, put func(string)) {
	a.Report = func(f finding.Finding) { put("F " + string(f.JSON())) }
	a.Hand = func(h *HandResult) {
		put(fmt.Sprintf("H %s %s %d events %d findings state %v", h.Table, h.Hand, len(h.Events), len(h.Findings), h.State != nil))
	}
	a.HandBorrows = true
}

// tournamentTo makes a's Tournament callback write to out.
func tournamentTo(a *Auditor, out *[]string) {
	a.Tournament = func(h *HandResult) {
		*out = append(*out, fmt.Sprintf("T %s %s %d events %d findings", h.Table, h.Hand, len(h.Events), len(h.Findings)))
	}
}

// oneAuditor audits logs one after the other with one Auditor (AuditReader), as `fechado audit
// --workers 1` does, and returns what its callbacks were given, in order, then its counts.
func oneAuditor(t *testing.T, logs [][]byte) []string {
	t.Helper()
	var out []string
	a := New(nil)
	recordTo(a, func(s string) { out = append(out, s) })
	tournamentTo(a, &out)
	bad := 0
	for i, b := range logs {
		n, err := AuditReader(a, events.NewReaderBytes(b, fmt.Sprint("log", i), nil))
		if err != nil {
			t.Fatal(err)
		}
		bad += n
	}
	a.Close()
	return append(out, fmt.Sprintf("hands %d findings %d errors %d bad %d", a.Hands, a.Findings, a.Errors, bad))
}

// smallRounds makes the rounds of the spreads small until t ends (round bytes, events events), so
// that a small log is read in many rounds and a spread is given up after some were delivered.
func smallRounds(t *testing.T, bytes, events int) {
	round, evs := spreadRound, spreadEvents
	spreadRound, spreadEvents = bytes, events
	t.Cleanup(func() { spreadRound, spreadEvents = round, evs })
}

// spread audits logs as oneAuditor does, on n workers, and says whether the spread was given up.
func spread(t *testing.T, logs [][]byte, n int) ([]string, bool) {
	t.Helper()
	var out []string
	a := New(nil)
	recordTo(a, func(s string) { out = append(out, s) })
	tournamentTo(a, &out)
	files := make([]File, len(logs))
	released, readings := make([]int, len(logs)), make([]int, len(logs))
	for i, b := range logs {
		files[i] = File{Bytes: b, Name: fmt.Sprint("log", i), Release: func(n int) {
			if n < released[i] {
				readings[i]++ // the one Auditor's, once the spread is given up
			}
			// Three readings at most: the spread by files, then by tables (spreadFiles), then
			// one Auditor's.
			if readings[i] > 2 || n > len(b) {
				t.Errorf("log %d: released %d after %d (%d bytes), reading %d", i, n, released[i], len(b), readings[i]+1)
			}
			released[i] = n
		}}
	}
	s := Spread[string]{
		Workers: n,
		Worker:  func(wa *Auditor, put func(string)) { recordTo(wa, put) },
		Deliver: func(v string) { out = append(out, v) },
	}
	bad, err := s.Audit(a, files)
	if err != nil {
		t.Fatal(err)
	}
	spreadRuns = append(spreadRuns, SpreadRun{Workers: n, GaveUp: s.gaveUp, Inlined: s.inlined, ByFiles: s.byFiles, FilesShared: s.files})
	a.Close()
	return append(out, fmt.Sprintf("hands %d findings %d errors %d bad %d", a.Hands, a.Findings, a.Errors, bad)), s.gaveUp
}

// sameSpread fails t unless spreading logs over 2 and 3 workers reports what one Auditor
// reports, in the same order: on 2 workers in rounds of the usual size, on 3 in rounds of 4 KB.
// It says whether a spread was given up.
func sameSpread(t *testing.T, logs ...[]byte) (gaveUp bool) {
	t.Helper()
	return sameSpreadOn(t, []int{2, 3}, logs...)
}

// SpreadRun is what a spread of sameSpreadOn did: on how many workers, whether it was given up,
// and how many events its first worker judged before the others started.
type SpreadRun struct {
	Workers int
	GaveUp  bool
	Inlined int
	// ByFiles: spread by whole files to the end; FilesShared: the spread by files found a
	// table, hand or id in two workers' files and went on by tables.
	ByFiles, FilesShared bool
}

// spreadRuns holds the spreads of the last sameSpreadOn, in order.
var spreadRuns []SpreadRun

// sameSpreadOn is sameSpread on each number of workers of ns.
func sameSpreadOn(t *testing.T, ns []int, logs ...[]byte) (gaveUp bool) {
	t.Helper()
	spreadRuns = nil
	want := oneAuditor(t, logs)
	for _, n := range ns {
		if n == 3 {
			smallRounds(t, 4<<10, 64)
		}
		got, gave := spread(t, logs, n)
		gaveUp = gaveUp || gave
		if !slices.Equal(got, want) {
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Fatalf("%d workers: line %d of %d is\n%s\nwant (one auditor, %d lines)\n%s", n, i, len(got), got[i], len(want), want[i])
				}
			}
			t.Fatalf("%d workers: %d lines, one auditor %d; last:\n%s", n, len(got), len(want), want[len(want)-1])
		}
	}
	return gaveUp
}

// A log spread over workers is audited as one Auditor audits it: the same findings and hands in
// the same order, log by log and all logs as the files of one audit (a table going on from one
// file to the next), over the logs of every audit script case (tampered lines, lines that are
// not events, hands out of order), the example vectors and the test logs.
func TestSpreadReportsAsOneAuditor(t *testing.T) {
	paths := testLogs(t)
	var all [][]byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) == 0 {
			continue
		}
		all = append(all, b)
		sameSpread(t, b)
	}
	sameSpread(t, all...)
}

// decoded returns the events of logs that decode, in order (as a stored log gives them).
func decoded(t *testing.T, logs [][]byte) []*events.Event {
	t.Helper()
	var evs []*events.Event
	for i, b := range logs {
		r := events.NewReaderBytes(b, fmt.Sprint("log", i), nil)
		for {
			e, err := r.Next()
			if err == io.EOF {
				break
			}
			if err == nil {
				evs = append(evs, e)
			}
		}
	}
	return evs
}

// sameSpreadEvents fails t unless the decoded events of logs, spread over 3 workers
// (Spread.AuditEvents), are reported as one Auditor fed them with Add reports them. It says
// whether the spread was given up.
func sameSpreadEvents(t *testing.T, logs ...[]byte) (gaveUp bool) {
	t.Helper()
	var want, got []string
	a := New(nil)
	recordTo(a, func(s string) { want = append(want, s) })
	tournamentTo(a, &want)
	for _, e := range decoded(t, logs) {
		a.Add(e)
	}
	a.Close()
	want = append(want, fmt.Sprintf("hands %d findings %d errors %d", a.Hands, a.Findings, a.Errors))

	b := New(nil)
	recordTo(b, func(s string) { got = append(got, s) })
	tournamentTo(b, &got)
	s := Spread[string]{
		Workers: 3,
		Worker:  func(wa *Auditor, put func(string)) { recordTo(wa, put) },
		Deliver: func(v string) { got = append(got, v) },
	}
	evs := decoded(t, logs)
	if err := s.AuditEvents(b, func(add func(*events.Event)) error {
		for _, e := range evs {
			add(e)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	b.Close()
	got = append(got, fmt.Sprintf("hands %d findings %d errors %d", b.Hands, b.Findings, b.Errors))
	if !slices.Equal(got, want) {
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("decoded events on 3 workers: line %d of %d is\n%s\nwant (one auditor, %d lines)\n%s", i, len(got), got[i], len(want), want[i])
			}
		}
		t.Fatalf("decoded events on 3 workers: %d lines, one auditor %d", len(got), len(want))
	}
	return s.gaveUp
}

// Decoded events, as the stored log gives them to `fechado audit --all`, spread over workers
// are reported as one Auditor reports them: every script case, vector and test log together.
func TestSpreadEventsReportsAsOneAuditor(t *testing.T) {
	var all [][]byte
	for _, p := range testLogs(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b)
	}
	sameSpreadEvents(t, all...)
}
