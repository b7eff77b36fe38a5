package audit

import (
	"bytes"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/testfiles"
)

// withDeepData returns line with its payload replaced by n nested arrays (about 2n bytes).
func withDeepData(line []byte, n int) []byte {
	i := bytes.Index(line, []byte(`"data":`)) + len(`"data":`)
	return append(append(bytes.Clone(line[:i]), strings.Repeat("[", n)...), strings.Repeat("]", n)+"}"...)
}

// A line over an input limit (docs/events.md, "Input limits") is one log.schema finding at its
// place, the rest of the log is audited, and refusing it costs bounded memory: a line nested
// 500,000 deep (under MaxLineSize: the decoder refuses it at the 65th level) and one nested
// 4,000,000 deep (8 MB: read past without being kept).
func TestAuditLineOverLimitsIsLogSchema(t *testing.T) {
	b, err := os.ReadFile(testfiles.Path("vectors", "table-std-draw.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
	lines[2] = withDeepData(lines[2], 500_000)
	lines[len(lines)-3] = withDeepData(lines[len(lines)-3], 4_000_000)
	in := append(bytes.Join(lines, []byte("\n")), '\n')
	var got []finding.Finding
	a := New(func(f finding.Finding) { got = append(got, f) })
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	bad, err := AuditReader(a, events.NewReader(bytes.NewReader(in), "deep.jsonl"))
	a.Close()
	runtime.ReadMemStats(&m1)
	if err != nil || bad != 2 {
		t.Fatalf("AuditReader: %d bad lines, %v", bad, err)
	}
	var schema []string
	for _, f := range got {
		if f.Code == finding.LogSchema {
			schema = append(schema, f.Message)
		}
	}
	if len(schema) != 2 || !strings.Contains(schema[0], "deep.jsonl:3: data: nested too deep") ||
		!strings.Contains(schema[1], "line too long: 8000") {
		t.Fatalf("log.schema findings %q", schema)
	}
	if a.Hands == 0 {
		t.Error("no hand audited")
	}
	alloc := m1.TotalAlloc - m0.TotalAlloc
	t.Logf("auditing %d MB with both lines allocated %.1f MiB", len(in)>>20, float64(alloc)/(1<<20))
	if alloc > 64<<20 {
		t.Errorf("allocated %d MiB", alloc>>20)
	}
}
