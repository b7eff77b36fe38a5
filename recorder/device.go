package recorder

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/fechado/fechado/roles"
	"github.com/nats-io/nats.go"
)

// ErrPermissionDenied means the server refused the log's user: a subject its permissions do not
// allow (a table device appending to another table), or its credentials.
var ErrPermissionDenied = errors.New("permission denied by the log's server")

// As opens the log again as another user of the same server: a user of the embedded server's
// auth file (in process), or of the external servers, replies arriving under the user's own
// inbox prefix (roles.InboxPrefix). The server then holds that user to its permissions: an
// append to a subject the user may not publish to fails at once with a *HandError wrapping
// ErrPermissionDenied, and nothing is stored. Credentials a server answers with an authorization
// violation are ErrPermissionDenied too.
// What an append reads beyond the last event of its hand (the stored hand, when a resent event
// overlaps it; the message a duplicate id names) is read as l's user: the server gives a table
// device direct gets of its own hands' last events only. Close the returned log when done; it
// leaves the server running.
func (l *Log) As(ctx context.Context, user, password string) (*Log, error) {
	d := &Log{opts: l.opts, reads: l}
	d.opts.User, d.opts.Password, d.opts.Creds = user, password, ""
	// A table device may only read with direct gets (roles.User.Permissions).
	d.directOnly.Store(true)
	url := strings.Join(l.opts.URLs, ",")
	opts := d.clientOptions()
	if l.srv != nil {
		url, opts = "", append(opts, nats.InProcessServer(l.srv))
	}
	nc, err := nats.Connect(url, opts...)
	if errors.Is(err, nats.ErrAuthorization) {
		return nil, fmt.Errorf("recorder: connecting as %s: %w (%v)", user, ErrPermissionDenied, err)
	}
	if err != nil {
		return nil, fmt.Errorf("recorder: connecting as %s: %w", user, err)
	}
	d.nc = nc
	if d.js, err = d.newJetStream(nc); err == nil {
		err = d.ensureStream(ctx, d.js)
	}
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("recorder: the stream as %s: %w", user, err)
	}
	return d, nil
}

// clientOptions are the options of the log's connection to a server as opts.User: its name, the
// request timeout, the user's inbox prefix (a table device may receive replies there only), the
// credentials, and the handler that hands permission violations to the requests they stop.
func (l *Log) clientOptions() []nats.Option {
	o := []nats.Option{nats.Name("fechado"), nats.Timeout(l.opts.Timeout), nats.ErrorHandler(l.asyncError)}
	if roles.ValidName(l.opts.User) {
		o = append(o, nats.CustomInboxPrefix(roles.InboxPrefix(l.opts.User)))
	}
	if l.opts.Creds != "" {
		o = append(o, nats.UserCredentials(l.opts.Creds))
	}
	if l.opts.User != "" || l.opts.Password != "" {
		o = append(o, nats.UserInfo(l.opts.User, l.opts.Password))
	}
	return o
}

// deniedSubject finds the subject in the server's permissions violation ("Permissions Violation
// for Publish to \"fechado.hand.t.h\"").
var deniedSubject = regexp.MustCompile(`(?i)publish to "([^"]+)"`)

// asyncError receives the errors the server sends the connection outside any request. A publish
// the server refuses gets no answer, only this error: the requests waiting on its subject are
// stopped with ErrPermissionDenied instead of waiting for their timeouts and retrying. Other
// errors are not printed (a library does not print); failed requests still return theirs.
func (l *Log) asyncError(_ *nats.Conn, _ *nats.Subscription, err error) {
	if !errors.Is(err, nats.ErrPermissionViolation) {
		return
	}
	if m := deniedSubject.FindStringSubmatch(err.Error()); m != nil {
		l.refused.refuse(m[1])
	}
}

// refusals hands the server's permission violations to the requests waiting on their subjects.
type refusals struct {
	mu   sync.Mutex
	next int
	by   map[string]map[int]context.CancelCauseFunc
}

// watch returns ctx, cancelled with ErrPermissionDenied as the cause when the server refuses one
// of subjects, and the function that stops watching.
func (r *refusals) watch(ctx context.Context, subjects ...string) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	r.mu.Lock()
	id := r.next
	r.next++
	if r.by == nil {
		r.by = map[string]map[int]context.CancelCauseFunc{}
	}
	for _, s := range subjects {
		if r.by[s] == nil {
			r.by[s] = map[int]context.CancelCauseFunc{}
		}
		r.by[s][id] = cancel
	}
	r.mu.Unlock()
	return ctx, func() {
		r.mu.Lock()
		for _, s := range subjects {
			delete(r.by[s], id)
			if len(r.by[s]) == 0 {
				delete(r.by, s)
			}
		}
		r.mu.Unlock()
		cancel(nil)
	}
}

// refuse stops the requests watching subject.
func (r *refusals) refuse(subject string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, cancel := range r.by[subject] {
		cancel(fmt.Errorf("%w: this user may not publish to %s", ErrPermissionDenied, subject))
	}
}

// reader is the log that reads for l's appends.
func (l *Log) reader() *Log {
	if l.reads != nil {
		return l.reads
	}
	return l
}

// directGetSubject is the subject of a direct get of the last message of subject.
func directGetSubject(subject string) string {
	return "$JS.API.DIRECT.GET." + StreamName + "." + subject
}
