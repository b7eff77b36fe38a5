package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/checkpoint"
)

// The transparency log's commands (docs/security.md, "Checking the log from outside"): keygen,
// checkpoint and prove here; verify --since in verify_since.go, witness in witness.go,
// verify-report in verify_report.go.

func init() {
	register(&command{
		name:    "keygen",
		summary: "make an Ed25519 key to sign the log's checkpoints (or a witness's)",
		usage:   "keygen --out FILE [--name NAME] [--witness]",
		help: `Keygen writes a new signer key to --out (created, never overwritten: mode 0600) and
prints the matching verifier key as the last line of its output. The verifier key is public:
publish it, give it to whoever checks the log ('fechado verify --since --key', 'verify-report
--key', a witness's --log-key). The signer key is secret: it goes to 'fechado serve
--sign-key' or 'fechado checkpoint --sign-key' only.

--name is the key's name, which is also the origin line of every checkpoint it signs: a name
that says whose log it is, without spaces or '+' (default fechado.<host name>/log). With
--witness the key is a witness's cosignature key (C2SP tlog-cosignature, Ed25519
cosignature/v1) for 'fechado witness --key'; its verifier key goes to the log's 'serve
--witness-key' and to 'verify --since --witness'.

Exit status: 0 success; 2 bad usage, or --out exists or cannot be written.`,
		run: runKeygen,
	})
	register(&command{
		name:    "checkpoint",
		summary: "sign, store and print a checkpoint of the log's Merkle tree",
		usage:   "checkpoint --sign-key FILE [--data DIR | --nats URL…]",
		help: `Checkpoint brings the log's Merkle tree (kept in DIR/tlog, rebuilt from the log when
missing) up to the last stored event, signs a checkpoint of it with the signer key of
--sign-key (C2SP tlog-checkpoint: the origin line, the tree size, the root hash, signed as a
note), stores it beside the log (stream FECHADO_TLOG) and prints it. When the latest stored
checkpoint already has this size, that one is printed. Save the output: 'fechado verify
--since FILE' later proves that the log still extends it.

Exit status: 0 success; 2 bad usage or an unreadable key; 3 the log store could not be
reached.`,
		run: runCheckpoint,
	})
	register(&command{
		name:    "prove",
		summary: "print the inclusion proof of every event of a hand against a checkpoint",
		usage:   "prove --hand ID [--table ID] [--checkpoint FILE] [--data DIR | --nats URL…]",
		help: `Prove reads the hand's events from the log and prints, as JSON (format
fechado-hand-proof/v1), the signed checkpoint and for each event its stored bytes, its leaf
in the log's Merkle tree (stream sequence - 1) and the RFC 6962 inclusion proof from that leaf
to the checkpoint's root. The checkpoint is --checkpoint FILE (a signed checkpoint this log
stored, as 'fechado checkpoint' printed it) or by default the latest stored one, which must
have been signed after the hand's last event.

'fechado verify-report' checks the same proof inside a dispute report; any program with the
log's verifier key can check it with golang.org/x/mod/sumdb/tlog.CheckRecord.

Exit status: 0 success; 2 bad usage, an unknown hand, or a checkpoint that does not cover it;
3 the log store could not be reached.`,
		run: runProve,
	})
}

// tlogDir is where a node keeps the log's Merkle tree: beside the log's data, in DIR/tlog.
func (f *logFlags) tlogDir() string { return filepath.Join(f.data, "tlog") }

// openKeeper opens the log's tree (brought up to the log's end) with signer (nil: none).
func (f *logFlags) openKeeper(ctx context.Context, l *recorder.Log, signer *checkpoint.Signer, create bool, m *Main) (*checkpoint.Keeper, error) {
	k, err := checkpoint.Open(ctx, l, checkpoint.Options{Dir: f.tlogDir(), Signer: signer, CreateStore: create,
		OnReplaced: func(path string, why error) {
			fmt.Fprintf(m.Stderr, "fechado: the tree kept in %s is not this log's (%v): moved aside to %s and rebuilt from the log\n", f.tlogDir(), why, path)
		}})
	if err != nil {
		return nil, withCode(exitStore, err)
	}
	return k, nil
}

func defaultKeyName() string {
	h, err := os.Hostname()
	if err != nil || h == "" || strings.ContainsAny(h, " +") {
		h = "localhost"
	}
	return "fechado." + h + "/log"
}

func runKeygen(m *Main, args []string) error {
	fs := m.flags(commands["keygen"])
	out := fs.String("out", "", "write the signer key to this `FILE` (required; never overwritten)")
	name := fs.String("name", defaultKeyName(), "the key's `NAME`: the checkpoints' origin line (a witness's name with --witness)")
	witness := fs.Bool("witness", false, "make a witness's cosignature key (C2SP tlog-cosignature)")
	rest, err := m.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageErr("unexpected argument %q (see 'fechado keygen --help')", rest[0])
	}
	if *out == "" {
		return usageErr("--out FILE is required (see 'fechado keygen --help')")
	}
	skey, vkey, err := checkpoint.GenerateKey(*name, *witness)
	if err != nil {
		return usageErr("%v", err)
	}
	f, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return usageErr("%v", err)
	}
	_, err = fmt.Fprintln(f, skey)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return usageErr("%v", err)
	}
	kind := "log signer"
	if *witness {
		kind = "witness cosignature"
	}
	fmt.Fprintf(m.Stdout, "%s key written to %s (keep it secret); its verifier key, to publish:\n%s\n", kind, *out, vkey)
	return nil
}

