package checkpoint

import (
	"context"
	"errors"
	"fmt"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder"
	"golang.org/x/mod/sumdb/tlog"
)

// HandProofFormat names the JSON form of a hand's inclusion proof.
const HandProofFormat = "fechado-hand-proof/v1"

// HandProof is the proof that every event of one hand is in the log a signed checkpoint
// commits to: each event's bytes as stored, its place in the tree (leaf = stream sequence − 1)
// and the RFC 6962 inclusion proof from that leaf to the checkpoint's root. Anyone with the
// log's verifier key checks it offline (Verify).
type HandProof struct {
	Format     string       `json:"format"`
	Checkpoint string       `json:"checkpoint"` // the signed note
	Hand       string       `json:"hand"`
	Table      string       `json:"table"`
	Events     []EventProof `json:"events"`
}

// EventProof is one event's inclusion proof.
type EventProof struct {
	StreamSeq uint64      `json:"stream_seq"`
	Leaf      int64       `json:"leaf"`
	Data      []byte      `json:"data"`  // the stored line, byte for byte (base64 in JSON)
	Proof     []tlog.Hash `json:"proof"` // sibling hashes, leaf to root (base64 each)
}

// ErrNotCovered: the checkpoint was signed before (some of) the hand was recorded.
var ErrNotCovered = errors.New("checkpoint: the checkpoint does not cover the hand")

// ProveHand returns the inclusion proof of the stored events evs (one hand's, as read from the
// log) against the signed checkpoint signed, which must be a checkpoint of this tree.
func (k *Keeper) ProveHand(signed []byte, evs []recorder.Stored) (*HandProof, error) {
	if len(evs) == 0 {
		return nil, errors.New("checkpoint: no events to prove")
	}
	c, err := ParseCheckpoint(noteText(signed))
	if err != nil {
		return nil, err
	}
	if c.Size > k.tree.Size() {
		if err := k.tree.Flush(); err != nil {
			return nil, err
		}
	}
	root, err := k.tree.Root(c.Size)
	if err != nil {
		return nil, err
	}
	if root != c.Hash {
		return nil, fmt.Errorf("checkpoint: the checkpoint of size %d is not a checkpoint of this log's tree", c.Size)
	}
	p := &HandProof{Format: HandProofFormat, Checkpoint: string(signed), Hand: evs[0].Event.Hand, Table: evs[0].Event.Table}
	for _, s := range evs {
		leaf := int64(s.Seq) - 1
		if leaf >= c.Size {
			return nil, fmt.Errorf("%w: stream message %d is after tree size %d", ErrNotCovered, s.Seq, c.Size)
		}
		if s.Event.Hand != p.Hand {
			return nil, fmt.Errorf("checkpoint: events of hands %s and %s", p.Hand, s.Event.Hand)
		}
		h, err := k.tree.LeafHash(leaf)
		if err != nil {
			return nil, err
		}
		if h != tlog.RecordHash(s.Event.Raw) {
			return nil, fmt.Errorf("checkpoint: stream message %d is not leaf %d of the tree", s.Seq, leaf)
		}
		proof, err := tlog.ProveRecord(c.Size, leaf, k.tree)
		if err != nil {
			return nil, err
		}
		p.Events = append(p.Events, EventProof{StreamSeq: s.Seq, Leaf: leaf, Data: s.Event.Raw, Proof: proof})
	}
	return p, nil
}

// ReadHand reads a hand's stored events from the log (the table "" looks it up).
func (k *Keeper) ReadHand(ctx context.Context, table, hand string) ([]recorder.Stored, error) {
	var evs []recorder.Stored
	err := k.log.ReadHand(ctx, table, hand, func(s recorder.Stored) error {
		evs = append(evs, s)
		return nil
	})
	return evs, err
}

// Covering returns the latest stored checkpoint, when it covers stream sequence seq.
func (k *Keeper) Covering(ctx context.Context, seq uint64) ([]byte, error) {
	if k.store == nil {
		return nil, ErrNoStore
	}
	signed, err := k.store.Latest(ctx)
	if err != nil {
		return nil, err
	}
	c, err := ParseCheckpoint(noteText(signed))
	if err != nil {
		return nil, err
	}
	if uint64(c.Size) < seq {
		return nil, fmt.Errorf("%w: the latest checkpoint has tree size %d, the hand's last event is stream message %d (sign a new one: 'fechado checkpoint')", ErrNotCovered, c.Size, seq)
	}
	return signed, nil
}

// Verify checks the proof offline: the checkpoint's signature by the log key (and the
// co-signatures of the witnesses given), each event's inclusion in the checkpoint's tree, and
// that the events are one hand's, seq 1, 2, 3… each carrying the SHA-256 of the one before.
// It returns the opened checkpoint and the decoded events.
func (p *HandProof) Verify(logKey string, witnessKeys ...string) (*Signed, []*events.Event, error) {
	if p.Format != HandProofFormat {
		return nil, nil, fmt.Errorf("%w proof: format %q, not %q", ErrFormat, p.Format, HandProofFormat)
	}
	s, err := OpenSigned([]byte(p.Checkpoint), logKey, witnessKeys...)
	if err != nil {
		return nil, nil, err
	}
	if len(p.Events) == 0 {
		return nil, nil, fmt.Errorf("%w proof: no events", ErrFormat)
	}
	chain := events.NewChain()
	var evs []*events.Event
	for i, ep := range p.Events {
		if ep.Leaf != int64(ep.StreamSeq)-1 || ep.Leaf < 0 || ep.Leaf >= s.Size {
			return nil, nil, fmt.Errorf("checkpoint: event %d: leaf %d of stream message %d is not in a tree of size %d", i+1, ep.Leaf, ep.StreamSeq, s.Size)
		}
		if err := tlog.CheckRecord(ep.Proof, s.Size, s.Hash, ep.Leaf, tlog.RecordHash(ep.Data)); err != nil {
			return nil, nil, fmt.Errorf("checkpoint: event %d (stream message %d) is not in the signed log: %w", i+1, ep.StreamSeq, err)
		}
		e, err := events.Parse(ep.Data)
		if err != nil {
			return nil, nil, fmt.Errorf("checkpoint: event %d: %w", i+1, err)
		}
		if e.Hand != p.Hand || e.Table != p.Table || int(e.Seq) != i+1 {
			return nil, nil, fmt.Errorf("checkpoint: event %d is %s/%s seq %d, not event %d of hand %s", i+1, e.Table, e.Hand, e.Seq, i+1, p.Hand)
		}
		if ps := chain.Check(e); len(ps) > 0 {
			return nil, nil, fmt.Errorf("checkpoint: event %d: %s", i+1, ps[0].Message)
		}
		evs = append(evs, e)
	}
	return s, evs, nil
}

// ProveConsistency returns the RFC 6962 consistency proof from tree size old to tree size n.
func (k *Keeper) ProveConsistency(old, n int64) (tlog.TreeProof, error) {
	if old < 0 || old > n || n > k.tree.Size() {
		return nil, fmt.Errorf("%w: sizes %d and %d, tree size %d", ErrBeyond, old, n, k.tree.Size())
	}
	return tlog.ProveTree(n, old, k.tree)
}
