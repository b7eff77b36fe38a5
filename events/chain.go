package events

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/fechado/fechado/events/internal/alias"
	"github.com/fechado/fechado/events/internal/idset"
	"github.com/fechado/fechado/events/internal/textform"
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
	hands map[string]*handLink // by handLink.hand
	// lastLink caches the hand of the previous call: consecutive events mostly belong to the
	// same hand, so the map is looked up only when the hand changes. nil when nothing is cached.
	lastLink *handLink
	ids      idset.Set // the ids of the current and the previous generation
	// IDWindow is the size of a generation of remembered ids (DefaultIDWindow when 0).
	IDWindow int
	// forgotten holds the forgotten hands as a circular buffer, the oldest at head once it is
	// full; free holds the links of the hands dropped from it, for the next new hands: a long log
	// allocates nothing once the window is full.
	forgotten []string
	head      int
	free      []*handLink
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
	hand    string
	lastSeq Seq
	last    [sha256.Size]byte // hash of the last line
	ended   bool
	// unread: the last line was not JSON (events-v1.md §8), so the next line's prev, the hash of
	// a line the producer wrote, cannot be judged against it.
	unread bool
}

// NewChain returns an empty Chain that checks ids too.
func NewChain() *Chain {
	return &Chain{hands: map[string]*handLink{}, TrackIDs: true}
}

// link returns the link of hand, creating it on its first event.
func (c *Chain) link(hand string) *handLink {
	h := c.lookup(hand)
	if h == nil {
		if c.hands == nil {
			c.hands = map[string]*handLink{}
		}
		if n := len(c.free); n > 0 {
			h, c.free = c.free[n-1], c.free[:n-1]
			*h = handLink{hand: hand}
		} else {
			h = &handLink{hand: hand}
		}
		c.hands[hand] = h
	}
	c.lastLink = h
	return h
}

// lookup returns the link of hand, or nil when the chain holds none.
func (c *Chain) lookup(hand string) *handLink {
	if c.lastLink != nil && c.lastLink.hand == hand {
		return c.lastLink
	}
	return c.hands[hand]
}

// Check checks e against the events of its hand seen so far and records it. A missing prev
// (HasPrev false) is not a chain fault: prev is optional on input.
func (c *Chain) Check(e *Event) []Problem { return c.CheckSum(e, nil) }

// CheckSum is Check given sum, the SHA-256 of e.Raw already computed (Reader.LineSum hashes a
// file's lines several at a time); nil: Check computes it.
func (c *Chain) CheckSum(e *Event, sum *[sha256.Size]byte) []Problem {
	seen := false
	if c.TrackIDs {
		seen = c.ids.Seen(e.ID, idWindow(c.IDWindow))
	}
	return c.check(e, sum, seen)
}

// ExpectIDs tells the chain that about n events come (Reader.LinesLeft): when it tracks ids, their
// table is made at once at the size they would grow it to (idset.Set.Expect). It changes nothing
// the chain says.
func (c *Chain) ExpectIDs(n int) {
	if c.TrackIDs {
		c.ids.Expect(n, idWindow(c.IDWindow))
	}
}

// idWindow is a Chain's IDWindow or an IDs' Window as the id set takes it: DefaultIDWindow when
// not set.
func idWindow(w int) int {
	if w <= 0 {
		return DefaultIDWindow
	}
	return w
}

// idHead is how a line as Encode writes it begins, before the event's id.
const idHead = `{"id":"`

// Prefetch is given the start of a line that comes later (Reader.Ahead): when it begins with an
// id as Encode writes it, the memory the check of that id reads is brought into the CPU's caches
// meanwhile (idset.Set.Prefetch). It changes nothing in the chain.
func (c *Chain) Prefetch(head []byte) {
	if c.TrackIDs {
		prefetchID(&c.ids, head)
	}
}

// prefetchID is Prefetch of set.
func prefetchID(set *idset.Set, head []byte) {
	const n = len(idHead) + 36 // a UUID
	if len(head) > n && string(head[:len(idHead)]) == idHead && head[n] == '"' {
		set.Prefetch(alias.String(head[len(idHead):n]))
	}
}

