package audit

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"hash/maphash"
	"io"
	"slices"
	"sync/atomic"
	"unicode/utf8"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/multisha"
	"github.com/fechado/fechado/internal/prefetch"
)

// This file spreads the audit of a log over several cores. The audit of a log is a per-table
// affair, but for three things: a hand's lines go together, a table's hands are judged in their
// chain's order, and a tournament's hands are followed across its tables once every hand has
// been judged (tournament.Follow). So one reader walks the log's lines and sends each table's
// lines to one worker (a hand's lines to the worker of its first line), reading no more of a
// line than its envelope's first members; each worker decodes, hashes and judges its tables'
// hands with an Auditor of its own; what they report is put back in the order one Auditor
// reports it; and the tournaments are followed at the end, by the Auditor of the whole log, from
// the hands of every worker in the order one Auditor would have judged them. Until the first
// line of a table that goes to another worker than the first, the first worker judges the log
// alone, on the caller's goroutine, as AuditReader does (judgeInline): a log of one table, whose
// hands one Auditor must judge one after the other anyway, costs what one Auditor costs.
//
// The findings are one Auditor's in every case, clean log or damaged. A Spread is optimistic: it
// gives up as soon as the place of a line in the audit may depend on lines another worker holds
// — a line that is not a valid event (events-v1.md §8 places it after the line before it in the
// log), a line of a hand whose first line named another table, a line after its hand's
// hand.ended (recognised while the hand is in the chain's window of the whole log) — and audits
// the log again from its start on one Auditor, fed as AuditReader feeds it, delivering only what
// comes after what was delivered already. What was delivered is what one Auditor reports first:
// up to the round where the spread was given up, every line went where one Auditor puts it.

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
// start is done with, as events.NewReaderBytes's done: by the spread, then, when the spread is
// given up, again from the start by the one Auditor that reads the log a second time (and, when
// a spread by files goes on by tables, by that spread in between: three readings at most).
//
// Fetch, when not nil, is given the bytes [from, to) that the spread's reader is about to read
// first, where nothing has been handed out yet (logfile.Mapping.Fetch): the reader calls it
// ahead of its lines, as far ahead as it asks the processor for them; and so does the Reader of
// the first worker while it judges alone (judgeInline), and the one Auditor's once the spread is
// given up, each the one reader of the file then. The spread by whole files, whose workers'
// Readers give nothing back (Release), does not.
type File struct {
	Bytes   []byte
	Name    string
	Release func(n int)
	Fetch   func(from, to int)
}

// Spread audits logs held in memory on several workers at once, with the findings, and their
// order, of one Auditor reading them one after the other (AuditReader), whatever the log holds.
// The ids are checked by the reader, in the log's order (events.IDs). A log with a line whose
// place may depend on other workers' lines is audited again on one Auditor (see above).
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

	// gaveUp says, once Audit or AuditEvents returns, that the spread was given up and the log
	// audited on one Auditor; inlined how many events the first worker judged before the
	// others started (judgeInline).
	gaveUp  bool
	inlined int
	// files says that the spread by whole files (spreadFiles) was given up for the spread by
	// tables; byFiles that it ran to the end.
	files, byFiles bool
	// fileBytes is how many bytes of the files each worker of a spread by files audited.
	fileBytes []int
}

// spreadRound is how many bytes of a log the reader gives the workers at a time (a variable for
// the tests, which give up spreads after many rounds).
var spreadRound = 1 << 20

// spreadFirstRound is how many bytes the reader gives the workers in its first round, each round
// after it twice the last, up to spreadRound: both workers wait for the first (judgeInline has
// judged what came before), and the reader, which also finds the file's pages first, took about
// a millisecond for a megabyte of room20k.
const spreadFirstRound = 64 << 10

