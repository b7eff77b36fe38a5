package recorder_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/eventfiles"
	"github.com/fechado/fechado/internal/testfiles"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/fechado/fechado/roles"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"golang.org/x/crypto/bcrypt"
)

// The table of the example vector table-br-fechado.jsonl, and another one.
const (
	tableA = "ex-br-fechado"
	tableB = "tb"
)

// authFile is the auth file of these tests; the auditor's password is given as a bcrypt hash.
func authFile(t *testing.T) *roles.Auth {
	t.Helper()
	hash, err := bcrypt.GenerateFromPassword([]byte("pw-auditor"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{"users": []map[string]string{
		{"name": "dealer-a", "password": "pw-a", "role": "table", "table": tableA},
		{"name": "dealer-b", "password": "pw-b", "role": "table", "table": tableB},
		{"name": "auditor", "password": string(hash), "role": "auditor"},
		{"name": "screen", "password": "pw-screen", "role": "spectator"},
	}})
	path := filepath.Join(t.TempDir(), "auth.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := recorder.LoadAuth(path); err != nil {
		t.Fatal(err)
	}
	a, err := roles.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// startAuthServer starts a JetStream server on a random loopback port with the auth file's users
// and an unrestricted "fechado" user that creates the stream (as an operator would).
func startAuthServer(t *testing.T, a *roles.Auth) *server.Server {
	t.Helper()
	users := append([]*server.User{{Username: recorder.AppUser, Password: "pw-app"}}, recorder.ServerUsers(a)...)
	s, err := server.NewServer(&server.Options{
		ServerName: "auth", Host: "127.0.0.1", Port: server.RANDOM_PORT, JetStream: true, StoreDir: t.TempDir(),
		NoSigs: true, NoLog: true, DisableJetStreamBanner: true, Users: users,
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	t.Cleanup(func() { s.Shutdown(); s.WaitForShutdown() })
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("server not ready")
	}
	return s
}

// startAuthApp starts a server with the auth file's users (startAuthServer) and opens the
// recorder's own connection to it; both end with the test, as does the context returned, which
// bounds the test to 30 seconds.
func startAuthApp(t *testing.T) (*server.Server, *recorder.Log, context.Context) {
	t.Helper()
	s := startAuthServer(t, authFile(t))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	app, err := recorder.Open(ctx, recorder.Options{URLs: []string{s.ClientURL()}, User: recorder.AppUser, Password: "pw-app"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { app.Close() })
	return s, app, ctx
}

// client is a raw NATS client of one user; errs receives the asynchronous errors the server sends
// it (permission violations).
type client struct {
	nc   *nats.Conn
	js   jetstream.JetStream
	errs chan error
}

func connect(t *testing.T, s *server.Server, user, password string, opts ...nats.Option) *client {
	t.Helper()
	c := &client{errs: make(chan error, 64)}
	opts = append(opts, nats.UserInfo(user, password), nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		select {
		case c.errs <- err:
		default:
		}
	}))
	nc, err := nats.Connect(s.ClientURL(), opts...)
	if err != nil {
		t.Fatalf("connect as %s: %v", user, err)
	}
	t.Cleanup(nc.Close)
	c.nc = nc
	if c.js, err = jetstream.New(nc); err != nil {
		t.Fatal(err)
	}
	return c
}

// violation waits for a permissions violation naming subject.
func (c *client) violation(t *testing.T, subject string) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case err := <-c.errs:
			if errors.Is(err, nats.ErrPermissionViolation) && strings.Contains(err.Error(), subject) {
				return
			}
		case <-deadline:
			t.Fatalf("no permissions violation for %s", subject)
		}
	}
}

// appendAs publishes events as the table device would: each with its id as Nats-Msg-Id and the
// hand's expected last subject sequence. last holds the stream sequence of each hand's last event.
func (c *client) appendAs(ctx context.Context, evs []*events.Event, last map[string]uint64) error {
	for _, e := range evs {
		subj := recorder.Subject(e.Table, e.Hand)
		actx, cancel := context.WithTimeout(ctx, time.Second)
		ack, err := c.js.PublishMsg(actx, &nats.Msg{Subject: subj, Data: e.Raw},
			jetstream.WithMsgID(e.ID), jetstream.WithExpectLastSequencePerSubject(last[subj]))
		cancel()
		if err != nil {
			return err
		}
		last[subj] = ack.Sequence
	}
	return nil
}

