package projector

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	_ "github.com/mattn/go-sqlite3" // the "sqlite3" database/sql driver

	"github.com/fechado/fechado/schema"
)

// DefaultBusyTimeout is how long, in milliseconds, a connection waits for a lock held by another
// before SQLite reports "database is locked".
const DefaultBusyTimeout = 5000

// ErrSchemaNewer is returned by Migrate when the database holds migrations this program does not
// know: it was written by a newer fechado.
var ErrSchemaNewer = errors.New("projector: the database schema is newer than this program")

// ErrBadPath is returned by Open for a database path that cannot be passed to SQLite as it is.
var ErrBadPath = errors.New("projector: database path must not contain '?' or start with 'file:'")

// Open opens (creating it if needed) the SQLite database at path in WAL mode with synchronous
// NORMAL, a busy timeout and IMMEDIATE write transactions (research/eventsourcing.md §3.2), and
// applies the migrations it lacks.
func Open(ctx context.Context, path string) (*sql.DB, error) {
	if strings.ContainsRune(path, '?') || strings.HasPrefix(path, "file:") || path == "" {
		return nil, fmt.Errorf("%w: %q", ErrBadPath, path)
	}
	dsn := fmt.Sprintf("%s?_journal_mode=WAL&_synchronous=NORMAL&_busy_timeout=%d&_txlock=immediate&_stmt_cache_size=%d",
		path, DefaultBusyTimeout, stmtCache)
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, err
	}
	// Connections kept open between uses: a new one reads the schema again, and the projector's
	// statements are prepared once per connection (Projector.prepared), so a reader's burst
	// (serve's web clients) would otherwise leave two of them and close the rest.
	db.SetMaxIdleConns(idleConns)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if err := Migrate(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// idleConns is how many connections Open's database keeps open while unused.
const idleConns = 8

// stmtCache is how many prepared statements each connection keeps, by their text, for the next
// query of the same text (go-sqlite3's _stmt_cache_size): the web API's reads are a few dozen
// fixed texts, and preparing one (parsing the SQL, planning it against the schema) cost 6% of
// serve's CPU under 20 clients before the cache. A statement kept is reset, so it holds no read
// transaction; after a migration or a bulk's DROP INDEX SQLite prepares it again by itself.
const stmtCache = 64

// OpenReadOnly opens the read models at path for reading only, as a reader beside a projector
// does (a command reading a hand while serve projects): it creates nothing and migrates nothing,
// and waits up to a second for a writer's lock. It fails when there is no file at path.
func OpenReadOnly(ctx context.Context, path string) (*sql.DB, error) {
	if strings.ContainsAny(path, "?#") || strings.HasPrefix(path, "file:") || path == "" {
		return nil, fmt.Errorf("%w: %q", ErrBadPath, path)
	}
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite3", fmt.Sprintf("file:%s?mode=ro&_busy_timeout=1000&_stmt_cache_size=%d", path, stmtCache))
	if err != nil {
		return nil, err
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// Migration is one numbered SQL file of schema.Migrations.
type Migration struct {
	Version int    // the file's number
	Name    string // the file's name, e.g. "0001_init.sql"
	SQL     string
	// Reproject is set for a migration that carries schema.ReprojectMark: applying it also
	// empties every read model and the checkpoint, so the projector projects the log again.
	Reproject bool
}

var migrationName = regexp.MustCompile(`^([0-9]{4})_[a-z0-9_]+\.sql$`)

// Migrations returns the migrations embedded in the binary, in the order of their versions.
func Migrations() ([]Migration, error) {
	names, err := fs.Glob(schema.Migrations, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var ms []Migration
	for _, p := range names {
		name := strings.TrimPrefix(p, "migrations/")
		m := migrationName.FindStringSubmatch(name)
		if m == nil {
			return nil, fmt.Errorf("projector: migration %s: name is not NNNN_name.sql", name)
		}
		v, _ := strconv.Atoi(m[1])
		b, err := fs.ReadFile(schema.Migrations, p)
		if err != nil {
			return nil, err
		}
		ms = append(ms, Migration{Version: v, Name: name, SQL: string(b), Reproject: schema.Reprojects(string(b))})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Version < ms[j].Version })
	for i := 1; i < len(ms); i++ {
		if ms[i].Version == ms[i-1].Version {
			return nil, fmt.Errorf("projector: migrations %s and %s share a number", ms[i-1].Name, ms[i].Name)
		}
	}
	return ms, nil
}

// Migrate applies, in order, each embedded migration the database has not run, each in its own
// transaction together with its row in schema_migrations(version, name).
func Migrate(ctx context.Context, db *sql.DB) error {
	ms, err := Migrations()
	if err != nil {
		return err
	}
	return migrate(ctx, db, ms)
}

// migrate applies those of ms, in order, that the database has not run.
func migrate(ctx context.Context, db *sql.DB, ms []Migration) error {
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY,
		name    TEXT NOT NULL
	)`); err != nil {
		return fmt.Errorf("projector: schema_migrations: %w", err)
	}
	var newest sql.NullInt64
	if err := db.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&newest); err != nil {
		return fmt.Errorf("projector: schema_migrations: %w", err)
	}
	if len(ms) > 0 && newest.Valid && int(newest.Int64) > ms[len(ms)-1].Version {
		return fmt.Errorf("%w: it has migration %d, this program knows up to %d",
			ErrSchemaNewer, newest.Int64, ms[len(ms)-1].Version)
	}
	for _, m := range ms {
		if err := apply(ctx, db, m); err != nil {
			return fmt.Errorf("projector: migration %s: %w", m.Name, err)
		}
	}
	return nil
}

func apply(ctx context.Context, db *sql.DB, m Migration) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE version = ?`, m.Version).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
		return err
	}
	if m.Reproject {
		if err := emptyReadModels(ctx, tx); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name) VALUES (?, ?)`, m.Version, m.Name); err != nil {
		return err
	}
	return tx.Commit()
}

// emptyReadModels deletes every row of the checkpoint and of each read model of
// schema.ReadModels that the database has so far (a migration re-projects before later ones
// create the rest).
func emptyReadModels(ctx context.Context, tx *sql.Tx) error {
	for _, name := range append([]string{schema.Checkpoint}, schema.ReadModels...) {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?`, name).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			continue
		}
		// The name comes from the list in package schema, never from input.
		if _, err := tx.ExecContext(ctx, `DELETE FROM "`+name+`"`); err != nil {
			return fmt.Errorf("emptying %s: %w", name, err)
		}
	}
	return nil
}
