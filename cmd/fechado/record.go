package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder"
)

func init() {
	register(&command{
		name:    "record",
		summary: "validate JSON Lines events and append them to the log",
		usage:   "record [flags] FILE…   (- reads standard input)",
		help: `
Validates JSON Lines events (events-v1.md) and appends them to the hand log, many hands at once.
Each hand's events are checked before anything of the hand is appended: they must decode, run
from seq 1 (or on from what is stored of the hand) without gaps, and chain by prev; a missing prev
is filled in. A hand with an invalid event is rejected as a whole, with a message naming the file,
line and hand; the other hands still go in. A line over the input limits (1 MiB, 64 levels of
nesting: docs/events.md 1.1), an event the store cannot take for its size once its prev is filled
in, and a line that is not JSON (it belongs to the hand of the line before it) each reject their
hand. Events already stored with the same bytes are skipped, so recording a file again stores
nothing twice.

Prints one summary line on stderr: events appended, skipped, hands, and hands rejected. Exits 2
after appending the good hands if any hand was rejected, 3 if the log could not be reached or
refused an append (the hand already holds other events at that place).

--cpuprofile and --memprofile write profiles for 'go tool pprof': where the time went, and
the heap when it was largest. Unless GOGC is set, record lets its heap grow to three times what
is live before collecting it (GOGC=200): faster, for more memory, up to --memory-limit.

--memory-limit SIZE is the process's soft memory limit (1GiB unless GOMEMLIMIT is set; off for
none): near it the collector runs sooner, so resident memory stays near the heap in use. What a
bulk record holds is mostly the log server's cache of the blocks it wrote in the last seconds,
which grows with the rate of appends, not with the log: a limit under it makes the collector run
all the time (400MiB took twice the time on two cores).`,
		run: runRecord,
	})
}

// recordGCPercent is record's garbage collection target (runtime/debug.SetGCPercent): the heap
// may grow to three times what is live before a collection, instead of two.
const recordGCPercent = 200

func runRecord(m *Main, args []string) (err error) {
	c := commands["record"]
	fs := m.flags(c)
	wf := addWorkFlags(fs, recordMemoryLimit)
	window := fs.Int("window", recorder.DefaultWindow, "hands appended at once")
	progressEvery := addProgressFlag(fs)
	files, err := m.parse(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageErr("no file to record (see 'fechado record --help')")
	}
	if *window < 1 {
		return usageErr("--window must be at least 1")
	}
	log, stopProfile, err := wf.start(m.Stderr, "record")
	if err != nil {
		return err
	}
	defer stopProfile(&err)
	if _, set := os.LookupEnv("GOGC"); !set {
		// A bulk record is a batch job whose heap is mostly the embedded server's (its block
		// caches, the ids of the de-duplication window), scanned at every collection: collecting less
		// often buys back CPU for memory (docs/stream.md §5). GOGC, when set, decides.
		debug.SetGCPercent(recordGCPercent)
	}
	every := progressEvery(m.Stderr)
	for _, f := range files {
		if f == "-" {
			continue
		}
		if fi, err := os.Stat(f); err != nil {
			return usageErr("%v", err)
		} else if fi.IsDir() {
			return usageErr("%s is a folder", f)
		}
	}

	ctx, l, done, err := wf.log.openInterruptible()
	if err != nil {
		return err
	}
	defer done()

	// The recorder's goroutines and the progress ticker log at once: slog's handlers serialize
	// the lines.
	rec := l.NewRecorder(ctx, recorder.RecordOptions{Window: *window, OnReject: func(he *recorder.HandError) {
		if errors.Is(he, recorder.ErrSequenceConflict) {
			log.Error(fmt.Sprintf("fechado record: refused: %v", he), "hand", he.Hand, "reason", "sequence conflict")
			return
		}
		log.Error(fmt.Sprintf("fechado record: rejected: %v", he), "hand", he.Hand)
	}})
	start := time.Now()
	if every > 0 {
		done := make(chan struct{})
		defer close(done)
		go func() {
			t := time.NewTicker(every)
			defer t.Stop()
			for {
				select {
				case <-t.C:
					st := rec.Stats()
					rate := float64(st.Read) / time.Since(start).Seconds()
					log.Info(fmt.Sprintf("fechado record: %d events read, %d appended, %d skipped (%.0f events/s)", st.Read, st.Appended, st.Skipped, rate),
						"read", st.Read, "appended", st.Appended, "skipped", st.Skipped, "events_per_second", rate)
				case <-done:
					return
				}
			}
		}()
	}
	readErr := recordFiles(m, rec, files)
	st, storeErr := rec.Close()
	log.Info("fechado record: "+recordSummary(st), "appended", st.Appended, "skipped", st.Skipped, "hands", st.Hands,
		"rejected", st.Rejected, "conflicts", st.Conflicts, "bad_lines", st.BadLines)
	switch {
	case storeErr != nil && ctx.Err() != nil && !errors.Is(storeErr, context.DeadlineExceeded):
		return withCode(exitStore, errors.New("interrupted; what was acknowledged is stored, record the input again to finish"))
	case storeErr != nil:
		return withCode(exitStore, storeErr)
	case readErr != nil:
		return readErr
	case st.Conflicts > 0:
		return withCode(exitStore, errors.New("the log refused some hands (sequence conflict)"))
	case st.Rejected > 0 || st.BadLines > 0:
		return usageErr("some hands were rejected")
	}
	return nil
}

// recordFiles feeds the files to the recorder. It stops at an unreadable file (exit 2) or when
// the recorder stopped (its error then comes from Close).
func recordFiles(m *Main, rec *recorder.Recorder, files []string) error {
	for _, name := range files {
		var r io.Reader = m.Stdin
		if name != "-" {
			f, err := os.Open(name)
			if err != nil {
				return usageErr("%v", err)
			}
			defer f.Close()
			r = f
		}
		if err := rec.AddLines(r, name); err != nil {
			var ee *events.Error
			if errors.As(err, &ee) {
				return usageErr("%v", err)
			}
			return nil
		}
	}
	return nil
}

func recordSummary(st recorder.Stats) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d events appended, %d skipped (already stored), %d hands", st.Appended, st.Skipped, st.Hands)
	if st.Rejected > 0 {
		fmt.Fprintf(&b, ", %d rejected", st.Rejected)
	}
	if st.Conflicts > 0 {
		fmt.Fprintf(&b, ", %d refused by the log", st.Conflicts)
	}
	if st.BadLines > 0 {
		fmt.Fprintf(&b, ", %d lines naming no hand", st.BadLines)
	}
	return b.String()
}

// addProgressFlag declares --progress, shared by the long commands (record, project), and
// returns how often the command prints its progress once fs is parsed: --progress when given,
// else every 2 seconds when stderr is a terminal (someone watches it), else never.
func addProgressFlag(fs *flag.FlagSet) func(stderr io.Writer) time.Duration {
	given := fs.Duration("progress", 0, "print progress on stderr this often (default: every 2s when stderr is a terminal, else never)")
	return func(stderr io.Writer) time.Duration {
		if !flagGiven(fs, "progress") && isTerminal(stderr) {
			return 2 * time.Second
		}
		return *given
	}
}

// flagGiven reports whether the flag was given on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
