package projector

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"hash/maphash"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/schema"
)

// linesWithRepeats returns the corpus with, after it, every line of its first hand again (a
// second hand.started of a hand already projected, then events after its hand.ended) and an
// event of a hand never started: each needs a hand found by its id.
func linesWithRepeats(t *testing.T) [][]byte {
	t.Helper()
	good := buildCorpus(t, 1)
	first, err := events.Parse(bytes.Clone(good[0]))
	if err != nil {
		t.Fatal(err)
	}
	lines := append([][]byte(nil), good...)
	for _, l := range good {
		if bytes.Contains(l, []byte(`"hand":"`+first.Hand+`"`)) {
			lines = append(lines, l)
		}
	}
	stranger, err := events.Parse(bytes.Clone(good[1]))
	if err != nil {
		t.Fatal(err)
	}
	stranger.Hand = "0190c0de-0000-7000-8000-000000000002"
	events.Seal(stranger, stranger.Prev)
	return append(lines, stranger.Raw)
}

// Filling empty read models without the deferred indexes (bulk.go) writes the rows and leaves the
// indexes of a projection that kept them all along, whether the log ends first or the limit of
// hands comes first (the indexes are then built in the middle of the log), at any batch size.
// FromAFile: it projects a file in the test's one goroutine, where the race detector has nothing
// to watch; make test runs it without the detector (the Makefile's RACEFREE).
func TestBulkFromAFileGivesTheRowsOfIndexedProjection(t *testing.T) {
	ctx := context.Background()
	path := writeLines(t, t.TempDir(), linesWithRepeats(t))
	projectWith := func(bulkHands, batch int) (string, Progress) {
		db := openDB(t)
		p := New(db, &FileSource{Path: path})
		p.BatchSize, p.bulkHands = batch, bulkHands
		pr, err := p.CatchUp(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return dump(t, db), pr
	}
	want, pr := projectWith(-1, 0)
	if pr.Hands != 24 || pr.Quarantined == 0 {
		t.Fatalf("progress %+v, want 24 hands and the repeated lines quarantined", pr)
	}
	for _, name := range schema.DeferredIndexes {
		if !strings.Contains(want, "index "+name+": ") {
			t.Fatalf("the projection that kept its indexes lacks %s", name)
		}
	}
	for _, c := range []struct{ bulkHands, batch int }{{0, 0}, {0, 1}, {3, 7}, {1, 500}, {23, 40}} {
		if got, _ := projectWith(c.bulkHands, c.batch); got != want {
			t.Errorf("limit %d hands, batch %d: rows differ from a projection with its indexes: %s",
				c.bulkHands, c.batch, firstDiff(want, got))
		}
	}
}

// The projector's writes never need a deferred index: without them no statement but the one that
// finds a hand by its id (handRow, used only when the projector's own index says the hand has a
// row) reads a whole table. With them, that one uses hands_hand_id.
func TestDeferredIndexesNotNeededForWrites(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	plan := func(q string) string {
		// As many NULL arguments as q has parameters: ?N numbers them, else each ? is one.
		n := strings.Count(q, "?")
		if numbered := regexp.MustCompile(`\?([0-9]+)`).FindAllStringSubmatch(q, -1); numbered != nil {
			n = 0
			for _, m := range numbered {
				k, _ := strconv.Atoi(m[1])
				n = max(n, k)
			}
		}
		rows, err := db.QueryContext(ctx, "EXPLAIN QUERY PLAN "+q, make([]any, n)...)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			out = append(out, detail)
		}
		return strings.Join(out, "; ")
	}
	if got := plan(statements[stHandRow]); !strings.Contains(got, "INDEX hands_hand_id") {
		t.Errorf("finding a hand by its id: plan %q, want hands_hand_id", got)
	}
	for _, name := range schema.DeferredIndexes {
		if _, err := db.ExecContext(ctx, `DROP INDEX "`+name+`"`); err != nil {
			t.Fatal(err)
		}
	}
	for id, q := range statements {
		if stmtID(id) == stHandRow {
			continue
		}
		for _, step := range strings.Split(plan(q), "; ") {
			if strings.HasPrefix(step, "SCAN ") && step != "SCAN CONSTANT ROW" {
				t.Errorf("statement %d %q reads a whole table without the deferred indexes: %s", id, strings.Fields(q)[0], step)
			}
		}
	}
}

// deferredNames returns the names of schema.DeferredIndexes and schema.DeferredTriggers, sorted.
func deferredNames() string {
	var names []string
	for _, d := range deferred() {
		names = append(names, d.name)
	}
	slices.Sort(names)
	return strings.Join(names, " ")
}

