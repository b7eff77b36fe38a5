package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/fechado/fechado/recorder/checkpoint"
)

// sinceFlags are verify's flags of the transparency check (verify --since): a separate path from
// the stream check of verify.go.
type sinceFlags struct {
	file      string
	key       string
	witnesses []string
	required  int
}

func addSinceFlags(fs *flag.FlagSet) *sinceFlags {
	f := &sinceFlags{required: -1}
	fs.StringVar(&f.file, "since", "", "prove that today's log extends the signed checkpoint in `FILE` (nothing removed or rewritten since)")
	fs.StringVar(&f.key, "key", "", "with --since: the log's `VERIFIER` key (as keygen printed it)")
	fs.Func("witness", "with --since: a witness's cosignature `VERIFIER` key (repeatable)", func(v string) error {
		f.witnesses = append(f.witnesses, strings.TrimSpace(v))
		return nil
	})
	fs.IntVar(&f.required, "witnesses-required", -1, "with --since: how many of the --witness keys must have co-signed the checkpoint (default all of them)")
	return f
}

// offline checks the flags of a command that checks one FILE offline against the log's key
// (verify-report, verify-receipt): one file, --key given, no --since; --witnesses-required
// defaults to every --witness. It returns the file.
func (f *sinceFlags) offline(command, file string, files []string) (string, error) {
	switch {
	case len(files) != 1:
		return "", usageErr("one %s (see 'fechado %s --help')", file, command)
	case f.file != "":
		return "", usageErr("--since goes with verify, not %s", command)
	case f.key == "":
		return "", usageErr("--key VERIFIER is required (see 'fechado %s --help')", command)
	}
	if f.required < 0 {
		f.required = len(f.witnesses)
	}
	return files[0], nil
}

func (f *sinceFlags) set() bool {
	return f.file != "" || f.key != "" || len(f.witnesses) > 0 || f.required >= 0
}

// runVerifySince is 'verify --since FILE --key VERIFIER': it reads the whole log, builds its
// Merkle tree and proves that the checkpoint's tree is a prefix of it.
func runVerifySince(m *Main, lf *logFlags, f *sinceFlags) error {
	if f.file == "" || f.key == "" {
		return usageErr("--since FILE and --key VERIFIER go together (see 'fechado verify --help')")
	}
	if f.required < 0 {
		f.required = len(f.witnesses)
	}
	if f.required > len(f.witnesses) {
		return usageErr("--witnesses-required %d: only %d --witness keys given", f.required, len(f.witnesses))
	}
	signed, err := os.ReadFile(f.file)
	if err != nil {
		return usageErr("--since: %v", err)
	}
	if _, err := checkpoint.OpenSigned(signed, f.key); err != nil {
		return withCode(exitFindings, fmt.Errorf("%s: %w", f.file, err))
	}
	ctx, l, done, err := lf.openInterruptible()
	if err != nil {
		return err
	}
	defer done()
	r, err := checkpoint.VerifySince(ctx, l, signed, f.key, f.witnesses, f.required, lf.tlogDir())
	switch {
	case errors.Is(err, checkpoint.ErrWitnesses), errors.Is(err, checkpoint.ErrFormat):
		return withCode(exitFindings, err)
	case err != nil:
		return withCode(exitStore, err)
	}
	cp := r.Checkpoint
	w := m.Stdout
	fmt.Fprintf(w, "checkpoint: %s, tree size %d, root %s, signed by %s\n", cp.Origin, cp.Size, cp.Hash, cp.Log.Fingerprint())
	if len(f.witnesses) > 0 {
		var names []string
		for _, c := range cp.Witnesses {
			names = append(names, c.Fingerprint()+" at "+c.Time.Format("2006-01-02T15:04:05Z"))
		}
		fmt.Fprintf(w, "witnesses: %d of %d co-signed (%d required): %s\n", len(cp.Witnesses), len(f.witnesses), f.required, strings.Join(names, ", "))
	}
	fmt.Fprintf(w, "today: tree size %d, root %s\n", r.Size, r.Root)
	if r.Consistent {
		fmt.Fprintf(w, "OK: the log extends the checkpoint: the consistency proof from tree size %d to %d (%d hashes) checks; nothing recorded by then was removed or changed\n",
			cp.Size, r.Size, len(r.Proof))
		return nil
	}
	switch {
	case r.Exact:
		fmt.Fprintf(w, "first difference: tree size %d: leaf %d (stream message %d) is not the event the checkpoint holds there (found by binary search against %s)\n",
			r.First, r.First-1, r.First, r.Reference)
	case r.After > 0:
		fmt.Fprintf(w, "first difference: between tree sizes %d and %d (today's log still matches the stored checkpoint of size %d; %s)\n",
			r.After+1, r.First, r.After, r.Reference)
	default:
		fmt.Fprintf(w, "first difference: at or before tree size %d (no tree or stored checkpoint of the old log narrows it down)\n", r.First)
	}
	if r.Today != "" {
		fmt.Fprintf(w, "today's stream message %d: %s\n", r.First, r.Today)
	} else if r.First > r.Size {
		fmt.Fprintf(w, "today's log ends at stream message %d\n", r.Size)
	}
	fmt.Fprintln(w, "NOT OK: the log does not extend the checkpoint: events recorded before it were removed or changed")
	return withCode(exitFindings, fmt.Errorf("the log does not extend the checkpoint of tree size %d: first difference at tree size %d", cp.Size, r.First))
}
