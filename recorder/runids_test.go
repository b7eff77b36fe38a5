package recorder

import (
	"fmt"
	"testing"
	"time"

	"github.com/fechado/fechado/events"
)

// runIDs refuses an id another hand holds, in the current window or the one before it; takes the
// same hand again (a hand repeated, or continued, in one run); and forgets an id two windows on,
// where the store no longer takes it for a duplicate.
func TestRunIDsRefuseAnotherHandsIDForTwoWindows(t *testing.T) {
	job := func(table, hand string, ids ...string) *handJob {
		j := &handJob{table: table, hand: hand}
		for _, id := range ids {
			j.evs = append(j.evs, pending{ev: &events.Event{ID: id}})
		}
		return j
	}
	clock := time.Unix(1_800_000_000, 0)
	r := newRunIDs()
	r.now = func() time.Time { return clock }
	for _, c := range []struct {
		name string
		step time.Duration
		j    *handJob
		want int
	}{
		{"hand A", 0, job("t1", "A", "a1", "a2", "a3"), -1},
		{"hand B reusing A's a2", 0, job("t1", "B", "b1", "a2"), 1},
		{"hand A again", 0, job("t1", "A", "a1", "a2", "a3"), -1},
		{"hand A's id at another table's hand A", 0, job("t2", "A", "a3"), 0},
		{"a window on: hand C reusing a1", DuplicateWindow, job("t1", "C", "a1"), 0},
		{"two windows on: hand D reusing a1", 2 * DuplicateWindow, job("t1", "D", "a1"), -1},
		{"hand E reusing D's a1", 0, job("t1", "E", "e1", "a1"), 1},
	} {
		clock = clock.Add(c.step)
		if got := r.claim(c.j); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}

// What the run's check of ids costs a hand of 25 events, as a record of a room sends them.
func BenchmarkRunIDsClaim(b *testing.B) {
	hands := make([]*handJob, 1024)
	for i := range hands {
		j := &handJob{table: "room-7", hand: fmt.Sprintf("01a24da5-3534-78e2-8551-%012x", i)}
		for k := range 25 {
			j.evs = append(j.evs, pending{ev: &events.Event{ID: fmt.Sprintf("01a24da5-%04x-7000-8000-%012x", k, i)}})
		}
		hands[i] = j
	}
	r := newRunIDs()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if r.claim(hands[i%len(hands)]) != -1 {
			b.Fatal("refused")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*25), "ns/event")
}
