package logfile

import "io"

// Piece is how many bytes a log Writer gives its file at a time: a huge page of x86-64 and of
// arm64 with 4 KB pages.
const Piece = 2 << 20

// Writer is a buffered writer of a log that gives its file whole pieces of Piece bytes, each
// at a multiple of Piece from where it began (but the last, at Flush).
//
// Why: the page cache keeps a file in the folios that its writes made, and a filesystem with large
// folios (ext4 since Linux 6.16, XFS) makes one 2 MB folio of a 2 MB write on a 2 MB boundary,
// smaller ones of smaller writes. A mapping of the file then maps each such block whole at its
// first touch, where a block of small folios is mapped 64 KB at a time or copied ahead
// (Mapping.Fetch): two workers auditing a room's file written in pieces of 2 MB took 15–17% less
// time than on the same bytes written 64 KB at a time, one reader through read(2) the same
// (BENCHMARKS.md, twenty-fifth session). Elsewhere the pieces are merely large writes.
// bufio.Writer would hand a write larger than its buffer to the file as it is, and every piece
// after it would start off a boundary.
//
// As bufio.Writer's, the first error of the file is kept: every later call returns it, and no
// more is written.
type Writer struct {
	w   io.Writer
	buf []byte // what is not written yet; its capacity is Piece
	err error
}

// NewWriter returns a Writer of w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w, buf: make([]byte, 0, Piece)} }

// Write buffers p, giving the file each piece as it fills.
func (w *Writer) Write(p []byte) (n int, err error) {
	for len(p) > 0 && w.err == nil {
		k := copy(w.buf[len(w.buf):cap(w.buf)], p)
		w.buf = w.buf[:len(w.buf)+k]
		p, n = p[k:], n+k
		if len(w.buf) == cap(w.buf) {
			w.write()
		}
	}
	return n, w.err
}

// WriteByte buffers c.
func (w *Writer) WriteByte(c byte) error {
	if w.err != nil {
		return w.err
	}
	w.buf = append(w.buf, c) // within its capacity: a full buffer is written at once
	if len(w.buf) == cap(w.buf) {
		w.write()
	}
	return w.err
}

// Flush gives the file what is buffered.
func (w *Writer) Flush() error {
	if len(w.buf) > 0 && w.err == nil {
		w.write()
	}
	return w.err
}

func (w *Writer) write() {
	n, err := w.w.Write(w.buf)
	if err == nil && n < len(w.buf) {
		err = io.ErrShortWrite
	}
	w.err, w.buf = err, w.buf[:0]
}
