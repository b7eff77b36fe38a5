package audit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/testfiles"
)

// poisoned turns on rd's poisoning: the memory Recycle releases is overwritten at once, so that
// whatever still aliases it — an id kept by the chain, a table name, a finding — reads garbage.
func poisoned(tb testing.TB, rd *events.Reader) *events.Reader {
	tb.Helper()
	rd.PoisonRecycled()
	return rd
}

// outcome is what auditing a file gives: the findings as Report received them (kept), the
// hands as the Hand callback saw them (when set), and the counts.
type outcome struct {
	Findings                     []finding.Finding
	Hands                        []string
	NHands, NFindings, Err, NBad int
}

// auditBytes audits data as a file, through AuditReader (recycle; the Reader poisoned or not),
// or through the loop AuditReader was before it recycled. With hands, a Hand callback describes
// each hand from its events as it receives them.
func auditBytes(tb testing.TB, data []byte, recycle, poison, hands bool) outcome {
	tb.Helper()
	var o outcome
	a := New(func(f finding.Finding) { o.Findings = append(o.Findings, f) })
	if hands {
		a.Hand = func(h *HandResult) {
			s := fmt.Sprintf("%s %s %d events, %d findings", h.Table, h.Hand, len(h.Events), len(h.Findings))
			for _, e := range h.Events {
				s += fmt.Sprintf(" %s/%d/%s", e.Type, e.Seq, e.ID)
			}
			if h.State != nil {
				s += fmt.Sprintf(" stage %v, %d players", h.State.Stage, len(h.State.Players))
			}
			o.Hands = append(o.Hands, s)
		}
	}
	rd := events.NewReader(bytes.NewReader(data), "f.jsonl")
	var err error
	if poison {
		rd = poisoned(tb, rd)
	}
	if recycle {
		o.NBad, err = AuditReader(a, rd)
	} else {
		o.NBad, err = auditWithoutRecycle(a, rd)
	}
	if err != nil {
		tb.Fatal(err)
	}
	a.Close()
	o.NHands, o.NFindings, o.Err = a.Hands, a.Findings, a.Errors
	return o
}

// auditWithoutRecycle is AuditReader as it was before the Reader recycled.
func auditWithoutRecycle(a *Auditor, r *events.Reader) (bad int, err error) {
	for {
		e, err := r.NextLenient()
		if err == nil {
			a.Add(e)
			continue
		}
		if err == io.EOF {
			return bad, nil
		}
		if errors.Is(err, events.ErrInvalid) {
			bad++
			a.AddUndecoded(e, r.LineSum(), err)
			continue
		}
		return bad, err
	}
}

// sameRecycled fails unless data audits alike with the Reader recycling (its memory poisoned or
// not) and without: the same findings, values and messages included, the same hands and counts.
func sameRecycled(t *testing.T, name string, data []byte) {
	t.Helper()
	for _, hands := range []bool{false, true} {
		want := auditBytes(t, data, false, false, hands)
		for _, poison := range []bool{true, false} {
			got := auditBytes(t, data, true, poison, hands)
			if !reflect.DeepEqual(got, want) {
				diffOutcomes(t, fmt.Sprintf("%s (Hand callback %v, poison %v)", name, hands, poison), got, want)
			}
		}
	}
}

// diffOutcomes reports how got differs from want: the counts, the first finding and hand.
func diffOutcomes(t *testing.T, name string, got, want outcome) {
	t.Helper()
	t.Errorf("%s: recycled %d hands, %d findings, %d errors, %d bad; want %d, %d, %d, %d",
		name, got.NHands, got.NFindings, got.Err, got.NBad, want.NHands, want.NFindings, want.Err, want.NBad)
	for i := range max(len(got.Findings), len(want.Findings)) {
		var g, w finding.Finding
		if i < len(got.Findings) {
			g = got.Findings[i]
		}
		if i < len(want.Findings) {
			w = want.Findings[i]
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("  finding #%d:\n got  %+v\n want %+v", i, g, w)
			break
		}
	}
	for i := range min(len(got.Hands), len(want.Hands)) {
		if got.Hands[i] != want.Hands[i] {
			t.Errorf("  hand #%d:\n got  %.300s\n want %.300s", i, got.Hands[i], want.Hands[i])
			break
		}
	}
}

// The vectors, the logs of every audit script case and the test logs audit alike with and
// without recycling.
func TestRecycledAuditSameOnVectorsAndScripts(t *testing.T) {
	var all []byte
	for _, path := range testLogs(t) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sameRecycled(t, path, b)
		all = append(all, b...)
	}
	// All of them as one log: many chunks of lines and of events.
	sameRecycled(t, "all", all)
}

// vectorHands returns the lines of the hands of the table vectors, each hand's in file order.
func vectorHands(t *testing.T) [][][]byte {
	vectors, _ := filepath.Glob(testfiles.Path("vectors", "table-*.jsonl"))
	var hands [][][]byte
	for _, path := range vectors {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		idx := map[string]int{}
		for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
			e, err := events.Parse(l)
			if err != nil {
				t.Fatal(err)
			}
			i, ok := idx[e.Hand]
			if !ok {
				i = len(hands)
				idx[e.Hand] = i
				hands = append(hands, nil)
			}
			hands[i] = append(hands[i], l)
		}
	}
	if len(hands) < 10 {
		t.Fatalf("only %d hands in the vectors", len(hands))
	}
	return hands
}

// Random logs made of the vectors' hands — repeated (so that events come after their hand's
// hand.ended, and ids twice), interleaved, with lines dropped, doubled, moved, cut short,
// written another way (the decoder's general walk) and moved to another table — audit alike
// with and without recycling.
func TestRecycledAuditSameOnShuffledLogs(t *testing.T) {
	base := vectorHands(t)
	seeds := uint64(120)
	if testing.Short() { // make test; make test-long tries every seed
		seeds = 30
	}
	for seed := range seeds {
		r := rand.New(rand.NewPCG(seed, 13))
		var hands [][][]byte
		for range 1 + r.IntN(40) {
			h := append([][]byte(nil), base[r.IntN(len(base))]...)
			for range r.IntN(3) {
				i := r.IntN(len(h))
				switch r.IntN(6) {
				case 0:
					h = append(h[:i], h[i+1:]...)
				case 1:
					h = append(h[:i+1], h[i:]...)
				case 2:
					j := r.IntN(len(h))
					h[i], h[j] = h[j], h[i]
				case 3:
					h[i] = h[i][:r.IntN(len(h[i]))]
				case 4:
					h[i] = append([]byte("{ "), h[i][1:]...)
				case 5:
					h[i] = bytes.Replace(h[i], []byte(`"table":"`), []byte(`"table":"moved-`), 1)
				}
				if len(h) == 0 {
					break
				}
			}
			hands = append(hands, h)
		}
		k := 1 + r.IntN(3)
		var log []byte
		var open [][][]byte
		for len(hands) > 0 || len(open) > 0 {
			for len(open) < k && len(hands) > 0 {
				open, hands = append(open, hands[0]), hands[1:]
			}
			i := r.IntN(len(open))
			if len(open[i]) > 0 {
				log = append(append(log, open[i][0]...), '\n')
				open[i] = open[i][1:]
			}
			if len(open[i]) == 0 {
				open = append(open[:i], open[i+1:]...)
			}
		}
		sameRecycled(t, fmt.Sprintf("seed %d", seed), log)
	}
}
