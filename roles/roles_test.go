package roles_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fechado/fechado/roles"
)

const goodAuth = `{"users": [
  {"name": "dealer-t1", "password": "s3cret", "role": "table", "table": "t1"},
  {"name": "auditor", "password": "$2a$11$V0yH0mcHdVuFt5Q6A1Xb5eOPSrYQIwZ4mSeKKFrjy9x4R8dJJ1y2q", "role": "auditor"},
  {"name": "proj", "password": "p", "role": "projector"},
  {"name": "screen", "password": "x", "role": "spectator"},
  {"name": "screen-t1", "password": "x", "role": "spectator", "table": "t1"}
]}`

func TestLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "auth.json")
	if err := os.WriteFile(path, []byte(goodAuth), 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := roles.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Users) != 5 || a.Users[0].Role != roles.Table || a.Users[0].Table != "t1" || a.Users[1].Password[:4] != "$2a$" {
		t.Fatalf("users = %+v", a.Users)
	}
	if _, err := roles.Load(filepath.Join(t.TempDir(), "missing.json")); err == nil || errors.Is(err, roles.ErrInvalid) {
		t.Fatalf("missing file: err = %v, want a file error that is not ErrInvalid", err)
	}
}

func TestParseRefuses(t *testing.T) {
	for _, c := range []struct{ name, file, want string }{
		{"not JSON", `{"users": [`, "unexpected EOF"},
		{"unknown field", `{"users": [{"name": "a", "password": "p", "role": "auditor", "admin": true}]}`, "unknown field"},
		{"trailing data", `{"users": []} {}`, "after the JSON object"},
		{"bad name", `{"users": [{"name": "a.b", "password": "p", "role": "auditor"}]}`, "name must be"},
		{"name twice", `{"users": [{"name": "a", "password": "p", "role": "auditor"}, {"name": "a", "password": "q", "role": "projector"}]}`, "used twice"},
		{"reserved name", `{"users": [{"name": "Admin", "password": "p", "role": "auditor"}]}`, "reserved"},
		{"empty password", `{"users": [{"name": "a", "password": "", "role": "auditor"}]}`, "password is empty"},
		{"unknown role", `{"users": [{"name": "a", "password": "p", "role": "dealer"}]}`, "unknown role"},
		{"table device without table", `{"users": [{"name": "a", "password": "p", "role": "table"}]}`, "needs its table"},
		{"auditor with a table", `{"users": [{"name": "a", "password": "p", "role": "auditor", "table": "t1"}]}`, "no table"},
		{"wildcard table", `{"users": [{"name": "a", "password": "p", "role": "table", "table": ">"}]}`, "table must be"},
		{"dotted table", `{"users": [{"name": "a", "password": "p", "role": "spectator", "table": "t1.x"}]}`, "table must be"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := roles.Parse([]byte(c.file))
			if !errors.Is(err, roles.ErrInvalid) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want ErrInvalid mentioning %q", err, c.want)
			}
		})
	}
}

// match reports whether subject matches the NATS subject pattern p (* one token, > the rest).
func match(p, subject string) bool {
	pt, st := strings.Split(p, "."), strings.Split(subject, ".")
	for i, tok := range pt {
		if tok == ">" {
			return len(st) > i
		}
		if i >= len(st) || (tok != "*" && tok != st[i]) {
			return false
		}
	}
	return len(pt) == len(st)
}

func allowed(r roles.SubjectRule, subject string) bool {
	ok := len(r.Allow) == 0 || slices.ContainsFunc(r.Allow, func(p string) bool { return match(p, subject) })
	return ok && !slices.ContainsFunc(r.Deny, func(p string) bool { return match(p, subject) })
}

