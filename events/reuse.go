package events

import (
	"io"
	"slices"

	"github.com/fechado/fechado/events/internal/alias"
)

// Reuse is how a Reader of an io.Reader made by NewReaderReusing reuses its chunks of lines.
type Reuse struct {
	// ChunkSize is the size of a chunk of lines (0: the Reader's usual, bufSize). A line longer
	// than half of it gets a chunk of its own, which is not reused.
	ChunkSize int
	// Size, when known (a file's size), is how many bytes the Reader will read: LinesLeft
	// counts from it as it does for a Reader of bytes.
	Size int
	// Poison fills a chunk with junk when it is freed for reuse, so that anything still
	// pointing into it reads garbage: for tests.
	Poison bool
}

// NewReaderReusing returns a Reader of r, as NewReader, that reuses its chunks of lines: a chunk
// is read into again once the Reader has moved past it and every line it handed out from it has
// been given back. A line comes back with its event (Recycle finds the chunk from the event's
// Raw); a blank line the Reader skips comes back at once. A line handed out with no event (one
// that does not decode, or read with ReadLine) is never given back, nor is the line of an event
// never recycled: each keeps its chunk for good, as NewReader's chunks are kept, and the Reader
// allocates a new one instead. The caller must therefore keep nothing of a recycled event, its
// strings included: the bytes they alias are written again.
//
// Reading a file into a few chunks used over and over touches fresh memory only for the first
// of them, where mapping it (NewReaderBytes) touches every page afresh: on a machine whose
// first touch of a page is dear, a third of the reading's cost.
func NewReaderReusing(r io.Reader, name string, o Reuse) *Reader {
	if o.ChunkSize <= 0 {
		o.ChunkSize = bufSize
	}
	rd := NewReader(r, name)
	rd.size = o.ChunkSize
	rd.reuse = &chunkPool{Reuse: o}
	return rd
}

// maxFree is how many freed chunks a chunkPool keeps for reuse: a log of one table has one or
// two chunks' lines out at once (the hand open); a room of many tables pins more, and the chunks
// beyond these few go to the collector.
const maxFree = 4

// chunkPool follows which chunks of a reusing Reader still have lines out, and keeps the freed
// ones for reuse.
type chunkPool struct {
	Reuse
	cur  *lineChunk   // the chunk being read into and handed out from
	live []*lineChunk // chunks the Reader has moved past, with lines still out
	free [][]byte     // chunks of ChunkSize with nothing of them out
	// made counts the chunks allocated; read the bytes read (for LinesLeft).
	made, read int
}

// lineChunk is a chunk of lines and how many lines handed out from it are not given back yet.
type lineChunk struct {
	buf []byte
	out int
}

// get returns a chunk of n bytes or more: a freed one when n is the usual size.
func (p *chunkPool) get(n int) []byte {
	if n <= p.ChunkSize {
		if k := len(p.free); k > 0 {
			b := p.free[k-1]
			p.free[k-1] = nil
			p.free = p.free[:k-1]
			return b
		}
		n = p.ChunkSize
	}
	p.made++
	return make([]byte, n)
}

// start makes b the current chunk, and puts the one before it aside: freed when nothing of it
// is out, else kept in live until its lines come back.
func (p *chunkPool) start(b []byte) {
	if old := p.cur; old != nil {
		if old.out == 0 {
			p.release(old.buf)
		} else {
			p.live = append(p.live, old)
		}
	}
	p.cur = &lineChunk{buf: b}
}

// release frees a chunk nothing points into any more.
func (p *chunkPool) release(b []byte) {
	if p.Poison {
		for i := range b {
			b[i] = 0xAA
		}
	}
	if cap(b) == p.ChunkSize && len(p.free) < maxFree {
		p.free = append(p.free, b[:cap(b)])
	}
}

// give takes back a line handed out: the chunk it is in has one line fewer out. A line in no
// chunk of the pool (a copy, such as a lenient event's) is not the pool's.
func (p *chunkPool) give(line []byte) {
	if cap(line) == 0 {
		return
	}
	if p.cur != nil && alias.Within(line, p.cur.buf) {
		p.cur.out--
		return
	}
	for i := len(p.live) - 1; i >= 0; i-- {
		c := p.live[i]
		if !alias.Within(line, c.buf) {
			continue
		}
		if c.out--; c.out == 0 {
			p.live = slices.Delete(p.live, i, i+1)
			p.release(c.buf)
		}
		return
	}
}

// Chunks returns how many chunks of lines a reusing Reader (NewReaderReusing) has allocated, 0
// for another Reader.
func (r *Reader) Chunks() int {
	if r.reuse == nil {
		return 0
	}
	return r.reuse.made
}
