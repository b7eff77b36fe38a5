package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"strings"
	"time"

	"github.com/fechado/fechado/lang"
)

// Proof is what a report says and carries of the hand's proof in the signed log (issue 40,
// docs/security.md): the proof itself (recorder/checkpoint.HandProof as JSON, with every event's
// stored bytes), and what the page tells the reader of it.
type Proof struct {
	// JSON is the hand's proof, embedded in the page as is.
	JSON json.RawMessage
	// Checkpoint is the signed checkpoint's note, shown on the page.
	Checkpoint string
	// Key is the signing key's name and fingerprint ("name+0a1b2c3d", as in its verifier key).
	Key string
	// Size is the checkpoint's tree size; Events the number of the hand's events; First and
	// Last the stream sequences of its first and last.
	Size        int64
	Events      int
	First, Last uint64
}

// sealed is the block a report with a proof carries (hidden): the proof and what the page was
// written with, so that 'fechado verify-report' writes the same page again from the proven
// events and finds any change of it.
type sealed struct {
	Format   string          `json:"format"`
	Lang     string          `json:"lang"`
	Prepared string          `json:"prepared"` // RFC 3339, in the zone the page shows
	Zone     string          `json:"zone"`     // that zone's name
	Proof    json.RawMessage `json:"proof"`
}

const sealedFormat = "fechado-report-proof/v1"

// proofOpen and proofClose delimit the sealed block in a page.
const (
	proofOpen  = `<pre id="fechado-proof" hidden>`
	proofClose = `</pre>`
)

// Sealed is a report's sealed block, read back from the page: what verify-report needs to check
// the proof and write the page again.
type Sealed struct {
	Lang  *lang.Lang
	Now   time.Time
	Proof json.RawMessage
}

// ErrNoProof: the page carries no proof (a report written before any checkpoint covered the
// hand, or not a report).
var ErrNoProof = errors.New("report: the page carries no proof")

// ReadSealed reads the proof block of a report page.
func ReadSealed(page []byte) (*Sealed, error) {
	s := string(page)
	i := strings.Index(s, proofOpen)
	if i < 0 {
		return nil, ErrNoProof
	}
	j := strings.Index(s[i:], proofClose)
	if j < 0 {
		return nil, ErrNoProof
	}
	var b sealed
	if err := json.Unmarshal([]byte(html.UnescapeString(s[i+len(proofOpen):i+j])), &b); err != nil {
		return nil, fmt.Errorf("report: the proof block: %w", err)
	}
	if b.Format != sealedFormat {
		return nil, fmt.Errorf("report: the proof block's format is %q, not %q", b.Format, sealedFormat)
	}
	l, ok := lang.Get(b.Lang)
	if !ok {
		return nil, fmt.Errorf("report: the proof block names the language %q", b.Lang)
	}
	t, err := time.Parse(time.RFC3339Nano, b.Prepared)
	if err != nil {
		return nil, fmt.Errorf("report: the proof block's time: %w", err)
	}
	_, off := t.Zone()
	return &Sealed{Lang: l, Now: t.In(time.FixedZone(b.Zone, off)), Proof: b.Proof}, nil
}

// proofView is the proof section of the page.
type proofView struct {
	Title, Text, Check string
	Checkpoint         string
	Sealed             string // the JSON of the sealed block
}

func newProofView(l *lang.Lang, now time.Time, p *Proof) (*proofView, error) {
	zone, _ := now.Zone()
	b, err := json.Marshal(sealed{Format: sealedFormat, Lang: l.Code, Prepared: now.Format(time.RFC3339Nano), Zone: zone, Proof: p.JSON})
	if err != nil {
		return nil, err
	}
	return &proofView{
		Title: l.T("report.proof", nil),
		Text: l.T("report.proof.text", lang.Args{"n": p.Events, "first": int64(p.First), "last": int64(p.Last),
			"size": p.Size, "key": p.Key}),
		Check:      l.T("report.proof.check", lang.Args{"key": p.Key}),
		Checkpoint: p.Checkpoint,
		Sealed:     string(b),
	}, nil
}
