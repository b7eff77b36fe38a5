package roles

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"strings"
	"sync"

	"golang.org/x/crypto/bcrypt"
	"golang.org/x/sync/singleflight"
)

// Permits reports whether the rule lets subject through, as the NATS server decides it: the
// subject must match the allow list (or the list be empty) and no entry of the deny list. A
// pattern matches token by token ('.'-separated), "*" standing for one token and a final ">" for
// one or more.
func (r SubjectRule) Permits(subject string) bool {
	if !validSubject(subject) {
		return false
	}
	allowed := len(r.Allow) == 0
	for _, p := range r.Allow {
		if subjectMatch(p, subject) {
			allowed = true
			break
		}
	}
	if !allowed {
		return false
	}
	for _, p := range r.Deny {
		if subjectMatch(p, subject) {
			return false
		}
	}
	return true
}

// validSubject reports whether s is a literal subject: non-empty tokens, no wildcard, no space.
func validSubject(s string) bool {
	if s == "" || strings.ContainsAny(s, " \t\r\n") {
		return false
	}
	for _, t := range strings.Split(s, ".") {
		if t == "" || t == "*" || t == ">" {
			return false
		}
	}
	return true
}

// subjectMatch reports whether the literal subject matches pattern (NATS wildcards).
func subjectMatch(pattern, subject string) bool {
	pt, st := strings.Split(pattern, "."), strings.Split(subject, ".")
	for i, p := range pt {
		if p == ">" {
			return i == len(pt)-1 && len(st) > i
		}
		if i >= len(st) || (p != "*" && p != st[i]) {
			return false
		}
	}
	return len(pt) == len(st)
}

// MayPublish reports whether u may publish to subject: the decision the NATS server takes with
// u.Permissions(), taken here for a transport the server does not see (HTTP).
func (u User) MayPublish(subject string) bool { return u.Permissions().Publish.Permits(subject) }

// MayAppend reports whether u may append an event of table and hand to the log: whether it may
// publish to the hand's subject (MayPublish). It is the one answer to "may this principal write
// to this table": the NATS server takes it from the same permissions (recorder.ServerUsers), and
// the HTTP API and the table console ask it here. Ids that are not one subject token each are
// refused: they could not name a subject of this table.
func (u User) MayAppend(table, hand string) bool {
	if !ValidName(table) || hand == "" || strings.ContainsAny(hand, ".*> \t\r\n") {
		return false
	}
	return u.MayPublish(HandSubject(table, hand))
}

// Writes reports whether u's role appends to the log at all (to some table).
func (u User) Writes() bool { return u.Role == Table || u.Role == App }

// ErrBadCredentials means no user of the auth file has that name and password.
var ErrBadCredentials = errors.New("unknown user or wrong password")

// Authenticator checks a name and password against an auth file's users, as the NATS server
// checks them: a password in clear compares in constant time, a bcrypt hash ("$2…") with bcrypt.
// A bcrypt comparison costs tens of milliseconds by design; a password it accepted is remembered
// (its SHA-256, in memory) so that the next requests of the same user cost one hash. Safe for
// concurrent use.
//
// Requests that arrive together with the same name and password (a room's table devices starting
// at once, or the same device's requests in parallel) wait for one bcrypt comparison rather than
// each making its own: a thousand tables logging in as one app user cost one comparison, not a
// thousand (a queue of seconds on two cores, issue 43's load).
type Authenticator struct {
	users map[string]User
	// unknownCost is the bcrypt cost an unknown name's comparison takes: the highest cost among
	// the users' hashes, so that an unknown name costs what a wrong password of a hashed user
	// costs; 0 when every password is in clear (an unknown name then costs what a wrong clear
	// password costs: a constant-time comparison).
	unknownCost int

	mu    sync.Mutex
	known map[string][sha256.Size]byte // user name → SHA-256 of the password bcrypt accepted
	once  singleflight.Group           // one bcrypt comparison per name and password at a time
}

// NewAuthenticator returns the authenticator of a's users; a nil a knows nobody.
func NewAuthenticator(a *Auth) *Authenticator {
	v := &Authenticator{users: map[string]User{}, known: map[string][sha256.Size]byte{}}
	if a != nil {
		for _, u := range a.Users {
			v.users[u.Name] = u
			if strings.HasPrefix(u.Password, "$2") {
				c, err := bcrypt.Cost([]byte(u.Password))
				if err != nil {
					c = defaultCost // a damaged hash, which accepts nothing: passwd's cost
				}
				v.unknownCost = max(v.unknownCost, c)
			}
		}
	}
	return v
}

// defaultCost is fechado passwd's default bcrypt cost.
const defaultCost = 11

// dummyHash returns the hash compared when a name is unknown, of the given cost, so that an
// unknown name costs what a wrong password of the file's costliest hash costs (cost 11, passwd's
// default, in a deployment) and the timing does not tell which names exist. Each is made at the
// first unknown name that needs it, not at start: every command imports roles.
func dummyHash(cost int) []byte {
	f, _ := dummyHashes.LoadOrStore(cost, sync.OnceValue(func() []byte {
		h, _ := bcrypt.GenerateFromPassword([]byte("fechado: no such user"), cost)
		return h
	}))
	return f.(func() []byte)()
}

// dummyHashes holds dummyHash's hashes by cost.
var dummyHashes sync.Map

// compareHash is bcrypt's comparison; a test counts the comparisons through it.
var compareHash = bcrypt.CompareHashAndPassword

// Authenticate returns the user called name when password is theirs; ErrBadCredentials
// otherwise.
func (v *Authenticator) Authenticate(name, password string) (User, error) {
	u, ok := v.users[name]
	if !ok {
		if v.unknownCost > 0 {
			_ = compareHash(dummyHash(v.unknownCost), []byte(password))
		} else {
			_ = subtle.ConstantTimeCompare([]byte("fechado: no such user"), []byte(password))
		}
		return User{}, ErrBadCredentials
	}
	if !strings.HasPrefix(u.Password, "$2") {
		if subtle.ConstantTimeCompare([]byte(u.Password), []byte(password)) != 1 {
			return User{}, ErrBadCredentials
		}
		return u, nil
	}
	sum := sha256.Sum256([]byte(password))
	v.mu.Lock()
	prev, seen := v.known[name]
	v.mu.Unlock()
	if seen && subtle.ConstantTimeCompare(prev[:], sum[:]) == 1 {
		return u, nil
	}
	// The key holds the password's SHA-256, never the password; only callers with the same
	// name and password share a comparison and its answer.
	key := name + "\x00" + string(sum[:])
	okAny, _, _ := v.once.Do(key, func() (any, error) {
		// A comparison that ended between the look above and this one left its answer.
		v.mu.Lock()
		prev, seen := v.known[name]
		v.mu.Unlock()
		if seen && subtle.ConstantTimeCompare(prev[:], sum[:]) == 1 {
			return true, nil
		}
		if compareHash([]byte(u.Password), []byte(password)) != nil {
			return false, nil
		}
		v.mu.Lock()
		v.known[name] = sum
		v.mu.Unlock()
		return true, nil
	})
	if ok, _ := okAny.(bool); !ok {
		return User{}, ErrBadCredentials
	}
	return u, nil
}

// PasswordOK reports whether password matches want, an auth file's password in clear or bcrypt.
func PasswordOK(want, password string) bool {
	if strings.HasPrefix(want, "$2") {
		return bcrypt.CompareHashAndPassword([]byte(want), []byte(password)) == nil
	}
	return subtle.ConstantTimeCompare([]byte(want), []byte(password)) == 1
}
