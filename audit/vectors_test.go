package audit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/testfiles"
)

func auditFile(t testing.TB, path string) []finding.Finding {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []finding.Finding
	a := New(func(f finding.Finding) { out = append(out, f) })
	if _, err := AuditReader(a, events.NewReader(f, filepath.Base(path))); err != nil {
		t.Fatal(err)
	}
	a.Close()
	return out
}

// The vectors of an independent implementation: an exact auditor reports exactly what
// vectors/README.md lists (the .expect.json files; none for the others).
func TestVectors(t *testing.T) {
	files, _ := filepath.Glob(testfiles.Path("vectors", "*.jsonl"))
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(strings.TrimSuffix(name, ".jsonl"), func(t *testing.T) {
			type exp struct {
				Code     finding.Code     `json:"code"`
				Seq      events.Seq       `json:"seq"`
				Severity finding.Severity `json:"severity"`
			}
			var want struct{ Findings []exp }
			if b, err := os.ReadFile(strings.TrimSuffix(path, ".jsonl") + ".expect.json"); err == nil {
				if err := json.Unmarshal(b, &want); err != nil {
					t.Fatal(err)
				}
			}
			var got []exp
			for _, f := range auditFile(t, path) {
				got = append(got, exp{f.Code, f.Seq, f.Severity})
				t.Logf("%s", f.JSON())
			}
			sort.Slice(got, func(i, j int) bool { return got[i].Seq < got[j].Seq })
			if len(got) != len(want.Findings) {
				t.Fatalf("got %d findings %v, want %v", len(got), got, want.Findings)
			}
			for i := range got {
				if got[i] != want.Findings[i] {
					t.Errorf("finding %d = %v, want %v", i, got[i], want.Findings[i])
				}
			}
		})
	}
}

// testLogs returns the logs the differential tests audit: those of every audit script case
// (written by the scripts under SCRIPT_DUMP into a temporary folder), the example vectors and
// testdata/logs.
func testLogs(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txt"))
	for _, path := range files {
		sub := filepath.Join(dir, strings.TrimSuffix(filepath.Base(path), ".txt"))
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		t.Setenv("SCRIPT_DUMP", sub)
		for _, c := range readScript(t, path).cases {
			runCase(t, c)
		}
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "*", "*.jsonl"))
	if len(logs) < 100 {
		t.Fatalf("only %d script logs", len(logs))
	}
	vectors, _ := filepath.Glob(testfiles.Path("vectors", "*.jsonl"))
	own, _ := filepath.Glob(filepath.Join("testdata", "logs", "*.jsonl"))
	return append(append(logs, vectors...), own...)
}
