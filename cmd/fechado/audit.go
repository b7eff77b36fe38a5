package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/explain"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/logfile"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/recorder"
)

func init() {
	register(&command{
		name:    "audit",
		summary: "audit hand logs against their rules and report every irregularity",
		usage:   "audit [--json] [-v] [--workers N] [--tournament ID] [--cpuprofile FILE] [--memprofile FILE] [--memory-limit SIZE] FILE…   |   audit [--json] [-v] (--hand ID | --table ID | --all | --tournament ID)",
		help: `Audit replays hand logs through the rules of each hand's preset and reports every
irregularity as a finding of findings-v1.md: log integrity, the deck and the deal, betting,
drawing, showdown and pots, and the continuity of each table from hand to hand.

The text report (without --json) is in the reader's language (--lang, else LC_ALL,
LC_MESSAGES or LANG, else English; en, pt-BR, tr, es), with the ruleset named in words, and
each finding as a sentence that names the players and cards, says what the rule requires and
what happened instead, and cites the rule (docs/rules.md) with its source.

FILEs are JSON Lines logs ("-" is standard input); no NATS is needed. They are read as one log
by one auditor: a table's hands carry on from one file to the next. Each table's hands are
judged in the order of their own chain (hand.started's previous, then number, then time),
wherever they stand in the files or the stored log, and a tournament's hands in the order they
ended (docs/stream.md, "The order of a table's hands"). The files are streamed: memory holds
only the hands still open, and those that came before the hand before them. With --hand,
--table or --all the stored log is audited instead of files. A file must not change while it is
audited: spread over several workers, one cut short meanwhile ends the audit with exit status 2
(but where the cut falls in the few megabytes already copied ahead of the reader: docs/cli.md);
read by one, it is audited as far as it was read.

The tables of FILEs, or of the stored log with --all, are audited on every core (--workers N: on
N; by default one worker a core, or one for files under 8 MB and for --all on two cores or
fewer, where reading the store keeps both busy; 1 reads the log one line after the other): one reader gives each table's lines to one worker (the first worker reads alone
until a second table comes, so a log of one table costs what one worker costs), and the
findings are printed in the order one worker prints them, byte for byte the report of
--workers 1 whatever the log holds. At a line whose place may depend on another worker's lines (a line that is not a valid
event, a hand's line naming another table than its first, a line after its hand's hand.ended)
the spread is given up and the log audited again by one worker, what was printed not printed
twice (docs/cli.md, "On every core"). Standard input, and --tournament, --hand and --table, are
audited by one worker.

With --tournament ID only the hands of that tournament are audited, across all its tables: the
FILEs (say one per table) are merged into one log in time order, each file read in its own
order, or without FILEs the whole stored log is read. Every audit also checks the tournaments of
the hands it reads across their tables (events-v1.md §7): the tournament's chips against its
entries and rebuys (tournament.chips), players moved between tables (tournament.move), the
levels (tournament.level), and each knock-out with its finishing place (tournament.place,
information). With --tournament the text report ends with the standings: the players still in
by chips, then those knocked out by place.

Output: with --json, one finding per line exactly as events-v1.md §6 and nothing else on
standard output (the summary goes to standard error); without it, a report for the floor: each
hand with findings (table, hand number and id), each finding with its seq, seat, severity, code,
sentence and rule (see above), then a summary line (hands audited, findings by severity).
-v lists the clean hands too.

A line that is not a valid event (not JSON, not UTF-8, cut short, a missing or bad field, …) is
part of the log being audited (events-v1.md §8): it is a log.schema finding at its seq (the
previous line's seq + 1 when it is not JSON at all), its envelope still counts for the sequence
and the chain, and a field that cannot be read is treated as unknown, so that one bad field is one
finding. The rest of the log is audited as usual.

--cpuprofile and --memprofile write profiles for 'go tool pprof': where the time went, and the
heap when it was largest.

--memory-limit SIZE is the process's soft memory limit (400MiB unless GOMEMLIMIT is set; off for
none): near it the collector runs sooner, so resident memory stays near the heap in use.

Exit status: 0 no finding of severity error; 1 at least one (a line that is not a valid event is
one); 2 bad usage, an unreadable file, or a --table, --hand or --tournament with no hand to
audit; 3 the log store could not be reached.`,
		run: runAudit,
	})
}

// errQuiet carries an exit code with nothing more to say on stderr.
var errQuiet = errors.New("")

