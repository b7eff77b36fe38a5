package audittest_test

import (
	"bytes"
	"testing"

	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/audittest"
	"github.com/fechado/fechado/sim"
)

// A clean simulated log audits without errors and counts every hand; the same log with a line
// that is not an event gives a log.schema finding naming the log (events-v1.md §8).
func TestFindings(t *testing.T) {
	var b bytes.Buffer
	if err := sim.Run(sim.Config{Rules: "br-fechado", Players: 4, Hands: 20, Seed: 3, Table: "t", ExposeRate: -1}, &b); err != nil {
		t.Fatal(err)
	}
	fs, a := audittest.Findings(t, b.Bytes(), "clean")
	for _, f := range fs {
		if f.Severity == finding.Error {
			t.Errorf("clean log: %s", f.JSON())
		}
	}
	if a.Hands != 20 {
		t.Errorf("%d hands audited, want 20", a.Hands)
	}
	fs, _ = audittest.Findings(t, append([]byte("not an event\n"), b.Bytes()...), "bad")
	var schema int
	for _, f := range fs {
		if f.Code == finding.LogSchema {
			schema++
		}
	}
	if schema != 1 {
		t.Errorf("%d log.schema findings for one bad line, want 1", schema)
	}
}
