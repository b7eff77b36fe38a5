package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/fechado/fechado/console"
	"github.com/fechado/fechado/internal/webguard"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/projector"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/roles"
	"github.com/fechado/fechado/web"
)

func init() {
	register(&command{
		name:    "serve",
		summary: "run the log, projector, live auditor and web interface",
		usage:   "serve [--http ADDR] [--data DIR | --nats URL…] [--db FILE] [--nats-listen ADDR] [--integrity PERIOD] [--group-commit D] [--cpuprofile FILE] [--memprofile FILE] [--memory-limit SIZE]",
		help: `Serve opens the log (an embedded NATS JetStream server storing under --data, or the
external server(s) of --nats), keeps the SQLite read models (--db) up to date as events
arrive, audits every hand when it ends, and serves the web interface and its JSON API on
--http (default 127.0.0.1:8080): live tables, hands with audit badges, the hand replayer,
player statistics, tournament chip counts, Server-Sent Events at /api/events and Prometheus
metrics at /metrics.

Writes. With --auth FILE, POST /api/events needs the HTTP basic credentials of a table
device of the file (its own table only) or of an app user (every table): 401 without or
with wrong ones, 403 for any other user or an event of another table, as the NATS server
decides it. Without --auth (the demo) writes are open to anyone who reaches --http, which
is why it listens on loopback by default and says so when it starts; --http 0.0.0.0:8080
opens it to the network. A write must be Content-Type application/json or
application/x-ndjson and must not come from another site's page (Origin, Sec-Fetch-Site):
403 otherwise. Every answer carries a strict Content-Security-Policy and the other security
headers (docs/security.md).

Table systems append events with POST /api/events (a JSON Lines body, validated as
'fechado record' validates a file: a hand with an invalid event is not appended at all), or
publish them to the hand's subject fechado.hand.<table>.<hand> on NATS with the Nats-Msg-Id
header set to the event id and the expected last subject sequence; such publishes are not
validated by fechado before they are stored: the projector quarantines what it cannot apply
and the auditor reports the rest. With the embedded server, --nats-listen makes it accept
NATS clients on a loopback address.

The table console at /console/ records a live hand from a tablet or phone at the table: it
logs in as a table device of the --auth file and appends to that table only, over a NATS
connection as that device, so that the server itself refuses any other table. With --nats,
--auth names the console's devices, which the cluster must know as its users.

Integrity. The Integrity page shows the last integrity analysis stored in the read models
(docs/integrity.md): --integrity PERIOD runs it over the whole log at start and then every
PERIOD (e.g. 1h); without it, 'fechado integrity --all --save' stores one. The page says when
the analysis ran and over how many hands.

Hands in progress are shown with public information only; their face-down cards and seeds
appear once the hand has ended. Serve runs until SIGINT or SIGTERM, then stops accepting
requests, finishes those in progress and closes the log.

--group-commit D (default 50ms) is how long the projector, caught up with the live log, keeps
its transaction open for the events that come next before it commits: a commit for every few
events was most of its cost under a room's load. 0 commits as soon as it caught up; longer costs
less CPU an event and adds as much to the live audit's lag.

--cpuprofile and --memprofile write profiles for 'go tool pprof' when serve stops: where
the time went while it ran (under a load, 'make load'), and the heap when it was largest.

--memory-limit SIZE is the process's soft memory limit (300MiB unless GOMEMLIMIT is set; off for
none): near it the collector runs sooner, so resident memory stays near the heap in use.

Exit status: 0 after a clean shutdown; 2 on bad usage or an address it cannot listen on;
3 when the log store could not be reached or the projector failed.`,
		run: runServe,
	})
}

// serveFlags are the flags serve and demo share: where the log lives (log.go's flags), the
// read models, the web address and the embedded server's NATS listener.
type serveFlags struct {
	log     *logFlags
	format  *logFormat
	command string       // serve or demo
	logger  *slog.Logger // made by serveRun

	http       string
	db         string
	natsListen string
	auth       string
	integrity  time.Duration // serve_integrity.go
	// groupCommit is how long the projector keeps a batch open once caught up (web.Options).
	groupCommit time.Duration
	tlog        tlogFlags // serve_tlog.go
	// playerCards: each player may see his own cards of the hand in progress on his own phone,
	// by a link the table console shows for his seat (docs/security.md §10).
	playerCards bool
}

