package recorder_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/projector"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/sim"
	"github.com/fechado/fechado/web"
)

// serveNode is what `fechado serve --nats …` runs on one machine of docs/deployment.md, without
// its HTTP listener: its own connection to the cluster and its own read models, kept by the web
// server's projector and live auditor.
type serveNode struct {
	t      *testing.T
	name   string
	dbPath string
	urls   []string
	log    *recorder.Log
	db     *sql.DB
	srv    *web.Server
	stop   context.CancelFunc
	done   chan error
}

func (n *serveNode) start(ctx context.Context) {
	n.t.Helper()
	var err error
	if n.log, err = recorder.Open(ctx, recorder.Options{URLs: n.urls, Replicas: 3, Timeout: 2 * time.Second}); err != nil {
		n.t.Fatalf("%s: %v", n.name, err)
	}
	if n.db, err = projector.Open(ctx, n.dbPath); err != nil {
		n.t.Fatalf("%s: %v", n.name, err)
	}
	if n.srv, err = web.New(web.Options{Log: n.log, DB: n.db}); err != nil {
		n.t.Fatalf("%s: %v", n.name, err)
	}
	rctx, stop := context.WithCancel(ctx)
	n.stop, n.done = stop, make(chan error, 1)
	go func() { n.done <- n.srv.Run(rctx) }()
}

// halt stops the node as a SIGTERM stops serve: the projector ends, the log and database close.
func (n *serveNode) halt() {
	if n.stop == nil {
		return
	}
	n.stop()
	if err := <-n.done; err != nil {
		n.t.Errorf("%s: %v", n.name, err)
	}
	n.stop = nil
	n.db.Close()
	n.log.Close()
}

// A simulated room appends hands to a three-node cluster while one NATS node and one serve node
// stop and start again: every hand ends up stored once, projected once into each serve node's
// own read models (the restarted one resuming from its checkpoint), and audited the same on
// every node (docs/deployment.md §4).
func TestClusterServeNodesThroughNodeLoss(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a three-node cluster with three projectors for about half a minute runs without it (make test-long)")
	}
	c := startCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	room := c.open(ctx)

	nodes := make([]*serveNode, 3)
	for i := range nodes {
		nodes[i] = &serveNode{t: t, name: fmt.Sprintf("serve-%c", 'A'+i), dbPath: filepath.Join(t.TempDir(), "fechado.db"), urls: c.urls()}
		nodes[i].start(ctx)
		defer nodes[i].halt()
	}

	// Three tables of the room; one deals a hand with an irregularity now and then, so that the
	// audits have findings to agree on.
	tables := make([]*sim.Sim, 3)
	for i := range tables {
		cfg := sim.Config{Rules: "std-draw", Players: 4, Hands: 1000, Seed: uint64(40 + i), Table: fmt.Sprintf("room-%d", i+1)}
		if i == 2 {
			// Irregularities of play only: a broken envelope (log.*) is refused by the recorder.
			for _, code := range sim.InjectableFor("std-draw") {
				if !strings.HasPrefix(string(code), "log.") {
					cfg.Inject = append(cfg.Inject, code)
				}
			}
		}
		s, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		tables[i] = s
	}
	var hands [][]*events.Event
	deal := func(rounds int) {
		t.Helper()
		var phase [][]*events.Event
		for range rounds {
			for _, s := range tables {
				h, err := s.Next()
				if err != nil {
					t.Fatal(err)
				}
				phase = append(phase, h.Events)
			}
		}
		hands = append(hands, phase...)
		recordThroughElections(t, ctx, room, phase)
	}

	deal(10)
	victim := c.streamLeader(ctx, room)
	vi := c.index(victim)
	c.stop(vi)
	nodes[1].halt()
	t.Logf("stopped the stream leader %s and %s", victim, nodes[1].name)

	deal(10) // a new leader is elected; two serve nodes go on projecting

	c.start(vi)
	c.waitCurrent(ctx, room, victim)
	nodes[1].start(ctx)
	deal(5)

	// Stored once: the stream and each node's own copy hold every event, one subject per hand.
	var stored int
	for _, s := range c.nodes {
		stored = waitStoredOnce(t, s, hands)
	}

	// Projected once and audited the same on each serve node.
	var first string
	for _, n := range nodes {
		waitFor(t, 60*time.Second, n.name+" to project the whole log", func() bool {
			select {
			case err := <-n.done:
				n.stop = nil
				t.Fatalf("%s stopped projecting: %v", n.name, err)
			default:
			}
			cp, err := n.srv.Checkpoint(ctx)
			return err == nil && cp >= uint64(stored)
		})
		got := readModels(t, ctx, n.db)
		if !strings.HasPrefix(got, fmt.Sprintf("hands=%d ended=%d audited=%d quarantined=0\n", len(hands), len(hands), len(hands))) {
			t.Fatalf("%s: %s", n.name, firstLine(got))
		}
		if first == "" {
			first = got
			if !strings.Contains(got, " "+string(finding.Error)+"@") {
				t.Fatalf("%s: no finding in the audit of the injected hands:\n%s", n.name, got)
			}
			continue
		}
		if got != first {
			t.Fatalf("%s's read models differ from %s's:\n%s\n---\n%s", n.name, nodes[0].name, got, first)
		}
	}
}

// readModels is what a serve node's read models say of the hands: counts, then every hand with
// its audit and every finding, in a fixed order.
func readModels(t *testing.T, ctx context.Context, db *sql.DB) string {
	t.Helper()
	var b strings.Builder
	var n, ended, audited, quarantined int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*), COUNT(end_seq), COUNT(audit_status), (SELECT COUNT(*) FROM quarantine) FROM hands`).
		Scan(&n, &ended, &audited, &quarantined); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "hands=%d ended=%d audited=%d quarantined=%d\n", n, ended, audited, quarantined)
	rows, err := db.QueryContext(ctx, `SELECT h.hand_id, h.table_id, h.number, h.stream_seq, h.end_seq, h.audit_status,
		COALESCE(f.code, ''), COALESCE(f.severity, ''), COALESCE(f.seq, 0)
		FROM hands h LEFT JOIN findings f USING (hand_id) ORDER BY h.stream_seq, f.n`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var hand, table, status, code, sev string
		var number, start, end, seq int
		if err := rows.Scan(&hand, &table, &number, &start, &end, &status, &code, &sev, &seq); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %s #%d %d..%d %s %s %s@%d\n", hand, table, number, start, end, status, code, sev, seq)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	var actions, draws, awards int
	if err := db.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM actions), (SELECT COUNT(*) FROM draws), (SELECT COUNT(*) FROM awards)`).
		Scan(&actions, &draws, &awards); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "actions=%d draws=%d awards=%d\n", actions, draws, awards)
	return b.String()
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
