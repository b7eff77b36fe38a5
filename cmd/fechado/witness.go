package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/fechado/fechado/recorder/checkpoint"
)

func init() {
	register(&command{
		name:    "witness",
		summary: "follow a log's checkpoints and co-sign each one that only grew",
		usage:   "witness --log URL --log-key VERIFIER --key FILE [--state FILE] [--interval D] [--once]",
		help: `Witness follows a fechado log from outside: every --interval it fetches the log's latest
signed checkpoint (GET URL/checkpoint), checks the log's signature with --log-key, and, when
the tree grew since the last checkpoint it co-signed, checks the consistency proof between the
two (GET URL/tlog/proof/consistency) and co-signs the new one with its cosignature key --key
(C2SP tlog-cosignature, Ed25519 cosignature/v1; made by 'fechado keygen --witness'), posting it
to URL/tlog/cosignature (the log accepts it when serve names this witness's verifier key with
--witness-key). Its last co-signed checkpoint is kept in --state, so it never co-signs a tree
that does not extend it, across restarts.

A log that shows a smaller tree, another tree of the same size, or a tree the consistency
proof does not connect to the last one is a fork: the witness refuses it, writes the evidence
(both checkpoints and the proof) beside --state, and stops with exit 1.

Exit status: 0 when stopped (or after one round with --once); 1 a fork; 2 bad usage or an
unreadable key; 3 the log could not be reached (with --once; otherwise it tries again).`,
		run: runWitness,
	})
}

func runWitness(m *Main, args []string) error {
	fs := m.flags(commands["witness"])
	logURL := fs.String("log", "", "the log's base `URL` (where fechado serve answers)")
	logKey := fs.String("log-key", "", "the log's `VERIFIER` key")
	keyFile := fs.String("key", "", "the witness's cosignature key `FILE` (fechado keygen --witness)")
	state := fs.String("state", "fechado-witness.state", "`FILE` keeping the last co-signed checkpoint")
	interval := fs.Duration("interval", 10*time.Second, "how often to look at the log")
	once := fs.Bool("once", false, "look once and exit")
	rest, err := m.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageErr("unexpected argument %q (see 'fechado witness --help')", rest[0])
	}
	if *logURL == "" || *logKey == "" || *keyFile == "" {
		return usageErr("--log URL, --log-key VERIFIER and --key FILE are required (see 'fechado witness --help')")
	}
	if *interval <= 0 {
		return usageErr("--interval must be positive")
	}
	skey, err := checkpoint.ReadKeyFile(*keyFile)
	if err != nil {
		return usageErr("--key: %v", err)
	}
	signer, err := checkpoint.NewCosigner(skey)
	if err != nil {
		return usageErr("--key %s: %v", *keyFile, err)
	}
	w := &checkpoint.Witness{Log: *logURL, LogKey: *logKey, Signer: signer, State: *state}
	ctx, stop := interruptible()
	defer stop()
	for {
		st, err := w.Round(ctx)
		switch {
		case errors.Is(err, checkpoint.ErrFork):
			fmt.Fprintf(m.Stdout, "FORK: %v\n", err)
			if st.Evidence != "" {
				fmt.Fprintf(m.Stdout, "evidence written to %s\n", st.Evidence)
			}
			return withCode(exitFindings, fmt.Errorf("refused to co-sign: %w", err))
		case errors.Is(err, checkpoint.ErrFormat):
			return withCode(exitFindings, err)
		case err != nil && *once:
			return withCode(exitStore, err)
		case err != nil:
			fmt.Fprintf(m.Stderr, "fechado witness: %v (trying again in %s)\n", err, *interval)
		case st.Cosigned:
			fmt.Fprintf(m.Stdout, "co-signed tree size %d (after %d)\n", st.New, st.Old)
		case *once:
			fmt.Fprintf(m.Stdout, "nothing new: tree size %d co-signed already\n", st.New)
		}
		if *once || !untilDone(ctx, *interval) {
			return nil
		}
	}
}
