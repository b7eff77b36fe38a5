package checkpoint

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/webguard"
	"github.com/fechado/fechado/recorder"
	"golang.org/x/mod/sumdb/tlog"
)

// TileHeight is the height of the tiles served at /tile/ (the Go checksum database's).
const TileHeight = 8

// Consistency is the JSON answer of GET /tlog/proof/consistency.
type Consistency struct {
	Old   int64       `json:"old"`
	New   int64       `json:"new"`
	Proof []tlog.Hash `json:"proof"`
}

// Handler serves the transparency log's routes (web.Options.Transparency mounts it):
//
//	GET  /checkpoint                                   the latest signed checkpoint and its co-signatures (text)
//	GET  /tlog/proof/inclusion?hand=ID[&table=T][&size=N]  a finished hand's HandProof (JSON)
//	GET  /tlog/proof/consistency?old=M&new=N           the consistency proof between two sizes (JSON)
//	GET  /tlog/receipt/{hand}                          a finished hand's Receipt (JSON): the short link a player keeps
//	GET  /tile/8/L/NNN[.p/W]                           a tile of tree hashes (tlog tiles, as the Go sumdb)
//	POST /tlog/cosignature                             a witness's co-signed checkpoint
func (k *Keeper) Handler() http.Handler {
	m := http.NewServeMux()
	m.HandleFunc("GET /checkpoint", k.getCheckpoint)
	m.HandleFunc("GET /tlog/proof/inclusion", k.getInclusion)
	m.HandleFunc("GET /tlog/proof/consistency", k.getConsistency)
	m.HandleFunc("GET /tlog/receipt/{hand}", k.getReceipt)
	m.HandleFunc("GET /tile/", k.getTile)
	m.HandleFunc("POST /tlog/cosignature", k.postCosignature)
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		httpError(w, http.StatusNotFound, "no such transparency log route: "+r.Method+" "+r.URL.Path)
	})
	return m
}

func httpError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	fmt.Fprintln(w, msg)
}

