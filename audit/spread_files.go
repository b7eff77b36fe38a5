package audit

import (
	"crypto/sha256"
	"errors"
	"hash/maphash"
	"io"
	"sync"
	"sync/atomic"

	"github.com/fechado/fechado/events"
)

// This file spreads the audit of several files by whole files: a room that exports one file per
// table (or a log cut into files by tables) is audited with no reader and no routing, each worker
// reading and judging whole files on its own, the ids' check made once, in the log's order, by
// the goroutine that delivers. It is optimistic as the spread by tables is: the findings are one
// Auditor's only when no table and no hand has lines in files of two workers, no id is used twice
// in the log, and no line is one whose place may depend on another worker's lines (Auditor.unsure,
// and a line naming another table than its hand's first line). File by file, in the log's order,
// what a worker made of a file is delivered once the file is found to be such: its tables and
// hands met in no earlier file of another worker, its ids in no earlier line (events.IDs, with the
// window one Auditor's chain has, given the ids' fingerprints the workers work out as they read:
// events.IDKeys). At the first file that is not, the log is audited again on one Auditor
// (Spread.alone), which delivers what comes after what was delivered.
//
// Why what is delivered is one Auditor's: an Auditor's judgement of a line depends on the lines
// before it of the same table and hand, on the ids before it, and on whether its hand is among
// the last hands the chain remembers as ended. The first two are the worker's own when the file
// passes the checks above; a worker, fed its files in the log's order, remembers every hand one
// Auditor remembers (it has seen fewer hands end since), and gives up where it remembers one that
// one Auditor may have forgotten (Auditor.add).

// fileNotes is what a worker of a spread by files met in one file, for the checks against the
// other workers' files.
type fileNotes struct {
	// ids are the fingerprints of the file's ids, worked out by the worker as it reads them, so
	// that the deliverer, which checks them one after the other, neither reads their strings
	// again nor waits for each id's memory in turn (events.IDs.SeenKeys); nil when the ids are
	// not checked.
	ids           *events.IDKeys
	hands, tables []string
}

// fileOutput is what a worker made of one file (or, close set, of its Close).
type fileOutput[T any] struct {
	worker int
	items  []item[T]
	notes  fileNotes
	unsure bool
	err    error
}

// fileQueue hands the files of a spread by files out to the workers as they become free, in the
// log's order: a worker takes the first file not yet taken whose group is its own or no one's
// (and makes the group its own). Handed out as they come, the files keep both workers busy to
// the end, whatever each file costs: given out by their bytes before the audit, a worker that
// shared its core with the deliverer, or had the costlier files, was left to finish alone (a
// quarter of the wall time of a room's 335 table files, BENCHMARKS.md, nineteenth session).
// Each worker still takes its files in the log's order, as one Auditor reads them; every file
// before the one it takes is taken already, or of a group another worker owns.
//
// Files whose first line names the same table are one group (a table exported in pieces), whose
// files one worker audits; a file whose first line names no table is a group of its own. The
// groups are numbered in the order of their first files, and worked out by the deliverer alone,
// reading the files' first lines in the log's order (readGroup): the first two before the workers
// start, enough to know that the files are of several groups, the others while the workers audit
// the first files. A worker that comes to a file whose group is not known yet waits for it. Read
// before the workers started, the first lines of a room's 335 files (a page of each to bring in)
// kept a core idle for 2 to 3 ms (BENCHMARKS.md, twentieth session).
type fileQueue struct {
	mu sync.Mutex
	// known is signalled when a file's group is known, or when no more will be (ended).
	known *sync.Cond
	group []int  // the group of each file of files[:len(group)]
	ended bool   // no more groups will be known: all are, or the deliverer stopped reading them
	owner []int  // each group's worker, or -1
	taken []bool // each file's
	first int    // no file before it is left to take
	bytes []int  // how many bytes each worker took (for the benchmark)
	// byTable holds the group of each table a first line names; only the deliverer reads it.
	byTable map[string]int
	// keys holds the fingerprints of files' ids the deliverer is done with, for the workers'
	// next files: a room's ids then take a few slices in all, not one per file.
	keys chan *events.IDKeys
}

func newFileQueue(files []File, workers int) *fileQueue {
	q := &fileQueue{group: make([]int, 0, len(files)), taken: make([]bool, len(files)), bytes: make([]int, workers),
		byTable: map[string]int{}, keys: make(chan *events.IDKeys, 2*workers)}
	q.known = sync.NewCond(&q.mu)
	return q
}

