package projector

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
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
		switch hand[0].Data.(*events.HandStarted).Number {
		case 2:
			return []finding.Finding{{Seq: 3, Code: "deck.unrevealed", Severity: finding.Warning, Message: "w"},
				{Seq: 9, Code: "pot.split", Severity: finding.Error, Seat: 2, Message: "e", Expected: 40, Actual: []int{20, 21}}}, prev
		case 3:
			return []finding.Finding{{Seq: 1, Code: "log.incomplete", Severity: finding.Info, Message: "i"}}, prev
		}
		return nil, prev
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
