// Package handorder owns the order of a table's hands: the order of their own chain
// (hand.started's `previous`, then `number`, then the time it started; events-v1.md §4 and §7),
// never the order in which they landed in a log. A log written by several writers at once, by
// one writer retrying through a leader election, or from the second half of a file before the
// first holds a table's hands in another order than they were played; every reader that judges
// or shows a hand against the one before it (the auditor's table.* checks, the tournaments, the
// projector, replay, export of a table) takes them in this order instead.
//
// Two forms give the same order: Sort puts a set of hands in order, and Sequencer releases hands
// one by one as they arrive, holding a hand only until the hand before it has been released.
package handorder

import (
	"cmp"
	"slices"
	"time"

	"github.com/fechado/fechado/events"
)

// Link is what places a hand in its table's chain: the fields of its hand.started.
type Link struct {
	Table string
	Hand  string
	// Previous is the id of the hand before it at the table ("" when the hand names none).
	Previous string
	Number   int
	Start    time.Time
}

// LinkOf returns the link of e, a hand.started event; ok is false for any other event.
func LinkOf(e *events.Event) (l Link, ok bool) {
	hs, ok := e.Data.(*events.HandStarted)
	if !ok {
		return l, false
	}
	l = Link{Table: e.Table, Hand: e.Hand, Number: hs.Number}
	if hs.Previous != nil {
		l.Previous = *hs.Previous
	}
	l.Start, _ = time.Parse(time.RFC3339Nano, e.At)
	return l, true
}

// Follows reports whether l comes right after last: it names last as its previous hand, or,
// naming none, has the next number.
func Follows(l, last Link) bool {
	if l.Previous != "" {
		return l.Previous == last.Hand
	}
	return l.Number == last.Number+1
}

// Opens reports whether l begins a chain beyond doubt: it names no previous hand and is number 1
// (or less): the table's first hand, or the first of a numbering started again. Another hand
// naming no previous hand may be its table's first only once the whole log has been seen (Sort).
func Opens(l Link) bool { return l.Previous == "" && l.Number <= 1 }

// Compare orders hands that no link orders: by number, then start time, then id.
func Compare(a, b Link) int {
	if c := cmp.Compare(a.Number, b.Number); c != 0 {
		return c
	}
	if c := a.Start.Compare(b.Start); c != 0 {
		return c
	}
	return cmp.Compare(a.Hand, b.Hand)
}

// Next returns the index in held of the hand that comes after last (nil: the table has none
// yet): the first by Compare among those that follow it; else among those that open a chain
// (Opens: a table's numbering starts again, say a new session at the same table id); else,
// while the table has none yet, among those naming no previous hand; else of all.
func Next(held []Link, last *Link) int {
	best, bestTier := -1, 4
	for i, l := range held {
		tier := 3
		switch {
		case last != nil && Follows(l, *last):
			tier = 0
		case Opens(l):
			tier = 1
		case last == nil && l.Previous == "":
			tier = 2
		}
		if tier < bestTier || (tier == bestTier && Compare(l, held[best]) < 0) {
			best, bestTier = i, tier
		}
	}
	return best
}

// Sort returns the indexes of ls, the hands of one table, in the order of the table's chain:
// from the table's first hand, each hand is followed by the hand that names it as previous (or,
// naming none, has the next number); where no hand follows, the chain goes on with the first
// remaining hand by number, time and id.
func Sort(ls []Link) []int {
	held := slices.Clone(ls)
	idx := make([]int, len(ls))
	for i := range idx {
		idx[i] = i
	}
	out := make([]int, 0, len(ls))
	var last *Link
	for len(held) > 0 {
		i := Next(held, last)
		l := held[i]
		last = &l
		out = append(out, idx[i])
		held = slices.Delete(held, i, i+1)
		idx = slices.Delete(idx, i, i+1)
	}
	return out
}

// SortTables orders ls, the hands of any tables, table by table in the order each table first
// appears in ls, each table in its chain order (Sort), and returns the indexes.
func SortTables(ls []Link) []int {
	byTable := map[string][]int{}
	var tables []string
	for i, l := range ls {
		if _, ok := byTable[l.Table]; !ok {
			tables = append(tables, l.Table)
		}
		byTable[l.Table] = append(byTable[l.Table], i)
	}
	out := make([]int, 0, len(ls))
	for _, t := range tables {
		is := byTable[t]
		sub := make([]Link, len(is))
		for j, i := range is {
			sub[j] = ls[i]
		}
		for _, j := range Sort(sub) {
			out = append(out, is[j])
		}
	}
	return out
}

// Sequencer releases hands in their table's chain order as they arrive: a hand that follows the
// last one released at its table (or opens the table) is released at once, with the hands held
// that follow it; any other is held until then, or until Close, which releases what is still
// held in Sort's order. So a log in chain order holds nothing, and a log out of order holds only
// the hands that arrived before the hand before them; the order released is Sort's over the
// whole log whenever each table's chain is whole and has no fork (two hands naming the same
// previous one).
type Sequencer[T any] struct {
	// Release receives each hand in order.
	Release func(l Link, v T)
	tables  map[string]*table[T]
	order   []*table[T]
}

type table[T any] struct {
	last  *Link
	held  []Link
	vals  []T
	count int
}

// Add takes the next hand to arrive, with its link and value.
func (s *Sequencer[T]) Add(l Link, v T) {
	if s.tables == nil {
		s.tables = map[string]*table[T]{}
	}
	t := s.tables[l.Table]
	if t == nil {
		t = &table[T]{}
		s.tables[l.Table] = t
		s.order = append(s.order, t)
	}
	if t.ready(l) {
		s.release(t, l, v)
		s.drain(t, false)
		return
	}
	t.held = append(t.held, l)
	t.vals = append(t.vals, v)
}

// Ready reports whether Add would release l at once: it opens its table, or follows the last
// hand released there.
func (s *Sequencer[T]) Ready(l Link) bool {
	t := s.tables[l.Table]
	if t == nil {
		return Opens(l)
	}
	return t.ready(l)
}

func (t *table[T]) ready(l Link) bool {
	return Opens(l) || (t.last != nil && Follows(l, *t.last))
}

// Held returns how many hands are held, waiting for the hand before them.
func (s *Sequencer[T]) Held() int {
	n := 0
	for _, t := range s.order {
		n += len(t.held)
	}
	return n
}

func (s *Sequencer[T]) release(t *table[T], l Link, v T) {
	t.last = &l
	t.count++
	s.Release(l, v)
}

// drain releases the hands held at t that follow the last one released; all of them, in Sort's
// order, when all is set.
func (s *Sequencer[T]) drain(t *table[T], all bool) {
	for len(t.held) > 0 {
		i := Next(t.held, t.last)
		l, v := t.held[i], t.vals[i]
		if !all && !t.ready(l) {
			return
		}
		t.held = slices.Delete(t.held, i, i+1)
		var zero T
		t.vals[i] = zero
		t.vals = slices.Delete(t.vals, i, i+1)
		s.release(t, l, v)
	}
}

// Close releases every hand still held, table by table in the order the tables first arrived.
func (s *Sequencer[T]) Close() {
	for _, t := range s.order {
		s.drain(t, true)
	}
}