func (k *Keeper) getCheckpoint(w http.ResponseWriter, r *http.Request) {
	if k.store == nil {
		httpError(w, http.StatusNotFound, ErrNoCheckpoint.Error())
		return
	}
	signed, err := k.store.Latest(r.Context())
	if err == nil {
		signed, err = k.store.WithCosignatures(r.Context(), signed, k.o.Witnesses)
	}
	switch {
	case errors.Is(err, ErrNoCheckpoint):
		httpError(w, http.StatusNotFound, err.Error())
		return
	case err != nil:
		httpError(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(signed)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(v)
}

func (k *Keeper) getInclusion(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	hand := q.Get("hand")
	if hand == "" {
		httpError(w, http.StatusBadRequest, "hand=ID is required")
		return
	}
	evs, err := k.ReadHand(r.Context(), q.Get("table"), hand)
	switch {
	case errors.Is(err, recorder.ErrHandNotFound), errors.Is(err, recorder.ErrAmbiguousHand):
		httpError(w, http.StatusNotFound, err.Error())
		return
	case err != nil:
		httpError(w, http.StatusServiceUnavailable, err.Error())
		return
	case evs[len(evs)-1].Event.Type != events.HandEndedType:
		// The proof carries every byte of the events: face-down cards and the seed of a hand in
		// progress stay private until it ends, as everywhere else.
		httpError(w, http.StatusConflict, "hand "+hand+" has not ended: its proof is given once it ends")
		return
	}
	var signed []byte
	if s := q.Get("size"); s != "" {
		size, perr := strconv.ParseInt(s, 10, 64)
		if perr != nil || k.store == nil {
			httpError(w, http.StatusBadRequest, "size must be the tree size of a stored checkpoint")
			return
		}
		signed, err = k.store.At(r.Context(), size)
	} else {
		signed, err = k.Covering(r.Context(), evs[len(evs)-1].Seq)
	}
	switch {
	case errors.Is(err, ErrNotCovered), errors.Is(err, ErrNoCheckpoint), errors.Is(err, ErrNoStore):
		httpError(w, http.StatusConflict, err.Error()) // the next checkpoint will cover it
		return
	case err != nil:
		httpError(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	p, err := k.ProveHand(signed, evs)
	if err != nil {
		httpError(w, http.StatusConflict, err.Error())
		return
	}
	writeJSON(w, p)
}

func (k *Keeper) getReceipt(w http.ResponseWriter, r *http.Request) {
	rc, err := k.Receipt(r.Context(), r.URL.Query().Get("table"), r.PathValue("hand"))
	switch {
	case errors.Is(err, recorder.ErrHandNotFound), errors.Is(err, recorder.ErrAmbiguousHand):
		httpError(w, http.StatusNotFound, err.Error())
	case errors.Is(err, ErrNotEnded):
		httpError(w, http.StatusConflict, err.Error()+": its receipt is given once it ends")
	case errors.Is(err, ErrNotCovered), errors.Is(err, ErrNoCheckpoint), errors.Is(err, ErrNoStore):
		// The next checkpoint will cover it: ask again then.
		if k.o.Interval > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(int(k.o.Interval.Seconds())+1))
		}
		httpError(w, http.StatusConflict, err.Error())
	case err != nil:
		httpError(w, http.StatusServiceUnavailable, err.Error())
	default:
		writeJSON(w, rc)
	}
}

func (k *Keeper) getConsistency(w http.ResponseWriter, r *http.Request) {
	old, err1 := strconv.ParseInt(r.URL.Query().Get("old"), 10, 64)
	n, err2 := strconv.ParseInt(r.URL.Query().Get("new"), 10, 64)
	if err1 != nil || err2 != nil || old < 0 || old > n {
		httpError(w, http.StatusBadRequest, "old=M&new=N are required, 0 ≤ M ≤ N")
		return
	}
	p, err := k.ProveConsistency(old, n)
	if err != nil {
		httpError(w, http.StatusNotFound, err.Error())
		return
	}
	writeJSON(w, Consistency{Old: old, New: n, Proof: p})
}

func (k *Keeper) getTile(w http.ResponseWriter, r *http.Request) {
	t, err := tlog.ParseTilePath(strings.TrimPrefix(r.URL.Path, "/"))
	if err != nil || t.H != TileHeight || t.L < 0 {
		// Data tiles (level -1) would be the events themselves: they are not served.
		httpError(w, http.StatusNotFound, "no such tile")
		return
	}
	data, err := tlog.ReadTileData(t, k.tree)
	if err != nil {
		httpError(w, http.StatusNotFound, "no such tile: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	if t.W == 1<<t.H {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable") // a full tile never changes
	}
	w.Write(data)
}

// maxCosignature bounds a POST /tlog/cosignature body: a note of at most 100 signature lines is
// a few KiB.
const maxCosignature = 64 << 10

// postCosignature is POST /tlog/cosignature. It takes no login (a co-signature is its own
// authentication), but a write another site's page could have sent is refused first, as every
// write of the web interface is (webguard.CrossSite: 403), and a body over maxCosignature is
// refused unread (413).
func (k *Keeper) postCosignature(w http.ResponseWriter, r *http.Request) {
	if err := webguard.CrossSite(r); err != nil {
		httpError(w, http.StatusForbidden, err.Error()+"; a witness posts with Content-Type "+CosignatureContentType)
		return
	}
	if k.store == nil {
		httpError(w, http.StatusNotFound, ErrNoCheckpoint.Error())
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxCosignature))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		httpError(w, http.StatusRequestEntityTooLarge, "the body must be a co-signed checkpoint of at most 64 KiB")
		return
	case err != nil:
		httpError(w, http.StatusBadRequest, "reading the body: "+err.Error())
		return
	}
	size, text, lines, err := k.accept(r.Context(), body)
	if err != nil {
		httpError(w, http.StatusForbidden, err.Error())
		return
	}
	var already []string
	for _, vl := range lines {
		stored, err := k.store.AddCosignature(r.Context(), size, vl.line, func(old string) bool {
			id, sig, ok := parseSignatureLine(old)
			return ok && id == vl.id && vl.v.Verify([]byte(text), sig)
		})
		if err != nil {
			httpError(w, http.StatusServiceUnavailable, err.Error())
			return
		}
		if !stored {
			already = append(already, vl.id.Fingerprint())
		}
	}
	n := len(lines) - len(already)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprintf(w, "%d co-signature%s of tree size %d stored", n, map[bool]string{true: "", false: "s"}[n == 1], size)
	if len(already) > 0 {
		fmt.Fprintf(w, "; already stored, nothing more stored: %s", strings.Join(already, ", "))
	}
	fmt.Fprintln(w)
}

// accept checks a co-signed checkpoint a witness posts: the log's own signature, a checkpoint
// this log stored at that size, and at least one co-signature by a witness of the allow-list
// (Options.Witnesses). It returns the tree size, the checkpoint's text and the witnesses'
// signature lines that verify, one per witness key (the first), with the key and verifier of
// each; any other line is left out. The co-signature is its own authentication: only the holder
// of an allowed witness key can make one.
func (k *Keeper) accept(ctx context.Context, body []byte) (int64, string, []verifiedLine, error) {
	if k.o.Signer == nil {
		return 0, "", nil, ErrNoSigner
	}
	if len(k.o.Witnesses) == 0 {
		return 0, "", nil, errors.New("checkpoint: this log accepts no witness (serve --witness-key)")
	}
	vs, err := cosignatureVerifiers(k.o.Witnesses)
	if err != nil {
		return 0, "", nil, err
	}
	s, err := OpenSigned(body, k.o.Signer.VerifierKey(), k.o.Witnesses...)
	if err != nil {
		return 0, "", nil, err
	}
	text := noteText(body)
	stored, err := k.store.At(ctx, s.Size)
	if err != nil || noteText(stored) != text {
		return 0, "", nil, fmt.Errorf("checkpoint: tree size %d: not the checkpoint this log stored", s.Size)
	}
	// note.Open (in OpenSigned) checks the first line of each key and drops its later lines
	// unchecked: every line is checked here, and only the first that verifies of each key kept.
	lines := verifiedCosignatures(text, strings.SplitAfter(string(body[len(text):]), "\n"), vs)
	if len(lines) == 0 {
		return 0, "", nil, errors.New("checkpoint: no co-signature by an allowed witness key")
	}
	return s.Size, text, lines, nil
}
