// Package eventfiles reads JSON Lines logs of events for the tests of several packages, so that
// each reads a log through one helper: the events of a file, or those of every example vector.
// It is for tests only: a line that is not a valid event fails the test.
package eventfiles

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/testfiles"
)

// Read returns the events of the JSON Lines file at path in file order, the first max of them
// when max > 0. tb fails when the file cannot be read or a line is not a valid event.
func Read(tb testing.TB, path string, max int) []*events.Event {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	return read(tb, events.NewReader(f, filepath.Base(path)), max)
}

// Parse returns the events of log, JSON Lines held in memory and named name in errors, in order.
// tb fails when a line is not a valid event.
func Parse(tb testing.TB, log []byte, name string) []*events.Event {
	tb.Helper()
	return read(tb, events.NewReader(bytes.NewReader(log), name), 0)
}

// read returns the events rd reads, the first max of them when max > 0.
func read(tb testing.TB, rd *events.Reader, max int) []*events.Event {
	tb.Helper()
	var evs []*events.Event
	for max <= 0 || len(evs) < max {
		e, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
		evs = append(evs, e)
	}
	return evs
}

// Vectors returns the events of every example vector (testdata/vectors/*.jsonl), file after
// file in the order of their names.
func Vectors(tb testing.TB) []*events.Event {
	tb.Helper()
	var evs []*events.Event
	for _, p := range testfiles.Glob(tb, "vectors/*.jsonl") {
		evs = append(evs, Read(tb, p, 0)...)
	}
	return evs
}