// vectorHands returns the events of the example vector table-br-fechado.jsonl (six hands of
// tableA, machine shuffles, cards dealt face down).
func vectorHands(t *testing.T) []*events.Event {
	t.Helper()
	out := eventfiles.Read(t, testfiles.File(t, "vectors", "table-br-fechado.jsonl"), 0)
	for _, e := range out {
		if e.Table != tableA {
			t.Fatalf("vector table %s, want %s", e.Table, tableA)
		}
	}
	if len(out) < 100 {
		t.Fatalf("only %d events in the vector", len(out))
	}
	return out
}

func TestRolesMatchTheStream(t *testing.T) {
	if roles.Stream != recorder.StreamName || roles.HandPrefix != recorder.SubjectPrefix ||
		roles.HandSubject("t", "h") != recorder.Subject("t", "h") {
		t.Fatal("roles names another stream or subject than the recorder")
	}
}

// The server itself keeps each role to its subjects: a table device appends to its own table and
// is refused another's; the spectator can neither subscribe to the hand subjects nor reach the
// stream; the auditor reads every event, face-down cards and seeds included.
func TestRolesEnforcedByServer(t *testing.T) {
	t.Parallel() // waits on timeouts, on a server of its own
	s, app, ctx := startAuthApp(t)

	// Table device A, with its own inbox prefix (it may receive replies there only).
	devA := connect(t, s, "dealer-a", "pw-a", nats.CustomInboxPrefix(roles.InboxPrefix("dealer-a")))
	handA := vectorHands(t)[:40]
	last := map[string]uint64{}
	if err := devA.appendAs(ctx, handA, last); err != nil {
		t.Fatalf("table device A appending to its own table: %v", err)
	}
	// It may ask for the last event of its own hands (the append check)...
	st, err := devA.js.Stream(ctx, recorder.StreamName)
	if err != nil {
		t.Fatalf("table device A: stream info: %v", err)
	}
	if m, err := st.GetLastMsgForSubject(ctx, recorder.Subject(tableA, handA[0].Hand)); err != nil || m.Sequence != last[recorder.Subject(tableA, handA[0].Hand)] {
		t.Fatalf("table device A: last event of its own hand: %v", err)
	}

	// ... but appending to table B is refused by the server: no ack, a permissions violation,
	// and nothing stored.
	handB := recordertest.Hand(t, tableB, 1, 2)
	subjB := recorder.Subject(tableB, handB[0].Hand)
	if err := devA.appendAs(ctx, handB[:1], map[string]uint64{}); err == nil {
		t.Fatal("table device A appended to table B")
	}
	devA.violation(t, subjB)
	if _, err := app.Stream().GetLastMsgForSubject(ctx, subjB); !errors.Is(err, jetstream.ErrMsgNotFound) {
		t.Fatalf("table B after the refused append: %v, want nothing stored", err)
	}
	// Nor may it read another table's hand, or the log at large.
	devB := connect(t, s, "dealer-b", "pw-b", nats.CustomInboxPrefix(roles.InboxPrefix("dealer-b")))
	if err := devB.appendAs(ctx, handB, map[string]uint64{}); err != nil {
		t.Fatalf("table device B appending to its own table: %v", err)
	}
	short, cancelShort := context.WithTimeout(ctx, 500*time.Millisecond)
	if _, err := st.GetLastMsgForSubject(short, subjB); err == nil {
		t.Fatal("table device A read table B's last event")
	}
	cancelShort()
	devA.violation(t, "$JS.API.DIRECT.GET."+recorder.StreamName+"."+subjB)
	short, cancelShort = context.WithTimeout(ctx, 500*time.Millisecond)
	if _, err := st.OrderedConsumer(short, jetstream.OrderedConsumerConfig{}); err == nil {
		t.Fatal("table device A created a consumer on the whole log")
	}
	cancelShort()
	// Its inbox prefix is its own: replies to other clients are out of its reach.
	if sub, err := devA.nc.SubscribeSync("_INBOX.>"); err == nil {
		defer sub.Unsubscribe()
	}
	devA.violation(t, "_INBOX.>")

	// The spectator: subscribing to the hand subjects is refused...
	spec := connect(t, s, "screen", "pw-screen", nats.PermissionErrOnSubscribe(true))
	sub, err := spec.nc.SubscribeSync(recorder.StreamSubjects)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sub.NextMsg(5 * time.Second); !errors.Is(err, nats.ErrPermissionViolation) {
		t.Fatalf("spectator subscribing to %s: %v, want a permissions violation", recorder.StreamSubjects, err)
	}
	// ... and so is every way into the stream: stream info, consumers, direct gets.
	short, cancelShort = context.WithTimeout(ctx, 500*time.Millisecond)
	if _, err := spec.js.Stream(short, recorder.StreamName); err == nil {
		t.Fatal("spectator reached the stream")
	}
	cancelShort()
	short, cancelShort = context.WithTimeout(ctx, 500*time.Millisecond)
	if _, err := spec.js.OrderedConsumer(short, recorder.StreamName, jetstream.OrderedConsumerConfig{}); err == nil {
		t.Fatal("spectator created a consumer")
	}
	cancelShort()
	if _, err := spec.nc.Request("$JS.API.DIRECT.GET."+recorder.StreamName+"."+recorder.Subject(tableA, handA[0].Hand), nil, time.Second); err == nil {
		t.Fatal("spectator made a direct get")
	}

	// The auditor reads every event through the recorder's own code, hidden cards included.
	aud, err := recorder.Open(ctx, recorder.Options{URLs: []string{s.ClientURL()}, User: "auditor", Password: "pw-auditor"})
	if err != nil {
		t.Fatalf("auditor: %v", err)
	}
	defer aud.Close()
	var n, dealt int
	if err := aud.ReadAll(ctx, 0, func(st recorder.Stored) error {
		n++
		if d, ok := st.Event.Data.(*events.CardDealt); ok && !d.Unknown {
			dealt++
		}
		return nil
	}); err != nil {
		t.Fatalf("auditor reading the log: %v", err)
	}
	if n != len(handA)+len(handB) || dealt == 0 {
		t.Fatalf("auditor read %d events (%d face-down cards), want %d", n, dealt, len(handA)+len(handB))
	}
	// It appends nothing.
	audc := connect(t, s, "auditor", "pw-auditor")
	if err := audc.appendAs(ctx, recordertest.Hand(t, tableA, 9, 0)[:1], map[string]uint64{}); err == nil {
		t.Fatal("the auditor appended")
	}
	audc.violation(t, "fechado.hand."+tableA)

	// Wrong passwords are refused, the bcrypt one included.
	if nc, err := nats.Connect(s.ClientURL(), nats.UserInfo("auditor", "wrong")); err == nil {
		nc.Close()
		t.Fatal("wrong password accepted")
	}
}