type auditFlags struct {
	lang    string     // --lang
	reader  *lang.Lang // the text report's language: --lang, else the environment's
	json    bool
	verbose bool
	hand    string
	table   string
	all     bool
	// tournament audits the hands of one tournament only (audit_tournament.go).
	tournament string
	// workers is how many workers audit the tables of FILEs (--workers; 0: one per core, or
	// one for a small log).
	workers int
}

func runAudit(m *Main, args []string) (err error) {
	c := commands["audit"]
	fs := m.flags(c)
	var f auditFlags
	fs.StringVar(&f.lang, "lang", "", "language of the text report: en, pt-BR, tr, es (default: LC_ALL, LC_MESSAGES, LANG, else en)")
	fs.BoolVar(&f.json, "json", false, "one finding per line as JSON (events-v1.md §6), nothing else on stdout")
	fs.BoolVar(&f.verbose, "v", false, "list the hands without findings too (text report)")
	fs.StringVar(&f.hand, "hand", "", "audit this stored hand (by id)")
	fs.StringVar(&f.table, "table", "", "audit every stored hand of this table, in its chain's order (a tournament's hands judged across its tables)")
	fs.BoolVar(&f.all, "all", false, "audit every stored hand")
	fs.IntVar(&f.workers, "workers", 0, "audit the tables of FILEs or of --all on `N` cores at once (default: every core; one for files under 8 MB, and for --all on two cores or fewer)")
	fs.StringVar(&f.tournament, "tournament", "", "audit the hands of this tournament only, across all its tables: FILEs merged in time order, or the stored log; the standings follow the report")
	store := addLogFlags(fs)
	store.existing = true // audit reads the log: it never creates it
	prof := addProfileFlags(fs, defaultMemoryLimit)
	files, err := m.parse(fs, args)
	if err != nil {
		return err
	}
	if f.json {
		// Findings as JSON and the summary in English: no message of the reader's language is
		// printed, so none is read (some 0.7 ms of every audit's start); --lang is refused as
		// the text report refuses it.
		err = lang.CheckFlag(f.lang)
	} else {
		f.reader, err = lang.Choose(f.lang, m.getenv)
	}
	if err != nil {
		return usageErr("%v", err)
	}
	stored := 0
	for _, on := range []bool{f.hand != "", f.table != "", f.all} {
		if on {
			stored++
		}
	}
	switch {
	case stored > 1:
		return usageErr("--hand, --table and --all exclude one another")
	case stored == 1 && len(files) > 0:
		return usageErr("give FILEs or one of --hand, --table, --all, not both")
	case stored == 0 && len(files) == 0 && f.tournament != "":
		f.all, stored = true, 1 // the whole stored log, filtered
	case stored == 0 && len(files) == 0:
		return usageErr("no FILE given (use - for standard input, or --hand, --table, --all for the stored log; see 'fechado audit --help')")
	case f.workers < 0:
		return usageErr("--workers must be 0 (every core) or more")
	}
	stopProfile, err := prof.start()
	if err != nil {
		return err
	}
	defer stopProfile(&err)
	prepareHeap(f.all || f.tournament != "", files)
	out := bufio.NewWriter(m.Stdout)
	rep := newAuditReport(out, f)
	a := audit.New(nil)
	rep.attach(a)
	// The events may be pieces of mapped files until the report is written (logfile).
	err = logfile.Guard(func() error {
		var err error
		if f.tournament != "" {
			err = auditTournament(m, store, f, files, a)
		} else if stored == 1 {
			err = auditStored(store, f, a, rep)
		} else {
			err = auditFiles(m, files, a, rep)
		}
		a.Close()
		// No hand of the tournament and nothing found (a line that is not an event is a finding,
		// which the report must show) is a mistyped name.
		if err == nil && f.tournament != "" && (a.Tournaments() == nil || a.Tournaments().Get(f.tournament) == nil) &&
			rep.by[finding.Error]+rep.by[finding.Warning]+rep.by[finding.Info] == 0 {
			where := "in the files"
			if len(files) == 0 {
				where = "stored"
			}
			err = usageErr("%w: no hand of tournament %s is %s", errNoHand, f.tournament, where)
		}
		if errors.Is(err, errNoHand) {
			// A report of no hand would read as a clean audit of what the reader asked for.
			return err
		}
		rep.summary(m, a)
		if f.tournament != "" && !f.json && err == nil {
			printStandings(rep.w, rep.l, a.Tournaments(), f.tournament)
		}
		return err
	})
	if errors.Is(err, logfile.ErrChanged) {
		err = usageErr("%v", err)
	}
	if ferr := out.Flush(); ferr != nil && err == nil {
		err = withCode(exitUsage, ferr)
	}
	switch {
	case err != nil:
		return err
	case rep.by[finding.Error] > 0:
		return withCode(exitFindings, errQuiet)
	}
	return nil
}