func (f *serveFlags) register(fs *flag.FlagSet) {
	f.log = addLogFlags(fs)
	f.format = addLogFormat(fs)
	f.command = fs.Name()
	fs.StringVar(&f.http, "http", "127.0.0.1:8080", "`ADDR`ess of the web interface")
	fs.StringVar(&f.db, "db", "", "SQLite read models `FILE` (default DIR/fechado.db)")
	fs.StringVar(&f.natsListen, "nats-listen", "", "embedded log only: also accept NATS clients on this loopback `ADDR`ess")
	f.tlog.register(fs)
	fs.DurationVar(&f.groupCommit, "group-commit", projector.DefaultGroupCommit, "how long the read models' projector, caught up with the live log, waits for more events before it commits (`DURATION`; 0: commit as soon as it caught up); longer costs less CPU an event and adds as much to the live audit's lag")
	fs.DurationVar(&f.integrity, "integrity", 0, "run the integrity analysis of the whole log at start and then every `PERIOD` (e.g. 1h), for the Integrity page (0: never; 'fechado integrity --all --save' stores one)")
	fs.BoolVar(&f.playerCards, "player-cards", false, "let each player see his own cards of the hand in progress on his own phone: the table console shows a link and QR code for each seat, read-only and good for that hand only (docs/security.md §10)")
	fs.StringVar(&f.auth, "auth", "", "the users and roles `FILE` (docs/security.md): the embedded NATS server enforces them, and the table console logs its devices in as them (with --nats, the cluster must know the same users); without it the embedded server listens on loopback only")
}

func (f *serveFlags) logOptions() (recorder.Options, error) {
	o, err := f.log.options()
	if err != nil {
		return o, err
	}
	if f.natsListen != "" && len(o.URLs) > 0 {
		return o, usageErr("--nats-listen goes with the embedded log, not with --nats")
	}
	o.Listen = f.natsListen
	if f.auth != "" && len(o.URLs) == 0 {
		// With --nats the cluster has its own users; the file then names the console's devices
		// only, which log in to the cluster as those users (docs/deployment.md).
		users, err := recorder.LoadAuth(f.auth)
		if err != nil {
			return o, usageErr("--auth %s: %v", f.auth, err)
		}
		o.Auth = users
	}
	return o, nil
}

func (f *serveFlags) dbPath() string {
	if f.db != "" {
		return f.db
	}
	return filepath.Join(f.log.data, "fechado.db")
}

// serveContext returns the context serve and demo run in: done at SIGINT or SIGTERM. Tests
// replace it to stop a server they started.
var serveContext = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

func runServe(m *Main, args []string) (err error) {
	c := commands["serve"]
	fs := m.flags(c)
	var f serveFlags
	f.register(fs)
	prof := addProfileFlags(fs, serveMemoryLimit)
	rest, err := m.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageErr("unexpected argument %q (see 'fechado serve --help')", rest[0])
	}
	stopProfile, err := prof.start()
	if err != nil {
		return usageErr("%v", err)
	}
	defer stopProfile(&err)
	ctx, stop := serveContext()
	defer stop()
	return serveRun(ctx, m, &f, nil)
}

