package main

import (
	"bufio"
	"fmt"
	"io"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/logfile"
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

// printStandings writes the standings of tournament id as the audit leaves them (runAudit has
// made sure the audit saw the tournament).
func printStandings(w io.Writer, b *tournament.Book, id string) {
	writeStandings(w, b.Get(id))
}

// writeStandings writes a tournament's figures and standings for the floor.
func writeStandings(w io.Writer, t *tournament.Tournament) {
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	held, made := t.Chips()
	fmt.Fprintf(bw, "\nTournament %s: %d entries of %d chips, %d in rebuys; %d hands on %d tables; level %d.\n",
		t.ID, t.Entries, t.Stack, t.Rebuys, t.Hands, len(t.Tables()), t.Level)
	fmt.Fprintf(bw, "Chips on the tables: %d of %d. Players still in: %d.\n", held, made, t.InPlay())
	if t.Finished() {
		fmt.Fprintf(bw, "The tournament is over.\n")
	}
	fmt.Fprintf(bw, "\n%-6s %-6s %-24s %10s  %s\n", "place", "rank", "player", "chips", "table (or the hand he went out in)")
	for _, s := range t.Standings() {
		place := "—"
		if s.Place > 0 {
			place = fmt.Sprint(s.Place)
		}
		where := s.Table
		if s.Hand != "" {
			where = fmt.Sprintf("%s, hand %s", s.Table, s.Hand)
		}
		fmt.Fprintf(bw, "%-6s %-6d %-24s %10d  %s\n", place, s.Rank, s.Player, s.Chips, where)
	}
}
