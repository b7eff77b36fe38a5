package events

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// sameLineSums reads b with every kind of reader, by lines (ReadLine) and by events (Next, which
// skips blank lines), and asks for the sum of a line most of the time but
// not always (every line when all is set): LineSum must be the SHA-256 of each line it is asked
// for, as the chain computes it from the event's Raw.
func sameLineSums(t testing.TB, b []byte, seed uint64, all bool) {
	t.Helper()
	for name := range readers {
		if len(b) > 1<<19 && (name == "one byte" || name == "half") {
			continue
		}
		for _, byEvent := range []bool{false, true} {
			r := newReader(name, b)
			if _, ok := r.LineSum(); ok {
				t.Fatalf("%s reader: a sum before any line", name)
			}
			rnd := rand.New(rand.NewPCG(seed, uint64(len(b))))
			for i := 0; ; i++ {
				var line []byte
				if byEvent {
					e, err := r.Next()
					if errors.Is(err, ErrInvalid) {
						continue // a line that is not an event: no Raw to compare
					}
					if err != nil {
						break // the end, or a failed read
					}
					line = e.Raw
				} else {
					var err error
					if line, err = r.ReadLine(); errors.Is(err, ErrLineTooLong) {
						line = fileLine(b, r.Line()) // skipped, not kept: its sum is the whole line's
					} else if err != nil {
						break
					}
				}
				if all || rnd.IntN(4) > 0 {
					want := sha256.Sum256(line)
					if got, ok := r.LineSum(); !ok || got != want {
						t.Fatalf("%s reader, by event %v: line %d (%d bytes): sum %x, want %x", name, byEvent, r.Line(), len(line), got, want)
					}
				}
			}
		}
	}
}

// fileLine returns line n (from 1) of b, without its newline.
func fileLine(b []byte, n int) []byte {
	for l := range bytes.Lines(b) {
		if n--; n == 0 {
			return bytes.TrimSuffix(l, []byte("\n"))
		}
	}
	return nil
}

// The sums of LineSum are those of the lines, on every input of the Reader tests (long lines,
// blank lines, CRLF, a last line without its newline, reads of every size, a failing read).
func TestLineSum(t *testing.T) {
	for name, b := range readInputs(t) {
		t.Run(name, func(t *testing.T) {
			sameLineSums(t, b, 1, false)
			sameLineSums(t, b, 2, true)
		})
	}
	sameLineSums(t, []byte("\n\n\n"), 3, true)
	sameLineSums(t, []byte(good), 4, true)
	sameLineSums(t, nil, 5, true)
	long, _ := limitsFile(t)
	sameLineSums(t, long, 6, true)
}

func FuzzLineSum(f *testing.F) {
	f.Add([]byte(good+"\n"+good+"\n"), uint64(1))
	f.Add([]byte("\n\n"+good), uint64(2))
	f.Add([]byte(good[:40]+"\n"+good+"\r\n"), uint64(3))
	f.Add([]byte(good+"\n"+strings.Repeat(" ", MaxLineSize+1)+"\n"+good), uint64(4))
	f.Fuzz(func(t *testing.T, b []byte, seed uint64) { sameLineSums(t, b, seed, false) })
}

// Ahead gives the start of the line ReadLine returns next (and maybe of those after it), or less
// of it, or nothing, whatever the reader, and reads nothing: the lines read are those read without it.
func TestReaderAheadIsTheNextLine(t *testing.T) {
	var b bytes.Buffer
	for i := range 300 {
		fmt.Fprintf(&b, `{"id":"%08d-0000-7000-8000-000000000000","n":%d}`+"\n", i, i)
		if i%37 == 0 {
			b.WriteString("\n") // a blank line
		}
	}
	b.WriteString(`{"last":true}`) // no newline
	for name := range readers {
		if name == "fails" {
			continue
		}
		r := newReader(name, b.Bytes())
		var got [][]byte
		var ahead []byte
		seen := 0
		for {
			line, err := r.ReadLine()
			if err != nil {
				break
			}
			if head, _, _ := bytes.Cut(ahead, []byte("\n")); ahead != nil && !bytes.HasPrefix(line, head) {
				t.Fatalf("%s reader: Ahead gave %q before the line %q", name, ahead, line)
			}
			got = append(got, line)
			if a := r.Ahead(64); len(a) > 0 {
				ahead = bytes.Clone(a)
				seen++
			} else {
				ahead = nil
			}
		}
		if want := bytes.Split(b.Bytes(), []byte("\n")); len(got) != len(want) {
			t.Fatalf("%s reader: %d lines with Ahead, want %d", name, len(got), len(want))
		}
		if name == "whole" || name == "bytes" {
			if seen < len(got)-1 {
				t.Errorf("%s reader: Ahead saw %d of the %d lines to come", name, seen, len(got)-1)
			}
		}
	}
}
