package audit

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/eventfiles"
	"github.com/fechado/fechado/internal/testfiles"
)

// benchLog writes the four table vectors repeated reps times to a file in dir, each repetition
// with fresh hand and event ids and its own table names, the prev chain re-sealed, and returns
// the file and its number of hands.
func benchLog(tb testing.TB, dir string, reps int) (string, int) {
	tb.Helper()
	var base []*events.Event
	for _, name := range []string{"table-br-fechado.jsonl", "table-br-online.jsonl", "table-tr-kapali.jsonl", "table-std-draw.jsonl"} {
		base = append(base, eventfiles.Read(tb, testfiles.Path("vectors", name), 0)...)
	}
	path := filepath.Join(dir, "bench.jsonl")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriter(f)
	hands := 0
	n := 0
	for r := range reps {
		ids := map[string]string{}
		prev := map[string]string{}
		for _, e := range base {
			c := *e
			h, ok := ids[e.Table+e.Hand]
			if !ok {
				h = fmt.Sprintf("00000000-0000-4000-8000-%012d", len(ids)+r*100)
				ids[e.Table+e.Hand] = h
				hands++
			}
			n++
			c.Hand, c.Table = h, fmt.Sprintf("%s-%d", e.Table, r)
			c.ID = fmt.Sprintf("00000000-0000-7000-8000-%012d", n)
			if hs, ok := e.Data.(*events.HandStarted); ok && hs.Previous != nil {
				cp := *hs
				cp.Previous = nil
				c.Data = &cp
			}
			events.Seal(&c, prev[h])
			prev[h] = events.Hash(c.Raw)
			w.Write(c.Raw)
			w.WriteByte('\n')
		}
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	f.Close()
	return path, hands
}

func auditPath(tb testing.TB, path string) *Auditor {
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	a := New(nil)
	if _, err := AuditReader(a, events.NewReader(f, path)); err != nil {
		tb.Fatal(err)
	}
	a.Close()
	return a
}

// BenchmarkAuditFile audits a file of the table vectors repeated with fresh ids (2,400 hands of
// the four presets), as `fechado audit FILE` does, and reports hands/s.
func BenchmarkAuditFile(b *testing.B) {
	path, hands := benchLog(b, b.TempDir(), 100)
	if a := auditPath(b, path); a.Findings != 0 || a.Hands != hands {
		b.Fatalf("the bench log audits with %d findings, %d of %d hands", a.Findings, a.Hands, hands)
	}
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	b.ResetTimer()
	for b.Loop() {
		auditPath(b, path)
	}
	b.ReportMetric(float64(hands)*float64(b.N)/b.Elapsed().Seconds(), "hands/s")
}
