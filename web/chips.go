package web

import (
	"container/list"
	"context"
	"database/sql"
	"sync"

	"github.com/fechado/fechado/projector"
)

// chipsCacheBytes bounds the answers chipsCache keeps: a table's answer of ChipHands hands of
// four players is about 100 kB, so a hundred and sixty such tables, the least recently read
// going first.
const chipsCacheBytes = 16 << 20

// chipsCache keeps the encoded answers of GET /api/tables/{id}/chips. Building one reads the
// table's last ChipHands hands (about 2,000 rows) and encodes them, the costliest read of the API
// at a million hands (BENCHMARKS.md), yet it changes only when a hand of the table ends. Each
// answer is kept with the table's count of ended hands it was built at, and every request reads
// that count again from the read models (one row by its key): an answer is given again only while
// the count is the same, so a hand shows from the first request after its end is committed, as
// when nothing was kept. The count is read before the answer is built: a hand that ends between
// the two leaves an answer newer than its count says, built again at the next request, never an
// older one.
type chipsCache struct {
	mu    sync.Mutex
	max   int // bytes of answers kept at most
	size  int
	lru   list.List // of *chipsEntry, the most recently read first
	entry map[string]*list.Element
}

type chipsEntry struct {
	table string
	ended int // the table's hands_ended when the answer was built
	body  []byte
}

func newChipsCache(max int) *chipsCache {
	return &chipsCache{max: max, entry: map[string]*list.Element{}}
}

// answer returns the body of GET /api/tables/{id}/chips; found is false when the read models
// hold no table id.
func (c *chipsCache) answer(ctx context.Context, db *sql.DB, id string) (body []byte, found bool, err error) {
	ended, known, err := projector.TableEnded(ctx, db, id)
	if err != nil {
		return nil, false, err
	}
	if !known {
		// Not kept: a table's row appears with its first hand, and chipsAnswer looks again.
		return chipsAnswer(ctx, db, id)
	}
	if b, ok := c.get(id, ended); ok {
		return b, true, nil
	}
	body, found, err = chipsAnswer(ctx, db, id)
	if err == nil && found {
		c.put(id, ended, body)
	}
	return body, found, err
}

// get returns the answer kept for table id at ended hands.
func (c *chipsCache) get(id string, ended int) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entry[id]
	if !ok || el.Value.(*chipsEntry).ended != ended {
		return nil, false
	}
	c.lru.MoveToFront(el)
	return el.Value.(*chipsEntry).body, true
}

// put keeps body as table id's answer at ended hands, unless an answer built at more ended hands
// is kept already (two requests that built at once), and drops the least recently read answers
// past c.max.
func (c *chipsCache) put(id string, ended int, body []byte) {
	if len(body) > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entry[id]; ok {
		e := el.Value.(*chipsEntry)
		if e.ended > ended {
			return
		}
		c.size += len(body) - len(e.body)
		e.ended, e.body = ended, body
		c.lru.MoveToFront(el)
	} else {
		c.entry[id] = c.lru.PushFront(&chipsEntry{table: id, ended: ended, body: body})
		c.size += len(body)
	}
	for c.size > c.max {
		el := c.lru.Back()
		e := el.Value.(*chipsEntry)
		c.lru.Remove(el)
		delete(c.entry, e.table)
		c.size -= len(e.body)
	}
}
