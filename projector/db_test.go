package projector

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/schema"
)

func TestMigrationsAppliedOnceInOrder(t *testing.T) {
	ctx := context.Background()
	ms, err := Migrations()
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) == 0 || ms[0].Version != 1 || ms[0].Name != "0001_init.sql" {
		t.Fatalf("migrations %v, want 0001_init.sql first", ms)
	}
	for i := 1; i < len(ms); i++ {
		if ms[i].Version <= ms[i-1].Version {
			t.Fatalf("migrations out of order: %s after %s", ms[i].Name, ms[i-1].Name)
		}
	}
	path := filepath.Join(t.TempDir(), "fechado.db")
	for range 2 { // opening again applies nothing
		db, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		var n, last int
		if err := db.QueryRow(`SELECT COUNT(*), MAX(version) FROM schema_migrations`).Scan(&n, &last); err != nil {
			t.Fatal(err)
		}
		if n != len(ms) || last != ms[len(ms)-1].Version {
			t.Fatalf("schema_migrations: %d rows up to %d, want %d up to %d", n, last, len(ms), ms[len(ms)-1].Version)
		}
		var mode string
		db.QueryRow(`PRAGMA journal_mode`).Scan(&mode)
		if mode != "wal" {
			t.Errorf("journal_mode %s, want wal", mode)
		}
		var sync int
		db.QueryRow(`PRAGMA synchronous`).Scan(&sync)
		if sync != 1 {
			t.Errorf("synchronous %d, want 1 (NORMAL)", sync)
		}
		db.Close()
	}
	// A database from a newer program is refused.
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO schema_migrations VALUES (9999, '9999_future.sql')`); err != nil {
		t.Fatal(err)
	}
	if err := Migrate(ctx, db); !errors.Is(err, ErrSchemaNewer) {
		t.Fatalf("Migrate: %v, want ErrSchemaNewer", err)
	}
	db.Close()
	if _, err := Open(ctx, "x.db?mode=memory"); !errors.Is(err, ErrBadPath) {
		t.Fatalf("Open with '?': %v, want ErrBadPath", err)
	}
}

// The audit hook sees each whole hand once, and its findings are stored with the hand's status.
func TestAuditHookStoresFindings(t *testing.T) {
	ctx := context.Background()
	lines := buildCorpus(t, 1)
	db := openDB(t)
	p := New(db, &FileSource{Path: writeLines(t, t.TempDir(), lines)})
	calls := 0
	p.Audit = func(hand []*events.Event, prev *audit.TableMemory) ([]finding.Finding, *audit.TableMemory) {
		calls++
		if hand[0].Type != events.HandStartedType || hand[len(hand)-1].Type != events.HandEndedType {
			t.Errorf("audit got %s..%s", hand[0].Type, hand[len(hand)-1].Type)
		}
		for i, e := range hand {
			if int(e.Seq) != i+1 {
				t.Errorf("audit: event %d has seq %d", i, e.Seq)
			}
		}
		// What the hand leaves: the next hand of its table follows it (handorder).
		number := hand[0].Data.(*events.HandStarted).Number
		next := &audit.TableMemory{Hand: hand[0].Hand, Number: number}
		switch number {
		case 2:
			return []finding.Finding{{Seq: 3, Code: "deck.unrevealed", Severity: finding.Warning, Message: "w"},
				{Seq: 9, Code: "pot.split", Severity: finding.Error, Seat: 2, Message: "e", Expected: 40, Actual: []int{20, 21}}}, next
		case 3:
			return []finding.Finding{{Seq: 1, Code: "log.incomplete", Severity: finding.Info, Message: "i"}}, next
		}
		return nil, next
	}
	if _, err := p.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	if calls != 24 {
		t.Fatalf("audit called %d times, want 24", calls)
	}
	rows, err := db.Query(`SELECT number, audit_status, findings, COUNT(*) FROM hands GROUP BY 1, 2, 3 ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]struct {
		status string
		n      int
	}{1: {"ok", 0}, 2: {"error", 2}, 3: {"info", 1}, 4: {"ok", 0}, 5: {"ok", 0}, 6: {"ok", 0}}
	for rows.Next() {
		var number, n, count int
		var status string
		rows.Scan(&number, &status, &n, &count)
		if w := want[number]; w.status != status || w.n != n || count != 4 {
			t.Errorf("hands #%d: %s, %d findings (%d hands), want %s, %d (4 hands)", number, status, n, count, w.status, w.n)
		}
	}
	rows.Close()
	var n, seats int
	db.QueryRow(`SELECT COUNT(*), COUNT(seat) FROM findings`).Scan(&n, &seats)
	if n != 12 || seats != 4 {
		t.Errorf("%d findings (%d with a seat), want 12 (4)", n, seats)
	}
	var exp, act string
	db.QueryRow(`SELECT expected, actual FROM findings WHERE code = 'pot.split' LIMIT 1`).Scan(&exp, &act)
	if exp != "40" || act != "[20,21]" {
		t.Errorf("pot.split stored expected %q, actual %q; want 40, [20,21]", exp, act)
	}
}

