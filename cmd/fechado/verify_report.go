package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/fechado/fechado/recorder/checkpoint"
	"github.com/fechado/fechado/report"
)

func init() {
	register(&command{
		name:    "verify-report",
		summary: "check offline that a dispute report's hand is the one in the signed log",
		usage:   "verify-report FILE.html --key VERIFIER [--witness KEY…] [--witnesses-required K]",
		help: `Verify-report checks a dispute report written by 'fechado report --hand ID' from the stored
log, with nothing but the page and the log's verifier key (no log, no network): the signed
checkpoint the page carries, against --key; each of the hand's events, as stored byte for byte,
against its inclusion proof to that checkpoint's root; that the events are one hand's, in
order, each carrying the SHA-256 of the one before; and that the page itself is the one these
events give: the report is written again from them, in the page's language and with its date,
and must be the same to the byte. A card, an amount or any byte changed, in the page or in the
events it carries, makes the check fail.

--witness KEY (repeatable) and --witnesses-required K also require K of those witnesses'
co-signatures on the checkpoint (default: all the keys given).

Exit status: 0 the report is the signed log's; 1 it is not (or a signature is missing);
2 bad usage, an unreadable file, or a page that carries no proof.`,
		run: runVerifyReport,
	})
}

func runVerifyReport(m *Main, args []string) error {
	fs := m.flags(commands["verify-report"])
	since := addSinceFlags(fs) // --key, --witness and --witnesses-required; --since is not used here
	files, err := m.parse(fs, args)
	if err != nil {
		return err
	}
	file, err := since.offline("verify-report", "FILE.html", files)
	if err != nil {
		return err
	}
	page, err := os.ReadFile(file)
	if err != nil {
		return usageErr("%v", err)
	}
	sealed, err := report.ReadSealed(page)
	if err != nil {
		return usageErr("%s: %v", files[0], err)
	}
	var hp checkpoint.HandProof
	if err := json.Unmarshal(sealed.Proof, &hp); err != nil {
		return withCode(exitFindings, fmt.Errorf("%s: the proof: %w", files[0], err))
	}
	s, evs, err := hp.Verify(since.key, since.witnesses...)
	if err != nil {
		return withCode(exitFindings, fmt.Errorf("%s: %w", files[0], err))
	}
	if len(s.Witnesses) < since.required {
		return withCode(exitFindings, fmt.Errorf("%s: %w: %d of the %d required", files[0], checkpoint.ErrWitnesses, len(s.Witnesses), since.required))
	}
	view, err := reportProofView(&hp, s.Log)
	if err != nil {
		return withCode(exitFindings, err)
	}
	view.JSON = sealed.Proof
	var again bytes.Buffer
	if err := report.Write(&again, evs, report.Options{Lang: sealed.Lang, Now: sealed.Now, Proof: view}); err != nil {
		return withCode(exitFindings, fmt.Errorf("%s: the proven events do not make a report: %w", files[0], err))
	}
	if !bytes.Equal(again.Bytes(), page) {
		line, want, got := firstDifferentLine(again.Bytes(), page)
		return withCode(exitFindings, errors.New(files[0]+": the page is not the one the signed events give: "+
			fmt.Sprintf("line %d reads %q where the signed events give %q", line, got, want)))
	}
	fmt.Fprintf(m.Stdout, "OK: hand %s of table %s: its %d events are entries %d to %d of the log signed by %s (checkpoint of tree size %d, root %s)",
		hp.Hand, hp.Table, len(evs), hp.Events[0].StreamSeq, hp.Events[len(hp.Events)-1].StreamSeq, s.Log.Fingerprint(), s.Size, s.Hash)
	if len(s.Witnesses) > 0 {
		var names []string
		for _, w := range s.Witnesses {
			names = append(names, w.Fingerprint())
		}
		fmt.Fprintf(m.Stdout, ", co-signed by %s", strings.Join(names, ", "))
	}
	fmt.Fprintln(m.Stdout, "; the page is the one these events give")
	return nil
}

// firstDifferentLine returns the first line (1-based) where a and b differ, and both lines
// (shortened).
func firstDifferentLine(want, got []byte) (int, string, string) {
	wl, gl := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return i + 1, around(w, g), around(g, w)
		}
	}
	return 0, "", ""
}

// around shortens s to the part near its first difference from o.
func around(s, o string) string {
	i := 0
	for i < len(s) && i < len(o) && s[i] == o[i] {
		i++
	}
	lo, hi := max(0, i-40), min(len(s), i+40)
	return s[lo:hi]
}
