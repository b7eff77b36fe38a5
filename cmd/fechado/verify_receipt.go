package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/fechado/fechado/recorder/checkpoint"
)

func init() {
	register(&command{
		name:    "verify-receipt",
		summary: "check a player's receipt of a hand, and that the log still holds it",
		usage:   "verify-receipt FILE.json --key VERIFIER [--log URL] [--witness KEY…] [--witnesses-required K]",
		help: `Verify-receipt checks a hand's receipt, as GET /tlog/receipt/{hand} gives it once the hand
has ended (the JSON a player keeps: the hand, the SHA-256 of its last stored line, that line with
its inclusion proof, and the signed checkpoint): the checkpoint's signature by --key, that the
line is the hand's hand.ended with the hash the receipt names, and that it is in the signed
tree. With --log URL it also fetches the log's latest checkpoint and checks the consistency proof
from the receipt's: the log still holds the hand as it was. Everything before the hand's last
line is bound to it by the hash chain: the hand's events, from 'fechado export' or the report,
must end with a line of that hash.

--witness KEY (repeatable) and --witnesses-required K also require K of those witnesses'
co-signatures on the receipt's checkpoint (default: all the keys given).

Exit status: 0 the receipt holds; 1 it does not (or the log no longer extends it); 2 bad usage or
an unreadable file; 3 the log could not be reached.`,
		run: runVerifyReceipt,
	})
}

func runVerifyReceipt(m *Main, args []string) error {
	fs := m.flags(commands["verify-receipt"])
	since := addSinceFlags(fs)
	logURL := fs.String("log", "", "also check, at the log's base `URL`, that today's log extends the receipt's checkpoint")
	files, err := m.parse(fs, args)
	if err != nil {
		return err
	}
	file, err := since.offline("verify-receipt", "FILE.json", files)
	if err != nil {
		return err
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return usageErr("%v", err)
	}
	var r checkpoint.Receipt
	if err := json.Unmarshal(b, &r); err != nil {
		return usageErr("%s: %v", files[0], err)
	}
	s, err := r.Verify(since.key, since.witnesses...)
	if err != nil {
		return withCode(exitFindings, fmt.Errorf("%s: %w", files[0], err))
	}
	if len(s.Witnesses) < since.required {
		return withCode(exitFindings, fmt.Errorf("%s: %w: %d of the %d required", files[0], checkpoint.ErrWitnesses, len(s.Witnesses), since.required))
	}
	fmt.Fprintf(m.Stdout, "OK: hand %s of table %s ends with the line of SHA-256 %s, stream message %d of the log signed by %s (checkpoint of tree size %d)\n",
		r.Hand, r.Table, r.LastEventHash, r.Last.StreamSeq, s.Log.Fingerprint(), s.Size)
	if *logURL == "" {
		return nil
	}
	ctx, stop := interruptible()
	defer stop()
	cur, err := checkpoint.Extends(ctx, nil, strings.TrimSuffix(*logURL, "/"), since.key, s)
	switch {
	case errors.Is(err, checkpoint.ErrFork):
		return withCode(exitFindings, err)
	case err != nil:
		return withCode(exitStore, err)
	}
	fmt.Fprintf(m.Stdout, "OK: the log at %s still holds it: its tree of size %d extends the receipt's (consistency proof checked)\n", *logURL, cur.Size)
	return nil
}
