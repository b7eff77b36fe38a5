package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fechado/fechado/console"
	"github.com/fechado/fechado/internal/webguard"
	"github.com/fechado/fechado/recorder/recordertest"
)

// doorsAuth is an auth file with a table device of table T and of table U, and a reader.
const doorsAuth = `{"users": [
  {"name": "dealer-t", "password": "pass-t", "role": "table", "table": "T"},
  {"name": "dealer-u", "password": "pass-u", "role": "table", "table": "U"},
  {"name": "auditor", "password": "pass-a", "role": "auditor"}
]}`

// post sends body to url as user (none when ""), Content-Type application/x-ndjson.
func post(t *testing.T, url, user, pass, body string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-ndjson")
	if user != "" {
		req.SetBasicAuth(user, pass)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// TestServeAuthRefusesAnonymousWrites: `serve --auth` takes POST /api/events from a table device
// on its own table only: anonymous 401, a reader 403, a device on another table 403, the device
// on its own table 200; it says nothing of open writes.
func TestServeAuthRefusesAnonymousWrites(t *testing.T) {
	dir := t.TempDir()
	auth := filepath.Join(dir, "auth.json")
	if err := os.WriteFile(auth, []byte(doorsAuth), 0o600); err != nil {
		t.Fatal(err)
	}
	url, stop, stdout, stderr := startServer(t, "serve", "--http", "127.0.0.1:0", "--data", filepath.Join(dir, "data"), "--auth", auth)
	hand := string(recordertest.Lines(recordertest.Hand(t, "T", 1, 3)))
	for _, c := range []struct {
		name, user, pass string
		want             int
	}{
		{"anonymous", "", "", http.StatusUnauthorized},
		{"wrong password", "dealer-t", "pass-u", http.StatusUnauthorized},
		{"a reader", "auditor", "pass-a", http.StatusForbidden},
		{"the device of another table", "dealer-u", "pass-u", http.StatusForbidden},
		{"the table's device", "dealer-t", "pass-t", http.StatusOK},
	} {
		if code := post(t, url+"api/events", c.user, c.pass, hand); code != c.want {
			t.Errorf("%s: %d, want %d", c.name, code, c.want)
		}
	}
	if strings.Contains(stdout.String(), "OPEN") {
		t.Errorf("serve --auth says writes are open: %s", stdout)
	}
	if code := stop(); code != exitOK {
		t.Fatalf("serve exited %d: %s", code, stderr)
	}
}

// TestServeSaysWritesAreOpen: without --auth serve says on its output and in its log that anyone
// who reaches the port may write, and listens on loopback by default.
func TestServeSaysWritesAreOpen(t *testing.T) {
	url, stop, stdout, stderr := startServer(t, "serve", "--http", "127.0.0.1:0", "--data", t.TempDir())
	stop()
	if !strings.Contains(stdout.String(), "writes are OPEN") || !strings.Contains(stdout.String(), url) ||
		!strings.Contains(stderr.String(), "writes are OPEN") {
		t.Errorf("serve without --auth does not say writes are open:\nstdout %s\nstderr %s", stdout, stderr)
	}
	for _, cmd := range []string{"serve", "demo"} {
		var f serveFlags
		fs := (&Main{}).flags(commands[cmd])
		f.register(fs)
		if got := fs.Lookup("http").DefValue; !strings.HasPrefix(got, "127.0.0.1:") {
			t.Errorf("%s's --http defaults to %q, want loopback", cmd, got)
		}
	}
}

// TestServeHeadersOnEveryRoute: every route of serve (pages, assets, API, console, metrics, the
// report, errors) answers with the security headers.
func TestServeHeadersOnEveryRoute(t *testing.T) {
	dir := t.TempDir()
	auth := filepath.Join(dir, "auth.json")
	if err := os.WriteFile(auth, []byte(doorsAuth), 0o600); err != nil {
		t.Fatal(err)
	}
	url, _, _, _ := startServer(t, "serve", "--http", "127.0.0.1:0", "--data", filepath.Join(dir, "data"), "--auth", auth)
	for _, r := range []struct{ method, path string }{
		{"GET", ""}, {"GET", "index.html"}, {"GET", "main.js"}, {"GET", "style.css"}, {"GET", "nothing"},
		{"GET", "api/tables"}, {"GET", "api/hands"}, {"GET", "api/hands/none"}, {"GET", "api/players"},
		{"GET", "api/tournaments"}, {"GET", "api/messages"}, {"GET", "api/nothing"}, {"POST", "api/events"},
		{"DELETE", "api/events"}, {"GET", "hands/none/report"}, {"GET", "metrics"},
		{"GET", "console/"}, {"GET", "console/assets/console.js"}, {"GET", "console/api/device"},
		{"POST", "console/login"}, {"GET", "console/nothing"},
	} {
		req, err := http.NewRequest(r.method, url+r.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		for k, v := range webguard.Headers {
			if k == "Content-Security-Policy" && r.path == "console/" {
				v = console.PageCSP // webguard's, and WebAssembly for the console's offline mode
			}
			if got := res.Header.Get(k); got != v {
				t.Errorf("%s /%s (%d): %s = %q, want %q", r.method, r.path, res.StatusCode, k, got, v)
			}
		}
	}
}
