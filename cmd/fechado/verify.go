package main

import (
	"bufio"
	"errors"
	"fmt"

	"github.com/fechado/fechado/recorder"
)

func init() {
	register(&command{
		name:    "verify",
		summary: "check that the log still protects history and every hand's chain holds",
		usage:   "verify [flags]",
		help: `
Checks the stored log: that the stream's configuration still protects history (file storage, no
limits that would drop events, new writes refused rather than old events dropped, deletes and
purges denied, no roll-ups, no message TTLs or delete markers), that nothing was ever removed
(first sequence 1, nothing deleted, as many messages as the last sequence), that every message
can be read (one the store cannot give, a damaged block, is stream.damaged with its stream
sequence and hand, and the check reads on after it), and, reading every
event once, that each decodes and sits under its hand's subject and that each hand's seq runs from
1 without gaps and its prev chain holds.

Prints a report. Exits 0 when everything holds, 1 when anything is off, 3 when the log could not
be reached.`,
		run: runVerify,
	})
}

func runVerify(m *Main, args []string) error {
	c := commands["verify"]
	fs := m.flags(c)
	lf := addLogFlags(fs)
	rest, err := m.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageErr("unexpected argument %q (see 'fechado verify --help')", rest[0])
	}
	ctx, l, done, err := lf.openInterruptible()
	if err != nil {
		return err
	}
	defer done()
	rep, err := l.Verify(ctx)
	if err != nil {
		return withCode(exitStore, err)
	}
	w := bufio.NewWriter(m.Stdout)
	writeVerifyReport(w, rep)
	if err := w.Flush(); err != nil {
		return usageErr("%v", err)
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
