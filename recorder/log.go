// Package recorder owns fechado's immutable hand log on NATS JetStream: the stream FECHADO_HANDS
// with one subject per hand, the embedded nats-server that stores it by default (or the
// connection to an external server or cluster), validated appends of events as decoded once by
// package events (the recorder never decodes a line again) that can neither fork a hand nor
// store an event twice, reads of one hand, one table or the whole log, and the check that the
// stream still protects history (docs/stream.md).
package recorder

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/roles"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The stream design of docs/stream.md.
const (
	// StreamName is the name of the stream that holds every hand (declared with the
	// permissions that name it, in roles).
	StreamName = roles.Stream
	// SubjectPrefix starts every event's subject: SubjectPrefix + "<table>.<hand>".
	SubjectPrefix = roles.HandPrefix
	// StreamSubjects is the subject filter the stream captures.
	StreamSubjects = SubjectPrefix + ">"
	// DuplicateWindow is how long the server remembers a Nats-Msg-Id in the streams fechado
	// creates (an existing stream keeps its own): a retried append within it is answered as a
	// duplicate. Retries do not depend on it (the expected last subject sequence refuses a second
	// copy at any distance in time, and an attempt still in process is retried in doubt,
	// subjectInProcess), and every id it holds costs the server memory and time (docs/stream.md
	// §5), so it is short (the measured choice is in docs/stream.md §5).
	DuplicateWindow = 5 * time.Second
)

// MaxPayload is the max_payload of the embedded server, and the least an external server
// needs (docs/deployment.md): an event of events.MaxLineSize bytes with the headers of its
// append (appendHeaderRoom), with room to spare. nats-server's default, 1 MiB, takes events of
// up to 1 MiB less those headers (Log.MaxEvent).
const MaxPayload = events.MaxLineSize + 4<<10

// appendHeaderRoom bounds the headers of an append's message (eventMsg), which NATS counts in
// max_payload and JetStream in max_msg_size: the NATS/1.0 line, Nats-Msg-Id (the event's id, a
// UUID), Nats-Expected-Last-Subject-Sequence (20 digits at most) and the blank line.
var appendHeaderRoom = len("NATS/1.0\r\n") + len(jetstream.MsgIDHeader+": \r\n") + 36 +
	len(jetstream.ExpectedLastSubjSeqHeader+": \r\n") + 20 + len("\r\n")

// MaxEvent is the longest event line the log takes: events.MaxLineSize, or less when the
// server's max_payload or the stream's max_msg_size, less the headers of an append, is smaller.
// A hand with a longer line is refused whole before any of it is appended (Recorder, Append).
func (l *Log) MaxEvent() int {
	n := events.MaxLineSize
	if mp := int(l.nc.MaxPayload()) - appendHeaderRoom; mp < n {
		n = mp
	}
	if l.stream != nil {
		if info := l.stream.CachedInfo(); info != nil && info.Config.MaxMsgSize > 0 {
			n = min(n, int(info.Config.MaxMsgSize)-appendHeaderRoom)
		}
	}
	return n
}

// Defaults for Options.
const (
	// DefaultDataDir is where the embedded server stores the log (cli-v1.md).
	DefaultDataDir = "fechado-data"
	// DefaultReplicas is the stream's replica count when it is created.
	DefaultReplicas = 1
	// DefaultTimeout bounds one request to the server (an API call or one publish attempt).
	DefaultTimeout = 5 * time.Second
)

// AppUser is the user fechado's own processes are on the embedded server: it may append and
// read, but publishing to the stream create, update, delete, purge, message-delete, restore and
// peer-removal APIs is denied (deniedAPIs).
const AppUser = "fechado"

// deniedAPIs are the JetStream API subjects the application user may not publish to: each one
// could remove history (research/eventsourcing.md §1.2) or create a stream. Creating a stream is
// the set-up's: a stream created by anyone else could fill the disk, and a check could create
// what it checks. Embedded, the set-up is this process's own admin connection (SetupJetStream).
// The list is roles' (roles.HistoryAPIs), which every role is denied too: one list, so that no
// door is shut for one user and open for another.
var deniedAPIs = roles.HistoryAPIs()

