package audit

import (
	"bytes"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/cputime"
)

// runCPU runs fn as the sub-benchmark name over size bytes, and reports its CPU time an op
// (cpu-ns/op): on a shared machine, the figure to compare.
func runCPU(b *testing.B, name string, size int, fn func(b *testing.B)) {
	b.Run(name, func(b *testing.B) {
		b.SetBytes(int64(size))
		c := cputime.Process()
		for b.Loop() {
			fn(b)
		}
		b.ReportMetric(float64(cputime.Process()-c)/float64(b.N), "cpu-ns/op")
	})
}

// BenchmarkRouteAlone measures what every worker would pay if each read the whole log and kept
// its own tables' lines (no reader, no channel of lines): finding the lines, reading their
// envelopes and choosing their workers (route's work without the batches), with and without the
// ids' check, against one Auditor's whole audit of the same log ($FECHADO_BENCH_FILE), with and
// without its ids' check. cpu-ns/op is the CPU time of an op: on a shared machine, the figure to
// compare (BENCHMARKS.md, seventeenth session, "every worker reading the whole log").
func BenchmarkRouteAlone(b *testing.B) {
	name, log := benchFile(b)
	routeAll := func(b *testing.B, ids *events.IDs) {
		rt := newRouter(2)
		var lastHand, lastTable []byte
		last, kept := 0, 0
		for off := 0; off < len(log); {
			end := len(log)
			if k := bytes.IndexByte(log[off:], '\n'); k >= 0 {
				end = off + k
			}
			l := log[off:end]
			if len(l) > 0 {
				hand, table, id, ok := envelopeOf(l)
				w := last
				if ok && (!bytes.Equal(hand, lastHand) || !bytes.Equal(table, lastTable)) {
					w, ok = rt.worker(hand, table)
				}
				if !ok {
					b.Fatal("unsure")
				}
				lastHand, lastTable, last = hand, table, w
				rt.load[w] += len(l)
				if ids != nil {
					ids.Seen(id)
				}
				if w == 0 {
					kept++
				}
			}
			off = end + 1
		}
		if kept == 0 {
			b.Fatal("no line kept")
		}
	}
	run := func(name string, fn func(b *testing.B)) { runCPU(b, name, len(log), fn) }
	run("lines", func(b *testing.B) {
		n := 0
		for off := 0; off < len(log); n++ {
			k := bytes.IndexByte(log[off:], '\n')
			if k < 0 {
				break
			}
			off += k + 1
		}
		if n == 0 {
			b.Fatal("no line")
		}
	})
	run("route", func(b *testing.B) { routeAll(b, nil) })
	// route-fast: a line whose table and hand are the previous line's, byte for byte after its
	// plain id, keeps its worker without its envelope being read (the cheapest routing of a line
	// that still reads every line's start).
	run("route-fast", func(b *testing.B) {
		rt := newRouter(2)
		var env []byte
		last, kept := 0, 0
		for off := 0; off < len(log); {
			end := len(log)
			if k := bytes.IndexByte(log[off:], '\n'); k >= 0 {
				end = off + k
			}
			l := log[off:end]
			off = end + 1
			if len(l) == 0 {
				continue
			}
			w := last
			// The id must be a plain string (no escape) for the bytes after it to be its envelope.
			i := 7 + bytes.IndexByte(l[7:min(len(l), 80)], '"')
			if i < 7 || len(env) == 0 || !bytes.HasPrefix(l, []byte(`{"id":"`)) || bytes.IndexByte(l[7:i], '\\') >= 0 || !bytes.HasPrefix(l[i:], env) {
				hand, table, _, ok := envelopeOf(l)
				if !ok {
					b.Fatal("unsure")
				}
				if w, ok = rt.worker(hand, table); !ok {
					b.Fatal("unsure")
				}
				env = append(append(append(append(env[:0], `","table":"`...), table...), `","hand":"`...), hand...)
				env = append(env, '"')
			}
			last = w
			rt.load[w] += len(l)
			if w == 0 {
				kept++
			}
		}
		if kept == 0 {
			b.Fatal("no line kept")
		}
	})
	run("route+ids", func(b *testing.B) { routeAll(b, &events.IDs{}) })
	run("one", func(b *testing.B) {
		a := New(nil)
		if _, err := AuditReader(a, events.NewReaderBytes(log, name, nil)); err != nil {
			b.Fatal(err)
		}
		a.Close()
	}) // one-without-ids: the same audit without the ids' check, which a worker of a spread leaves
	// to whoever checks them: what is left of the audit to share among the workers.
	run("one-without-ids", func(b *testing.B) {
		a := New(nil)
		a.chain.TrackIDs = false
		if _, err := AuditReader(a, events.NewReaderBytes(log, name, nil)); err != nil {
			b.Fatal(err)
		}
		a.Close()
	})
}

// BenchmarkRoute measures the reader of a spread by tables as it runs (route): the lines of
// $FECHADO_BENCH_FILE found, their ids checked, sent to two workers in rounds as batches whose
// lists come back once read; the workers only give the lists back. cpu-ns/op is the whole
// process's CPU an op, the workers' and the merger's receiving included.
func BenchmarkRoute(b *testing.B) {
	name, log := benchFile(b)
	files := []File{{Bytes: log, Name: name}}
	runCPU(b, "route+ids", len(log), func(b *testing.B) {
		var stop atomic.Bool
		ws := make([]*spreadWorker[int], 2)
		var wg sync.WaitGroup
		lines := make([]int, len(ws))
		for i := range ws {
			w := &spreadWorker[int]{in: make(chan batch, spreadAheadLines), free: make(chan batch, spreadAheadLines+2), stop: &stop}
			ws[i] = w
			wg.Add(1)
			go func() {
				defer wg.Done()
				for bt := range w.in {
					lines[i] += len(bt.spans)
					select {
					case w.free <- batch{spans: bt.spans[:0], numbers: bt.numbers[:0]}:
					default:
					}
				}
			}()
		}
		rounds := make(chan round, spreadAheadLines)
		go func() {
			for range rounds {
			}
		}()
		st := &routeState{rt: newRouter(len(ws)), ids: &events.IDs{}}
		if err := route(files, ws, rounds, st); err != nil {
			b.Fatal(err)
		}
		for _, w := range ws {
			close(w.in)
		}
		close(rounds)
		wg.Wait()
		if lines[0] == 0 || lines[1] == 0 {
			b.Fatalf("lines routed %v: a worker was given none", lines)
		}
	})
}
