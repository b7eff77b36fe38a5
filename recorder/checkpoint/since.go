package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder"
	"golang.org/x/mod/sumdb/tlog"
)

// Since is what VerifySince found: whether today's log extends a signed checkpoint and, when it
// does not, from which tree size on it differs.
type Since struct {
	// Checkpoint is the checkpoint checked against.
	Checkpoint *Signed
	// Size and Root are today's tree: every event stored now.
	Size int64
	Root tlog.Hash
	// Proof is the consistency proof from the checkpoint to today's tree, checked (when
	// Consistent).
	Proof      tlog.TreeProof
	Consistent bool
	// First is the first tree size whose root differs from the checkpointed log's: leaf First−1
	// (stream sequence First) is the first event removed, changed or put in another's place.
	// When only stored checkpoints bracket it (no tree of the old log is at hand), the first
	// difference lies in (After, First] and Exact is false.
	First, After int64
	Exact        bool
	// Reference says what the old log was compared against (a tree file, stored checkpoints).
	Reference string
	// Today describes today's event at stream sequence First ("" past the end of the log).
	Today string
}

// ErrWitnesses: fewer verified witness co-signatures than required.
var ErrWitnesses = errors.New("checkpoint: not enough witness co-signatures")

// Build reads the whole log and returns its tree, in memory.
func Build(ctx context.Context, l *recorder.Log) (*Tree, error) {
	t := NewMemTree()
	err := l.ReadRaw(ctx, 1, func(seq uint64, data []byte) error {
		if want := uint64(t.Size()) + 1; seq != want {
			return fmt.Errorf("%w: stream sequence %d follows %d", ErrGap, seq, want-1)
		}
		return t.Append(data)
	})
	return t, err
}

// VerifySince checks that today's log l extends the signed checkpoint signed: its signature by
// logKey, at least required co-signatures of the witnesses' keys, and (reading every stored
// event) that the first Size events of today's log have the checkpoint's root, which the
// consistency proof to today's root then shows. When they differ, the first differing tree size
// is found by binary search against a tree of the old log (a tree file in dir, the one this node
// kept or one it moved aside when the log was replaced, whose root at that size is the
// checkpoint's) or, without one, bracketed by the checkpoints stored beside the log.
func VerifySince(ctx context.Context, l *recorder.Log, signed []byte, logKey string, witnesses []string, required int, dir string) (*Since, error) {
	s, err := OpenSigned(signed, logKey, witnesses...)
	if err != nil {
		return nil, err
	}
	if len(s.Witnesses) < required {
		return nil, fmt.Errorf("%w: %d of the %d required", ErrWitnesses, len(s.Witnesses), required)
	}
	today, err := Build(ctx, l)
	if err != nil {
		return nil, err
	}
	r := &Since{Checkpoint: s, Size: today.Size()}
	if r.Root, err = today.Root(r.Size); err != nil {
		return nil, err
	}
	if r.Size >= s.Size {
		old, err := today.Root(s.Size)
		if err != nil {
			return nil, err
		}
		if old == s.Hash {
			if r.Proof, err = tlog.ProveTree(r.Size, s.Size, today); err != nil {
				return nil, err
			}
			if err := tlog.CheckTree(r.Proof, r.Size, r.Root, s.Size, s.Hash); err != nil {
				return nil, fmt.Errorf("checkpoint: consistency proof: %w", err)
			}
			r.Consistent = true
			return r, nil
		}
	}
	if err := r.firstDifference(ctx, l, today, dir, logKey); err != nil {
		return nil, err
	}
	if r.First <= r.Size {
		if subject, data, err := l.MsgAt(ctx, uint64(r.First)); err == nil {
			r.Today = subject
			if e, err := events.Parse(data); err == nil {
				r.Today = fmt.Sprintf("hand %s at table %s, event %d (%s)", e.Hand, e.Table, e.Seq, e.Type)
			}
		}
	}
	return r, nil
}

func (r *Since) firstDifference(ctx context.Context, l *recorder.Log, today *Tree, dir, logKey string) error {
	cp := r.Checkpoint
	if dir != "" {
		names, _ := filepath.Glob(filepath.Join(dir, TreeFile+"*"))
		for _, name := range names {
			if strings.HasPrefix(filepath.Base(name), ".") {
				continue
			}
			ref, err := readTreeFile(name)
			if err != nil || ref.Size() < cp.Size {
				continue
			}
			if root, err := ref.Root(cp.Size); err != nil || root != cp.Hash {
				continue
			}
			// ref is the checkpointed log's tree: compare the two up to the checkpoint's size.
			old := ref.prefix(cp.Size)
			k, err := FirstDifference(old, today)
			if err != nil {
				return err
			}
			if k == 0 { // every common size agrees: today's log is shorter
				k = today.Size() + 1
			}
			r.First, r.Exact, r.Reference = k, true, name
			return nil
		}
	}
	// No tree of the old log: the stored checkpoints that today's log still matches, and the
	// first it does not, bracket the difference.
	r.After, r.First, r.Reference = 0, cp.Size, "the signed checkpoint"
	st, err := OpenStore(ctx, l, false)
	if errors.Is(err, ErrNoStore) {
		return nil
	}
	if err != nil {
		return err
	}
	n := 0
	err = st.All(ctx, func(size int64, signed []byte) error {
		c, err := OpenSigned(signed, logKey)
		if err != nil || size > cp.Size || size != c.Size {
			return nil
		}
		n++
		match := false
		if size <= today.Size() {
			root, err := today.Root(size)
			match = err == nil && root == c.Hash
		}
		switch {
		case match && size > r.After:
			r.After = size
		case !match && size < r.First:
			r.First = size
		}
		return nil
	})
	if n > 0 {
		r.Reference = fmt.Sprintf("%d checkpoints stored beside the log", n)
	}
	return err
}

// readTreeFile reads a tree file into memory (read-only: a file moved aside stays as it is).
func readTreeFile(path string) (*Tree, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	n := leavesFor(int64(len(b)) / tlog.HashSize)
	t := &Tree{n: n, pending: make([]tlog.Hash, tlog.StoredHashCount(n))}
	for i := range t.pending {
		copy(t.pending[i][:], b[i*tlog.HashSize:])
	}
	return t, nil
}

// prefix returns the tree of t's first n leaves (which shares t's stored hashes).
func (t *Tree) prefix(n int64) *Tree {
	t.mu.RLock()
	defer t.mu.RUnlock()
	p := &Tree{n: n}
	count := tlog.StoredHashCount(n)
	if t.f == nil {
		p.pending = t.pending[:count]
	}
	return p
}
