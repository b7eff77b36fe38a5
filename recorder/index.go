package recorder

import (
	"context"
	"errors"

	"github.com/nats-io/nats.go/jetstream"
)

// LegacyIndexBucket is the key-value bucket of the hand index that earlier versions of fechado
// kept beside the log (docs/stream.md §4, "The hand index, removed"): one key
// "<hand>.<table>" a hand, so that a read by hand id alone found the table with one exact lookup.
// It cost the server a second subject a hand, as much memory as the log's own per-hand state,
// and is neither written nor read any more: a read by hand id alone takes the table from the
// read models, else from the log (HandSubject). Its stream is "KV_" + LegacyIndexBucket.
const LegacyIndexBucket = "FECHADO_HAND_TABLES"

// dropLegacyIndex removes the old hand index from a log this process embeds the server of, when
// the process may create streams (not Options.Existing: the commands that only read change
// nothing): the bucket holds nothing that is not in the log (whose subjects name each hand's
// table already), no reader asks it, and the server keeps every one of its subjects in memory
// while it exists. The log itself is not touched (its stream denies deletes; this deletes
// another stream). Only the embedded server's set-up user may delete a stream, and only one
// process runs the server (the data folder's lock), so no writer of an older fechado adds keys
// meanwhile; an older fechado that opens the folder later makes the bucket again and fills it
// from the log, as it did for a log recorded before the index. On an external server the bucket
// is left to its operator (docs/deployment.md §6): fechado's users may delete no stream there.
// Failing is not an error: the bucket only costs memory.
func (l *Log) dropLegacyIndex(ctx context.Context) {
	if l.srv == nil || l.opts.Existing {
		return
	}
	ajs, done, err := l.SetupJetStream()
	if err != nil {
		return
	}
	defer done()
	dctx, cancel := context.WithTimeout(ctx, l.opts.Timeout)
	defer cancel()
	if err := ajs.DeleteKeyValue(dctx, LegacyIndexBucket); err != nil && !errors.Is(err, jetstream.ErrBucketNotFound) {
		return
	}
}
