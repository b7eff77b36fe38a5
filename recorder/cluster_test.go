package recorder_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go/jetstream"
)

// cluster is three JetStream nodes on loopback (research/eventsourcing.md §2.3).
type cluster struct {
	t     *testing.T
	opts  []func() *server.Options // each node's options, fresh each time (the server keeps them)
	nodes []*server.Server
}

// freePorts asks the OS for n free loopback ports (the route listeners must name each other, so
// they cannot be -1).
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ls []net.Listener
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

func startCluster(t *testing.T) *cluster {
	t.Helper()
	base := t.TempDir()
	ports := freePorts(t, 3)
	var routes []string
	for _, p := range ports {
		routes = append(routes, fmt.Sprintf("nats://127.0.0.1:%d", p))
	}
	c := &cluster{t: t}
	for i, p := range ports {
		name, port := fmt.Sprintf("n%d", i+1), p
		c.opts = append(c.opts, func() *server.Options {
			return &server.Options{
				ServerName: name, Host: "127.0.0.1", Port: server.RANDOM_PORT,
				JetStream: true, StoreDir: filepath.Join(base, name),
				Cluster: server.ClusterOpts{Name: "FECHADO", Host: "127.0.0.1", Port: port},
				Routes:  server.RoutesFromStr(strings.Join(routes, ",")),
				NoSigs:  true, NoLog: true, DisableJetStreamBanner: true,
			}
		})
		c.nodes = append(c.nodes, nil)
	}
	for i := range c.nodes {
		c.start(i)
	}
	t.Cleanup(func() {
		for i := range c.nodes {
			c.stop(i)
		}
	})
	waitFor(t, 20*time.Second, "a JetStream meta leader", func() bool {
		for _, s := range c.nodes {
			if s.JetStreamIsLeader() {
				return true
			}
		}
		return false
	})
	return c
}

func (c *cluster) start(i int) {
	c.t.Helper()
	s, err := server.NewServer(c.opts[i]())
	if err != nil {
		c.t.Fatal(err)
	}
	s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		c.t.Fatalf("node %s not ready", s.Name())
	}
	c.nodes[i] = s
}

func (c *cluster) stop(i int) {
	if s := c.nodes[i]; s != nil {
		s.Shutdown()
		s.WaitForShutdown()
		c.nodes[i] = nil
	}
}

func (c *cluster) urls() []string {
	var out []string
	for _, s := range c.nodes {
		if s != nil {
			out = append(out, s.ClientURL())
		}
	}
	return out
}

func (c *cluster) index(name string) int {
	for i, s := range c.nodes {
		if s != nil && s.Name() == name {
			return i
		}
	}
	c.t.Fatalf("no running node %q", name)
	return -1
}

// open opens the log on the cluster with three replicas, as fechado does with three --nats URLs,
// once the cluster can create the stream; the log is closed when the test ends.
func (c *cluster) open(ctx context.Context) *recorder.Log {
	c.t.Helper()
	var l *recorder.Log
	waitFor(c.t, 20*time.Second, "the stream to be created with 3 replicas", func() bool {
		var err error
		l, err = recorder.Open(ctx, recorder.Options{URLs: c.urls(), Replicas: 3, Timeout: 2 * time.Second})
		return err == nil
	})
	c.t.Cleanup(l.Close)
	return l
}

// streamLeader returns the name of the node that leads the stream, after checking that the
// stream is on three nodes.
func (c *cluster) streamLeader(ctx context.Context, l *recorder.Log) string {
	c.t.Helper()
	info, err := l.Stream().Info(ctx)
	if err != nil {
		c.t.Fatal(err)
	}
	if info.Config.Replicas != 3 || info.Cluster == nil || len(info.Cluster.Replicas) != 2 {
		c.t.Fatalf("stream is not on three nodes: replicas %d, cluster %+v", info.Config.Replicas, info.Cluster)
	}
	return info.Cluster.Leader
}

