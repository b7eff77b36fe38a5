package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fechado/fechado/lang"
	"golang.org/x/crypto/bcrypt"
	"golang.org/x/term"
)

// defaultCost is passwd's bcrypt cost: what `nats server passwd` uses, about 0.1 s a check here.
const defaultCost = 11

func init() {
	register(&command{
		name:    "passwd",
		summary: "print the bcrypt hash of a password, for the auth file or a nats-server configuration",
		usage:   "passwd [--cost N] < password",
		help: `
Passwd reads a password from standard input and prints its bcrypt hash ("$2a$…"), which the
auth file (--auth, docs/security.md) and a nats-server configuration (docs/deployment.md) take
in place of the password itself: the file then holds nothing a reader could log in with, and
both fechado and the NATS server compare a password given at login against the hash.

On a terminal the password is asked for without echo; otherwise the first line of standard
input is the password (without its line end), so that a script can pipe it in:

    printf '%s\n' "$PASSWORD" | fechado passwd

--cost is bcrypt's cost (4 to 31; each step doubles the time a check takes, for fechado and for
an attacker alike). bcrypt reads at most 72 bytes of a password: a longer one is refused.

Exit status: 0 the hash was printed; 2 bad usage, an empty or too long password.`,
		run: runPasswd,
	})
}

func runPasswd(m *Main, args []string) error {
	c := commands["passwd"]
	fs := m.flags(c)
	cost := fs.Int("cost", defaultCost, "bcrypt `cost` (4 to 31)")
	rest, err := m.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageErr("unexpected argument %q (see 'fechado passwd --help')", rest[0])
	}
	reader := m.reader()
	if *cost < bcrypt.MinCost || *cost > bcrypt.MaxCost {
		return usageErr("%s", reader.T("passwd.cost", lang.Args{"min": bcrypt.MinCost, "max": bcrypt.MaxCost}))
	}
	pass, err := m.readPassword(reader)
	if err != nil {
		return usageErr("%v", err)
	}
	if pass == "" {
		return usageErr("%s", reader.T("passwd.empty", nil))
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(pass), *cost)
	if err != nil {
		return usageErr("%v", err)
	}
	_, err = fmt.Fprintln(m.Stdout, string(hash))
	return err
}

// readPassword reads the password: without echo from a terminal (asking on stderr), else the
// first line of stdin.
func (m *Main) readPassword(reader *lang.Lang) (string, error) {
	if f, ok := m.Stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprint(m.Stderr, reader.T("passwd.prompt", nil))
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(m.Stderr)
		return string(b), err
	}
	line, err := bufio.NewReader(m.Stdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	return strings.TrimRight(line, "\r\n"), nil
}