// readGroup works out the group of the next file whose group is not known, from its first line,
// and reports false when every file's is known. Only the deliverer calls it, and it alone adds to
// group: it reads the line without the lock.
func (q *fileQueue) readGroup(files []File) bool {
	fi := len(q.group)
	if fi == len(files) {
		return false
	}
	_, table, _, ok := envelopeOf(firstLine(files[fi].Bytes))
	g, seen := q.byTable[string(table)]
	q.mu.Lock()
	defer q.mu.Unlock()
	if !ok || !seen {
		g = len(q.owner)
		q.owner = append(q.owner, -1)
		if ok {
			q.byTable[string(table)] = g
		}
	}
	q.group = append(q.group, g)
	q.known.Broadcast()
	return true
}

// several reads the files' first lines until it has met two groups, or read every file's, and
// reports whether the files are of two groups at least: when they are not, a spread by files
// would leave every worker but one idle.
func (q *fileQueue) several(files []File) bool {
	for len(q.owner) < 2 && q.readGroup(files) {
	}
	return len(q.owner) > 1
}

// end says that no more groups will be known: the workers waiting for one take no more files.
func (q *fileQueue) end() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.ended = true
	q.known.Broadcast()
}

// take returns the next file worker k audits, and false when none is left for it (or the groups
// stopped being worked out: end).
func (q *fileQueue) take(k int, files []File) (int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.first < len(q.taken) && q.taken[q.first] {
		q.first++
	}
	for fi := q.first; fi < len(q.taken); fi++ {
		for fi >= len(q.group) && !q.ended {
			q.known.Wait()
		}
		if fi >= len(q.group) {
			return 0, false
		}
		if q.taken[fi] {
			continue
		}
		if g := q.group[fi]; q.owner[g] < 0 || q.owner[g] == k {
			q.owner[g], q.taken[fi] = k, true
			q.bytes[k] += len(files[fi].Bytes)
			return fi, true
		}
	}
	return 0, false
}

// idKeys returns an empty IDKeys for a worker's next file: one the deliverer gave back, or a new one.
func (q *fileQueue) idKeys() *events.IDKeys {
	select {
	case ks := <-q.keys:
		ks.Reset()
		return ks
	default:
		return &events.IDKeys{}
	}
}

// giveBack keeps ks, which the deliverer is done with, for idKeys (or lets it go when enough are kept).
func (q *fileQueue) giveBack(ks *events.IDKeys) {
	select {
	case q.keys <- ks:
	default:
	}
}

// firstLine returns the first line of b that is not blank, without its newline.
func firstLine(b []byte) []byte {
	for len(b) > 0 {
		l := b
		rest := []byte(nil)
		for i, c := range b {
			if c == '\n' {
				l, rest = b[:i], b[i+1:]
				break
			}
		}
		for _, c := range l {
			if c != ' ' && c != '\t' && c != '\r' {
				return l
			}
		}
		b = rest
	}
	return nil
}

// spreadFiles audits files on s.Workers workers, whole files each (owner), as described above.
// When a file's tables, hands or ids are met in another worker's files, it stops and says so
// (shared), with how many things it delivered (delivered): the log is then spread by tables,
// which checks the ids in the log's order and sends each table to one worker wherever its lines
// are.
func (s *Spread[T]) spreadFiles(a *Auditor, files []File, q *fileQueue, guard func(func() error) error,
	again func(one *Auditor) (int, error)) (bad, delivered int, shared bool, err error) {
	var stop atomic.Bool
	ws := s.workers(a, s.Workers, 0, &stop) // their channels unused
	// What each file's worker made of it, and each worker's Close: room for one each, so that a
	// worker never waits for the deliverer.
	outs := make([]chan fileOutput[T], len(files))
	for fi := range outs {
		outs[fi] = make(chan fileOutput[T], 1)
	}
	closes := make([]chan fileOutput[T], len(ws))
	var wg sync.WaitGroup
	for k, w := range ws {
		closes[k] = make(chan fileOutput[T], 1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.runFiles(files, k, q, outs, closes[k], guard, a.chain.TrackIDs)
		}()
	}
	// The workers read the files' memory: they are done with it before this returns.
	defer wg.Wait()
	defer func() { s.fileBytes = q.bytes }()
	// The groups of the files the deliverer did not read before (several), while the workers
	// audit the first files. Should reading a first line fail (a file cut short: the caller's
	// Guard), the workers stop at the first file whose group is not known, and are waited for.
	grouped := false
	defer func() {
		if !grouped {
			stop.Store(true)
			q.end()
		}
	}()
	for q.readGroup(files) {
	}
	q.end()
	grouped = true

	var ids *events.IDs
	if a.chain.TrackIDs {
		ids = &events.IDs{Window: a.chain.IDWindow}
		size := 0
		for _, f := range files {
			size += len(f.Bytes)
		}
		ids.Expect(events.LinesOf(size))
	}
	seed := maphash.MakeSeed()
	hands := map[uint64]int{} // the worker of each hand, by a fingerprint of its id
	tables := map[string]int{}
	for fi := range files {
		out := <-outs[fi]
		k := out.worker
		if out.err != nil {
			stop.Store(true)
			return 0, delivered, false, out.err
		}
		if out.unsure {
			// A spread by tables would give up at the same line: one Auditor audits the log.
			stop.Store(true)
			wg.Wait()
			s.gaveUp = true
			bad, err = s.alone(a, delivered, guard, again)
			return bad, delivered, false, err
		}
		if !sole(out.notes, k, ids, hands, tables, seed) {
			stop.Store(true)
			return 0, delivered, true, nil
		}
		if out.notes.ids != nil {
			q.giveBack(out.notes.ids)
		}
		for _, it := range out.items {
			s.Deliver(it.v)
		}
		delivered += len(out.items)
		if files[fi].Release != nil {
			files[fi].Release(len(files[fi].Bytes))
		}
	}
	heads := make([][]item[T], len(ws))
	for k := range ws {
		out := <-closes[k]
		if out.err != nil {
			return 0, delivered, false, out.err
		}
		heads[k] = out.items
	}
	merge(heads, s.Deliver)
	s.byFiles = true
	return 0, delivered, false, s.collect(a, ws, nil)
}

