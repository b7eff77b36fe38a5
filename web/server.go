// Package web owns fechado's web interface: the HTTP server behind `fechado serve` and `fechado
// demo`. It runs the projector over the log continuously (the projector audits every hand and
// stores the findings: web only reads them, through the projector's read API), and serves the JSON
// API under /api/ (tables, hands, the hand replayer's states, player statistics, chip counts,
// Server-Sent Events, and POST /api/events for table systems to append events), Prometheus
// metrics at /metrics, and the pages of the dashboard, embedded from assets/ (plain HTML, CSS and
// JavaScript that work offline).
//
// Doors. Every answer carries the security headers (internal/webguard); a write another site's
// page could send is refused; with Options.Auth, POST /api/events takes only a table device (its
// own table) or an app user, decided by roles.User.MayAppend as the NATS server decides it.
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
	"sync"
	"sync/atomic"
	"time"

	"github.com/fechado/fechado/projector"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/roles"
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
	// Auth, when set, are the users who may write: POST /api/events then needs the HTTP basic
	// credentials of a table device (its own table only) or of an app user (every table), as
	// the NATS server asks them (roles.User.MayAppend). Nil leaves writes open to anyone who
	// reaches the server (the demo).
	Auth *roles.Auth
	// Transparency, when set, serves the transparency log (recorder/checkpoint's Keeper.Handler)
	// at TransparencyRoutes.
	Transparency http.Handler
	// GroupCommit is the projector's (projector.Projector.GroupCommit): how long it keeps a
	// batch open once caught up with the live log; 0 means projector.DefaultGroupCommit.
	GroupCommit time.Duration
}

// Server is the web interface over one log. Run projects and audits the log; Handler serves
// HTTP. Its methods are safe for concurrent use.
type Server struct {
	log     *recorder.Log
	db      *sql.DB
	live    *projector.Live
	proj    *projector.Projector
	maxBody int64
	auth    *roles.Authenticator // nil: writes are open
	tlog    http.Handler
	metrics *metrics
	hub     *hub
	mux     *http.ServeMux
	// commits counts the projector's commits, tables keeps GET /api/tables (tables.go), chips
	// the answers of GET /api/tables/{id}/chips (chips.go).
	commits atomic.Uint64
	tables  *tablesCache
	chips   *chipsCache
}

// New returns a Server over o.Log and o.DB.
func New(o Options) (*Server, error) {
	if o.Log == nil || o.DB == nil {
		return nil, ErrNoLog
	}
	s := &Server{
		log: o.Log, db: o.DB, live: projector.NewLive(), maxBody: o.MaxBody,
		hub: newHub(), tlog: o.Transparency, tables: newTablesCache(), chips: newChipsCache(chipsCacheBytes),
	}
	if s.maxBody <= 0 {
		s.maxBody = DefaultMaxBody
	}
	if o.Auth != nil {
		s.auth = roles.NewAuthenticator(o.Auth)
	}
	s.proj = projector.New(o.DB, &projector.LogSource{Log: o.Log})
	// The checkpoint `fechado project` keeps too: both bring the same read models up to date.
	s.proj.Name = projector.DefaultName
	s.proj.Live = s.live
	s.proj.OnAudit = s.audited
	s.proj.OnCommit = func(projector.Progress) { s.commits.Add(1) }
	s.proj.GroupCommit = o.GroupCommit
	s.metrics = newMetrics(s)
	s.routes()
	return s, nil
}

// Live returns the live state of the tables the server follows.
func (s *Server) Live() *projector.Live { return s.live }

// Run projects the log into the read models (the projector audits each hand as it ends and
// stores the findings) and feeds the live updates of GET /api/events, until ctx is done (it then returns nil) or the projector fails.
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
	return projector.ReadCheckpoint(ctx, s.db, s.proj.Name)
}

// audited counts what the projector's auditor found, once per hand, after the commit that
// stored it: the web serves the stored findings and never audits a hand itself.
func (s *Server) audited(a projector.Audited) {
	if !a.Stray {
		s.metrics.auditDuration.Observe(a.Took.Seconds())
		s.metrics.handsAudited.Inc()
	}
	for _, f := range a.Findings {
		s.metrics.findings.WithLabelValues(string(f.Code), string(f.Severity)).Inc()
	}
}