// spreadAhead is how many rounds a worker and the reader may be ahead of the slowest worker: of
// lines of files (spreadRound bytes a round), spreadAheadLines, whose rounds are lists of spans
// in mapped memory; of decoded events (AuditEvents), spreadAhead, whose rounds hold the events.
//
// A worker that is that far ahead waits, and so does the reader, the other worker given its
// tables' lines as they come: at 16 rounds of 1 MB (about 40 ms of a worker's work) the idler
// worker of a room's tables in one file waited or was done for a median 20% of the audit, at 48
// for 6% (execution traces, BENCHMARKS.md, nineteenth session): the tables a worker was given
// as they opened hold more or fewer lines for a while than the other's, and a worker ahead must
// not wait for the other to catch up before it reads on. Each round ahead keeps up to a round
// of the file's pages mapped (48 rounds: a peak of about 120 MB against 75, for no more CPU).
// Since a new table goes to the worker with the least left to audit (router.left), a worker
// behind takes none until it has caught up, and the workers end within milliseconds of each
// other; 48 rounds idled the cores least (16 and 8 rounds: a median 4.0 and 4.2% of the two
// cores idle in execution traces, against 3.0%, BENCHMARKS.md, twentieth session). Since the
// reader hashes nothing and finds each line once, a round 48 MB ahead costs more than that idle
// time: its lists are new memory (a worker gives its lists back only after auditing them) and its
// lines have left the caches when a worker reads them. At 8 rounds, two workers take 1.06–1.08×
// one worker's CPU instead of 1.12–1.15×, and on room20k two workers against one went from
// 1.56–1.61× to 1.62–1.71× (BENCHMARKS.md, twenty-second session).
const (
	spreadAhead      = 16
	spreadAheadLines = 8
)

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
	dups []int
	// size is what the batch adds to its worker's load (router.load): its lines' bytes, or
	// its events.
	size  int
	close bool
}

// round is what the reader tells the merger of a round: the file and how far it read. unsure:
// the reader gave up the spread in this round (a line whose hand's first line named another
// table, or that names no hand).
type round struct {
	file, end int
	close     bool
	unsure    bool
}

// output is what a worker gives back of a round: what it reported, and whether it met a line
// whose place may depend on other workers' lines (Auditor.unsure).
type output[T any] struct {
	items  []item[T]
	unsure bool
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
	free chan batch
	out  chan output[T]
	// done is how much of its load (router.load) the worker has audited: the router gives a
	// new table to the worker with the least left to audit.
	done  atomic.Int64
	items []item[T]
	bad   int
	err   error
	// stop is shared by the workers and the reader of a Spread: set when the spread is given up,
	// so that the reader stops and the workers only answer.
	stop *atomic.Bool
}

// Audit audits files, one after the other, as AuditReader audits their Readers into a, which has
// been fed nothing before: the workers' hands, findings and counts go to a, and their tournament
// hands too, which a.Close follows (the Tournament callback, on the caller's goroutine). It
// returns how many lines did not decode, and the first error of a Guard.
func (s *Spread[T]) Audit(a *Auditor, files []File) (bad int, err error) {
	inline := func(w *spreadWorker[T], st *routeState, deliver func()) (inlineEnd, error) {
		return judgeInline(files, w, st, deliver)
	}
	routing := func(ws []*spreadWorker[T], rounds chan<- round, st *routeState) error {
		return route(files, ws, rounds, st)
	}
	again := func(one *Auditor) (bad int, err error) {
		for _, f := range files {
			r := events.NewReaderBytes(f.Bytes, f.Name, f.Release)
			if f.Fetch != nil {
				r.Fetch(f.Fetch) // the one reader: the spread is over
			}
			n, err := AuditReader(one, r)
			bad += n
			if err != nil {
				return bad, err
			}
		}
		return bad, nil
	}
	if s.Workers > 1 && len(files) > 1 {
		if q := newFileQueue(files, s.Workers); q.several(files) {
			bad, delivered, shared, err := s.spreadFiles(a, files, q, s.guard(), again)
			if !shared {
				return bad, err
			}
			// What was delivered is what one Auditor reports first: the spread by tables
			// delivers what comes after it.
			s.files = true
			deliver := s.Deliver
			defer func() { s.Deliver = deliver }()
			s.Deliver = func(v T) {
				if delivered > 0 {
					delivered--
					return
				}
				deliver(v)
			}
		}
	}
	release := func(r round) {
		if files[r.file].Release != nil {
			files[r.file].Release(r.end)
		}
	}
	return s.spread(a, files, inline, routing, again, release)
}