// Options say where the log is. With no URLs, an embedded server stores it under DataDir; with
// URLs, the log is on that external server or cluster. Everything else is the same.
type Options struct {
	// DataDir is the embedded server's store folder; "" means DefaultDataDir.
	DataDir string
	// URLs are the external servers to connect to instead of embedding one.
	URLs []string
	// Creds is a NATS credentials file for the external servers.
	Creds string
	// User and Password authenticate to the external servers. Embedded, Password (when set) is
	// AppUser's password for clients that present credentials; clients that present none
	// (in-process, or on the Listen address) are AppUser anyway.
	User, Password string
	// Replicas is the stream's replica count when this call creates it; 0 means DefaultReplicas.
	Replicas int
	// Listen, embedded only, makes the server accept clients on this loopback address
	// ("127.0.0.1:4222"; port 0 picks a free one). "" means in-process clients only.
	Listen string
	// Timeout bounds each request to the server; 0 means DefaultTimeout.
	Timeout time.Duration
	// Auth, embedded only, are more users of the server, each with its role's permissions
	// (LoadAuth, docs/security.md). With them, clients must give credentials: no client is
	// AppUser without its password.
	Auth []*server.User
	// Existing says the log must exist already: Open then creates nothing (no stream, no data
	// folder), removes nothing (an old hand index stays: index.go) and fails with ErrNoStream
	// when the stream is missing. The commands
	// that only read or check the log open it so (a check must never create what it checks).
	Existing bool
}

// Log is an open hand log: the connection to the server (and the server itself when embedded)
// and the stream. Its methods are safe for concurrent use.
type Log struct {
	opts   Options
	srv    *server.Server // nil when external
	lock   *dirLock       // nil when external
	nc     *nats.Conn
	js     jetstream.JetStream
	stream jetstream.Stream
	// directOnly is set once a leader read was refused (a table device may only use direct gets).
	directOnly atomic.Bool
	// refused stops the requests whose subject the server refuses the log's user.
	refused refusals
	// reads is the log that reads for an append what this log's user may not read (a table
	// device: a stored hand's events, a message by its stream sequence); nil means this one.
	reads *Log
	// created is set when Open created the stream.
	created bool
	// adminPassword is the embedded server's set-up user's, random per process; "" when external.
	adminPassword string
	// leaderLastOf, when set (tests only), answers in place of the stream leader what the last
	// stream sequence of a filter is (filterLast).
	leaderLastOf func(ctx context.Context, filter string) (uint64, error)
	// askInfo, when set (tests only), makes LastSeq ask the stream info even embedded, where a
	// test changes what that answers (LeaderAhead).
	askInfo bool
	// lasts remembers the last event this log appended to each open hand (lastcache.go).
	lasts lastCache
}

// Created reports whether Open created the stream (it did not exist before).
func (l *Log) Created() bool { return l.created }

