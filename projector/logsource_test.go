package projector

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/rules"
)

// openLog opens an embedded log in a temporary folder.
func openLog(tb testing.TB) *recorder.Log {
	tb.Helper()
	l, err := recorder.Open(context.Background(), recorder.Options{DataDir: tb.TempDir()})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(l.Close)
	return l
}

// appendLines appends the lines to the log one at a time, in order; it returns the stream
// sequence of the last.
func appendLines(tb testing.TB, l *recorder.Log, lines [][]byte) uint64 {
	tb.Helper()
	var last uint64
	for _, line := range lines {
		e, err := events.Parse(line)
		if err != nil {
			tb.Fatal(err)
		}
		ack, err := l.Append(context.Background(), e)
		if err != nil {
			tb.Fatal(err)
		}
		last = ack.Seq
	}
	return last
}

// appendByTable appends the lines with one goroutine per table, each table's events in order,
// so that the tables' hands interleave in the stream as at a live club; it returns the stream's
// last sequence.
func appendByTable(tb testing.TB, l *recorder.Log, lines [][]byte) uint64 {
	tb.Helper()
	byTable := map[string][]*events.Event{}
	for _, line := range lines {
		e, err := events.Parse(line)
		if err != nil {
			tb.Fatal(err)
		}
		byTable[e.Table] = append(byTable[e.Table], e)
	}
	before, err := l.Stream().Info(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	errs := make(chan error, len(byTable))
	for _, evs := range byTable {
		go func() {
			for _, e := range evs {
				if _, err := l.Append(context.Background(), e); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range byTable {
		if err := <-errs; err != nil {
			tb.Fatal(err)
		}
	}
	info, err := l.Stream().Info(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	if info.State.Msgs != before.State.Msgs+uint64(len(lines)) {
		tb.Fatalf("stream holds %d messages, want %d", info.State.Msgs, before.State.Msgs+uint64(len(lines)))
	}
	return info.State.LastSeq
}

// publishLines stores the lines in the stream in their order as the recorder would (subject of
// the hand, Nats-Msg-Id = event id), but without its per-event checks and round trips: a bulk
// load for tests that need a long log. It returns the stream's last sequence.
func publishLines(tb testing.TB, l *recorder.Log, lines [][]byte) uint64 {
	tb.Helper()
	ctx := context.Background()
	js := l.JetStream()
	for _, line := range lines {
		e, err := events.Parse(line)
		if err != nil {
			tb.Fatal(err)
		}
		msg := nats.NewMsg(recorder.Subject(e.Table, e.Hand))
		msg.Data = line
		msg.Header.Set(jetstream.MsgIDHeader, e.ID)
		if _, err := js.PublishMsgAsync(msg); err != nil {
			tb.Fatal(err)
		}
	}
	select {
	case <-js.PublishAsyncComplete():
	case <-time.After(30 * time.Second):
		tb.Fatal("publishing did not complete")
	}
	info, err := l.Stream().Info(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	return info.State.LastSeq
}

// The same log gives the same rows read from JetStream and from a file. The full suite stores the
// log through the recorder's Append, event by event; -short loads it in bulk (publishLines), as
// TestKillAndResume does, and TestRunFollowsTheLog still reads events stored through Append.
func TestLogAndFileSourcesGiveTheSameRows(t *testing.T) {
	lines := buildCorpus(t, 1)
	l := openLog(t)
	store := appendLines
	if testing.Short() {
		store = publishLines
	}
	last := store(t, l, lines)
	if last != uint64(len(lines)) {
		t.Fatalf("stream ends at %d, want %d", last, len(lines))
	}

	fromFile := openDB(t)
	project(t, fromFile, writeLines(t, t.TempDir(), lines), 100)

	fromLog := openDB(t)
	p := New(fromLog, &LogSource{Log: l})
	p.BatchSize = 100
	pr, err := p.CatchUp(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if pr.Events != len(lines) || pr.Checkpoint != last {
		t.Fatalf("progress %+v, want %d events to %d", pr, len(lines), last)
	}
	if a, b := dump(t, fromFile), dump(t, fromLog); a != b {
		t.Fatalf("file and log projections differ: %s", firstDiff(a, b))
	}
}

// Run follows the log: events appended while it runs are projected, and Live tells about them.
// The log holds half the corpus when Run starts, the rest is appended through the recorder's
// Append; under -short three quarters are loaded in bulk first, and the last quarter, where every
// table's last hand ends, is appended while Run follows.
func TestRunFollowsTheLog(t *testing.T) {
	lines := buildCorpus(t, 1)
	l := openLog(t)
	half := len(lines) / 2
	if testing.Short() {
		half = len(lines) * 3 / 4
	}
	publishLines(t, l, lines[:half])

	db := openDB(t)
	p := New(db, &LogSource{Log: l})
	p.Live = NewLive()
	sub := p.Live.Subscribe()
	defer sub.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()

	waitCheckpoint(t, db, uint64(half))
	ids, err := sub.Next(ctx)
	if err != nil || len(ids) == 0 {
		t.Fatalf("subscription: %v %v", ids, err)
	}
	last := appendByTable(t, l, lines[half:])
	waitCheckpoint(t, db, last)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after cancel")
	}

	// The same rows as a catch-up of the whole log.
	want := openDB(t)
	if _, err := New(want, &LogSource{Log: l}).CatchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	if a, b := dump(t, want), dump(t, db); a != b {
		t.Fatalf("followed and caught-up projections differ: %s", firstDiff(a, b))
	}
	// Every table's last hand has ended, and Live shows it.
	for _, ts := range p.Live.Tables() {
		if ts.Stage != rules.StageEnded {
			t.Errorf("table %s: stage %s, want ended", ts.Table, ts.Stage)
		}
	}
	if n := len(p.Live.Tables()); n != len(vectorFiles) {
		t.Errorf("Live has %d tables, want %d", n, len(vectorFiles))
	}
}

// waitCheckpoint polls the database until its checkpoint reaches seq, or fails after a deadline.
func waitCheckpoint(t *testing.T, db *sql.DB, seq uint64) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	var got uint64
	for time.Now().Before(deadline) {
		err := db.QueryRow(`SELECT stream_seq FROM checkpoint WHERE name = ?`, DefaultName).Scan(&got)
		if err == nil && got >= seq {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("checkpoint %d after 20 s, want %d", got, seq)
}