// What each role may publish and subscribe to, subject by subject (the server's own enforcement
// is tested in recorder/auth_test.go; this pins the lists).
func TestPermissions(t *testing.T) {
	a, err := roles.Parse([]byte(goodAuth))
	if err != nil {
		t.Fatal(err)
	}
	user := map[string]roles.User{}
	for _, u := range a.Users {
		user[u.Name] = u
	}
	const h = "0190a000-0000-7000-8000-000000000001"
	for _, c := range []struct {
		user, op, subject string
		want              bool
	}{
		{"dealer-t1", "pub", "fechado.hand.t1." + h, true},
		{"dealer-t1", "pub", "fechado.hand.t2." + h, false},
		{"dealer-t1", "pub", "fechado.hand.t10." + h, false},
		{"dealer-t1", "pub", "fechado.public.t1." + h, false},
		// stream.md §4: the hand index is gone; a device of an older fechado is refused its keys
		// and appends without them.
		{"dealer-t1", "pub", "$KV.FECHADO_HAND_TABLES." + h + ".t1", false},
		{"dealer-t1", "pub", "$KV.FECHADO_HAND_TABLES.fechado.complete", false},
		{"dealer-t1", "pub", "$JS.API.STREAM.INFO.KV_FECHADO_HAND_TABLES", false},
		{"auditor", "pub", "$KV.FECHADO_HAND_TABLES." + h + ".t1", false},
		{"dealer-t1", "pub", "$JS.API.STREAM.INFO.FECHADO_HANDS", true},
		{"dealer-t1", "pub", "$JS.API.DIRECT.GET.FECHADO_HANDS.fechado.hand.t1." + h, true},
		{"dealer-t1", "pub", "$JS.API.DIRECT.GET.FECHADO_HANDS.fechado.hand.t2." + h, false},
		{"dealer-t1", "pub", "$JS.API.DIRECT.GET.FECHADO_HANDS", false}, // by sequence: any table
		{"dealer-t1", "pub", "$JS.API.CONSUMER.CREATE.FECHADO_HANDS.x", false},
		{"dealer-t1", "pub", "$JS.API.CONSUMER.MSG.NEXT.FECHADO_HANDS.projector", false},
		{"dealer-t1", "pub", "$JS.API.STREAM.DELETE.FECHADO_HANDS", false},
		{"dealer-t1", "pub", "_INBOX.auditor.x", false},
		{"dealer-t1", "sub", "_INBOX.dealer-t1.abc", true},
		{"dealer-t1", "sub", "_INBOX.abc", false}, // other clients' replies and deliveries
		{"dealer-t1", "sub", "fechado.hand.t1." + h, false},
		{"dealer-t1", "sub", "fechado.public.t1." + h, false},
		{"auditor", "pub", "$JS.API.CONSUMER.CREATE.FECHADO_HANDS.x", true},
		{"auditor", "pub", "$JS.API.CONSUMER.CREATE.FECHADO_HANDS.x.fechado.hand.t1." + h, true},
		{"auditor", "pub", "$JS.API.CONSUMER.MSG.NEXT.FECHADO_HANDS.x", true},
		{"auditor", "pub", "$JS.API.DIRECT.GET.FECHADO_HANDS", true},
		{"auditor", "pub", "$JS.API.STREAM.INFO.FECHADO_HANDS", true},
		{"auditor", "pub", "$JS.API.STREAM.INFO.OTHER", false},
		{"auditor", "pub", "fechado.hand.t1." + h, false},
		{"auditor", "pub", "$JS.API.STREAM.UPDATE.FECHADO_HANDS", false},
		{"auditor", "pub", "$JS.API.STREAM.PURGE.FECHADO_HANDS", false},
		{"auditor", "pub", "$JS.API.STREAM.MSG.DELETE.FECHADO_HANDS", false},
		{"auditor", "sub", "_INBOX.abc", true},
		{"proj", "pub", "$JS.API.CONSUMER.DURABLE.CREATE.FECHADO_HANDS.proj", true},
		{"proj", "pub", "$JS.ACK.FECHADO_HANDS.proj.1.2.3.4.5", true},
		{"proj", "pub", "fechado.public.t1." + h, false},
		{"screen", "sub", "fechado.public.t1." + h, true},
		{"screen", "sub", "fechado.public.>", true},
		{"screen", "sub", "fechado.hand.t1." + h, false},
		{"screen", "sub", "fechado.hand.>", false},
		{"screen", "sub", "_INBOX.abc", false},
		{"screen", "sub", "$JS.API.CONSUMER.CREATE.FECHADO_HANDS.x", false},
		{"screen", "pub", "$JS.API.CONSUMER.CREATE.FECHADO_HANDS.x", false},
		{"screen", "pub", "$JS.API.DIRECT.GET.FECHADO_HANDS", false},
		{"screen", "pub", "fechado.public.t1." + h, false},
		{"screen-t1", "sub", "fechado.public.t1." + h, true},
		{"screen-t1", "sub", "fechado.public.t2." + h, false},
	} {
		p := user[c.user].Permissions()
		r := p.Publish
		if c.op == "sub" {
			r = p.Subscribe
		}
		if got := allowed(r, c.subject); got != c.want {
			t.Errorf("%s %s %s: allowed = %v, want %v (%+v)", c.user, c.op, c.subject, got, c.want, r)
		}
	}
}

func TestSubjects(t *testing.T) {
	if got := roles.HandSubject("t1", "h"); got != "fechado.hand.t1.h" {
		t.Errorf("HandSubject = %q", got)
	}
	if got := roles.PublicSubject("t1", "h"); got != "fechado.public.t1.h" {
		t.Errorf("PublicSubject = %q", got)
	}
	if got := roles.InboxPrefix("dealer-t1"); got != "_INBOX.dealer-t1" {
		t.Errorf("InboxPrefix = %q", got)
	}
}
