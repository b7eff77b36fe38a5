package checkpoint_test

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/checkpoint"
	"github.com/fechado/fechado/recorder/recordertest"
	"golang.org/x/mod/sumdb/note"
)

// witnessed is a log serving its transparency routes, with one witness on its allow-list.
type witnessed struct {
	l        *recorder.Log
	k        *checkpoint.Keeper
	srv      *httptest.Server
	logKey   string
	wkey     string // the witness's verifier key
	cosigner *checkpoint.Cosigner
	w        *checkpoint.Witness
}

func newWitnessed(t *testing.T) *witnessed {
	t.Helper()
	x := &witnessed{l: recordertest.Open(t)}
	record(t, x.l, "t1", 1, 2)
	var signer *checkpoint.Signer
	signer, x.logKey = newSigner(t, "test.example/log")
	wskey, wvkey, err := checkpoint.GenerateKey("witness.example/w1", true)
	if err != nil {
		t.Fatal(err)
	}
	x.wkey = wvkey
	if x.cosigner, err = checkpoint.NewCosigner(wskey); err != nil {
		t.Fatal(err)
	}
	x.k, err = checkpoint.Open(t.Context(), x.l, checkpoint.Options{Dir: t.TempDir(), Signer: signer, CreateStore: true, Witnesses: []string{wvkey}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.k.Close() })
	x.srv = httptest.NewServer(x.k.Handler())
	t.Cleanup(x.srv.Close)
	if _, _, err := x.k.Checkpoint(t.Context()); err != nil {
		t.Fatal(err)
	}
	x.w = &checkpoint.Witness{Log: x.srv.URL, LogKey: x.logKey, Signer: x.cosigner, State: filepath.Join(t.TempDir(), "state")}
	return x
}

// grow records a hand and signs a checkpoint of the larger tree.
func (x *witnessed) grow(t *testing.T, number int) {
	t.Helper()
	record(t, x.l, "t1", number, 1)
	if err := x.k.Sync(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := x.k.Checkpoint(t.Context()); err != nil {
		t.Fatal(err)
	}
}

func (x *witnessed) get(t *testing.T) []byte {
	t.Helper()
	resp, err := x.srv.Client().Get(x.srv.URL + "/checkpoint")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET /checkpoint: %d %s", resp.StatusCode, b)
	}
	return b
}

// post posts body to /tlog/cosignature with the content type and headers given.
func (x *witnessed) post(t *testing.T, body []byte, ctype string, headers ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", x.srv.URL+"/tlog/cosignature", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := x.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// cosign co-signs the log's latest checkpoint as the witness, without posting it.
func (x *witnessed) cosign(t *testing.T) []byte {
	t.Helper()
	latest, err := x.k.Store().Latest(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	n, err := note.Open(latest, note.VerifierList(mustVerifier(t, x.logKey)))
	if err != nil {
		t.Fatal(err)
	}
	b, err := note.Sign(n, x.cosigner)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// junkLines are n signature lines carrying the witness's name and key hash and random bytes
// for the timestamp and the signature: the lines note.Open never checks after the first.
func junkLines(t *testing.T, c *checkpoint.Cosigner, n int) string {
	t.Helper()
	var b strings.Builder
	for range n {
		raw := binary.BigEndian.AppendUint32(nil, c.KeyHash())
		sig := make([]byte, 8+64)
		rand.Read(sig)
		b.WriteString("— " + c.Name() + " " + base64.StdEncoding.EncodeToString(append(raw, sig...)) + "\n")
	}
	return b.String()
}

// signatureLines counts the signature lines of a signed note.
func signatureLines(signed []byte) int {
	_, sigs, _ := strings.Cut(string(signed), "\n\n")
	n := 0
	for _, l := range strings.Split(sigs, "\n") {
		if strings.HasPrefix(l, "— ") {
			n++
		}
	}
	return n
}
