package events

import (
	"crypto/sha256"
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
// SHA-256 of the previous stored line of the hand. Memory grows with the number of hands still
// open and the ids seen; Forget drops a finished hand.
type Chain struct {
	hands map[string]*handLink
	ids   map[string]struct{}
	// TrackIDs turns on the check of unique ids (it keeps every id in memory).
	TrackIDs bool
}

type handLink struct {
	lastSeq Seq
	last    [sha256.Size]byte // hash of the last line
	ended   bool
}

// NewChain returns an empty Chain that checks ids too.
func NewChain() *Chain {
	return &Chain{hands: map[string]*handLink{}, ids: map[string]struct{}{}, TrackIDs: true}
}

// Check checks e against the events of its hand seen so far and records it. A missing prev
// (HasPrev false) is not a chain fault: prev is optional on input.
func (c *Chain) Check(e *Event) []Problem {
	var ps []Problem
	if c.TrackIDs {
		if _, dup := c.ids[e.ID]; dup {
			ps = append(ps, Problem{ProblemDuplicateID, e.Seq, fmt.Sprintf("event id %s is used twice", e.ID)})
		} else {
			c.ids[e.ID] = struct{}{}
		}
	}
	h := c.hands[e.Hand]
	if h == nil {
		h = &handLink{}
		c.hands[e.Hand] = h
	}
	switch {
	case h.ended:
		ps = append(ps, Problem{ProblemSequence, e.Seq, fmt.Sprintf("event seq %d comes after hand.ended", e.Seq)})
	case e.Seq != h.lastSeq+1:
		ps = append(ps, Problem{ProblemSequence, e.Seq, fmt.Sprintf("seq %d follows seq %d: want %d", e.Seq, h.lastSeq, h.lastSeq+1)})
	}
	if e.HasPrev {
		var buf [2 * sha256.Size]byte
		want := ""
		if e.Seq != 1 && h.lastSeq != 0 {
			hex.Encode(buf[:], h.last[:])
			want = string(buf[:]) // no allocation: compared, not kept, unless reported
		}
		if e.Prev != want && !(want == "" && h.lastSeq == 0 && e.Seq != 1) {
			ps = append(ps, Problem{ProblemChain, e.Seq, fmt.Sprintf("prev %s is not the SHA-256 of the previous line (%s)", short(e.Prev), short(want))})
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

// Forget drops what the chain holds of a hand (its ids stay).
func (c *Chain) Forget(hand string) { delete(c.hands, hand) }

func short(h string) string {
	if h == "" {
		return `""`
	}
	if len(h) > 12 {
		return h[:12] + "…"
	}
	return h
}
