package events

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// A Reader of bytes tells its done function how far it has read: every doneStep bytes or more,
// always at the end of a line it has returned, never past the line being read, and at the end
// the whole length, once. It never writes the bytes it was given.
func TestReaderBytesDone(t *testing.T) {
	in := readInputs(t)
	for name, b := range map[string][]byte{"big": bytes.Repeat(in["big"], 3), "odd": in["odd"], "no newline": []byte(good), "empty": nil} {
		t.Run(name, func(t *testing.T) {
			orig := bytes.Clone(b)
			var calls []int
			lineEnd := 0 // where the last line returned ends, with its newline
			r := NewReaderBytes(b, "f.jsonl", func(n int) {
				if n > lineEnd {
					t.Fatalf("done(%d) before the line ending at %d was returned", n, lineEnd)
				}
				calls = append(calls, n)
			})
			for {
				line, err := r.ReadLine()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if len(line) > 0 {
					// The line is a piece of b itself: nothing was copied.
					if &line[0] != &b[lineEnd] {
						t.Fatalf("line %d is not a piece of the bytes given", r.Line())
					}
				}
				lineEnd += len(line)
				if lineEnd < len(b) {
					lineEnd++ // its newline
				}
			}
			if lineEnd != len(b) {
				t.Fatalf("the lines returned end at %d, not at %d", lineEnd, len(b))
			}
			if len(calls) == 0 || calls[len(calls)-1] != len(b) {
				t.Fatalf("done was not told the whole length %d at the end: %v", len(b), calls)
			}
			for i, n := range calls {
				if n != 0 && n != len(b) && b[n-1] != '\n' {
					t.Fatalf("done(%d) is not at the end of a line", n)
				}
				if i > 0 && n-calls[i-1] < doneStep && n != len(b) {
					t.Fatalf("done(%d) only %d bytes after done(%d)", n, n-calls[i-1], calls[i-1])
				}
				if i > 0 && n == calls[i-1] {
					t.Fatalf("done(%d) twice", n)
				}
			}
			if want := len(b)/doneStep + 1; len(b) > 2*doneStep && len(calls) < want/2 {
				t.Fatalf("done called %d times over %d bytes", len(calls), len(b))
			}
			if !bytes.Equal(b, orig) {
				t.Fatal("the Reader wrote the bytes it was given")
			}
		})
	}
}

// A Reader of bytes says where each line it returns begins in the bytes it was given (Offset):
// the line is there, blank lines and lines that do not decode counted.
func TestReaderBytesOffset(t *testing.T) {
	b := readInputs(t)["odd"]
	r := NewReaderBytes(b, "f.jsonl", nil)
	lines := 0
	// The line ends before each offset, counted on from the last offset (they only grow): a
	// count from the start at every line was quadratic, a second of the package's CPU.
	counted, ends := 0, 0
	for {
		_, line, err := r.NextLine()
		if errors.Is(err, io.EOF) {
			break
		}
		lines++
		off := r.Offset()
		if line != nil && !bytes.HasPrefix(b[off:], line) {
			t.Fatalf("line %d is not at offset %d", r.Line(), off)
		}
		if off < counted {
			t.Fatalf("line %d: offset %d before the previous line's %d", r.Line(), off, counted)
		}
		ends += bytes.Count(b[counted:off], []byte("\n"))
		counted = off
		if want := ends + 1; r.Line() != want {
			t.Fatalf("line %d begins at offset %d, the start of line %d", r.Line(), off, want)
		}
	}
	if lines < 100 {
		t.Fatalf("only %d lines read", lines)
	}
}

// A Reader of bytes counts the lines it has yet to return (LinesLeft) at no fewer than there are
// on a log as fechado writes it, falling to 0 at the end; a Reader of an io.Reader does not know.
func TestLinesLeftOfAWholeFile(t *testing.T) {
	b := bytes.Repeat(readInputs(t)["big"], 3)
	r := NewReaderBytes(b, "f.jsonl", nil)
	left := bytes.Count(b, []byte("\n"))
	for {
		if got := r.LinesLeft(); got < left {
			t.Fatalf("LinesLeft = %d with %d lines left", got, left)
		}
		if _, err := r.ReadLine(); errors.Is(err, io.EOF) {
			break
		}
		left--
	}
	if got := r.LinesLeft(); got != 0 {
		t.Fatalf("LinesLeft = %d at the end", got)
	}
	if got := NewReader(bytes.NewReader(b), "f.jsonl").LinesLeft(); got != 0 {
		t.Fatalf("a Reader of an io.Reader: LinesLeft = %d, want 0", got)
	}
}

// A Reader of bytes given Fetch asks for the bytes ahead of it before it reads them, never for a
// byte of a line it has returned: every call starts at or after the end of the last line
// returned, and the calls together cover every byte before it is read, whether the lines are
// only read (ReadLine, Next) or hashed ahead too (LineSum).
func TestReaderBytesFetchesAheadOfEveryLineReturned(t *testing.T) {
	in := readInputs(t)
	b := bytes.Repeat(in["big"], 4)
	for _, sums := range []bool{false, true} {
		covered, lineEnd, calls := 0, 0, 0
		r := NewReaderBytes(b, "f.jsonl", nil)
		r.Fetch(func(from, to int) {
			calls++
			if from < lineEnd {
				t.Fatalf("fetch(%d, %d) after the line ending at %d was returned", from, to, lineEnd)
			}
			if from > covered {
				t.Fatalf("fetch(%d, %d) leaves %d to %d unasked for", from, to, covered, from)
			}
			covered = max(covered, to)
		})
		for {
			line, err := r.ReadLine()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			lineEnd += len(line)
			if lineEnd < len(b) && b[lineEnd] == '\n' {
				lineEnd++
			}
			if covered < lineEnd {
				t.Fatalf("the line ending at %d was read before it was asked for (up to %d)", lineEnd, covered)
			}
			if sums {
				if _, ok := r.LineSum(); !ok {
					t.Fatal("no sum")
				}
				if ahead := min(len(b), lineEnd+2*sumBytes); covered < ahead && covered < len(b) {
					t.Fatalf("LineSum may read up to %d, asked for up to %d only", ahead, covered)
				}
			}
		}
		if covered != len(b) || calls < len(b)/fetchStep/2 {
			t.Fatalf("sums %v: %d calls asked for %d of %d bytes", sums, calls, covered, len(b))
		}
	}
}
