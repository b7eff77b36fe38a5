// Package roles owns who may do what on fechado's NATS subjects: the roles (table device,
// auditor, projector, spectator), the auth file that names the users, the subject permissions
// each role gets from the NATS server itself, and which view of a hand spectators receive on the
// public subjects instead of the log (docs/security.md); what a view hides is events.Public's. It imports no NATS package: the
// recorder turns these permissions into the embedded server's users, and an operator copies them
// into an external server's configuration.
package roles

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
)

// Role names what a user is for.
type Role string

// The roles of an auth file.
const (
	// Table is a table device: it appends the hands of its own table, and nothing else.
	Table Role = "table"
	// Auditor reads the whole log, face-down cards and seeds included, and appends nothing.
	Auditor Role = "auditor"
	// Projector reads the whole log to build read models, and appends nothing.
	Projector Role = "projector"
	// Spectator (a dashboard, a screen in the room) reads only the public subjects: what everybody
	// at the table saw. It cannot read the log.
	Spectator Role = "spectator"
	// App is a table system that writes for every table (as fechado's own user does): it appends
	// to any table's hands and reads what an append checks, and changes no stream.
	App Role = "app"
)

// Roles lists the roles in the order of the documentation.
var Roles = []Role{Table, Auditor, Projector, Spectator, App}

// Subjects and stream names the permissions refer to (the stream design of docs/stream.md).
const (
	// Stream is the JetStream stream that holds the log.
	Stream = "FECHADO_HANDS"
	// HandPrefix starts the subject of a hand's events: HandPrefix + "<table>.<hand>".
	HandPrefix = "fechado.hand."
	// PublicPrefix starts the subject of a hand's public view: PublicPrefix + "<table>.<hand>".
	PublicPrefix = "fechado.public."
	// InboxRoot is the root of reply subjects. A table device may only receive replies under its
	// own prefix, InboxPrefix(name), and must connect with that custom inbox prefix.
	InboxRoot = "_INBOX"
)

// HandSubject returns the subject of a hand's events in the log.
func HandSubject(table, hand string) string { return HandPrefix + table + "." + hand }

// PublicSubject returns the subject of a hand's public view.
func PublicSubject(table, hand string) string { return PublicPrefix + table + "." + hand }

// InboxPrefix returns the inbox prefix a user's client must use (nats.CustomInboxPrefix): replies
// to a table device arrive under it, and the device may subscribe to nothing else, so it cannot
// read the replies (consumer deliveries) of other clients.
func InboxPrefix(user string) string { return InboxRoot + "." + user }

// User is one user of an auth file.
type User struct {
	// Name is the NATS user name: 1–64 of A-Z a-z 0-9 _ -.
	Name string `json:"name"`
	// Password is the password, in clear or as a bcrypt hash ("$2a$…", as `nats server passwd`
	// writes it); the NATS server accepts either.
	Password string `json:"password"`
	// Role is what the user is for.
	Role Role `json:"role"`
	// Table is the table a table device appends to (required for Table), or the one table a
	// spectator may watch (optional; every table when empty). Other roles have none.
	Table string `json:"table,omitempty"`
}

// Auth is an auth file: the users the server lets in besides fechado's own.
type Auth struct {
	Users []User `json:"users"`
}

// ErrInvalid is wrapped by every error about the content of an auth file.
var ErrInvalid = errors.New("invalid auth file")

// Reserved are user names fechado's embedded server already uses; an auth file cannot redefine
// them.
var Reserved = []string{"fechado", "admin"}

// ValidName reports whether s may name a user or a table: 1–64 of A-Z a-z 0-9 _ -, so that it is
// one subject token (and InboxPrefix(s) a valid inbox prefix). A loop, not a regular expression:
// the pattern's {1,64} compiled to 64 copies of the class, some 0.8 ms of every process's start.
func ValidName(s string) bool {
	if len(s) < 1 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '-':
		default:
			return false
		}
	}
	return true
}

// Load reads and checks the auth file at path.
func Load(path string) (*Auth, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("roles: %w", err)
	}
	a, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

// Parse decodes and checks an auth file: JSON, {"users": [{"name", "password", "role",
// "table"?}]}; unknown fields are refused. Errors wrap ErrInvalid.
func Parse(b []byte) (*Auth, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var a Auth
	if err := dec.Decode(&a); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: data after the JSON object", ErrInvalid)
	}
	return &a, a.Check()
}

// Check reports the first problem of the users: a bad or repeated or reserved name, an empty
// password, an unknown role, a table missing, malformed or not allowed for the role.
func (a *Auth) Check() error {
	seen := map[string]bool{}
	for i, u := range a.Users {
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%w: users[%d] (%s): %s", ErrInvalid, i, u.Name, fmt.Sprintf(format, args...))
		}
		switch {
		case !ValidName(u.Name):
			return bad("name must be 1–64 of A-Z a-z 0-9 _ -")
		case seen[u.Name]:
			return bad("name used twice")
		case isReserved(u.Name):
			return bad("name is reserved for fechado's own users (%s)", strings.Join(Reserved, ", "))
		case u.Password == "":
			return bad("password is empty")
		}
		seen[u.Name] = true
		switch u.Role {
		case Table:
			if u.Table == "" {
				return bad("a table device needs its table")
			}
		case Spectator:
		case Auditor, Projector, App:
			if u.Table != "" {
				return bad("role %s covers every table: no table", u.Role)
			}
		default:
			return bad("unknown role %q (known: table, auditor, projector, spectator, app)", u.Role)
		}
		if u.Table != "" && !ValidName(u.Table) {
			return bad("table must be 1–64 of A-Z a-z 0-9 _ -")
		}
	}
	return nil
}

