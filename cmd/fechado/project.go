package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/fechado/fechado/projector"
	"github.com/fechado/fechado/recorder"
)

func init() {
	register(&command{
		name:    "project",
		summary: "bring the SQLite read models up to date with the log",
		usage:   "project [--rebuild] [--db FILE] [--data DIR | --nats URL…] [--batch N] [--progress DURATION] [--cpuprofile FILE] [--memprofile FILE] [--memory-limit SIZE]",
		help: `Project reads the log from where the read models stopped (the checkpoint in the database)
to its end, writes tables, hands, one row per player per hand, actions, draws, pots,
awards and the auditor's findings (every hand audited, table continuity included) into the
SQLite database --db (default DIR/fechado.db), and exits.
Each batch of events is written with the stream sequence it reached in one transaction,
so an interrupted run loses and repeats nothing: the next run resumes. An event that
cannot be applied goes to the quarantine table with the reason, and projection goes on.

--rebuild deletes the database first and projects the whole log again. Do not rebuild the
database of a running 'fechado serve'. Into empty read models, the indexes of hands by id
and by start time are built once, at the end; a run stopped before builds them at the next.

--progress prints on stderr, this often, the events projected so far, where the log ends,
the rate and the time left (by default every 2 seconds when stderr is a terminal). A million
hands take minutes.

--cpuprofile and --memprofile write profiles for 'go tool pprof': where the time went, and
the heap when it was largest.

--memory-limit SIZE is the process's soft memory limit (400MiB unless GOMEMLIMIT is set; off for
none): near it the collector runs sooner, so resident memory stays near the heap in use.

The summary on stderr gives the events projected, the hands that ended, the events
quarantined and the seconds taken. The database opens in the sqlite3 shell; the views
player_stats and open_by_position hold the players' statistics.

Exit status: 0 on success; 2 on bad usage; 3 when the log store could not be reached or
the database could not be written.`,
		run: runProject,
	})
}

func runProject(m *Main, args []string) (err error) {
	c := commands["project"]
	fs := m.flags(c)
	wf := addWorkFlags(fs, defaultMemoryLimit)
	db := fs.String("db", "", "SQLite read-model `FILE` (default DIR/fechado.db)")
	rebuild := fs.Bool("rebuild", false, "delete the database and project the whole log again")
	batch := fs.Int("batch", projector.DefaultBatchSize, "events per transaction")
	progressEvery := addProgressFlag(fs)
	operands, err := m.parse(fs, args)
	if err != nil {
		return err
	}
	if len(operands) > 0 {
		return usageErr("project takes no operands (see 'fechado project --help')")
	}
	if *batch < 1 {
		return usageErr("--batch must be at least 1")
	}
	log, stopProfile, err := wf.start(m.Stderr, "project")
	if err != nil {
		return err
	}
	defer stopProfile(&err)
	path := *db
	if path == "" {
		path = filepath.Join(wf.log.data, "fechado.db")
	}
	wf.log.existing = true // project reads the log (and writes only the read models)
	ctx, l, done, err := wf.log.openInterruptible()
	if err != nil {
		return err
	}
	defer done()
	if *rebuild {
		if err := removeDB(path); err != nil {
			return withCode(exitStore, err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return withCode(exitStore, err)
	}
	rm, err := projector.Open(ctx, path)
	if errors.Is(err, projector.ErrBadPath) {
		return usageErr("--db: %v", err)
	}
	if err != nil {
		return withCode(exitStore, fmt.Errorf("read models %s: %w", path, err))
	}
	defer rm.Close()
	p := projector.New(rm, &projector.LogSource{Log: l})
	p.BatchSize = *batch
	start := time.Now()
	every := progressEvery(m.Stderr)
	if every > 0 {
		p.OnCommit = projectProgress(ctx, l, log, start, every)
	}
	pr, err := p.CatchUp(ctx)
	if err == nil {
		// The log as it is now is the whole log: a hand still waiting for the hand before it
		// is judged as the audit of the whole log judges it (docs/stream.md).
		err = p.Settle(ctx)
	}
	took := time.Since(start).Seconds()
	log.Info(fmt.Sprintf("fechado project: %d events projected, %d hands, %d quarantined in %.2f s (stream sequence %d) into %s",
		pr.Events, pr.Hands, pr.Quarantined, took, pr.Checkpoint, path),
		"events", pr.Events, "hands", pr.Hands, "quarantined", pr.Quarantined, "seconds", took,
		"checkpoint", pr.Checkpoint, "db", path)
	if err != nil {
		if ctx.Err() != nil {
			return withCode(exitStore, errors.New("interrupted: the next run resumes where this one committed"))
		}
		return withCode(exitStore, err)
	}
	return nil
}

// projectProgress returns the projector's OnCommit for --progress: at most once every, a line
// with the events projected, the stream sequence reached out of the log's last one (read once,
// at the start: past it, what was appended later, the line gives the sequence alone), the rate
// and the time left.
func projectProgress(ctx context.Context, l *recorder.Log, log *slog.Logger, start time.Time, every time.Duration) func(projector.Progress) {
	end, err := l.LastSeq(ctx)
	if err != nil {
		end = 0 // the line leaves out where the log ends
	}
	last := start
	return func(pr projector.Progress) {
		now := time.Now()
		if now.Sub(last) < every {
			return
		}
		last = now
		rate := float64(pr.Events) / now.Sub(start).Seconds()
		msg := fmt.Sprintf("fechado project: %d events projected, %d hands (%.0f events/s), stream sequence %d", pr.Events, pr.Hands, rate, pr.Checkpoint)
		args := []any{"events", pr.Events, "hands", pr.Hands, "events_per_second", rate, "checkpoint", pr.Checkpoint}
		if end > 0 && pr.Checkpoint <= end && rate > 0 {
			left := time.Duration(float64(end-pr.Checkpoint) / rate * float64(time.Second)).Round(time.Second)
			msg += fmt.Sprintf(" of %d (%.0f%%), about %s left", end, 100*float64(pr.Checkpoint)/float64(end), left)
			args = append(args, "last_seq", end, "seconds_left", left.Seconds())
		}
		log.Info(msg, args...)
	}
}

// removeDB deletes a SQLite database and its WAL and shared-memory files.
func removeDB(path string) error {
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(path + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}
