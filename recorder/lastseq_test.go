package recorder_test

import (
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
)

// TestLastSeqFollowsEveryAppend appends by three paths — the embedded log's Append, a second log
// on the same server over TCP (external: it asks the stream info), and a client of the test's
// own publishing straight to a hand's subject, as another process would — and checks after each
// acknowledged append that LastSeq of both logs is the stream's last sequence as a stream info
// request gives it, and the number of messages appended: the embedded log's read of the
// server's state misses no append and counts none twice.
func TestLastSeqFollowsEveryAppend(t *testing.T) {
	t.Parallel()
	emb := recordertest.OpenOptions(t, recorder.Options{DataDir: t.TempDir(), Listen: "127.0.0.1:0"})
	ext := recordertest.OpenOptions(t, recorder.Options{URLs: []string{emb.ClientURL()}})
	js := recordertest.JetStream(t, emb)
	stream, err := js.Stream(ctx(t), recorder.StreamName)
	if err != nil {
		t.Fatal(err)
	}
	var appended uint64
	check := func(how string) {
		t.Helper()
		info, err := stream.Info(ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		if info.State.LastSeq != appended {
			t.Fatalf("after %d appends (%s) the stream's last sequence is %d", appended, how, info.State.LastSeq)
		}
		for name, l := range map[string]*recorder.Log{"embedded": emb, "external": ext} {
			got, err := l.LastSeq(ctx(t))
			if err != nil {
				t.Fatalf("%s LastSeq: %v", name, err)
			}
			if got != appended {
				t.Errorf("%s LastSeq = %d after %d appends (%s)", name, got, appended, how)
			}
		}
		// The embedded log read the server's state, and did not fall back to the request.
		if got, ok := recorder.EmbeddedLastSeq(emb); !ok || got != appended {
			t.Errorf("the embedded server's state says %d, %v after %d appends (%s)", got, ok, appended, how)
		}
		if _, ok := recorder.EmbeddedLastSeq(ext); ok {
			t.Error("an external log read a server's state in this process")
		}
	}
	check("none")
	for i, ev := range recordertest.Hand(t, "t-last", 1, 2) {
		if _, err := emb.Append(ctx(t), ev); err != nil {
			t.Fatal(err)
		}
		appended++
		if i%2 == 0 {
			check("embedded Append")
		}
	}
	for _, ev := range recordertest.Hand(t, "t-last", 2, 2) {
		if _, err := ext.Append(ctx(t), ev); err != nil {
			t.Fatal(err)
		}
		appended++
		check("external Append")
	}
	other := recordertest.Hand(t, "t-other", 1, 3)
	for _, ev := range other {
		if _, err := js.Publish(ctx(t), recorder.Subject(ev.Table, ev.Hand), ev.Raw, jetstream.WithMsgID(ev.ID)); err != nil {
			t.Fatal(err)
		}
		appended++
		check("another client's publish")
	}
	// A message the server de-duplicates (its id again) is stored once: the count does not move.
	ack, err := js.Publish(ctx(t), recorder.Subject(other[0].Table, other[0].Hand), other[0].Raw, jetstream.WithMsgID(other[0].ID))
	if err != nil || !ack.Duplicate {
		t.Fatalf("publishing an event again: %+v, %v; want a duplicate", ack, err)
	}
	check("a repeated publish")
}

// BenchmarkLastSeq is what one read of the stream's last sequence costs embedded: from the
// server's state (LastSeq) against the stream info request it replaces (the external way).
func BenchmarkLastSeq(b *testing.B) {
	l := recordertest.Open(b)
	c := ctx(b)
	for _, ev := range recordertest.Hand(b, "t-bench", 1, 2) {
		if _, err := l.Append(c, ev); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("state", func(b *testing.B) {
		for b.Loop() {
			if _, err := l.LastSeq(c); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("info-request", func(b *testing.B) {
		for b.Loop() {
			if _, err := l.Stream().Info(c); err != nil {
				b.Fatal(err)
			}
		}
	})
}
