package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/checkpoint"
)

func init() {
	register(&command{
		name:    "init",
		summary: "set up the log: create the stream as docs/stream.md configures it",
		usage:   "init [--data DIR | --nats URL… [--user U --password P | --creds FILE]] [--replicas N]",
		help: `
Init creates the stream FECHADO_HANDS with the configuration of docs/stream.md (file storage,
no limits, discard new, deny delete and purge, no roll-ups, no TTLs, a de-duplication window,
direct gets) and --replicas replicas (3 for a three-node cluster), on the embedded server under
--data or on the external server(s) of --nats, as the user given (the set-up user: the
application's own user may not create streams on a cluster configured as docs/deployment.md
says).

It is idempotent: on a stream that exists with that configuration (and, when --replicas is
given, that many replicas) it changes nothing and exits 0. On a stream that exists with another configuration it changes
nothing either, names every setting that differs and exits 1: fixing a stream that holds
history is an operator's decision, not a set-up's.

verify, audit, export, replay, report and project never create the stream; record, serve, demo,
sim --publish and import --publish still create it on first use, as before, for a newcomer's
first run.

Exit status: 0 the stream exists as required (created now or before); 1 it exists with another
configuration; 2 bad usage; 3 the log could not be reached or the stream could not be created.`,
		run: runInit,
	})
}

func runInit(m *Main, args []string) error {
	c := commands["init"]
	fs := m.flags(c)
	lf := addLogFlags(fs)
	rest, err := m.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageErr("unexpected argument %q (see 'fechado init --help')", rest[0])
	}
	replicas := 0 // an existing stream's replicas are checked when --replicas is given
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "replicas" {
			replicas = lf.replicas
		}
	})
	ctx, l, done, err := lf.openInterruptible()
	if err != nil {
		return err
	}
	defer done()
	info, err := l.Stream().Info(ctx)
	if err != nil {
		return withCode(exitStore, err)
	}
	reader := m.reader()
	if ps := recorder.ConfigProblems(info.Config, replicas); len(ps) > 0 {
		return withCode(exitFindings, &configDiffers{problems: ps})
	}
	// The checkpoint stream (docs/security.md §8) is set up with the log, by the same set-up
	// user: on a cluster configured as docs/deployment.md says, the application's user may create
	// no stream, and serve --sign-key then finds it.
	if _, err := checkpoint.OpenStore(ctx, l, true); errors.Is(err, checkpoint.ErrStreamConfig) {
		return withCode(exitFindings, err) // created otherwise by someone: the operator decides
	} else if err != nil {
		return withCode(exitStore, err)
	}
	if l.Created() {
		fmt.Fprintln(m.Stdout, reader.T("init.created", lang.Args{"stream": recorder.StreamName, "replicas": info.Config.Replicas}))
	} else {
		fmt.Fprintln(m.Stdout, reader.T("init.exists", lang.Args{"stream": recorder.StreamName}))
	}
	return nil
}

// configDiffers is a stream whose configuration is not what docs/stream.md requires.
type configDiffers struct{ problems []string }

func (e *configDiffers) Error() string {
	return "the stream " + recorder.StreamName + " is not configured as docs/stream.md requires: " + strings.Join(e.problems, "; ")
}

// reader is the language of the command's messages: its --lang, else the environment's (LC_ALL,
// LC_MESSAGES, LANG), else English.
func (m *Main) reader() *lang.Lang {
	if l, err := lang.Choose(m.langFlag, m.getenv); err == nil && l != nil {
		return l
	}
	return lang.English()
}

// explain is the message of a command's error, in the reader's language for the errors that
// have one: the stream missing, the stream configured otherwise.
func (m *Main) explain(err error) string {
	var cd *configDiffers
	switch {
	case errors.Is(err, recorder.ErrNoStream):
		return m.reader().T("stream.missing", lang.Args{"stream": recorder.StreamName})
	case errors.As(err, &cd):
		return m.reader().T("stream.differs", lang.Args{"stream": recorder.StreamName, "what": strings.Join(cd.problems, "; ")})
	}
	return err.Error()
}
