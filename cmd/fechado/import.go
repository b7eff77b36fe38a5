package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/fechado/fechado/handhistory"
	"github.com/fechado/fechado/internal/logfile"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/recorder"
)

func init() {
	register(&command{
		name:     "import",
		summary:  "convert hand histories of PokerStars, PHH, Full Tilt, OnGame, Boss, Merge to events",
		usage:    "import --format pokerstars|phh|fulltilt|ongame|boss|merge|auto [--out FILE | --publish [log flags]] FILE…",
		helpFrom: importHelp,
		run:      runImport,
	})
}

func importHelp() string {
	var refused []string
	for code, why := range handhistory.PHHRefused {
		refused = append(refused, fmt.Sprintf("  %-6s %s", code, why))
	}
	sort.Strings(refused)
	return `Converts hand histories written by others into version 1 events under the online-draw
preset, as JSON Lines (stdout, or --out FILE). FILE "-" is standard input.

--format pokerstars reads PokerStars "5 Card Draw" text exports (Limit, Pot Limit, No Limit;
cash and tournaments): byte-order mark, CRLF or LF, "Game #" and "Hand #" headers, ET times,
table traffic and chat lines, all-ins, returned bets, side pots and rake. Cards the room never
showed are left out of card.dealt; a discard whose cards were not shown is written as
"cards": [] with "declared": N, the number of cards thrown. Cash amounts become cents.

--format phh reads PHH (pokerkit) .phh and .phhs files. PHH has no code for five-card draw
high: fechado reads the codes ` + handhistory.PHHFixedDraw + `, ` + handhistory.PHHPotDraw + ` and ` + handhistory.PHHNoLimitDraw + ` (fixed, pot and no limit,
with blinds) and refuses every standard code:
` + strings.Join(refused, "\n") + `

--format fulltilt reads Full Tilt Poker text (UTF-16LE with CRLF, or UTF-8), --format ongame
OnGame text, --format boss Boss Media XML (its .txt and .xml files), --format merge Merge XML:
five-card draw cash games, in the layouts FPDB's parsers read. --format auto recognises each
file's room from its first hand and says which on stderr.

Import is all-or-nothing per hand: a hand that cannot be read, or whose chips or cards do not
add up, is reported on stderr with its file and line and left out; the other hands are written.
The output is deterministic (event ids are derived from the input), so a second import of the
same file adds nothing to the log.

Each input is read whole, up to 16 MiB (a day of twelve tables); XML and PHH nested over 64
levels are refused at the 65th. An input over either limit is named on stderr with the limit,
and nothing of it is written or published: import a longer history as several files.

--publish appends the events to the log instead (the embedded server under --data, or --nats),
through the recorder, as 'fechado record' does: hands already stored are skipped.

Exit status: 0 when every hand was imported; 2 when any was skipped (after writing or appending
the others) or on bad usage; 3 when the log could not be reached or refused an append.`
}

