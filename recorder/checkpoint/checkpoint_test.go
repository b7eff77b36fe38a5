package checkpoint_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/checkpoint"
	"github.com/fechado/fechado/recorder/recordertest"
	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// record appends hands of table to l and returns them.
func record(t *testing.T, l *recorder.Log, table string, from, hands int) [][]*events.Event {
	t.Helper()
	var out [][]*events.Event
	for i := range hands {
		h := recordertest.Hand(t, table, from+i, 2)
		for _, e := range h {
			if _, err := l.Append(t.Context(), e); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, h)
	}
	return out
}

func newSigner(t *testing.T, name string) (*checkpoint.Signer, string) {
	t.Helper()
	skey, vkey, err := checkpoint.GenerateKey(name, false)
	if err != nil {
		t.Fatal(err)
	}
	s, err := checkpoint.NewSigner(skey)
	if err != nil {
		t.Fatal(err)
	}
	return s, vkey
}

func TestTreeRebuiltFromTheLogHasTheSameRoot(t *testing.T) {
	l := recordertest.Open(t)
	record(t, l, "t1", 1, 5)
	dir := t.TempDir()
	k, err := checkpoint.Open(t.Context(), l, checkpoint.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	n := k.Tree().Size()
	if n != 5*5 {
		t.Fatalf("tree has %d leaves, want 25 (5 hands of 5 events)", n)
	}
	root, err := k.Tree().Root(n)
	if err != nil {
		t.Fatal(err)
	}
	k.Close()
	if err := os.Remove(filepath.Join(dir, checkpoint.TreeFile)); err != nil {
		t.Fatal(err)
	}
	k, err = checkpoint.Open(t.Context(), l, checkpoint.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	again, err := k.Tree().Root(n)
	if err != nil || again != root {
		t.Fatalf("rebuilt root %v (%v), want %v", again, err, root)
	}
	mem, err := checkpoint.Build(t.Context(), l)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := mem.Root(n); r != root {
		t.Fatalf("tree read from the log has root %v, the kept one %v", r, root)
	}
	// Leaf 0 is the first stored event's bytes, hashed as RFC 6962 hashes a leaf.
	var first []byte
	l.ReadRaw(t.Context(), 1, func(_ uint64, data []byte) error { first = data; return recorder.ErrStop })
	if h, _ := k.Tree().LeafHash(0); h != tlog.RecordHash(first) {
		t.Fatal("leaf 0 is not the hash of stream message 1")
	}
}

func TestTornTreeFileIsCutBackToTheLastWholeLeaf(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tree")
	tr, err := checkpoint.OpenTree(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 7 {
		tr.Append([]byte(fmt.Sprint(i)))
	}
	root, _ := tr.Root(7)
	tr.Close()
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.Write(bytes.Repeat([]byte{1}, 40)) // a leaf's hashes half written
	f.Close()
	tr, err = checkpoint.OpenTree(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if got, _ := tr.Root(7); tr.Size() != 7 || got != root {
		t.Fatalf("after a torn write: %d leaves, root %v; want 7, %v", tr.Size(), got, root)
	}
}

func TestTreeOfAnotherLogIsMovedAsideAndRebuilt(t *testing.T) {
	dir := t.TempDir()
	a := recordertest.Open(t)
	record(t, a, "t1", 1, 2)
	k, err := checkpoint.Open(t.Context(), a, checkpoint.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	k.Close()
	b := recordertest.Open(t)
	record(t, b, "t1", 1, 3)
	var aside string
	k, err = checkpoint.Open(t.Context(), b, checkpoint.Options{Dir: dir, OnReplaced: func(p string, _ error) { aside = p }})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	if aside == "" {
		t.Fatal("the other log's tree was not moved aside")
	}
	if _, err := os.Stat(aside); err != nil {
		t.Fatal(err)
	}
	mem, _ := checkpoint.Build(t.Context(), b)
	want, _ := mem.Root(mem.Size())
	if got, _ := k.Tree().Root(k.Tree().Size()); got != want {
		t.Fatal("the tree was not rebuilt from the log it now follows")
	}
}

func TestHandProofVerifiesAndAnyChangedByteFails(t *testing.T) {
	l := recordertest.Open(t)
	hands := record(t, l, "t1", 1, 4)
	signer, vkey := newSigner(t, "test.example/log")
	k, err := checkpoint.Open(t.Context(), l, checkpoint.Options{Dir: t.TempDir(), Signer: signer, CreateStore: true})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	s, fresh, err := k.Checkpoint(t.Context())
	if err != nil || !fresh || s.Size != 20 {
		t.Fatalf("checkpoint %+v fresh %v: %v", s, fresh, err)
	}
	evs, err := k.ReadHand(t.Context(), "", hands[2][0].Hand)
	if err != nil {
		t.Fatal(err)
	}
	latest, err := k.Covering(t.Context(), evs[len(evs)-1].Seq)
	if err != nil {
		t.Fatal(err)
	}
	p, err := k.ProveHand(latest, evs)
	if err != nil {
		t.Fatal(err)
	}
	if _, got, err := p.Verify(vkey); err != nil || len(got) != 5 {
		t.Fatalf("the proof does not verify: %v", err)
	}
	// One byte of one event changed: its leaf no longer hashes into the signed root.
	p.Events[3].Data = bytes.Replace(p.Events[3].Data, []byte(`"amount":5`), []byte(`"amount":6`), 1)
	if _, _, err := p.Verify(vkey); err == nil || !strings.Contains(err.Error(), "not in the signed log") {
		t.Fatalf("a changed event verified: %v", err)
	}
	_, otherKey := newSigner(t, "test.example/log")
	p, _ = k.ProveHand(latest, evs)
	if _, _, err := p.Verify(otherKey); err == nil {
		t.Fatal("the proof verified with another key of the same name")
	}
	// Another checkpoint of the same size is not signed again: the stored one stays.
	if again, fresh, err := k.Checkpoint(t.Context()); err != nil || fresh || string(again.Note) != string(s.Note) {
		t.Fatalf("second checkpoint of the same size: fresh %v, %v", fresh, err)
	}
}

func TestStoredCheckpointIsNotReplaced(t *testing.T) {
	l := recordertest.Open(t)
	record(t, l, "t1", 1, 1)
	st, err := checkpoint.OpenStore(t.Context(), l, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Put(t.Context(), 5, []byte("first\n")); err != nil {
		t.Fatal(err)
	}
	if err := st.Put(t.Context(), 5, []byte("second\n")); !errors.Is(err, checkpoint.ErrExists) {
		t.Fatalf("a second checkpoint of size 5 was stored: %v", err)
	}
	if got, _ := st.At(t.Context(), 5); string(got) != "first\n" {
		t.Fatalf("size 5 holds %q", got)
	}
	// The application user may not purge the checkpoints either.
	js, err := l.JetStream().Stream(context.Background(), checkpoint.StreamName)
	if err != nil {
		t.Fatal(err)
	}
	// A denied request gets no answer: a short wait is enough to see it refused.
	ctx, cancel := context.WithTimeout(t.Context(), 500*time.Millisecond)
	defer cancel()
	if err := js.Purge(ctx); err == nil {
		t.Fatal("the application user purged the checkpoint stream")
	}
	ctx2, cancel2 := context.WithTimeout(t.Context(), 500*time.Millisecond)
	defer cancel2()
	if err := l.JetStream().DeleteStream(ctx2, checkpoint.StreamName); err == nil {
		t.Fatal("the application user deleted the checkpoint stream")
	}
}

func TestCosignatureFollowsC2SP(t *testing.T) {
	skey, vkey, err := checkpoint.GenerateKey("witness.example/w1", true)
	if err != nil {
		t.Fatal(err)
	}
	c, err := checkpoint.NewCosigner(skey)
	if err != nil {
		t.Fatal(err)
	}
	if c.VerifierKey() != vkey {
		t.Fatal("the cosigner's verifier key is not the one keygen printed")
	}
	logSigner, logKey := newSigner(t, "test.example/log")
	cp := checkpoint.Checkpoint{Origin: "test.example/log", Size: 3, Hash: tlog.RecordHash([]byte("x"))}
	signed, err := checkpoint.Sign(cp, logSigner)
	if err != nil {
		t.Fatal(err)
	}
	if s, err := checkpoint.OpenSigned(signed, logKey, vkey); err != nil || len(s.Witnesses) != 0 {
		t.Fatalf("%v %+v", err, s)
	}
	n, err := note.Open(signed, note.VerifierList(mustVerifier(t, logKey)))
	if err != nil {
		t.Fatal(err)
	}
	c.Now = func() time.Time { return time.Unix(1679315147, 0) }
	cosigned, err := note.Sign(n, c)
	if err != nil {
		t.Fatal(err)
	}
	s, err := checkpoint.OpenSigned(cosigned, logKey, vkey)
	if err != nil || len(s.Witnesses) != 1 || s.Witnesses[0].Time.Unix() != 1679315147 {
		t.Fatalf("the co-signature does not verify: %v %+v", err, s)
	}
	// The signature line is base64(key ID || u64 timestamp || Ed25519 signature), the key ID
	// SHA-256(name || "\n" || 0x04 || public key)[:4], and the signed message
	// "cosignature/v1\ntime <t>\n" followed by the checkpoint's body (C2SP tlog-cosignature).
	line := strings.TrimPrefix(strings.Split(string(cosigned), "\n")[5], "— witness.example/w1 ")
	raw, _ := base64.StdEncoding.DecodeString(line)
	pub, _ := base64.StdEncoding.DecodeString(strings.SplitN(vkey, "+", 3)[2])
	id := sha256.Sum256(append([]byte("witness.example/w1\n"), pub...))
	if len(raw) != 4+8+64 || !bytes.Equal(raw[:4], id[:4]) || binary.BigEndian.Uint64(raw[4:12]) != 1679315147 {
		t.Fatalf("signature line %x", raw)
	}
	msg := "cosignature/v1\ntime 1679315147\n" + cp.Text()
	if !ed25519.Verify(pub[1:], []byte(msg), raw[12:]) {
		t.Fatal("the signature is not over the cosignature/v1 message")
	}
	// A co-signature whose time was changed does not verify.
	binary.BigEndian.PutUint64(raw[4:12], 1679315148)
	forged := strings.Replace(string(cosigned), line, base64.StdEncoding.EncodeToString(raw), 1)
	if s, err := checkpoint.OpenSigned([]byte(forged), logKey, vkey); err == nil && len(s.Witnesses) > 0 {
		t.Fatal("a co-signature with another time verified")
	}
}

func mustVerifier(t *testing.T, vkey string) note.Verifier {
	t.Helper()
	v, err := note.NewVerifier(vkey)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestWitnessCosignsGrowthAndRefusesAFork(t *testing.T) {
	l := recordertest.Open(t)
	record(t, l, "t1", 1, 2)
	signer, logKey := newSigner(t, "test.example/log")
	wskey, wvkey, _ := checkpoint.GenerateKey("witness.example/w1", true)
	cosigner, _ := checkpoint.NewCosigner(wskey)
	k, err := checkpoint.Open(t.Context(), l, checkpoint.Options{Dir: t.TempDir(), Signer: signer, CreateStore: true, Witnesses: []string{wvkey}})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	srv := httptest.NewServer(k.Handler())
	defer srv.Close()
	if _, _, err := k.Checkpoint(t.Context()); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(t.TempDir(), "witness-state")
	w := &checkpoint.Witness{Log: srv.URL, LogKey: logKey, Signer: cosigner, State: state}
	if st, err := w.Round(t.Context()); err != nil || !st.Cosigned || st.New != 10 {
		t.Fatalf("first round: %+v %v", st, err)
	}
	if st, err := w.Round(t.Context()); err != nil || st.Cosigned {
		t.Fatalf("a round with nothing new co-signed again: %+v %v", st, err)
	}
	record(t, l, "t1", 3, 1)
	if err := k.Sync(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := k.Checkpoint(t.Context()); err != nil {
		t.Fatal(err)
	}
	if st, err := w.Round(t.Context()); err != nil || !st.Cosigned || st.Old != 10 || st.New != 15 {
		t.Fatalf("round after growth: %+v %v", st, err)
	}
	// The log publishes its co-signatures with the checkpoint.
	latest, _ := k.Store().Latest(t.Context())
	withCos, _ := k.Store().WithCosignatures(t.Context(), latest, []string{wvkey})
	if s, err := checkpoint.OpenSigned(withCos, logKey, wvkey); err != nil || len(s.Witnesses) != 1 {
		t.Fatalf("published checkpoint: %v, %+v", err, s)
	}

	// A forked log: the same key signs a tree of other events (a hand left out).
	f := recordertest.Open(t)
	record(t, f, "t1", 1, 4)
	fk, err := checkpoint.Open(t.Context(), f, checkpoint.Options{Dir: t.TempDir(), Signer: signer, CreateStore: true, Witnesses: []string{wvkey}})
	if err != nil {
		t.Fatal(err)
	}
	defer fk.Close()
	if _, _, err := fk.Checkpoint(t.Context()); err != nil {
		t.Fatal(err)
	}
	fsrv := httptest.NewServer(fk.Handler())
	defer fsrv.Close()
	w.Log = fsrv.URL
	st, err := w.Round(t.Context())
	if !errors.Is(err, checkpoint.ErrFork) || st.Cosigned {
		t.Fatalf("the witness co-signed a forked log: %+v %v", st, err)
	}
	if _, err := os.Stat(st.Evidence); err != nil {
		t.Fatalf("no evidence of the fork: %v", err)
	}
	if s, _ := checkpoint.OpenSigned(mustRead(t, state), logKey, wvkey); s == nil || s.Size != 15 {
		t.Fatal("the witness's state moved to the forked log")
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRunSignsEveryNEventsAndServesTheLatest(t *testing.T) {
	l := recordertest.Open(t)
	signer, vkey := newSigner(t, "test.example/log")
	k, err := checkpoint.Open(t.Context(), l, checkpoint.Options{Dir: t.TempDir(), Signer: signer, CreateStore: true, Every: 10, Interval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	ctx, cancel := context.WithCancel(t.Context())
	signed := make(chan int64, 16)
	done := make(chan error, 1)
	go func() { done <- k.Run(ctx, func(s *checkpoint.Signed) { signed <- s.Size }) }()
	wait := func(want int64) {
		t.Helper()
		select {
		case n := <-signed:
			if n != want {
				t.Fatalf("checkpoint of size %d signed, want %d", n, want)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("no checkpoint of size %d", want)
		}
	}
	record(t, l, "t1", 1, 2) // 10 events: the 10th signs
	wait(10)
	record(t, l, "t1", 3, 1) // 15: not yet
	record(t, l, "t1", 4, 1) // 20: the 10th since the last one signs
	wait(20)
	var stored []int64
	k.Store().All(t.Context(), func(size int64, _ []byte) error { stored = append(stored, size); return nil })
	if fmt.Sprint(stored) != "[10 20]" {
		t.Fatalf("stored checkpoints of sizes %v, want [10 20]", stored)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(k.Handler())
	defer srv.Close()
	resp, err := srv.Client().Get(srv.URL + "/checkpoint")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if s, err := checkpoint.OpenSigned(body, vkey); err != nil || s.Size != 20 {
		t.Fatalf("GET /checkpoint: %v %q", err, body)
	}
	// A tile of the tree as the Go checksum database serves them: level 0, the first 20 hashes.
	resp, err = srv.Client().Get(srv.URL + "/tile/8/0/000.p/20")
	if err != nil {
		t.Fatal(err)
	}
	tile, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if h, _ := k.Tree().LeafHash(19); len(tile) != 20*tlog.HashSize || !bytes.Equal(tile[19*tlog.HashSize:], h[:]) {
		t.Fatalf("tile: %d bytes", len(tile))
	}
	// The proof of a hand that has not ended is not given (its face-down cards are in it).
	h := recordertest.Hand(t, "t1", 9, 2)
	for _, e := range h[:len(h)-1] {
		l.Append(t.Context(), e)
	}
	resp, _ = srv.Client().Get(srv.URL + "/tlog/proof/inclusion?hand=" + h[0].Hand)
	resp.Body.Close()
	if resp.StatusCode != 409 {
		t.Fatalf("proof of a hand in progress: %d, want 409", resp.StatusCode)
	}
}

func TestAStrayCosignatureLineDoesNotSpoilTheCheckpoint(t *testing.T) {
	l := recordertest.Open(t)
	record(t, l, "t1", 1, 1)
	signer, vkey := newSigner(t, "test.example/log")
	k, err := checkpoint.Open(t.Context(), l, checkpoint.Options{Dir: t.TempDir(), Signer: signer, CreateStore: true})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	s, _, err := k.Checkpoint(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	// The application user may publish to the stream directly, past POST /tlog/cosignature.
	_, wkey, _ := checkpoint.GenerateKey("w1", true)
	for _, junk := range []string{"not a signature\n", "— w1 !!!\n", "— w1 AAAA\n— w2 AAAA\n"} {
		if _, err := l.JetStream().Publish(t.Context(), checkpoint.CosignaturePrefix+fmt.Sprint(s.Size), []byte(junk)); err != nil {
			t.Fatal(err)
		}
	}
	withCos, err := k.Store().WithCosignatures(t.Context(), s.Note, []string{wkey})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := checkpoint.OpenSigned(withCos, vkey); err != nil || !bytes.Equal(withCos, s.Note) {
		t.Fatalf("the served checkpoint: %v\n%s", err, withCos)
	}
}

// Without a tree of the old log, the checkpoints stored beside the log (a stream an
// administrator who replaced the hands' stream left in place) bracket the first difference.
func TestVerifySinceBracketsTheDifferenceWithStoredCheckpoints(t *testing.T) {
	signer, vkey := newSigner(t, "test.example/log")
	old := recordertest.Open(t)
	h1, h2 := recordertest.Hand(t, "t1", 1, 0), recordertest.Hand(t, "t1", 2, 0) // 3 events each
	h3, h4 := recordertest.Hand(t, "t1", 3, 0), recordertest.Hand(t, "t1", 4, 0)
	appendAll := func(l *recorder.Log, hands ...[]*events.Event) {
		for _, h := range hands {
			for _, e := range h {
				if _, err := l.Append(t.Context(), e); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	ko, err := checkpoint.Open(t.Context(), old, checkpoint.Options{Dir: t.TempDir(), Signer: signer, CreateStore: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ko.Close()
	var signed [][]byte
	for _, hs := range [][][]*events.Event{{h1}, {h2}, {h3, h4}} {
		appendAll(old, hs...)
		if err := ko.Sync(t.Context()); err != nil {
			t.Fatal(err)
		}
		s, _, err := ko.Checkpoint(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		signed = append(signed, s.Note) // sizes 3, 6, 12
	}
	// Today's log: the same first two hands, then another third hand in place of h3.
	today := recordertest.Open(t)
	appendAll(today, h1, h2, recordertest.Hand(t, "t1", 3, 0), h4)
	st, err := checkpoint.OpenStore(t.Context(), today, true)
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range []int64{3, 6, 12} {
		if err := st.Put(t.Context(), n, signed[i]); err != nil {
			t.Fatal(err)
		}
	}
	r, err := checkpoint.VerifySince(t.Context(), today, signed[2], vkey, nil, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	if r.Consistent || r.Exact || r.After != 6 || r.First != 12 {
		t.Fatalf("got consistent %v exact %v, difference in (%d, %d]; want (6, 12]", r.Consistent, r.Exact, r.After, r.First)
	}
	// Against the checkpoint of size 6, today's log is consistent.
	if r, err := checkpoint.VerifySince(t.Context(), today, signed[1], vkey, nil, 0, ""); err != nil || !r.Consistent || r.Size != 12 {
		t.Fatalf("since size 6: %+v %v", r, err)
	}
}

func TestATreeFileHasOneWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tree")
	a, err := checkpoint.OpenTree(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := checkpoint.OpenTree(path); !errors.Is(err, checkpoint.ErrTreeInUse) {
		t.Fatalf("a second writer of the tree file: %v", err)
	}
	a.Close()
	b, err := checkpoint.OpenTree(path)
	if err != nil {
		t.Fatalf("after the first closed it: %v", err)
	}
	b.Close()
}

// The first checkpoint of a size stays: a log replaced by another of the same size is not signed
// over it, and the keeper says why.
func TestKeeperRefusesToSignOverAnotherTreesCheckpoint(t *testing.T) {
	signer, _ := newSigner(t, "test.example/log")
	old := recordertest.Open(t)
	record(t, old, "t1", 1, 2)
	ko, err := checkpoint.Open(t.Context(), old, checkpoint.Options{Dir: t.TempDir(), Signer: signer, CreateStore: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ko.Close()
	s, _, err := ko.Checkpoint(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	today := recordertest.Open(t)
	record(t, today, "t1", 1, 2) // same size, other events
	kt, err := checkpoint.Open(t.Context(), today, checkpoint.Options{Dir: t.TempDir(), Signer: signer, CreateStore: true})
	if err != nil {
		t.Fatal(err)
	}
	defer kt.Close()
	if err := kt.Store().Put(t.Context(), s.Size, s.Note); err != nil { // the checkpoint stream survived
		t.Fatal(err)
	}
	if _, _, err := kt.Checkpoint(t.Context()); !errors.Is(err, checkpoint.ErrForked) {
		t.Fatalf("signing over another tree's checkpoint: %v", err)
	}
}
