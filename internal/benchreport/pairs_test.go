package main

import (
	"context"
	"strings"
	"testing"
)

// Two commands timed in turn give one ratio per pair, and a command that does a great deal more
// work than the other shows as a CPU ratio far from 1 in the right direction.
func TestPairsTimeTheCommandsInTurn(t *testing.T) {
	busy := `i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done`
	p, err := timePairs(context.Background(), "true", busy, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.A) != 3 || len(p.B) != 3 || len(p.cpuRatios()) != 3 || len(p.wallRatios()) != 3 {
		t.Fatalf("3 pairs counted, got %d, %d, %d, %d", len(p.A), len(p.B), len(p.cpuRatios()), len(p.wallRatios()))
	}
	for i, r := range p.cpuRatios() {
		if !(r < 0.5) {
			t.Errorf("pair %d: `true` took %.3f of a busy loop's CPU (A %v, B %v)", i, r, p.A[i].CPU, p.B[i].CPU)
		}
	}
	var b strings.Builder
	p.print(&b, "true", busy)
	if !strings.Contains(b.String(), "A/B cpu  0.") || !strings.Contains(b.String(), "(medians of 3)") {
		t.Errorf("report:\n%s", b.String())
	}
}

// A command that fails stops the pairs with an error naming it: a ratio of a failed run is no
// figure.
func TestPairsStopAtAFailedCommand(t *testing.T) {
	if _, err := timePairs(context.Background(), "true", "exit 3", 2, 0); err == nil || !strings.Contains(err.Error(), "exit 3") {
		t.Errorf("error %v, want one naming the failed command", err)
	}
}