// readSigner reads a log signer key file.
func readSigner(path string) (*checkpoint.Signer, error) {
	skey, err := checkpoint.ReadKeyFile(path)
	if err != nil {
		return nil, usageErr("--sign-key: %v", err)
	}
	s, err := checkpoint.NewSigner(skey)
	if err != nil {
		return nil, usageErr("--sign-key %s: %v", path, err)
	}
	return s, nil
}

func runCheckpoint(m *Main, args []string) error {
	fs := m.flags(commands["checkpoint"])
	keyFile := fs.String("sign-key", "", "the log's signer key `FILE` (fechado keygen)")
	lf := addLogFlags(fs)
	rest, err := m.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageErr("unexpected argument %q (see 'fechado checkpoint --help')", rest[0])
	}
	if *keyFile == "" {
		return usageErr("--sign-key FILE is required (see 'fechado checkpoint --help')")
	}
	signer, err := readSigner(*keyFile)
	if err != nil {
		return err
	}
	// checkpoint signs the log; it creates the store of signed checkpoints (FECHADO_TLOG), never
	// the log itself, and nothing at all for a log with nothing to sign.
	lf.existing = true
	ctx, l, done, err := lf.openInterruptible()
	if err != nil {
		return err
	}
	defer done()
	if info, err := l.Stream().Info(ctx); err != nil {
		return withCode(exitStore, err)
	} else if info.State.Msgs == 0 {
		return withCode(exitStore, checkpoint.ErrEmpty)
	}
	k, err := lf.openKeeper(ctx, l, signer, true, m)
	if err != nil {
		return err
	}
	defer k.Close()
	s, fresh, err := k.Checkpoint(ctx)
	if err != nil {
		return withCode(exitStore, err)
	}
	if !fresh {
		fmt.Fprintf(m.Stderr, "fechado checkpoint: the log has not grown since the checkpoint of tree size %d: printing it\n", s.Size)
	}
	_, err = m.Stdout.Write(s.Note)
	return err
}

func runProve(m *Main, args []string) error {
	fs := m.flags(commands["prove"])
	hand := fs.String("hand", "", "the hand to prove (by id)")
	table := fs.String("table", "", "the hand's table (looked up when not given)")
	cpFile := fs.String("checkpoint", "", "prove against this signed checkpoint `FILE` (default: the latest stored)")
	lf := addLogFlags(fs)
	rest, err := m.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageErr("unexpected argument %q (see 'fechado prove --help')", rest[0])
	}
	if *hand == "" {
		return usageErr("--hand ID is required (see 'fechado prove --help')")
	}
	var signed []byte
	if *cpFile != "" {
		if signed, err = os.ReadFile(*cpFile); err != nil {
			return usageErr("--checkpoint: %v", err)
		}
	}
	lf.existing = true // prove reads the log: it never creates it
	ctx, l, done, err := lf.openInterruptible()
	if err != nil {
		return err
	}
	defer done()
	p, err := proveHand(ctx, lf, l, m, *table, *hand, signed)
	if err != nil {
		return err
	}
	return writeIndentedJSON(m.Stdout, p)
}

// proveHand reads a hand from the log and proves it against signed (nil: the latest stored
// checkpoint covering it).
func proveHand(ctx context.Context, lf *logFlags, l *recorder.Log, m *Main, table, hand string, signed []byte) (*checkpoint.HandProof, error) {
	if signed == nil {
		// Without any stored checkpoint there is nothing to prove against: say so before reading
		// the whole log into the tree.
		st, err := checkpoint.OpenStore(ctx, l, false)
		if err == nil {
			_, err = st.Latest(ctx)
		}
		if errors.Is(err, checkpoint.ErrNoStore) || errors.Is(err, checkpoint.ErrNoCheckpoint) {
			return nil, usageErr("%v", err)
		}
		if err != nil {
			return nil, withCode(exitStore, err)
		}
	}
	k, err := lf.openKeeper(ctx, l, nil, false, m)
	if err != nil {
		return nil, err
	}
	defer k.Close()
	evs, err := k.ReadHand(ctx, table, hand)
	if err != nil {
		return nil, logReadErr(err)
	}
	if signed == nil {
		signed, err = k.Covering(ctx, evs[len(evs)-1].Seq)
		if errors.Is(err, checkpoint.ErrNotCovered) || errors.Is(err, checkpoint.ErrNoCheckpoint) || errors.Is(err, checkpoint.ErrNoStore) {
			return nil, usageErr("%v", err)
		}
		if err != nil {
			return nil, withCode(exitStore, err)
		}
	}
	p, err := k.ProveHand(signed, evs)
	if err != nil {
		return nil, usageErr("%v", err)
	}
	return p, nil
}

// writeIndentedJSON writes v as indented JSON.
func writeIndentedJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// untilDone waits d or until ctx is done, and says which.
func untilDone(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
