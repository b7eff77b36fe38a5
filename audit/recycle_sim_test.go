package audit_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"testing"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/sim"
)

// simulatedTables returns the lines of n tables simulated with faults injected, one slice per
// table: presets in turn, hands of each table up to hands.
func simulatedTables(t *testing.T, n, hands int) [][][]byte {
	presets := []string{"std-draw", "br-fechado", "tr-kapali", "br-online"}
	var tables [][][]byte
	for k := range n {
		p := presets[k%len(presets)]
		s, err := sim.New(sim.Config{Rules: p, Players: 4, Hands: hands, Seed: uint64(k + 1), Table: fmt.Sprintf("t%d", k), Inject: sim.InjectableFor(p)})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		for {
			h, err := s.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := sim.WriteHand(&buf, h); err != nil {
				t.Fatal(err)
			}
		}
		tables = append(tables, bytes.SplitAfter(buf.Bytes(), []byte("\n")))
	}
	return tables
}

// Simulated tables with faults, one after another (the auditor idle after every hand, the
// Reader recycling) and interleaved line by line (hands of several tables open at once: idle
// seldom), audit alike with and without recycling; and the first kind does recycle.
func TestRecycledAuditSameOnSimulatedTables(t *testing.T) {
	tables := simulatedTables(t, 6, 120)
	var serial, interleaved []byte
	for _, tb := range tables {
		serial = append(serial, bytes.Join(tb, nil)...)
	}
	for i := 0; ; i++ {
		more := false
		for _, tb := range tables {
			if i < len(tb) {
				interleaved = append(interleaved, tb[i]...)
				more = true
			}
		}
		if !more {
			break
		}
	}
	audit.SameRecycled(t, "one table after another", serial)
	audit.SameRecycled(t, "tables interleaved line by line", interleaved)
	if o := audit.AuditBytes(t, serial, true, true, false); o.NFindings == 0 || o.NHands < 400 {
		t.Fatalf("the simulated tables audit with %d findings in %d hands: want faults in hundreds of hands", o.NFindings, o.NHands)
	}
	// The first line, kept against the rules by the test, is poisoned: the Reader recycled.
	var first []byte
	a := audit.New(nil)
	a.Hand = func(h *audit.HandResult) {
		if first == nil {
			first = h.Events[0].Raw
		}
	}
	if _, err := audit.AuditReader(a, audit.Poisoned(t, events.NewReader(bytes.NewReader(serial), "f"))); err != nil {
		t.Fatal(err)
	}
	if len(first) == 0 || first[0] != 0xAA {
		t.Errorf("the Reader did not recycle the first line: %.40q", first)
	}
}

// Auditing a long clean log (simulated, one table; a card exposed now and then) with the Reader recycling allocates (almost)
// nothing per hand once the windows are full; without recycling, it allocates more than the
// bytes of the log, as it always did.
func TestAuditReaderRecycledAllocatesNothing(t *testing.T) {
	short, n1, _ := simulatedLog(t, t.TempDir(), 400)
	long, n2, _ := simulatedLog(t, t.TempDir(), 1200)
	run := func(path string, recycle bool) (allocated, mallocs uint64) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		a := audit.New(nil)
		audit.SetWindows(a, 64, 4096)
		rd := events.NewReader(bytes.NewReader(data), path)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if recycle {
			_, err = audit.AuditReader(a, rd)
		} else {
			_, err = audit.AuditWithoutRecycle(a, rd)
		}
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		a.Close()
		if a.Errors != 0 || a.Findings > a.Hands/20 {
			t.Fatalf("%d findings, %d errors in %d hands: the simulated log should be clean (but for a few exposed cards)", a.Findings, a.Errors, a.Hands)
		}
		return after.TotalAlloc - before.TotalAlloc, after.Mallocs - before.Mallocs
	}
	run(short, true) // the rules' tables are built once per process
	st1, _ := os.Stat(short)
	st2, _ := os.Stat(long)
	hands := int64(n2 - n1)
	logBytes := (st2.Size() - st1.Size()) / hands
	for _, recycle := range []bool{true, false} {
		b1, m1 := run(short, recycle)
		b2, m2 := run(long, recycle)
		perHand, allocs := (int64(b2)-int64(b1))/hands, float64(int64(m2)-int64(m1))/float64(hands)
		t.Logf("recycle %v: %d bytes and %.2f allocations per hand (%d bytes of log per hand)", recycle, perHand, allocs, logBytes)
		if recycle && (perHand > 256 || allocs > 1) {
			t.Errorf("with Recycle: %d bytes and %.2f allocations per hand", perHand, allocs)
		}
		if !recycle && perHand < logBytes {
			t.Errorf("without Recycle: %d bytes per hand, less than its %d bytes of log", perHand, logBytes)
		}
	}
}
