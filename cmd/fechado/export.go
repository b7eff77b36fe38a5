package main

import (
	"bufio"
	"io"
	"os"
	"path/filepath"

	"github.com/fechado/fechado/handorder"
	"github.com/fechado/fechado/recorder"
)

func init() {
	register(&command{
		name:    "export",
		summary: "write stored events as JSON Lines",
		usage:   "export (--hand ID | --table ID | --all) [--out FILE] [flags]",
		help: `
Writes stored events as JSON Lines, byte for byte as the log holds them: hand after hand, each
hand's events in seq order. --hand writes one hand (with --table too, the hand is found by its
exact subject; without, its table is looked up), --table the hands of one table in the order of
their own chain (hand.started's previous, then number, then time; docs/stream.md), --all every
hand in the order the hands first appear in the log, which is the order they were appended: a
table's hands appended by several writers at once, or out of order, come in that order, and
'fechado audit' of the file puts them back in their chain's order. The output is complete or absent: with --out the
file appears only when everything was written.

Exits 2 when the hand is not stored, 3 when the log could not be read.`,
		run: runExport,
	})
}

func runExport(m *Main, args []string) error {
	c := commands["export"]
	fs := m.flags(c)
	lf := addLogFlags(fs)
	hand := fs.String("hand", "", "the hand `ID` to export")
	table := fs.String("table", "", "the table `ID` whose hands to export (with --hand: the hand's table)")
	all := fs.Bool("all", false, "export every hand")
	out := fs.String("out", "", "write to `FILE` instead of standard output")
	rest, err := m.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageErr("unexpected argument %q (see 'fechado export --help')", rest[0])
	}
	if *all == (*hand != "" || *table != "") {
		return usageErr("give one of --hand ID, --table ID or --all")
	}

	ctx, l, done, err := lf.openInterruptible()
	if err != nil {
		return err
	}
	defer done()

	w, commit, abort, err := exportOutput(m, *out)
	if err != nil {
		return err
	}
	defer abort()
	bw := bufio.NewWriterSize(w, 1<<16)
	var werr error
	n := 0
	each := func(s recorder.Stored) error {
		n++
		bw.Write(s.Event.Raw)
		if werr = bw.WriteByte('\n'); werr != nil {
			return werr
		}
		return nil
	}
	switch {
	case *hand != "":
		err = lf.readHand(ctx, l, *table, *hand, each)
	case *table != "":
		// The table's hands in the order of their chain (handorder), not of the stream.
		c := newChainOrder(each)
		err = l.ReadTable(ctx, *table, c.add)
		if err == nil {
			err = c.close()
		}
		if err == nil && n == 0 {
			return usageErr("no hand of table %s is stored", *table)
		}
	default:
		err = l.ReadHands(ctx, each)
	}
	if werr != nil {
		return usageErr("writing the export: %v", werr)
	}
	if err != nil {
		return logReadErr(err)
	}
	if err := bw.Flush(); err != nil {
		return usageErr("writing the export: %v", err)
	}
	return commit()
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