// auditFiles streams the files, in order, into one auditor. Every file is opened first, so a
// missing one fails before anything is printed. A line that does not decode is a log.schema
// finding (events-v1.md §8). The report's callbacks print a hand at once and keep nothing of its
// events, so the memory of a hand's events is freed once the hand is audited.
func auditFiles(m *Main, names []string, a *audit.Auditor, rep *auditReport) error {
	if files, n, err := spreadLogs(names, rep.f.workers); err != nil {
		return err
	} else if n > 1 {
		return auditSpread(files, n, a, rep)
	}
	// A reader given back each hand's events (audit.AuditReader, when no callback keeps a
	// hand) reads its file into reused chunks: cheaper than touching a fresh mapping's pages.
	rs, closeAll, err := openLogs(m, names, a.Hand == nil || a.HandBorrows)
	if err != nil {
		return err
	}
	defer closeAll()
	for _, rd := range rs {
		if _, err := audit.AuditReader(a, rd); err != nil {
			return usageErr("%v", err) // unreadable
		}
	}
	return nil
}

// spreadMin is the least log, in bytes, that audit spreads over the cores unless --workers says.
const spreadMin = 8 << 20

// spreadLogs maps the files for a spread audit (audit.Spread) and says on how many workers:
// workers (--workers), else one per core (GOMAXPROCS) when they hold spreadMin bytes or more.
// n is 1, and the files are read one line after the other (openLogs), when one worker is asked
// for, or standard input is read, or a file cannot be mapped (not a regular file, or not on
// Linux). A file that cannot be opened is an error, as in openLogs.
func spreadLogs(names []string, workers int) (files []audit.File, n int, err error) {
	n = workers
	if n == 0 {
		n = runtime.GOMAXPROCS(0)
	}
	if n == 1 || slices.Contains(names, "-") {
		return nil, 1, nil
	}
	size := 0
	for _, name := range names {
		m, ok, err := logfile.Map(name)
		if err != nil {
			return nil, 0, usageErr("%v", err)
		}
		if !ok {
			if st, err := os.Stat(name); err != nil || !st.Mode().IsRegular() || st.Size() != 0 {
				return nil, 1, nil
			}
			// An empty file has no line to map.
		}
		files = append(files, audit.File{Bytes: m.Bytes, Name: name, Release: m.Release, Fetch: m.Fetch})
		size += len(m.Bytes)
	}
	if workers == 0 && size < spreadMin {
		return nil, 1, nil
	}
	return files, n, nil
}

// auditPiece is what a worker of a spread audit makes of one finding or hand: the report's
// text, and what the summary counts of it.
type auditPiece struct {
	text    []byte
	counted finding.Severity // the severity counted, or ""
	flagged string           // the hand counted among the hands with findings, or ""
}

// auditSpread audits files on n workers (audit.Spread).
func auditSpread(files []audit.File, n int, a *audit.Auditor, rep *auditReport) error {
	s := spreadReport(n, rep)
	if _, err := s.Audit(a, files); err != nil {
		return err
	}
	return nil
}

// spreadReport returns a Spread on n workers for rep: each worker writes the report of its hands
// into pieces, which rep prints in the order one auditor prints them.
func spreadReport(n int, rep *auditReport) *audit.Spread[auditPiece] {
	return &audit.Spread[auditPiece]{
		Workers: n,
		Guard:   logfile.Guard,
		Worker: func(wa *audit.Auditor, put func(auditPiece)) {
			var buf bytes.Buffer
			w := bufio.NewWriter(&buf)
			wr := newAuditReport(w, rep.f)
			wr.attach(wa)
			wa.HandBorrows = true
			cut := func(p auditPiece) {
				w.Flush()
				if buf.Len() > 0 {
					p.text = bytes.Clone(buf.Bytes())
					buf.Reset()
				}
				if p.text != nil || p.counted != "" || p.flagged != "" {
					put(p)
				}
			}
			report := wa.Report
			wa.Report = func(fd finding.Finding) {
				before := wr.by[fd.Severity]
				report(fd)
				p := auditPiece{}
				if wr.by[fd.Severity] != before {
					p.counted = fd.Severity
				}
				cut(p)
			}
			if hand := wa.Hand; hand != nil {
				wa.Hand = func(h *audit.HandResult) {
					before := wr.hands
					hand(h)
					p := auditPiece{}
					if wr.hands != before {
						p.flagged = h.Table + "/" + h.Hand
					}
					cut(p)
				}
			}
		},
		Deliver: func(p auditPiece) {
			if p.counted != "" {
				rep.by[p.counted]++
			}
			if p.flagged != "" && !rep.flagged[p.flagged] {
				rep.flagged[p.flagged] = true
				rep.hands++
			}
			rep.w.Write(p.text)
		},
	}
}