// A migration marked schema.ReprojectMark empties every read model and the checkpoint: a database
// left at migration 0001 with the rows of a whole log, migrated, starts again from the first
// message and ends with the rows of a fresh projection of that log. The marked migrations are
// 0002 to 0005 and 0007 to 0009, and schema.ReadModels names every table but the checkpoint, the
// deferred indexes' and the runner's own.
func TestReprojectingMigrationFromAFileGivesAFreshProjection(t *testing.T) {
	ctx := context.Background()
	ms, err := Migrations()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if want := m.Version >= 2 && m.Version <= 5 || m.Version >= 7 && m.Version <= 9; m.Reproject != want {
			t.Errorf("%s: Reproject %v, want %v", m.Name, m.Reproject, want)
		}
	}
	log, _ := simTournament(t)
	var lines [][]byte
	lines = append(lines, buildCorpus(t, 1)...)
	lines = append(lines, bytes.Split(bytes.TrimSuffix(log, []byte("\n")), []byte("\n"))...)
	dir := t.TempDir()
	path := writeLines(t, dir, lines)

	freshPath := filepath.Join(dir, "fresh.db")
	fresh, err := Open(ctx, freshPath)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	project(t, fresh, path, 100)
	want := dump(t, fresh)
	tables := tableNames(t, fresh)
	readModels := slices.DeleteFunc(slices.Clone(tables), func(n string) bool {
		return n == schema.Checkpoint || n == schema.DeferredTable || n == "schema_migrations"
	})
	if got := slices.Sorted(slices.Values(schema.ReadModels)); !slices.Equal(got, readModels) {
		t.Errorf("schema.ReadModels %v; the tables besides the checkpoint, %s and schema_migrations are %v", got, schema.DeferredTable, readModels)
	}

	// The rows of the whole log, as a projector of migration 0001 left them.
	old := olderDatabase(t, filepath.Join(dir, "old.db"), freshPath, ms[:1])
	var hands, checkpoint int
	if err := old.QueryRow(`SELECT (SELECT COUNT(*) FROM hands), (SELECT MAX(stream_seq) FROM checkpoint)`).Scan(&hands, &checkpoint); err != nil {
		t.Fatal(err)
	}
	if hands == 0 || checkpoint != len(lines) {
		t.Fatalf("the database at 0001 holds %d hands up to message %d, want some up to %d", hands, checkpoint, len(lines))
	}

	if err := Migrate(ctx, old); err != nil {
		t.Fatal(err)
	}
	for _, name := range append([]string{schema.Checkpoint}, schema.ReadModels...) {
		var n int
		if err := old.QueryRow(fmt.Sprintf(`SELECT COUNT(*) FROM "%s"`, name)).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Errorf("after the migrations %s holds %d rows, want none", name, n)
		}
	}
	if pr := project(t, old, path, 100); pr.Checkpoint != uint64(len(lines)) {
		t.Fatalf("the migrated database projected up to %d, want %d", pr.Checkpoint, len(lines))
	}
	if got := dump(t, old); got != want {
		t.Fatalf("the migrated database's rows differ from a fresh projection's: %s", firstDiff(want, got))
	}
}

