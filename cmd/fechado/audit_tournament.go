package main

import (
	"bufio"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/logfile"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/tournament"
)

// auditTournament audits the hands of the tournament f.tournament: from the files, merged in time
// order, or from the stored log (hand, table or all of it).
func auditTournament(m *Main, store *logFlags, f auditFlags, files []string, a *audit.Auditor) error {
	only := &tournament.Only{ID: f.tournament}
	if len(files) == 0 {
		ctx, stop := interruptible()
		defer stop()
		return readStored(ctx, store, f.hand, f.table, func(e *events.Event) {
			if only.Keep(e) {
				a.Add(e)
			}
		})
	}
	rs, closeAll, err := openLogs(m, files, false)
	if err != nil {
		return err
	}
	defer closeAll()
	// A line that is not a valid event is a log.schema finding (events-v1.md §8).
	if _, err := audit.AuditMerged(a, rs, only.Keep, func(err error) { a.Invalid(err, "", "", 0) }); err != nil {
		return usageErr("%v", err)
	}
	return nil
}

// reuseChunks is how openLogs's reusing Readers reuse their chunks: as usual, unless a test
// asks for tiny chunks filled with junk when freed.
var reuseChunks events.Reuse

// openLogs opens the files ("-" is standard input, once) as readers of events (logfile.Open);
// closeAll closes them. Every file is opened first, so that a missing one fails before anything
// is printed. With reuse, the caller gives back every event it is done with and keeps nothing of
// it, and the files and standard input are read into reused chunks (logfile.OpenReusing).
func openLogs(m *Main, files []string, reuse bool) (rs []*events.Reader, closeAll func(), err error) {
	var closers []func() error
	closeAll = func() {
		for _, c := range closers {
			c()
		}
	}
	stdin := false
	for _, name := range files {
		if name == "-" {
			if stdin {
				closeAll()
				return nil, nil, usageErr("standard input (-) given twice")
			}
			stdin = true
			r := events.NewReader(m.Stdin, "stdin")
			if reuse {
				r = events.NewReaderReusing(m.Stdin, "stdin", reuseChunks)
			}
			rs = append(rs, r)
			continue
		}
		open := logfile.Open
		if reuse {
			open = func(name string) (*events.Reader, func() error, error) {
				return logfile.OpenReusing(name, reuseChunks)
			}
		}
		r, c, err := open(name)
		if err != nil {
			closeAll()
			return nil, nil, usageErr("%v", err)
		}
		closers = append(closers, c)
		rs = append(rs, r)
	}
	return rs, closeAll, nil
}

// printStandings writes the standings of tournament id as the audit leaves them, in the reader's
// language l. A log with no hand of it reaches here only when the audit found something else (a
// line that is not an event): the report says so after its findings.
func printStandings(w io.Writer, l *lang.Lang, b *tournament.Book, id string) {
	var t *tournament.Tournament
	if b != nil {
		t = b.Get(id)
	}
	if t == nil {
		fmt.Fprintf(w, "\n%s\n", l.T("tournament.none", lang.Args{"id": id}))
		return
	}
	writeStandings(w, l, t)
}

// writeStandings writes a tournament's figures and standings for the floor, in language l.
func writeStandings(w io.Writer, l *lang.Lang, t *tournament.Tournament) {
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	held, made := t.Chips()
	fmt.Fprintf(bw, "\n%s\n", l.T("tournament.summary", lang.Args{"id": t.ID, "entries": t.Entries, "stack": t.Stack,
		"rebuys": t.Rebuys, "hands": t.Hands, "tables": len(t.Tables()), "level": t.Level}))
	fmt.Fprintln(bw, l.T("tournament.chips", lang.Args{"held": held, "made": made, "in": t.InPlay()}))
	if t.Finished() {
		fmt.Fprintln(bw, l.T("tournament.over", nil))
	}
	// Each column as wide as its heading in the reader's language, at least as before.
	place, rank, player, chips := l.T("tournament.col.place", nil), l.T("tournament.col.rank", nil),
		l.T("tournament.col.player", nil), l.T("tournament.col.chips", nil)
	wp, wr, wn, wc := max(6, utf8.RuneCountInString(place)), max(6, utf8.RuneCountInString(rank)),
		max(24, utf8.RuneCountInString(player)), max(10, utf8.RuneCountInString(chips))
	fmt.Fprintf(bw, "\n%-*s %-*s %-*s %*s  %s\n", wp, place, wr, rank, wn, player, wc, chips, l.T("tournament.col.where", nil))
	for _, s := range t.Standings() {
		at := "—"
		if s.Place > 0 {
			at = l.Number(int64(s.Place))
		}
		where := s.Table
		if s.Hand != "" {
			where = l.T("tournament.where.hand", lang.Args{"table": s.Table, "hand": s.Hand})
		}
		fmt.Fprintf(bw, "%-*s %-*s %-*s %*s  %s\n", wp, at, wr, l.Number(int64(s.Rank)), wn, s.Player, wc, l.Number(int64(s.Chips)), where)
	}
}
