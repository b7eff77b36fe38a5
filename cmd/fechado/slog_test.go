package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// --log-format json writes each of project's log lines as one JSON object whose attributes carry
// the figures of the summary; a format it does not know is bad usage.
func TestLogFormatJSON(t *testing.T) {
	data := t.TempDir()
	if code, stderr := projRun(t, "record", "--log-format", "json", "--data", data, vector(t, "table-std-draw.jsonl")); code != exitOK {
		t.Fatalf("record: exit %d: %s", code, stderr)
	}
	code, stderr := projRun(t, "project", "--log-format", "json", "--data", data)
	if code != exitOK {
		t.Fatalf("project: exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	var line struct {
		Level, Msg, Command string
		Events, Hands       int
		Checkpoint          uint64
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &line); err != nil {
		t.Fatalf("the last log line is not JSON: %v: %s", err, stderr)
	}
	if line.Level != "INFO" || line.Command != "project" || line.Events == 0 || line.Hands == 0 ||
		line.Checkpoint != uint64(line.Events) || !projSummary.MatchString(line.Msg) {
		t.Errorf("summary line %+v", line)
	}
	if code, _ := projRun(t, "project", "--log-format", "xml", "--data", data); code != exitUsage {
		t.Errorf("--log-format xml: exit %d, want %d", code, exitUsage)
	}
}
