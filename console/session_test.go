package console_test

import (
	"bytes"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fechado/fechado/console"
	"github.com/fechado/fechado/internal/webguard"
	"github.com/fechado/fechado/recorder/recordertest"
)

// request sends method path with body (JSON) through client, with extra headers.
func (e *env) request(client *http.Client, method, path string, body []byte, header http.Header) *http.Response {
	e.t.Helper()
	req, err := http.NewRequest(method, e.ts.URL+path, bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header[k] = v
	}
	res, err := client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	res.Body.Close()
	return res
}

// TestLoginSetsStrictSessionCookie: the page logs in once (POST /console/login) and gets an
// HttpOnly, SameSite=Strict cookie scoped to /console/ (docs/security.md, "Cross-site
// requests"); with it the device appends to its own table and nothing else, without sending its
// password again; a wrong password gets no cookie; logout ends the session on the server.
func TestLoginSetsStrictSessionCookie(t *testing.T) {
	e := newEnv(t)
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	if res := e.request(client, "POST", "/console/login", []byte(`{"user":"mesa1","password":"wrong"}`), nil); res.StatusCode != http.StatusUnauthorized || len(res.Cookies()) != 0 {
		t.Fatalf("wrong password: %d, cookies %v", res.StatusCode, res.Cookies())
	}
	res := e.request(client, "POST", "/console/login", []byte(`{"user":"mesa1","password":"senha1"}`), nil)
	if res.StatusCode != http.StatusOK || len(res.Cookies()) != 1 {
		t.Fatalf("login: %d, cookies %v", res.StatusCode, res.Cookies())
	}
	ck := res.Cookies()[0]
	if ck.Name != console.SessionCookie || !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode || ck.Path != "/console/" || ck.Secure || len(ck.Value) < 64 {
		t.Fatalf("session cookie %+v: want HttpOnly, SameSite=Strict, Path /console/, 256 random bits, not Secure over plain HTTP", ck)
	}
	h, first := start("mesa-1")
	if res := e.request(client, "POST", "/console/api/hands/"+h.id+"/events", first, nil); res.StatusCode != http.StatusOK {
		t.Fatalf("appending with the session: %d", res.StatusCode)
	}
	other, otherFirst := start("mesa-2")
	if res := e.request(client, "POST", "/console/api/hands/"+other.id+"/events", otherFirst, nil); res.StatusCode != http.StatusForbidden {
		t.Fatalf("the session's device on another table: %d, want 403", res.StatusCode)
	}
	if res := e.request(client, "POST", "/console/logout", []byte(`{}`), nil); res.StatusCode != http.StatusNoContent {
		t.Fatalf("logout: %d", res.StatusCode)
	}
	// The old token, sent by hand after the logout, is dead on the server.
	stale := &http.Client{}
	req, _ := http.NewRequest("GET", e.ts.URL+"/console/api/device", nil)
	req.AddCookie(ck)
	r2, err := stale.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	r2.Body.Close()
	if r2.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a logged-out token: %d, want 401", r2.StatusCode)
	}
}

// TestSessionCookieSecureOverTLS: over TLS the session cookie is also Secure.
func TestSessionCookieSecureOverTLS(t *testing.T) {
	c, err := console.New(console.Options{Log: recordertest.OpenAuth(t, devices), Auth: devices})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	ts := httptest.NewTLSServer(c)
	t.Cleanup(ts.Close)
	req, _ := http.NewRequest("POST", ts.URL+"/console/login", strings.NewReader(`{"user":"mesa1","password":"senha1"}`))
	req.Header.Set("Content-Type", "application/json")
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if len(res.Cookies()) != 1 || !res.Cookies()[0].Secure {
		t.Fatalf("cookies over TLS: %+v, want one Secure cookie", res.Cookies())
	}
}

// TestConsoleCrossSiteRefused: the console's writes (login, events, shuffles) refuse what another
// site's page could send, with the device's good credentials or session: a simple content type,
// a foreign Origin, a cross-site Sec-Fetch-Site; nothing is stored.
func TestConsoleCrossSiteRefused(t *testing.T) {
	e := newEnv(t)
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	if res := e.request(client, "POST", "/console/login", []byte(`{"user":"mesa1","password":"senha1"}`), nil); res.StatusCode != http.StatusOK {
		t.Fatalf("login: %d", res.StatusCode)
	}
	h, first := start("mesa-1")
	for _, c := range []struct {
		name   string
		header http.Header
	}{
		{"text/plain", http.Header{"Content-Type": {"text/plain"}}},
		{"a form", http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}},
		{"another origin", http.Header{"Origin": {"https://evil.example"}}},
		{"cross-site fetch", http.Header{"Sec-Fetch-Site": {"cross-site"}}},
	} {
		for _, path := range []string{"/console/api/hands/" + h.id + "/events", "/console/api/hands/" + h.id + "/shuffle", "/console/login"} {
			if res := e.request(client, "POST", path, first, c.header); res.StatusCode != http.StatusForbidden {
				t.Errorf("%s to %s: %d, want 403", c.name, path, res.StatusCode)
			}
		}
	}
	var st answer
	if code := e.call("mesa1", "senha1", "GET", "/console/api/hands/"+h.id, nil, &st); code != http.StatusOK || len(st.Events) != 0 {
		t.Fatalf("after the refusals the hand holds %d events (status %d), want none", len(st.Events), code)
	}
}

// TestConsoleSecurityHeaders: every console route (page, assets, API, login, errors) carries the
// security headers.
func TestConsoleSecurityHeaders(t *testing.T) {
	e := newEnv(t)
	for _, r := range []struct{ method, path string }{
		{"GET", "/console/"}, {"GET", "/console/assets/console.js"}, {"GET", "/console/assets/console.css"},
		{"GET", "/console/api/messages"}, {"GET", "/console/api/device"}, {"GET", "/console/api/presets"},
		{"POST", "/console/login"}, {"POST", "/console/logout"}, {"GET", "/console/nothing"},
	} {
		res := e.request(http.DefaultClient, r.method, r.path, nil, nil)
		for k, v := range webguard.Headers {
			if k == "Content-Security-Policy" && r.path == "/console/" {
				v = console.PageCSP // webguard's, and WebAssembly for the offline mode
			}
			if got := res.Header.Get(k); got != v {
				t.Errorf("%s %s (%d): %s = %q, want %q", r.method, r.path, res.StatusCode, k, got, v)
			}
		}
	}
}