// Open starts the embedded server (or connects to the external one), creates the stream when it
// is missing and returns the log. Close releases everything.
func Open(ctx context.Context, opts Options) (*Log, error) {
	if opts.Replicas == 0 {
		opts.Replicas = DefaultReplicas
	}
	if opts.Replicas < 0 {
		return nil, fmt.Errorf("recorder: replicas must be at least 1, not %d", opts.Replicas)
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	l := &Log{opts: opts}
	var err error
	if opts.Existing && len(opts.URLs) == 0 {
		dir := opts.DataDir
		if dir == "" {
			dir = DefaultDataDir
		}
		if _, serr := os.Stat(dir); errors.Is(serr, os.ErrNotExist) {
			return nil, fmt.Errorf("recorder: %w: no data folder %s", ErrNoStream, dir)
		}
		// A folder that exists but holds no JetStream store (a mistyped --data naming some other
		// folder) holds no log either: starting the server there would leave its store and lock
		// behind, and a check never creates what it checks.
		if _, serr := os.Stat(filepath.Join(dir, "jetstream")); errors.Is(serr, os.ErrNotExist) {
			return nil, fmt.Errorf("recorder: %w: no log in the folder %s", ErrNoStream, dir)
		}
	}
	if len(opts.URLs) > 0 {
		err = l.connectExternal()
	} else {
		err = l.startEmbedded(ctx)
	}
	if err == nil {
		err = l.openStream(ctx)
	}
	if err != nil {
		l.Close()
		return nil, err
	}
	l.dropLegacyIndex(ctx)
	return l, nil
}

func (l *Log) startEmbedded(ctx context.Context) error {
	dir := l.opts.DataDir
	if dir == "" {
		dir = DefaultDataDir
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return fmt.Errorf("recorder: data folder: %w", err)
	}
	lock, err := lockDir(dir)
	if err != nil {
		return err
	}
	l.lock = lock
	adminPassword := randomPassword()
	l.adminPassword = adminPassword
	appPassword := l.opts.Password
	if appPassword == "" {
		appPassword = randomPassword()
	}
	so := &server.Options{
		ServerName:             "fechado",
		MaxPayload:             MaxPayload,
		JetStream:              true,
		StoreDir:               dir,
		DontListen:             l.opts.Listen == "",
		NoSigs:                 true,
		NoLog:                  true,
		DisableJetStreamBanner: true,
		Users: append([]*server.User{
			{Username: AppUser, Password: appPassword, Permissions: &server.Permissions{
				Publish: &server.SubjectPermission{Deny: deniedAPIs},
			}},
			{Username: adminUser, Password: adminPassword},
		}, l.opts.Auth...),
	}
	if len(l.opts.Auth) == 0 {
		so.NoAuthUser = AppUser
	}
	if l.opts.Listen != "" {
		host, port, err := loopback(l.opts.Listen)
		if err != nil {
			return err
		}
		so.Host, so.Port = host, port
	}
	s, err := server.NewServer(so)
	if err != nil {
		return fmt.Errorf("recorder: embedded server: %w", err)
	}
	l.srv = s
	s.Start()
	if !s.ReadyForConnections(30 * time.Second) {
		return errors.New("recorder: the embedded server did not start within 30 s")
	}
	if l.nc, err = nats.Connect("", nats.InProcessServer(s), nats.UserInfo(AppUser, appPassword), nats.Name("fechado"), nats.ErrorHandler(l.asyncError)); err != nil {
		return fmt.Errorf("recorder: connecting to the embedded server: %w", err)
	}
	if l.js, err = l.newJetStream(l.nc); err != nil {
		return err
	}
	// The stream is created once, as the admin user, whose password lives only in this process.
	if err := l.ensureStream(ctx, l.js); !errors.Is(err, ErrNoStream) || l.opts.Existing {
		return err
	}
	ajs, done, err := l.SetupJetStream()
	if err != nil {
		return err
	}
	defer done()
	return l.createStream(ctx, ajs)
}

// SetupJetStream returns a JetStream context of the user who may create the log's streams, and
// a function that closes it. Embedded, that is the set-up (admin) user, whose password lives only
// in this process, over an in-process connection: the application user may create no stream
// (deniedAPIs). External, it is l's own connection, whose user may or may not create streams: on
// a cluster configured as docs/deployment.md says it may not, and the set-up ('fechado init')
// created them.
func (l *Log) SetupJetStream() (jetstream.JetStream, func(), error) {
	if l.srv == nil {
		return l.js, func() {}, nil
	}
	admin, err := nats.Connect("", nats.InProcessServer(l.srv), nats.UserInfo(adminUser, l.adminPassword), nats.Name("fechado-admin"), quiet)
	if err != nil {
		return nil, nil, fmt.Errorf("recorder: connecting as admin: %w", err)
	}
	js, err := l.newJetStream(admin)
	if err != nil {
		admin.Close()
		return nil, nil, err
	}
	return js, admin.Close, nil
}

// quiet keeps the client library from printing asynchronous errors (its default): a library
// does not print. Failed requests still return their errors.
var quiet = nats.ErrorHandler(func(*nats.Conn, *nats.Subscription, error) {})

// adminUser creates the stream on the embedded server; its password is random per process.
const adminUser = "admin"

func randomPassword() string {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return hex.EncodeToString(b)
}

// loopback parses a Listen address and insists on a loopback host.
func loopback(addr string) (string, int, error) {
	host, ps, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, fmt.Errorf("recorder: listen address %q: %w", addr, err)
	}
	if host == "localhost" {
		host = "127.0.0.1"
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return "", 0, fmt.Errorf("recorder: listen address %q: the embedded server listens on loopback only", addr)
	}
	port, err := strconv.Atoi(ps)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("recorder: listen address %q: bad port", addr)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	return host, port, nil
}

func (l *Log) connectExternal() error {
	nopts := l.clientOptions()
	nc, err := nats.Connect(strings.Join(l.opts.URLs, ","), nopts...)
	if err != nil {
		return fmt.Errorf("recorder: connecting to %s: %w", strings.Join(l.opts.URLs, ","), err)
	}
	l.nc = nc
	l.js, err = l.newJetStream(nc)
	return err
}

