package projector

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/sim"
)

// flatDB projects three tables, one with an irregularity injected into its hands (findings, and
// hands.findings written after the hand's row), in two runs of two projectors: the first half of
// the lines, then, by a new projector resuming from the checkpoint, the rest.
func flatDB(t *testing.T) *sql.DB {
	t.Helper()
	var lines [][]byte
	for _, cfg := range []sim.Config{
		{Rules: "std-draw", Players: 4, Hands: 30, Seed: 11, Table: "Cash-A", ExposeRate: -1, Cash: true},
		{Rules: "br-fechado", Players: 3, Hands: 20, Seed: 12, Table: "t-b", ExposeRate: -1},
		{Rules: "std-draw", Players: 5, Hands: 25, Seed: 13, Table: "dirty", ExposeRate: -1,
			Inject: []finding.Code{sim.InjectableFor("std-draw")[0]}},
	} {
		hs, err := sim.All(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hs {
			for _, e := range h.Events {
				lines = append(lines, bytes.Clone(e.Raw))
			}
		}
	}
	db := openDB(t)
	dir := t.TempDir()
	path := writeLines(t, dir, lines[:len(lines)/2])
	project(t, db, path, 7)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines[len(lines)/2:] {
		f.Write(append(l, '\n'))
	}
	f.Close()
	project(t, db, path, 7)
	return db
}

// scanPositions is OpenByPosition as it was before player_positions: every hand's rows summed.
func scanPositions(t *testing.T, db *sql.DB, f Filter) []PositionStats {
	t.Helper()
	where, args := f.where()
	rows, err := db.Query(`SELECT hp.player, hp.position, COUNT(*), SUM(hp.open_chance), SUM(hp.opened)
		FROM hand_players hp JOIN hands h ON h.stream_seq = hp.hand_seq`+where+
		` GROUP BY hp.player, hp.position ORDER BY hp.player, hp.position`, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []PositionStats
	for rows.Next() {
		var s PositionStats
		if err := rows.Scan(&s.Player, &s.Position, &s.Hands, &s.Chances, &s.Opens); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// TestKeptCountsAreTheHandsCounts proves that the kept counts of migration 0012 are what summing
// the hands' rows gives, for every filter they serve, after a projection that stopped half-way
// and resumed with a new projector (each hand counted once), and that a re-projection's emptying
// leaves none of them.
func TestKeptCountsAreTheHandsCounts(t *testing.T) {
	db := flatDB(t)
	ctx := context.Background()
	withFindings := 0
	if err := db.QueryRow(`SELECT COUNT(*) FROM hands WHERE findings > 0`).Scan(&withFindings); err != nil || withFindings == 0 {
		t.Fatalf("%d hands with findings (%v): the injected table should have some", withFindings, err)
	}
	for _, q := range []HandQuery{{}, {Table: "CASH-A"}, {Table: "dirty"}, {Preset: "std-draw"}, {Preset: "br-fechado"},
		{WithFindings: true}, {Table: "dirty", WithFindings: true}, {Table: "t-b", WithFindings: true},
		{Preset: "std-draw", WithFindings: true}, {Table: "nowhere"}, {Player: "ANA"}, {Player: "nobody"}} {
		got, err := CountHands(ctx, db, q)
		if err != nil {
			t.Fatal(err)
		}
		where, args := q.where()
		var want int
		if err := db.QueryRow("SELECT COUNT(*) FROM hands h"+where, args...).Scan(&want); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%+v: %d hands from the kept counts, %d counted", q, got, want)
		}
	}
	for _, f := range []Filter{{Tables: []string{"Cash-A"}}, {Tables: []string{"Cash-A", "dirty"}}, {Presets: []string{"std-draw"}},
		{Presets: []string{"br-fechado"}, Tables: []string{"t-b"}}, {Presets: []string{"br-fechado"}, Tables: []string{"dirty"}},
		{Players: []string{"nobody"}, Tables: []string{"t-b"}}, {}} {
		if !f.sliced() {
			t.Fatalf("%+v is served by the kept counts", f)
		}
		got, err := PlayerStats(ctx, db, f)
		if err != nil {
			t.Fatal(err)
		}
		if want := scanStats(t, db, f); !reflect.DeepEqual(got, want) {
			t.Errorf("statistics of %+v:\nkept  %+v\nhands %+v", f, got, want)
		}
		pos, err := OpenByPosition(ctx, db, f)
		if err != nil {
			t.Fatal(err)
		}
		if want := scanPositions(t, db, f); !reflect.DeepEqual(pos, want) {
			t.Errorf("opens by position of %+v:\nkept  %+v\nhands %+v", f, pos, want)
		}
	}
	some, _ := PlayerStats(ctx, db, Filter{Presets: []string{"std-draw"}})
	if len(some) == 0 {
		t.Fatal("no player in the std-draw hands")
	}
	one := Filter{Players: []string{some[0].Player}, Tables: []string{"Cash-A", "dirty"}}
	if got, want := scanStats(t, db, one), func() []Stats { s, _ := PlayerStats(ctx, db, one); return s }(); !reflect.DeepEqual(got, want) {
		t.Errorf("one player at two tables: hands %+v, kept %+v", got, want)
	}
	// A player's pages, read from his newest hands, put together are his whole list.
	all, err := Hands(ctx, db, HandQuery{Player: some[0].Player})
	if err != nil || len(all) < 20 {
		t.Fatalf("%s: %d hands (%v)", some[0].Player, len(all), err)
	}
	var paged []HandRow
	for off := 0; off < len(all)+7; off += 7 {
		page, err := Hands(ctx, db, HandQuery{Player: strings.ToUpper(some[0].Player), Limit: 7, Offset: off})
		if err != nil {
			t.Fatal(err)
		}
		paged = append(paged, page...)
	}
	if !reflect.DeepEqual(paged, all) {
		t.Errorf("%s's pages of 7 give %d hands, his list %d, or another order", some[0].Player, len(paged), len(all))
	}
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
	for _, table := range []string{"hand_counts", "player_slices", "player_positions"} {
		var n int
		if err := db.QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&n); err != nil || n != 0 {
			t.Errorf("emptied read models leave %d rows of %s (%v)", n, table, err)
		}
	}
}

// queryPlan returns SQLite's plan of query, one step a line.
func queryPlan(t *testing.T, db *sql.DB, query string, args ...any) string {
	t.Helper()
	rows, err := db.Query("EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var id, parent, notused int
		var detail string
		if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
			t.Fatal(err)
		}
		b.WriteString(detail + "\n")
	}
	return b.String()
}

// TestListsReadNoWholeTable proves that the reads of the web API's lists and statistics go
// through an index or a kept count, never through every hand: a plan that scans hands or
// hand_players (SCAN without an index), or sorts a table's or a preset's hands, grows with the
// log.
func TestListsReadNoWholeTable(t *testing.T) {
	db := openDB(t)
	pageOf := func(q HandQuery) (string, []any) {
		where, args := q.where()
		return "SELECT " + handColumns + " FROM hands h" + where + " ORDER BY h.stream_seq DESC LIMIT ? OFFSET ?", append(args, 100, 0)
	}
	type read struct {
		name  string
		query string
		args  []any
		uses  string // the index or kept table the plan must name
	}
	var reads []read
	for _, c := range []struct {
		q    HandQuery
		uses string
	}{{HandQuery{Table: "T", tableIDs: []string{"T"}}, "hands_table"}, {HandQuery{Preset: "std-draw"}, "hands_preset"},
		{HandQuery{WithFindings: true}, "hands_with_findings"}} {
		q, args := pageOf(c.q)
		reads = append(reads, read{"page of hands " + c.uses, q, args, c.uses})
	}
	for _, q := range []HandQuery{{}, {Table: "T"}, {Preset: "std-draw"}, {WithFindings: true}, {Table: "T", Preset: "std-draw", WithFindings: true}} {
		cq, args, ok := q.countsQuery()
		if !ok {
			t.Fatalf("%+v is not counted from hand_counts", q)
		}
		reads = append(reads, read{"total of hands", cq, args, "hand_counts"})
	}
	cq, cargs, _ := HandQuery{Player: "Ana"}.countsQuery()
	reads = append(reads, read{"total of a player's hands", cq, cargs, "player_hands"})
	q, args := pageOf(HandQuery{Player: "Ana", playerPage: 100})
	reads = append(reads, read{"page of a player's hands", q, args, "hand_players_player_fold"})
	for _, f := range []Filter{{Tables: []string{"T"}}, {Presets: []string{"std-draw"}}, {Players: []string{"Ana"}, Tables: []string{"T"}}} {
		q, args := slicesQuery(f)
		reads = append(reads, read{"statistics", q, args, "player_slices"})
		q, args = positionsQuery(f)
		reads = append(reads, read{"opens by position", q, args, "player_positions"})
	}
	reads = append(reads,
		read{"last hand ended", `SELECT COALESCE(MAX(end_seq), 0) FROM hands`, nil, "hands_end"},
		read{"hands ended since", `SELECT hand_id, end_seq FROM hands WHERE end_seq > ? ORDER BY end_seq DESC LIMIT ?`, []any{1, 50}, "hands_end"})
	for _, r := range reads {
		p := queryPlan(t, db, r.query, r.args...)
		if !strings.Contains(p, r.uses) {
			t.Errorf("%s does not use %s:\n%s", r.name, r.uses, p)
		}
		for _, line := range strings.Split(p, "\n") {
			f := strings.Fields(line)
			if (len(f) >= 2 && f[0] == "SCAN" && (f[1] == "h" || f[1] == "hands" || f[1] == "hand_players" || f[1] == "hp") &&
				!strings.Contains(line, "INDEX")) || strings.Contains(line, "TEMP B-TREE FOR ORDER BY") {
				t.Errorf("%s reads every row or sorts them (%q):\n%s", r.name, line, p)
			}
		}
	}
}

// TestHistoriesGiveTheirLastRows proves that a table's chip counts, a player's results and his
// comings and goings bounded to their last rows are the end of the whole history, in its order.
func TestHistoriesGiveTheirLastRows(t *testing.T) {
	db := flatDB(t)
	ctx := context.Background()
	allChips, err := ChipCounts(ctx, db, "Cash-A", 0)
	if err != nil || len(allChips) == 0 {
		t.Fatalf("%d chip counts (%v)", len(allChips), err)
	}
	last, _ := ChipCounts(ctx, db, "Cash-A", 5)
	hands := map[string]bool{}
	for _, p := range last {
		hands[p.Hand] = true
	}
	if len(hands) != 5 || !reflect.DeepEqual(last, allChips[len(allChips)-len(last):]) {
		t.Errorf("the last 5 hands' chip counts (%d hands) are not the end of every hand's", len(hands))
	}
	stats, _ := PlayerStats(ctx, db, Filter{})
	player := stats[0].Player
	all, _ := PlayerResults(ctx, db, player, 0)
	if len(all) != stats[0].Hands {
		t.Fatalf("%s: %d results, %d hands", player, len(all), stats[0].Hands)
	}
	// The last 7 in stream order (the tables were recorded one after another, so not the last 7
	// started), in the order they started.
	lastSeven := map[string]bool{}
	rows, err := db.Query(`SELECT hand_id FROM hand_players WHERE player = ? ORDER BY hand_seq DESC LIMIT 7`, player)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var h string
		rows.Scan(&h)
		lastSeven[h] = true
	}
	rows.Close()
	var want []NetPoint
	for _, p := range all {
		if lastSeven[p.Hand] {
			want = append(want, p)
		}
	}
	if some, _ := PlayerResults(ctx, db, player, 7); len(want) != 7 || !reflect.DeepEqual(some, want) {
		t.Errorf("%s's last 7 results\n%+v\nare not\n%+v", player, some, want)
	}
	var mover string
	if err := db.QueryRow(`SELECT player FROM seat_changes GROUP BY player ORDER BY COUNT(*) DESC LIMIT 1`).Scan(&mover); err != nil {
		t.Fatal("no seat changes in the cash table's hands")
	}
	every, _ := PlayerSessions(ctx, db, mover, 0)
	if n := len(every); n < 2 {
		t.Fatalf("%s: %d seat changes", mover, n)
	} else {
		if some, _ := PlayerSessions(ctx, db, mover, n-1); len(some) != n-1 || some[len(some)-1] != every[n-1] {
			t.Errorf("%s's last %d changes %+v are not the end of all %+v", mover, n-1, some, every)
		}
	}
}
