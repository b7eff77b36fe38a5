package recorder

import (
	"encoding/json"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// inProcessAnswer is the server's own answer to a publish whose Nats-Msg-Id an earlier attempt
// still holds as proposed (nats-server's NewJSStreamDuplicateMessageConflictError), as it
// travels on the wire.
func inProcessAnswer(t *testing.T) []byte {
	t.Helper()
	b, err := json.Marshal(server.JSPubAckResponse{Error: server.NewJSStreamDuplicateMessageConflictError()})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestMsgIDInProcessIsRetryable(t *testing.T) {
	var resp struct {
		Error *jetstream.APIError `json:"error"`
	}
	if err := json.Unmarshal(inProcessAnswer(t), &resp); err != nil || resp.Error == nil {
		t.Fatalf("decoding the server's answer: %v %+v", err, resp)
	}
	cases := []struct {
		name      string
		err       error
		retry     bool
		attempts  int
		inProcess bool
	}{
		{"duplicate message id is in process (10158)", resp.Error, true, maxInProcessAttempts, true},
		{"wrong last sequence (10071) is settled, not retried", &jetstream.APIError{Code: 400, ErrorCode: jetstream.JSErrCodeStreamWrongLastSequence}, false, maxAttempts, false},
		{"a timeout is retried", nats.ErrTimeout, true, maxAttempts, false},
	}
	for _, c := range cases {
		if got := msgIDInProcess(c.err); got != c.inProcess {
			t.Errorf("%s: msgIDInProcess = %v", c.name, got)
		}
		if got := retryable(c.err); got != c.retry {
			t.Errorf("%s: retryable = %v", c.name, got)
		}
		if got := attemptsFor(c.err); got != c.attempts {
			t.Errorf("%s: attemptsFor = %d", c.name, got)
		}
	}
}

// TestPublishRetriesMsgIDInProcess answers an append twice with the server's "duplicate message
// id is in process", then acknowledges it: the publish must wait and try again with the same
// Nats-Msg-Id and expectation, and report that an earlier attempt may have been stored.
func TestPublishRetriesMsgIDInProcess(t *testing.T) {
	s, err := server.NewServer(&server.Options{DontListen: true, NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	t.Cleanup(s.Shutdown)
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("server did not start")
	}
	nc, err := nats.Connect("", nats.InProcessServer(s))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	l := &Log{opts: Options{Timeout: 2 * time.Second}, nc: nc, js: js}

	refusal := inProcessAnswer(t)
	var tries atomic.Int32
	var mu sync.Mutex
	var ids, expects []string
	_, err = nc.Subscribe(Subject("t", "h"), func(m *nats.Msg) {
		mu.Lock()
		ids = append(ids, m.Header.Get(jetstream.MsgIDHeader))
		expects = append(expects, m.Header.Get(jetstream.ExpectedLastSubjSeqHeader))
		mu.Unlock()
		if tries.Add(1) <= 2 {
			m.Respond(refusal)
			return
		}
		m.Respond([]byte(`{"stream":"FECHADO_HANDS","seq":7}`))
	})
	if err != nil {
		t.Fatal(err)
	}
	e := &events.Event{ID: "0190d0a0-0000-7000-8000-000000000001", Raw: []byte(`{}`)}
	start := time.Now()
	ack, retried, err := l.publish(t.Context(), Subject("t", "h"), e, 6)
	if err != nil {
		t.Fatalf("publish: %v after %d tries", err, tries.Load())
	}
	if ack.Sequence != 7 || !retried || tries.Load() != 3 {
		t.Fatalf("ack %+v, retried %v, %d tries; want seq 7, retried, 3 tries", ack, retried, tries.Load())
	}
	mu.Lock()
	defer mu.Unlock()
	for i := range ids {
		if ids[i] != e.ID || expects[i] != "6" {
			t.Fatalf("try %d sent Msg-Id %q and expectation %q", i+1, ids[i], expects[i])
		}
	}
	if waited := time.Since(start); waited < retryWait(1)+retryWait(2) {
		t.Fatalf("retried after %v, sooner than the back-off", waited)
	}
}
