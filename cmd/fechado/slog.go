package main

import (
	"flag"
	"io"
	"log/slog"
)

// logFormat is the --log-format flag of the commands that log what they do on stderr (serve,
// demo, record, project): one structured line per message, through log/slog.
type logFormat struct{ format string }

// addLogFormat adds --log-format to fs.
func addLogFormat(fs *flag.FlagSet) *logFormat {
	f := &logFormat{}
	fs.StringVar(&f.format, "log-format", "text", "how stderr's log lines are written: `text` (key=value) or json")
	return f
}

// logger returns the logger of command, writing to w in the flag's format.
func (f *logFormat) logger(w io.Writer, command string) (*slog.Logger, error) {
	var h slog.Handler
	switch f.format {
	case "text":
		h = slog.NewTextHandler(w, nil)
	case "json":
		h = slog.NewJSONHandler(w, nil)
	default:
		return nil, usageErr("--log-format must be text or json, not %q", f.format)
	}
	return slog.New(h).With("command", command), nil
}
