package projector

import (
	"context"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/sim"
)

// auditCorpus is two simulated tables, their hands' events interleaved one by one as in a live
// stream: one table whose dealer does not move as the preset says in some hands (table.*
// findings, which need the hand before), one with an irregularity in some hands; and three stray
// lines: an event after its hand's hand.ended, an event of a hand never started and a line that
// does not decode.
func auditCorpus(t *testing.T) [][]byte {
	t.Helper()
	var tables [][]*events.Event
	for _, cfg := range []sim.Config{
		{Rules: "br-fechado", Players: 4, Hands: 8, Seed: 71, Table: "t-dealer", ExposeRate: -1, Inject: []finding.Code{finding.TableDealer}},
		{Rules: "std-draw", Players: 3, Hands: 8, Seed: 5, Table: "t-bad", ExposeRate: -1, Inject: []finding.Code{finding.StackFinal}},
	} {
		hs, err := sim.All(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var evs []*events.Event
		for _, h := range hs {
			evs = append(evs, h.Events...)
		}
		tables = append(tables, evs)
	}
	var lines [][]byte
	for i := 0; i < len(tables[0]) || i < len(tables[1]); i++ {
		for _, evs := range tables {
			if i < len(evs) {
				lines = append(lines, evs[i].Raw)
			}
		}
		if i == 40 {
			// After the first hand of t-dealer ended: one more event of it.
			late := *tables[0][len(tables[0])-1]
			for _, e := range tables[0] {
				if e.Type == events.HandEndedType {
					late = *e
					break
				}
			}
			late.ID, late.Seq = "01900000-0000-7000-8000-0000000000f1", late.Seq+1
			events.Seal(&late, "")
			lines = append(lines, late.Raw)
			orphan := *tables[1][1]
			orphan.ID, orphan.Hand = "01900000-0000-7000-8000-0000000000f2", "01900000-0000-7000-8000-0000000000f3"
			events.Seal(&orphan, "")
			lines = append(lines, orphan.Raw)
			lines = append(lines, []byte(`{"hand":"`+tables[1][0].Hand+`","table":"t-bad","seq":`))
		}
	}
	return lines
}

// The projector audits every hand once and stores every finding, table.* and stray ones
// included, with expected and actual; cut at any point and resumed by a new projector it stores
// the same rows, findings and table memory included, as an uninterrupted projection (at fewer
// cuts under -short: cutStride).
func TestAuditorStoresEveryFindingFromAFileExactlyOnce(t *testing.T) {
	ctx := context.Background()
	lines := auditCorpus(t)
	path := writeLines(t, t.TempDir(), lines)
	clean := openDB(t)
	hands := 0
	p := New(clean, &FileSource{Path: path})
	p.OnAudit = func(a Audited) {
		if !a.Stray {
			hands++
		}
	}
	if _, err := p.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	if hands != 16 {
		t.Errorf("%d hands audited, want 16", hands)
	}
	count := func(where string) int {
		var n int
		if err := clean.QueryRow(`SELECT COUNT(*) FROM findings WHERE ` + where).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for where, what := range map[string]string{
		`code = 'table.dealer' AND expected IS NOT NULL AND actual IS NOT NULL`:                "table.dealer with expected and actual",
		`code = 'stack.final' AND table_id = 't-bad'`:                                          "stack.final",
		`code = 'log.sequence'`:                                                                "the event after hand.ended",
		`code = 'log.schema' AND hand_id = '01900000-0000-7000-8000-0000000000f3'`:             "the event of a hand never started",
		`code = 'log.schema' AND hand_id = '01900000-0000-7000-8000-0000000000f3' AND seq = 3`: "the line that does not decode, after the line before (§8)",
	} {
		if count(where) == 0 {
			t.Errorf("no finding stored for %s", what)
		}
	}
	var status string
	var n int
	clean.QueryRow(`SELECT h.audit_status, h.findings FROM hands h JOIN findings f USING (hand_id)
		WHERE f.code = 'log.sequence'`).Scan(&status, &n)
	if status != "error" || n == 0 {
		t.Errorf("the hand of the late event: audit_status %q, %d findings; want error and the finding counted", status, n)
	}
	want := dump(t, clean)
	for cut := 1; cut < len(lines); cut += cutStride(37) {
		db := openDB(t)
		src := &FileSource{Path: path}
		failAfter(t, db, src, cut, 16)
		p := New(db, src)
		p.BatchSize = 5
		if _, err := p.CatchUp(ctx); err != nil {
			t.Fatalf("cut %d: resume: %v", cut, err)
		}
		if got := dump(t, db); got != want {
			t.Fatalf("cut %d: rows differ from a clean projection: %s", cut, firstDiff(want, got))
		}
	}
}
