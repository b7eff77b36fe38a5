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
