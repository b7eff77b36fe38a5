package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/fechado/fechado/recorder"
	"golang.org/x/mod/sumdb/tlog"
)

// Defaults of Options.
const (
	// DefaultEvery: a checkpoint is signed after this many new events...
	DefaultEvery = 1000
	// DefaultInterval: ...or this long after the last one, whichever comes first (and only when
	// the log grew).
	DefaultInterval = 10 * time.Second
	// TreeFile is the tree's file name in Options.Dir.
	TreeFile = "tree.hashes"
)

// Options configure a Keeper.
type Options struct {
	// Dir is the folder of the tree's file (serve and the commands use DATA/tlog).
	Dir string
	// Signer signs checkpoints; nil keeps the tree without signing.
	Signer *Signer
	// Every and Interval say when Run signs: after Every new events or Interval after the last
	// checkpoint, when the log grew (0 means the default; a negative value turns it off).
	Every    int64
	Interval time.Duration
	// Witnesses are the verifier keys of the witnesses whose co-signatures the log accepts.
	Witnesses []string
	// CreateStore lets the keeper create the checkpoint stream (serve, checkpoint); readers
	// leave it false.
	CreateStore bool
	// OnReplaced is told when the tree's file did not match the log and was moved aside to
	// path (the log was replaced or rewritten since the tree was kept).
	OnReplaced func(path string, err error)
}

// Keeper keeps the Merkle tree of a log up to date, signs and stores checkpoints of it and
// proves inclusion and consistency from it. Its methods are safe for concurrent use.
type Keeper struct {
	log   *recorder.Log
	tree  *Tree
	store *Store // nil when the log has no checkpoint stream and may not create one
	o     Options
	mu    sync.Mutex // one signature at a time
}

// Open opens the tree of log l kept under o.Dir (making it from the log when it is missing),
// checks that it is the tree of this log (its last leaf is the log's message at that sequence;
// otherwise the file is moved aside and the tree rebuilt) and brings it up to the log's end.
func Open(ctx context.Context, l *recorder.Log, o Options) (*Keeper, error) {
	if o.Every == 0 {
		o.Every = DefaultEvery
	}
	if o.Interval == 0 {
		o.Interval = DefaultInterval
	}
	if err := os.MkdirAll(o.Dir, 0o750); err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	path := filepath.Join(o.Dir, TreeFile)
	t, err := OpenTree(path)
	if err != nil {
		return nil, err
	}
	if err := matches(ctx, l, t); err != nil {
		t.Close()
		aside := path + ".replaced-" + strconv.FormatInt(time.Now().UnixNano(), 10)
		if rerr := os.Rename(path, aside); rerr != nil {
			return nil, fmt.Errorf("checkpoint: moving the tree aside: %w", rerr)
		}
		if o.OnReplaced != nil {
			o.OnReplaced(aside, err)
		}
		if t, err = OpenTree(path); err != nil {
			return nil, err
		}
	}
	k := &Keeper{log: l, tree: t, o: o}
	k.store, err = OpenStore(ctx, l, o.CreateStore)
	if err != nil && !errors.Is(err, ErrNoStore) {
		t.Close()
		return nil, err
	}
	if err := k.Sync(ctx); err != nil {
		t.Close()
		return nil, err
	}
	return k, nil
}

// errMismatch: the tree's file is not the tree of this log.
var errMismatch = errors.New("checkpoint: the tree kept does not match the log")

// matches checks that t's last leaf is the log's message at that stream sequence.
func matches(ctx context.Context, l *recorder.Log, t *Tree) error {
	n := t.Size()
	if n == 0 {
		return nil
	}
	_, data, err := l.MsgAt(ctx, uint64(n))
	if err != nil {
		return fmt.Errorf("%w: stream message %d: %v", errMismatch, n, err)
	}
	h, err := t.LeafHash(n - 1)
	if err != nil {
		return err
	}
	if tlog.RecordHash(data) != h {
		return fmt.Errorf("%w: stream message %d differs from leaf %d", errMismatch, n, n-1)
	}
	return nil
}

// Tree returns the kept tree.
func (k *Keeper) Tree() *Tree { return k.tree }

// Store returns the checkpoint stream, or nil when it does not exist.
func (k *Keeper) Store() *Store { return k.store }

// Close flushes and closes the tree.
func (k *Keeper) Close() error { return k.tree.Close() }

// ErrGap: the stream misses a message (a sequence was deleted), so its messages are not the
// leaves 0, 1, 2… of one tree.
var ErrGap = errors.New("checkpoint: the log misses a message")

