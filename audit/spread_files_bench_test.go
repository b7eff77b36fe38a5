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
// check the deliverer of a spread by files makes, file after file: as it makes it, of the
// fingerprints the workers worked out (ids-keys, events.IDs.SeenKeys), and as it made it before,
// of the ids' strings one after the other (ids-strings, events.IDs.SeenString).
// cpu-ns/op is the CPU of an op, the figure a shared machine lets one compare; the share of the
// bytes of the busiest worker is reported too (the files as the workers took them).
func BenchmarkSpreadFiles(b *testing.B) {
	_, log := benchFile(b)
	var files []File
	at := map[string]int{}
	var ids [][]string // by file
	for l := range bytes.Lines(log) {
		_, table, id, ok := envelopeOf(bytes.TrimSuffix(l, []byte("\n")))
		if !ok {
			b.Fatal("a line names no table")
		}
		i, seen := at[string(table)]
		if !seen {
			i = len(files)
			at[string(table)] = i
			files = append(files, File{Name: string(table)})
			ids = append(ids, nil)
		}
		files[i].Bytes = append(files[i].Bytes, l...)
		ids[i] = append(ids[i], string(id))
	}
	keys := make([]events.IDKeys, len(ids))
	for i, fileIDs := range ids {
		for _, id := range fileIDs {
			keys[i].Add(id)
		}
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
	run("ids-keys", func(b *testing.B) {
		var set events.IDs
		for i := range keys {
			if _, seen := set.SeenKeys(&keys[i]); seen {
				b.Fatal("an id used twice")
			}
		}
	})
	run("ids-strings", func(b *testing.B) {
		var set events.IDs
		for _, fileIDs := range ids {
			for _, id := range fileIDs {
				if set.SeenString(id) {
					b.Fatal("an id used twice")
				}
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
