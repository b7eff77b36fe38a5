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
// window one Auditor's chain has). At the first file that is not, the log is audited again on one
// Auditor (Spread.alone), which delivers what comes after what was delivered.
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
	ids           []string
	hands, tables []string
}

// fileOutput is what a worker made of one file (or, close set, of its Close).
type fileOutput[T any] struct {
	items  []item[T]
	notes  fileNotes
	unsure bool
	err    error
}

// fileGroups assigns files to n workers for a spread by files and says how many groups of files
// it found: files whose first line names the same table go to the same worker (a table exported
// in pieces), each group to the worker given the fewest bytes so far, in the log's order. A file
// whose first line names no table is a group of its own.
func fileGroups(files []File, n int) (owner []int, groups int) {
	owner = make([]int, len(files))
	load := make([]int, n)
	byTable := map[string]int{}
	for i, f := range files {
		_, table, _, ok := envelopeOf(firstLine(f.Bytes))
		if w, seen := byTable[string(table)]; ok && seen {
			owner[i] = w
			load[w] += len(f.Bytes)
			continue
		}
		w := 0
		for k, l := range load {
			if l < load[w] {
				w = k
			}
		}
		if ok {
			byTable[string(table)] = w
		}
		owner[i] = w
		load[w] += len(f.Bytes)
		groups++
	}
	return owner, groups
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
func (s *Spread[T]) spreadFiles(a *Auditor, files []File, owner []int, guard func(func() error) error,
	again func(one *Auditor) (int, error)) (bad, delivered int, shared bool, err error) {
	var stop atomic.Bool
	ws := s.workers(a, s.Workers, &stop)
	outs := make([]chan fileOutput[T], len(ws))
	var wg sync.WaitGroup
	for k, w := range ws {
		var mine []int
		for fi, o := range owner {
			if o == k {
				mine = append(mine, fi)
			}
		}
		// Room for every file and the Close: a worker never waits for the deliverer.
		outs[k] = make(chan fileOutput[T], len(mine)+1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.runFiles(files, mine, outs[k], guard)
		}()
	}
	// The workers read the files' memory: they are done with it before this returns.
	defer wg.Wait()

	var ids *events.IDs
	if a.chain.TrackIDs {
		ids = &events.IDs{Window: a.chain.IDWindow}
	}
	seed := maphash.MakeSeed()
	hands := map[uint64]int{} // the worker of each hand, by a fingerprint of its id
	tables := map[string]int{}
	for fi := range files {
		k := owner[fi]
		out := <-outs[k]
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
		out := <-outs[k]
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
// (ids, fed in the log's order; nil when ids are not checked), no hand or table of it met in a
// file of another worker. It records the file's hands and tables as worker k's. A fingerprint of
// two hands' ids alike is taken for one hand: the spread is given up where it did not need to be,
// never kept where it had to be given up.
func sole(n fileNotes, k int, ids *events.IDs, hands map[uint64]int, tables map[string]int, seed maphash.Seed) bool {
	if ids != nil {
		for _, id := range n.ids {
			if ids.SeenString(id) {
				return false
			}
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

// runFiles audits the files numbered mine, whole, one after the other, and gives back what it
// made of each, then of its Close. It stops auditing (and only answers) once the spread is given
// up, or after a file it is unsure of or an error.
func (w *spreadWorker[T]) runFiles(files []File, mine []int, out chan<- fileOutput[T], guard func(func() error) error) {
	a := w.a
	a.notes = &fileNotes{}
	var sum [sha256.Size]byte
	done := false
	for _, fi := range mine {
		if done || w.stop.Load() {
			done = true
			out <- fileOutput[T]{unsure: true}
			continue
		}
		f := files[fi]
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
		o := fileOutput[T]{items: w.items, notes: *a.notes, unsure: a.unsure, err: err}
		w.items, *a.notes = nil, fileNotes{}
		done = o.unsure || err != nil
		out <- o
	}
	if done || w.stop.Load() {
		out <- fileOutput[T]{unsure: true}
		return
	}
	a.notes = nil
	err := guard(func() error {
		a.closeWorker()
		return nil
	})
	out <- fileOutput[T]{items: w.items, err: err}
	w.items = nil
}