// AuditEvents audits the events that feed gives to add, in the order of the log (events already
// decoded: the stored log), as Auditor.Add does into a, on the workers. The events are the
// Auditor's once given. It returns feed's error. feed is called a second time when the spread is
// given up (see above), to give the events again from the first, into one Auditor: a log that
// grew in between is audited as it stands then, its first events delivered once.
func (s *Spread[T]) AuditEvents(a *Auditor, feed func(add func(*events.Event)) error) error {
	routing := func(ws []*spreadWorker[T], rounds chan<- round, st *routeState) error {
		return routeEvents(feed, ws, rounds, st)
	}
	again := func(one *Auditor) (int, error) {
		return 0, feed(one.Add)
	}
	_, err := s.spread(a, nil, nil, routing, again, nil)
	return err
}

// spread runs the workers on what routing sends them, and merges what they report; release, when
// not nil, is told of each round delivered. inline, when not nil, first judges the log on the
// caller's goroutine with the first worker's Auditor, as long as every table goes to it
// (judgeInline): a log of one table then costs what one Auditor costs, and no goroutine starts.
// When the spread is given up, again feeds the log from its start into one Auditor instead
// (alone), and returns how many lines did not decode.
func (s *Spread[T]) spread(a *Auditor, files []File, inline func(*spreadWorker[T], *routeState, func()) (inlineEnd, error),
	routing func([]*spreadWorker[T], chan<- round, *routeState) error,
	again func(one *Auditor) (int, error), release func(round)) (bad int, err error) {
	n := max(s.Workers, 1)
	var stop atomic.Bool
	guard := s.guard()
	ahead := spreadAhead
	if files != nil {
		ahead = spreadAheadLines
	}
	ws := s.workers(a, n, ahead, &stop)
	st := &routeState{rt: newRouter(n), ids: &events.IDs{Window: a.chain.IDWindow}}
	for _, w := range ws {
		st.rt.done = append(st.rt.done, &w.done)
	}
	if !a.chain.TrackIDs {
		st.ids = nil
	} else {
		size := 0
		for _, f := range files {
			size += len(f.Bytes)
		}
		st.ids.Expect(events.LinesOf(size))
	}
	delivered := 0
	if inline != nil {
		// What the first worker reports while it judges alone is in one Auditor's order: it is
		// delivered as it comes.
		w := ws[0]
		deliver := func() {
			for _, it := range w.items {
				s.Deliver(it.v)
			}
			delivered += len(w.items)
			clear(w.items)
			w.items = w.items[:0]
		}
		var end inlineEnd
		if err := guard(func() error {
			var err error
			if end, err = inline(w, st, deliver); err == nil && end == finished {
				w.a.closeWorker()
				deliver()
			}
			return err
		}); err != nil {
			return 0, err
		}
		s.inlined = st.inlined
		switch end {
		case unsure:
			s.gaveUp = true
			return s.alone(a, delivered, guard, again)
		case finished:
			return 0, s.collect(a, ws, nil)
		}
		w.items = nil
	}
	for _, w := range ws {
		go w.run(files, guard)
	}
	rounds := make(chan round, ahead)
	var readErr error
	go func() {
		readErr = guard(func() error { return routing(ws, rounds, st) })
		// On an error the round under way is sent as it is, then the workers close.
		for _, w := range ws {
			w.in <- batch{close: true}
			close(w.in)
		}
		rounds <- round{close: true}
		close(rounds)
	}()
	heads := make([][]item[T], n)
	unsure := false
	for r := range rounds {
		unsure = unsure || r.unsure
		for i, w := range ws {
			out := <-w.out
			heads[i] = out.items
			unsure = unsure || out.unsure
		}
		if unsure { // this round and the next are not delivered: the reader and workers stop
			stop.Store(true)
			continue
		}
		delivered += merge(heads, s.Deliver)
		if !r.close && release != nil {
			release(r)
		}
	}
	if unsure {
		for _, w := range ws {
			if w.err != nil {
				return 0, w.err
			}
		}
		if readErr != nil {
			return 0, readErr
		}
		s.gaveUp = true
		return s.alone(a, delivered, guard, again)
	}
	for _, w := range ws {
		bad += w.bad
	}
	return bad, s.collect(a, ws, readErr)
}

// guard is Guard, or a guard that guards nothing.
func (s *Spread[T]) guard() func(func() error) error {
	if s.Guard == nil {
		return func(fn func() error) error { return fn() }
	}
	return s.Guard
}

