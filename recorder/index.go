package recorder

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fechado/fechado/roles"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The hand index (docs/stream.md §5): a JetStream key-value bucket with one key per hand and
// table, "<hand>.<table>", so that a hand read by its id alone costs one exact lookup of the
// keys under "<hand>." instead of a walk of the log's per-subject index over every table.
//
// Why a key per hand and table, and not a value naming the table: the server's subject tree
// (nats-server stree) finds the subjects matching "<prefix>.<hand>.*" by descending the literal
// bytes to the hand's node and listing its children (the hand's tables), while
// "fechado.hand.*.<hand>" makes it visit every table's node first; and a writer adds the fact
// "this hand is at this table" with a plain idempotent write, so appends need no read or
// compare-and-set, and a hand id stored at two tables has two keys, which the reader sees.
const (
	// IndexBucket is the key-value bucket of the hand index; its stream is "KV_" + IndexBucket.
	IndexBucket = roles.HandIndexBucket
	// indexCompleteKey is set once the index holds every hand of the log (after the hands stored
	// before the bucket existed were added). Hand ids are UUIDs, so no hand's key starts so.
	indexCompleteKey = "fechado.complete"
	// indexWorkers bounds the index writes in flight while the index is filled from the log.
	indexWorkers = 16
)

// handIndex is the open hand index of a Log.
type handIndex struct {
	// kv and stream are nil for a writer that may only add keys (a table device, Log.As):
	// it adds the key of each hand it starts and reads nothing of the index.
	kv      jetstream.KeyValue
	stream  jetstream.Stream // the bucket's stream, asked for the keys of a hand
	subject string           // "$KV.<bucket>." : a key's subject is subject + key
	// refused is set when the server refused this user a key (a device of a server whose
	// permissions predate the index): its appends then go on without the index.
	keysRefused atomic.Bool

	mu       sync.Mutex
	complete bool // indexCompleteKey was seen: the keys of a hand name all its tables
}

// indexDenied watches a connection for the server refusing this user the index (a table
// device's permissions name its own table's subjects only): the refusal comes as an asynchronous
// permissions violation, never as an answer, so a request waits for it instead of its timeout.
type indexDenied struct {
	once sync.Once
	ch   chan struct{}
}

func newIndexDenied() *indexDenied { return &indexDenied{ch: make(chan struct{})} }

// errorHandler is the connection's asynchronous error handler: it prints nothing (a library does
// not print) and notes a refusal of the index's stream.
func (d *indexDenied) errorHandler(_ *nats.Conn, _ *nats.Subscription, err error) {
	if errors.Is(err, nats.ErrPermissionViolation) && strings.Contains(err.Error(), "KV_"+IndexBucket) {
		d.once.Do(func() { close(d.ch) })
	}
}

// openIndex binds the hand index, creating it when it is missing (and filling it from the log
// when the log already holds hands). A user that may not use the index (a table device) gets
// none: its appends do not write the index and its reads by hand id ask the log. Failing to
// open the index is not an error: every read falls back to the log.
func (l *Log) openIndex(ctx context.Context) {
	ictx, cancel := context.WithTimeout(ctx, l.opts.Timeout)
	defer cancel()
	if l.denied != nil {
		go func() {
			select {
			case <-l.denied.ch:
				cancel()
			case <-ictx.Done():
			}
		}()
	}
	kv, err := l.js.KeyValue(ictx, IndexBucket)
	created := false
	if errors.Is(err, jetstream.ErrBucketNotFound) && !l.opts.Existing { // a reader creates nothing
		// Created by the set-up user (embedded: this process's admin; SetupJetStream), then
		// bound through l's own connection.
		var sjs jetstream.JetStream
		var done func()
		if sjs, done, err = l.SetupJetStream(); err == nil {
			_, err = sjs.CreateKeyValue(ictx, IndexConfig(l.replicas()))
			done()
			created = err == nil
			if errors.Is(err, jetstream.ErrBucketExists) {
				err = nil // another process was first
			}
			if err == nil {
				kv, err = l.js.KeyValue(ictx, IndexBucket)
			}
		}
	}
	if err != nil {
		return
	}
	st, err := l.js.Stream(ictx, "KV_"+IndexBucket)
	if err != nil {
		return
	}
	l.index = &handIndex{kv: kv, stream: st, subject: "$KV." + IndexBucket + "."}
	if created {
		if err := l.fillIndex(ctx); err != nil {
			return // left incomplete: readers ask the log until a later process fills it
		}
	}
	l.index.isComplete(ctx, l.opts.Timeout)
}

// replicas is the hand stream's replica count.
func (l *Log) replicas() int {
	if info := l.stream.CachedInfo(); info != nil && info.Config.Replicas > 0 {
		return info.Config.Replicas
	}
	return l.opts.Replicas
}