func runImport(m *Main, args []string) error {
	fs := m.flags(commands["import"])
	format := fs.String("format", "", "input format: pokerstars, phh, fulltilt, ongame, boss, merge, or auto to recognise each file's room (required)")
	out := fs.String("out", "", "write the events to `FILE` instead of stdout")
	publish := fs.Bool("publish", false, "append the events to the log (where --data or --nats say) instead of writing JSON Lines")
	language := fs.String("lang", "", "language of the summary: en, pt-BR, tr, es (default: LC_ALL, LC_MESSAGES, LANG, else en)")
	lf := addLogFlags(fs)
	files, err := m.parse(fs, args)
	if err != nil {
		return err
	}
	l, err := lang.Choose(*language, m.getenv)
	if err != nil {
		return usageErr("%v", err)
	}
	f := handhistory.Format(*format)
	if !slices.Contains(handhistory.Formats, f) {
		return usageErr("--format must be pokerstars, phh, fulltilt, ongame, boss, merge or auto (see 'fechado import --help')")
	}
	if len(files) == 0 {
		return usageErr("no FILE to import (see 'fechado import --help')")
	}
	if *publish && *out != "" {
		return usageErr("--publish appends to the log, --out writes a file: give one of them")
	}

	var mu sync.Mutex // stderr is written from here and from the recorder's goroutines
	say := func(format string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(m.Stderr, "fechado import: "+format+"\n", a...)
	}

	// The sink takes each imported hand: a JSON Lines writer, or the recorder.
	var sink func(h handhistory.Hand) error
	var finish func() error
	if *publish {
		ctx, l, done, err := lf.openInterruptible()
		if err != nil {
			return err
		}
		defer done()
		rec := l.NewRecorder(ctx, recorder.RecordOptions{OnReject: func(he *recorder.HandError) {
			what := "rejected by the recorder"
			if errors.Is(he, recorder.ErrSequenceConflict) {
				what = "refused by the log"
			}
			say("%s: %v", what, he)
		}})
		sink = func(h handhistory.Hand) error {
			for _, e := range h.Events {
				if err := rec.Add(e, h.File, h.Line); err != nil {
					return err
				}
			}
			return nil
		}
		finish = func() error {
			st, err := rec.Close()
			say("published %d event(s), %d already stored", st.Appended, st.Skipped)
			switch {
			case err != nil:
				return withCode(exitStore, err)
			case st.Conflicts > 0:
				return withCode(exitStore, errors.New("the log refused some hands (sequence conflict)"))
			case st.Rejected > 0 || st.BadLines > 0:
				return usageErr("the recorder rejected some hands")
			}
			return nil
		}
	} else {
		w := m.Stdout
		var fh *os.File
		if *out != "" {
			if fh, err = os.Create(*out); err != nil {
				return usageErr("%v", err)
			}
			defer fh.Close()
			w = fh
		}
		bw := logfile.NewWriter(w)
		sink = func(h handhistory.Hand) error {
			for _, e := range h.Events {
				bw.Write(e.Raw)
				bw.WriteByte('\n')
			}
			return nil
		}
		finish = func() error {
			err := bw.Flush()
			if fh != nil {
				err = errors.Join(err, fh.Close())
			}
			if err != nil {
				return usageErr("writing the events: %v", err)
			}
			return nil
		}
	}

	seen := map[string]string{}
	var hands, evs, lost, stray, unreadable, dups int
	var sinkErr error
	for _, name := range files {
		data, err := readImportFile(m, name)
		if err != nil {
			if errors.Is(err, handhistory.ErrTooLarge) {
				say("%s", l.T("import.too_large", lang.Args{"file": name, "limit": importLimit}))
			} else {
				say("%v", err)
			}
			unreadable++
			continue
		}
		ff := f
		if f == handhistory.Auto {
			if ff = handhistory.Detect(data); ff != "" {
				say("%s", l.T("import.room", lang.Args{"file": name, "format": string(ff)}))
			} else {
				ff = handhistory.Auto // Import reports the file as no hand history it knows
			}
		}
		res, err := handhistory.Import(ff, name, data)
		if err != nil {
			return usageErr("%v", err)
		}
		for _, e := range res.Skipped {
			// A file over a limit is refused whole (handhistory.Import): it is a file that could
			// not be read, and nothing of it is written.
			switch {
			case errors.Is(e, handhistory.ErrTooLarge):
				say("%s", l.T("import.too_large", lang.Args{"file": name, "limit": importLimit}))
				unreadable++
				continue
			case errors.Is(e, handhistory.ErrTooDeep):
				say("%s", l.T("import.too_deep", lang.Args{"where": fmt.Sprintf("%s:%d", e.File, e.Line), "limit": handhistory.MaxDepth}))
				unreadable++
				continue
			}
			say("%v", e)
			if e.IsHand() {
				lost++
			} else {
				stray++
			}
		}
		for _, h := range res.Hands {
			if where, dup := seen[h.ID]; dup {
				say("%s:%d: hand %s is the same hand as %s; taken once", h.File, h.Line, h.Source, where)
				dups++
				continue
			}
			seen[h.ID] = fmt.Sprintf("%s:%d", h.File, h.Line)
			for _, d := range h.Dropped {
				say("%s", l.T("import.dropped", lang.Args{"where": fmt.Sprintf("%s:%d", h.File, d.Line), "hand": h.Source, "seat": int(d.Seat)}))
			}
			if sinkErr = sink(h); sinkErr != nil {
				break
			}
			hands++
			evs += len(h.Events)
		}
		if sinkErr != nil {
			break
		}
	}
	finishErr := finish()
	// Hands are counted as hands: those found are those imported, those taken once more and
	// those lost; stray text and unreadable files are counted apart.
	say("%s", l.T("import.summary", lang.Args{"imported": hands, "found": hands + dups + lost, "events": evs, "files": len(files)}))
	if dups > 0 {
		say("%s", l.T("import.duplicates", lang.Args{"n": dups}))
	}
	if lost > 0 {
		say("%s", l.T("import.skipped", lang.Args{"n": lost}))
	}
	if stray > 0 {
		say("%s", l.T("import.stray", lang.Args{"n": stray}))
	}
	if unreadable > 0 {
		say("%s", l.T("import.unreadable", lang.Args{"n": unreadable}))
	}
	skipped := lost + stray + unreadable
	switch {
	case finishErr != nil:
		return finishErr
	case sinkErr != nil:
		return withCode(exitStore, sinkErr)
	case skipped > 0:
		return withCode(exitUsage, errors.New("some hands were not imported (see above)"))
	}
	return nil
}

// importLimit is handhistory.MaxInput as the messages write it.
const importLimit = "16 MiB"

// readImportFile reads a FILE operand; "-" is standard input. An input over handhistory.MaxInput
// (16 MiB: a day of twelve tables; the reasoning is at the constant) is refused with an error
// wrapping handhistory.ErrTooLarge: a file by its size, before it is read; standard input, or
// any file that is not a regular one, after reading one byte over the limit, not the rest.
func readImportFile(m *Main, name string) ([]byte, error) {
	tooLarge := fmt.Errorf("%s: %w", name, &handhistory.LimitError{Kind: handhistory.ErrTooLarge, Limit: handhistory.MaxInput})
	r, size := m.Stdin, int64(0)
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			if size = fi.Size(); size > handhistory.MaxInput {
				return nil, tooLarge
			}
		}
		r = f
	}
	data, err := readAtMost(r, int(size), handhistory.MaxInput)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: %w", name, err)
	case data == nil:
		return nil, tooLarge
	}
	return data, nil
}

// readAtMost reads r to its end and returns what it read, or nil once it has read more than
// limit bytes. size is what r is expected to hold (0 when unknown): then r is read into one
// buffer of that size; otherwise in chunks of 1 MiB joined at the end, so that reading stops one
// chunk over the limit and costs about twice what was read, not the four times of a doubling
// buffer.
func readAtMost(r io.Reader, size, limit int) ([]byte, error) {
	const chunk = 1 << 20
	var parts [][]byte
	total := 0
	for {
		n := chunk
		if size > 0 {
			n = min(size+1, limit+1) // one byte more, to see the end
		}
		buf := make([]byte, n)
		got, err := io.ReadFull(r, buf)
		parts, total = append(parts, buf[:got]), total+got
		if total > limit {
			return nil, nil
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
		size = 0 // longer than it said: go on by chunks
	}
	if len(parts) == 1 {
		return parts[0], nil
	}
	return bytes.Join(parts, nil), nil
}
