package audit

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"io"
	"sync"

	"github.com/fechado/fechado/events"
)

// Log is one JSON Lines log for ParallelReaders: what it reads, R or else Bytes (a file mapped into
// memory, never written: the events alias it), and the name its errors carry (a file name, or
// "-"). Done, when set with Bytes, is told how far the lines of Bytes have all been audited, as
// events.NewReaderBytes's done is.
type Log struct {
	R     io.Reader
	Bytes []byte
	Done  func(n int)
	Name  string
}

// blockSize is how much of a log one decoding job takes: thousands of lines, so that handing a
// block over costs nothing next to decoding it. A block ends at a newline; a longer line makes
// its block longer.
var blockSize = 1 << 20

// ParallelReaders audits the logs, in the order given, as AuditReader audits each in turn with
// a, and spreads the work over n goroutines (Spread): the lines are decoded and hashed in blocks,
// several at once, and given to a in order, one block after the other. The findings and their
// order are AuditReader's (a line's error names its file and line as AuditReader's does). It
// returns the number of lines that did not decode, and the first error that is not a bad line
// (an unreadable log), after the lines read before it; a is not closed.
func ParallelReaders(a *Auditor, logs []Log, n int) (bad int, err error) {
	n = max(n, 1)
	a.Spread(n)
	jobs := make(chan *block, n)
	order := make(chan *block, 2*n)
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range jobs {
				b.decode()
				close(b.ready)
			}
		}()
	}
	go func() {
		defer close(order)
		defer close(jobs)
		for _, l := range logs {
			if !split(l, jobs, order) {
				return
			}
		}
	}()
	var sum [sha256.Size]byte
	var failed error
	for b := range order {
		<-b.ready
		if failed != nil {
			continue // drain: the reading goroutine stops at the failed log
		}
		for i := range b.lines {
			ln := &b.lines[i]
			var s *[sha256.Size]byte
			if ln.hasSum {
				sum = ln.sum
				s = &sum
			}
			if ln.err == nil {
				a.add(ln.e, s)
				continue
			}
			bad++
			a.AddUndecoded(ln.e, s, ln.err)
		}
		if b.err != nil {
			failed = b.err
		}
		if b.done != nil {
			// Once the hands ended so far are replayed: a replay reads its events' strings,
			// pieces of these bytes, which would otherwise be read back from the file into
			// memory that nothing lets go any more.
			done, end := b.done, b.end
			a.par.then(func() { done(end) })
		}
	}
	wg.Wait()
	return bad, failed
}

// block is a run of whole lines of one log, decoded by a worker.
type block struct {
	data []byte
	name string
	base int // lines of the log before the block
	// done, for a log of bytes, is its Done, told end, where the block ends in the bytes, once
	// its lines are fed.
	done  func(n int)
	end   int
	err   error // a read error after the block's lines: the log ends there
	lines []decoded
	ready chan struct{}
}

// decoded is one line of a block as AuditReader takes it from its Reader.
type decoded struct {
	e      *events.Event
	err    error
	sum    [sha256.Size]byte
	hasSum bool
}

// decode decodes and hashes the block's lines, with the line numbers of the whole log.
func (b *block) decode() {
	r := events.NewReaderBytes(b.data, b.name, nil)
	for {
		e, err := r.NextLenient()
		if err == io.EOF {
			return
		}
		if err != nil && !errors.Is(err, events.ErrInvalid) {
			b.err = err // not a line of bytes in memory: cannot happen, but is not lost
			return
		}
		var ee *events.Error
		if errors.As(err, &ee) {
			ee.Line += b.base
		}
		d := decoded{e: e, err: err}
		d.sum, d.hasSum = r.LineSum()
		b.lines = append(b.lines, d)
	}
}

// split reads l into blocks of whole lines, queued for the workers (jobs) and for the Auditor in
// order (order). It reports whether l was read to its end.
func split(l Log, jobs, order chan<- *block) bool {
	if l.R == nil {
		splitBytes(l, jobs, order)
		return true
	}
	base := 0
	var carry []byte
	send := func(data []byte, err error) {
		b := &block{data: data, name: l.Name, base: base, err: err, ready: make(chan struct{})}
		base += bytes.Count(data, []byte{'\n'})
		order <- b
		jobs <- b
	}
	for {
		buf := make([]byte, len(carry), max(blockSize, 2*len(carry)))
		copy(buf, carry)
		n, err := io.ReadFull(l.R, buf[len(carry):cap(buf)])
		buf = buf[:len(carry)+n]
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			if len(buf) > 0 {
				send(buf, nil)
			}
			return true
		case err != nil:
			send(buf, &events.Error{File: l.Name, Line: base + bytes.Count(buf, []byte{'\n'}) + 1, Err: err})
			return false
		}
		cut := bytes.LastIndexByte(buf, '\n')
		if cut < 0 {
			carry = buf // one line longer than the block: read on
			continue
		}
		carry = buf[cut+1:]
		send(buf[:cut+1:cut+1], nil)
	}
}

// splitBytes is split for a log held in memory: the blocks are pieces of it, copied nowhere.
func splitBytes(l Log, jobs, order chan<- *block) {
	base := 0
	for at := 0; at < len(l.Bytes); {
		end := min(at+blockSize, len(l.Bytes))
		if end < len(l.Bytes) {
			if nl := bytes.IndexByte(l.Bytes[end:], '\n'); nl < 0 {
				end = len(l.Bytes)
			} else {
				end += nl + 1
			}
		}
		data := l.Bytes[at:end:end]
		b := &block{data: data, name: l.Name, base: base, done: l.Done, end: end, ready: make(chan struct{})}
		base += bytes.Count(data, []byte{'\n'})
		order <- b
		jobs <- b
		at = end
	}
}