// workers readies n workers for a, sharing stop, each given up to ahead rounds ahead.
func (s *Spread[T]) workers(a *Auditor, n, ahead int, stop *atomic.Bool) []*spreadWorker[T] {
	ws := make([]*spreadWorker[T], n)
	for i := range ws {
		w := &spreadWorker[T]{a: New(nil), in: make(chan batch, ahead), free: make(chan batch, ahead+2),
			out: make(chan output[T], ahead), stop: stop}
		w.a.seqFirst = map[string]place{}
		w.a.idsApart, w.a.chain.TrackIDs = true, false
		// The window of a's chain: a hand that one Auditor remembers, its worker remembers too.
		w.a.chain.Window, w.a.chain.IDWindow = a.chain.Window, a.chain.IDWindow
		s.Worker(w.a, func(v T) { w.items = append(w.items, item[T]{w.a.at, v}) })
		// Never called by a worker (closeWorker leaves the tournaments to a), but it says that
		// the tournaments' hands keep their events for a's.
		w.a.Tournament = a.Tournament
		ws[i] = w
	}
	return ws
}

// collect adds the workers' counts and tournament hands to a, once they are done, and returns the
// first error: readErr, else a worker's.
func (s *Spread[T]) collect(a *Auditor, ws []*spreadWorker[T], readErr error) (err error) {
	for _, w := range ws {
		a.Hands += w.a.Hands
		a.Findings += w.a.Findings
		a.Errors += w.a.Errors
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
	return err
}

// routeState is the router's: where each table goes (rt), the ids of the log (ids, nil when they
// are not checked), the hand and table of the last line and its worker; and, for files, where
// the reading begins (file number file, byte from) and how many lines of that file come before
// it (fromLine): after what judgeInline judged, inlined events.
type routeState struct {
	rt                   *router
	ids                  *events.IDs
	lastHand, lastTable  []byte
	last                 int
	file, from, fromLine int
	inlined              int
}

// inlineEnd is how judgeInline ended: at the first line of a table that goes to another worker
// (switched), at the end of the files (finished), or at a line whose place may depend on other
// workers' lines (unsure: the spread is given up).
type inlineEnd int

const (
	switched inlineEnd = iota
	finished
	unsure
)

// judgeInline judges the lines of files with w's Auditor, one after the other, as AuditReader
// does, while every table goes to w (the first worker): it routes each line as route does (st),
// checks its id, and delivers what w reports after each line. It stops before the first line of
// a table that goes to another worker, and leaves in st where route takes over; at a line that
// is not a valid event, or of a hand whose first line named another table (unsure); or at the
// end of the files (finished).
func judgeInline[T any](files []File, w *spreadWorker[T], st *routeState, deliver func()) (inlineEnd, error) {
	a := w.a
	var sum [sha256.Size]byte
	for fi, f := range files {
		r := events.NewReaderBytes(f.Bytes, f.Name, f.Release)
		if f.Fetch != nil {
			r.Fetch(f.Fetch) // the one reader: the workers wait
		}
		if !a.keeps() {
			a.recycle = r.Recycle
		}
		for {
			e, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return unsure, nil // a line that is not a valid event: ErrInvalid
			}
			if st.lastHand == nil || e.Hand != string(st.lastHand) || e.Table != string(st.lastTable) {
				hand, table := []byte(e.Hand), []byte(e.Table)
				k, ok := st.rt.worker(hand, table)
				if !ok {
					return unsure, nil
				}
				st.lastHand, st.lastTable, st.last = hand, table, k
				if k != 0 {
					// route reads the log from this line on, its table known to st.rt.
					a.recycle = nil
					st.file, st.from, st.fromLine = fi, r.Offset(), r.Line()-1
					return switched, nil
				}
			}
			st.rt.load[0] += len(e.Raw)
			w.done.Add(int64(len(e.Raw)))
			st.inlined++
			a.at = place{phaseLine, lineAt(fi, r.Line())}
			if st.ids != nil {
				// As AuditReader asks for the next line's id (Chain.Prefetch).
				st.ids.Prefetch(r.Ahead(64))
			}
			a.seenID = st.ids != nil && st.ids.SeenString(e.ID)
			a.add(e, lineSum(r, &sum))
			if a.unsure {
				return unsure, nil // what it reported is left to the one Auditor
			}
			if len(w.items) > 0 {
				deliver()
			}
		}
	}
	a.recycle = nil
	return finished, nil
}

