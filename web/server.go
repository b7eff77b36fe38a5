// Package web owns fechado's web interface: the HTTP server behind `fechado serve` and `fechado
// demo`. It runs the projector over the log continuously with a live auditor, and serves the JSON
// API under /api/ (tables, hands, the hand replayer's states, player statistics, chip counts,
// Server-Sent Events, and POST /api/events for table systems to append events), Prometheus
// metrics at /metrics, and the pages of the dashboard, embedded from assets/ (plain HTML, CSS and
// JavaScript that work offline).
//
// Privacy. A hand in progress (no hand.ended yet) is shown only as its public information:
// actions, pots, the number of cards each player holds, cards exposed or shown. Face-down cards,
// burned and discarded cards and a revealed seed are removed from every answer until the hand
// ends; a finished hand shows everything the log holds.
package web

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/projector"
	"github.com/fechado/fechado/recorder"
)

// DefaultMaxBody bounds the body of POST /api/events.
const DefaultMaxBody = 8 << 20

// ErrNoLog is returned by New without a log or a database.
var ErrNoLog = errors.New("web: a log and a read-model database are required")

// Options configure a Server.
type Options struct {
	// Log is the hand log the server reads, and appends POST /api/events to.
	Log *recorder.Log
	// DB is the read-model database (projector.Open); the server's projector writes it.
	DB *sql.DB
	// MaxBody bounds a POST /api/events body; 0 means DefaultMaxBody.
	MaxBody int64
}

// Server is the web interface over one log. Run projects and audits the log; Handler serves
// HTTP. Its methods are safe for concurrent use.
type Server struct {
	log     *recorder.Log
	db      *sql.DB
	live    *projector.Live
	proj    *projector.Projector
	maxBody int64
	metrics *metrics
	hub     *hub
	mux     *http.ServeMux

	auditMu  sync.Mutex
	auditors map[string]*tableAudit // by table
	// expected keeps, for hands audited by this process, the findings with their expected
	// and actual values (the findings table stores neither).
	expected map[string][]finding.Finding
	// continuity keeps the table.* findings of the live auditor, by hand (not stored).
	continuity map[string][]finding.Finding
}

// New returns a Server over o.Log and o.DB.
func New(o Options) (*Server, error) {
	if o.Log == nil || o.DB == nil {
		return nil, ErrNoLog
	}
	s := &Server{
		log: o.Log, db: o.DB, live: projector.NewLive(), maxBody: o.MaxBody,
		hub: newHub(), expected: map[string][]finding.Finding{}, auditors: map[string]*tableAudit{},
		continuity: map[string][]finding.Finding{},
	}
	if s.maxBody <= 0 {
		s.maxBody = DefaultMaxBody
	}
	s.proj = projector.New(o.DB, &projector.LogSource{Log: o.Log})
	// The checkpoint `fechado project` keeps too: both bring the same read models up to date.
	s.proj.Name = projector.DefaultName
	s.proj.Live = s.live
	s.proj.Audit = s.auditHand
	s.metrics = newMetrics(s)
	s.routes()
	return s, nil
}

// Live returns the live state of the tables the server follows.
func (s *Server) Live() *projector.Live { return s.live }

// Run projects the log into the read models, audits each hand as it ends and feeds the live
// updates of GET /api/events, until ctx is done (it then returns nil) or the projector fails.
func (s *Server) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.feed(ctx)
	}()
	err := s.proj.Run(ctx)
	cancel()
	wg.Wait()
	s.hub.close()
	if err != nil {
		return fmt.Errorf("web: projector: %w", err)
	}
	return nil
}

// Checkpoint returns the stream sequence the read models have reached.
func (s *Server) Checkpoint(ctx context.Context) (uint64, error) {
	var cp sql.NullInt64
	err := s.db.QueryRowContext(ctx, `SELECT stream_seq FROM checkpoint WHERE name = ?`, s.proj.Name).Scan(&cp)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, err
	}
	return uint64(cp.Int64), nil
}

// tableAudit is the live auditor of one table, and the last hand it audited.
type tableAudit struct {
	a      *audit.Auditor
	last   string
	result *audit.HandResult
}

// auditHand is the projector's AuditFunc. What it returns, and the projector stores, is
// audit.Hand's verdict on the hand alone, as `fechado project` stores it, so that the read
// models are the same whoever wrote them. The table continuity checks (table.* codes), which
// need the hands before, come from a live auditor per table that follows its hands in the order
// they end; they are kept in memory and merged into the API's answers. A hand whose "previous"
// names another hand than the last one audited (hands of one table appended concurrently end
// out of order) starts its table's live auditor afresh: its continuity is not checked, rather
// than checked against the wrong hand.
func (s *Server) auditHand(hand []*events.Event) []finding.Finding {
	start := time.Now()
	if len(hand) == 0 {
		return nil
	}
	s.auditMu.Lock()
	defer s.auditMu.Unlock()
	table := hand[0].Table
	ta := s.auditors[table]
	if hs, ok := hand[0].Data.(*events.HandStarted); ta == nil || ok && hs.Previous != nil && *hs.Previous != ta.last {
		ta = &tableAudit{a: audit.New(nil)}
		ta.a.Hand = func(h *audit.HandResult) { ta.result = h }
		s.auditors[table] = ta
	}
	ta.result = nil
	for _, e := range hand {
		ta.a.Add(e)
	}
	ta.last = hand[0].Hand
	// The stored findings come from audit.Hand, which depends on this hand alone, so that a
	// rebuild and a resumed projection store the same rows; the table's auditor (stateful) adds
	// the table.* continuity findings, kept here in memory.
	own := audit.Hand(hand)
	var cont []finding.Finding
	if ta.result != nil {
		for _, f := range ta.result.Findings {
			if isContinuity(f.Code) {
				cont = append(cont, f)
			}
		}
	}
	s.metrics.auditDuration.Observe(time.Since(start).Seconds())
	s.metrics.handsAudited.Inc()
	for _, f := range own {
		s.metrics.findings.WithLabelValues(string(f.Code), string(f.Severity)).Inc()
	}
	for _, f := range cont {
		s.metrics.findings.WithLabelValues(string(f.Code), string(f.Severity)).Inc()
	}
	if len(own) > 0 {
		s.expected[hand[0].Hand] = own
	}
	if len(cont) > 0 {
		s.continuity[hand[0].Hand] = cont
	}
	return own
}

// isContinuity reports whether code is one of the table continuity checks.
func isContinuity(code finding.Code) bool { return strings.HasPrefix(string(code), "table.") }

// continuityOf returns the table.* findings the live auditor found in hand.
func (s *Server) continuityOf(hand string) []finding.Finding {
	s.auditMu.Lock()
	defer s.auditMu.Unlock()
	return s.continuity[hand]
}

// continuityHands returns the hands with table.* findings.
func (s *Server) continuityHands() []string {
	s.auditMu.Lock()
	defer s.auditMu.Unlock()
	out := make([]string, 0, len(s.continuity))
	for h := range s.continuity {
		out = append(out, h)
	}
	return out
}

// knownFindings returns the findings with expected values that this process found in hand.
func (s *Server) knownFindings(hand string) ([]finding.Finding, bool) {
	s.auditMu.Lock()
	defer s.auditMu.Unlock()
	fs, ok := s.expected[hand]
	return fs, ok
}
