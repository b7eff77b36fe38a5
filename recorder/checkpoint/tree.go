// Package checkpoint owns the log's transparency: the RFC 6962 Merkle tree whose leaves are the
// events of FECHADO_HANDS in stream order (the exact bytes stored), kept as a file of tree
// hashes beside the log and rebuilt from the log when lost; the signed checkpoints of that tree
// (C2SP tlog-checkpoint, signed notes with Ed25519 keys) stored on the stream FECHADO_TLOG;
// inclusion proofs of a hand's events and consistency proofs between two tree sizes; witnesses'
// co-signatures (C2SP tlog-cosignature); and the HTTP routes that serve all of it
// (docs/security.md, "Checking the log from outside").
//
// The hashing, the tiles and the proofs are golang.org/x/mod/sumdb/tlog, and the signed notes
// golang.org/x/mod/sumdb/note: the Go checksum database's own implementation, whose API has been
// stable for years and whose formats are the C2SP ones other transparency logs and witnesses
// speak.
package checkpoint

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"golang.org/x/mod/sumdb/tlog"
)

// flushEvery is how many new tree hashes a file tree keeps in memory before writing them: one
// write per event would cost a system call per event while recording.
const flushEvery = 4096

// Tree is the Merkle tree of a log: its stored hashes (tlog.StoredHashIndex order: a record's
// hashes are appended after the previous record's, so the store is append-only), in a file or in
// memory. It is a tlog.HashReader. Its methods are safe for concurrent use.
type Tree struct {
	mu      sync.RWMutex
	f       *os.File    // nil in memory
	flushed int64       // hashes in the file
	pending []tlog.Hash // hashes after the file's (all of them in memory)
	n       int64       // leaves
}

// NewMemTree returns an empty tree held in memory.
func NewMemTree() *Tree { return &Tree{} }

// OpenTree opens (or creates) the tree stored at path. A torn tail (a write cut short) is cut
// back to the last whole leaf.
func OpenTree(path string) (*Tree, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o640)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: tree: %w", err)
	}
	if err := lockTree(f); err != nil {
		f.Close()
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("checkpoint: tree: %w", err)
	}
	hashes := st.Size() / tlog.HashSize
	n := leavesFor(hashes)
	keep := tlog.StoredHashCount(n)
	if keep*tlog.HashSize != st.Size() {
		if err := f.Truncate(keep * tlog.HashSize); err != nil {
			f.Close()
			return nil, fmt.Errorf("checkpoint: tree: %w", err)
		}
	}
	return &Tree{f: f, flushed: keep, n: n}, nil
}

// leavesFor returns the most leaves whose stored hashes fit in count hashes.
func leavesFor(count int64) int64 {
	lo, hi := int64(0), count // StoredHashCount(n) >= n
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if tlog.StoredHashCount(mid) <= count {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// Size returns the number of leaves.
func (t *Tree) Size() int64 {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.n
}

// Append adds a leaf: data, the bytes of the next stored event.
func (t *Tree) Append(data []byte) error { return t.AppendHash(tlog.RecordHash(data)) }

// AppendHash adds a leaf by its record hash (tlog.RecordHash of its bytes).
func (t *Tree) AppendHash(h tlog.Hash) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	hs, err := tlog.StoredHashesForRecordHash(t.n, h, tlog.HashReaderFunc(t.read))
	if err != nil {
		return fmt.Errorf("checkpoint: tree leaf %d: %w", t.n, err)
	}
	t.pending = append(t.pending, hs...)
	t.n++
	if t.f != nil && len(t.pending) >= flushEvery {
		return t.flush()
	}
	return nil
}

// Flush writes the hashes held in memory to the file (nothing in memory).
func (t *Tree) Flush() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.f == nil {
		return nil
	}
	return t.flush()
}

func (t *Tree) flush() error {
	if len(t.pending) == 0 {
		return nil
	}
	buf := make([]byte, 0, len(t.pending)*tlog.HashSize)
	for _, h := range t.pending {
		buf = append(buf, h[:]...)
	}
	if _, err := t.f.WriteAt(buf, t.flushed*tlog.HashSize); err != nil {
		return fmt.Errorf("checkpoint: writing the tree: %w", err)
	}
	t.flushed += int64(len(t.pending))
	t.pending = t.pending[:0]
	return nil
}

// Close flushes and closes the file.
func (t *Tree) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.f == nil {
		return nil
	}
	err := t.flush()
	if cerr := t.f.Close(); err == nil {
		err = cerr
	}
	t.f = nil
	return err
}

// ErrTreeInUse: another process keeps this tree file open for writing.
var ErrTreeInUse = errors.New("checkpoint: the tree file is in use by another process")

// ErrBeyond is returned for a hash or a tree size the tree does not hold yet.
var ErrBeyond = errors.New("checkpoint: beyond the tree")

// ReadHashes returns the stored hashes at indexes (tlog.HashReader).
func (t *Tree) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.read(indexes)
}

// read is ReadHashes under the caller's lock.
func (t *Tree) read(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		switch {
		case x < 0 || x >= t.flushed+int64(len(t.pending)):
			return nil, fmt.Errorf("%w: hash %d", ErrBeyond, x)
		case x >= t.flushed:
			out[i] = t.pending[x-t.flushed]
		default:
			if _, err := t.f.ReadAt(out[i][:], x*tlog.HashSize); err != nil && !errors.Is(err, io.EOF) {
				return nil, fmt.Errorf("checkpoint: reading the tree: %w", err)
			}
		}
	}
	return out, nil
}

// Root returns the root hash of the tree's first n leaves.
func (t *Tree) Root(n int64) (tlog.Hash, error) {
	if n > t.Size() {
		return tlog.Hash{}, fmt.Errorf("%w: size %d", ErrBeyond, n)
	}
	return tlog.TreeHash(n, t)
}

// LeafHash returns the record hash of leaf i (0-based).
func (t *Tree) LeafHash(i int64) (tlog.Hash, error) {
	hs, err := t.ReadHashes([]int64{tlog.StoredHashIndex(0, i)})
	if err != nil {
		return tlog.Hash{}, err
	}
	return hs[0], nil
}

// FirstDifference returns the smallest tree size k (1 ≤ k ≤ min of both sizes) at which a and b
// have different roots, and 0 when their common sizes all agree. Roots of a log's prefixes
// differ from the first differing leaf on, so a binary search finds it in log2(n) root
// computations.
func FirstDifference(a, b *Tree) (int64, error) {
	n := min(a.Size(), b.Size())
	same := func(k int64) (bool, error) {
		ra, err := a.Root(k)
		if err != nil {
			return false, err
		}
		rb, err := b.Root(k)
		return ra == rb, err
	}
	if n == 0 {
		return 0, nil
	}
	if ok, err := same(n); err != nil || ok {
		return 0, err
	}
	lo, hi := int64(0), n // roots agree at lo, differ at hi
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		ok, err := same(mid)
		if err != nil {
			return 0, err
		}
		if ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi, nil
}
