package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/checkpoint"
)

// tlogFlags are serve's flags of the transparency log: the key that signs checkpoints, when to
// sign, and the witnesses whose co-signatures it accepts.
type tlogFlags struct {
	signKey   string
	every     int64
	interval  time.Duration
	witnesses []string
}

func (t *tlogFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&t.signKey, "sign-key", "", "keep the log's Merkle tree, sign a checkpoint with this signer key `FILE` (fechado keygen) and serve /checkpoint, proofs and tiles")
	fs.Int64Var(&t.every, "checkpoint-every", checkpoint.DefaultEvery, "with --sign-key: sign a checkpoint after this many new events…")
	fs.DurationVar(&t.interval, "checkpoint-interval", checkpoint.DefaultInterval, "with --sign-key: …or this long after the last one, when the log grew")
	fs.Func("witness-key", "with --sign-key: accept and publish co-signatures of the witness with this cosignature `VERIFIER` key (repeatable)", func(v string) error {
		t.witnesses = append(t.witnesses, strings.TrimSpace(v))
		return nil
	})
}

// transparency is serve's transparency log: nil when serve runs without --sign-key.
type transparency struct {
	k *checkpoint.Keeper
}

// transparency opens the tree of the log and the checkpoint store when --sign-key is given.
func (f *serveFlags) transparency(ctx context.Context, m *Main, l *recorder.Log) (*transparency, error) {
	t := f.tlog
	if t.signKey == "" {
		if len(t.witnesses) > 0 {
			return nil, usageErr("--witness-key goes with --sign-key")
		}
		return nil, nil
	}
	if t.every < 0 || t.interval < 0 {
		return nil, usageErr("--checkpoint-every and --checkpoint-interval may not be negative")
	}
	for _, w := range t.witnesses {
		if _, err := checkpoint.NewCosignatureVerifier(w); err != nil {
			return nil, usageErr("--witness-key: %v", err)
		}
	}
	signer, err := readSigner(t.signKey)
	if err != nil {
		return nil, err
	}
	o := checkpoint.Options{Dir: f.log.tlogDir(), Signer: signer, Every: t.every, Interval: t.interval,
		Witnesses: t.witnesses, CreateStore: true,
		OnReplaced: func(path string, why error) {
			f.logger.Warn("fechado: the kept Merkle tree is not this log's: moved aside and rebuilt", "moved_to", path, "why", why.Error())
		}}
	if t.every == 0 {
		o.Every = -1
	}
	if t.interval == 0 {
		o.Interval = -1
	}
	k, err := checkpoint.Open(ctx, l, o)
	if err != nil {
		return nil, withCode(exitStore, err)
	}
	fmt.Fprintf(m.Stdout, "fechado: signing checkpoints as %s; the verifier key is %s\n", signer.Name(), signer.VerifierKey())
	return &transparency{k: k}, nil
}

// handler is what the web serves at checkpoint.Routes (nil without a transparency log).
func (t *transparency) handler() http.Handler {
	if t == nil {
		return nil
	}
	return t.k.Handler()
}

func (t *transparency) close() {
	if t != nil {
		t.k.Close()
	}
}

// run keeps the tree and signs checkpoints until ctx is done.
func (t *transparency) run(ctx context.Context, log *slog.Logger, wg *sync.WaitGroup, errs chan<- error) {
	if t == nil {
		return
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		// The first checkpoint covers what is stored already.
		if _, _, err := t.k.Checkpoint(ctx); err != nil && ctx.Err() == nil && !errors.Is(err, checkpoint.ErrEmpty) {
			errs <- withCode(exitStore, err)
			return
		}
		err := t.k.Run(ctx, func(s *checkpoint.Signed) {
			log.Info("fechado: checkpoint signed", "size", s.Size, "root", s.Hash.String())
		})
		if err != nil && ctx.Err() == nil && !errors.Is(err, context.Canceled) {
			errs <- withCode(exitStore, err)
		}
	}()
}