// waitCurrent waits until the stream has a leader and both other replicas are current, with no
// lag (a restarted node has caught up).
func (c *cluster) waitCurrent(ctx context.Context, l *recorder.Log, node string) {
	c.t.Helper()
	waitFor(c.t, 20*time.Second, node+" back and current", func() bool {
		info, err := l.Stream().Info(ctx)
		if err != nil || info.Cluster == nil || info.Cluster.Leader == "" {
			return false
		}
		for _, r := range info.Cluster.Replicas {
			if !r.Current || r.Offline || r.Lag != 0 {
				return false
			}
		}
		return len(info.Cluster.Replicas) == 2
	})
}

// localState is the stream's state in one node's own store (the monitoring endpoint's view of
// that server, not the leader's).
func localState(t *testing.T, s *server.Server) (server.StreamState, bool) {
	t.Helper()
	jsz, err := s.Jsz(&server.JSzOptions{Accounts: true, Streams: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range jsz.AccountDetails {
		for _, st := range a.Streams {
			if st.Name == recorder.StreamName {
				return st.State, true
			}
		}
	}
	return server.StreamState{}, false
}

// waitStoredOnce waits until node s's own store holds as many messages as hands have events, and
// fails the test unless they are numbered from 1, none deleted, one subject per hand; it returns
// the number of events.
func waitStoredOnce(t *testing.T, s *server.Server, hands [][]*events.Event) int {
	t.Helper()
	want := 0
	for _, h := range hands {
		want += len(h)
	}
	waitFor(t, 10*time.Second, s.Name()+" to hold every event", func() bool {
		st, ok := localState(t, s)
		return ok && st.Msgs == uint64(want)
	})
	st, _ := localState(t, s)
	if st.FirstSeq != 1 || st.LastSeq != uint64(want) || st.NumDeleted != 0 || st.NumSubjects != len(hands) {
		t.Fatalf("node %s: state %+v, want %d messages from 1, none deleted, %d subjects", s.Name(), st, want, len(hands))
	}
	return want
}

func waitFor(t *testing.T, d time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("after %v still waiting for %s", d, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// readOnNode reads the whole stream from one node's own copy: an R1 consumer reads the replica of
// the server it is placed on, and the server places it on a random caught-up peer, so consumers
// are created (and deleted) until one lands on node. Its ConsumerInfo names the server.
func readOnNode(t *testing.T, ctx context.Context, js jetstream.JetStream, node string, want int) []*events.Event {
	t.Helper()
	st, err := js.Stream(ctx, recorder.StreamName)
	if err != nil {
		t.Fatal(err)
	}
	for range 60 {
		c, err := st.CreateConsumer(ctx, jetstream.ConsumerConfig{
			AckPolicy: jetstream.AckNonePolicy, MemoryStorage: true, Replicas: 1, InactiveThreshold: time.Minute,
		})
		if err != nil {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		info, err := c.Info(ctx)
		if err != nil || info.Cluster == nil || info.Cluster.Leader != node {
			_ = st.DeleteConsumer(ctx, c.CachedInfo().Name)
			continue
		}
		var out []*events.Event
		deadline := time.Now().Add(15 * time.Second)
		for len(out) < want {
			// A consumer just placed on a node may not be reachable from the client's node at once
			// (no responders): try again until the deadline.
			batch, err := c.Fetch(want-len(out), jetstream.FetchMaxWait(2*time.Second))
			if err == nil {
				for m := range batch.Messages() {
					e, perr := events.Parse(m.Data())
					if perr != nil {
						t.Fatalf("node %s: stored message is no event: %v", node, perr)
					}
					out = append(out, e)
				}
				err = batch.Error()
			}
			if len(out) < want && time.Now().After(deadline) {
				t.Fatalf("node %s: %d of %d events, then nothing: %v", node, len(out), want, err)
			}
			if err != nil && len(out) < want {
				time.Sleep(100 * time.Millisecond)
			}
		}
		_ = st.DeleteConsumer(ctx, info.Name)
		return out
	}
	t.Fatalf("no consumer could be placed on node %s", node)
	return nil
}

// recordThroughElections records hands with the bulk Recorder, each hand's next event going out
// on its previous one's ack. While a new stream leader is elected the Recorder may still stop
// with an error (no response from the stream, or 10158 "duplicate message id is in process" once
// its retries are spent), or refuse a hand as a conflict when a check reads a replica that lags;
// the remedy is the documented one for 'fechado record': record the same input again, which
// skips what is stored. The callers' checks then show nothing was lost or stored twice.
func recordThroughElections(t *testing.T, ctx context.Context, l *recorder.Log, phase [][]*events.Event) {
	t.Helper()
	for attempt := 1; ; attempt++ {
		r := l.NewRecorder(ctx, recorder.RecordOptions{Window: 4, OnReject: func(he *recorder.HandError) {
			if errors.Is(he, recorder.ErrSequenceConflict) {
				t.Logf("conflict: %v", he) // a stale read during the election (see above)
				return
			}
			t.Errorf("rejected: %v", he)
		}})
		var err error
	add:
		for _, h := range phase {
			for _, e := range h {
				if err = r.Add(e, "", 0); err != nil {
					break add
				}
			}
		}
		st, cerr := r.Close()
		if err == nil {
			err = cerr
		}
		if err == nil && st.Conflicts > 0 {
			err = fmt.Errorf("%d hands refused as conflicts", st.Conflicts)
		}
		if err == nil {
			if st.Appended+st.Skipped != st.Read || st.Rejected+st.BadLines != 0 {
				t.Fatalf("recorder: %+v", st)
			}
			return
		}
		if attempt == 5 || ctx.Err() != nil {
			t.Fatalf("%d hands, attempt %d: %v", len(phase), attempt, err)
		}
		t.Logf("%d hands, attempt %d: %v (%d appended, %d skipped): recording again", len(phase), attempt, err, st.Appended, st.Skipped)
		time.Sleep(500 * time.Millisecond) // let the election finish
	}
}

// A three-node cluster keeps every hand through the loss of the stream leader: the recorder opens
// the log with the three URLs and three replicas (its ordinary external path), appends hands,
// the stream leader is shut down mid-way, appends go on, the node restarts on its own store and
// catches up; then every node's own copy holds every hand complete, once, in chain.
func TestClusterKeepsHandsThroughNodeLoss(t *testing.T) {
	c := startCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	l := c.open(ctx)

	var hands [][]*events.Event
	appendHands := func(from, to int) {
		t.Helper()
		var phase [][]*events.Event
		for n := from; n < to; n++ {
			phase = append(phase, recordertest.Hand(t, "c1", n, 2+n%3))
		}
		hands = append(hands, phase...)
		recordThroughElections(t, ctx, l, phase)
	}
	appendHands(1, 21)

	victim := c.streamLeader(ctx, l)
	vi := c.index(victim)
	c.stop(vi)
	t.Logf("stopped the stream leader %s", victim)

	appendHands(21, 41) // the cluster elects a new leader; the recorder retries with the same ids

	c.start(vi)
	c.waitCurrent(ctx, l, victim)
	appendHands(41, 46) // and appends still go in with all three back

	for _, s := range c.nodes {
		want := waitStoredOnce(t, s, hands)
		// And its content: every hand complete, each event once, the chain whole.
		got := readOnNode(t, ctx, l.JetStream(), s.Name(), want)
		chain := events.NewChain()
		seen := map[string]string{}
		for _, e := range got {
			for _, p := range chain.Check(e) {
				t.Fatalf("node %s: %s at seq %d of %s: %s", s.Name(), p.Kind, p.Seq, e.Hand, p.Message)
			}
			seen[e.ID] = string(e.Raw)
		}
		for _, h := range hands {
			for _, e := range h {
				if seen[e.ID] != string(e.Raw) {
					t.Fatalf("node %s: event %s (hand %s seq %d) missing or different", s.Name(), e.ID, e.Hand, e.Seq)
				}
			}
			if s, _ := chain.Last(h[0].Hand); s != events.Seq(len(h)) {
				t.Fatalf("hand %s ends at seq %d on a node, want %d", h[0].Hand, s, len(h))
			}
		}
		if len(got) != want {
			t.Fatalf("node %s: %d events, want %d", s.Name(), len(got), want)
		}
	}
}

// A follower of the log whose consumer was on a node that stops goes on with a new consumer and
// is given what is stored next. The node going is silent to the consumer's client: the client
// notices two missed heartbeats only within one wait for a message, and the reader's waits (at
// most Options.Timeout) were shorter than that, so a serve node's projector waited for ever.
func TestClusterFollowGoesOnWhenItsConsumerNodeStops(t *testing.T) {
	c := startCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	room := c.open(ctx)
	first := recordertest.Hand(t, "c1", 1, 3)
	recordThroughElections(t, ctx, room, [][]*events.Event{first})

	// The follower keeps its connection to n1 (a reconnect makes a new consumer anyway); its
	// consumer is placed on any of the three nodes: follow until it is on another one.
	type followed struct {
		seqs   chan uint64
		done   chan error
		cancel context.CancelFunc
	}
	follow := func() (*recorder.Log, *followed) {
		f, err := recorder.Open(ctx, recorder.Options{URLs: []string{c.nodes[0].ClientURL()}, Replicas: 3, Timeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		fctx, fcancel := context.WithCancel(ctx)
		r := &followed{seqs: make(chan uint64, 256), done: make(chan error, 1), cancel: fcancel}
		go func() {
			r.done <- f.FollowRaw(fctx, 1, func(seq uint64, _ []byte) error {
				r.seqs <- seq
				return nil
			})
		}()
		return f, r
	}
	receive := func(r *followed, from, to uint64, within time.Duration) {
		t.Helper()
		deadline := time.After(within)
		for want := from; want <= to; want++ {
			select {
			case got := <-r.seqs:
				if got != want {
					t.Fatalf("followed stream message %d, want %d", got, want)
				}
			case err := <-r.done:
				t.Fatalf("follow stopped at %d: %v", want, err)
			case <-deadline:
				t.Fatalf("after %v the follower still waits for stream message %d", within, want)
			}
		}
	}
	n := uint64(len(first))
	var f *recorder.Log
	var r *followed
	var host string
	for attempt := 1; ; attempt++ {
		f, r = follow()
		receive(r, 1, n, 20*time.Second)
		host = consumerNode(t, ctx, room)
		if host != c.nodes[0].Name() {
			break
		}
		if attempt == 20 {
			t.Fatalf("the follower's consumer was on %s %d times in a row", host, attempt)
		}
		r.cancel()
		<-r.done
		f.Close()
	}
	defer f.Close()
	defer func() {
		r.cancel()
		<-r.done
	}()

	c.stop(c.index(host))
	t.Logf("stopped %s, the node of the follower's consumer", host)
	second := recordertest.Hand(t, "c1", 2, 3)
	recordThroughElections(t, ctx, room, [][]*events.Event{second})
	receive(r, n+1, n+uint64(len(second)), 20*time.Second)
}

// consumerNode returns the node of the one consumer of the stream.
func consumerNode(t *testing.T, ctx context.Context, l *recorder.Log) string {
	t.Helper()
	// A consumer just made may be listed before its group has elected a leader (under load, for
	// a moment): ask again until it names one, for at most 10 s.
	deadline := time.Now().Add(10 * time.Second)
	for {
		var nodes []string
		lister := l.Stream().ListConsumers(ctx)
		for info := range lister.Info() {
			if info.Cluster != nil && info.Cluster.Leader != "" {
				nodes = append(nodes, info.Cluster.Leader)
			}
		}
		if err := lister.Err(); err != nil {
			t.Fatal(err)
		}
		if len(nodes) == 1 {
			return nodes[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("the stream's consumers are on %v, want one consumer", nodes)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
