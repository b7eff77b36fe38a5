package roles_test

import (
	"errors"
	"testing"

	"github.com/fechado/fechado/roles"
	"golang.org/x/crypto/bcrypt"
)

// TestPermitsMatchesNATSWildcards: the subject rules are decided as the NATS server decides them
// (docs.nats.io "Subject-Based Messaging": "*" one token, ">" one or more at the end; deny wins).
func TestPermitsMatchesNATSWildcards(t *testing.T) {
	rule := roles.SubjectRule{Allow: []string{"a.*.c", "b.>"}, Deny: []string{"b.secret.>"}}
	for _, c := range []struct {
		subject string
		want    bool
	}{
		{"a.x.c", true},
		{"a.x.y.c", false}, // "*" is one token
		{"a.c", false},
		{"a.x.c.extra", false}, // longer than the pattern
		{"b.x", true},
		{"b.x.y.z", true},
		{"b", false},            // ">" needs at least one token
		{"b.secret.k", false},   // denied
		{"b.secret.k.l", false}, // the deny list's ">" too
		{"b.secret", true},      // the deny pattern needs a token after secret
		{"b.secretive.x", true}, // tokens compare whole
		{"c.anything", false},   // not allowed
		{"b.*", false},          // a wildcard is not a literal subject
		{"b.x.>", false},
		{"a..c", false}, // empty token
		{"", false},
		{"b.x y", false}, // white space is not a subject
		{"b.x\ny", false},
	} {
		if got := rule.Permits(c.subject); got != c.want {
			t.Errorf("Permits(%q) = %v, want %v", c.subject, got, c.want)
		}
	}
	if !(roles.SubjectRule{}).Permits("any.thing") {
		t.Error("an empty rule must allow every subject (the server's default)")
	}
}

// TestMayAppend: the one decision "may this user append to this table" (security.md §2): a table
// device to its own table only, the app to every table, readers and spectators to none.
func TestMayAppend(t *testing.T) {
	dev := roles.User{Name: "dealer-t1", Role: roles.Table, Table: "t1"}
	app := roles.User{Name: "tms", Role: roles.App}
	for _, c := range []struct {
		u           roles.User
		table, hand string
		want        bool
	}{
		{dev, "t1", "h1", true},
		{dev, "t2", "h1", false},
		{dev, "t1x", "h1", false}, // a table whose name starts with the device's
		{dev, "t1", "h.1", false}, // a hand id that would add a token
		{dev, "t1", ">", false},
		{dev, "*", "h1", false},
		{app, "t1", "h1", true},
		{app, "t2", "h9", true},
		{roles.User{Name: "a", Role: roles.Auditor}, "t1", "h1", false},
		{roles.User{Name: "p", Role: roles.Projector}, "t1", "h1", false},
		{roles.User{Name: "s", Role: roles.Spectator, Table: "t1"}, "t1", "h1", false},
	} {
		if got := c.u.MayAppend(c.table, c.hand); got != c.want {
			t.Errorf("%s (%s) MayAppend(%q, %q) = %v, want %v", c.u.Name, c.u.Role, c.table, c.hand, got, c.want)
		}
	}
	for _, s := range []string{"$JS.API.STREAM.CREATE.EVIL", "$JS.API.STREAM.DELETE.FECHADO_HANDS", "$JS.API.STREAM.PURGE.FECHADO_HANDS"} {
		if app.MayPublish(s) {
			t.Errorf("the app may publish %s", s)
		}
	}
}

// TestAuthenticate: clear and bcrypt passwords (security.md §3), a wrong password and an unknown
// name refused alike, and a bcrypt password accepted again from memory.
func TestAuthenticate(t *testing.T) {
	hash, err := bcrypt.GenerateFromPassword([]byte("s3cret"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	a := &roles.Auth{Users: []roles.User{
		{Name: "clear", Password: "plain", Role: roles.Table, Table: "t1"},
		{Name: "hashed", Password: string(hash), Role: roles.App},
	}}
	v := roles.NewAuthenticator(a)
	for _, c := range []struct {
		name, pass string
		ok         bool
	}{
		{"clear", "plain", true},
		{"clear", "plain ", false},
		{"clear", "", false},
		{"hashed", "s3cret", true},
		{"hashed", "s3cret", true}, // from memory
		{"hashed", "S3cret", false},
		{"hashed", string(hash), false}, // the hash is not the password
		{"nobody", "plain", false},
	} {
		u, err := v.Authenticate(c.name, c.pass)
		if c.ok && (err != nil || u.Name != c.name) {
			t.Errorf("Authenticate(%q, %q) = %v, %v; want the user", c.name, c.pass, u.Name, err)
		}
		if !c.ok && !errors.Is(err, roles.ErrBadCredentials) {
			t.Errorf("Authenticate(%q, %q) = %v, %v; want ErrBadCredentials", c.name, c.pass, u.Name, err)
		}
	}
	if _, err := roles.NewAuthenticator(nil).Authenticate("clear", "plain"); !errors.Is(err, roles.ErrBadCredentials) {
		t.Errorf("no auth file: %v", err)
	}
}
