package audit

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"io"
	"slices"
	"unicode/utf8"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/multisha"
)

// This file spreads the audit of a log over several cores. The audit of a log is a per-table
// affair, but for three things: a hand's lines go together, a table's hands are judged in their
// chain's order, and a tournament's hands are followed across its tables once every hand has
// been judged (tournament.Follow). So one reader walks the log's lines and sends each table's
// lines to one worker (a hand's lines to the worker of its first line), reading no more of a
// line than its envelope's first members; each worker decodes, hashes and judges its tables'
// hands with an Auditor of its own; what they report is put back in the order one Auditor
// reports it; and the tournaments are followed at the end, by the Auditor of the whole log, from
// the hands of every worker in the order one Auditor would have judged them.

// place is where in the log an Auditor stands while it reports: the number of the line being
// fed (its file's index in the top bits), or a step of Close. Places order what the workers of a
// Spread report as one Auditor would report it: every report is made at exactly one worker's
// place, and a worker's places only grow.
type place struct {
	phase uint8
	at    uint64
}

const (
	// phaseLine: at is the line being fed (lineAt).
	phaseLine = iota
	// phaseOpen: Close judges the hand that never ended whose first line is at.
	phaseOpen
	// phaseSeq (+ the phase of where the table's first hand went into the sequencer): Close
	// releases the hands still waiting at the table whose first hand went in at at.
	phaseSeq
)

// lineAt is the place of line number n of file number file.
func lineAt(file, n int) uint64 { return uint64(file)<<40 | uint64(n) }

func (p place) compare(q place) int {
	switch {
	case p.phase != q.phase:
		return int(p.phase) - int(q.phase)
	case p.at < q.at:
		return -1
	case p.at > q.at:
		return 1
	}
	return 0
}

// File is a log held whole in memory for Spread: Bytes are its lines (a mapped file, package
// logfile), never written; Name names it in errors; Release, when not nil, is told how much of its
// start is done with, as events.NewReaderBytes's done.
type File struct {
	Bytes   []byte
	Name    string
	Release func(n int)
}

// Spread audits logs held in memory on several workers at once, with the findings, and their
// order, of one Auditor reading them one after the other (AuditReader). The ids are checked by
// the reader, in the log's order (events.IDs). What differs is what the reader guesses of a line
// that is not JSON but begins and ends as an event (envelopeOf), and where an event of a hand
// that began more than spreadHands hands before it, naming another table, goes.
type Spread[T any] struct {
	// Workers is how many workers audit the tables (at least 1).
	Workers int
	// Worker readies the Auditor of each worker: its Report and Hand callbacks, which run on the
	// worker's goroutine, give what they make of a finding or a hand to put. No other callback
	// is called.
	Worker func(a *Auditor, put func(T))
	// Deliver receives, on the goroutine that called Audit, everything put, in the order one
	// Auditor would have made it.
	Deliver func(T)
	// Guard, when not nil, runs the reading of each goroutine (logfile.Guard): a fault on a file's
	// memory becomes its error.
	Guard func(func() error) error
}

// spreadRound is how many bytes of a log the reader gives the workers at a time.
const spreadRound = 1 << 20

// spreadAhead is how many rounds a worker and the reader may be ahead of the slowest worker.
const spreadAhead = 16

// spreadHands is how many hands the reader remembers the worker of, for the lines that name a
// hand whose first line named another table.
const spreadHands = 1 << 16

// batch is one worker's lines of a round of file number file: their spans in it and line numbers.
// The last batch, close, has none: the worker then closes its Auditor.
type batch struct {
	file    int
	spans   []multisha.Span
	numbers []int
	// evs are the events of a batch of decoded events (Spread.AuditEvents), numbers their
	// places in the log, instead of spans.
	evs []*events.Event
	// dups are the numbers of the lines whose id was used before in the log.
	dups  []int
	close bool
}

// round is what the reader tells the merger of a round: the file and how far it read.
type round struct {
	file, end int
	close     bool
}

type item[T any] struct {
	at place
	v  T
}

// spreadWorker is one worker: its Auditor and the rounds it is given and gives back.
type spreadWorker[T any] struct {
	a  *Auditor
	in chan batch
	// free takes back the lists of a batch once read, for the reader's next rounds.
	free  chan batch
	out   chan []item[T]
	items []item[T]
	bad   int
	err   error
}

