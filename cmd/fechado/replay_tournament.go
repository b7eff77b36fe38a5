package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/replay"
	"github.com/fechado/fechado/tournament"
)

const replayTournamentHelp = `Tournaments: --tournament ID replays a whole tournament (events-v1.md §7) and shows it as it
stood at --at TIME (RFC 3339, e.g. 2026-11-29T13:05:00Z; default: the end of the log): its
level, entries, chips and players still in; every table with its level, the players seated
there and their chips after the table's last hand ended by then (a player moved and not yet
through a hand at his new table is listed at the table he left, with his chips), and the hand in
progress at that moment, if any, with its stage, pot and stacks; then the standings (the players still in by chips, then
those knocked out by place, with the hand they went out in). FILEs are the tournament's logs
(one per table, or one for all), merged in time order; without FILE the stored log is read.
With --json one object: tournament, at, entries, stack, rebuys, level, hands, in_play,
finished, chips_held, chips_made, tables[{table, level, hands, number, hand, ended, carry,
players[{seat, player, chips}], running (the replay.State of the hand in progress)}],
standings[{player, place, rank, chips, table, hand}].`

// atFlag is replay's --at: an event's seq, or with --tournament a time.
type atFlag struct{ s string }

func (a *atFlag) String() string { return a.s }

func (a *atFlag) Set(s string) error { a.s = s; return nil }

// seq returns --at as a seq (0 when not given).
func (a *atFlag) seq() (int, error) {
	if a.s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(a.s)
	if err != nil {
		return 0, usageErr("--at wants a seq (a whole number), not %q; a time goes with --tournament", a.s)
	}
	return n, nil
}

// tourReplay is a tournament at a moment, as replay --tournament --json prints it.
type tourReplay struct {
	tournament.Moment
	At     string      `json:"at,omitempty"`
	Tables []tourTable `json:"tables"`
}

// tourTable is one table of a tournament at a moment, with the state of its hand in progress.
type tourTable struct {
	tournament.TableMoment
	Running *replay.State `json:"running,omitempty"`
}

// replayTournament replays tournament id up to the time at ("" = the end) from the files, merged
// in time order, or from the stored log.
func replayTournament(m *Main, store *logFlags, files []string, id, at string, asJSON bool) error {
	var until time.Time
	if at != "" {
		t, err := time.Parse(time.RFC3339Nano, at)
		if err != nil {
			return usageErr("--at with --tournament wants an RFC 3339 time such as 2026-11-29T13:05:00Z, not %q", at)
		}
		until = t
	}
	f := tournament.NewFollower(id, until)
	if len(files) == 0 {
		ctx, stop := interruptible()
		err := readStored(ctx, store, "", "", f.Add)
		stop()
		if err != nil {
			return err
		}
	} else {
		rs, closeAll, err := openLogs(m, files, false)
		if err != nil {
			return err
		}
		defer closeAll()
		// The hands in progress at the moment keep their events past the end of the hand: the
		// logs are not recycled.
		_, err = tournament.Merge(rs, func(e *events.Event, _ *events.Reader) bool {
			f.Add(e)
			return true
		}, func(err error) {
			fmt.Fprintf(m.Stderr, "fechado replay: %v\n", err)
		})
		if err != nil {
			return usageErr("%v", err)
		}
	}
	mo := f.Moment()
	if mo == nil {
		return usageErr("no hand of tournament %s ended by then", id)
	}
	t := f.Tournament()
	r := tourReplay{Moment: *mo, At: at}
	running := map[string]*replay.State{}
	for _, evs := range f.Running() {
		if st, err := replay.At(evs, 0); err == nil {
			running[st.Table] = st
		}
	}
	for _, tb := range mo.Tables {
		r.Tables = append(r.Tables, tourTable{TableMoment: tb, Running: running[tb.Table]})
	}
	out := bufio.NewWriter(m.Stdout)
	defer out.Flush()
	if asJSON {
		return writeJSON(out, r)
	}
	writeTournament(out, r, t)
	return out.Flush()
}

// writeTournament writes the text view of replay --tournament.
func writeTournament(w io.Writer, r tourReplay, t *tournament.Tournament) {
	when := "at the end of the log"
	if r.At != "" {
		when = "at " + r.At
	}
	fmt.Fprintf(w, "Tournament %s %s: level %d, %d of %d players still in.\n", r.Tournament, when, r.Level, r.InPlay, max(r.Entries, t.Seen()))
	for _, tb := range r.Tables {
		if len(tb.Players) == 0 && tb.Running == nil {
			fmt.Fprintf(w, "\nTable %s: no players (broken or finished after hand #%d, which ended %s).\n", tb.Table, tb.Number, tb.Ended)
			continue
		}
		fmt.Fprintf(w, "\nTable %s: level %d; hand #%d ended %s; carry %d.\n", tb.Table, tb.Level, tb.Number, tb.Ended, tb.Carry)
		for _, p := range tb.Players {
			fmt.Fprintf(w, "  seat %-2d %-24s %10d\n", p.Seat, p.Player, p.Chips)
		}
		if st := tb.Running; st != nil {
			fmt.Fprintf(w, "  Hand #%d in progress (%s, after event %d of type %s): pot %d.\n", st.Number, st.Stage, st.Seq, st.Type, st.Pot)
			for _, s := range st.Seats {
				fmt.Fprintf(w, "    seat %-2d %-24s %10d behind, %d put in this hand\n", s.Seat, s.Player, s.Stack, s.In)
			}
		}
	}
	fmt.Fprintln(w)
	// replay's text view is English throughout (it takes no --lang), its standings too.
	writeStandings(w, lang.English(), t)
}
