package projector

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fechado/fechado/events"
)

// benchCopies is how many copies of the four vector tables the benchmarks interleave: 200
// tables, 1,200 hands, about 58,500 events.
const benchCopies = 50

// plainRow is one row the baseline inserts, with the statement that inserts it.
type plainRow struct {
	stmt int
	args []any
}

// plainRows reads back every row a projection of the corpus wrote (but the checkpoint) and
// files it under the stream sequence of the event that completes it: single-event rows under
// their own, a hand's rows under its hand.ended, the tables under the last message.
func plainRows(b *testing.B, db *sql.DB, last uint64) (map[uint64][]plainRow, []string) {
	b.Helper()
	var inserts []string
	out := map[uint64][]plainRow{}
	add := func(table, query string) {
		rows, err := db.Query(query)
		if err != nil {
			b.Fatal(err)
		}
		cols, _ := rows.Columns()
		cols = cols[1:] // the first column is the stream sequence to file the row under
		inserts = append(inserts, fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", table,
			strings.Join(cols, ", "), strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ")))
		for rows.Next() {
			vals := make([]any, len(cols)+1)
			ptrs := make([]any, len(vals))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				b.Fatal(err)
			}
			seq := uint64(vals[0].(int64))
			out[seq] = append(out[seq], plainRow{len(inserts) - 1, vals[1:]})
		}
		rows.Close()
	}
	add("hands", `SELECT end_seq, * FROM hands`)
	add("hand_players", `SELECT h.end_seq, hp.* FROM hand_players hp JOIN hands h USING (hand_id)`)
	add("pots", `SELECT h.end_seq, p.* FROM pots p JOIN hands h USING (hand_id)`)
	add("actions", `SELECT stream_seq, * FROM actions`)
	add("draws", `SELECT stream_seq, * FROM draws`)
	add("awards", `SELECT stream_seq, * FROM awards`)
	add("tables", fmt.Sprintf(`SELECT %d, * FROM tables`, last))
	return out, inserts
}

// plainInsert is the baseline: the same file source, each event decoded, and the same rows
// inserted into the same schema in transactions of the same size; no checkpoint, no hand state,
// no checks, no quarantine, no Live.
func plainInsert(b *testing.B, db *sql.DB, path string, rows map[uint64][]plainRow, inserts []string) {
	ctx := context.Background()
	var tx *sql.Tx
	var stmts []*sql.Stmt
	n := 0
	commit := func() {
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
		tx = nil
	}
	err := (&FileSource{Path: path}).Read(ctx, 1, func(m Message) error {
		if _, err := events.Parse(m.Data); err != nil {
			return err
		}
		if tx == nil {
			var err error
			if tx, err = db.Begin(); err != nil {
				return err
			}
			stmts = stmts[:0]
			for _, q := range inserts {
				s, err := tx.Prepare(q)
				if err != nil {
					return err
				}
				stmts = append(stmts, s)
			}
		}
		for _, r := range rows[m.Seq] {
			if _, err := stmts[r.stmt].Exec(r.args...); err != nil {
				return err
			}
		}
		if n++; n%DefaultBatchSize == 0 {
			commit()
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	if tx != nil {
		commit()
	}
}

// BenchmarkProject measures the projector on an interleaved file of 200 tables and the plain
// batched inserts of the same rows, and reports both rates and their ratio (target >= 0.5).
func BenchmarkProject(b *testing.B) {
	lines := buildCorpus(b, benchCopies)
	path := writeLines(b, b.TempDir(), lines)
	ref := openDB(b)
	project(b, ref, path, 0)
	rows, inserts := plainRows(b, ref, uint64(len(lines)))
	nRows := 0
	for _, rs := range rows {
		nRows += len(rs)
	}
	dir := b.TempDir()
	var projT, plainT time.Duration
	i := 0
	for b.Loop() {
		b.StopTimer()
		i++
		db1, err := Open(context.Background(), filepath.Join(dir, fmt.Sprintf("p%d.db", i)))
		if err != nil {
			b.Fatal(err)
		}
		db2, err := Open(context.Background(), filepath.Join(dir, fmt.Sprintf("q%d.db", i)))
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		t0 := time.Now()
		project(b, db1, path, 0)
		t1 := time.Now()
		plainInsert(b, db2, path, rows, inserts)
		t2 := time.Now()
		projT += t1.Sub(t0)
		plainT += t2.Sub(t1)
		b.StopTimer()
		db1.Close()
		db2.Close()
		b.StartTimer()
	}
	n := float64(len(lines) * i)
	b.ReportMetric(n/projT.Seconds(), "events/s")
	b.ReportMetric(n/plainT.Seconds(), "plain-events/s")
	b.ReportMetric(plainT.Seconds()/projT.Seconds(), "ratio")
	b.ReportMetric(float64(nRows)/float64(len(lines)), "rows/event")
}

// BenchmarkProjectFromLog measures the projector reading the real stream from an embedded
// JetStream server.
func BenchmarkProjectFromLog(b *testing.B) {
	lines := buildCorpus(b, benchCopies/5)
	l := openLog(b)
	publishLines(b, l, lines)
	dir := b.TempDir()
	i := 0
	for b.Loop() {
		b.StopTimer()
		i++
		db, err := Open(context.Background(), filepath.Join(dir, fmt.Sprintf("p%d.db", i)))
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		p := New(db, &LogSource{Log: l})
		if _, err := p.CatchUp(context.Background()); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		db.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(len(lines)*i)/b.Elapsed().Seconds(), "events/s")
}
