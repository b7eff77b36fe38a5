package audit

import (
	"fmt"
	"sync/atomic"
	"testing"
)

// The router of a spread by tables gives a new table to the worker with the least left to audit
// (load given less done), then the least given, and a known table to its worker whatever the
// workers' loads: a worker whose tables held more lines for a while takes none of the tables
// that open until it has caught up, and the workers end together (docs/cli.md, "On every core").
func TestRouterGivesANewTableToTheWorkerWithLeastLeft(t *testing.T) {
	rt := newRouter(2)
	var done [2]atomic.Int64
	rt.done = []*atomic.Int64{&done[0], &done[1]}
	hand := 0
	route := func(table string) int {
		t.Helper()
		hand++
		w, ok := rt.worker(fmt.Appendf(nil, "hand-%d", hand), []byte(table))
		if !ok {
			t.Fatalf("table %s: the spread given up", table)
		}
		return w
	}
	steps := []struct {
		table       string
		load, done  [2]int // before the table's line is routed
		want        int
		explanation string
	}{
		{"a", [2]int{0, 0}, [2]int{0, 0}, 0, "nothing given: the first worker"},
		{"b", [2]int{100, 0}, [2]int{0, 0}, 1, "100 left against none"},
		{"c", [2]int{100, 50}, [2]int{90, 0}, 0, "10 left against 50: the worker given more, but ahead"},
		{"b", [2]int{100, 50}, [2]int{100, 0}, 1, "a known table stays with its worker"},
		{"d", [2]int{300, 200}, [2]int{250, 150}, 1, "as much left: the least given"},
		{"e", [2]int{300, 200}, [2]int{200, 150}, 1, "100 left against 50"},
		{"a", [2]int{300, 200}, [2]int{200, 200}, 0, "a known table, its worker behind"},
	}
	for _, s := range steps {
		rt.load[0], rt.load[1] = s.load[0], s.load[1]
		done[0].Store(int64(s.done[0]))
		done[1].Store(int64(s.done[1]))
		if got := route(s.table); got != s.want {
			t.Errorf("table %s at load %v, done %v: worker %d, want %d (%s)", s.table, s.load, s.done, got, s.want, s.explanation)
		}
	}
	// Without what the workers did (judgeInline, the benchmarks), the least given.
	plain := newRouter(3)
	plain.load[0], plain.load[1], plain.load[2] = 30, 10, 20
	if w, _ := plain.worker([]byte("h"), []byte("t")); w != 1 {
		t.Errorf("without done: worker %d, want 1 (the least given)", w)
	}
}

// The reader checks a round's hands together (workerLater, then settle at the round's end): a
// hand whose first line named another table is found there as worker finds it at the line,
// whether its two tables fall in one round or two, among thousands of hands (the hands' table
// grown many times over), and a hand that comes back at its own table is no such hand.
func TestRouterSettlesTheHandsOfARound(t *testing.T) {
	rt := newRouter(2)
	hand := func(i int) []byte { return fmt.Appendf(nil, "hand-%d", i) }
	table := func(i int) []byte { return fmt.Appendf(nil, "table-%d", i%50) }
	for i := range 5000 {
		rt.workerLater(hand(i), table(i))
		if i%70 == 69 && !rt.settle() {
			t.Fatalf("round ending at hand %d: settled as a hand of another table", i)
		}
	}
	if !rt.settle() {
		t.Fatal("the last round: settled as a hand of another table")
	}
	// Every hand again at its own table: its worker, as worker says it.
	for i := range 5000 {
		w := rt.workerLater(hand(i), table(i))
		if want, ok := rt.worker(hand(i), table(i)); !ok || w != want {
			t.Fatalf("hand %d at its table: worker %d, worker says %d, %v", i, w, want, ok)
		}
	}
	if !rt.settle() {
		t.Fatal("hands at their own tables settled as hands of another table")
	}
	// One hand at another table, in a round of others: that round is unsure.
	rt.workerLater(hand(5000), table(0))
	rt.workerLater(hand(1234), table(1235))
	rt.workerLater(hand(5001), table(1))
	if rt.settle() {
		t.Error("hand 1234 at another table: the round settled as sure")
	}
	// Both of a new hand's tables in one round.
	rt.workerLater(hand(6000), table(3))
	rt.workerLater(hand(6000), table(4))
	if rt.settle() {
		t.Error("hand 6000 at two tables in one round: the round settled as sure")
	}
	if _, ok := rt.worker(hand(4321), table(4322)); ok {
		t.Error("worker: hand 4321 at another table taken as sure")
	}
}

// The hands' table takes a fingerprint of 0 for 1 (0 marks a free slot): the two are one hand,
// and the table of the first one met answers for both.
func TestHandTablesFingerprintZero(t *testing.T) {
	h := newHandTables()
	if got := h.first(0, 7); got != 7 {
		t.Fatalf("fingerprint 0, new: table %d, want 7", got)
	}
	if got := h.first(1, 8); got != 7 {
		t.Errorf("fingerprint 1 after 0: table %d, want 7 (the same hand)", got)
	}
	if got := h.first(1<<10, 9); got != 9 {
		t.Errorf("fingerprint 1024, in 0's first slot: table %d, want 9 (a new hand)", got)
	}
}
