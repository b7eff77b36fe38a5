package recorder

import (
	"crypto/sha256"
	"encoding/hex"
	"sync"
	"sync/atomic"

	"github.com/fechado/fechado/events"
)

// lastCache remembers, by hand subject, the last event this Log appended to each hand still
// open: its seq, stream sequence and hash. A live table appends its hand one event per request,
// and each append must know what it follows: the cache answers instead of a direct get of the
// hand's last message (a round trip to the server and a read of the store for every event, a
// tenth of serve's CPU under a room's load, issue 43).
//
// It cannot make an append wrong. The entry was true when it was made: the stream held that
// event as the hand's last at that stream sequence, and a stored message never changes (the
// stream denies deletes). The append expects that stream sequence as the hand's last
// (Nats-Expected-Last-Subject-Sequence), so the server refuses it if anything was appended to
// the hand since, by another writer or another Log, and the append goes on as one that raced
// with such a writer always did: it reads what is stored and settles (Log.settle). An entry is
// made only after a whole job was appended, dropped at the hand's end and at any failure of an
// append to the hand; memory is bounded by the open hands (maxLastCached).
type lastCache struct {
	mu sync.Mutex
	m  map[string]lastAppended
	// hits counts the appends the cache answered (tests).
	hits atomic.Int64
}

// lastAppended is a hand's last event as this Log appended it.
type lastAppended struct {
	seq       events.Seq
	streamSeq uint64
	hash      string // events.Hash of its stored line
}

// maxLastCached bounds the entries: past it the cache starts again empty (hands then read
// their last event once more).
const maxLastCached = 1 << 16

func (c *lastCache) get(subject string) (lastAppended, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[subject]
	return v, ok
}

// remember records how an append of job j to its hand ended: its last event when every event of
// the job is stored and the hand goes on, nothing otherwise.
func (c *lastCache) remember(j *handJob, res handResult, err error) {
	n := len(j.evs)
	if err != nil || n == 0 || res.appended+res.skipped != n || res.lastSeq == 0 {
		c.drop(j.subject)
		return
	}
	last := j.evs[n-1].ev
	if last.Type == events.HandEndedType {
		c.drop(j.subject)
		return
	}
	// chain hashed every line of the job before it was published: its last sum is the head's.
	v := lastAppended{seq: last.Seq, streamSeq: res.lastSeq, hash: hex.EncodeToString(j.lastSum[:])}
	if j.lastSum == ([sha256.Size]byte{}) {
		v.hash = events.Hash(last.Raw)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxLastCached {
		c.m = map[string]lastAppended{}
	}
	c.m[j.subject] = v
}

func (c *lastCache) drop(subject string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, subject)
}
