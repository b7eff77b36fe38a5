package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/audittest"
	"github.com/fechado/fechado/sim"
)

// auditLog audits a JSON Lines log and returns its findings.
func auditLog(t *testing.T, log string) []finding.Finding {
	t.Helper()
	fs, _ := audittest.Findings(t, []byte(log), "sim")
	return fs
}

func TestSimClean(t *testing.T) {
	for _, preset := range []string{"br-fechado", "br-online", "tr-kapali", "std-draw", "online-draw"} {
		code, out, errOut := fechado("", "sim", "--rules", preset, "--players", "4", "--hands", "30", "--seed", "3", "--expose-rate", "0")
		if code != exitOK || errOut != "" {
			t.Fatalf("%s: exit %d, stderr %q", preset, code, errOut)
		}
		if n := strings.Count(out, `"type":"hand.started"`); n < 5 {
			t.Errorf("%s: %d hands", preset, n)
		}
		for _, f := range auditLog(t, out) {
			t.Errorf("%s: %s", preset, f.JSON())
		}
	}
}

func TestSimDeterministic(t *testing.T) {
	args := []string{"sim", "--rules", "tr-kapali", "--players", "5", "--hands", "20", "--seed", "9", "--table", "t-9"}
	_, a, _ := fechado("", args...)
	_, b, _ := fechado("", args...)
	if a != b || a == "" {
		t.Fatal("the same seed gave different output")
	}
	if !strings.Contains(a, `"table":"t-9"`) {
		t.Error("--table not used")
	}
	_, c, _ := fechado("", "sim", "--rules", "tr-kapali", "--players", "5", "--hands", "20", "--seed", "10", "--table", "t-9")
	if a == c {
		t.Error("seeds 9 and 10 gave the same output")
	}
}

func TestSimOutAndAudit(t *testing.T) {
	file := filepath.Join(t.TempDir(), "corpus.jsonl")
	code, out, errOut := fechado("", "sim", "--rules", "br-fechado", "--players", "5", "--hands", "120", "--seed", "4",
		"--inject", "all", "--out", file)
	if code != exitOK || out != "" || errOut != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	codes := map[finding.Code]bool{}
	for _, f := range auditLog(t, string(b)) {
		codes[f.Code] = true
	}
	if len(codes) < 25 {
		t.Errorf("a corpus with every code injected shows only %d codes: %v", len(codes), codes)
	}
	// The audit command agrees: at least one error, exit 1.
	if code, _, _ := fechado("", "audit", "--json", file); code != exitFindings {
		t.Errorf("audit of the corpus: exit %d, want %d", code, exitFindings)
	}
}

func TestSimInjectOne(t *testing.T) {
	code, out, _ := fechado("", "sim", "--rules", "std-draw", "--players", "4", "--hands", "10", "--inject", "pot.side")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	hands := strings.Count(out, `"type":"hand.started"`)
	n := 0
	for _, f := range auditLog(t, out) {
		switch {
		case f.Code == finding.PotSide:
			n++
		case f.Severity == finding.Error:
			t.Errorf("other error: %s", f.JSON())
		}
	}
	if n == 0 || n > hands {
		t.Errorf("%d pot.side findings in %d hands", n, hands)
	}
}

