package handhistory

import (
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // PokerStars times are US Eastern; the conversion must not depend on the host

	"github.com/google/uuid"
)

// Namespace is the UUID name space of imported hands: a hand's UUID is the version-5 UUID of a
// name that identifies it at its source (see ImportPokerStars and ImportPHH), and an event's UUID
// the version-5 UUID of its seq in the name space of its hand. The same input therefore always
// gives the same ids.
var Namespace = uuid.NewSHA1(uuid.NameSpaceURL, []byte("https://github.com/fechado/fechado/handhistory"))

// tableID returns a table id (1–64 of A-Z a-z 0-9 _ -) made of prefix, name and suffix, with
// every run of other characters in name replaced by "_" and name shortened to fit.
func tableID(prefix, name, suffix string) string {
	var b strings.Builder
	under := false
	for _, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-'
		switch {
		case ok:
			b.WriteRune(r)
			under = false
		case !under:
			b.WriteByte('_')
			under = true
		}
	}
	n := strings.Trim(b.String(), "_")
	room := 64 - len(prefix) - len(suffix) - 2
	if room < 0 {
		room = 0
	}
	if len(n) > room {
		n = n[:room]
	}
	id := prefix
	if n != "" {
		id += "-" + n
	}
	if suffix != "" {
		id += "-" + suffix
	}
	if len(id) > 64 {
		id = id[:64]
	}
	return id
}

// eastern is the time zone PokerStars calls ET, loaded at its first use: loading it from the
// embedded zone database costs every process some 1.4 ms and 1 MB at start otherwise.
var eastern = sync.OnceValue(func() *time.Location { return mustLocation("America/New_York") })

func mustLocation(name string) *time.Location {
	l, err := time.LoadLocation(name)
	if err != nil {
		panic("handhistory: time zone " + name + ": " + err.Error())
	}
	return l
}
