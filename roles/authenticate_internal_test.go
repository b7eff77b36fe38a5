package roles

import (
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