// maxPending bounds asynchronous publishes awaiting their ack on the connection.
const maxPending = 8192

func (l *Log) newJetStream(nc *nats.Conn) (jetstream.JetStream, error) {
	js, err := jetstream.New(nc,
		jetstream.WithDefaultTimeout(l.opts.Timeout),
		jetstream.WithPublishAsyncMaxPending(maxPending),
		jetstream.WithPublishAsyncTimeout(l.opts.Timeout))
	if err != nil {
		return nil, fmt.Errorf("recorder: jetstream: %w", err)
	}
	return js, nil
}

// ErrNoStream means the log's stream does not exist (and Options.Existing kept Open from
// creating it).
var ErrNoStream = errors.New("the stream " + StreamName + " does not exist")

// ensureStream binds the stream if it exists; ErrNoStream when it does not.
func (l *Log) ensureStream(ctx context.Context, js jetstream.JetStream) error {
	st, err := js.Stream(ctx, StreamName)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		return ErrNoStream
	}
	if err != nil {
		return fmt.Errorf("recorder: stream %s: %w", StreamName, err)
	}
	l.stream = st
	return nil
}

// createStream creates the stream with js (whose user may do it) and binds it for l.
func (l *Log) createStream(ctx context.Context, js jetstream.JetStream) error {
	_, err := js.CreateStream(ctx, StreamConfig(l.opts.Replicas))
	if err != nil && !errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
		return fmt.Errorf("recorder: stream %s is missing and could not be created: %w", StreamName, err)
	}
	l.created = err == nil
	return l.ensureStream(ctx, l.js)
}

func (l *Log) openStream(ctx context.Context) error {
	if l.stream != nil {
		return nil
	}
	err := l.ensureStream(ctx, l.js)
	if errors.Is(err, ErrNoStream) && !l.opts.Existing {
		return l.createStream(ctx, l.js)
	}
	return err
}

// StreamConfig is the configuration the stream is created with (docs/stream.md): file storage,
// no limits, new writes refused rather than old events dropped if a limit is ever set, deletes
// and purges denied, no roll-ups, no per-message TTLs, a de-duplication window, direct gets.
func StreamConfig(replicas int) jetstream.StreamConfig {
	return jetstream.StreamConfig{
		Name:              StreamName,
		Description:       "fechado hand log: events-v1, one subject per hand",
		Subjects:          []string{StreamSubjects},
		Retention:         jetstream.LimitsPolicy,
		MaxConsumers:      -1,
		MaxMsgs:           -1,
		MaxBytes:          -1,
		MaxAge:            0,
		MaxMsgsPerSubject: -1,
		MaxMsgSize:        -1,
		Discard:           jetstream.DiscardNew,
		Storage:           jetstream.FileStorage,
		Replicas:          replicas,
		Duplicates:        DuplicateWindow,
		DenyDelete:        true,
		DenyPurge:         true,
		AllowRollup:       false,
		AllowDirect:       true,
		Metadata:          map[string]string{"fechado.events": "v1"},
	}
}

// Close closes the connection and, when embedded, shuts the server down cleanly. It may be
// called more than once.
func (l *Log) Close() {
	if l.nc != nil {
		l.nc.Close() // flushes what is buffered; appends in flight were waited for by their callers
	}
	if l.srv != nil {
		l.srv.Shutdown()
		l.srv.WaitForShutdown()
		l.srv = nil
	}
	if l.lock != nil {
		l.lock.release()
		l.lock = nil
	}
}

// Conn returns the log's NATS connection.
func (l *Log) Conn() *nats.Conn { return l.nc }

// JetStream returns the log's JetStream context (as the application user when embedded).
func (l *Log) JetStream() jetstream.JetStream { return l.js }

// Stream returns the bound stream.
func (l *Log) Stream() jetstream.Stream { return l.stream }

// Server returns the embedded server, or nil when the log is on an external server.
func (l *Log) Server() *server.Server { return l.srv }

// ClientURL returns the URL other processes connect to: the embedded server's loopback listener
// when Listen was set, else "" (embedded, in-process only) or the external URLs.
func (l *Log) ClientURL() string {
	if l.srv != nil {
		if l.opts.Listen == "" {
			return ""
		}
		return l.srv.ClientURL()
	}
	return strings.Join(l.opts.URLs, ",")
}

// Subject returns the subject of a hand's events.
func Subject(table, hand string) string { return roles.HandSubject(table, hand) }
