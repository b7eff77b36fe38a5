package main

import (
	"context"
	"database/sql"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/events/handorder"
	"github.com/fechado/fechado/handhistory"
	"github.com/fechado/fechado/internal/logfile"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/projector"
	"github.com/fechado/fechado/recorder"
)

func init() {
	register(&command{
		name:    "export",
		summary: "write stored hands as JSON Lines, PokerStars text, PHH or CSV",
		usage:   "export (--hand ID | --table ID | --tournament ID | --all) [--format jsonl|pokerstars|phh|csv] [--out FILE] [flags]",
		help: `
Writes stored hands: hand after hand, each hand's events in seq order. --hand writes one hand
(with --table too, the hand is found by its exact subject; without, its table is looked up),
--table the hands of one table in the order of their own chain (hand.started's previous, then
number, then time; docs/stream.md), --tournament the hands of one tournament (every table), --all
every hand in the order the hands first appear in the log, which is the order they were
appended: a table's hands appended by several writers at once, or out of order, come in that
order, and 'fechado audit' of the file puts them back in their chain's order. The output is
complete or absent: with --out the file appears only when everything was written.

--format says what is written:
  jsonl       (the default) the events, byte for byte as the log holds them
  pokerstars  PokerStars "5 Card Draw" text, as trackers read it (FPDB reads five-card draw):
              chips without currency, times in ET, every card the log knows
  phh         PHH (pokerkit's hand histories; .phhs with numbered tables when several hands),
              with fechado's variant codes for five-card draw high (F5CD, P5CD, N5CD)
  csv         a read model as a spreadsheet reads it, from the SQLite read models (--db,
              default DIR/fechado.db, kept by 'fechado project'): --view hands (default),
              players, actions, draws, awards or pots; one row per row of the table, with a
              header

PokerStars text and PHH say five-card draw with blinds, a 52-card deck, standard ranking, any
hand may open and side pots at each all-in: hands of br-fechado and tr-kapali (stripped decks),
std-draw (openers), br-online (a betting round before the deal), and hands with an exposed card
or a misdeal are left out, each named on standard error with the rule the format cannot say.

Exits 2 when the hand is not stored, when a hand was left out (after writing the others) or on
bad usage, 3 when the log could not be read.`,
		run: runExport,
	})
}

// csvViews are the read models --format csv writes: the table, and its order.
var csvViews = map[string]struct{ table, order string }{
	"hands":   {"hands", "stream_seq"},
	"players": {"hand_players", "hand_seq, seat"},
	"actions": {"actions", "stream_seq"},
	"draws":   {"draws", "stream_seq"},
	"awards":  {"awards", "stream_seq"},
	"pots":    {"pots", "hand_seq, pot"},
}