// deferredState returns, for db, the deferred indexes and triggers it has and the rows of
// schema.DeferredTable, each sorted by name, as "has: a b; noted: c".
func deferredState(t *testing.T, db *sql.DB) string {
	t.Helper()
	var has, noted []string
	for _, d := range deferred() {
		var n int
		if err := db.QueryRow(`SELECT COUNT(*) FROM sqlite_master WHERE type = ? AND name = ?`, d.kind, d.name).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			has = append(has, d.name)
		}
	}
	slices.Sort(has)
	rows, err := db.Query(`SELECT name FROM ` + schema.DeferredTable + ` ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		noted = append(noted, name)
	}
	return fmt.Sprintf("has: %s; noted: %s", strings.Join(has, " "), strings.Join(noted, " "))
}

// A projector that stops while filling empty read models leaves the deferred indexes and triggers
// dropped and noted; the next projector of the database builds them and counts the kept counts
// before anything else, and goes on with them (its read models are no longer empty), to the rows
// of a projection without a stop (the kept counts' included).
func TestStoppedBulkFromAFileBuildsIndexesAtNextStart(t *testing.T) {
	ctx := context.Background()
	lines := linesWithRepeats(t)
	path := writeLines(t, t.TempDir(), lines)
	clean := openDB(t)
	project(t, clean, path, 0)
	want := dump(t, clean)
	all := "has: " + deferredNames() + "; noted: "
	if got := deferredState(t, clean); got != all {
		t.Fatalf("after a whole projection: %s, want %s", got, all)
	}

	db := openDB(t)
	failAfter(t, db, &FileSource{Path: path}, len(lines)/2, 10)
	if got, want := deferredState(t, db), "has: ; noted: "+deferredNames(); got != want {
		t.Fatalf("after a stop in the middle: %s, want %s", got, want)
	}
	p := New(db, &FileSource{Path: path})
	if err := p.load(ctx); err != nil {
		t.Fatal(err)
	}
	if got := deferredState(t, db); got != all || p.bulk != nil {
		t.Fatalf("after the next start: %s (own index %v), want %s and no own index", got, p.bulk != nil, all)
	}
	if _, err := p.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	if got := dump(t, db); got != want {
		t.Fatalf("rows differ from a projection without a stop: %s", firstDiff(want, got))
	}
}

// A hand id whose hash is another's in the projector's own index (the index then holds the
// other's row for it) is still found by its row, and an id with no row is not.
func TestHandRowWhenHashesCollide(t *testing.T) {
	ctx := context.Background()
	lines := buildCorpus(t, 1)
	db := openDB(t)
	p := New(db, &FileSource{Path: writeLines(t, t.TempDir(), lines)})
	if err := p.load(ctx); err != nil {
		t.Fatal(err)
	}
	if p.bulk == nil {
		t.Fatal("empty read models: no own index")
	}
	if err := p.begin(ctx); err != nil {
		t.Fatal(err)
	}
	defer p.reset()
	var ids []string
	var seqs []uint64
	for i, l := range lines {
		e, err := events.Parse(bytes.Clone(l))
		if err != nil {
			t.Fatal(err)
		}
		if err := p.apply(ctx, Message{Seq: uint64(i + 1), Data: l, Event: e}); err != nil {
			t.Fatal(err)
		}
		if e.Type == events.HandStartedType && len(ids) < 2 {
			ids, seqs = append(ids, e.Hand), append(seqs, uint64(i+1))
		}
	}
	stranger := "0190c0de-0000-7000-8000-000000000003"
	for _, id := range []string{ids[1], stranger} {
		p.bulk.hands.recent[maphash.String(p.bulk.seed, id)] = seqs[0]
	}
	for i, id := range ids {
		if seq, ok, err := p.handRow(ctx, id); err != nil || !ok || seq != seqs[i] {
			t.Errorf("hand %s: row %d, %v, %v; want %d", id, seq, ok, err, seqs[i])
		}
	}
	if seq, ok, err := p.handRow(ctx, stranger); err != nil || ok {
		t.Errorf("hand %s, never started: row %d, %v, %v; want none", stranger, seq, ok, err)
	}
}

// handIndex answers as a map of every key added, keeping each key's first sequence, whenever its
// merges come.
func TestHandIndexIsAMap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		x := handIndex{mergeAt: rapid.IntRange(1, 8).Draw(t, "mergeAt")}
		want := map[uint64]uint64{}
		// Few distinct keys, so that some come again.
		keys := rapid.SliceOfN(rapid.Uint64Range(0, 40), 0, 100).Draw(t, "keys")
		for i, k := range keys {
			x.add(k, uint64(i+1))
			if _, ok := want[k]; !ok {
				want[k] = uint64(i + 1)
			}
			if x.len() != len(want) {
				t.Fatalf("after %d keys: len %d, want %d", i+1, x.len(), len(want))
			}
		}
		for k := uint64(0); k <= 41; k++ {
			seq, ok := x.get(k)
			if w, has := want[k]; seq != w || ok != has {
				t.Fatalf("key %d: %d, %v; want %d, %v", k, seq, ok, w, has)
			}
		}
		if !slices.IsSortedFunc(x.sorted, func(a, b keySeq) int { return cmp.Compare(a.key, b.key) }) {
			t.Fatalf("slice out of order: %v", x.sorted)
		}
	})
}

// BenchmarkHandIndex adds a million keys to the projector's own index of the hands it wrote while
// it fills empty read models (handIndex), and to a Go map of the same keys, and reports the live
// heap each holds a key.
func BenchmarkHandIndex(b *testing.B) {
	const n = 1_000_000
	seed := maphash.MakeSeed()
	keys := make([]uint64, n)
	for i := range keys {
		keys[i] = maphash.Comparable(seed, i)
	}
	live := func() uint64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	b.Run("handIndex", func(b *testing.B) {
		for b.Loop() {
			before := live()
			var x handIndex
			for i, k := range keys {
				x.add(k, uint64(i+1))
			}
			b.ReportMetric(float64(live()-before)/n, "B/key")
			runtime.KeepAlive(&x)
		}
	})
	b.Run("map", func(b *testing.B) {
		for b.Loop() {
			before := live()
			m := map[uint64]uint64{}
			for i, k := range keys {
				if _, ok := m[k]; !ok {
					m[k] = uint64(i + 1)
				}
			}
			b.ReportMetric(float64(live()-before)/n, "B/key")
			runtime.KeepAlive(m)
		}
	})
}