// olderDatabase returns a database at path that has run the migrations ms only and holds the
// rows of the database at freshPath, as a projector of those migrations would have left them:
// every column the older tables have, copied, and the checkpoint.
func olderDatabase(t *testing.T, path, freshPath string, ms []Migration) *sql.DB {
	t.Helper()
	ctx := context.Background()
	old, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { old.Close() })
	old.SetMaxOpenConns(1) // ATTACH holds for one connection
	if err := migrate(ctx, old, ms); err != nil {
		t.Fatal(err)
	}
	if _, err := old.ExecContext(ctx, `ATTACH DATABASE ? AS fresh`, freshPath); err != nil {
		t.Fatal(err)
	}
	for _, name := range tableNames(t, old) {
		if name == "schema_migrations" {
			continue
		}
		cols := commonColumns(t, old, name)
		q := fmt.Sprintf(`INSERT INTO main."%s" (%s) SELECT %s FROM fresh."%s"`, name, cols, cols, name)
		if _, err := old.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if _, err := old.ExecContext(ctx, `DETACH DATABASE fresh`); err != nil {
		t.Fatal(err)
	}
	return old
}

// Migration 0010 keeps every row: a database of 0009 holding a whole projection, migrated, holds
// the rows and indexes of a fresh one, and hands_hand_id keeps a hand id from being stored twice.
func TestMigration0010KeepsTheRows(t *testing.T) {
	ctx := context.Background()
	ms, err := Migrations()
	if err != nil {
		t.Fatal(err)
	}
	if ms[9].Version != 10 || ms[9].Reproject {
		t.Fatalf("migration %s (re-projects: %v), want 0010, which does not", ms[9].Name, ms[9].Reproject)
	}
	dir := t.TempDir()
	freshPath := filepath.Join(dir, "fresh.db")
	fresh, err := Open(ctx, freshPath)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	lines := buildCorpus(t, 1)
	project(t, fresh, writeLines(t, dir, lines), 100)
	want := dump(t, fresh)

	old := olderDatabase(t, filepath.Join(dir, "old.db"), freshPath, ms[:9])
	if err := Migrate(ctx, old); err != nil {
		t.Fatal(err)
	}
	if got := dump(t, old); got != want {
		t.Fatalf("the migrated database differs from a fresh one: %s", firstDiff(want, got))
	}
	_, err = old.ExecContext(ctx, `INSERT INTO hands (stream_seq, hand_id, table_id, number, preset, dealer, players,
		ante, min_bet, max_bet, carry_in, passed_out, started_at, started_ms)
		SELECT stream_seq + 1000000, hand_id, table_id, number, preset, dealer, players, ante, min_bet, max_bet,
			carry_in, passed_out, started_at, started_ms FROM hands LIMIT 1`)
	if err == nil || !strings.Contains(err.Error(), "UNIQUE") {
		t.Errorf("a hand id stored twice after the migration: %v, want a UNIQUE constraint failure", err)
	}
}

// tableNames returns the names of db's tables, sorted.
func tableNames(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query(`SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		out = append(out, n)
	}
	return out
}

// commonColumns returns the columns table has both in db's main database and in the attached
// one named fresh, comma-separated.
func commonColumns(t *testing.T, db *sql.DB, table string) string {
	t.Helper()
	rows, err := db.Query(`SELECT m.name FROM pragma_table_info(?, 'main') m
		JOIN pragma_table_info(?, 'fresh') f ON f.name = m.name ORDER BY m.cid`, table, table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			t.Fatal(err)
		}
		cols = append(cols, `"`+c+`"`)
	}
	if len(cols) == 0 {
		t.Fatalf("table %s has no column in common", table)
	}
	return strings.Join(cols, ", ")
}
