package checkpoint

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// CosignatureContentType is the content type a witness posts its co-signed checkpoint with. Any
// type but the ones a web form or a "simple" cross-site request can send passes the route's
// cross-site check (webguard.CrossSite); text/plain does not.
const CosignatureContentType = "application/x-tlog-checkpoint"

// Witness follows a log's checkpoints over HTTP and co-signs each one that extends the last it
// co-signed (C2SP tlog-cosignature): it checks the log's signature and the consistency proof
// from its last checkpoint, never signs a smaller or a different tree of the same size, and
// keeps its last co-signed checkpoint in State so that a restart does not forget it.
type Witness struct {
	// Log is the log's base URL (serve's address).
	Log string
	// LogKey is the log's verifier key.
	LogKey string
	// Signer is the witness's cosignature key.
	Signer *Cosigner
	// State is the file of the last co-signed checkpoint.
	State string
	// Client is the HTTP client (http.DefaultClient when nil).
	Client *http.Client
}

// ErrFork: the log showed a checkpoint that does not extend the one the witness co-signed
// before (a tree rewritten, shrunk or forked). The witness refuses it and keeps the evidence.
var ErrFork = errors.New("checkpoint: the log forked")

// Step is what one round of a witness did.
type Step struct {
	Old, New int64  // the last co-signed size and the size shown now
	Cosigned bool   // a new co-signature was posted
	Evidence string // the evidence file written on a fork
}

// Round fetches the log's latest checkpoint and co-signs it when the log grew consistently.
func (w *Witness) Round(ctx context.Context) (Step, error) {
	var st Step
	latest, err := w.get(ctx, "/checkpoint")
	if err != nil {
		return st, err
	}
	cur, err := OpenSigned(latest, w.LogKey)
	if err != nil {
		return st, err
	}
	st.New = cur.Size
	prevNote, err := os.ReadFile(w.State)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return st, fmt.Errorf("checkpoint: witness state: %w", err)
	}
	var proof tlog.TreeProof
	if len(prevNote) > 0 {
		prev, err := OpenSigned(prevNote, w.LogKey)
		if err != nil {
			return st, fmt.Errorf("checkpoint: witness state %s: %w", w.State, err)
		}
		st.Old = prev.Size
		switch {
		case cur.Size < prev.Size:
			return w.fork(st, prevNote, latest, nil, fmt.Errorf("%w: the log shows tree size %d, smaller than the %d co-signed before", ErrFork, cur.Size, prev.Size))
		case cur.Size == prev.Size && cur.Hash != prev.Hash:
			return w.fork(st, prevNote, latest, nil, fmt.Errorf("%w: two different trees of size %d", ErrFork, cur.Size))
		case cur.Size == prev.Size:
			return st, nil // nothing new: co-signed already
		}
		body, err := w.get(ctx, "/tlog/proof/consistency?old="+strconv.FormatInt(prev.Size, 10)+"&new="+strconv.FormatInt(cur.Size, 10))
		if err != nil {
			return st, err
		}
		var c Consistency
		if err := json.Unmarshal(body, &c); err != nil {
			return st, fmt.Errorf("%w consistency proof: %v", ErrFormat, err)
		}
		proof = c.Proof
		if err := tlog.CheckTree(proof, cur.Size, cur.Hash, prev.Size, prev.Hash); err != nil {
			return w.fork(st, prevNote, latest, proof, fmt.Errorf("%w: tree size %d does not extend the co-signed size %d: %v", ErrFork, cur.Size, prev.Size, err))
		}
	}
	lv, err := note.NewVerifier(strings.TrimSpace(w.LogKey))
	if err != nil {
		return st, fmt.Errorf("%w log key: %v", ErrFormat, err)
	}
	n, err := note.Open(latest, note.VerifierList(lv))
	if err != nil {
		return st, err
	}
	n.UnverifiedSigs = nil // co-sign the log's signature only, not lines we could not check
	cosigned, err := note.Sign(n, w.Signer)
	if err != nil {
		return st, err
	}
	if err := w.post(ctx, cosigned); err != nil {
		return st, err
	}
	if err := writeFileAtomic(w.State, cosigned, 0o640); err != nil {
		return st, fmt.Errorf("checkpoint: witness state: %w", err)
	}
	st.Cosigned = true
	return st, nil
}

// Evidence is the file a witness writes when it refuses a fork.
type Evidence struct {
	Reason    string      `json:"reason"`
	Cosigned  string      `json:"cosigned"`  // the checkpoint co-signed before
	Presented string      `json:"presented"` // the checkpoint the log shows now
	Proof     []tlog.Hash `json:"proof,omitempty"`
	At        time.Time   `json:"at"`
}

func (w *Witness) fork(st Step, prev, cur []byte, proof tlog.TreeProof, reason error) (Step, error) {
	ev := Evidence{Reason: reason.Error(), Cosigned: string(prev), Presented: string(cur), Proof: proof, At: time.Now().UTC()}
	b, _ := json.MarshalIndent(ev, "", "  ")
	st.Evidence = w.State + ".fork-" + strconv.FormatInt(time.Now().UnixNano(), 10) + ".json"
	if err := writeFileAtomic(st.Evidence, append(b, '\n'), 0o640); err != nil {
		st.Evidence = ""
	}
	return st, reason
}

func (w *Witness) client() *http.Client {
	if w.Client != nil {
		return w.Client
	}
	return http.DefaultClient
}

func (w *Witness) url(path string) (string, error) {
	u, err := url.Parse(strings.TrimSuffix(w.Log, "/") + path)
	if err != nil {
		return "", fmt.Errorf("checkpoint: log URL: %w", err)
	}
	return u.String(), nil
}

func (w *Witness) get(ctx context.Context, path string) ([]byte, error) {
	u, err := w.url(path)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	return w.do(req)
}

func (w *Witness) post(ctx context.Context, body []byte) error {
	u, err := w.url("/tlog/cosignature")
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", CosignatureContentType)
	_, err = w.do(req)
	return err
}

func (w *Witness) do(req *http.Request) ([]byte, error) {
	resp, err := w.client().Do(req)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %s %s: %w", req.Method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %s %s: %w", req.Method, req.URL.Path, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("checkpoint: %s %s: %s: %s", req.Method, req.URL.Path, resp.Status, strings.TrimSpace(string(b)))
	}
	return b, nil
}
