//go:build unix

package audit

import (
	"bytes"
	"slices"
	"testing"

	"github.com/fechado/fechado/events"
)

// BenchmarkSpreadFiles audits the log named by $FECHADO_BENCH_FILE (a room, say: `fechado sim
// --room --players 300 --tables 50 --hands 20000 --seed 5`) cut into one file per table, held
// in memory, as `fechado audit FILE…` does: on one Auditor (AuditReader over the files in turn,
// `--workers 1`), and spread by whole files over 2 workers (`--workers 2`); and, apart, the ids'
// check the deliverer of a spread by files makes (events.IDs over every id, in the log's order).
// cpu-ns/op is the CPU of an op, the figure a shared machine lets one compare; the share of the
// bytes of the busiest worker is reported too (the files as the workers took them).
func BenchmarkSpreadFiles(b *testing.B) {
	_, log := benchFile(b)
	var files []File
	at := map[string]int{}
	var ids [][]byte
	for l := range bytes.Lines(log) {
		_, table, id, ok := envelopeOf(bytes.TrimSuffix(l, []byte("\n")))
		if !ok {
			b.Fatal("a line names no table")
		}
		ids = append(ids, id)
		i, seen := at[string(table)]
		if !seen {
			i = len(files)
			at[string(table)] = i
			files = append(files, File{Name: string(table)})
		}
		files[i].Bytes = append(files[i].Bytes, l...)
	}
	run := func(name string, fn func(b *testing.B)) { runCPU(b, name, len(log), fn) }
	run("one", func(b *testing.B) {
		a := New(nil)
		for _, f := range files {
			if _, err := AuditReader(a, events.NewReaderBytes(f.Bytes, f.Name, nil)); err != nil {
				b.Fatal(err)
			}
		}
		a.Close()
	})
	run("ids", func(b *testing.B) {
		var set events.IDs
		for _, id := range ids {
			if set.Seen(id) {
				b.Fatal("an id used twice")
			}
		}
	})
	run("files=2", func(b *testing.B) {
		a := New(nil)
		s := Spread[int]{Workers: 2, Worker: func(*Auditor, func(int)) {}, Deliver: func(int) {}}
		if _, err := s.Audit(a, files); err != nil {
			b.Fatal(err)
		}
		a.Close()
		if !s.byFiles {
			b.Fatal("the spread by files went on by tables or was given up")
		}
		b.ReportMetric(float64(slices.Max(s.fileBytes))/float64(len(log)), "busiest-share")
	})
}