func isReserved(name string) bool {
	for _, r := range Reserved {
		if strings.EqualFold(name, r) {
			return true
		}
	}
	return false
}

// SubjectRule is an allow list and a deny list of subjects (NATS wildcards * and >). A subject
// is permitted when it matches the allow list (or the list is empty) and not the deny list.
type SubjectRule struct {
	Allow []string
	Deny  []string
}

// Permissions is what a user may publish and subscribe to; the NATS server enforces it.
type Permissions struct {
	Publish   SubjectRule
	Subscribe SubjectRule
}

// readerAPIs are the JetStream API subjects a reader of the whole log needs: stream info, direct
// and stream gets, and its own consumers (create, next, info, delete, acks). None of them can
// change the stream.
var readerAPIs = []string{
	"$JS.API.INFO",
	"$JS.API.STREAM.INFO." + Stream,
	"$JS.API.STREAM.MSG.GET." + Stream,
	"$JS.API.DIRECT.GET." + Stream,
	"$JS.API.DIRECT.GET." + Stream + ".>",
	"$JS.API.CONSUMER.CREATE." + Stream,
	"$JS.API.CONSUMER.CREATE." + Stream + ".>",
	"$JS.API.CONSUMER.DURABLE.CREATE." + Stream + ".>",
	"$JS.API.CONSUMER.MSG.NEXT." + Stream + ".>",
	"$JS.API.CONSUMER.INFO." + Stream + ".>",
	"$JS.API.CONSUMER.DELETE." + Stream + ".>",
	"$JS.API.CONSUMER.NAMES." + Stream,
	"$JS.API.CONSUMER.LIST." + Stream,
	"$JS.ACK." + Stream + ".>",
}

// historyAPIs could remove or rewrite history, or make a stream nobody set up: every role is
// denied them explicitly, whatever its allow list says, and so is fechado's own user on the
// embedded server (HistoryAPIs). A restore makes a stream from a snapshot the client sends, with
// the configuration the client chose (deletes and purges allowed, no size limit), so it is a
// stream creation by another door; taking a peer away removes a replica of the history.
// docs/deployment/fechado.conf denies the same list to the same users
// (TestDeploymentConfigDeniesTheHistoryAPIs).
var historyAPIs = []string{
	"$JS.API.STREAM.CREATE.>",
	"$JS.API.STREAM.UPDATE.>",
	"$JS.API.STREAM.DELETE.>",
	"$JS.API.STREAM.PURGE.>",
	"$JS.API.STREAM.MSG.DELETE.>",
	"$JS.API.ACCOUNT.PURGE.>",
	"$JS.API.STREAM.RESTORE.>",
	"$JS.API.STREAM.PEER.REMOVE.>",
}

// HistoryAPIs returns the JetStream API subjects no user of the log may publish to: those that
// could remove or rewrite history, or create a stream. The embedded server denies them to
// fechado's own user; Permissions denies them to every role.
func HistoryAPIs() []string { return append([]string(nil), historyAPIs...) }

// Permissions returns what the server lets u do:
//
//   - Table: publish to its own table's hands (fechado.hand.<table>.>), ask for the stream's info
//     and for the last event of its own table's hands (the append check), and receive replies only
//     under InboxPrefix(name). It can read no other table, create no consumer, touch no public
//     subject.
//   - Auditor, Projector: publish to the JetStream read APIs of the stream (readerAPIs), receive
//     replies and deliveries on any inbox; they append nothing (no fechado.> publish).
//   - App: publish to every table's hands and to the JetStream API (what an append reads and
//     checks), receive replies on any inbox; the history APIs and stream creation stay denied.
//   - Spectator: subscribe to fechado.public.> (or fechado.public.<table>.> when the user names a
//     table); publish nothing; fechado.hand.>, $JS.> and inboxes are denied outright.
//
// Every role is also denied the stream APIs that could remove history.
func (u User) Permissions() Permissions {
	var p Permissions
	switch u.Role {
	case Table:
		p.Publish.Allow = []string{
			HandPrefix + u.Table + ".>",
			"$JS.API.INFO",
			"$JS.API.STREAM.INFO." + Stream,
			"$JS.API.DIRECT.GET." + Stream + "." + HandPrefix + u.Table + ".>",
		}
		p.Subscribe.Allow = []string{InboxPrefix(u.Name) + ".>"}
	case Auditor, Projector:
		p.Publish.Allow = append([]string(nil), readerAPIs...)
		p.Subscribe.Allow = []string{InboxRoot + ".>"}
	case App:
		p.Publish.Allow = []string{HandPrefix + ">", "$JS.API.>", "$JS.ACK." + Stream + ".>"}
		p.Subscribe.Allow = []string{InboxRoot + ".>"}
	default: // Spectator; Check refuses other roles, and an unchecked one gets the least
		sub := PublicPrefix + ">"
		if u.Table != "" {
			sub = PublicPrefix + u.Table + ".>"
		}
		p.Publish.Deny = []string{">"}
		p.Subscribe.Allow = []string{sub}
		p.Subscribe.Deny = []string{HandPrefix + ">", "$JS.>", InboxRoot + ".>"}
		return p
	}
	p.Publish.Deny = append([]string(nil), historyAPIs...)
	return p
}
