package main

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/events"
)

func init() {
	register(&command{
		name:    "validate",
		summary: "check JSON Lines event logs against the version 1 contract",
		usage:   "validate FILE…",
		help: `Validate checks event logs written as JSON Lines (FILE "-" is standard input) against the
contract of events-v1.md, without NATS: every line must be one valid event (known type, every
field present, of the right type and range, no unknown field: the rules of
schema/events-v1.schema.json), and the lines must fit together: in each hand seq runs 1, 2, 3, …
with nothing after hand.ended, no event id is used twice, and each prev (when present) is the
SHA-256 of the hand's previous line. Each FILE is checked on its own. Blank lines are skipped.

A line longer than 1 MiB (1,048,576 bytes, the store's limit on an event) or whose arrays and
objects nest deeper than 64 levels is refused (docs/events.md, "Input limits"); a longer line is
read past in bounded memory.

Every problem is reported, not just the first, one per line on standard output:

    file:line: field: message

where field is the offending field as a path (e.g. data.seats[1].stack; absent when the line
itself is broken) and envelope problems end with their audit code ([log.sequence],
[log.duplicate-id], [log.chain]). A summary goes to standard error.

Exit status: 0 when every file is valid; 2 when any problem was found or a FILE could not be read.`,
		run: runValidate,
	})
}

func runValidate(m *Main, args []string) error {
	fs := m.flags(commands["validate"])
	files, err := m.parse(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageErr("no FILE given (use - for standard input; see 'fechado validate --help')")
	}
	prepareHeap(false, files)
	var total validation
	bad := 0
	for _, name := range files {
		v := validation{out: m.Stdout}
		if name == "-" {
			v.check(m.Stdin, "stdin")
		} else if f, err := os.Open(name); err != nil {
			v.report("%s: %v", name, errors.Unwrap(err))
		} else {
			v.check(f, name)
			f.Close()
		}
		if v.problems > 0 {
			bad++
		}
		total.problems += v.problems
		total.events += v.events
		total.hands += v.hands
		if v.err != nil {
			return v.err
		}
	}
	if total.problems > 0 {
		return usageErr("%s in %d of %s", plural(total.problems, "problem"), bad, plural(len(files), "file"))
	}
	fmt.Fprintf(m.Stderr, "fechado validate: %s, %s, %s: valid\n",
		plural(len(files), "file"), plural(total.hands, "hand"), plural(total.events, "event"))
	return nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// validation checks one file and prints its problems.
type validation struct {
	out                     io.Writer
	problems, events, hands int
	err                     error // writing to out failed
}

func (v *validation) report(format string, a ...any) {
	v.problems++
	if v.err == nil {
		_, v.err = fmt.Fprintf(v.out, format+"\n", a...)
	}
}

// check reads the lines of r: each is decoded, then its envelope is checked against the lines
// before it. A line that does not decode still takes its place in its hand's chain (events-v1.md
// §8, as audit.Place places it: by its own envelope, or after the previous line when it is not
// JSON), so that one bad line is not followed by a cascade of sequence and chain problems.
func (v *validation) check(r io.Reader, name string) {
	rd := events.NewReader(r, name)
	chain := events.NewChain()
	hands := map[string]bool{}
	var prevHand string
	var prevSeq events.Seq
	for {
		line, err := rd.ReadLine()
		if err == io.EOF {
			break
		}
		// The next line's id is asked for now, as the audit does (audit.AuditReader): the set's
		// line it reads arrives while this one is checked.
		chain.Prefetch(rd.Ahead(64))
		var sum *[sha256.Size]byte
		switch {
		case errors.Is(err, events.ErrInvalid):
			// A line over events.MaxLineSize: line is its head, which names its hand and seq
			// (audit.Place); its sum, for the next line's prev, is the whole line's.
			if s, ok := rd.LineSum(); ok {
				sum = &s
			}
		case err != nil:
			v.report("%v", err)
			v.hands = len(hands)
			return
		case len(bytes.TrimSpace(line)) == 0:
			continue
		}
		var e *events.Event
		if err == nil {
			e, err = events.ParseLenient(line)
		}
		if err != nil {
			var ee *events.Error
			if errors.As(err, &ee) {
				ee.File, ee.Line = name, rd.Line()
			}
			v.report("%v", err)
			if e = audit.Place(e, line, prevHand, "", prevSeq); e == nil {
				continue
			}
		} else {
			v.events++
		}
		hands[e.Hand] = true
		prevHand, prevSeq = e.Hand, e.Seq
		chain.TrackIDs = e.ID != "" // a line whose id cannot be read is no second use of ""
		for _, p := range chain.CheckSum(e, sum) {
			v.report("%s:%d: %s: %s [%s]", name, rd.Line(), problemField[p.Kind], p.Message, p.Kind)
		}
	}
	v.hands = len(hands)
}

// problemField names the envelope field each kind of problem is about.
var problemField = map[events.ProblemKind]string{
	events.ProblemSequence:    "seq",
	events.ProblemDuplicateID: "id",
	events.ProblemChain:       "prev",
}
