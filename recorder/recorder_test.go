package recorder_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/testfiles"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// vectors returns the example logs of testdata/vectors.
func vectors(t testing.TB) []string {
	t.Helper()
	return testfiles.Glob(t, "vectors/*.jsonl")
}

func ctx(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return c
}

// record appends a file with a Recorder and returns its counts and rejections.
func record(t testing.TB, l *recorder.Log, name string, data []byte) (recorder.Stats, []*recorder.HandError) {
	t.Helper()
	var rejected []*recorder.HandError
	r := l.NewRecorder(ctx(t), recorder.RecordOptions{OnReject: func(he *recorder.HandError) { rejected = append(rejected, he) }})
	if err := r.AddLines(bytes.NewReader(data), name); err != nil {
		t.Fatal(err)
	}
	st, err := r.Close()
	if err != nil {
		t.Fatal(err)
	}
	return st, rejected
}

// exportHands is what export --all writes.
func exportHands(t testing.TB, l *recorder.Log) []byte {
	t.Helper()
	return collect(t, func(fn func(recorder.Stored) error) error { return l.ReadHands(ctx(t), fn) })
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func lines(b []byte) int { return bytes.Count(b, []byte("\n")) }

// Recording a vector and exporting the log gives the file back byte for byte; recording it
// again stores nothing new.
func TestRecordExportRoundTrip(t *testing.T) {
	for _, f := range vectors(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			l := recordertest.Open(t)
			in := readFile(t, f)
			st, rej := record(t, l, filepath.Base(f), in)
			if len(rej) > 0 {
				t.Fatalf("rejected: %v", rej)
			}
			if st.Appended != int64(lines(in)) || st.Skipped != 0 {
				t.Fatalf("first run: %+v, want %d appended", st, lines(in))
			}
			if out := exportHands(t, l); !bytes.Equal(out, in) {
				t.Fatalf("export differs from the input:\n%s", firstDiff(out, in))
			}
			st, rej = record(t, l, filepath.Base(f), in)
			if len(rej) > 0 || st.Appended != 0 || st.Skipped != int64(lines(in)) {
				t.Fatalf("second run: %+v %v, want everything skipped", st, rej)
			}
			rep, err := l.Verify(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			if !rep.OK() || rep.Events != int64(lines(in)) {
				t.Fatalf("verify: %d events, problems %v", rep.Events, rep.Problems)
			}
		})
	}
}

func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(g), len(w)) {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n got %s\nwant %s", i+1, a, b)
		}
	}
	return "no difference"
}

