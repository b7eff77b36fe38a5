package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// sim --live's report is read here as liveReport, a copy of cmd/fechado's LiveReport (two
// commands cannot share a type). testdata/live-report.json holds every field of the report with
// a value: cmd/fechado's TestLiveReportKeysAsBenchreportReadsThem checks that LiveReport writes
// exactly its keys, and this test that liveReport reads every one of them and nothing is lost, so
// a field renamed or added on one side fails a test instead of reading as zero in BENCHMARKS.md.
func TestLiveReportReadsEveryFieldSimWrites(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("testdata", "live-report.json"))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(want))
	dec.DisallowUnknownFields()
	var rep liveReport
	if err := dec.Decode(&rep); err != nil {
		t.Fatalf("benchreport does not read a key sim --live writes: %v", err)
	}
	got, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	if err := json.Unmarshal(want, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &b); err != nil {
		t.Fatal(err)
	}
	if ja, jb := mustJSON(t, a), mustJSON(t, b); ja != jb {
		t.Errorf("read and written again, the report lost or changed a value:\nsim:         %s\nbenchreport: %s", ja, jb)
	}
}

// mustJSON writes v with sorted keys (encoding/json sorts a map's keys).
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
