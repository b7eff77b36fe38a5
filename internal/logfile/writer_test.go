package logfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"
)

// writes records the size of every Write it is given.
type writes struct {
	bytes.Buffer
	sizes []int
}

func (w *writes) Write(p []byte) (int, error) {
	w.sizes = append(w.sizes, len(p))
	return w.Buffer.Write(p)
}

// A log Writer gives its file whole pieces of Piece bytes, whatever the lines it is given, and the
// rest at Flush: every piece begins on a multiple of Piece, where the page cache can hold it as
// one huge folio.
func TestWriterWritesWholePieces(t *testing.T) {
	for _, line := range []int{7, 485, 4096, Piece - 1, Piece + 3} {
		t.Run(fmt.Sprint(line), func(t *testing.T) {
			var w writes
			lw := NewWriter(&w)
			var want bytes.Buffer
			l := bytes.Repeat([]byte{'x'}, line)
			for want.Len() < 2*Piece+line {
				lw.Write(l)
				want.Write(l)
			}
			if err := lw.Flush(); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(w.Bytes(), want.Bytes()) {
				t.Fatal("the file does not hold what was written")
			}
			for i, n := range w.sizes[:len(w.sizes)-1] {
				if n != Piece {
					t.Fatalf("write %d of %v is %d bytes, not %d", i, w.sizes, n, Piece)
				}
			}
		})
	}
}

// failing accepts ok bytes, then fails every write.
type failing struct{ ok int }

var errDiskFull = errors.New("disk full")

func (f *failing) Write(p []byte) (int, error) {
	if f.ok < len(p) {
		n := f.ok
		f.ok = 0
		return n, errDiskFull
	}
	f.ok -= len(p)
	return len(p), nil
}

// short takes half of each write and says nothing.
type short struct{}

func (short) Write(p []byte) (int, error) { return len(p) / 2, nil }

// The file's first error stays the Writer's, as bufio.Writer's does: a command that checks only
// Flush's error learns that its log is short.
func TestWriterKeepsTheFilesFirstError(t *testing.T) {
	for _, tc := range []struct {
		name string
		w    io.Writer
		want error
	}{
		{"failing", &failing{ok: Piece}, errDiskFull},
		{"short", short{}, io.ErrShortWrite},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lw := NewWriter(tc.w)
			line := bytes.Repeat([]byte{'x'}, 1000)
			var err error
			for i := 0; i < 3*Piece/len(line) && err == nil; i++ {
				_, err = lw.Write(line)
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("Write: %v, want %v", err, tc.want)
			}
			if err := lw.WriteByte('\n'); !errors.Is(err, tc.want) {
				t.Errorf("WriteByte after it: %v", err)
			}
			if err := lw.Flush(); !errors.Is(err, tc.want) {
				t.Errorf("Flush after it: %v", err)
			}
		})
	}
}
