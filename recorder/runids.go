package recorder

import (
	"hash/maphash"
	"time"
)

// runIDs remembers, for the hands a Recorder handed over lately, which hand each event id
// belongs to, so that a hand reusing an id of another hand is refused whole before any of it is
// sent. The store would refuse that event only when it came (a duplicate of the other hand's
// message within the de-duplication window, DuplicateWindow), after the events of the hand before
// it were stored: a hand stored in part, which nothing can remove (issue found on 2026-12-06:
// the 11th event of a hand reusing an id of the hand before it left seq 1–10 stored).
//
// Only the last two windows are kept: an id older than DuplicateWindow is no duplicate to the
// store, which stores it as an event of its own (verify and the audit report it,
// log.duplicate-id), so the hand is stored whole. An id is kept as 128 bits of two seeded hashes
// and its hand as 64, not as the id's string, which may share the bytes of the line it came from
// and would keep the line. Two ids taken for one, or two hands, happen with odds under 2⁻⁶⁴ a
// pair.
type runIDs struct {
	s1, s2, sh maphash.Seed
	cur, prev  map[[2]uint64]uint64
	since      time.Time
	now        func() time.Time
}

func newRunIDs() *runIDs {
	return &runIDs{s1: maphash.MakeSeed(), s2: maphash.MakeSeed(), sh: maphash.MakeSeed(),
		cur: map[[2]uint64]uint64{}, now: time.Now}
}

// claim returns the index of the first event of j whose id a hand other than j's holds, or -1;
// when there is none it records j's ids as j's.
func (r *runIDs) claim(j *handJob) int {
	if now := r.now(); now.Sub(r.since) >= DuplicateWindow {
		r.prev, r.cur, r.since = r.cur, make(map[[2]uint64]uint64, len(r.cur)), now
	}
	hand := maphash.String(r.sh, j.table+"\x00"+j.hand)
	for i, p := range j.evs {
		k := r.key(p.ev.ID)
		if h, ok := r.cur[k]; ok && h != hand {
			return i
		}
		if h, ok := r.prev[k]; ok && h != hand {
			return i
		}
	}
	for _, p := range j.evs {
		r.cur[r.key(p.ev.ID)] = hand
	}
	return -1
}

func (r *runIDs) key(id string) [2]uint64 {
	return [2]uint64{maphash.String(r.s1, id), maphash.String(r.s2, id)}
}
