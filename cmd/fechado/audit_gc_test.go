package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestAuditGC checks that an audit raises the collector's target and sets its soft ceiling, puts
// back the settings it found when done, and leaves them alone when GOGC or GOMEMLIMIT is set.
func TestAuditGC(t *testing.T) {
	percent := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(math.MaxInt64)
	defer func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}()
	noEnv := func(string) string { return "" }
	restore := auditGC(noEnv)
	if got := debug.SetGCPercent(-1); got != auditGCPercent {
		t.Errorf("during an audit the GC percent is %d, want %d", got, auditGCPercent)
	}
	debug.SetGCPercent(auditGCPercent)
	if got := debug.SetMemoryLimit(-1); got != auditMemoryLimit {
		t.Errorf("during an audit the memory limit is %d, want %d", got, auditMemoryLimit)
	}
	restore()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("after an audit the GC percent is %d, want 100 back", got)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("after an audit the memory limit is %d, want no limit back", got)
	}
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		set := func(k string) string {
			if k == env {
				return "200"
			}
			return ""
		}
		restore := auditGC(set)
		if got := debug.SetGCPercent(100); got != 100 {
			t.Errorf("with %s set the audit changed the GC percent to %d", env, got)
		}
		if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
			t.Errorf("with %s set the audit changed the memory limit to %d", env, got)
		}
		restore()
	}
}
