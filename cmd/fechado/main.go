// Command fechado records, replays and audits hands of closed poker (five-card draw) kept as an
// immutable stream of events on NATS JetStream. Its commands and exit codes are the public
// contract of cli-v1.md; each command lives in a file of its own and registers itself here.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// Exit codes of cli-v1.md.
const (
	exitOK       = 0
	exitFindings = 1 // audit found at least one error; verify found a problem
	exitUsage    = 2 // bad usage, unreadable or invalid input
	exitStore    = 3 // the log store could not be reached, or an append was refused
)

// exitError carries the exit code a command wants, with the message for stderr.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageErr returns an error that exits 2 (bad usage or invalid input).
func usageErr(format string, a ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, a...)}
}

// withCode wraps err so that the command exits with code.
func withCode(code int, err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: code, err: err}
}

// command is one sub-command of fechado.
type command struct {
	name    string
	summary string // one line for the command list
	usage   string // the synopsis after "fechado "
	help    string // what it does, for --help
	// helpFrom, when set, builds help on --help instead: sim's and import's list tables, which
	// every process built at start when they were strings made by init.
	helpFrom func() string
	run      func(m *Main, args []string) error
}

var commands = map[string]*command{}

// register adds a command; each command's file calls it from init.
func register(c *command) { commands[c.name] = c }

// Main is the program: its streams are fields, so tests run commands in-process.
type Main struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// langFlag is the command's --lang, once parsed: the language of its errors too (reader).
	langFlag string
}

// NewMain returns a Main on the process's standard streams.
func NewMain() *Main {
	return &Main{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}
}

// Run runs one command line (without the program name) and returns the exit code.
func (m *Main) Run(args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				m.printHelp(c, nil)
				return exitOK
			}
		}
		m.printUsage(m.Stdout)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(m.Stderr, "fechado: unknown command %q\n\n", args[0])
		m.printUsage(m.Stderr)
		return exitUsage
	}
	err := c.run(m, args[1:])
	if err == nil {
		return exitOK
	}
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	code := exitUsage
	var ee *exitError
	if errors.As(err, &ee) {
		code = ee.code
	}
	if msg := m.explain(err); msg != "" {
		fmt.Fprintf(m.Stderr, "fechado %s: %s\n", c.name, msg)
	}
	return code
}

func (m *Main) printUsage(w io.Writer) {
	fmt.Fprintln(w, "fechado records, replays and audits hands of closed poker (five-card draw).")
	fmt.Fprintln(w, "\nUsage: fechado COMMAND [flags] [args]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	for _, n := range names {
		fmt.Fprintf(w, "  %-*s %s\n", width, n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'fechado COMMAND --help' for a command's flags.")
	fmt.Fprintln(w, "Exit codes: 0 success; 1 audit found an error (or verify a problem); 2 bad usage or")
	fmt.Fprintln(w, "invalid input; 3 the log store could not be reached or an append was refused.")
}

func (m *Main) printHelp(c *command, fs *flag.FlagSet) {
	help := c.help
	if c.helpFrom != nil {
		help = c.helpFrom()
	}
	fmt.Fprintf(m.Stdout, "Usage: fechado %s\n\n%s\n", c.usage, strings.TrimSpace(help))
	if fs != nil {
		fmt.Fprintln(m.Stdout, "\nFlags:")
		fs.SetOutput(m.Stdout)
		fs.PrintDefaults()
	}
}

// flags returns a flag set for c whose --help prints the command's help to stdout.
func (m *Main) flags(c *command) *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {} // help is printed by parse on -h/--help only, never on a bad flag
	return fs
}

// parse parses args, flags and operands in any order ("--" ends the flags), and returns the
// operands. Errors map to exit 2; --help prints the command's help and exits 0.
func (m *Main) parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var operands []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				if c, ok := commands[fs.Name()]; ok {
					m.printHelp(c, fs)
				}
				return nil, err
			}
			return nil, usageErr("%v (see 'fechado %s --help')", err, fs.Name())
		}
		if f := fs.Lookup("lang"); f != nil {
			m.langFlag = f.Value.String()
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return operands, nil
		}
		// fs.Parse stops at the first operand, or after "--".
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(operands, rest...), nil
		}
		operands = append(operands, rest[0])
		args = rest[1:]
	}
}

func main() {
	os.Exit(NewMain().Run(os.Args[1:]))
}
