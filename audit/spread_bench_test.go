package audit

import (
	"fmt"
	"os"
	"testing"

	"github.com/fechado/fechado/events"
)

// BenchmarkSpread audits the file named by $FECHADO_BENCH_FILE (a room of tables dealing at
// once, say: `fechado sim --room --players 300 --tables 50 --hands 20000 --seed 5`), held in
// memory, on one Auditor (AuditReader, as `fechado audit --workers 1`) and spread over 1 and 2
// workers, as `fechado audit --workers N` does: the time of a spread against one Auditor's is its
// speed-up (with GOMAXPROCS cores), its CPU (-cpuprofile) what it costs more.
func BenchmarkSpread(b *testing.B) {
	name, log := benchFile(b)
	b.Run("one", func(b *testing.B) {
		b.SetBytes(int64(len(log)))
		for b.Loop() {
			a := New(nil)
			if _, err := AuditReader(a, events.NewReaderBytes(log, name, nil)); err != nil {
				b.Fatal(err)
			}
			a.Close()
		}
	})
	for _, n := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(log)))
			for b.Loop() {
				a := New(nil)
				s := Spread[int]{Workers: n, Worker: func(*Auditor, func(int)) {}, Deliver: func(int) {}}
				if _, err := s.Audit(a, []File{{Bytes: log, Name: name}}); err != nil {
					b.Fatal(err)
				}
				a.Close()
				if s.gaveUp {
					b.Fatal("the spread was given up")
				}
			}
		})
	}
}

// benchFile reads the log named by $FECHADO_BENCH_FILE into memory, and skips the benchmark when
// it names none: the audit's benchmarks of a spread measure a room the reader gives them.
func benchFile(b *testing.B) (name string, log []byte) {
	name = os.Getenv("FECHADO_BENCH_FILE")
	if name == "" {
		b.Skip("FECHADO_BENCH_FILE names no log")
	}
	log, err := os.ReadFile(name)
	if err != nil {
		b.Fatal(err)
	}
	return name, log
}
