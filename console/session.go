package console

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/fechado/fechado/internal/webguard"
	"github.com/fechado/fechado/roles"
)

// The console's page logs in once (POST /console/login with the device's name and password) and
// then holds a session cookie: a random token the page's scripts cannot read (HttpOnly), that the
// browser sends to this site only (SameSite=Strict) and over TLS only when the page came over TLS
// (Secure). The device's password stays on the server, in memory, with the session: the page
// keeps no secret in its storage, where any script of the dashboard's origin could read it.
// Programs may still give HTTP basic credentials with each request instead.

// SessionCookie is the name of the console's session cookie.
const SessionCookie = "fechado_console"

// SessionTTL is how long a session lasts after its login: a dealer's shift.
const SessionTTL = 12 * time.Hour

// session is one logged-in device.
type session struct {
	user     roles.User
	password string // to connect to the log's server as the device (appendAs)
	expires  time.Time
}

// sessions are the console's sessions by token. Safe for concurrent use.
type sessions struct {
	mu  sync.Mutex
	by  map[string]session
	now func() time.Time
}

func newSessions() *sessions { return &sessions{by: map[string]session{}, now: time.Now} }

// start opens a session for u and returns its token.
func (s *sessions) start(u roles.User, password string) (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	tok := hex.EncodeToString(b)
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	for k, v := range s.by { // expired sessions go at each login, so the map stays small
		if now.After(v.expires) {
			delete(s.by, k)
		}
	}
	s.by[tok] = session{user: u, password: password, expires: now.Add(SessionTTL)}
	return tok, nil
}

// get returns the live session of token.
func (s *sessions) get(tok string) (session, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.by[tok]
	if ok && s.now().After(v.expires) {
		delete(s.by, tok)
		return session{}, false
	}
	return v, ok
}

func (s *sessions) end(tok string) {
	s.mu.Lock()
	delete(s.by, tok)
	s.mu.Unlock()
}

// cookie is the session cookie of tok; maxAge < 0 deletes it.
func cookie(r *http.Request, tok string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: SessionCookie, Value: tok, Path: "/console/", MaxAge: maxAge,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil}
}

// login is POST /console/login: {"user", "password"} of a table device; it answers the device
// and its table and sets the session cookie, or 401 err.login.
func (c *Console) login(w http.ResponseWriter, r *http.Request) {
	if err := webguard.CrossSite(r); err != nil {
		fail(w, http.StatusForbidden, "err.cross-site", err.Error())
		return
	}
	var req struct {
		User     string `json:"user"`
		Password string `json:"password"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<10)).Decode(&req); err != nil {
		fail(w, http.StatusBadRequest, "err.body", "")
		return
	}
	u, err := c.auth.Authenticate(req.User, req.Password)
	if err != nil {
		fail(w, http.StatusUnauthorized, "err.login", "")
		return
	}
	tok, err := c.sessions.start(u, req.Password)
	if err != nil {
		fail(w, http.StatusInternalServerError, "err.store", err.Error())
		return
	}
	http.SetCookie(w, cookie(r, tok, int(SessionTTL/time.Second)))
	writeJSON(w, http.StatusOK, map[string]string{"device": u.Name, "table": u.Table})
}

// logout is POST /console/logout: it ends the session and deletes the cookie.
func (c *Console) logout(w http.ResponseWriter, r *http.Request) {
	if err := webguard.CrossSite(r); err != nil {
		fail(w, http.StatusForbidden, "err.cross-site", err.Error())
		return
	}
	if ck, err := r.Cookie(SessionCookie); err == nil {
		c.sessions.end(ck.Value)
	}
	http.SetCookie(w, cookie(r, "", -1))
	w.WriteHeader(http.StatusNoContent)
}

// passwordKey carries the device's password in a request's context, for appendAs.
type passwordKey struct{}

// device checks a request of the console's API and passes its device on: a write (POST) must
// not be one another site's page could send (webguard.CrossSite: 403 err.cross-site), and the
// device is the session cookie's or the HTTP basic credentials' (a table device of the auth
// file), else 401 err.login.
func (c *Console) device(fn func(http.ResponseWriter, *http.Request, roles.User)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := webguard.CrossSite(r); err != nil {
			fail(w, http.StatusForbidden, "err.cross-site", err.Error())
			return
		}
		var u roles.User
		var password string
		if name, pass, ok := r.BasicAuth(); ok {
			v, err := c.auth.Authenticate(name, pass)
			if err != nil {
				fail(w, http.StatusUnauthorized, "err.login", "")
				return
			}
			u, password = v, pass
		} else if ck, err := r.Cookie(SessionCookie); err == nil {
			s, ok := c.sessions.get(ck.Value)
			if !ok {
				fail(w, http.StatusUnauthorized, "err.login", "")
				return
			}
			u, password = s.user, s.password
		} else {
			// No WWW-Authenticate challenge: the page asks for the device's name and password
			// itself rather than the browser's dialog.
			fail(w, http.StatusUnauthorized, "err.login", "")
			return
		}
		fn(w, r.WithContext(context.WithValue(r.Context(), passwordKey{}, password)), u)
	}
}

// passwordOf is the password the request's device logged in with.
func passwordOf(r *http.Request) string {
	p, _ := r.Context().Value(passwordKey{}).(string)
	return p
}