// merge delivers the items of every worker's round in the order of their places: each worker's
// are in order already, and no two workers report at the same place. It returns how many.
func merge[T any](heads [][]item[T], deliver func(T)) (n int) {
	for {
		best := -1
		for i, h := range heads {
			if len(h) > 0 && (best < 0 || h[0].at.compare(heads[best][0].at) < 0) {
				best = i
			}
		}
		if best < 0 {
			return n
		}
		n++
		deliver(heads[best][0].v)
		heads[best] = heads[best][1:]
	}
}

// alone audits the log on one Auditor, readied as the workers are (Worker) but with a's chain,
// fed by again as AuditReader and Add feed one: skip is how many of the things it reports were
// delivered already, those it reports first. Its hands, findings, counts and tournament hands go
// to a, as the workers' do.
func (s *Spread[T]) alone(a *Auditor, skip int, guard func(func() error) error, again func(one *Auditor) (int, error)) (bad int, err error) {
	one := New(nil)
	one.chain.Window, one.chain.IDWindow, one.chain.TrackIDs = a.chain.Window, a.chain.IDWindow, a.chain.TrackIDs
	s.Worker(one, func(v T) {
		if skip > 0 {
			skip--
			return
		}
		s.Deliver(v)
	})
	one.Tournament = a.Tournament
	err = guard(func() error {
		var err error
		if bad, err = again(one); err != nil {
			return err
		}
		one.closeWorker()
		return nil
	})
	if err != nil {
		return bad, err
	}
	a.Hands += one.Hands
	a.Findings += one.Findings
	a.Errors += one.Errors
	a.tours = append(a.tours, one.tours...)
	return bad, nil
}

