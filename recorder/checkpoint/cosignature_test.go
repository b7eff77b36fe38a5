package checkpoint_test

import (
	"encoding/base64"
	"strings"
	"sync"
	"testing"

	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/checkpoint"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/nats-io/nats.go/jetstream"
)

// The flood of the security review: a real co-signature, then the served checkpoint posted
// again with 98 random lines carrying the witness's name and key hash, twice, with no
// credentials. Nothing of it is stored, /checkpoint still opens with one co-signature of the
// witness, and the witness's next round works; a co-signature posted with the junk after it
// is stored alone.
func TestCosignatureFloodStoresOnlyVerifiedLines(t *testing.T) {
	x := newWitnessed(t)
	if st, err := x.w.Round(t.Context()); err != nil || !st.Cosigned {
		t.Fatalf("first round: %+v %v", st, err)
	}
	flood := append(x.get(t), junkLines(t, x.cosigner, 98)...)
	for range 2 {
		code, body := x.post(t, flood, checkpoint.CosignatureContentType)
		if code != 200 || !strings.HasPrefix(body, "0 co-signatures of tree size 10 stored") {
			t.Fatalf("the flood: %d %s", code, body)
		}
	}
	served := x.get(t)
	if n := signatureLines(served); n != 2 {
		t.Fatalf("/checkpoint carries %d signature lines, want the log's and the witness's:\n%s", n, served)
	}
	if s, err := checkpoint.OpenSigned(served, x.logKey, x.wkey); err != nil || len(s.Witnesses) != 1 {
		t.Fatalf("/checkpoint after the flood: %v %+v", err, s)
	}
	x.grow(t, 3)
	if st, err := x.w.Round(t.Context()); err != nil || !st.Cosigned || st.New != 15 {
		t.Fatalf("the witness's round after the flood: %+v %v", st, err)
	}

	// A fresh co-signature with the junk after it: note.Open checks the first line of the key
	// only; the junk behind it is not stored.
	x.grow(t, 4)
	code, body := x.post(t, append(x.cosign(t), junkLines(t, x.cosigner, 98)...), checkpoint.CosignatureContentType)
	if code != 200 || !strings.HasPrefix(body, "1 co-signature of tree size 20 stored") {
		t.Fatalf("a co-signature followed by junk: %d %s", code, body)
	}
	if lines, _ := x.k.Store().Cosignatures(t.Context(), 20); len(lines) != 1 {
		t.Fatalf("%d lines stored for size 20, want 1", len(lines))
	}
	// Junk alone (no line of the key verifies) is refused and stores nothing.
	x.grow(t, 5)
	latest, _ := x.k.Store().Latest(t.Context())
	if code, body := x.post(t, append(latest, junkLines(t, x.cosigner, 5)...), checkpoint.CosignatureContentType); code != 403 {
		t.Fatalf("junk alone: %d %s", code, body)
	}
	if lines, _ := x.k.Store().Cosignatures(t.Context(), 25); len(lines) != 0 {
		t.Fatalf("%d lines stored for size 25 from junk", len(lines))
	}
}

// A witness that posts again (the same line, or a new co-signature of the same tree size: its
// state file was lost) is told so, and nothing more is stored: one line per witness key and
// tree size.
func TestPostingACosignatureTwiceStoresItOnce(t *testing.T) {
	x := newWitnessed(t)
	if st, err := x.w.Round(t.Context()); err != nil || !st.Cosigned {
		t.Fatalf("first round: %+v %v", st, err)
	}
	again := mustRead(t, x.w.State) // the very body the witness posted
	other := x.cosign(t)            // another co-signature by the same key of the same size
	for _, body := range [][]byte{again, other, again} {
		code, answer := x.post(t, body, checkpoint.CosignatureContentType)
		if code != 200 || !strings.HasPrefix(answer, "0 co-signatures of tree size 10 stored") || !strings.Contains(answer, "already") {
			t.Fatalf("posted again: %d %s", code, answer)
		}
	}
	if n := subjectMessages(t, x.l, checkpoint.CosignaturePrefix+"10"); n != 1 {
		t.Fatalf("%d messages stored for the co-signatures of size 10, want 1", n)
	}
	if n := signatureLines(x.get(t)); n != 2 {
		t.Fatalf("/checkpoint carries %d signature lines, want 2", n)
	}
	// Eight posts at once of the next checkpoint's co-signature: one is stored.
	x.grow(t, 3)
	body := x.cosign(t)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if code, answer := x.post(t, body, checkpoint.CosignatureContentType); code != 200 {
				t.Errorf("a post at once: %d %s", code, answer)
			}
		})
	}
	wg.Wait()
	if n := subjectMessages(t, x.l, checkpoint.CosignaturePrefix+"15"); n != 1 {
		t.Fatalf("%d messages stored for the co-signatures of size 15 by eight posts at once, want 1", n)
	}
}

// subjectMessages is the number of messages of the checkpoint stream on subject.
func subjectMessages(t *testing.T, l *recorder.Log, subject string) uint64 {
	t.Helper()
	st, err := l.JetStream().Stream(t.Context(), checkpoint.StreamName)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(t.Context(), jetstream.WithSubjectFilter(subject))
	if err != nil {
		t.Fatal(err)
	}
	return info.State.Subjects[subject]
}

// Whatever the stream holds for a tree size (lines stored before this rule, or published to
// the stream directly by a user who may), /checkpoint serves the log's signature and, of each
// allowed witness, its first line that verifies: never more than note.Open reads.
func TestServedCheckpointStaysOpenableWhateverTheStreamHolds(t *testing.T) {
	x := newWitnessed(t)
	js := recordertest.JetStream(t, x.l)
	subject := checkpoint.CosignaturePrefix + "10"
	publish := func(lines string) {
		for _, l := range strings.SplitAfter(lines, "\n") {
			if l == "" {
				continue
			}
			if _, err := js.Publish(t.Context(), subject, []byte(l)); err != nil {
				t.Fatal(err)
			}
		}
	}
	publish(junkLines(t, x.cosigner, 120))
	publish("— someone.else " + base64.StdEncoding.EncodeToString(make([]byte, 76)) + "\n")
	cosigned := x.cosign(t)
	_, sigs, _ := strings.Cut(string(cosigned), "\n\n")
	publish(sigs[strings.Index(sigs, "— witness.example/w1 "):])
	publish(junkLines(t, x.cosigner, 20))

	served := x.get(t)
	if n := signatureLines(served); n != 2 {
		t.Fatalf("/checkpoint carries %d signature lines, want 2:\n%s", n, served)
	}
	if s, err := checkpoint.OpenSigned(served, x.logKey, x.wkey); err != nil || len(s.Witnesses) != 1 {
		t.Fatalf("/checkpoint: %v %+v", err, s)
	}
	// The witness follows the log again.
	if st, err := x.w.Round(t.Context()); err != nil || !st.Cosigned {
		t.Fatalf("the witness's round: %+v %v", st, err)
	}
}
