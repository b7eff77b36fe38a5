package roles

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

// Logins that arrive together with the same name and password cost one bcrypt comparison: the
// first holds the others until it answers, and a login after it finds the accepted password's
// hash. A wrong password is refused to every caller and is never remembered.
func TestLoginsAtOnceShareOneBcryptComparison(t *testing.T) {
	hash, err := bcrypt.GenerateFromPassword([]byte("right"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int32
	entered, release := make(chan struct{}), make(chan struct{})
	compareHash = func(h, pw []byte) error {
		if calls.Add(1) == 1 {
			close(entered)
			<-release
		}
		return bcrypt.CompareHashAndPassword(h, pw)
	}
	t.Cleanup(func() { compareHash = bcrypt.CompareHashAndPassword })
	v := NewAuthenticator(&Auth{Users: []User{{Name: "room", Password: string(hash), Role: App}}})

	const n = 64
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			_, err := v.Authenticate("room", "right")
			errs <- err
		})
	}
	<-entered
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("a login with the right password: %v", err)
		}
	}
	if got := calls.Load(); got != 1 {
		t.Fatalf("%d logins at once made %d bcrypt comparisons, want 1", n, got)
	}

	calls.Store(1) // the hook holds no one from here on
	for range 3 {
		if _, err := v.Authenticate("room", "wrong"); err != ErrBadCredentials {
			t.Fatalf("a wrong password: %v, want ErrBadCredentials", err)
		}
	}
	if got := calls.Load(); got != 4 {
		t.Fatalf("three wrong passwords one after the other made %d comparisons, want 3 (none remembered)", got-1)
	}
	if _, err := v.Authenticate("room", "right"); err != nil {
		t.Fatalf("the right password after wrong ones: %v", err)
	}
}

// An unknown name costs one bcrypt comparison at the highest cost among the users' hashes, what
// a wrong password of the costliest hashed user costs (so timing does not tell the names apart
// from those users'), and none when every password is in clear, where a wrong password costs a
// constant-time comparison; a damaged hash counts as fechado passwd's cost, 11.
func TestUnknownNameCostsTheUsersHighestCost(t *testing.T) {
	hash := func(cost int) string {
		h, err := bcrypt.GenerateFromPassword([]byte("pw"), cost)
		if err != nil {
			t.Fatal(err)
		}
		return string(h)
	}
	var costs []int
	compareHash = func(h, pw []byte) error {
		c, err := bcrypt.Cost(h)
		if err != nil {
			t.Errorf("compared against a damaged hash %q: %v", h, err)
		}
		costs = append(costs, c)
		return bcrypt.CompareHashAndPassword(h, pw)
	}
	t.Cleanup(func() { compareHash = bcrypt.CompareHashAndPassword })
	for _, c := range []struct {
		name      string
		passwords []string
		want      []int // the costs of the comparisons an unknown name made
	}{
		{"clear passwords only", []string{"plain", "other"}, nil},
		{"one hash among clear passwords", []string{"plain", hash(bcrypt.MinCost)}, []int{bcrypt.MinCost}},
		{"hashes of two costs", []string{hash(bcrypt.MinCost + 1), hash(bcrypt.MinCost)}, []int{bcrypt.MinCost + 1}},
		{"a damaged hash", []string{"$2a$xx$damaged", hash(bcrypt.MinCost)}, []int{defaultCost}},
	} {
		costs = nil
		a := &Auth{}
		for i, pw := range c.passwords {
			a.Users = append(a.Users, User{Name: fmt.Sprint("user", i), Password: pw, Role: App})
		}
		if _, err := NewAuthenticator(a).Authenticate("nobody", "pw"); err != ErrBadCredentials {
			t.Errorf("%s: an unknown name: %v, want ErrBadCredentials", c.name, err)
		}
		if !slices.Equal(costs, c.want) {
			t.Errorf("%s: an unknown name made comparisons of costs %v, want %v", c.name, costs, c.want)
		}
	}
}