// add appends stream message seq; leaf i is stream sequence i+1.
func (k *Keeper) add(seq uint64, data []byte) error {
	if want := uint64(k.tree.Size()) + 1; seq != want {
		if seq < want {
			return nil // delivered again
		}
		return fmt.Errorf("%w: stream sequence %d follows %d", ErrGap, seq, want-1)
	}
	return k.tree.Append(data)
}

// Sync brings the tree up to the log's end now.
func (k *Keeper) Sync(ctx context.Context) error {
	if err := k.log.ReadRaw(ctx, uint64(k.tree.Size())+1, k.add); err != nil {
		return err
	}
	return k.tree.Flush()
}

// Run follows the log, adding each new event to the tree, and when a signer is set signs and
// stores a checkpoint every Every events or Interval, until ctx is done (it then returns nil).
// onSigned, when set, is told of each new checkpoint.
func (k *Keeper) Run(ctx context.Context, onSigned func(*Signed)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	grew := make(chan struct{}, 1)
	errs := make(chan error, 2)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		since := int64(0)
		err := k.log.FollowRaw(ctx, uint64(k.tree.Size())+1, func(seq uint64, data []byte) error {
			if err := k.add(seq, data); err != nil {
				return err
			}
			if since++; k.o.Every > 0 && since >= k.o.Every {
				since = 0
				select {
				case grew <- struct{}{}:
				default:
				}
			}
			return nil
		})
		if err != nil && ctx.Err() == nil {
			errs <- err
		}
	}()
	var tick <-chan time.Time
	if k.o.Interval > 0 && k.o.Signer != nil {
		t := time.NewTicker(k.o.Interval)
		defer t.Stop()
		tick = t.C
	}
	sign := func() error {
		if k.o.Signer == nil {
			return k.tree.Flush()
		}
		s, fresh, err := k.Checkpoint(ctx)
		if err == nil && fresh && onSigned != nil {
			onSigned(s)
		}
		if errors.Is(err, ErrEmpty) {
			return nil
		}
		return err
	}
	var err error
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case err = <-errs:
			break loop
		case <-grew:
			if err = sign(); err != nil {
				break loop
			}
		case <-tick:
			if err = sign(); err != nil {
				break loop
			}
		}
	}
	cancel()
	wg.Wait()
	if ferr := k.tree.Flush(); err == nil {
		err = ferr
	}
	if ctx.Err() != nil && errors.Is(err, context.Canceled) {
		err = nil
	}
	return err
}

// ErrForked: the log's tree is not the one its stored checkpoints signed.
var ErrForked = errors.New("checkpoint: the log does not match its stored checkpoints")

// ErrEmpty: an empty log has nothing to sign.
var ErrEmpty = errors.New("checkpoint: the log is empty: nothing to sign")

// ErrNoSigner is returned by Checkpoint without a signer.
var ErrNoSigner = errors.New("checkpoint: no signing key")

// Checkpoint signs and stores a checkpoint of the tree as it is now, and returns it; fresh is
// false when the latest stored checkpoint already has this size (it is returned instead).
func (k *Keeper) Checkpoint(ctx context.Context) (s *Signed, fresh bool, err error) {
	if k.o.Signer == nil {
		return nil, false, ErrNoSigner
	}
	if k.store == nil {
		return nil, false, ErrNoStore
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if err := k.tree.Flush(); err != nil {
		return nil, false, err
	}
	n := k.tree.Size()
	if n == 0 {
		return nil, false, ErrEmpty
	}
	root, err := k.tree.Root(n)
	if err != nil {
		return nil, false, err
	}
	if prev, err := k.store.At(ctx, n); err == nil {
		s, err := k.open(prev)
		if err == nil && s.Hash != root {
			// The first checkpoint of a size stays: one of another tree means the log was
			// replaced since it was signed. The keeper will not sign over that.
			return nil, false, fmt.Errorf("%w: the stored checkpoint of tree size %d has another root: the log was replaced or rewritten since it was signed (fechado verify --since)", ErrForked, n)
		}
		return s, false, err
	}
	msg, err := Sign(Checkpoint{Origin: k.o.Signer.Name(), Size: n, Hash: root}, k.o.Signer)
	if err != nil {
		return nil, false, err
	}
	if err := k.store.Put(ctx, n, msg); err != nil {
		return nil, false, err
	}
	s, err = k.open(msg)
	return s, true, err
}

// open opens a checkpoint the keeper's own key signed.
func (k *Keeper) open(msg []byte) (*Signed, error) {
	return OpenSigned(msg, k.o.Signer.VerifierKey())
}