// IndexConfig is the configuration the hand index is created with: file storage, one value a key
// (a key is the fact; its value is empty), no expiry, replicated as the log.
func IndexConfig(replicas int) jetstream.KeyValueConfig {
	return jetstream.KeyValueConfig{
		Bucket:      IndexBucket,
		Description: "fechado hand index: one key <hand>.<table> for each table a hand is stored at",
		History:     1,
		Storage:     jetstream.FileStorage,
		Replicas:    replicas,
	}
}

// isComplete reports whether the index holds every hand, asking the bucket until it does.
func (ix *handIndex) isComplete(ctx context.Context, timeout time.Duration) bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if !ix.complete {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		_, err := ix.kv.Get(ctx, indexCompleteKey)
		ix.complete = err == nil
	}
	return ix.complete
}

// fillIndex adds to a new index every hand the log holds, then marks the index complete. Writers
// that opened the log after the index existed add their hands themselves, and adding a key
// twice is harmless, so the fill may run while others append.
func (l *Log) fillIndex(ctx context.Context) error {
	last, err := l.LastSeq(ctx)
	if err != nil {
		return err
	}
	if last > 0 {
		info, err := l.stream.Info(ctx, jetstream.WithSubjectFilter(StreamSubjects))
		if err != nil {
			return err
		}
		subjects := make(chan string)
		errs := make(chan error, indexWorkers)
		var wg sync.WaitGroup
		for range indexWorkers {
			wg.Go(func() {
				var first error
				for s := range subjects {
					table, hand, ok := strings.Cut(strings.TrimPrefix(s, SubjectPrefix), ".")
					if ok && first == nil {
						first = l.indexHand(ctx, table, hand)
					}
				}
				errs <- first
			})
		}
		for s := range info.State.Subjects {
			subjects <- s
		}
		close(subjects)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				return err
			}
		}
	}
	pctx, cancel := context.WithTimeout(ctx, l.opts.Timeout)
	defer cancel()
	_, err = l.index.kv.Put(pctx, indexCompleteKey, []byte(strconv.FormatUint(last, 10)))
	return err
}

// indexKey is the index key that says hand is stored at table.
func indexKey(table, hand string) string { return hand + "." + table }

// indexHand adds the key saying that hand is at table, before any event of it is stored there
// (a plain write, as KeyValue.Put makes it: adding it again changes nothing). A hand id the
// bucket cannot hold as a key is left out: reads of it ask the log. A key the server refuses
// this user is left out too, and so are the later ones: its hands are read through the log.
func (l *Log) indexHand(ctx context.Context, table, hand string) error {
	ix := l.index
	if ix == nil || ix.keysRefused.Load() {
		return nil
	}
	key := indexKey(table, hand)
	if !validKey(key) {
		return nil
	}
	subject := ix.subject + key
	for attempt := 1; ; attempt++ {
		// Each request is bounded by the log's timeout, as appends are; a refusal ends it at once.
		actx, cancel := context.WithTimeout(ctx, l.opts.Timeout)
		wctx, done := l.refused.watch(actx, subject)
		_, err := l.js.Publish(wctx, subject, nil)
		denied := errors.Is(context.Cause(wctx), ErrPermissionDenied)
		done()
		cancel()
		if denied {
			ix.keysRefused.Store(true)
			return nil
		}
		if err == nil {
			return nil
		}
		if attempt >= maxAttempts || ctx.Err() != nil || !retryable(err) {
			return fmt.Errorf("recorder: hand index, hand %s: %w", hand, err)
		}
	}
}

// validKey reports whether key is a key the bucket holds (what KeyValue.Put accepts): letters,
// digits and -/_=. , not starting or ending with a dot, no empty token.
func validKey(key string) bool {
	if key == "" || key[0] == '.' || key[len(key)-1] == '.' || strings.Contains(key, "..") {
		return false
	}
	for _, c := range []byte(key) {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-/_=.", c) >= 0
		if !ok {
			return false
		}
	}
	return true
}

// indexMsg is the message that adds a hand's index key (what KeyValue.Put publishes), for the
// recorder's pipelined appends.
func (ix *handIndex) indexMsg(table, hand string) *nats.Msg {
	return &nats.Msg{Subject: ix.subject + indexKey(table, hand)}
}

// indexedTable returns the table the index holds for hand, when the index is complete and names
// exactly one table; ok is false when the log must be asked instead (no key: a hand recorded by
// a writer without the index, or not stored; several keys: a hand at several tables, or a
// writer stopped between a key and its event).
func (l *Log) indexedTable(ctx context.Context, hand string) (table string, ok bool) {
	ix := l.index
	if ix == nil || ix.kv == nil || !ix.isComplete(ctx, l.opts.Timeout) {
		return "", false
	}
	prefix := ix.subject + hand + "."
	ictx, cancel := context.WithTimeout(ctx, l.opts.Timeout)
	defer cancel()
	info, err := ix.stream.Info(ictx, jetstream.WithSubjectFilter(prefix+"*"))
	if err != nil || len(info.State.Subjects) != 1 {
		return "", false
	}
	for s := range info.State.Subjects {
		table = strings.TrimPrefix(s, prefix)
	}
	return table, table != ""
}