// Audit audits files, one after the other, as AuditReader audits their Readers into a, which has
// been fed nothing before: the workers' hands, findings and counts go to a, and their tournament
// hands too, which a.Close follows (the Tournament callback, on the caller's goroutine). It
// returns how many lines did not decode, and the first error of a Guard.
func (s *Spread[T]) Audit(a *Auditor, files []File) (bad int, err error) {
	return s.spread(a, files, func(ws []*spreadWorker[T], rounds chan<- round, ids *events.IDs) error {
		return route(files, ws, rounds, ids)
	})
}

// AuditEvents audits the events that feed gives to add, in the order of the log (events already
// decoded: the stored log), as Auditor.Add does into a, on the workers. The events are the
// Auditor's once given. It returns feed's error.
func (s *Spread[T]) AuditEvents(a *Auditor, feed func(add func(*events.Event)) error) error {
	_, err := s.spread(a, nil, func(ws []*spreadWorker[T], rounds chan<- round, ids *events.IDs) error {
		return routeEvents(feed, ws, rounds, ids)
	})
	return err
}

// spread runs the workers on what routing sends them, and merges what they report.
func (s *Spread[T]) spread(a *Auditor, files []File, routing func([]*spreadWorker[T], chan<- round, *events.IDs) error) (bad int, err error) {
	n := max(s.Workers, 1)
	guard := s.Guard
	if guard == nil {
		guard = func(fn func() error) error { return fn() }
	}
	ws := make([]*spreadWorker[T], n)
	for i := range ws {
		w := &spreadWorker[T]{a: New(nil), in: make(chan batch, spreadAhead), free: make(chan batch, spreadAhead+2),
			out: make(chan []item[T], spreadAhead)}
		w.a.seqFirst = map[string]place{}
		w.a.idsApart, w.a.chain.TrackIDs = true, false
		s.Worker(w.a, func(v T) { w.items = append(w.items, item[T]{w.a.at, v}) })
		// Never called by a worker (closeWorker leaves the tournaments to a), but it says that
		// the tournaments' hands keep their events for a's.
		w.a.Tournament = a.Tournament
		ws[i] = w
		go w.run(files, guard)
	}
	rounds := make(chan round, spreadAhead)
	var readErr error
	go func() {
		ids := &events.IDs{Window: a.chain.IDWindow}
		if !a.chain.TrackIDs {
			ids = nil
		}
		readErr = guard(func() error { return routing(ws, rounds, ids) })
		// On an error the round under way is sent as it is, then the workers close.
		for _, w := range ws {
			w.in <- batch{close: true}
			close(w.in)
		}
		rounds <- round{close: true}
		close(rounds)
	}()
	heads := make([][]item[T], n)
	for r := range rounds {
		for i, w := range ws {
			heads[i] = <-w.out
		}
		merge(heads, s.Deliver)
		if !r.close && files != nil && files[r.file].Release != nil {
			files[r.file].Release(r.end)
		}
	}
	for _, w := range ws {
		a.Hands += w.a.Hands
		a.Findings += w.a.Findings
		a.Errors += w.a.Errors
		bad += w.bad
		if err == nil {
			err = w.err
		}
		a.tours = append(a.tours, w.a.tours...)
	}
	// The tournaments' hands in the order one Auditor judges them, for a.Close to follow.
	slices.SortStableFunc(a.tours, func(x, y tourHand) int { return x.at.compare(y.at) })
	if readErr != nil {
		err = readErr
	}
	return bad, err
}

// merge delivers the items of every worker's round in the order of their places: each worker's
// are in order already, and no two workers report at the same place.
func merge[T any](heads [][]item[T], deliver func(T)) {
	for {
		best := -1
		for i, h := range heads {
			if len(h) > 0 && (best < 0 || h[0].at.compare(heads[best][0].at) < 0) {
				best = i
			}
		}
		if best < 0 {
			return
		}
		deliver(heads[best][0].v)
		heads[best] = heads[best][1:]
	}
}

