package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fechado/fechado/internal/livereport"
)

// TestSimLiveLoadReportsMeasuredFigures plays three tables for a few seconds against a serve in
// this process, one event per POST, and checks that the report's figures were measured: events
// appended without an error, hands ended and seen in the read models with their lag, reads made,
// each with percentiles in order; and that progress went to standard error.
func TestSimLiveLoadReportsMeasuredFigures(t *testing.T) {
	url, stop, _, stderr := startServer(t, "serve", "--http", "127.0.0.1:0", "--data", t.TempDir())
	defer stop()
	code, out, errOut := recRun(t, nil, "sim", "--live", "--target", url, "--tables", "3", "--pace", "30ms",
		"--duration", "3s", "--every", "1s", "--readers", "2", "--seed", "5")
	if code != exitOK {
		t.Fatalf("sim --live exited %d: %s\nserve: %s", code, errOut, stderr)
	}
	var rep livereport.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("the report is not JSON: %v\n%s", err, out)
	}
	t.Logf("%+v", rep)
	if rep.Append.Errors != 0 || rep.Lag.Errors != 0 || rep.Read.Errors != 0 {
		t.Errorf("errors: %+v", rep)
	}
	if rep.Append.Count < 30 || rep.Hands < 1 || rep.Lag.Count != rep.Hands-rep.LagUnseen || rep.Lag.Count < 1 || rep.Read.Count < 5 {
		t.Errorf("too little measured in 3 s of 3 tables: %+v", rep)
	}
	for name, f := range map[string]livereport.Figures{"append": rep.Append, "lag": rep.Lag, "read": rep.Read} {
		if !(f.P50 > 0 && f.P50 <= f.P99 && f.P99 <= f.Max) {
			t.Errorf("%s: percentiles not measured or out of order: %+v", name, f)
		}
	}
	if strings.Count(errOut, "load: ") < 2 {
		t.Errorf("no progress on stderr: %q", errOut)
	}
}