func runExport(m *Main, args []string) error {
	c := commands["export"]
	fs := m.flags(c)
	lf := addLogFlags(fs)
	lf.existing = true // export reads the log: it never creates it
	hand := fs.String("hand", "", "the hand `ID` to export")
	table := fs.String("table", "", "the table `ID` whose hands to export (with --hand: the hand's table)")
	tournament := fs.String("tournament", "", "the tournament `ID` whose hands to export (every table)")
	all := fs.Bool("all", false, "export every hand")
	out := fs.String("out", "", "write to `FILE` instead of standard output")
	format := fs.String("format", "jsonl", "what to write: jsonl, pokerstars, phh or csv")
	view := fs.String("view", "hands", "with --format csv: the read model, hands, players, actions, draws, awards or pots")
	dbPath := fs.String("db", "", "with --format csv: the SQLite read-model `FILE` (default DIR/fechado.db)")
	language := fs.String("lang", "", "language of the messages on standard error: en, pt-BR, tr, es (default: LC_ALL, LC_MESSAGES, LANG, else en)")
	rest, err := m.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageErr("unexpected argument %q (see 'fechado export --help')", rest[0])
	}
	given := 0
	for _, b := range []bool{*all, *hand != "" || *table != "", *tournament != ""} {
		if b {
			given++
		}
	}
	if given != 1 {
		return usageErr("give one of --hand ID, --table ID, --tournament ID or --all")
	}
	l, err := lang.Choose(*language, m.getenv)
	if err != nil {
		return usageErr("%v", err)
	}
	switch *format {
	case "jsonl", "pokerstars", "phh":
	case "csv":
		v, ok := csvViews[*view]
		if !ok {
			return usageErr("--view must be hands, players, actions, draws, awards or pots")
		}
		path := *dbPath
		if path == "" {
			path = filepath.Join(lf.data, "fechado.db")
		}
		return exportCSV(m, path, v.table, v.order, *hand, *table, *tournament, *out)
	default:
		return usageErr("--format must be jsonl, pokerstars, phh or csv (see 'fechado export --help')")
	}

	ctx, lg, done, err := lf.openInterruptible()
	if err != nil {
		return err
	}
	defer done()

	w, commit, abort, err := exportOutput(m, *out)
	if err != nil {
		return err
	}
	defer abort()
	bw := logfile.NewWriter(w)
	var werr error
	n := 0
	// hands collects the stored hands for the hand-history formats; jsonl writes as it reads.
	var hands [][]*events.Event
	inTournament := map[string]bool{} // hand id → it is a hand of --tournament
	each := func(s recorder.Stored) error {
		e := s.Event
		if *tournament != "" {
			if st, ok := e.Data.(*events.HandStarted); ok {
				inTournament[e.Hand] = st.Tournament != nil && st.Tournament.ID == *tournament
			}
			if !inTournament[e.Hand] {
				return nil
			}
		}
		n++
		if *format != "jsonl" {
			if len(hands) == 0 || hands[len(hands)-1][0].Hand != e.Hand {
				hands = append(hands, nil)
			}
			hands[len(hands)-1] = append(hands[len(hands)-1], e)
			return nil
		}
		bw.Write(e.Raw)
		if werr = bw.WriteByte('\n'); werr != nil {
			return werr
		}
		return nil
	}
	switch {
	case *hand != "":
		err = lf.readHand(ctx, lg, *table, *hand, each)
	case *table != "":
		// The table's hands in the order of their chain (handorder), not of the stream.
		c := newChainOrder(each)
		err = lg.ReadTable(ctx, *table, c.add)
		if err == nil {
			err = c.close()
		}
		if err == nil && n == 0 {
			return usageErr("no hand of table %s is stored", *table)
		}
	default:
		err = lg.ReadHands(ctx, each)
		if err == nil && n == 0 && *tournament != "" {
			return usageErr("no hand of tournament %s is stored", *tournament)
		}
	}
	if werr != nil {
		return usageErr("writing the export: %v", werr)
	}
	if err != nil {
		return logReadErr(err)
	}
	var refused []*handhistory.Refusal
	if *format != "jsonl" {
		var text []byte
		text, refused, err = handhistory.Export(handhistory.Format(*format), hands)
		if err != nil {
			return usageErr("%v", err)
		}
		bw.Write(text)
		for _, r := range refused {
			fmt.Fprintf(m.Stderr, "fechado export: %s\n", l.T("export.refused", lang.Args{"hand": r.Hand,
				"preset": r.Preset, "format": r.Format, "rule": r.Rule, "value": r.Value}))
		}
		fmt.Fprintf(m.Stderr, "fechado export: %s\n", l.T("export.summary", lang.Args{
			"written": len(hands) - len(refused), "found": len(hands), "format": *format}))
	}
	if err := bw.Flush(); err != nil {
		return usageErr("writing the export: %v", err)
	}
	if err := commit(); err != nil {
		return err
	}
	if len(refused) > 0 {
		return withCode(exitUsage, errors.New(l.T("export.some-refused", nil)))
	}
	return nil
}

