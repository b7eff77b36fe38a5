package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/projector"
	"github.com/fechado/fechado/recorder"
)

// logFlags are the flags that say where the log lives (cli-v1.md): the embedded server's data
// folder, or an external server or cluster and its credentials. Any command that needs the log
// adds them with addLogFlags and opens it with open.
type logFlags struct {
	data                  string
	nats                  []string
	creds, user, password string
	replicas              int
	// existing is set by the commands that only read or check the log: they open it with
	// recorder.Options.Existing, so that a missing stream is an error and nothing is created.
	existing bool
}

// addLogFlags adds --data, --nats, --creds, --user, --password and --replicas to fs.
func addLogFlags(fs *flag.FlagSet) *logFlags {
	f := &logFlags{}
	fs.StringVar(&f.data, "data", "./"+recorder.DefaultDataDir, "`DIR` where the embedded NATS server stores the log")
	fs.Func("nats", "an external NATS JetStream server or cluster `URL` instead of the embedded server (repeatable or comma-separated)", func(v string) error {
		for _, u := range strings.Split(v, ",") {
			if u = strings.TrimSpace(u); u != "" {
				f.nats = append(f.nats, u)
			}
		}
		return nil
	})
	fs.StringVar(&f.creds, "creds", "", "NATS credentials `FILE` for --nats")
	fs.StringVar(&f.user, "user", "", "NATS user for --nats")
	fs.StringVar(&f.password, "password", "", "NATS password for --nats")
	fs.IntVar(&f.replicas, "replicas", recorder.DefaultReplicas, "replicas of the stream, when this command creates it (3 for a cluster)")
	return f
}

// options returns the recorder options the flags name.
func (f *logFlags) options() (recorder.Options, error) {
	if len(f.nats) == 0 && (f.creds != "" || f.user != "" || f.password != "") {
		return recorder.Options{}, usageErr("--creds, --user and --password go with --nats")
	}
	if f.creds != "" && (f.user != "" || f.password != "") {
		return recorder.Options{}, usageErr("give either --creds or --user/--password, not both")
	}
	if f.replicas < 1 {
		return recorder.Options{}, usageErr("--replicas must be at least 1")
	}
	return recorder.Options{DataDir: f.data, URLs: f.nats, Creds: f.creds, User: f.user, Password: f.password, Replicas: f.replicas,
		Existing: f.existing}, nil
}

// open opens the log: the embedded server, started here and stopped by Close, or the external
// one. Failing to reach it exits 3.
func (f *logFlags) open(ctx context.Context) (*recorder.Log, error) {
	o, err := f.options()
	if err != nil {
		return nil, err
	}
	l, err := recorder.Open(ctx, o)
	if err != nil {
		return nil, withCode(exitStore, err)
	}
	return l, nil
}

// readHand reads one stored hand: from the read models beside the log (DIR/fechado.db, kept by
// project and serve) when they hold the hand's copy, one lookup however long the log; otherwise
// from the log, the table taken from the read models when the command does not give it
// (projector.ReadHand, docs/stream.md §5). Read models that cannot be opened are passed over.
func (f *logFlags) readHand(ctx context.Context, l *recorder.Log, table, hand string, fn func(recorder.Stored) error) error {
	db, err := projector.OpenReadOnly(ctx, filepath.Join(f.data, "fechado.db"))
	if err != nil {
		db = nil
	} else {
		defer db.Close()
	}
	return projector.ReadHand(ctx, db, l, table, hand, fn)
}

// interruptible returns a context that ends on Ctrl-C or SIGTERM, so that a command stops its
// work and still shuts the embedded server down cleanly.
func interruptible() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// logReadErr maps an error from reading the stored log to the exit codes of cli-v1.md.
func logReadErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, recorder.ErrHandNotFound), errors.Is(err, recorder.ErrAmbiguousHand):
		return usageErr("%v", err)
	case errors.Is(err, events.ErrInvalid):
		return withCode(exitStore, fmt.Errorf("%w (run 'fechado verify')", err))
	}
	return withCode(exitStore, err)
}

// openInterruptible opens the log under a context that ends on Ctrl-C or SIGTERM (interruptible).
// The command defers done, which closes the log and then stops listening for the signals.
func (f *logFlags) openInterruptible() (ctx context.Context, l *recorder.Log, done func(), err error) {
	ctx, stop := interruptible()
	l, err = f.open(ctx)
	if err != nil {
		stop()
		return nil, nil, nil, err
	}
	return ctx, l, func() {
		l.Close()
		stop()
	}, nil
}