func TestSimUsage(t *testing.T) {
	for _, args := range [][]string{
		{"sim"},
		{"sim", "--rules", "br-fechado", "--players", "4"},
		{"sim", "--rules", "nope", "--players", "4", "--hands", "1"},
		{"sim", "--rules", "br-online", "--players", "6", "--hands", "1"},
		{"sim", "--rules", "br-fechado", "--players", "4", "--hands", "1", "--inject", "no.such"},
		{"sim", "--rules", "br-fechado", "--players", "4", "--hands", "1", "--inject", "blind.amount"},
		{"sim", "--rules", "br-fechado", "--players", "4", "--hands", "1", "--inject", "open.false-opener-paid"},
		{"sim", "--rules", "br-fechado", "--players", "4", "--hands", "1", "--stack", "-5"},
		{"sim", "--rules", "br-fechado", "--players", "4", "--hands", "1", "extra"},
	} {
		code, out, errOut := fechado("", args...)
		if code != exitUsage || errOut == "" || (out != "" && !strings.HasPrefix(out, "Usage:")) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

func TestSimHelpNamesTheCodesItCannotInject(t *testing.T) {
	code, out, _ := fechado("", "sim", "--help")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	for c := range sim.NotInjectable {
		if !strings.Contains(out, string(c)) {
			t.Errorf("--help does not name %s", c)
		}
	}
}

func TestSimPublish(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := fechado("", "sim", "--rules", "std-draw", "--players", "3", "--hands", "3", "--publish", "--data", dir)
	if code != exitOK || out != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	_, want, _ := fechado("", "sim", "--rules", "std-draw", "--players", "3", "--hands", "3")
	code, got, errOut := fechado("", "audit", "--json", "--all", "--data", dir)
	if code != exitOK || got != "" {
		t.Fatalf("audit of the stored log: exit %d, stdout %q, stderr %q", code, got, errOut)
	}
	t.Logf("%s", errOut)
	if !strings.Contains(errOut, "3 hands") {
		t.Errorf("audit summary %q: want 3 hands audited", errOut)
	}
	// The stored events are the bytes the simulator writes.
	if !strings.Contains(want, `"type":"hand.ended"`) {
		t.Fatal("no hand simulated")
	}
}

// A table that stops before its hands are played says so on standard error, and why (issue 45:
// br-fechado with 6 players and 2000 hands wrote 43 and said nothing).
func TestSimSaysWhyATableStoppedEarly(t *testing.T) {
	file := filepath.Join(t.TempDir(), "t.jsonl")
	code, _, errOut := fechado("", "sim", "--rules", "br-fechado", "--players", "6", "--hands", "2000", "--out", file)
	b, err := os.ReadFile(file)
	if err != nil || code != exitOK {
		t.Fatalf("exit %d: %v %s", code, err, errOut)
	}
	n := strings.Count(string(b), `"type":"hand.started"`)
	if n >= 2000 {
		t.Fatalf("%d hands: the table did not stop early, the test proves nothing", n)
	}
	want := fmt.Sprintf("stopped after %d of 2,000 hands: ", n)
	if !strings.Contains(errOut, want) || !strings.Contains(errOut, "holds every chip") {
		t.Errorf("stderr %q, want %q", errOut, want)
	}
	_, _, errOut = fechado("", "sim", "--rules", "br-fechado", "--players", "6", "--hands", "2000", "--out", file, "--lang", "tr")
	if !strings.Contains(errOut, fmt.Sprintf("2.000 elden %d el sonra durdu", n)) {
		t.Errorf("tr: %q", errOut)
	}
	// A table that plays every hand says nothing.
	if _, _, errOut := fechado("", "sim", "--rules", "br-fechado", "--players", "6", "--hands", "10", "--out", file); errOut != "" {
		t.Errorf("10 hands: stderr %q", errOut)
	}
}

// The same seed at two tables plays the same game but shares no hand or event id: recorded
// together, the two logs are two tables (issue 45: they made the projector quarantine them).
func TestSimTablesOfOneSeedShareNoID(t *testing.T) {
	ids := map[string]string{}
	for _, table := range []string{"X", "Y"} {
		code, out, errOut := fechado("", "sim", "--rules", "std-draw", "--players", "4", "--hands", "15", "--seed", "5", "--table", table)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			var e struct{ ID, Hand string }
			if err := json.Unmarshal([]byte(l), &e); err != nil {
				t.Fatal(err)
			}
			for _, id := range []string{e.ID, e.Hand} {
				if other, ok := ids[id]; ok && other != table {
					t.Fatalf("id %s is at tables %s and %s", id, other, table)
				}
				ids[id] = table
			}
		}
	}
	if len(ids) < 100 {
		t.Fatalf("%d ids", len(ids))
	}
}