// run audits the worker's batches as they come and gives back, for each, what it reported. After
// an error it only answers.
func (w *spreadWorker[T]) run(files []File, guard func(func() error) error) {
	defer close(w.out)
	var (
		r    *events.Reader
		file = -1
		next batch
		sum  [sha256.Size]byte
	)
	more := func() ([]multisha.Span, []int) {
		spans, numbers := next.spans, next.numbers
		next.spans, next.numbers = nil, nil
		return spans, numbers
	}
	a := w.a
	for b := range w.in {
		if w.err == nil {
			w.err = guard(func() error {
				if b.close {
					a.closeWorker()
					return nil
				}
				if files == nil { // decoded events (AuditEvents)
					dups := b.dups
					for i, e := range b.evs {
						a.at = place{phaseLine, uint64(b.numbers[i])}
						if a.seenID = len(dups) > 0 && dups[0] == b.numbers[i]; a.seenID {
							dups = dups[1:]
						}
						a.add(e, nil)
					}
					return nil
				}
				if b.file != file {
					file = b.file
					r = events.NewReaderLines(files[file].Bytes, files[file].Name, more)
					if !a.keeps() {
						a.recycle = r.Recycle
					}
				}
				next = b
				dups := b.dups
				for {
					e, err := r.NextLenient()
					line := r.Line()
					a.at = place{phaseLine, lineAt(file, line)}
					if a.seenID = len(dups) > 0 && dups[0] == line; a.seenID {
						dups = dups[1:]
					}
					switch {
					case err == nil:
						a.add(e, lineSum(r, &sum))
						continue
					case err == io.EOF:
						return nil
					case !errors.Is(err, events.ErrInvalid):
						return err
					}
					w.bad++
					a.AddUndecoded(e, lineSum(r, &sum), err)
				}
			})
		}
		if b.spans != nil {
			select {
			case w.free <- batch{spans: b.spans[:0], numbers: b.numbers[:0]}:
			default:
			}
		}
		w.out <- w.items
		w.items = nil
	}
}

// closeWorker is Close for a worker of a Spread, without the tournaments: it judges the hands
// that never ended, then those still waiting at their tables, each at the place one Auditor's
// Close would judge it.
func (a *Auditor) closeWorker() {
	for _, h := range a.order {
		if p, ok := a.open[h]; ok {
			a.at = place{phaseOpen, p.at}
			a.finish(p)
		}
	}
	a.order = nil
	a.closing = true
	a.seq.Close()
	a.recycle = nil
}

// route reads the lines of files and sends each to its worker, round by round: a hand's lines go
// to the worker of its first line, a hand's first line to its table's worker (router), a line
// that names no hand to the worker of the line before it (it is placed there, events-v1.md §8).
// Blank lines are skipped, as Reader.Next skips them.
func route[T any](files []File, ws []*spreadWorker[T], rounds chan<- round, ids *events.IDs) error {
	rt := newRouter(len(ws))
	var lastHand []byte
	last := 0
	bs := make([]batch, len(ws))
	for fi, f := range files {
		b := f.Bytes
		for i := range bs {
			bs[i] = batch{file: fi}
		}
		send := func(end int) {
			for i, w := range ws {
				w.in <- bs[i]
				select {
				case used := <-w.free:
					bs[i] = batch{file: fi, spans: used.spans, numbers: used.numbers}
				default:
					bs[i] = batch{file: fi}
				}
			}
			rounds <- round{file: fi, end: end}
		}
		start, line := 0, 0
		for off := 0; off < len(b); {
			end := len(b)
			if k := bytes.IndexByte(b[off:], '\n'); k >= 0 {
				end = off + k
			}
			line++
			l := b[off:end]
			if (len(l) > 0 && l[0] == '{') || len(bytes.TrimSpace(l)) > 0 {
				hand, table, id, ok := envelopeOf(l, lastHand)
				w := last
				switch {
				case !ok:
					// No hand to route by: the line before it (whose hand it joins) decides.
				case bytes.Equal(hand, lastHand):
				default:
					w = rt.worker(hand, table)
				}
				if ok {
					lastHand = hand
				}
				last = w
				rt.load[w] += len(l)
				if id != nil && ids != nil && ids.Seen(id) {
					bs[w].dups = append(bs[w].dups, line)
				}
				bs[w].spans = append(bs[w].spans, multisha.Span{Off: off, Len: end - off})
				bs[w].numbers = append(bs[w].numbers, line)
			}
			off = end + 1
			if off-start >= spreadRound {
				send(min(off, len(b)))
				start = off
			}
		}
		send(len(b))
	}
	return nil
}

// router chooses the workers of hands: a hand's first line goes to its table's worker, a new
// table to the worker given the least so far (load: bytes, or events), and the hand's other lines
// after it.
type router struct {
	load   []int
	tables map[string]int
	hands  map[string]int
	ring   []string // the hands in hands, oldest first from head
	head   int
}

func newRouter(n int) *router {
	return &router{load: make([]int, n), tables: map[string]int{}, hands: map[string]int{}, ring: make([]string, 0, spreadHands)}
}