// CheckSumSeen is CheckSum for a Chain that does not track ids (TrackIDs off) because they are
// tracked elsewhere, in the order of the whole log (IDs): seen says whether e's id was used
// before, a log.duplicate-id problem.
func (c *Chain) CheckSumSeen(e *Event, sum *[sha256.Size]byte, seen bool) []Problem {
	return c.check(e, sum, seen)
}

// check is CheckSum once the id is known to be seen before or not.
func (c *Chain) check(e *Event, sum *[sha256.Size]byte, seen bool) []Problem {
	var ps []Problem
	h := c.link(e.Hand)
	if seen {
		ps = append(ps, Problem{ProblemDuplicateID, e.Seq, fmt.Sprintf("event id %s is used twice", e.ID)})
	}
	switch {
	case h.ended:
		ps = append(ps, Problem{ProblemSequence, e.Seq, fmt.Sprintf("event seq %d comes after hand.ended", e.Seq)})
	case e.Seq != h.lastSeq+1:
		ps = append(ps, Problem{ProblemSequence, e.Seq, fmt.Sprintf("seq %d follows seq %d: want %d", e.Seq, h.lastSeq, h.lastSeq+1)})
	}
	if e.HasPrev {
		// prev must be empty on seq 1, and the hex of the last line's hash after it; it cannot be
		// judged when the chain first meets a hand after its seq 1.
		switch {
		case e.Seq == 1:
			if e.Prev != "" {
				ps = append(ps, Problem{ProblemChain, e.Seq, fmt.Sprintf("prev %s is not the SHA-256 of the previous line (%s)", ShortHash(e.Prev), ShortHash(""))})
			}
		case h.lastSeq == 0, h.unread:
		case !IsHashOf(e.Prev, &h.last):
			// The hex is encoded only to report the fault.
			ps = append(ps, Problem{ProblemChain, e.Seq, fmt.Sprintf("prev %s is not the SHA-256 of the previous line (%s)", ShortHash(e.Prev), ShortHash(hex.EncodeToString(h.last[:])))})
		}
	}
	h.lastSeq, h.unread = e.Seq, false
	if sum != nil {
		h.last = *sum
	} else {
		h.last = sha256.Sum256(e.Raw)
	}
	if e.Type == HandEndedType {
		h.ended = true
	}
	return ps
}

// IDs remembers event ids as a Chain does when it tracks them (TrackIDs), apart from any chain:
// for a reader that sends the lines of one log to several chains, and checks the ids of all of
// them in the log's order (CheckSumSeen).
type IDs struct {
	set idset.Set
	// Window is the size of a generation of remembered ids (DefaultIDWindow when 0).
	Window int
}

// Seen records id and reports whether it was seen before, as the Chain's check does.
func (s *IDs) Seen(id []byte) bool {
	return s.set.Seen(alias.String(id), idWindow(s.Window)) // the set keeps a fingerprint, not the string
}

// Expect is Chain.ExpectIDs for these ids: about n come.
func (s *IDs) Expect(n int) { s.set.Expect(n, idWindow(s.Window)) }

// Prefetch is Chain.Prefetch for these ids: head is the start of a line whose id comes later.
func (s *IDs) Prefetch(head []byte) { prefetchID(&s.set, head) }

// SeenString is Seen of an id held as a string (a decoded event's).
func (s *IDs) SeenString(id string) bool {
	return s.set.Seen(id, idWindow(s.Window))
}

// IDKeys holds the fingerprints of a run of event ids, in their order, as IDs keeps them: worked
// out by whoever reads the ids (a worker of a spread audit, as it decodes its file), checked
// later against the ids of the whole log by IDs.SeenKeys, with no string kept per id. The zero
// IDKeys is empty and ready; Reset empties it, keeping its memory.
type IDKeys struct{ keys []idset.Key }

// Add appends the fingerprint of id.
func (ks *IDKeys) Add(id string) { ks.keys = append(ks.keys, idset.KeyOf(id)) }

