package recorder

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// TestParseAck checks the hand-read acks against the layouts nats-server writes (stream.go:
// mset.pubAck, then the sequence, then "}" or `,"duplicate": true}`) and that everything else is
// left to encoding/json.
func TestParseAck(t *testing.T) {
	for _, c := range []struct {
		in      string
		seq     uint64
		dup, ok bool
	}{
		{`{"stream":"FECHADO","seq":1}`, 1, false, true},
		{`{"stream":"FECHADO","seq":18446744073709551}`, 18446744073709551, false, true},
		{`{"stream":"KV_fechado-hands","seq":42,"duplicate": true}`, 42, true, true},
		{`{"stream":"FECHADO","seq":42,"duplicate":true}`, 42, true, true},
		// Left to encoding/json: a domain, an error, a batch, spaces, a leading zero, a number too
		// long to read without overflow, escapes, no stream, trailing bytes.
		{`{"stream":"FECHADO","domain":"hub","seq":7}`, 0, false, false},
		{`{"error":{"code":400,"err_code":10071,"description":"wrong last sequence: 3"},"stream":"FECHADO","seq":0}`, 0, false, false},
		{`{"stream":"FECHADO","seq":9,"batch":"b","count":3}`, 0, false, false},
		{`{"stream": "FECHADO","seq":9}`, 0, false, false},
		{`{"stream":"FECHADO","seq":09}`, 0, false, false},
		{`{"stream":"FECHADO","seq":12345678901234567890}`, 0, false, false},
		{`{"stream":"FE\"CHADO","seq":9}`, 0, false, false},
		{`{"stream":"","seq":9}`, 0, false, false},
		{`{"stream":"FECHADO","seq":}`, 0, false, false},
		{`{"stream":"FECHADO","seq":9}x`, 0, false, false},
		{`{"stream":"FECHADO","seq":9,"duplicate": false}`, 0, false, false},
		{``, 0, false, false},
	} {
		seq, dup, ok := parseAck([]byte(c.in))
		if seq != c.seq || dup != c.dup || ok != c.ok {
			t.Errorf("parseAck(%s) = %d, %v, %v; want %d, %v, %v", c.in, seq, dup, ok, c.seq, c.dup, c.ok)
		}
	}
}

// FuzzParseAck checks that whatever parseAck accepts, encoding/json reads the same way (as the
// PubAck that PublishMsgAsync would have given), so that the fast path never misreads an ack.
func FuzzParseAck(f *testing.F) {
	for _, s := range []string{`{"stream":"FECHADO","seq":1}`, `{"stream":"S","seq":42,"duplicate": true}`,
		`{"error":{"code":503,"description":"x"}}`, `{"stream":"FECHADO","domain":"d","seq":7}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		seq, dup, ok := parseAck(b)
		if !ok {
			return
		}
		var pa struct {
			Error *jetstream.APIError `json:"error"`
			jetstream.PubAck
		}
		if err := json.Unmarshal(b, &pa); err != nil {
			t.Fatalf("parseAck accepted %q, which encoding/json refuses: %v", b, err)
		}
		if pa.Error != nil || pa.Stream == "" || pa.Sequence != seq || pa.Duplicate != dup {
			t.Fatalf("parseAck(%q) = %d, %v; encoding/json reads %+v", b, seq, dup, pa)
		}
	})
}

// TestFastPubErrors checks that the fast path reports what PublishMsgAsync would, so that the
// Recorder's slow path takes over: a subject nobody answers (no stream) is
// jetstream.ErrNoStreamResponse at once, and one whose responder never answers is
// jetstream.ErrAsyncPublishTimeout after the timeout.
func TestFastPubErrors(t *testing.T) {
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go s.Start()
	t.Cleanup(s.Shutdown)
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats server not ready")
	}
	nc, err := nats.Connect(s.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	silent, err := nc.SubscribeSync("silent") // receives and never answers
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Unsubscribe()

	type outcome struct {
		j   *handJob
		err error
	}
	got := make(chan outcome, 2)
	p, err := newFastPub(nc, 300*time.Millisecond,
		func(j *handJob, seq uint64, dup bool) { got <- outcome{j, fmt.Errorf("acked %d %v", seq, dup)} },
		func(j *handJob, err error) { got <- outcome{j, err} })
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	for _, c := range []struct {
		subject string
		want    error
	}{{"nobody", jetstream.ErrNoStreamResponse}, {"silent", jetstream.ErrAsyncPublishTimeout}} {
		j := &handJob{hand: c.subject}
		start := time.Now()
		if err := p.publish(j, &nats.Msg{Subject: c.subject, Data: []byte("x")}); err != nil {
			t.Fatal(err)
		}
		select {
		case o := <-got:
			if o.j != j || !errors.Is(o.err, c.want) {
				t.Errorf("%s: hand %q, %v; want %q, %v", c.subject, o.j.hand, o.err, j.hand, c.want)
			}
			if c.want == jetstream.ErrAsyncPublishTimeout && time.Since(start) < 300*time.Millisecond {
				t.Errorf("%s: timed out after %v, before the timeout", c.subject, time.Since(start))
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: nothing reported", c.subject)
		}
		if n := len(p.pending); n != 0 {
			t.Errorf("%s: %d messages still waiting", c.subject, n)
		}
	}
}