// sole reports whether what worker k met in a file is its own: no id of it seen before in the log
// (ids, fed the fingerprints in the log's order, events.IDs.SeenKeys; nil when ids are not
// checked), no hand or table of it met in a file of another worker. It records the file's hands
// and tables as worker k's. A fingerprint of two hands' ids alike is taken for one hand: the
// spread is given up where it did not need to be, never kept where it had to be given up.
func sole(n fileNotes, k int, ids *events.IDs, hands map[uint64]int, tables map[string]int, seed maphash.Seed) bool {
	if ids != nil {
		if _, seen := ids.SeenKeys(n.ids); seen {
			return false
		}
	}
	for i, h := range n.hands {
		key := maphash.String(seed, h)
		if w, seen := hands[key]; seen && w != k {
			return false
		}
		hands[key] = k
		t := n.tables[i]
		if w, seen := tables[t]; seen && w != k {
			return false
		}
		tables[t] = k
	}
	return true
}

// runFiles audits, as worker k, the files q hands it, whole, one after the other, and gives back
// what it made of each (outs, by file), then of its Close (closed); the fingerprints of the ids
// it reads too when trackIDs. It stops auditing, and answers its Close only, once the spread is
// given up, or after a file it is unsure of or an error: the deliverer reads no file after the
// first such one.
func (w *spreadWorker[T]) runFiles(files []File, k int, q *fileQueue, outs []chan fileOutput[T], closed chan<- fileOutput[T],
	guard func(func() error) error, trackIDs bool) {
	a := w.a
	a.notes = &fileNotes{}
	var sum [sha256.Size]byte
	for !w.stop.Load() {
		fi, ok := q.take(k, files)
		if !ok {
			break
		}
		f := files[fi]
		if trackIDs {
			a.notes.ids = q.idKeys()
		}
		err := guard(func() error {
			r := events.NewReaderBytes(f.Bytes, f.Name, nil)
			if !a.keeps() {
				a.recycle = r.Recycle
				defer func() { a.recycle = nil }()
			}
			for n := 0; !a.unsure; n++ {
				if n%4096 == 4095 && w.stop.Load() {
					// Nothing more of this worker is delivered: a large file is not read on.
					a.unsure = true
					return nil
				}
				e, err := r.NextLenient()
				a.at = place{phaseLine, lineAt(fi, r.Line())}
				switch {
				case err == nil:
					a.add(e, lineSum(r, &sum))
				case err == io.EOF:
					return nil
				case !errors.Is(err, events.ErrInvalid):
					return err
				default:
					// Placed after the line before it in the log (events-v1.md §8), which may be
					// another worker's: one Auditor audits the log.
					a.unsure = true
				}
			}
			return nil
		})
		o := fileOutput[T]{worker: k, items: w.items, notes: *a.notes, unsure: a.unsure, err: err}
		w.items, *a.notes = nil, fileNotes{}
		outs[fi] <- o
		if o.unsure || err != nil {
			closed <- fileOutput[T]{worker: k, unsure: true}
			return
		}
	}
	if w.stop.Load() {
		closed <- fileOutput[T]{worker: k, unsure: true}
		return
	}
	a.notes = nil
	err := guard(func() error {
		a.closeWorker()
		return nil
	})
	closed <- fileOutput[T]{worker: k, items: w.items, err: err}
	w.items = nil
}