// AddBytes is Add of an id held as bytes (a line's), which it does not keep.
func (ks *IDKeys) AddBytes(id []byte) { ks.keys = append(ks.keys, idset.KeyOf(alias.String(id))) }

// Len is the number of ids added since the last Reset.
func (ks *IDKeys) Len() int { return len(ks.keys) }

// Reset empties ks for another run of ids, keeping its memory.
func (ks *IDKeys) Reset() { ks.keys = ks.keys[:0] }

// SeenKeys is SeenString of each id of ks in turn, up to and including the first seen before:
// it returns that id's index and true, or ks.Len() and false when none was (all are then
// recorded). What it says, and records, is what those calls of SeenString would; it asks for
// the set's memory a few ids ahead of the one it checks, so that a run's cache misses overlap.
func (s *IDs) SeenKeys(ks *IDKeys) (int, bool) {
	i := s.set.SeenKeys(ks.keys, idWindow(s.Window))
	return i, i < len(ks.keys)
}

// SeenKeysFrom is SeenKeys of the ids of ks from index from on (those before it checked
// already): the index in ks of the first seen before, and true, or ks.Len() and false.
func (s *IDs) SeenKeysFrom(ks *IDKeys, from int) (int, bool) {
	i := from + s.set.SeenKeys(ks.keys[from:], idWindow(s.Window))
	return i, i < len(ks.keys)
}

// IsHashOf reports whether s is the lowercase hex of sum, the way Hash writes it, without encoding
// sum into new memory: what a prev is compared with when millions of lines are checked
// (textform.IsHexOf: 16 bytes of the sum at a time on amd64, 4 ns a prev).
func IsHashOf(s string, sum *[sha256.Size]byte) bool { return textform.IsHexOf(s, sum) }

// Last returns the seq and line hash of the last event seen of hand, for appending after it.
func (c *Chain) Last(hand string) (Seq, string) {
	if h := c.lookup(hand); h != nil && h.lastSeq > 0 {
		return h.lastSeq, hex.EncodeToString(h.last[:])
	}
	return 0, ""
}

// Unread says that the line just checked for hand was not JSON (events-v1.md §8): it holds the
// hand's place in the sequence, but the next line's prev cannot be judged against it, so a line
// lost that way is one log.schema finding, not a log.chain one too.
func (c *Chain) Unread(hand string) {
	if h := c.lookup(hand); h != nil {
		h.unread = true
	}
}

// Ended reports whether the chain has seen the hand.ended of hand (while it is in the window).
func (c *Chain) Ended(hand string) bool {
	h := c.lookup(hand)
	return h != nil && h.ended
}

// Forget moves a finished hand into the window of remembered hands, dropping the oldest one
// when the window is full.
func (c *Chain) Forget(hand string) {
	link := c.lookup(hand)
	if link == nil {
		return
	}
	w := c.Window
	if w <= 0 {
		w = DefaultWindow
	}
	if c.head > 0 && len(c.forgotten) != w { // the window changed: oldest first again
		c.forgotten, c.head = slices.Concat(c.forgotten[c.head:], c.forgotten[:c.head]), 0
	}
	for len(c.forgotten) > w { // the window shrank
		c.drop(c.forgotten[0])
		c.forgotten = c.forgotten[1:]
	}
	if len(c.forgotten) < w {
		c.forgotten = append(c.forgotten, link.hand)
		return
	}
	c.drop(c.forgotten[c.head])
	c.forgotten[c.head] = link.hand
	c.head = (c.head + 1) % w
}

// drop lets go of a hand that left the window.
func (c *Chain) drop(hand string) {
	if h := c.hands[hand]; h != nil {
		delete(c.hands, hand)
		if c.lastLink == h {
			c.lastLink = nil
		}
		c.free = append(c.free, h)
	}
}

// ShortHash shortens a line hash (a prev) for a message: its first 12 hex digits and an ellipsis,
// or "" quoted when it is empty.
func ShortHash(h string) string {
	if h == "" {
		return `""`
	}
	if len(h) > 12 {
		return h[:12] + "…"
	}
	return h
}
