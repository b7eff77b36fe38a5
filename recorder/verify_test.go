package recorder_test

import (
	"strings"
	"testing"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

func codes(r *recorder.Report) map[string]int {
	m := map[string]int{}
	for _, p := range r.Problems {
		m[p.Code]++
	}
	return m
}

// Events published around the recorder (fechado's user may publish to hand subjects) are
// caught by Verify: a broken chain, a seq gap, an undecodable message, an event under another
// hand's subject, a missing Msg-Id.
func TestVerifyFindsForgedEvents(t *testing.T) {
	l := recordertest.Open(t)
	h := recordertest.Hand(t, "A", 1, 2)
	record(t, l, "h", recordertest.Lines(h))
	rep, err := l.Verify(ctx(t))
	if err != nil || !rep.OK() || rep.Hands != 1 || rep.Ended != 1 {
		t.Fatalf("clean log: %v %+v", err, rep)
	}

	g := recordertest.Hand(t, "A", 2, 2)
	pub := func(subject string, e *events.Event, raw []byte) {
		t.Helper()
		m := &nats.Msg{Subject: subject, Data: raw, Header: nats.Header{}}
		if e != nil {
			m.Header.Set(jetstream.MsgIDHeader, e.ID)
		}
		if _, err := l.JetStream().PublishMsg(ctx(t), m); err != nil {
			t.Fatal(err)
		}
	}
	subj := recorder.Subject("A", g[0].Hand)
	pub(subj, g[0], g[0].Raw)
	pub(subj, g[2], g[2].Raw)                                   // seq 3 after 1: log.sequence and log.chain
	pub(subj, nil, []byte(`{"id":"x"}`))                        // log.schema
	pub(recorder.Subject("B", g[0].Hand), g[1], g[1].Raw)       // another table's subject: log.subject
	pub(recorder.Subject("A", h[0].Hand), nil, h[len(h)-1].Raw) // no Msg-Id: log.subject; after hand.ended and a duplicate id
	rep, err = l.Verify(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	got := codes(rep)
	for _, c := range []string{"log.sequence", "log.chain", "log.schema", "log.subject", "log.duplicate-id"} {
		if got[c] == 0 {
			t.Errorf("no %s problem in %v", c, rep.Problems)
		}
	}
	if got["stream.config"]+got["stream.deleted"] != 0 {
		t.Errorf("stream problems on a protected stream: %v", rep.Problems)
	}
	for _, p := range rep.Problems {
		if p.Seq == 0 || p.Subject == "" {
			t.Errorf("problem without its place: %+v", p)
		}
	}
}

// startServer runs a plain nats-server with JetStream on a random loopback port, as an
// external server would be.
func startServer(t *testing.T) *server.Server {
	t.Helper()
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(),
		NoSigs: true, NoLog: true, DisableJetStreamBanner: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("server did not start")
	}
	t.Cleanup(func() { s.Shutdown(); s.WaitForShutdown() })
	return s
}

// On an external server the recorder creates the stream when it is missing; Verify reports a
// stream whose configuration does not protect history, and deleted events.
func TestVerifyExternalStream(t *testing.T) {
	s := startServer(t)
	l, err := recorder.Open(ctx(t), recorder.Options{URLs: []string{s.ClientURL()}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if l.Server() != nil || l.ClientURL() != s.ClientURL() {
		t.Fatal("external log reports an embedded server")
	}
	in := readFile(t, vectors(t)[0])
	record(t, l, "v", in)
	rep, err := l.Verify(ctx(t))
	if err != nil || !rep.OK() || rep.Config.Replicas != 1 || !rep.Config.DenyDelete {
		t.Fatalf("created stream: %v %+v", err, rep)
	}

	// Another operator's stream without the protections, an event deleted from it.
	s2 := startServer(t)
	nc, err := nats.Connect(s2.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	loose := recorder.StreamConfig(1)
	loose.DenyDelete, loose.DenyPurge, loose.MaxAge, loose.Discard = false, false, time.Hour, jetstream.DiscardOld
	st, err := js.CreateStream(ctx(t), loose)
	if err != nil {
		t.Fatal(err)
	}
	l2, err := recorder.Open(ctx(t), recorder.Options{URLs: []string{"nats://" + strings.TrimPrefix(s2.ClientURL(), "nats://")}})
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	record(t, l2, "v", in)
	if err := st.DeleteMsg(ctx(t), 3); err != nil {
		t.Fatal(err)
	}
	rep, err = l2.Verify(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	got := codes(rep)
	if got["stream.config"] != 4 || got["stream.deleted"] < 2 || got["log.sequence"] == 0 {
		t.Fatalf("%v", rep.Problems)
	}
}

// An unreachable external server is an error, not a report.
func TestOpenUnreachable(t *testing.T) {
	if _, err := recorder.Open(ctx(t), recorder.Options{URLs: []string{"nats://127.0.0.1:1"}, Timeout: time.Second}); err == nil {
		t.Fatal("opened a log on a closed port")
	}
}
