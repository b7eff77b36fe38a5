package audit

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/race"
)

// damaged returns b with the damage an audit must report as it reports any log: lines cut
// short, lines that are not JSON, duplicate lines (ids), a hand's line again after its end,
// hands never ended, lines read leniently (a member the contract does not have), blank lines,
// a line over events.MaxLineSize, and no newline at the end.
func damaged(b []byte) map[string][]byte {
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	each := func(f func(i int, l []byte) [][]byte) []byte {
		var out [][]byte
		for i, l := range lines {
			out = append(out, f(i, l)...)
		}
		return append(bytes.Join(out, []byte("\n")), '\n')
	}
	one := func(l ...[]byte) [][]byte { return l }
	v := map[string][]byte{
		"cut": each(func(i int, l []byte) [][]byte {
			if i%7 == 3 {
				return one(l[:len(l)/2])
			}
			return one(l)
		}),
		"broken": each(func(i int, l []byte) [][]byte {
			if i%11 == 5 {
				return one(bytes.Replace(l, []byte(":"), []byte(";"), 1))
			}
			return one(l)
		}),
		"dup": each(func(i int, l []byte) [][]byte {
			if i%13 == 4 {
				return one(l, l)
			}
			return one(l)
		}),
		"after-end": each(func(i int, l []byte) [][]byte {
			if i == 2 {
				return nil
			}
			if i == len(lines)-1 {
				return one(l, lines[2])
			}
			return one(l)
		}),
		"unended": each(func(i int, l []byte) [][]byte {
			if bytes.Contains(l, []byte(`"hand.ended"`)) {
				return nil
			}
			return one(l)
		}),
		"lenient": each(func(i int, l []byte) [][]byte {
			if i%17 == 6 && len(l) > 1 && l[0] == '{' {
				return one(append([]byte(`{"extra":1,`), l[1:]...))
			}
			return one(l)
		}),
		"blank": each(func(i int, l []byte) [][]byte {
			if i%5 == 1 {
				return one(nil, []byte("  \t"), l)
			}
			return one(l)
		}),
		"long": each(func(i int, l []byte) [][]byte {
			if i == len(lines)/2 {
				return one(bytes.Repeat([]byte("x"), events.MaxLineSize+100), l)
			}
			return one(l)
		}),
	}
	v["no-newline"] = bytes.TrimRight(b, "\n")
	return v
}

// auditKept audits logs one after the other with one Auditor (AuditReader), each read by the
// Reader read returns, and returns what its callbacks were given, then its counts. Findings are
// kept as they are given and written out only at the end, and the tournament hands at Close,
// with their events' ids and times: whatever of them points into a line given back and written
// again is then read.
func auditKept(t *testing.T, logs [][]byte, read func(i int, b []byte) *events.Reader) []string {
	t.Helper()
	var kept []func() string
	a := New(nil)
	a.Report = func(f finding.Finding) { kept = append(kept, func() string { return "F " + string(f.JSON()) }) }
	a.Hand = func(h *HandResult) {
		s := fmt.Sprintf("H %s %s %d events %d findings state %v", h.Table, h.Hand, len(h.Events), len(h.Findings), h.State != nil)
		kept = append(kept, func() string { return s })
	}
	a.HandBorrows = true
	a.Tournament = func(h *HandResult) {
		s := fmt.Sprintf("T %s %s %d findings", h.Table, h.Hand, len(h.Findings))
		for _, e := range h.Events {
			s += fmt.Sprintf(" %s %s %s %s", e.ID, e.Type, e.At, e.Prev)
		}
		kept = append(kept, func() string { return s })
	}
	bad := 0
	for i, b := range logs {
		n, err := AuditReader(a, read(i, b))
		if err != nil {
			t.Fatal(err)
		}
		bad += n
	}
	a.Close()
	out := make([]string, 0, len(kept)+1)
	for _, k := range kept {
		out = append(out, k())
	}
	return append(out, fmt.Sprintf("hands %d findings %d errors %d bad %d", a.Hands, a.Findings, a.Errors, bad))
}

// sameReused fails t unless auditing logs through reusing Readers reports what auditing their
// bytes (events.NewReaderBytes) reports: the same findings, hands and tournament hands in the
// same order, and the same counts.
func sameReused(t *testing.T, name string, logs ...[]byte) {
	t.Helper()
	want := auditKept(t, logs, func(i int, b []byte) *events.Reader {
		return events.NewReaderBytes(b, fmt.Sprint("log", i), nil)
	})
	for _, c := range []struct {
		chunk int
		wrap  func(io.Reader) io.Reader
	}{
		{1 << 10, func(r io.Reader) io.Reader { return r }},
		{4 << 10, iotest.HalfReader},
		{64 << 10, func(r io.Reader) io.Reader { return r }},
	} {
		// Tiny chunks, reused constantly, filled with junk when freed.
		got := auditKept(t, logs, func(i int, b []byte) *events.Reader {
			o := events.Reuse{ChunkSize: c.chunk, Size: len(b), Poison: true}
			return events.NewReaderReusing(c.wrap(bytes.NewReader(b)), fmt.Sprint("log", i), o)
		})
		if slices.Equal(got, want) {
			continue
		}
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("%s, chunks of %d: line %d of %d is\n%s\nwant (a Reader of bytes, %d lines)\n%s", name, c.chunk, i, len(got), got[i], len(want), want[i])
			}
		}
		t.Fatalf("%s, chunks of %d: %d lines, a Reader of bytes %d", name, c.chunk, len(got), len(want))
	}
}

// An audit reading its log into chunks it reuses (and poisons when freed) reports exactly what
// an audit of the log's bytes reports, over every log the tests use (the audit scripts' cases,
// the vectors, the test logs), each damaged in every way damaged knows, and all of them as the
// files of one audit: nothing the auditor keeps past a hand's Recycle aliases its lines.
func TestReusedChunksAuditAsTheLogsBytes(t *testing.T) {
	paths := testLogs(t)
	var all [][]byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) == 0 {
			continue
		}
		all = append(all, b)
		sameReused(t, p, b)
		if testing.Short() && !strings.Contains(p, "testdata") {
			continue
		}
		if race.Enabled {
			// One goroutine reads and audits: the detector has nothing to watch here, and the
			// damaged logs, six times the work, run without it.
			continue
		}
		for kind, d := range damaged(b) {
			if kind == "long" && len(b) < 100<<10 {
				continue // a megabyte line per small log is slow and proves nothing more
			}
			sameReused(t, p+" "+kind, d)
		}
	}
	sameReused(t, "all", all...)
}