// worker returns the worker of hand, whose line names table.
func (rt *router) worker(hand, table []byte) int {
	if w, known := rt.hands[string(hand)]; known {
		return w
	}
	w, known := rt.tables[string(table)]
	if !known {
		for i, l := range rt.load {
			if l < rt.load[w] {
				w = i
			}
		}
		rt.tables[string(table)] = w
	}
	key := string(hand)
	rt.hands[key] = w
	if len(rt.ring) < cap(rt.ring) {
		rt.ring = append(rt.ring, key)
	} else {
		delete(rt.hands, rt.ring[rt.head])
		rt.ring[rt.head] = key
		rt.head = (rt.head + 1) % len(rt.ring)
	}
	return w
}

// spreadEvents is how many decoded events the reader gives the workers at a time.
const spreadEvents = 4096

// routeEvents sends the events feed gives to their workers, as route sends lines, in rounds of
// spreadEvents.
func routeEvents[T any](feed func(add func(*events.Event)) error, ws []*spreadWorker[T], rounds chan<- round, ids *events.IDs) error {
	rt := newRouter(len(ws))
	bs := make([]batch, len(ws))
	lastHand, last, n, count := "", 0, 0, 0
	send := func() {
		for i, w := range ws {
			w.in <- bs[i]
			bs[i] = batch{}
		}
		rounds <- round{}
		count = 0
	}
	err := feed(func(e *events.Event) {
		n++
		if e.Hand != lastHand || n == 1 {
			last = rt.worker([]byte(e.Hand), []byte(e.Table))
			lastHand = e.Hand
		}
		b := &bs[last]
		rt.load[last]++
		if ids != nil && ids.SeenString(e.ID) {
			b.dups = append(b.dups, n)
		}
		b.evs = append(b.evs, e)
		b.numbers = append(b.numbers, n)
		if count++; count == spreadEvents {
			send()
		}
	})
	send()
	return err
}

// envelopeOf returns the hand and table that a line names, as the Auditor will read them, and
// the id the Auditor's chain checks (nil: none, the line is not an event's): from its first
// members when they are id, table and hand as fechado writes them and the line is UTF-8 that ends
// as an object does, or when the hand is lastHand (that of the line before it); else from what
// events.ParseLenient reads of it. ok is false when it names no hand the Auditor reads (not JSON,
// no readable envelope, or too long).
//
// The first way reads a few dozen bytes of a line where the Auditor reads them all: the reader
// keeps up with several workers. Its one guess is that such a line is JSON in between; one that
// is not is placed after the line before it (events-v1.md §8) by one Auditor, at its own hand by
// a Spread when that is another hand, and its id is checked by a Spread only.
func envelopeOf(l, lastHand []byte) (hand, table, id []byte, ok bool) {
	if hand, table, id, ok = written(l); ok {
		if l[len(l)-1] == '}' && utf8.Valid(l) {
			return hand, table, id, true
		}
		if bytes.Equal(hand, lastHand) {
			// Not JSON: placed after the line before it, in the same hand, so it goes where
			// that line went; its id is not an event's.
			return hand, table, nil, true
		}
	}
	if len(l) > events.MaxLineSize {
		return nil, nil, nil, false
	}
	e, _ := events.ParseLenient(l)
	if e == nil || e.Hand == "" {
		return nil, nil, nil, false
	}
	return []byte(e.Hand), []byte(e.Table), []byte(e.ID), true
}

// written returns the hand, table and id of a line that begins with id, table and hand as
// fechado writes them, plain strings.
func written(l []byte) (hand, table, id []byte, ok bool) {
	const idKey, tableKey, handKey = `{"id":"`, `","table":"`, `","hand":"`
	if !bytes.HasPrefix(l, []byte(idKey)) {
		return nil, nil, nil, false
	}
	rest := l[len(idKey):]
	i := plainString(rest)
	if i < 0 || !bytes.HasPrefix(rest[i:], []byte(tableKey)) {
		return nil, nil, nil, false
	}
	id, rest = rest[:i], rest[i+len(tableKey):]
	t := plainString(rest)
	if t < 0 || !bytes.HasPrefix(rest[t:], []byte(handKey)) {
		return nil, nil, nil, false
	}
	table, rest = rest[:t], rest[t+len(handKey):]
	if h := plainString(rest); h > 0 {
		return rest[:h], table, id, true
	}
	return nil, nil, nil, false
}

// plainString returns the length of the string that b begins with, up to its closing quote,
// or -1 when it holds an escape or does not close.
func plainString(b []byte) int {
	i := bytes.IndexByte(b, '"')
	if i < 0 || bytes.IndexByte(b[:i], '\\') >= 0 {
		return -1
	}
	return i
}
