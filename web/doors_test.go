package web_test

import (
	"bytes"
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fechado/fechado/internal/webguard"
	"github.com/fechado/fechado/projector"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/fechado/fechado/roles"
	"github.com/fechado/fechado/sim"
	"github.com/fechado/fechado/web"
	"golang.org/x/crypto/bcrypt"
)

// writers is the auth file of the tests of POST /api/events under --auth.
func writers(t *testing.T) *roles.Auth {
	hash, err := bcrypt.GenerateFromPassword([]byte("tms-pass"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	return &roles.Auth{Users: []roles.User{
		{Name: "dealer-a", Password: "pass-a", Role: roles.Table, Table: "door-a"},
		{Name: "dealer-b", Password: "pass-b", Role: roles.Table, Table: "door-b"},
		{Name: "tms", Password: string(hash), Role: roles.App},
		{Name: "auditor", Password: "pass-audit", Role: roles.Auditor},
	}}
}

// newAuthEnv is a server whose writes need the credentials of writers.
func newAuthEnv(t *testing.T) *env {
	t.Helper()
	l := recordertest.Open(t)
	db, err := projector.Open(context.Background(), filepath.Join(t.TempDir(), "read.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return startEnvOptions(t, web.Options{Log: l, DB: db, Auth: writers(t)})
}

// postAs posts body to /api/events with the given headers and basic credentials (user "" sends
// none) and returns the status and the answer.
func (e *env) postAs(user, pass string, header http.Header, body []byte) (int, string) {
	e.t.Helper()
	req, err := http.NewRequest(http.MethodPost, e.ts.URL+"/api/events", bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-ndjson")
	for k, v := range header {
		req.Header[k] = v
	}
	if user != "" {
		req.SetBasicAuth(user, pass)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	var b bytes.Buffer
	b.ReadFrom(res.Body)
	return res.StatusCode, b.String()
}

// TestPostEventsAuthorisedAsOnNATS: under --auth, POST /api/events takes a table device (its own
// table only) or an app user, as the NATS server does (roles.User.MayAppend), and refuses
// anonymous and wrong credentials (401) and users who write nothing or write elsewhere (403),
// storing nothing of a refused body.
func TestPostEventsAuthorisedAsOnNATS(t *testing.T) {
	e := newAuthEnv(t)
	handA := handsBody(simulated(t, sim.Config{Rules: "std-draw", Players: 3, Hands: 1, Seed: 3, Table: "door-a", ExposeRate: -1}))
	handB := handsBody(simulated(t, sim.Config{Rules: "std-draw", Players: 3, Hands: 1, Seed: 4, Table: "door-b", ExposeRate: -1}))
	refused := []struct {
		name, user, pass string
		body             []byte
		want             int
	}{
		{"anonymous", "", "", handA, http.StatusUnauthorized},
		{"wrong password", "dealer-a", "pass-b", handA, http.StatusUnauthorized},
		{"unknown user", "mallory", "pass-a", handA, http.StatusUnauthorized},
		{"a reader", "auditor", "pass-audit", handA, http.StatusForbidden},
		{"a device on another table", "dealer-b", "pass-b", handA, http.StatusForbidden},
		{"a device with one event of another table", "dealer-a", "pass-a", append(append([]byte{}, handA...), handB...), http.StatusForbidden},
	}
	for _, c := range refused {
		code, body := e.postAs(c.user, c.pass, nil, c.body)
		if code != c.want {
			t.Errorf("%s: %d %s, want %d", c.name, code, body, c.want)
		}
		if code == http.StatusUnauthorized && !strings.Contains(body, `"error"`) {
			t.Errorf("%s: answer %s", c.name, body)
		}
		if last := e.streamLast(); last != 0 {
			t.Fatalf("%s: the stream holds %d messages after a refused post", c.name, last)
		}
	}
	// Good credentials do not make a cross-site write acceptable.
	for _, h := range []http.Header{{"Content-Type": {"text/plain"}}, {"Origin": {"https://evil.example"}}, {"Sec-Fetch-Site": {"cross-site"}}} {
		if code, body := e.postAs("dealer-a", "pass-a", h, handA); code != http.StatusForbidden {
			t.Errorf("the device's credentials with %v: %d %s, want 403", h, code, body)
		}
	}
	if last := e.streamLast(); last != 0 {
		t.Fatalf("the stream holds %d messages after refused cross-site posts", last)
	}
	if code, body := e.postAs("dealer-a", "pass-a", nil, handA); code != http.StatusOK {
		t.Fatalf("device on its own table: %d %s", code, body)
	}
	afterA := e.streamLast()
	if afterA == 0 {
		t.Fatal("the device's hand was not stored")
	}
	if code, body := e.postAs("tms", "tms-pass", nil, handB); code != http.StatusOK {
		t.Fatalf("app user: %d %s", code, body)
	}
	if e.streamLast() <= afterA {
		t.Fatal("the app's hand was not stored")
	}
}

// TestCrossSiteWritesRefused: a write another site's page could send is refused (403) whatever
// the credentials: a simple content type (text/plain, a form), no content type, a foreign or
// "null" Origin, a cross-site Sec-Fetch-Site; nothing is stored. The same request from this
// origin goes in (docs/security.md, "Cross-site requests").
func TestCrossSiteWritesRefused(t *testing.T) {
	e := newEnv(t, 0) // no --auth: the demo; cross-site writes are refused all the same
	hand := handsBody(simulated(t, sim.Config{Rules: "std-draw", Players: 3, Hands: 1, Seed: 5, Table: "door-x", ExposeRate: -1}))
	host := strings.TrimPrefix(e.ts.URL, "http://")
	for _, c := range []struct {
		name   string
		header http.Header
	}{
		{"text/plain", http.Header{"Content-Type": {"text/plain; charset=utf-8"}}},
		{"a form", http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}},
		{"multipart", http.Header{"Content-Type": {"multipart/form-data; boundary=x"}}},
		{"no content type", http.Header{"Content-Type": {""}}},
		{"another origin", http.Header{"Origin": {"https://evil.example"}}},
		{"a null origin", http.Header{"Origin": {"null"}}},
		{"cross-site fetch", http.Header{"Sec-Fetch-Site": {"cross-site"}}},
		{"same-site fetch", http.Header{"Sec-Fetch-Site": {"same-site"}}},
	} {
		code, body := e.postAs("", "", c.header, hand)
		if code != http.StatusForbidden || !strings.Contains(body, "cross-site") {
			t.Errorf("%s: %d %s, want 403", c.name, code, body)
		}
		if last := e.streamLast(); last != 0 {
			t.Fatalf("%s: the stream holds %d messages", c.name, last)
		}
	}
	code, body := e.postAs("", "", http.Header{"Origin": {"http://" + host}, "Sec-Fetch-Site": {"same-origin"}, "Content-Type": {"application/json"}}, hand)
	if code != http.StatusOK {
		t.Fatalf("same-origin post: %d %s", code, body)
	}
}

// TestSecurityHeadersOnEveryRoute: every page, asset, API answer (errors included) and the
// metrics carry the security headers (webguard.Headers), the CSP with no inline script.
func TestSecurityHeadersOnEveryRoute(t *testing.T) {
	e := newEnv(t, 0)
	hs := simulated(t, sim.Config{Rules: "std-draw", Players: 3, Hands: 1, Seed: 6, Table: "door-h", ExposeRate: -1})
	e.post(handsBody(hs), http.StatusOK, nil)
	e.waitProjected()
	hand := hs[0].Events[0].Hand
	routes := []struct{ method, path string }{
		{"GET", "/"}, {"GET", "/index.html"}, {"GET", "/app.js"}, {"GET", "/style.css"}, {"GET", "/missing.png"},
		{"GET", "/api/tables"}, {"GET", "/api/tables/door-h/chips"}, {"GET", "/api/tournaments"}, {"GET", "/api/tournaments/none"},
		{"GET", "/api/hands"}, {"GET", "/api/hands/" + hand}, {"GET", "/api/hands/" + hand + "/replay"},
		{"GET", "/api/players"}, {"GET", "/api/players/nobody/stats"}, {"GET", "/api/messages"},
		{"GET", "/hands/" + hand + "/report"}, {"GET", "/metrics"}, {"GET", "/api/nothing"},
		{"POST", "/api/events"}, {"PUT", "/api/events"}, {"POST", "/"},
	}
	for _, r := range routes {
		req, err := http.NewRequest(r.method, e.ts.URL+r.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		for k, v := range webguard.Headers {
			if got := res.Header.Get(k); got != v {
				t.Errorf("%s %s (%d): %s = %q, want %q", r.method, r.path, res.StatusCode, k, got, v)
			}
		}
	}
	for _, d := range strings.Split(webguard.CSP, ";") {
		if f := strings.Fields(d); len(f) > 0 && f[0] == "script-src" && strings.Join(f[1:], " ") != "'self'" {
			t.Errorf("script-src is %q, want 'self' only (no inline script)", f[1:])
		}
	}
}