// exportCSV writes the rows of a read-model table for the hands the filters select, as CSV with a
// header; NULL is an empty field.
func exportCSV(m *Main, path, table, order, hand, tableID, tournament, out string) error {
	ctx := context.Background()
	if _, err := os.Stat(path); err != nil {
		return usageErr("no read models at %s: run 'fechado project' first (or give --db FILE)", path)
	}
	db, err := projector.OpenReadOnly(ctx, path)
	if err != nil {
		return withCode(exitStore, err)
	}
	defer db.Close()
	var where string
	var arg []any
	switch {
	case hand != "":
		where, arg = "hand_id = ?", []any{hand}
	case tableID != "":
		where, arg = "hand_id IN (SELECT hand_id FROM hands WHERE table_id = ?)", []any{tableID}
	case tournament != "":
		where, arg = "hand_id IN (SELECT hand_id FROM tournament_hands WHERE tournament_id = ?)", []any{tournament}
	default:
		where = "1"
	}
	// table and order come from csvViews, never from the command line.
	rows, err := db.QueryContext(ctx, "SELECT * FROM "+table+" WHERE "+where+" ORDER BY "+order, arg...)
	if err != nil {
		return withCode(exitStore, fmt.Errorf("reading %s: %w", table, err))
	}
	defer rows.Close()
	w, commit, abort, err := exportOutput(m, out)
	if err != nil {
		return err
	}
	defer abort()
	n, err := writeCSV(w, rows)
	if err != nil {
		return usageErr("writing the export: %v", err)
	}
	if n == 0 && hand != "" {
		return usageErr("hand %s is not in the read models at %s", hand, path)
	}
	return commit()
}

// writeCSV writes rows as CSV with a header line and returns the number of rows.
func writeCSV(w io.Writer, rows *sql.Rows) (int, error) {
	cols, err := rows.Columns()
	if err != nil {
		return 0, err
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(cols); err != nil {
		return 0, err
	}
	vals := make([]sql.NullString, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	rec := make([]string, len(cols))
	n := 0
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return n, err
		}
		for i, v := range vals {
			rec[i] = strings.ToValidUTF8(v.String, "\uFFFD") // "" for NULL
		}
		if err := cw.Write(rec); err != nil {
			return n, err
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return n, err
	}
	cw.Flush()
	return n, cw.Error()
}

// exportOutput opens the destination: standard output, or a temporary file beside FILE that
// commit renames to FILE and abort removes.
func exportOutput(m *Main, out string) (w io.Writer, commit func() error, abort func(), err error) {
	if out == "" {
		return m.Stdout, func() error { return nil }, func() {}, nil
	}
	f, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".*")
	if err != nil {
		return nil, nil, nil, usageErr("%v", err)
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, nil, nil, usageErr("%v", err)
	}
	done := false
	commit = func() error {
		if err := f.Close(); err != nil {
			return usageErr("writing %s: %v", out, err)
		}
		if err := os.Rename(f.Name(), out); err != nil {
			return usageErr("%v", err)
		}
		done = true
		return nil
	}
	abort = func() {
		if !done {
			f.Close()
			os.Remove(f.Name())
		}
	}
	return f, commit, abort, nil
}

// chainOrder passes on the hands of one table, whole, in the order of their chain: a hand is
// held until the hand before it has been passed on (handorder.Sequencer), and close passes on
// what is still held. A hand that does not begin with hand.started is passed on as it comes.
type chainOrder struct {
	fn   func(recorder.Stored) error
	seq  handorder.Sequencer[[]recorder.Stored]
	cur  []recorder.Stored
	werr error
}

func newChainOrder(fn func(recorder.Stored) error) *chainOrder {
	c := &chainOrder{fn: fn}
	c.seq.Release = func(_ handorder.Link, evs []recorder.Stored) { c.pass(evs) }
	return c
}

func (c *chainOrder) pass(evs []recorder.Stored) {
	for _, s := range evs {
		if c.werr != nil {
			return
		}
		c.werr = c.fn(s)
	}
}

// add takes the next event of a read that gives hands whole, one after another.
func (c *chainOrder) add(s recorder.Stored) error {
	if len(c.cur) > 0 && c.cur[0].Event.Hand != s.Event.Hand {
		c.flush()
	}
	c.cur = append(c.cur, s)
	return c.werr
}

func (c *chainOrder) flush() {
	evs := c.cur
	c.cur = nil
	if l, ok := handorder.LinkOf(evs[0].Event); ok {
		c.seq.Add(l, evs)
	} else {
		c.pass(evs)
	}
}

func (c *chainOrder) close() error {
	if len(c.cur) > 0 {
		c.flush()
	}
	c.seq.Close()
	return c.werr
}