// The spectator follows hands as they are played on the public subjects and never receives a
// card nobody has seen face up, a seed, or a prev, until the hand has ended.
func TestSpectatorSeesPublicViewsOnly(t *testing.T) {
	s, app, ctx := startAuthApp(t)

	spec := connect(t, s, "screen", "pw-screen", nats.PermissionErrOnSubscribe(true))
	views := make(chan *nats.Msg, 1024)
	sub, err := spec.nc.ChanSubscribe(roles.PublicPrefix+">", views)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	if err := spec.nc.Flush(); err != nil {
		t.Fatal(err)
	}

	pctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	var pubErr error
	go func() { defer wg.Done(); pubErr = app.PublishPublic(pctx, 0) }()
	defer func() {
		stop()
		wg.Wait()
		if pubErr != nil && !errors.Is(pubErr, context.Canceled) {
			t.Errorf("PublishPublic: %v", pubErr)
		}
	}()

	evs := vectorHands(t)
	dev := connect(t, s, "dealer-a", "pw-a", nats.CustomInboxPrefix(roles.InboxPrefix("dealer-a")))
	if err := dev.appendAs(ctx, evs, map[string]uint64{}); err != nil {
		t.Fatal(err)
	}

	// What was face up, per hand and up to each seq; what was dealt face down.
	type key struct {
		hand string
		seq  events.Seq
	}
	faceUpAt := map[key]cards.Set{}
	up := map[string]cards.Set{}
	hands := map[string]bool{}
	for _, e := range evs {
		hands[e.Hand] = true
		switch d := e.Data.(type) {
		case *events.CardExposed:
			up[e.Hand] = up[e.Hand].Add(d.Card)
		case *events.OpenersShown:
			up[e.Hand] |= cards.SetOf(d.Cards...)
		case *events.HandShown:
			up[e.Hand] |= cards.SetOf(d.Cards...)
		}
		faceUpAt[key{e.Hand, e.Seq}] = up[e.Hand]
	}

	ended := map[string]bool{}
	got, seedsAfter := 0, 0
	// Burns and seeds cannot be left out of a valid event: they are shown once the hand ends.
	shownRunning := 0
	for _, e := range evs {
		if e.Type != events.CardBurnedType && e.Type != events.DeckRevealedType {
			shownRunning++
		}
	}
	deadline := time.After(20 * time.Second)
	for len(ended) < len(hands) || got < shownRunning {
		select {
		case m := <-views:
			var v struct { // what a spectator's client reads of a view
				Table, Hand string
				Seq         events.Seq
				Type        events.Type
				Data        json.RawMessage
			}
			if err := json.Unmarshal(m.Data, &v); err != nil {
				t.Fatalf("view %s: %v", m.Data, err)
			}
			if m.Subject != roles.PublicSubject(v.Table, v.Hand) {
				t.Fatalf("view of %s on %s", v.Hand, m.Subject)
			}
			if bytes.Contains(m.Data, []byte(`"prev"`)) {
				t.Fatalf("view with prev: %s", m.Data)
			}
			if _, err := events.Parse(m.Data); err != nil {
				t.Fatalf("view %s is not a valid event: %v", m.Data, err)
			}
			kind := m.Header.Get(roles.ViewHeader)
			if ended[v.Hand] { // released after hand.ended: everything is public now
				if kind != roles.ViewFull {
					t.Fatalf("released view with header %q: %s", kind, m.Data)
				}
				if v.Type == events.DeckRevealedType && bytes.Contains(v.Data, []byte(`"seed"`)) {
					seedsAfter++
				}
				continue
			}
			got++
			if kind != roles.ViewPublic {
				t.Fatalf("view of a running hand with header %q: %s", kind, m.Data)
			}
			if bytes.Contains(v.Data, []byte(`"seed"`)) {
				t.Fatalf("seed of a running hand: %s", m.Data)
			}
			var data map[string]json.RawMessage
			if err := json.Unmarshal(v.Data, &data); err != nil {
				t.Fatal(err)
			}
			var shown []string
			if c, ok := data["card"]; ok {
				var s string
				_ = json.Unmarshal(c, &s)
				shown = append(shown, s)
			}
			if cs, ok := data["cards"]; ok {
				var l []string
				_ = json.Unmarshal(cs, &l)
				shown = append(shown, l...)
			}
			for _, s := range shown {
				c, err := cards.Parse(s)
				if err != nil || !faceUpAt[key{v.Hand, v.Seq}].Has(c) {
					t.Fatalf("spectator saw %s, not face up at seq %d: %s", s, v.Seq, m.Data)
				}
			}
			if v.Type == events.HandEndedType {
				ended[v.Hand] = true
			}
		case <-deadline:
			t.Fatalf("after 20 s: %d views of %d events shown, %d of %d hands ended", got, shownRunning, len(ended), len(hands))
		}
	}
	// The seeds come out once each hand is over (the last hand's release may still be in flight).
	for seedsAfter < 10 {
		select {
		case m := <-views:
			if bytes.Contains(m.Data, []byte(`"type":"deck.revealed"`)) && bytes.Contains(m.Data, []byte(`"seed"`)) {
				seedsAfter++
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%d seeds released after their hands ended, want 10", seedsAfter)
		}
	}
}

// The embedded server with an auth file (Options.Auth) on a loopback listener: clients without
// credentials are refused, fechado's own connection still appends, and a table device runs the
// recorder's own code (recorder.Open with its user, which takes its inbox prefix) to append to its
// table, and is refused another.
func TestEmbeddedServerWithAuth(t *testing.T) {
	users := recorder.ServerUsers(authFile(t))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	l, err := recorder.Open(ctx, recorder.Options{DataDir: t.TempDir(), Listen: "127.0.0.1:0", Auth: users, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	url := l.ClientURL()
	if !strings.HasPrefix(url, "nats://127.0.0.1:") {
		t.Fatalf("client URL %q", url)
	}
	if nc, err := nats.Connect(url); err == nil {
		nc.Close()
		t.Fatal("a client without credentials got in")
	}
	if _, err := l.Append(ctx, recordertest.Hand(t, tableB, 1, 0)[0]); err != nil {
		t.Fatalf("fechado's own connection: %v", err)
	}

	dev, err := recorder.Open(ctx, recorder.Options{URLs: []string{url}, User: "dealer-a", Password: "pw-a", Timeout: time.Second})
	if err != nil {
		t.Fatalf("table device opening the log: %v", err)
	}
	defer dev.Close()
	r := dev.NewRecorder(ctx, recorder.RecordOptions{})
	if err := r.AddLines(bytes.NewReader(recordertest.Lines(vectorHands(t))), "table-br-fechado.jsonl"); err != nil {
		t.Fatal(err)
	}
	if st, err := r.Close(); err != nil || st.Appended != st.Read || st.Read < 100 {
		t.Fatalf("table device recording its table: %+v, %v", st, err)
	}
	if _, err := dev.Append(ctx, recordertest.Hand(t, tableB, 2, 0)[0]); err == nil {
		t.Fatal("table device A appended to table B")
	}
}

// A log opened as a table device (Log.As) appends to its own table through the recorder's
// validated append, and the server refuses it another table at once: the first event of a hand
// (a publish) and a later one (the read of the hand's last event) fail with ErrPermissionDenied
// long before a request's timeout, and nothing is stored.
func TestAsTableDevice(t *testing.T) {
	a := authFile(t)
	l := recordertest.OpenAuth(t, a)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	devB, err := l.As(ctx, "dealer-b", "pw-b")
	if err != nil {
		t.Fatal(err)
	}
	defer devB.Close()
	own := recordertest.Hand(t, tableB, 1, 2)
	for _, e := range own {
		if _, err := devB.Append(ctx, e); err != nil {
			t.Fatalf("table device B appending to its own table, seq %d: %v", e.Seq, err)
		}
	}
	other := recordertest.Hand(t, tableA, 1, 2)
	for _, e := range other[:2] {
		begin := time.Now()
		_, err := devB.Append(ctx, e)
		var he *recorder.HandError
		if !errors.As(err, &he) || !errors.Is(err, recorder.ErrPermissionDenied) {
			t.Fatalf("table device B appending seq %d to table A: %v, want a HandError of ErrPermissionDenied", e.Seq, err)
		}
		if d := time.Since(begin); d >= recorder.DefaultTimeout {
			t.Errorf("the refusal of seq %d took %v, a request's timeout", e.Seq, d)
		}
		if !strings.Contains(err.Error(), recorder.Subject(tableA, e.Hand)) {
			t.Errorf("the refusal does not name the subject: %v", err)
		}
	}
	if _, err := l.Stream().GetLastMsgForSubject(ctx, recorder.Subject(tableA, other[0].Hand)); !errors.Is(err, jetstream.ErrMsgNotFound) {
		t.Fatalf("table A after the refused appends: %v, want nothing stored", err)
	}
	// Table A's own device still appends the same hand.
	devA, err := l.As(ctx, "dealer-a", "pw-a")
	if err != nil {
		t.Fatal(err)
	}
	defer devA.Close()
	for _, e := range other {
		if _, err := devA.Append(ctx, e); err != nil {
			t.Fatalf("table device A appending to its own table, seq %d: %v", e.Seq, err)
		}
	}
	// Resent (a lost answer), each event is skipped, not stored again: the stored hand is read
	// for the device as the log's own user.
	for _, e := range other {
		if ack, err := devA.Append(ctx, e); err != nil || !ack.Skipped {
			t.Fatalf("table device A resending seq %d: %+v, %v; want it skipped", e.Seq, ack, err)
		}
	}
}

// A table device's hands are read by their id alone like every other hand (the table from the
// log, docs/stream.md §5), and its appends wait for nothing but their acks (no hand index to
// write, stream.md §4).
func TestTableDeviceHandsReadByID(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	l := recordertest.OpenOptions(t, recorder.Options{DataDir: t.TempDir(), Auth: recorder.ServerUsers(authFile(t))})
	dev, err := l.As(ctx, "dealer-b", "pw-b")
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	hands := [][]*events.Event{recordertest.Hand(t, tableB, 1, 2), recordertest.Hand(t, tableB, 2, 0)}
	for _, h := range hands {
		begin := time.Now()
		for _, e := range h {
			if _, err := dev.Append(ctx, e); err != nil {
				t.Fatalf("hand %s, seq %d: %v", e.Hand, e.Seq, err)
			}
		}
		if d := time.Since(begin); d >= recorder.DefaultTimeout {
			t.Errorf("hand %s took %v to append, a request's timeout", h[0].Hand, d)
		}
	}
	for _, h := range hands {
		got := collect(t, func(fn func(recorder.Stored) error) error { return l.ReadHand(ctx, "", h[0].Hand, fn) })
		if !bytes.Equal(got, recordertest.Lines(h)) {
			t.Errorf("hand %s read by id: %s", h[0].Hand, firstDiff(got, recordertest.Lines(h)))
		}
	}
	if got := subjectsOutsideTheLog(t, l); got != 0 {
		t.Errorf("the server holds %d subjects outside the log after the device's hands", got)
	}
}
