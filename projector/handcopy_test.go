package projector

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder"
)

// stored is a hand's read as text: each event's stream sequence and line, in the order delivered.
func stored(t *testing.T, read func(fn func(recorder.Stored) error) error) string {
	t.Helper()
	var b strings.Builder
	if err := read(func(s recorder.Stored) error {
		fmt.Fprintf(&b, "%d %s\n", s.Seq, s.Event.Raw)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// handsOf returns the hand ids of lines in order of first appearance, and each hand's lines.
func handsOf(t *testing.T, lines [][]byte) ([]string, map[string][][]byte) {
	t.Helper()
	var ids []string
	by := map[string][][]byte{}
	for _, l := range lines {
		e, err := events.Parse(l)
		if err != nil {
			t.Fatal(err)
		}
		if by[e.Hand] == nil {
			ids = append(ids, e.Hand)
		}
		by[e.Hand] = append(by[e.Hand], l)
	}
	return ids, by
}

// projectLog projects the whole log l into a fresh database.
func projectLog(t *testing.T, l *recorder.Log) *sql.DB {
	t.Helper()
	db := openDB(t)
	p := New(db, &LogSource{Log: l})
	p.BatchSize = 100
	if _, err := p.CatchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	return db
}

// Every hand of the vector tables, read from its copy in the read models, is what the log gives:
// the same lines byte for byte with the same stream sequences, in the same order; and
// ReadHand, with or without the table, delivers the copy.
func TestHandCopyIsTheLog(t *testing.T) {
	ctx := context.Background()
	lines := buildCorpus(t, 1)
	l := openLog(t)
	publishLines(t, l, lines)
	db := projectLog(t, l)
	ids, _ := handsOf(t, lines)
	if len(ids) < 10 {
		t.Fatalf("only %d hands", len(ids))
	}
	for _, id := range ids {
		fromLog := stored(t, func(fn func(recorder.Stored) error) error { return l.ReadHand(ctx, "", id, fn) })
		table, evs, ok, err := HandCopy(ctx, db, LogID(l), id)
		if err != nil || !ok {
			t.Fatalf("hand %s: no copy (ok %v, %v)", id, ok, err)
		}
		fromCopy := stored(t, func(fn func(recorder.Stored) error) error {
			for _, s := range evs {
				if err := fn(s); err != nil {
					return err
				}
			}
			return nil
		})
		if fromCopy != fromLog {
			t.Fatalf("hand %s: the copy differs from the log:\n%s", id, firstDiff(fromCopy, fromLog))
		}
		for _, tab := range []string{"", table} {
			got := stored(t, func(fn func(recorder.Stored) error) error { return ReadHand(ctx, db, l, tab, id, fn) })
			if got != fromLog {
				t.Fatalf("hand %s: ReadHand with table %q differs from the log:\n%s", id, tab, firstDiff(got, fromLog))
			}
		}
	}
	var logID string
	if err := db.QueryRow(`SELECT log_id FROM source_log`).Scan(&logID); err != nil || logID != LogID(l) || logID == "" {
		t.Errorf("source_log holds %q (%v), want the log's id %q", logID, err, LogID(l))
	}
}

// ReadHand reads the log when the read models do not hold the hand's copy: a hand not yet
// projected, a hand in play (its hand.ended not yet stored), read models of another log, a
// damaged copy; and a copy trusted is delivered without the log (a copy changed in the read
// models shows through, which is why verify and the audits of the log read the log).
func TestReadHandFallsBackToTheLog(t *testing.T) {
	ctx := context.Background()
	lines := buildCorpus(t, 1)
	ids, by := handsOf(t, lines)
	inPlay, later, done := ids[0], ids[len(ids)-1], ids[1]
	l := openLog(t)
	// Every hand but the last, and all but the hand.ended of the first.
	var first [][]byte
	for _, line := range lines {
		e, _ := events.Parse(line)
		if e.Hand == later || e.Hand == inPlay && e.Type == events.HandEndedType {
			continue
		}
		first = append(first, line)
	}
	publishLines(t, l, first)
	db := projectLog(t, l)
	// Then the rest: the first hand's hand.ended and the last hand, not projected.
	publishLines(t, l, append(by[inPlay][len(by[inPlay])-1:], by[later]...))

	read := func(id string) string {
		return stored(t, func(fn func(recorder.Stored) error) error { return ReadHand(ctx, db, l, "", id, fn) })
	}
	fromLog := func(id string) string {
		return stored(t, func(fn func(recorder.Stored) error) error { return l.ReadHand(ctx, "", id, fn) })
	}
	for _, id := range []string{inPlay, later} {
		if _, _, ok, err := HandCopy(ctx, db, LogID(l), id); ok || err != nil {
			t.Errorf("hand %s: a copy (%v) of a hand not ended when projected", id, err)
		}
		if got, want := read(id), fromLog(id); got != want || strings.Count(got, "\n") != len(by[id]) {
			t.Errorf("hand %s: read %d events, want the log's %d:\n%s", id, strings.Count(got, "\n"), len(by[id]), firstDiff(got, want))
		}
	}
	if _, _, ok, _ := HandCopy(ctx, db, LogID(l), done); !ok {
		t.Fatalf("hand %s: no copy", done)
	}
	want := fromLog(done)

	// A copy made to hold another hand's lines is delivered as it is, when trusted.
	if _, err := db.Exec(`UPDATE hand_events SET (events, lines) = (SELECT events, lines FROM hand_events WHERE hand_id = ?)
		WHERE hand_id = ?`, ids[2], done); err != nil {
		t.Fatal(err)
	}
	if got := read(done); got != fromLog(ids[2]) {
		t.Fatalf("the copy was not read:\n%s", firstDiff(got, fromLog(ids[2])))
	}
	// The same read models, said to be of another log: the log answers.
	if _, err := db.Exec(`UPDATE source_log SET log_id = 'FECHADO_HANDS 2001-01-01T00:00:00Z'`); err != nil {
		t.Fatal(err)
	}
	if got := read(done); got != want {
		t.Errorf("read models of another log: %s", firstDiff(got, want))
	}
	// A copy that does not decode: the log answers, and HandCopy says why.
	if _, err := db.Exec(`UPDATE source_log SET log_id = ?`, LogID(l)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE hand_events SET lines = x'00ff' WHERE hand_id = ?`, done); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := HandCopy(ctx, db, LogID(l), done); !errors.Is(err, errBadCopy) {
		t.Errorf("a damaged copy: %v, want errBadCopy", err)
	}
	if got := read(done); got != want {
		t.Errorf("a damaged copy: %s", firstDiff(got, want))
	}
	// No read models at all.
	if got := stored(t, func(fn func(recorder.Stored) error) error { return ReadHand(ctx, nil, l, "", done, fn) }); got != want {
		t.Errorf("no read models: %s", firstDiff(got, want))
	}
}

// A line of a hand quarantined while the hand is open leaves it without a copy; one quarantined
// after its hand.ended (nothing may follow it, events-v1.md §8, but a direct publish is not
// checked) or before its hand.started voids the copy: those hands are read from the log, which
// holds the stray line too.
func TestStrayLinesVoidTheCopy(t *testing.T) {
	ctx := context.Background()
	lines := buildCorpus(t, 1)
	ids, by := handsOf(t, lines)
	after, during, before := ids[0], ids[1], ids[2]
	stray := func(id string, seq events.Seq) []byte {
		e, err := events.Parse(bytes.Clone(by[id][1]))
		if err != nil {
			t.Fatal(err)
		}
		e.ID = fmt.Sprintf("0190c0de-0000-7000-8000-%012d", seq)
		e.Seq = seq
		events.Seal(e, e.Prev)
		return e.Raw
	}
	var out [][]byte
	seen := map[string]bool{}
	for _, line := range lines {
		e, _ := events.Parse(line)
		if e.Hand == before && !seen[before] {
			out = append(out, stray(before, 900)) // before its hand.started
		}
		seen[e.Hand] = true
		out = append(out, line)
		if e.Hand == during && e.Seq == 3 {
			out = append(out, stray(during, 2)) // a repeated seq, while open
		}
	}
	out = append(out, stray(after, 901)) // after its hand.ended
	l := openLog(t)
	publishLines(t, l, out)
	db := projectLog(t, l)
	for _, id := range []string{after, during, before} {
		if _, _, ok, err := HandCopy(ctx, db, LogID(l), id); ok || err != nil {
			t.Errorf("hand %s: a copy (%v) of a hand with a stray line", id, err)
		}
		got := stored(t, func(fn func(recorder.Stored) error) error { return ReadHand(ctx, db, l, "", id, fn) })
		if n := strings.Count(got, "\n"); n != len(by[id])+1 {
			t.Errorf("hand %s: %d events read, want the log's %d", id, n, len(by[id])+1)
		}
	}
	var copies, void int
	db.QueryRow(`SELECT (SELECT COUNT(*) FROM hand_events WHERE hand_id NOT IN (SELECT hand_id FROM void_copies)),
		(SELECT COUNT(*) FROM void_copies)`).Scan(&copies, &void)
	if copies != len(ids)-3 || void != 2 {
		t.Errorf("%d copies and %d void, want %d and 2", copies, void, len(ids)-3)
	}
}

// Projecting again gives the same copies, whatever the batch size; a file source records no log,
// so that no log reader trusts its copies.
func TestHandCopiesRebuildTheSame(t *testing.T) {
	ctx := context.Background()
	lines := buildCorpus(t, 2)
	path := writeLines(t, t.TempDir(), lines)
	copies := func(batch int) (string, *sql.DB) {
		db := openDB(t)
		project(t, db, path, batch)
		var b strings.Builder
		rows, err := db.Query(`SELECT hand_id, table_id, end_seq, events, hex(lines) FROM hand_events ORDER BY hand_id`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var id, table, hex string
			var end, n int
			if err := rows.Scan(&id, &table, &end, &n, &hex); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s %s %d %d %s\n", id, table, end, n, hex)
		}
		return b.String(), db
	}
	a, db := copies(7)
	b, _ := copies(500)
	ids, _ := handsOf(t, lines)
	if got := strings.Count(a, "\n"); got != len(ids) {
		t.Fatalf("%d copies, want one per hand (%d)", got, len(ids))
	}
	if a != b {
		t.Fatalf("batches of 7 and 500 give other copies: %s", firstDiff(a, b))
	}
	var logID string
	if err := db.QueryRow(`SELECT log_id FROM source_log`).Scan(&logID); err != nil || logID != "" {
		t.Errorf("source_log of a file: %q (%v), want ''", logID, err)
	}
	if _, _, ok, err := HandCopy(ctx, db, "", ids[0]); ok || err != nil {
		t.Errorf("a copy trusted without a log: %v", err)
	}
}
