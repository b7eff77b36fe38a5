package events

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
)

// Hash returns the lowercase hex SHA-256 of a stored line (without its newline): the value the
// next event of the hand carries in prev.
func Hash(line []byte) string {
	sum := sha256.Sum256(line)
	return hex.EncodeToString(sum[:])
}

// Problem is one envelope or chain fault found by Check: not a decoding error, but a line that
// does not fit the lines before it.
type Problem struct {
	Kind    ProblemKind
	Seq     Seq
	Message string
}

// ProblemKind classifies a Problem; the names match the log.* audit codes.
type ProblemKind string

// The envelope problems Check finds.
const (
	ProblemSequence    ProblemKind = "log.sequence"
	ProblemDuplicateID ProblemKind = "log.duplicate-id"
	ProblemChain       ProblemKind = "log.chain"
)

// Chain follows the events of many hands in order and checks the envelope rules across lines:
// seq contiguous from 1 per hand, nothing after hand.ended, ids unique, and prev equal to the
// SHA-256 of the previous stored line of the hand. Its memory is bounded: it holds the hands
// still open and the last Window hands forgotten, so an event arriving after its hand.ended is
// recognised while the hand is in the window; and it remembers the last IDWindow to 2×IDWindow
// event ids, so an id used twice is caught when the two uses are that close (a retried append, a
// doubled hand) — an exact check of a whole log needs memory that grows with it (fechado verify).
type Chain struct {
	hands map[string]*handLink
	ids   map[uint64]struct{} // ids of the current generation (fingerprints)
	older map[uint64]struct{} // ids of the previous generation
	// IDWindow is the size of a generation of remembered ids (DefaultIDWindow when 0).
	IDWindow int
	ring     []string // forgotten hands, oldest first
	// Window is how many forgotten hands the chain remembers (DefaultWindow when 0).
	Window int
	// TrackIDs turns on the check of unique ids.
	TrackIDs bool
}

// DefaultWindow is the number of closed hands a Chain remembers.
const DefaultWindow = 4096

// DefaultIDWindow is the size of a generation of event ids a Chain remembers (it holds one to two).
const DefaultIDWindow = 1 << 17

type handLink struct {
	lastSeq Seq
	last    [sha256.Size]byte // hash of the last line
	ended   bool
}

// NewChain returns an empty Chain that checks ids too.
func NewChain() *Chain {
	return &Chain{hands: map[string]*handLink{}, TrackIDs: true}
}

// Check checks e against the events of its hand seen so far and records it. A missing prev
// (HasPrev false) is not a chain fault: prev is optional on input.
func (c *Chain) Check(e *Event) []Problem {
	var ps []Problem
	h := c.hands[e.Hand]
	if h == nil {
		h = &handLink{}
		c.hands[e.Hand] = h
	}
	if c.TrackIDs {
		key := idKey(e.ID)
		_, dup := c.ids[key]
		if !dup {
			_, dup = c.older[key]
		}
		if dup {
			ps = append(ps, Problem{ProblemDuplicateID, e.Seq, fmt.Sprintf("event id %s is used twice", e.ID)})
		} else {
			w := c.IDWindow
			if w <= 0 {
				w = DefaultIDWindow
			}
			if c.ids == nil || len(c.ids) >= w {
				c.older, c.ids = c.ids, map[uint64]struct{}{}
			}
			c.ids[key] = struct{}{}
		}
	}
	switch {
	case h.ended:
		ps = append(ps, Problem{ProblemSequence, e.Seq, fmt.Sprintf("event seq %d comes after hand.ended", e.Seq)})
	case e.Seq != h.lastSeq+1:
		ps = append(ps, Problem{ProblemSequence, e.Seq, fmt.Sprintf("seq %d follows seq %d: want %d", e.Seq, h.lastSeq, h.lastSeq+1)})
	}
	if e.HasPrev {
		var buf [2 * sha256.Size]byte
		want := buf[:0]
		if e.Seq != 1 && h.lastSeq != 0 {
			hex.Encode(buf[:], h.last[:])
			want = buf[:]
		}
		// Compared as bytes: no allocation unless a fault is reported.
		if e.Prev != string(want) && !(len(want) == 0 && h.lastSeq == 0 && e.Seq != 1) {
			ps = append(ps, Problem{ProblemChain, e.Seq, fmt.Sprintf("prev %s is not the SHA-256 of the previous line (%s)", short(e.Prev), short(string(want)))})
		}
	}
	h.lastSeq = e.Seq
	h.last = sha256.Sum256(e.Raw)
	if e.Type == HandEndedType {
		h.ended = true
	}
	return ps
}

// Last returns the seq and line hash of the last event seen of hand, for appending after it.
func (c *Chain) Last(hand string) (Seq, string) {
	if h := c.hands[hand]; h != nil && h.lastSeq > 0 {
		return h.lastSeq, hex.EncodeToString(h.last[:])
	}
	return 0, ""
}

// Ended reports whether the chain has seen the hand.ended of hand (while it is in the window).
func (c *Chain) Ended(hand string) bool {
	h := c.hands[hand]
	return h != nil && h.ended
}

// Forget moves a finished hand into the window of remembered hands, dropping the oldest one
// (and its ids) when the window is full.
func (c *Chain) Forget(hand string) {
	if _, ok := c.hands[hand]; !ok {
		return
	}
	c.ring = append(c.ring, hand)
	w := c.Window
	if w <= 0 {
		w = DefaultWindow
	}
	for len(c.ring) > w {
		old := c.ring[0]
		c.ring = c.ring[1:]
		delete(c.hands, old)
	}
}

func short(h string) string {
	if h == "" {
		return `""`
	}
	if len(h) > 12 {
		return h[:12] + "…"
	}
	return h
}

// idKey folds a UUID's 32 hex digits (either case) into a 64-bit fingerprint: the two halves of
// its 128 bits XORed. Two distinct ids share a fingerprint with probability about 2^-64 per pair.
func idKey(id string) uint64 {
	var k [16]byte
	n := 0
	for i := 0; i < len(id) && n < 32; i++ {
		c := id[i]
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			continue
		}
		k[n/2] |= v << (4 * (1 - n%2))
		n++
	}
	return binary.BigEndian.Uint64(k[:8]) ^ binary.BigEndian.Uint64(k[8:])
}