// serveRun opens the log and the read models, starts the web server and runs until ctx is
// done. started, when set, runs once the server answers, with the log and the server's URL; it
// runs in its own goroutine and must return when its context is done.
func serveRun(ctx context.Context, m *Main, f *serveFlags, started func(ctx context.Context, l *recorder.Log, url string)) error {
	lo, err := f.logOptions()
	if err != nil {
		return err
	}
	if f.integrity < 0 {
		return usageErr("--integrity must not be negative")
	}
	if f.groupCommit < 0 || f.groupCommit > time.Minute {
		return usageErr("--group-commit must be between 0 and 1m")
	}
	if f.logger, err = f.format.logger(m.Stderr, f.command); err != nil {
		return err
	}
	log := f.logger
	ln, err := net.Listen("tcp", f.http)
	if err != nil {
		return usageErr("--http %s: %v", f.http, err)
	}
	defer ln.Close()
	l, err := recorder.Open(ctx, lo)
	if err != nil {
		return withCode(exitStore, err)
	}
	defer l.Close()
	if err := os.MkdirAll(filepath.Dir(f.dbPath()), 0o750); err != nil {
		return withCode(exitStore, err)
	}
	db, err := projector.Open(ctx, f.dbPath())
	if err != nil {
		return withCode(exitStore, fmt.Errorf("read models %s: %w", f.dbPath(), err))
	}
	defer db.Close()
	auth, err := f.authFile()
	if err != nil {
		return err
	}
	tl, err := f.transparency(ctx, m, l)
	if err != nil {
		return err
	}
	defer tl.close()
	gc := f.groupCommit
	if gc == 0 {
		gc = -1 // the projector's "as soon as caught up"; its 0 is the default
	}
	srv, err := web.New(web.Options{Log: l, DB: db, Auth: auth, Transparency: tl.handler(), GroupCommit: gc})
	if err != nil {
		return withCode(exitStore, err)
	}
	url := "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(m.Stdout, "fechado: web interface on %s\n", url)
	log.Info("fechado: serving the web interface", "url", url, "db", f.dbPath())
	reader := m.reader()
	if auth == nil {
		// The demo's default: say it where the operator looks, as a warning of the log too.
		msg := reader.T("serve.writes-open", lang.Args{"url": url})
		fmt.Fprintln(m.Stdout, "fechado: "+msg)
		log.Warn("fechado: "+msg, "url", url, "auth", false)
	} else {
		log.Info("fechado: "+reader.T("serve.writes-auth", lang.Args{"file": f.auth}), "auth", f.auth)
	}
	if u := l.ClientURL(); u != "" && len(lo.URLs) == 0 {
		fmt.Fprintf(m.Stdout, "fechado: NATS clients may connect to %s\n", u)
		if f.auth == "" {
			fmt.Fprintln(m.Stdout, "fechado: no --auth: the embedded NATS server listens on loopback only, for fechado's own user")
		}
	}

	runCtx, cancelRun := context.WithCancel(ctx)
	defer cancelRun()
	// The console's secrets live beside the read models: the seeds of its machine shuffles until
	// their hands end, and the key of the players' links, so that a restart loses neither.
	dir := filepath.Dir(f.dbPath())
	co := console.Options{Log: l, Auth: auth, SeedFile: filepath.Join(dir, "console-seeds.json"), Receipts: tl != nil,
		PlayerCards: f.playerCards}
	if f.playerCards {
		if co.SeatKey, err = console.LoadSeatKey(filepath.Join(dir, "console-seat.key")); err != nil {
			return withCode(exitStore, err)
		}
	}
	handler, closeConsole, err := withConsole(srv.Handler(), co)
	if err != nil {
		return err
	}
	defer closeConsole()
	hs := &http.Server{Handler: withBodyDeadline(handler, bodyReadTimeout), ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout: 2 * time.Minute, BaseContext: func(net.Listener) context.Context { return runCtx }}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	tl.run(runCtx, log, &wg, errs)
	wg.Add(3)
	go func() {
		// Spectators' public subjects (docs/security.md): the public view of every event from now on.
		defer wg.Done()
		from := uint64(0)
		if info, err := l.Stream().Info(runCtx); err == nil {
			from = info.State.LastSeq + 1 // live events only: history is for the auditor and the API
		}
		if err := l.PublishPublic(runCtx, from); err != nil && runCtx.Err() == nil {
			errs <- withCode(exitStore, err)
		}
	}()
	go func() {
		defer wg.Done()
		if err := srv.Run(runCtx); err != nil {
			errs <- withCode(exitStore, err)
		}
	}()
	go func() {
		defer wg.Done()
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			errs <- withCode(exitStore, err)
		}
	}()
	if f.integrity > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			integrityEvery(runCtx, l, db, f.integrity, log)
		}()
	}
	if started != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			started(runCtx, l, url)
		}()
	}
	var runErr error
	select {
	case <-ctx.Done():
	case runErr = <-errs:
		log.Error("fechado: stopping after an error", "error", runErr)
	}
	log.Info("fechado: shutting down")
	// Cancelling runCtx ends the projector and closes the live streams (SSE), so that Shutdown
	// does not wait for them.
	cancelRun()
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
	}
	wg.Wait()
	return runErr
}

// authFile reads the --auth file; nil without one.
func (f *serveFlags) authFile() (*roles.Auth, error) {
	if f.auth == "" {
		return nil, nil
	}
	a, err := roles.Load(f.auth)
	if err != nil {
		return nil, usageErr("--auth %s: %v", f.auth, err)
	}
	return a, nil
}

// withConsole mounts the table console (package console) of options o at /console/ beside the web
// interface: its devices are the table users of o.Auth (none without it); it keeps the seeds of
// its machine shuffles in o.SeedFile, beside the read models, until their hands end. Every answer
// of the two, and of the mux between them, carries the security headers (webguard.Secure). The
// function it returns closes the console's connections as its devices. With o.Receipts (serve
// --sign-key) the console links each ended hand's receipt; with o.PlayerCards (--player-cards)
// it gives each seat a link to his own cards.
func withConsole(web http.Handler, o console.Options) (http.Handler, func(), error) {
	c, err := console.New(o)
	if err != nil {
		return nil, nil, withCode(exitStore, err)
	}
	m := http.NewServeMux()
	m.Handle("/console/", c)
	m.Handle("/", web)
	return webguard.Secure(m), c.Close, nil
}

// bodyReadTimeout is how long a client may take to send a request's body: 8 MiB of events
// (web.DefaultMaxBody) at 150 kB/s, a table system on a poor line. A body trickled in more slowly
// would hold a connection and its handler for ever.
const bodyReadTimeout = time.Minute

// withBodyDeadline gives each request that carries a body (every write: the events a table system
// posts, the console's actions, a witness's co-signature) d to send it whole; its handler's read
// then fails and the request is refused. It is not the server's ReadTimeout, which would also end
// the live pages' streams of events: their requests carry no body and last as long as the page.
func withBodyDeadline(h http.Handler, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength != 0 { // a length, or -1: chunked, unknown
			_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(d))
		}
		h.ServeHTTP(w, r)
	})
}
