package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/text/message"

	"github.com/fechado/fechado/audit/integrity"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/logfile"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/projector"
)

func init() {
	register(&command{
		name:    "integrity",
		summary: "find the pairs of players who play together: soft play, chip dumping, shared cards",
		usage:   "integrity [--json] [--top N] [--lang L] [--save [--db FILE]] FILE…   |   integrity [--json] [--top N] [--lang L] [--save [--db FILE]] --all [--data DIR | --nats URL…]",
		help: `Integrity reads hand logs and scores every pair of players dealt in together at least
50 times on four signals (docs/integrity.md):

  table overlap   periods at the same table against what their schedules alone predict;
  soft play       betting and raising less, and folding more to each other's bets, than with
                  the same strength against the others at the same table and game;
  chip dumping    one folding hands that beat the other's to the other's bets, one way only;
  shared cards    facing a third player's bet, folding when the partner holds more and raising
                  when holding more than him.

It uses every card the log records: the whole deal of a machine-shuffled hand, folded hands
too; at a live table only the cards recorded. Each behaviour signal is a z-score against the
pairs' own distribution (most pairs are honest) with a one-sided p-value; a pair's p-value is the
least of the three times three, and the pairs are flagged at a false discovery rate of 1%
(Benjamini–Hochberg over every pair scored). The score is -log10 of the pair's q-value: a pair
is flagged when its score is at least 2. Table overlap is reported and ranks pairs of equal
evidence, but never flags a pair alone: friends sit together too. A signal carried by fewer than 20
pairs cannot be calibrated against them: it flags no pair, and the report says so.

FILEs are JSON Lines logs ("-" is standard input), read as one log; with --all the stored log
is read instead.

Output: the pairs flagged, highest score first, each with its signals in words, in the reader's
language (--lang, else LC_ALL, LC_MESSAGES or LANG, else English; en, pt-BR, tr, es), and the
ids of the hands that show them best; --top N also lists the N highest pairs not flagged. With
--json, one line per pair scored, highest first: {"a","b","score","flagged","kind"?, "hands",
"p","q","overlap","soft_play","chip_dump","share_cards"}.

--save also stores the analysis, every pair scored as --json writes it, with the time and the
number of hands, in the read models (--db FILE, default DIR/fechado.db): the dashboard's
Integrity page ('fechado serve') shows the last analysis stored, and never scores a pair itself.
'fechado serve --integrity PERIOD' runs the same analysis by itself every PERIOD.

Exit status: 0 no pair flagged; 1 at least one; 2 bad usage or an unreadable file; 3 the log
store could not be reached or the read models could not be written.`,
		run: runIntegrity,
	})
}

func runIntegrity(m *Main, args []string) (err error) {
	fs := m.flags(commands["integrity"])
	language := fs.String("lang", "", "language of the text report: en, pt-BR, tr, es (default: LC_ALL, LC_MESSAGES, LANG, else en)")
	asJSON := fs.Bool("json", false, "one line per pair scored, as JSON")
	all := fs.Bool("all", false, "read the stored log")
	top := fs.Int("top", 0, "also list the N highest pairs not flagged (text report)")
	save := fs.Bool("save", false, "also store the analysis in the read models (--db) for the dashboard's Integrity page")
	db := fs.String("db", "", "SQLite read-model `FILE` --save writes (default DIR/fechado.db)")
	store := addLogFlags(fs)
	store.existing = true
	files, err := m.parse(fs, args)
	if err != nil {
		return err
	}
	l, err := lang.Choose(*language, m.getenv)
	if err != nil {
		return usageErr("%v", err)
	}
	switch {
	case *all && len(files) > 0:
		return usageErr("give FILEs or --all, not both")
	case !*all && len(files) == 0:
		return usageErr("no FILE given (use - for standard input, or --all for the stored log; see 'fechado integrity --help')")
	case *db != "" && !*save:
		return usageErr("--db goes with --save")
	}
	prepareHeap(*all, files)
	a := integrity.New(integrity.Options{})
	var r *integrity.Report
	err = logfile.Guard(func() error {
		var err error
		if *all {
			ctx, stop := interruptible()
			defer stop()
			err = readStored(ctx, store, "", "", a.Add)
		} else {
			err = integrityFiles(m, files, a)
		}
		if err == nil {
			r = a.Result()
		}
		return err
	})
	if errors.Is(err, logfile.ErrChanged) {
		err = usageErr("%v", err)
	}
	if err != nil {
		return err
	}
	if *save {
		path := *db
		if path == "" {
			path = filepath.Join(store.data, "fechado.db")
		}
		if err := saveIntegrity(path, r, time.Now()); err != nil {
			return err
		}
	}
	out := bufio.NewWriter(m.Stdout)
	if *asJSON {
		enc := json.NewEncoder(out)
		for _, p := range r.Pairs {
			if err := enc.Encode(p); err != nil {
				return err
			}
		}
	} else {
		writeIntegrity(out, l, r, *top)
	}
	if err := out.Flush(); err != nil {
		return withCode(exitUsage, err)
	}
	for _, p := range r.Pairs {
		if p.Flagged {
			return withCode(exitFindings, errQuiet)
		}
	}
	return nil
}

