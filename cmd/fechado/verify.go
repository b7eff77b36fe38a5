package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"

	"github.com/fechado/fechado/recorder"
)

func init() {
	register(&command{
		name:    "verify",
		summary: "check that the log still protects history and every hand's chain holds",
		usage:   "verify [flags] | verify --since FILE --key VERIFIER [--witness KEY…] [--witnesses-required K]",
		help: `
Checks the stored log: that the stream's configuration still protects history (file storage, no
limits that would drop events, new writes refused rather than old events dropped, deletes and
purges denied, no roll-ups, no message TTLs or delete markers), that nothing was ever removed
(first sequence 1, nothing deleted, as many messages as the last sequence), that every message
can be read (one the store cannot give, a damaged block, is stream.damaged with its stream
sequence and hand, and the check reads on after it), and, reading every
event once, that each decodes and sits under its hand's subject and that each hand's seq runs from
1 without gaps and its prev chain holds.

With --replicas N the stream must also have N replicas (without it, any number passes).

Verify creates and changes nothing: a missing stream (or, embedded, a missing --data folder) is
a failure, exit 1, and is left missing; 'fechado init' sets a log up.

Prints a report. Exits 0 when everything holds, 1 when anything is off (the stream missing
included), 3 when the log could not be reached.

With --since FILE --key VERIFIER it checks instead that today's log extends a signed checkpoint
(as 'fechado checkpoint' or GET /checkpoint gave it): the checkpoint's signature by the log's
verifier key, then, reading every stored event into the log's Merkle tree, the RFC 6962
consistency proof from the checkpoint's tree size to today's. When the log does not extend it
(an event removed, changed or re-recorded), it names the first tree size where they differ:
exactly, by binary search, when this node's tree of the old log is at hand (DIR/tlog), or
between two stored checkpoints. --witness KEY (repeatable) and --witnesses-required K require K
of those witnesses' co-signatures on the checkpoint (default: all of them). Exits 0 when the log
extends the checkpoint, 1 when it does not or a signature is missing.`,
		run: runVerify,
	})
}

func runVerify(m *Main, args []string) error {
	c := commands["verify"]
	fs := m.flags(c)
	lf := addLogFlags(fs)
	lf.existing = true // a check never creates what it checks
	since := addSinceFlags(fs)
	rest, err := m.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageErr("unexpected argument %q (see 'fechado verify --help')", rest[0])
	}
	replicas := 0 // any, unless --replicas says how many the stream must have
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "replicas" {
			replicas = lf.replicas
		}
	})
	if since.set() {
		return runVerifySince(m, lf, since) // verify_since.go
	}
	ctx, l, done, err := lf.openInterruptible()
	if errors.Is(err, recorder.ErrNoStream) {
		return withCode(exitFindings, err) // history is gone, or was never set up: the log does not hold
	}
	if err != nil {
		return err
	}
	defer done()
	rep, err := l.VerifyReplicas(ctx, replicas)
	if err != nil {
		return withCode(exitStore, err)
	}
	w := bufio.NewWriter(m.Stdout)
	writeVerifyReport(w, rep)
	if err := w.Flush(); err != nil {
		return usageErr("%v", err)
	}
	var config []string
	for _, p := range rep.Problems {
		if p.Code == "stream.config" {
			config = append(config, p.Message)
		}
	}
	if len(config) > 0 {
		// The stream no longer protects history as configured (or has other replicas): said in
		// the reader's language, naming each setting (Main.explain).
		return withCode(exitFindings, &configDiffers{problems: config})
	}
	if !rep.OK() {
		return withCode(exitFindings, errors.New("the log does not hold (see the report)"))
	}
	return nil
}

func writeVerifyReport(w *bufio.Writer, r *recorder.Report) {
	st := r.State
	fmt.Fprintf(w, "stream %s: %d messages, sequences %d to %d; %d events read, %d hands (%d ended)\n",
		r.Config.Name, st.Msgs, st.FirstSeq, st.LastSeq, r.Events, r.Hands, r.Ended)
	byCode := map[string]int{}
	for _, p := range r.Problems {
		byCode[p.Code]++
	}
	check := func(name, okText string, codes ...string) {
		n := 0
		for _, c := range codes {
			n += byCode[c]
		}
		if n == 0 {
			fmt.Fprintf(w, "%-14s ok: %s\n", name+":", okText)
		} else {
			fmt.Fprintf(w, "%-14s FAILED: %d problems\n", name+":", n)
		}
	}
	check("configuration", "file storage, no limits, discard new, deny delete and purge, no roll-ups, no TTLs", "stream.config")
	check("deletions", "nothing removed", "stream.deleted")
	check("damage", "every message can be read", "stream.damaged")
	check("events", "every event decodes and sits under its hand's subject and Msg-Id", "log.schema", "log.subject")
	check("hands", "seq contiguous from 1, prev chains, ids unique", "log.sequence", "log.chain", "log.duplicate-id")
	for _, p := range r.Problems {
		switch {
		case p.Seq > 0 && p.Subject != "":
			fmt.Fprintf(w, "%s: stream message %d (%s): %s\n", p.Code, p.Seq, p.Subject, p.Message)
		case p.Seq > 0:
			fmt.Fprintf(w, "%s: stream message %d: %s\n", p.Code, p.Seq, p.Message)
		default:
			fmt.Fprintf(w, "%s: %s\n", p.Code, p.Message)
		}
	}
	if r.Truncated > 0 {
		fmt.Fprintf(w, "… and %d more problems\n", r.Truncated)
	}
	if r.OK() {
		fmt.Fprintln(w, "OK: the log protects its history and every hand's chain holds")
	} else {
		fmt.Fprintf(w, "NOT OK: %d problems\n", len(r.Problems)+int(r.Truncated))
	}
}
