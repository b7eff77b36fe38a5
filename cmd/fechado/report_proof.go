package main

import (
	"encoding/json"
	"fmt"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder/checkpoint"
	"github.com/fechado/fechado/report"
)

// reportProof returns the proof a stored hand's dispute report carries (issue 40): the hand's
// inclusion proofs against the latest stored checkpoint, and the events as proven, which the
// report is then written from. When there is no proof to give (no checkpoint covers the hand, the
// tree is in use) it returns nil and says why on stderr: the report is still written, without it.
func reportProof(lf *logFlags, m *Main, table, hand string) (*report.Proof, []*events.Event, error) {
	ctx, l, done, err := lf.openInterruptible()
	if err != nil {
		return nil, nil, err
	}
	defer done()
	hp, err := proveHand(ctx, lf, l, m, table, hand, nil)
	if err != nil {
		// The report is written all the same: its proof is an addition (no checkpoint covers
		// the hand yet, or the tree is kept by a running serve on this data folder).
		fmt.Fprintf(m.Stderr, "fechado report: the report carries no proof in the signed log: %v\n", err)
		return nil, nil, nil
	}
	key, err := checkpoint.LogKeyID([]byte(hp.Checkpoint))
	if err != nil {
		return nil, nil, withCode(exitStore, err)
	}
	evs := make([]*events.Event, len(hp.Events))
	for i, ep := range hp.Events {
		if evs[i], err = events.Parse(ep.Data); err != nil {
			return nil, nil, logReadErr(err)
		}
	}
	p, err := reportProofView(hp, key)
	return p, evs, err
}

// reportProofView is what the report shows and carries of a hand's proof; verify-report makes
// it again from the proof it reads back, to write the same page.
func reportProofView(hp *checkpoint.HandProof, key checkpoint.KeyID) (*report.Proof, error) {
	raw, err := json.Marshal(hp)
	if err != nil {
		return nil, err
	}
	c, err := checkpoint.ParseCheckpoint(noteBody(hp.Checkpoint))
	if err != nil {
		return nil, err
	}
	return &report.Proof{JSON: raw, Checkpoint: hp.Checkpoint, Key: key.Fingerprint(), Size: c.Size,
		Events: len(hp.Events), First: hp.Events[0].StreamSeq, Last: hp.Events[len(hp.Events)-1].StreamSeq}, nil
}

// noteBody is a signed note's text, before the blank line and its signatures.
func noteBody(signed string) string {
	for i := 0; i+1 < len(signed); i++ {
		if signed[i] == '\n' && signed[i+1] == '\n' {
			return signed[:i+1]
		}
	}
	return signed
}
