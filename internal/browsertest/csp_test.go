package browsertest

import (
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// errorsOf is a testing.TB that keeps its errors instead of failing, to test what fails a test.
type errorsOf struct {
	testing.TB
	errors []string
}

func (r *errorsOf) Errorf(format string, args ...any) { r.errors = append(r.errors, format) }

// TestCSPViolationFailsTheTest: a page with an inline script under a policy that forbids it makes
// failOnCSPViolation report the violation (and the script does not run); a page that keeps its
// policy reports nothing.
func TestCSPViolationFailsTheTest(t *testing.T) {
	if _, err := os.Stat(Chromium); err != nil {
		t.Skipf("no chromium: %v", err)
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'self'")
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/bad" {
			w.Write([]byte(`<!doctype html><title>t</title><p>bad</p><script>document.title = "ran"</script>`))
			return
		}
		w.Write([]byte(`<!doctype html><title>t</title><p>good</p>`))
	}))
	defer ts.Close()
	for _, c := range []struct {
		path string
		want bool
	}{{"/good", false}, {"/bad", true}} {
		rec := &errorsOf{TB: t}
		ctx := New(rec, 400, 300, 30*time.Second)
		if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+c.path)); err != nil {
			t.Fatal(err)
		}
		title, err := chromedp.Run(ctx, chromedp.Title())
		if err != nil {
			t.Fatal(err)
		}
		// The console message arrives on its own: wait for it, no longer than it takes.
		deadline := time.Now().Add(3 * time.Second)
		for c.want && len(rec.errors) == 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if got := len(rec.errors) > 0; got != c.want || title == "ran" {
			t.Errorf("%s: reported %v (%v), title %q; want reported %v and the script not run", c.path, got, rec.errors, title, c.want)
		}
	}
}
