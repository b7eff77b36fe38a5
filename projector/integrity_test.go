package projector

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/fechado/fechado/audit/integrity"
)

// SaveIntegrity stores an analysis whole and the readers give it back as it was: the summary, the
// pairs in rank order with every field, a page of them, those among some players; a second
// analysis replaces the first entirely (no pair of the first is left).
func TestSaveIntegrityReplacesTheAnalysisWhole(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "read.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if run, err := ReadIntegrityRun(ctx, db); run != nil || err != nil {
		t.Fatalf("before any analysis: %+v, %v", run, err)
	}
	pair := func(a, b string, score float64, flagged bool) integrity.Pair {
		p := integrity.Pair{A: a, B: b, Score: score, Flagged: flagged, Hands: 120, P: 1e-6, Q: 1e-4,
			Overlap: integrity.Overlap{Slots: 9, Together: 7, Expected: 1.25, P: 3e-4},
			Soft:    integrity.Signal{Z: 6.5, P: 8e-11, N: 900, Hands: []string{"h1", "h2"}},
			Dumping: integrity.Dump{Signal: integrity.Signal{P: 1, N: 40}, From: a, To: b, Chips: -12.5},
			Shared:  integrity.Signal{Z: -0.3, P: 1, N: 300}}
		if flagged {
			p.Kind = integrity.SoftPlay
		}
		return p
	}
	first := &integrity.Report{Hands: 5000, Known: 4990, Players: 4, Threshold: 2, Q: 0.01,
		Pairs: []integrity.Pair{pair("ana", "bia", 9.5, true), pair("ana", "caio", 1.5, false), pair("bia", "dan", 0.2, false)}}
	at := time.Date(2026, 12, 1, 9, 30, 0, 0, time.FixedZone("BRT", -3*3600))
	if err := SaveIntegrity(ctx, db, first, at); err != nil {
		t.Fatal(err)
	}
	run, err := ReadIntegrityRun(ctx, db)
	if err != nil || run == nil {
		t.Fatalf("the run: %+v, %v", run, err)
	}
	want := IntegrityRun{At: at.UTC(), Hands: 5000, Known: 4990, Players: 4, Pairs: 3, Flagged: 1, Threshold: 2, Q: 0.01}
	if *run != want {
		t.Errorf("the run %+v, want %+v", *run, want)
	}
	all, err := IntegrityPairs(ctx, db, 10, 0)
	if err != nil || len(all) != 3 {
		t.Fatalf("%d pairs, %v", len(all), err)
	}
	for i, p := range all {
		if p.Rank != i+1 || !reflect.DeepEqual(p.Pair, first.Pairs[i]) {
			t.Errorf("pair %d: %+v, want rank %d %+v", i+1, p, i+1, first.Pairs[i])
		}
	}
	if page, err := IntegrityPairs(ctx, db, 1, 1); err != nil || len(page) != 1 || page[0].Rank != 2 {
		t.Errorf("the page of one from 1: %+v, %v", page, err)
	}
	among, err := IntegrityAmong(ctx, db, []string{"ana", "bia", "dan"})
	if err != nil || len(among) != 2 || among[0].B != "bia" || among[1].B != "dan" {
		t.Errorf("the pairs among ana, bia and dan: %+v, %v", among, err)
	}

	second := &integrity.Report{Hands: 6000, Known: 6000, Players: 2, Threshold: 2, Q: 0.01, Pairs: []integrity.Pair{pair("eva", "fay", 0.1, false)}}
	if err := SaveIntegrity(ctx, db, second, at.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	all, err = IntegrityPairs(ctx, db, 10, 0)
	if err != nil || len(all) != 1 || all[0].A != "eva" {
		t.Errorf("after the second analysis: %+v, %v", all, err)
	}
	if run, _ := ReadIntegrityRun(ctx, db); run == nil || run.Hands != 6000 || run.Pairs != 1 || run.Flagged != 0 {
		t.Errorf("the second run: %+v", run)
	}
}
