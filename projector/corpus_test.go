package projector

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/testfiles"
)

// vectorFiles are the example tables of four presets (24 hands) written by an independent
// implementation of the contract.
var vectorFiles = []string{"table-br-fechado", "table-br-online", "table-std-draw", "table-tr-kapali"}

// buildCorpus returns a stream of copies × the vector tables: each copy's tables get their own
// table ids, hands and events fresh ids (derived, so the corpus is the same on every run), and
// each hand's prev chain is sealed again. Tables are merged round-robin, one event at a time, so
// hands of different tables interleave as they do in a live stream. (The copies need their own
// ids: one log cannot hold an id twice.)
func buildCorpus(tb testing.TB, copies int) [][]byte {
	tb.Helper()
	var tables [][][]byte
	for k := range copies {
		for _, f := range vectorFiles {
			b, err := os.ReadFile(testfiles.File(tb, "vectors", f+".jsonl"))
			if err != nil {
				tb.Fatal(err)
			}
			salt := fmt.Sprintf("%d/%s/", k, f)
			id := func(old string) string {
				return uuid.NewSHA1(uuid.NameSpaceOID, []byte(salt+old)).String()
			}
			r := events.NewReader(bytes.NewReader(b), f)
			prev := map[string]string{}
			var lines [][]byte
			for {
				e, err := r.Next()
				if err != nil {
					break
				}
				e.ID, e.Hand = id(e.ID), id(e.Hand)
				e.Table = fmt.Sprintf("%s-%d", strings.TrimPrefix(f, "table-"), k)
				if hs, ok := e.Data.(*events.HandStarted); ok && hs.Previous != nil {
					p := id(*hs.Previous)
					hs.Previous = &p
				}
				events.Seal(e, prev[e.Hand])
				prev[e.Hand] = events.Hash(e.Raw)
				lines = append(lines, e.Raw)
			}
			if r.Line() == 0 {
				tb.Fatalf("%s: empty", f)
			}
			tables = append(tables, lines)
		}
	}
	var out [][]byte
	for i := 0; ; i++ {
		more := false
		for _, t := range tables {
			if i < len(t) {
				out = append(out, t[i])
				more = true
			}
		}
		if !more {
			return out
		}
	}
}

// writeLines writes lines as a JSON Lines file and returns its path.
func writeLines(tb testing.TB, dir string, lines [][]byte) string {
	tb.Helper()
	path := filepath.Join(dir, "log.jsonl")
	var b bytes.Buffer
	for _, l := range lines {
		b.Write(l)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// openDB opens a fresh database in a temporary directory.
func openDB(tb testing.TB) *sql.DB {
	tb.Helper()
	db, err := Open(context.Background(), filepath.Join(tb.TempDir(), "fechado.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// project projects the file at path into db in one CatchUp.
func project(tb testing.TB, db *sql.DB, path string, batch int) Progress {
	tb.Helper()
	p := New(db, &FileSource{Path: path})
	p.BatchSize = batch
	pr, err := p.CatchUp(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	return pr
}

// scanAny scans the current row of rs, of n columns, into values, a []byte given as a string
// (SQLite's text read without a type to scan into), for the tests that print rows.
func scanAny(tb testing.TB, rs *sql.Rows, n int) []any {
	tb.Helper()
	vals := make([]any, n)
	ptrs := make([]any, n)
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rs.Scan(ptrs...); err != nil {
		tb.Fatal(err)
	}
	for i, v := range vals {
		if b, ok := v.([]byte); ok {
			vals[i] = string(b)
		}
	}
	return vals
}

// dump returns every row of every table of db, table by table, ordered by primary key (or by
// every column where there is none), one line per row, then the SQL of every index and trigger.
// source_log is left out: it names the source (a log, or none for a file), not what the events
// gave.
func dump(tb testing.TB, db *sql.DB) string {
	tb.Helper()
	ctx := context.Background()
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table'
		AND name NOT LIKE 'sqlite_%' AND name <> 'source_log' ORDER BY name`)
	if err != nil {
		tb.Fatal(err)
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			tb.Fatal(err)
		}
		names = append(names, n)
	}
	rows.Close()
	var out strings.Builder
	for _, name := range names {
		info, err := db.QueryContext(ctx, `SELECT name, pk FROM pragma_table_info(?) ORDER BY pk, cid`, name)
		if err != nil {
			tb.Fatal(err)
		}
		var all, pk []string
		for info.Next() {
			var c string
			var k int
			if err := info.Scan(&c, &k); err != nil {
				tb.Fatal(err)
			}
			all = append(all, c)
			if k > 0 {
				pk = append(pk, c)
			}
		}
		info.Close()
		if len(pk) == 0 {
			pk = all
		}
		where := ""
		if name == "hand_counts" {
			// A count of no hands is no count: the triggers leave one where a slice's last hand
			// moved to "with findings", the count of a bulk's end (schema.Recount) none.
			where = " WHERE hands <> 0"
		}
		rs, err := db.QueryContext(ctx, "SELECT * FROM "+name+where+" ORDER BY "+strings.Join(pk, ", "))
		if err != nil {
			tb.Fatal(err)
		}
		cols, _ := rs.Columns()
		n := 0
		for rs.Next() {
			fmt.Fprintf(&out, "%s", name)
			for i, v := range scanAny(tb, rs, len(cols)) {
				fmt.Fprintf(&out, "|%s=%v", cols[i], v)
			}
			out.WriteByte('\n')
			n++
		}
		rs.Close()
		fmt.Fprintf(&out, "%s: %d rows\n", name, n)
	}
	rows, err = db.QueryContext(ctx, `SELECT type, name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY type, name`)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var kind, name, q string
		if err := rows.Scan(&kind, &name, &q); err != nil {
			tb.Fatal(err)
		}
		fmt.Fprintf(&out, "%s %s: %s\n", kind, name, q)
	}
	return out.String()
}

// firstDiff returns the first differing line of two dumps.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n  %s\n  %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(al), len(bl))
}