// run audits the worker's batches as they come and gives back, for each, what it reported. After
// an error, or once the spread is given up, it only answers.
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
		if w.err == nil && !a.unsure && !w.stop.Load() {
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
		w.done.Add(int64(b.size))
		if b.spans != nil {
			select {
			case w.free <- batch{spans: b.spans[:0], numbers: b.numbers[:0]}:
			default:
			}
		}
		if a.unsure {
			w.stop.Store(true)
		}
		// A round this worker did not audit, or audited while the spread was given up, is not
		// delivered: it says so.
		w.out <- output[T]{w.items, w.stop.Load()}
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

// route reads the lines of files and sends each to its worker, round by round: a line to the
// worker of the table it names (router), a line that names the hand of the line before it to the
// same worker. Blank lines are skipped, as Reader.Next skips them. It stops, and says so in the
// last round, at a line that names no hand, or at the end of a round with a hand whose first line
// named another table (router.settle): one Auditor places such a line by lines another worker may
// hold (events-v1.md §8, Auditor.add); and when a worker has given up the spread (stop).
func route[T any](files []File, ws []*spreadWorker[T], rounds chan<- round, st *routeState) error {
	rt, ids := st.rt, st.ids
	lastHand, lastTable, last := st.lastHand, st.lastTable, st.last
	// env is what follows a plain id on a line that names the last line's table and hand as
	// fechado writes them (`","table":"T","hand":"H"`); empty when they are not plain strings.
	env := plainEnvelope(nil, lastHand, lastTable)
	bs := make([]batch, len(ws))
	stop := ws[0].stop
	// The ids of a round are checked at its end, in the log's order, all at once
	// (IDs.SeenKeysFrom): the set's memory of each is asked for a few ids ahead, where a check
	// line by line would wait for it (the reader does little else a line); keyLines and
	// keyWorkers are the line and the worker of each id.
	var keys events.IDKeys
	var keyLines, keyWorkers []int
	checkIDs := func() {
		for from := 0; from < keys.Len(); {
			i, seen := ids.SeenKeysFrom(&keys, from)
			if !seen {
				break
			}
			w := keyWorkers[i]
			bs[w].dups = append(bs[w].dups, keyLines[i])
			from = i + 1
		}
		keys.Reset()
		keyLines, keyWorkers = keyLines[:0], keyWorkers[:0]
	}
	// The workers wait for the first round: it is small, and the rounds grow to spreadRound.
	size := min(spreadFirstRound, spreadRound)
	for fi := st.file; fi < len(files); fi++ {
		b, fetch := files[fi].Bytes, files[fi].Fetch
		from, line := 0, 0
		if fi == st.file {
			from, line = st.from, st.fromLine
		}
		for i := range bs {
			bs[i] = batch{file: fi}
		}
		// send gives the round to the workers and the merger; it is unsure, and says so, when a
		// hand of the round had its first line at another table (router.settle).
		send := func(end int, unsure bool) bool {
			checkIDs()
			unsure = !rt.settle() || unsure
			for i, w := range ws {
				w.in <- bs[i]
				select {
				case used := <-w.free:
					bs[i] = batch{file: fi, spans: used.spans, numbers: used.numbers}
				default:
					bs[i] = batch{file: fi}
				}
			}
			rounds <- round{file: fi, end: end, unsure: unsure}
			return unsure
		}
		start, ahead := from, from
		for off := from; off < len(b); {
			if ahead-off < routeAhead && ahead < len(b) {
				// The file's next bytes asked for (AuditReader's Reader does the same): the
				// pages are fresh from memory, and the processor's own prefetch stops at each.
				n := min(len(b), off+2*routeAhead)
				if fetch != nil {
					fetch(off, n)
				}
				prefetch.Bytes(b[ahead:n])
				ahead = n
			}
			end := len(b)
			if k := bytes.IndexByte(b[off:], '\n'); k >= 0 {
				end = off + k
			}
			line++
			l := b[off:end]
			if (len(l) > 0 && l[0] == '{') || len(bytes.TrimSpace(l)) > 0 {
				hand, table, id, ok := lastHand, lastTable, []byte(nil), false
				same := false
				if len(env) > 0 && bytes.HasPrefix(l, idKey) {
					// A plain id, then the last line's table and hand: the line names them
					// too, as written would read it; its envelope is not read again.
					rest := l[len(idKey):]
					if i := plainString(rest); i >= 0 && bytes.HasPrefix(rest[i:], env) {
						id, ok, same = rest[:i], true, true
					}
				}
				w := last
				if !same {
					hand, table, id, ok = envelopeOf(l)
					if ok && (!bytes.Equal(hand, lastHand) || !bytes.Equal(table, lastTable)) {
						w = rt.workerLater(hand, table)
					}
					if !ok {
						send(off, true)
						return nil
					}
					env = plainEnvelope(env[:0], hand, table)
				}
				lastHand, lastTable, last = hand, table, w
				rt.load[w] += len(l)
				bs[w].size += len(l)
				if id != nil && ids != nil {
					keys.AddBytes(id)
					keyLines, keyWorkers = append(keyLines, line), append(keyWorkers, w)
				}
				bs[w].spans = append(bs[w].spans, multisha.Span{Off: off, Len: end - off})
				bs[w].numbers = append(bs[w].numbers, line)
			}
			off = end + 1
			if off-start >= size {
				size = min(2*size, spreadRound)
				if send(min(off, len(b)), false) || stop.Load() {
					return nil
				}
				start = off
			}
		}
		if send(len(b), false) || stop.Load() {
			return nil
		}
	}
	return nil
}

// routeAhead is how far ahead of the line it routes the reader of a spread has asked for the
// file's bytes at least: as far as a Reader of bytes hashes at once (events' sumBytes).
const routeAhead = 16 << 10

// router chooses the workers of lines: a table's lines go to one worker, a new table to the
// worker with the least left to audit (load, bytes or events given, less done, what it audited
// of them), then given the least so far. A hand's lines go with it when they all
// name the table its first line names; the router remembers that table of every hand, by a
// fingerprint of the hand's id, to find a line that names another (worker). Two hands with one
// fingerprint at different tables are taken for such a line too: the spread is given up where it
// did not need to be, never kept where it had to be given up.
type router struct {
	load []int
	// done, when not nil, holds how much of its load each worker has audited. A table is
	// given once and for all; the workers that were given tables of more lines for a while
	// fall behind the others, and would end last: the tables that open in the meantime go
	// to the others (BENCHMARKS.md, twentieth session).
	done   []*atomic.Int64
	tables map[string]int32 // each table's number: its worker is workers[number]
	// workers holds the worker of each table, by number.
	workers []int
	seed    maphash.Seed
	hands   handTables // the number of the table of each hand's first line
	// pending are the hands met by workerLater since the last settle, with their lines' tables.
	pending []handSlot
}

func newRouter(n int) *router {
	return &router{load: make([]int, n), tables: map[string]int32{}, seed: maphash.MakeSeed(), hands: newHandTables()}
}

// left is how much of its load worker i has still to audit (0 without done).
func (rt *router) left(i int) int {
	if rt.done == nil {
		return 0
	}
	return rt.load[i] - int(rt.done[i].Load())
}

// worker returns the worker of a line of hand that names table, and false when the hand's first
// line named another table (or a hand with the same fingerprint did).
func (rt *router) worker(hand, table []byte) (int, bool) {
	t := rt.table(table)
	if rt.hands.first(maphash.Bytes(rt.seed, hand), t) != t {
		return 0, false
	}
	return rt.workers[t], true
}

// workerLater returns the worker of a line of hand that names table, as worker does, but leaves
// the check of the hand's first table to settle, with the other hands of the round: the check
// reads a slot of the hands' table from memory, about 300 ns a hand read alone (20,005 hands, 6 ms
// of a two-worker audit of room20k: BENCHMARKS.md, twenty-first session, the spread's reader),
// and a round's seventy slots asked for at once are read together.
func (rt *router) workerLater(hand, table []byte) int {
	t := rt.table(table)
	rt.pending = append(rt.pending, handSlot{maphash.Bytes(rt.seed, hand), t})
	return rt.workers[t]
}

// settle checks the hands met by workerLater since it last ran, in the order they were met, as
// worker checks one: false when one of them had its first line at another table. The round
// that holds such a hand is then not delivered (round.unsure) and the log is audited again on
// one Auditor, as when worker says so at the line: what that round's lines after the hand's did
// on the workers is never delivered.
func (rt *router) settle() bool {
	for _, p := range rt.pending {
		rt.hands.prefetch(p.key)
	}
	ok := true
	for _, p := range rt.pending {
		if rt.hands.first(p.key, p.table) != p.table {
			ok = false
			break
		}
	}
	rt.pending = rt.pending[:0]
	return ok
}

// table returns the number of table, a new table given to the worker with the least left to
// audit, then given the least so far.
func (rt *router) table(table []byte) int32 {
	t, known := rt.tables[string(table)]
	if !known {
		w, left := 0, rt.left(0)
		for i, l := range rt.load {
			if li := rt.left(i); li < left || li == left && l < rt.load[w] {
				w, left = i, li
			}
		}
		t = int32(len(rt.workers))
		rt.workers = append(rt.workers, w)
		rt.tables[string(table)] = t
	}
	return t
}

// handTables holds the table of each hand's first line by the hand's fingerprint, in one array
// of slots probed from the fingerprint's place on (open addressing), whose slot a caller may ask
// for ahead (prefetch): a Go map's cannot be.
type handTables struct {
	slots []handSlot // a power of two long, at most half full; key 0 is a free slot
	n     int
}

type handSlot struct {
	key   uint64
	table int32
}

func newHandTables() handTables { return handTables{slots: writtenSlots(1 << 10)} }

// writtenSlots returns n empty slots, every page of them written once: a fresh page of the heap
// that is read first (first's probe) is mapped to the kernel's page of zeros, and the write after
// it copies that page and, in a process whose other threads run on other cores (the workers),
// interrupts each of those cores to flush its TLB (BENCHMARKS.md, twenty-first session).
func writtenSlots(n int) []handSlot {
	s := make([]handSlot, n)
	clear(s)
	return s
}

// first returns the table of the first line of the hand whose fingerprint is key, recording t
// when the hand is new. A fingerprint of 0 is taken for 1: two hands of those fingerprints at
// different tables give up the spread, as two of one fingerprint do.
func (h *handTables) first(key uint64, t int32) int32 {
	if key == 0 {
		key = 1
	}
	mask := uint64(len(h.slots) - 1)
	for i := key & mask; ; i = (i + 1) & mask {
		switch s := &h.slots[i]; s.key {
		case key:
			return s.table
		case 0:
			s.key, s.table = key, t
			if h.n++; 2*h.n > len(h.slots) {
				h.grow()
			}
			return t
		}
	}
}

// prefetch asks for the slot where first begins to look for key.
func (h *handTables) prefetch(key uint64) {
	prefetch.Of(&h.slots[max(key, 1)&uint64(len(h.slots)-1)])
}

// grow doubles the slots, each hand moved to its place in the new array.
func (h *handTables) grow() {
	old := h.slots
	h.slots = writtenSlots(2 * len(old))
	mask := uint64(len(h.slots) - 1)
	for _, s := range old {
		if s.key == 0 {
			continue
		}
		i := s.key & mask
		for h.slots[i].key != 0 {
			i = (i + 1) & mask
		}
		h.slots[i] = s
	}
}

// spreadEvents is how many decoded events the reader gives the workers at a time (a variable,
// as spreadRound).
var spreadEvents = 4096

// routeEvents sends the events feed gives to their workers, as route sends lines, in rounds of
// spreadEvents; after an event of a hand whose first event named another table, or once a worker
// has given up the spread, it sends no more.
func routeEvents[T any](feed func(add func(*events.Event)) error, ws []*spreadWorker[T], rounds chan<- round, st *routeState) error {
	rt, ids := st.rt, st.ids
	bs := make([]batch, len(ws))
	lastHand, lastTable, last, n, count := "", "", 0, 0, 0
	stop, done := ws[0].stop, false
	send := func(unsure bool) {
		for i, w := range ws {
			w.in <- bs[i]
			bs[i] = batch{}
		}
		rounds <- round{unsure: unsure}
		count = 0
		done = done || unsure || stop.Load()
	}
	err := feed(func(e *events.Event) {
		if done {
			return // the log is audited again by one Auditor
		}
		n++
		if e.Hand != lastHand || e.Table != lastTable || n == 1 {
			var ok bool
			if last, ok = rt.worker([]byte(e.Hand), []byte(e.Table)); !ok {
				send(true)
				return
			}
			lastHand, lastTable = e.Hand, e.Table
		}
		b := &bs[last]
		rt.load[last]++
		b.size++
		if ids != nil && ids.SeenString(e.ID) {
			b.dups = append(b.dups, n)
		}
		b.evs = append(b.evs, e)
		b.numbers = append(b.numbers, n)
		if count++; count == spreadEvents {
			send(false)
		}
	})
	if !done {
		send(false)
	}
	return err
}

// envelopeOf returns the hand and table that a line names, and its id, as the Auditor reads them
// when the line is a valid event: from its first members when they are id, table and hand as
// fechado writes them (plain UTF-8 strings); else from what events.ParseLenient reads of it. ok
// is false when it names no hand (not JSON, no readable envelope, or too long).
//
// The first way reads a few dozen bytes of a line where the Auditor reads them all: the reader
// keeps up with several workers. It reads what the Auditor reads of a valid event (whose members
// are never named twice); a line that is not one makes its worker give up the spread (Auditor.unsure),
// wherever it went.
func envelopeOf(l []byte) (hand, table, id []byte, ok bool) {
	if hand, table, id, ok = written(l); ok && utf8.Valid(hand) && utf8.Valid(table) && utf8.Valid(id) {
		return hand, table, id, true
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

// idKey begins a line that fechado writes: its id first.
var idKey = []byte(`{"id":"`)

// plainEnvelope appends to b what follows the id on a line that names table and hand as fechado
// writes them, `","table":"T","hand":"H"`; it leaves b empty when either is empty or holds a
// quote or a backslash (written would not read it as it is).
func plainEnvelope(b, hand, table []byte) []byte {
	if len(hand) == 0 || !plain(hand) || !plain(table) {
		return b[:0]
	}
	b = append(append(b, `","table":"`...), table...)
	b = append(append(b, `","hand":"`...), hand...)
	return append(b, '"')
}

// plain reports whether b holds neither a quote nor a backslash: two IndexByte, where
// bytes.ContainsAny reads a hand's id a byte at a time (the reader asks at every hand of the log).
func plain(b []byte) bool { return bytes.IndexByte(b, '"') < 0 && bytes.IndexByte(b, '\\') < 0 }

// plainString returns the length of the string that b begins with, up to its closing quote,
// or -1 when it holds an escape or does not close.
func plainString(b []byte) int {
	i := bytes.IndexByte(b, '"')
	if i < 0 || bytes.IndexByte(b[:i], '\\') >= 0 {
		return -1
	}
	return i
}