// auditReport prints findings as the auditor reports them.
type auditReport struct {
	w     *bufio.Writer
	f     auditFlags
	l     *lang.Lang
	hands int // hands with findings
	by    map[finding.Severity]int
	// flagged names the hands counted in hands: a hand of a tournament comes again at the end
	// with its tournament.* findings (audit.Auditor.Tournament).
	flagged map[string]bool
	// ofTable counts the hands of --table's table (-1: not counted, every hand is the report's).
	ofTable  int
	lastHand string
}

// tableHands counts the hands of --table's table as their events come.
func (r *auditReport) tableHands(e *events.Event) {
	if e.Hand != r.lastHand {
		r.lastHand = e.Hand
		r.ofTable++
	}
}

// handsOf is how many hands of the report a audited.
func (r *auditReport) handsOf(a *audit.Auditor) int {
	if r.f.table != "" && r.f.hand == "" && r.ofTable < a.Hands {
		return r.ofTable
	}
	return a.Hands
}

func newAuditReport(w *bufio.Writer, f auditFlags) *auditReport {
	l := f.reader
	if l == nil && !f.json {
		l = lang.English()
	}
	return &auditReport{w: w, f: f, l: l, by: map[finding.Severity]int{}, flagged: map[string]bool{}}
}

func (r *auditReport) attach(a *audit.Auditor) {
	if r.f.json {
		a.Report = func(f finding.Finding) {
			if !r.mine(f.Table) {
				return
			}
			r.by[f.Severity]++
			r.w.Write(f.JSON())
			r.w.WriteByte('\n')
		}
		return
	}
	a.Report = func(f finding.Finding) {
		if r.mine(f.Table) {
			r.by[f.Severity]++
		}
	}
	a.HandBorrows = true // hand prints the hand and keeps nothing of it
	a.Hand = func(h *audit.HandResult) {
		if r.mine(h.Table) {
			r.hand(h)
		}
	}
	a.Tournament = a.Hand
}

// mine reports whether a finding or hand of table belongs to the report: with --table, the
// table's only (the hands of its tournaments at other tables are audited for their tournament.*
// codes, not reported).
func (r *auditReport) mine(table string) bool {
	return r.f.hand != "" || r.f.table == "" || table == r.f.table || table == ""
}

// hand prints one audited hand of the text report: a heading, then each finding as a sentence
// with the rule it enforces and, for a fault, what the floor does now.
func (r *auditReport) hand(h *audit.HandResult) {
	if len(h.Findings) == 0 && !r.f.verbose {
		return
	}
	if len(h.Findings) > 0 && !r.flagged[h.Table+"/"+h.Hand] {
		r.flagged[h.Table+"/"+h.Hand] = true
		r.hands++
	}
	number, preset := "?", "?"
	xh, err := explain.NewHand(h.Events)
	if err == nil {
		number, preset = fmt.Sprint(xh.Start.Number), explain.PresetName(r.l, xh.Preset)
	}
	fmt.Fprintln(r.w, r.l.T("audit.hand", lang.Args{"table": h.Table, "number": number, "hand": h.Hand,
		"preset": preset, "n": len(h.Events)}))
	if len(h.Findings) == 0 {
		fmt.Fprintf(r.w, "  %s\n", r.l.T("audit.ok", nil))
		return
	}
	for _, f := range h.Findings {
		sentence, cite, remedy := f.Message, "", ""
		if xh != nil {
			x := xh.Explain(r.l, f)
			sentence, cite, remedy = x.Sentence, x.Citation, x.Remedy
		}
		fmt.Fprintf(r.w, "  %s\n", r.l.T("audit.finding", lang.Args{"severity": r.l.T("sev."+string(f.Severity), nil),
			"seq": int(f.Seq), "code": string(f.Code), "sentence": sentence}))
		if cite != "" {
			fmt.Fprintf(r.w, "      %s\n", cite)
		}
		// What the floor does now: the words of the dispute desk and the printed report.
		if remedy != "" {
			fmt.Fprintf(r.w, "      %s\n", r.l.T("audit.remedy", lang.Args{"remedy": remedy}))
		}
	}
	fmt.Fprintln(r.w)
}

