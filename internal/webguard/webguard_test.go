package webguard

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestCrossSite: the write checks of docs/security.md, "Cross-site requests", case by case; reads
// pass whatever they carry.
func TestCrossSite(t *testing.T) {
	for _, c := range []struct {
		name, method, ctype, origin, site string
		ok                                bool
	}{
		{"a program's JSON Lines", "POST", "application/x-ndjson", "", "", true},
		{"JSON with a charset", "POST", "application/json; charset=utf-8", "", "", true},
		{"the page itself", "POST", "application/json", "http://fechado.local:8080", "same-origin", true},
		{"origin host in another case", "POST", "application/json", "http://FECHADO.local:8080", "", true},
		{"typed by hand in the address bar", "POST", "application/json", "", "none", true},
		{"a delete", "DELETE", "application/json", "", "", true},
		{"a read with no type", "GET", "", "https://evil.example", "cross-site", true},
		{"text/plain", "POST", "text/plain", "", "", false},
		{"TEXT/PLAIN in capitals", "POST", "TEXT/PLAIN; charset=utf-8", "", "", false},
		{"a form", "POST", "application/x-www-form-urlencoded", "", "", false},
		{"multipart", "PUT", "multipart/form-data; boundary=b", "", "", false},
		{"no content type", "POST", "", "", "", false},
		{"a garbled content type", "POST", "application/json; =", "", "", false},
		{"another site", "POST", "application/json", "https://evil.example", "", false},
		{"the same host on another port", "POST", "application/json", "http://fechado.local:9090", "", false},
		{"a null origin (sandboxed frame, file)", "POST", "application/json", "null", "", false},
		{"a cross-site fetch", "POST", "application/json", "", "cross-site", false},
		{"a sibling subdomain", "PATCH", "application/json", "", "same-site", false},
	} {
		r := httptest.NewRequest(c.method, "http://fechado.local:8080/api/events", nil)
		if c.ctype != "" {
			r.Header.Set("Content-Type", c.ctype)
		}
		if c.origin != "" {
			r.Header.Set("Origin", c.origin)
		}
		if c.site != "" {
			r.Header.Set("Sec-Fetch-Site", c.site)
		}
		if err := CrossSite(r); (err == nil) != c.ok {
			t.Errorf("%s: %v, want ok=%v", c.name, err, c.ok)
		}
	}
}

// TestSecureSetsHeadersBeforeTheHandler: the headers are there even when the handler writes at
// once, errors included.
func TestSecureSetsHeadersBeforeTheHandler(t *testing.T) {
	h := Secure(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", http.StatusTeapot) }))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
	for k, v := range Headers {
		if got := w.Header().Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
}
