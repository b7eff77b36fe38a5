package roles_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/fechado/fechado/roles"
)

// FuzzParse checks the auth file decoder on any bytes: it never panics; what it refuses wraps
// ErrInvalid; what it accepts passes Check, gives every user permissions, and encodes to a file
// that decodes to the same users.
func FuzzParse(f *testing.F) {
	f.Add([]byte(goodAuth))
	f.Add([]byte(`{"users": []}`))
	f.Add([]byte(`{"users": [{"name": "a", "password": "p", "role": "table", "table": "t"}]}`))
	f.Add([]byte(`{"users": [{"name": "fechado", "password": "p", "role": "auditor"}]}`))
	f.Add([]byte(`{"users": null}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := roles.Parse(b)
		if err != nil {
			if !errors.Is(err, roles.ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		if err := a.Check(); err != nil {
			t.Fatalf("accepted, then Check: %v", err)
		}
		for _, u := range a.Users {
			if p := u.Permissions(); len(p.Subscribe.Allow) == 0 {
				t.Fatalf("user %s (%s) may subscribe to nothing", u.Name, u.Role)
			}
		}
		again, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		b2, err := roles.Parse(again)
		if err != nil || !reflect.DeepEqual(a, b2) {
			t.Fatalf("round trip: %v\n%s", err, again)
		}
	})
}