// Deleting or purging history through the NATS API as fechado's user is refused, and so is a
// stream update that would let limits evict events, and creating a stream (a disk filled, or a
// log re-created empty under its name: only the set-up creates streams), by its API or by a
// restore, and taking a replica away.
func TestHistoryCannotBeRemoved(t *testing.T) {
	t.Parallel() // waits on timeouts, on a log of its own
	l := recordertest.Open(t)
	in := readFile(t, vectors(t)[0])
	record(t, l, "v", in)
	// A connection of fechado's user (the embedded server's no-credentials user), whose
	// asynchronous errors the test watches for the server's permission violations.
	violations := make(chan string, 16)
	js := recordertest.JetStream(t, l, nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		violations <- err.Error()
	}))
	st, err := js.Stream(ctx(t), recorder.StreamName)
	if err != nil {
		t.Fatal(err)
	}
	lower := recorder.StreamConfig(1)
	lower.MaxMsgsPerSubject = 1
	expire := recorder.StreamConfig(1)
	expire.MaxAge = time.Hour
	evil := jetstream.StreamConfig{Name: "EVIL2", Subjects: []string{"evil.>"}}
	restoreBody, err := json.Marshal(map[string]any{"config": map[string]any{"name": "EVIL3", "subjects": []string{"evil3.>"}, "storage": "file"},
		"state": map[string]any{"messages": 0}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, api string
		do        func(context.Context) error
	}{
		{"stream create", "$JS.API.STREAM.CREATE.EVIL2", func(c context.Context) error { _, err := js.CreateStream(c, evil); return err }},
		{"stream delete", "$JS.API.STREAM.DELETE.", func(c context.Context) error { return js.DeleteStream(c, recorder.StreamName) }},
		{"purge", "$JS.API.STREAM.PURGE.", func(c context.Context) error { return st.Purge(c) }},
		{"message delete", "$JS.API.STREAM.MSG.DELETE.", func(c context.Context) error { return st.DeleteMsg(c, 1) }},
		{"secure message delete", "$JS.API.STREAM.MSG.DELETE.", func(c context.Context) error { return st.SecureDeleteMsg(c, 2) }},
		{"update lowering max_msgs_per_subject", "$JS.API.STREAM.UPDATE.", func(c context.Context) error { _, err := js.UpdateStream(c, lower); return err }},
		{"update setting max_age", "$JS.API.STREAM.UPDATE.", func(c context.Context) error { _, err := js.UpdateStream(c, expire); return err }},
		// A restore makes a stream from the snapshot the client sends, with the client's
		// configuration (deletes allowed, no limit): a stream created by another door.
		{"stream restore", "$JS.API.STREAM.RESTORE.EVIL3", func(c context.Context) error {
			_, err := js.Conn().RequestWithContext(c, "$JS.API.STREAM.RESTORE.EVIL3", restoreBody)
			return err
		}},
		{"peer removal", "$JS.API.STREAM.PEER.REMOVE.", func(c context.Context) error {
			_, err := js.Conn().RequestWithContext(c, "$JS.API.STREAM.PEER.REMOVE."+recorder.StreamName, []byte(`{"peer":"n2"}`))
			return err
		}},
	} {
		c, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		err := tc.do(c)
		cancel()
		if err == nil {
			t.Errorf("%s was accepted", tc.name)
			continue
		}
		select {
		case v := <-violations:
			if !strings.Contains(v, "Permissions Violation for Publish to \""+tc.api) || !strings.Contains(tc.api, "EVIL") && !strings.Contains(v, tc.api+recorder.StreamName) {
				t.Errorf("%s: %s", tc.name, v)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("%s failed (%v) without a permission violation", tc.name, err)
		}
	}
	rep, err := l.Verify(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || rep.Events != int64(lines(in)) {
		t.Fatalf("after the attempts: %d events, problems %v", rep.Events, rep.Problems)
	}
}

// With Listen, other processes reach the embedded server on loopback as fechado's user: they
// may append and read, not delete.
func TestListen(t *testing.T) {
	if _, err := recorder.Open(ctx(t), recorder.Options{DataDir: t.TempDir(), Listen: "0.0.0.0:0"}); err == nil {
		t.Fatal("listening beyond loopback was accepted")
	}
	l, err := recorder.Open(ctx(t), recorder.Options{DataDir: t.TempDir(), Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if !strings.HasPrefix(l.ClientURL(), "nats://127.0.0.1:") {
		t.Fatalf("client URL %q", l.ClientURL())
	}
	other, err := recorder.Open(ctx(t), recorder.Options{URLs: []string{l.ClientURL()}})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	h := recordertest.Hand(t, "A", 1, 1)
	for _, e := range h {
		if _, err := other.Append(ctx(t), e); err != nil {
			t.Fatal(err)
		}
	}
	if got := exportHands(t, l); !bytes.Equal(got, recordertest.Lines(h)) {
		t.Fatalf("stored: %s", got)
	}
	c, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if err := other.JetStream().DeleteStream(c, recorder.StreamName); err == nil {
		t.Fatal("a loopback client deleted the stream")
	}
}

// The Recorder chains a hand by prev (events-v1.md §2): a missing prev is filled in with the
// SHA-256 of the line before, so a hand whose prevs were all left out is stored as the same hand
// sealed; a prev that is not that hash, on the first line or further on, rejects the hand.
func TestRecordChecksPrev(t *testing.T) {
	sealed := recordertest.Hand(t, "t-prev", 1, 0)
	var want bytes.Buffer
	for _, e := range sealed {
		want.Write(e.Raw)
		want.WriteByte('\n')
	}
	// linesWith encodes the hand again with change applied to a copy of each event.
	linesWith := func(change func(i int, e *events.Event)) []byte {
		var b bytes.Buffer
		for i, e := range sealed {
			c := *e
			change(i, &c)
			c.Raw = events.Encode(&c)
			if !c.HasPrev { // a producer that leaves prev out writes no key at all
				c.Raw = bytes.Replace(c.Raw, []byte(`,"prev":""`), nil, 1)
			}
			b.Write(c.Raw)
			b.WriteByte('\n')
		}
		return b.Bytes()
	}

	l := recordertest.Open(t)
	unsealed := linesWith(func(_ int, e *events.Event) { e.Prev, e.HasPrev = "", false })
	if st, rej := record(t, l, "unsealed", unsealed); len(rej) > 0 || st.Appended != int64(len(sealed)) {
		t.Fatalf("a hand without prevs: %+v, rejected %v", st, rej)
	}
	if got := exportHands(t, l); !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("the prevs filled in differ from the sealed hand:\n%s", firstDiff(got, want.Bytes()))
	}

	for _, at := range []int{0, 2} {
		l := recordertest.Open(t)
		wrong := linesWith(func(i int, e *events.Event) {
			if i == at {
				e.Prev, e.HasPrev = events.Hash([]byte("another line")), true
			}
		})
		st, rej := record(t, l, "wrong", wrong)
		if st.Appended != 0 || len(rej) != 1 || !strings.Contains(rej[0].Error(), "is not the SHA-256 of the previous line of the hand") {
			t.Fatalf("a wrong prev at line %d: %+v, rejected %v", at+1, st, rej)
		}
	}
}
