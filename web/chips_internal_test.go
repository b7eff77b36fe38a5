package web

import (
	"bytes"
	"testing"
)

// TestChipsCacheDropsTheLeastRecentlyReadPastItsBytes: the kept answers never pass the cache's
// bytes; the one read least recently goes first, an answer larger than them all is not kept, and
// an answer built at fewer ended hands does not replace a newer one.
func TestChipsCacheDropsTheLeastRecentlyReadPastItsBytes(t *testing.T) {
	c := newChipsCache(250)
	body := func(b byte) []byte { return bytes.Repeat([]byte{b}, 100) }
	c.put("a", 1, body('a'))
	c.put("b", 1, body('b'))
	if _, ok := c.get("a", 1); !ok { // a is now read more recently than b
		t.Fatal("a not kept")
	}
	c.put("c", 1, body('c'))
	if _, ok := c.get("b", 1); ok {
		t.Error("b, the least recently read, kept past the bytes")
	}
	for _, id := range []string{"a", "c"} {
		if got, ok := c.get(id, 1); !ok || got[0] != id[0] {
			t.Errorf("%s: %q %v", id, got, ok)
		}
	}
	if c.size != 200 || c.lru.Len() != 2 || len(c.entry) != 2 {
		t.Errorf("size %d, %d in the list, %d in the map; want 200, 2, 2", c.size, c.lru.Len(), len(c.entry))
	}
	if _, ok := c.get("a", 2); ok {
		t.Error("a's answer at 1 ended hand given for 2")
	}
	c.put("a", 3, body('A'))
	c.put("a", 2, body('x')) // built before the one at 3, stored after it
	if got, ok := c.get("a", 3); !ok || got[0] != 'A' {
		t.Errorf("a at 3: %q %v", got, ok)
	}
	c.put("big", 1, bytes.Repeat([]byte{'z'}, 251))
	if _, ok := c.get("big", 1); ok || c.size > c.max {
		t.Errorf("an answer over the bytes kept (size %d)", c.size)
	}
}
