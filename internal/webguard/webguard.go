// Package webguard owns the rules every HTTP answer and every write of fechado's web interface
// obey, whichever handler serves them (the dashboard and its API in package web, the table
// console): the security headers (a strict Content-Security-Policy and its companions), and the
// refusal of cross-site writes (docs/security.md, "Cross-site requests" and "Security headers").
package webguard

import (
	"mime"
	"net/http"
	"net/url"
	"strings"
)

// CSP is the Content-Security-Policy of every answer: scripts, styles, images, fonts and
// connections from the server itself only; no inline script, no plug-in, no <base>, no framing,
// forms posted to the server only. Inline style attributes are allowed ('unsafe-inline' in
// style-src): the dashboard's charts colour their legend and place their finding marks with a
// style attribute, and the dispute report is one self-contained page with its own <style>. A
// style cannot run code; a script can, and none is allowed inline.
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

// WasmCSP is CSP with WebAssembly compiled from the server's own files allowed
// ('wasm-unsafe-eval' allows WebAssembly only, never a string run as script): the table console's
// page, whose offline mode runs the rules engine in the browser.
var WasmCSP = strings.Replace(CSP, "script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'", 1)

// Headers are the security headers Secure sets on every answer.
var Headers = map[string]string{
	"Content-Security-Policy": CSP,
	"X-Content-Type-Options":  "nosniff",
	"Referrer-Policy":         "no-referrer",
	"X-Frame-Options":         "DENY",
}

// Secure returns h with the security headers set on every answer, before h writes anything.
func Secure(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		for k, v := range Headers {
			hd.Set(k, v)
		}
		h.ServeHTTP(w, r)
	})
}

// Unsafe reports whether method may change something (anything but GET, HEAD, OPTIONS, TRACE).
func Unsafe(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
		return false
	}
	return true
}

// simpleTypes are the content types a page of any site may send across sites without asking the
// server first (the Fetch standard's CORS-safelisted request-header "Content-Type").
var simpleTypes = map[string]bool{
	"application/x-www-form-urlencoded": true,
	"multipart/form-data":               true,
	"text/plain":                        true,
}

// Refusal says why CrossSite refused a request: the reason is for the log and the answer's
// detail, in English (the pages show their own translated words for a 403).
type Refusal struct{ Reason string }

func (r *Refusal) Error() string { return "cross-site write refused: " + r.Reason }

// CrossSite returns a *Refusal when r is a write (Unsafe) that another site's page could have
// sent: its content type is missing or one a form or a no-cors fetch can send (text/plain, form
// types), or its Origin is another origin (or "null"), or its Sec-Fetch-Site says the request
// comes from another site. A browser sends Origin and Sec-Fetch-Site by itself and a page cannot
// forge them; a program (curl, a table system) sends neither and passes on its content type. A
// request that is not a write passes.
//
// The origin compared is the host and port only: the server does not know whether a proxy in
// front of it speaks TLS, and a page of the same host and port under another scheme is no other
// site's page.
func CrossSite(r *http.Request) error {
	if !Unsafe(r.Method) {
		return nil
	}
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	switch {
	case ct == "":
		return &Refusal{"no Content-Type (send application/json or application/x-ndjson)"}
	case err != nil:
		return &Refusal{"unreadable Content-Type " + ct}
	case simpleTypes[mt]:
		return &Refusal{"Content-Type " + mt + " can be sent by any site's page (send application/json or application/x-ndjson)"}
	}
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if o == "null" || err != nil || u.Host == "" || !strings.EqualFold(u.Host, r.Host) {
			return &Refusal{"Origin " + o + " is not this server's (" + r.Host + ")"}
		}
	}
	switch s := r.Header.Get("Sec-Fetch-Site"); s {
	case "", "same-origin", "none":
	default:
		return &Refusal{"Sec-Fetch-Site is " + s + ", not same-origin"}
	}
	return nil
}