// saveIntegrity stores r, computed at at, in the read models at path (projector.SaveIntegrity),
// where the dashboard's Integrity page reads it. A database that cannot be written exits 3.
func saveIntegrity(path string, r *integrity.Report, at time.Time) error {
	ctx := context.Background()
	db, err := projector.Open(ctx, path)
	if err != nil {
		return withCode(exitStore, fmt.Errorf("read models %s: %w", path, err))
	}
	defer db.Close()
	if err := projector.SaveIntegrity(ctx, db, r, at); err != nil {
		return withCode(exitStore, err)
	}
	return nil
}

// integrityFiles reads the files, in order, into the analyzer.
func integrityFiles(m *Main, names []string, a *integrity.Analyzer) error {
	rs, closeAll, err := openLogs(m, names, false)
	if err != nil {
		return err
	}
	defer closeAll()
	for _, rd := range rs {
		for {
			e, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				if errors.Is(err, events.ErrInvalid) {
					continue // a line that is not an event: audit reports it, integrity reads on
				}
				return usageErr("%v", err)
			}
			a.Add(e)
		}
	}
	return nil
}

// writeIntegrity writes the text report: the summary, then each pair flagged (and the top
// others) with its signals in words (integrity.Pair.Words, as the dashboard's Integrity page).
func writeIntegrity(w io.Writer, l *lang.Lang, r *integrity.Report, top int) {
	pr := message.NewPrinter(l.Tag)
	num := func(f string, v float64) string { return pr.Sprintf(f, v) }
	flagged := 0
	for _, p := range r.Pairs {
		if p.Flagged {
			flagged++
		}
	}
	fmt.Fprintln(w, l.T("integrity.summary", lang.Args{"hands": r.Hands, "known": r.Known, "players": r.Players,
		"pairs": len(r.Pairs), "flagged": flagged, "threshold": num("%.0f", r.Threshold), "q": l.Percent(r.Q)}))
	for _, u := range r.Uncalibrated {
		fmt.Fprintln(w, l.T("integrity.uncalibrated", lang.Args{"signal": integrity.SignalName(l, u.Signal), "pairs": u.Pairs,
			"least": integrity.MinCalibration}))
	}
	fmt.Fprintln(w)
	if flagged == 0 {
		fmt.Fprintln(w, l.T("integrity.none", nil))
	}
	shown := 0
	for i, p := range r.Pairs {
		if !p.Flagged {
			if shown >= top {
				continue
			}
			shown++
		}
		fmt.Fprintln(w, l.T("integrity.pair", lang.Args{"rank": i + 1, "a": p.A, "b": p.B, "score": num("%.1f", p.Score), "hands": p.Hands}))
		words := p.Words(l)
		fmt.Fprintf(w, "   %s\n", words.Verdict)
		fmt.Fprintf(w, "   %s\n", words.Overlap)
		for _, r := range words.Reasons {
			fmt.Fprintf(w, "   %s\n", r.Text)
			if len(r.Hands) > 0 {
				fmt.Fprintf(w, "      %s\n", l.T("integrity.hands", lang.Args{"hands": strings.Join(r.Hands, ", ")}))
			}
		}
		fmt.Fprintln(w)
	}
}
