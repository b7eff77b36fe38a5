package recorder

import (
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/eventfiles"
	"github.com/fechado/fechado/internal/testfiles"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// inProcessAnswer is the server's own answer to a publish whose Nats-Msg-Id an earlier attempt
// still holds as proposed (nats-server's NewJSStreamDuplicateMessageConflictError, API error
// 10158), as it travels on the wire.
func inProcessAnswer(t *testing.T) []byte {
	return answer(t, server.NewJSStreamDuplicateMessageConflictError())
}

// subjectInProcessAnswer is the leader's answer to a publish expecting its subject's last sequence
// while another publish on the subject is proposed but not stored (nats-server's
// NewJSStreamWrongLastSequenceConstantError, API error 10164), as it travels on the wire.
func subjectInProcessAnswer(t *testing.T) []byte {
	return answer(t, server.NewJSStreamWrongLastSequenceConstantError())
}

// answer is the server's answer to a publish that it refuses with e, as it travels on the wire.
func answer(t *testing.T, e *server.ApiError) []byte {
	t.Helper()
	b, err := json.Marshal(server.JSPubAckResponse{Error: e})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// answerError decodes the error of a server's answer to a publish.
func answerError(t *testing.T, b []byte) *jetstream.APIError {
	t.Helper()
	var resp struct {
		Error *jetstream.APIError `json:"error"`
	}
	if err := json.Unmarshal(b, &resp); err != nil || resp.Error == nil {
		t.Fatalf("decoding the server's answer: %v %+v", err, resp)
	}
	return resp.Error
}

func TestMsgIDInProcessIsRetryable(t *testing.T) {
	inProcess, subject := answerError(t, inProcessAnswer(t)), answerError(t, subjectInProcessAnswer(t))
	cases := []struct {
		name      string
		err       error
		retry     bool
		attempts  int
		inProcess bool
	}{
		{"duplicate message id is in process (10158)", inProcess, true, maxInProcessAttempts, true},
		{"the subject is in process (10164): retried in doubt, then settled", subject, true, maxInProcessAttempts, false},
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

// fakeStreamLog returns a Log on a server without JetStream, whose answers to publishes the test
// gives itself by subscribing to the subjects, and its connection.
func fakeStreamLog(t *testing.T) (*Log, *nats.Conn) {
	t.Helper()
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
	return l, nc
}

// TestPublishRetriesMsgIDInProcess answers an append twice with the server's "duplicate message
// id is in process", then acknowledges it: the publish must wait and try again with the same
// Nats-Msg-Id and expectation, and report that an earlier attempt may have been stored. The same
// holds when the server answers that the hand's subject is in process (10164), which it does
// for an earlier attempt whose id has left the de-duplication window.
func TestPublishRetriesMsgIDInProcess(t *testing.T) {
	t.Run("10158", func(t *testing.T) { publishRetriesInProcess(t, inProcessAnswer(t)) })
	t.Run("10164", func(t *testing.T) { publishRetriesInProcess(t, subjectInProcessAnswer(t)) })
}

func publishRetriesInProcess(t *testing.T, refusal []byte) {
	l, nc := fakeStreamLog(t)

	var tries atomic.Int32
	var mu sync.Mutex
	var ids, expects []string
	_, err := nc.Subscribe(Subject("t", "h"), func(m *nats.Msg) {
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

// TestRecorderRetriesMsgIDInProcess answers the bulk Recorder's first event of a hand (on its
// pipelined fast path) twice with the server's "duplicate message id is in process", as a
// replicated stream does during an election, and then the same with the hand's subject in
// process (10164): the hand must still be appended whole, the event sent again with the same
// Nats-Msg-Id and expectation, and nothing reported as an error.
func TestRecorderRetriesMsgIDInProcess(t *testing.T) {
	t.Run("10158", func(t *testing.T) { recorderRetriesInProcess(t, inProcessAnswer(t)) })
	t.Run("10164", func(t *testing.T) { recorderRetriesInProcess(t, subjectInProcessAnswer(t)) })
}

func recorderRetriesInProcess(t *testing.T, refusal []byte) {
	l, nc := fakeStreamLog(t)

	var hand []*events.Event
	for _, e := range eventfiles.Read(t, testfiles.File(t, "vectors", "table-br-fechado.jsonl"), 0) {
		if len(hand) > 0 && e.Hand != hand[0].Hand {
			break
		}
		hand = append(hand, e)
	}
	subject := Subject(hand[0].Table, hand[0].Hand)
	var mu sync.Mutex
	tries := map[string]int{}        // Msg-Id → publishes seen
	expects := map[string][]string{} // Msg-Id → the expectation of each
	var seq uint64
	_, err := nc.Subscribe(subject, func(m *nats.Msg) {
		mu.Lock()
		defer mu.Unlock()
		id := m.Header.Get(jetstream.MsgIDHeader)
		tries[id]++
		expects[id] = append(expects[id], m.Header.Get(jetstream.ExpectedLastSubjSeqHeader))
		if id == hand[0].ID && tries[id] <= 2 {
			m.Respond(refusal)
			return
		}
		seq++
		m.Respond(fmt.Appendf(nil, `{"stream":"FECHADO_HANDS","seq":%d}`, seq))
	})
	if err != nil {
		t.Fatal(err)
	}
	r := l.NewRecorder(t.Context(), RecordOptions{Window: 4})
	for _, e := range hand {
		if err := r.Add(e, "", 0); err != nil {
			t.Fatal(err)
		}
	}
	st, err := r.Close()
	if err != nil || st.Appended != int64(len(hand)) || st.Rejected != 0 {
		t.Fatalf("stats %+v, error %v; want %d events appended", st, err, len(hand))
	}
	mu.Lock()
	defer mu.Unlock()
	if n := tries[hand[0].ID]; n != 3 {
		t.Errorf("the first event was published %d times, want 3", n)
	}
	for _, x := range expects[hand[0].ID] {
		if x != "0" {
			t.Errorf("the first event was retried expecting %q, want 0", x)
		}
	}
}