// summary prints the closing line: on stdout in the text report, on stderr with --json.
func (r *auditReport) summary(m *Main, a *audit.Auditor) {
	if r.f.json {
		sev := []string{
			plural(r.by[finding.Error], "error"),
			plural(r.by[finding.Warning], "warning"),
			fmt.Sprintf("%d info", r.by[finding.Info]),
		}
		fmt.Fprintf(m.Stderr, "fechado audit: %s audited: %s\n", plural(r.handsOf(a), "hand"), strings.Join(sev, ", "))
		return
	}
	fmt.Fprintln(r.w, r.l.T("audit.summary", lang.Args{"hands": r.handsOf(a), "errors": r.by[finding.Error],
		"warnings": r.by[finding.Warning], "infos": r.by[finding.Info], "flagged": r.hands}))
}

// readStored calls fn for the stored events of one hand (hand), one table (table) or the whole
// log (neither), hand after hand. A hand that is not stored exits 2; a store failure exits 3.
func readStored(ctx context.Context, s *logFlags, hand, table string, fn func(*events.Event)) error {
	l, err := s.open(ctx)
	if err != nil {
		return err
	}
	defer l.Close()
	each := func(st recorder.Stored) error {
		fn(st.Event)
		return nil
	}
	switch {
	case hand != "":
		err = s.readHand(ctx, l, table, hand, each)
	case table != "":
		err = l.ReadTable(ctx, table, each)
	default:
		err = l.ReadHands(ctx, each)
	}
	return logReadErr(err)
}

// errNoHand is what an audit of a table or tournament with no hand returns (exit 2, as export's):
// a mistyped name is not a clean table.
var errNoHand = errors.New("nothing to audit")

// auditStored audits the stored hand, table or whole log. A table's hands that belong to a
// tournament are judged across the tournament's tables, as the audit of the whole log judges
// them: the hands of those tournaments at the other tables are audited too (their findings
// are not reported, auditReport.mine).
func auditStored(s *logFlags, f auditFlags, a *audit.Auditor, rep *auditReport) error {
	ctx, stop := interruptible()
	defer stop()
	if n := f.workers; f.all && f.hand == "" && f.table == "" && n != 1 {
		if n == 0 {
			n = runtime.GOMAXPROCS(0)
			if n <= 2 {
				// Reading the store (the embedded server, its client, the decoding) keeps two
				// cores busy already: there, two workers only add the spread's cost (0.94×
				// the speed of one on the room's log, BENCHMARKS.md, make bench at 5fbe14a).
				n = 1
			}
		}
		if n > 1 {
			// The log is read and decoded as it is for one worker; the workers judge its tables.
			return spreadReport(n, rep).AuditEvents(a, func(add func(*events.Event)) error {
				return readStored(ctx, s, "", "", add)
			})
		}
	}
	if f.table == "" || f.hand != "" {
		return readStored(ctx, s, f.hand, f.table, a.Add)
	}
	tours := map[string]bool{}
	read := 0
	err := readStored(ctx, s, "", f.table, func(e *events.Event) {
		read++
		if hs, ok := e.Data.(*events.HandStarted); ok && hs.Tournament != nil {
			tours[hs.Tournament.ID] = true
		}
		rep.tableHands(e)
		a.Add(e)
	})
	if err == nil && read == 0 {
		return usageErr("%w: no hand of table %s is stored", errNoHand, f.table)
	}
	if err != nil || len(tours) == 0 {
		return err
	}
	others := map[string]bool{} // hands of the tournaments at other tables
	return readStored(ctx, s, "", "", func(e *events.Event) {
		if e.Table == f.table {
			return
		}
		if hs, ok := e.Data.(*events.HandStarted); ok && e.Seq == 1 && hs.Tournament != nil && tours[hs.Tournament.ID] {
			others[e.Hand] = true
		}
		if others[e.Hand] {
			a.Add(e)
		}
	})
}
