package main

import (
	"bufio"
	"io"
	"os"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/report"
	"github.com/fechado/fechado/tournament"
)

func init() {
	register(&command{
		name:    "report",
		summary: "write the dispute report of one hand: one printable HTML page",
		usage:   "report [FILE] --hand ID [--lang LANG] [--out FILE.html]",
		help: `Report writes the dispute report of one hand as a single HTML page that needs nothing
else (no network: styles and drawings are inside it), for the screen or printed (a browser's
print to PDF): the table drawn at the end of the hand and at each finding's event, the hand
event by event in words, the deck checked against its commitment (the revealed seed, the
order it gives and the cards dealt from it), every finding as a sentence with the rule it
enforces, and the SHA-256 of the hand's last stored line, to check the report against the log.

A hand read from the stored log, when a signed checkpoint stored beside the log covers it
('fechado checkpoint', or serve --sign-key), carries its proof: the checkpoint, and each
event's bytes with its inclusion proof, hidden in the page; the page says in words what was
proven and with which key. 'fechado verify-report FILE --key VERIFIER' checks it offline.

Without FILE the hand is read from the stored log, and its findings are those 'fechado audit'
gives it: its table audited from the log (its whole tournament, when it belongs to one), the
table's hands in the order of their chain; with FILE (a JSON Lines log, "-" for standard input)
from the file, audited as a whole in the same way. --lang picks the language (en, pt-BR, tr,
es; default LC_ALL, then LANG, then en).
The page goes to standard output, or to --out.

Exit status: 0 success; 2 bad usage, an unreadable file, a line that is not an event or an
unknown hand; 3 the log store could not be reached.`,
		run: runReport,
	})
}

func runReport(m *Main, args []string) error {
	fs := m.flags(commands["report"])
	hand := fs.String("hand", "", "the hand to report (by id)")
	language := fs.String("lang", "", "the report's language: en, pt-BR, tr, es")
	outName := fs.String("out", "", "write the page to this `FILE` instead of standard output")
	store := addLogFlags(fs)
	store.existing = true // report reads the log: it never creates it
	files, err := m.parse(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(files) > 1:
		return usageErr("one FILE at most (see 'fechado report --help')")
	case *hand == "":
		return usageErr("--hand ID is required (see 'fechado report --help')")
	}
	l, err := lang.Choose(*language, m.getenv)
	if err != nil {
		return usageErr("%v", err)
	}
	var evs []*events.Event
	var found []finding.Finding
	var proof *report.Proof
	if len(files) == 1 {
		all, err := readEvents(m, files[0], "")
		if err != nil {
			return err
		}
		found = []finding.Finding{}
		a := audit.New(func(f finding.Finding) {
			if f.Hand == *hand {
				found = append(found, f)
			}
		})
		for _, e := range all {
			a.Add(e)
			if e.Hand == *hand {
				evs = append(evs, e)
			}
		}
		a.Close()
		if len(evs) == 0 {
			return usageErr("hand %s is not in %s", *hand, files[0])
		}
	} else {
		ctx, stop := interruptible()
		err = readStored(ctx, store, *hand, "", func(e *events.Event) { evs = append(evs, e) })
		stop()
		if err != nil {
			return err
		}
		if len(evs) == 0 {
			return usageErr("hand %s is not stored", *hand)
		}
		if found, err = storedFindings(store, evs); err != nil {
			return err
		}
		// The proof in the signed log, and the events as proven (report_proof.go).
		p, proven, err := reportProof(store, m, evs[0].Table, *hand)
		if err != nil {
			return err
		}
		if p != nil {
			proof, evs = p, proven
		}
	}
	var w io.Writer = m.Stdout
	var f *os.File
	if *outName != "" {
		if f, err = os.Create(*outName); err != nil {
			return usageErr("%v", err)
		}
		w = f
	}
	bw := bufio.NewWriter(w)
	err = report.Write(bw, evs, report.Options{Lang: l, Findings: found, Proof: proof})
	if err == nil {
		err = bw.Flush()
	}
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return usageErr("%v", err)
	}
	return nil
}

// storedFindings returns the findings the audit of the stored log gives the hand whose events
// are evs: its table's hands audited in their chain's order (audit --table), or, for a hand of a
// tournament, every hand of the tournament (audit --tournament), so that its table.* and
// tournament.* findings are those of the audit, not of the hand alone.
func storedFindings(store *logFlags, evs []*events.Event) ([]finding.Finding, error) {
	hand, table := evs[0].Hand, evs[0].Table
	var tour string
	for _, e := range evs {
		if hs, ok := e.Data.(*events.HandStarted); ok && hs.Tournament != nil {
			tour = hs.Tournament.ID
		}
	}
	found := []finding.Finding{}
	a := audit.New(func(f finding.Finding) {
		if f.Hand == hand && f.Table == table {
			found = append(found, f)
		}
	})
	ctx, stop := interruptible()
	defer stop()
	var err error
	if tour != "" {
		only := &tournament.Only{ID: tour}
		err = readStored(ctx, store, "", "", func(e *events.Event) {
			if only.Keep(e) {
				a.Add(e)
			}
		})
	} else {
		err = readStored(ctx, store, "", table, a.Add)
	}
	if err != nil {
		return nil, err
	}
	a.Close()
	return found, nil
}
