package projector

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/schema"
	"github.com/fechado/fechado/sim"
)

// keptColumns are the counts player_totals and player_slices keep of each player, the columns of
// hand_players they sum (with hands, the rows).
var keptColumns = []string{"vpip", "raised_pre", "bets", "raises", "calls", "saw_second", "went_to_showdown",
	"won_at_showdown", "drew", "cards_drawn", "stood_pat", "open_chance", "opened", "net"}

// scannedCounts returns what the kept counts of migrations 0011, 0012 and 0014 should hold, counted in
// Go from every row of hands and hand_players (no SQL aggregate, so not schema.Recount's
// reading): one line a row, table by table, sorted. A count of no hands is no row.
func scannedCounts(t *testing.T, db *sql.DB) string {
	t.Helper()
	type hand struct {
		table, preset string
	}
	hands := map[int64]hand{}
	handCounts := map[string]int{}
	rows, err := db.Query(`SELECT stream_seq, table_id, preset, findings FROM hands`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var seq int64
		var h hand
		var findings sql.NullInt64
		if err := rows.Scan(&seq, &h.table, &h.preset, &findings); err != nil {
			t.Fatal(err)
		}
		hands[seq] = h
		handCounts[fmt.Sprintf("hand_counts|%s|%s|%d", h.table, h.preset, b2i(findings.Int64 > 0))]++
	}
	rows.Close()
	// Sums by key: hands first, then keptColumns (player_positions: hands, open_chance, opened).
	sums := map[string][]int64{}
	add := func(key string, vals []int64) {
		s := sums[key]
		if s == nil {
			s = make([]int64, len(vals))
		}
		for i, v := range vals {
			s[i] += v
		}
		sums[key] = s
	}
	rows, err = db.Query(`SELECT hand_seq, player, player_fold, position, ` + strings.Join(keptColumns, ", ") + ` FROM hand_players`)
	if err != nil {
		t.Fatal(err)
	}
	folds := map[string]string{}
	foldHands := map[string]map[int64]bool{} // player_hands: the hands of each folded name
	for rows.Next() {
		var seq, position int64
		var player, fold string
		vals := make([]sql.NullInt64, len(keptColumns))
		ptrs := []any{&seq, &player, &fold, &position}
		for i := range vals {
			ptrs = append(ptrs, &vals[i])
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		counts := []int64{1}
		for _, v := range vals {
			counts = append(counts, v.Int64) // NULL (cards_drawn of a player who did not draw) adds none
		}
		folds[player] = fold
		if foldHands[fold] == nil {
			foldHands[fold] = map[int64]bool{}
		}
		foldHands[fold][seq] = true
		add("player_totals|"+player, counts)
		h, ok := hands[seq]
		if !ok {
			continue // no hand row: the triggers of 0012 find no table or preset either
		}
		add(fmt.Sprintf("player_slices|%s|%s|%s", player, h.table, h.preset), counts)
		chances, opened := vals[slices.Index(keptColumns, "open_chance")].Int64, vals[slices.Index(keptColumns, "opened")].Int64
		add(fmt.Sprintf("player_positions|%s|%s|%s|%d", player, h.table, h.preset, position), []int64{1, chances, opened})
	}
	rows.Close()
	var out []string
	for k, n := range handCounts {
		out = append(out, fmt.Sprintf("%s|%d", k, n))
	}
	for f, hs := range foldHands {
		out = append(out, fmt.Sprintf("player_hands|%s|%d", f, len(hs)))
	}
	for k, s := range sums {
		line := k
		if p, ok := strings.CutPrefix(k, "player_totals|"); ok {
			line += "|" + folds[p]
		}
		for _, v := range s {
			line += fmt.Sprintf("|%d", v)
		}
		out = append(out, line)
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}

// keptCounts returns the rows of the kept counts as scannedCounts writes them, but for
// hand_counts' rows of no hands (a slice whose hands all moved to "with findings").
func keptCounts(t *testing.T, db *sql.DB) string {
	t.Helper()
	sums := strings.Join(keptColumns, ", ")
	var out []string
	for _, q := range []struct{ name, query string }{
		{"hand_counts", `SELECT table_id, preset, with_findings, hands FROM hand_counts WHERE hands <> 0`},
		{"player_totals", `SELECT player, player_fold, hands, ` + sums + ` FROM player_totals`},
		{"player_slices", `SELECT player, table_id, preset, hands, ` + sums + ` FROM player_slices`},
		{"player_positions", `SELECT player, table_id, preset, position, hands, open_chance, opened FROM player_positions`},
		{"player_hands", `SELECT player_fold, hands FROM player_hands`},
	} {
		rows, err := db.Query(q.query)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			line := q.name
			for _, v := range scanAny(t, rows, len(cols)) {
				line += fmt.Sprintf("|%v", v)
			}
			out = append(out, line)
		}
		rows.Close()
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}

// checkKeptCounts fails unless db's kept counts are what a scan of its hands and hand_players
// counts, and no trigger or index waits to be created again.
func checkKeptCounts(t *testing.T, db *sql.DB, what string) {
	t.Helper()
	want, got := scannedCounts(t, db), keptCounts(t, db)
	if !strings.Contains(want, "player_positions|") || !strings.Contains(want, "|1|") {
		t.Fatalf("%s: the scan counts little:\n%s", what, want)
	}
	if got != want {
		t.Errorf("%s: kept counts differ from the scan's: %s", what, firstDiff(want, got))
	}
	if st, all := deferredState(t, db), "has: "+deferredNames()+"; noted: "; st != all {
		t.Errorf("%s: %s, want %s", what, st, all)
	}
}

// checkReaders fails unless the readers of the kept counts give what counting the hands' rows
// gives: from the kept counts once they are kept, from the rows while a bulk has not counted
// them yet (countsKept).
func checkReaders(t *testing.T, db *sql.DB, what string) {
	t.Helper()
	ctx := context.Background()
	for i, q := range []HandQuery{{}, {Table: "dirty", WithFindings: true}, {Preset: "br-fechado"}, {Table: "CASH-A"},
		{Player: "ANA"}, {Player: "Bruno"}} {
		got, err := CountHands(ctx, db, q)
		if err != nil {
			t.Fatal(err)
		}
		where, args := q.where()
		var want int
		if err := db.QueryRow("SELECT COUNT(*) FROM hands h"+where, args...).Scan(&want); err != nil {
			t.Fatal(err)
		}
		if got != want || ((i == 0 || q.Player != "") && want == 0) {
			t.Errorf("%s: %+v counts %d hands, the rows %d", what, q, got, want)
		}
	}
	for _, f := range []Filter{{}, {Tables: []string{"dirty"}}, {Presets: []string{"std-draw"}}} {
		got, err := PlayerStats(ctx, db, f)
		if err != nil {
			t.Fatal(err)
		}
		if want := scanStats(t, db, f); !reflect.DeepEqual(got, want) || (f.overAll() && len(want) == 0) {
			t.Errorf("%s: statistics of %+v:\nread %+v\nrows %+v", what, f, got, want)
		}
		pos, err := OpenByPosition(ctx, db, f)
		if err != nil {
			t.Fatal(err)
		}
		if want := scanPositions(t, db, f); !reflect.DeepEqual(pos, want) {
			t.Errorf("%s: opens by position of %+v:\nread %+v\nrows %+v", what, f, pos, want)
		}
	}
	names, err := PlayersStarting(ctx, db, "")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	rows, err := db.Query(`SELECT DISTINCT player FROM hand_players ORDER BY player`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var p string
		rows.Scan(&p)
		want = append(want, p)
	}
	rows.Close()
	if !slices.Equal(names, want) || len(want) == 0 {
		t.Errorf("%s: players %v, the rows name %v", what, names, want)
	}
}

// keptCountsLog returns a log of three tables whose hands go in out of their chains' order
// (second half first, halvesSwapped), one table's hands with findings (an injected
// table.stack, so hands.findings moves after the hand's row is written), with, at its end, a
// hand.ended of a clean table's hand again (a stray line: findings for a hand judged clean).
func keptCountsLog(t *testing.T) [][]byte {
	t.Helper()
	var log bytes.Buffer
	for _, cfg := range []sim.Config{
		{Rules: "std-draw", Players: 4, Hands: 30, Seed: 21, Table: "Cash-A", ExposeRate: -1, Cash: true},
		{Rules: "br-fechado", Players: 3, Hands: 24, Seed: 22, Table: "t-b", ExposeRate: -1},
		{Rules: "br-fechado", Players: 5, Hands: 30, Seed: 23, Table: "dirty", Inject: []finding.Code{finding.TableStack}},
	} {
		if err := sim.Run(cfg, &log); err != nil {
			t.Fatal(err)
		}
	}
	lines := halvesSwapped(t, log.Bytes())
	for _, l := range lines {
		if e, err := events.Parse(l); err == nil && e.Type == events.HandEndedType && e.Table == "t-b" {
			return append(lines, l)
		}
	}
	t.Fatal("no hand.ended at t-b")
	return nil
}

// The kept counts (player_totals, hand_counts, player_slices, player_positions) are what a scan
// of the hands' rows counts, whichever way the rows were written: filling empty read models
// (no trigger, counted once at the end: schema.Recount), with the triggers all along, with the
// triggers from the middle of the log (the bulk's limit of hands), after a stop in the middle of
// the bulk and a new projector, after a re-projection, and followed live (Run, the log growing
// while it projects: waiting hands judged and findings added in later transactions), on a log
// whose hands come out of their tables' order.
func TestKeptCountsAreAScansCounts(t *testing.T) {
	ctx := context.Background()
	lines := keptCountsLog(t)
	path := writeLines(t, t.TempDir(), lines)
	withFindings := func(db *sql.DB) int {
		var n int
		if err := db.QueryRow(`SELECT COUNT(*) FROM hands WHERE findings > 0`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	for _, c := range []struct {
		name             string
		bulkHands, batch int
	}{{"bulk", 0, 0}, {"triggers all along", -1, 7}, {"triggers after 9 hands", 9, 13}} {
		db := openDB(t)
		p := New(db, &FileSource{Path: path})
		p.bulkHands, p.BatchSize = c.bulkHands, c.batch
		if _, err := p.CatchUp(ctx); err != nil {
			t.Fatal(err)
		}
		if c.bulkHands == 0 && withFindings(db) < 5 {
			t.Fatalf("%d hands with findings: the test proves little", withFindings(db))
		}
		checkKeptCounts(t, db, c.name)

		if c.bulkHands == 0 {
			// A re-projection empties the read models (as a migration marked schema.ReprojectMark
			// does), then fills them again.
			tx, err := db.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := emptyReadModels(ctx, tx); err != nil {
				t.Fatal(err)
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			project(t, db, path, 0)
			checkKeptCounts(t, db, "re-projection")
		}
	}

	stopped := openDB(t)
	failAfter(t, stopped, &FileSource{Path: path}, len(lines)/2, 11)
	var counted int
	if err := stopped.QueryRow(`SELECT COALESCE(SUM(hands), 0) FROM hand_counts`).Scan(&counted); err != nil || counted != 0 {
		t.Fatalf("in the middle of the bulk hand_counts counts %d hands (%v), want none yet", counted, err)
	}
	checkReaders(t, stopped, "in the middle of the bulk")
	project(t, stopped, path, 0)
	checkReaders(t, stopped, "after the bulk")
	checkKeptCounts(t, stopped, "a stop in the bulk, then a new projector")

	// Live: the first third is there when Run starts, the rest is appended a sixth at a time.
	dir := t.TempDir()
	livePath := writeLines(t, dir, lines[:len(lines)/3])
	db := openDB(t)
	p := New(db, &FileSource{Path: livePath, PollInterval: time.Millisecond})
	p.BatchSize = 5
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- p.Run(runCtx) }()
	waitCheckpoint(t, db, uint64(len(lines)/3))
	f, err := os.OpenFile(livePath, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	step := len(lines) / 6
	for from := len(lines) / 3; from < len(lines); from += step {
		to := min(from+step, len(lines))
		for _, l := range lines[from:to] {
			f.Write(append(bytes.Clone(l), '\n'))
		}
		waitCheckpoint(t, db, uint64(to))
	}
	f.Close()
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	checkKeptCounts(t, db, "live")
	var waiting int
	if err := db.QueryRow(`SELECT COUNT(*) FROM hands WHERE audit_status = ?`, AuditWaiting).Scan(&waiting); err != nil || waiting != 0 {
		t.Errorf("live: %d hands still wait (%v)", waiting, err)
	}
}

// A hand counts once in player_hands (migration 0014) however many of its rows share a folded
// name: two names that fold alike, or one player in two seats (table.seating, findings-v1.md
// §1.1), as COUNT(DISTINCT hand_seq) counted it; by the trigger row by row and by schema.Recount
// (a bulk's end) alike, and CountHands by player reads the same total.
func TestPlayerHandsCountAHandOnceAFold(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	insert := func(seq int64, seat int, player string) {
		t.Helper()
		_, err := db.Exec(`INSERT INTO hand_players (hand_seq, seat, hand_id, player, position, start_stack, end_stack,
			net, put_in, returned, won, vpip, open_chance, opened, raised_pre, bets, raises, calls, checks, folded, drew,
			stood_pat, saw_second, went_to_showdown, won_at_showdown, aggressive_post, shown, player_fold)
			VALUES (?, ?, ?, ?, ?, 100, 100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '', ?)`,
			seq, seat, fmt.Sprintf("h-%d", seq), player, seat, fold(player))
		if err != nil {
			t.Fatal(err)
		}
	}
	insert(1, 1, "Ana")
	insert(1, 2, "ana") // folds as Ana: the same hand
	insert(1, 3, "Çağlar")
	insert(1, 4, "Çağlar") // one player in two seats
	insert(2, 1, "ANA")
	insert(2, 2, "ÇAĞLAR")
	insert(3, 1, "ana")
	want := map[string]int{"ana": 3, "çağlar": 2}
	check := func(what string) {
		t.Helper()
		if got := keptCounts(t, db); got != scannedCounts(t, db) {
			t.Errorf("%s: kept counts differ from the scan's: %s", what, firstDiff(scannedCounts(t, db), got))
		}
		for typed, n := range map[string]int{"ANA": want["ana"], "çağlar": want["çağlar"], "Caglar": 0} {
			got, err := CountHands(ctx, db, HandQuery{Player: typed})
			if err != nil {
				t.Fatal(err)
			}
			var rows int
			if err := db.QueryRow(`SELECT COUNT(DISTINCT hand_seq) FROM hand_players WHERE player_fold = ?`, fold(typed)).Scan(&rows); err != nil {
				t.Fatal(err)
			}
			if got != n || rows != n {
				t.Errorf("%s: %q has %d hands, the rows %d, want %d", what, typed, got, rows, n)
			}
		}
	}
	check("the trigger")
	for _, q := range schema.Recount {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	check("a recount")
}
