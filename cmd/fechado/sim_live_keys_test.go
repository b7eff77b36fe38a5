package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// benchreport (make bench, make load) reads sim --live's report with a copy of LiveReport of
// its own. The keys LiveReport writes, every field set, must be those of
// internal/benchreport/testdata/live-report.json, which benchreport's
// TestLiveReportReadsEveryFieldSimWrites reads strictly: a field added, renamed or dropped here
// fails one of the two tests until both sides agree.
func TestLiveReportKeysAsBenchreportReadsThem(t *testing.T) {
	var rep LiveReport
	fill(t, reflect.ValueOf(&rep).Elem())
	got, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("..", "..", "internal", "benchreport", "testdata", "live-report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if gk, wk := jsonKeys("", g), jsonKeys("", w); !slices.Equal(gk, wk) {
		t.Errorf("sim --live writes keys %v,\nbenchreport's copy reads %v", gk, wk)
	}
}

// fill gives every field of v a value that is not its zero, so that omitempty keys are written.
func fill(t *testing.T, v reflect.Value) {
	t.Helper()
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			fill(t, v.Field(i))
		}
	case reflect.Int, reflect.Int64:
		v.SetInt(1)
	case reflect.Float64:
		v.SetFloat(1)
	case reflect.String:
		v.SetString("x")
	default:
		t.Fatalf("fill: a field of kind %s: teach fill (and benchreport's copy) about it", v.Kind())
	}
}

// jsonKeys lists the paths of every key of a decoded JSON object, sorted.
func jsonKeys(prefix string, v any) []string {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	var keys []string
	for k, x := range m {
		keys = append(keys, prefix+k)
		keys = append(keys, jsonKeys(prefix+k+".", x)...)
	}
	slices.Sort(keys)
	return keys
}
