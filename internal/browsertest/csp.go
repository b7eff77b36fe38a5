package browsertest

import (
	"context"
	"strings"
	"sync"
	"testing"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// failOnCSPViolation makes the test fail when the page of ctx breaks its Content-Security-Policy:
// chromium then refuses the script, style or connection and says so on the console ("Refused to
// … because it violates the following Content Security Policy directive"), which a page that
// still looks right would otherwise hide. Every browser test of web and console gets it through
// New and Tab.
func failOnCSPViolation(t testing.TB, ctx context.Context) {
	var mu sync.Mutex
	ended := false
	t.Cleanup(func() {
		mu.Lock()
		ended = true
		mu.Unlock()
	})
	report := func(text string) {
		if !strings.Contains(text, "Content Security Policy") {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if !ended {
			t.Errorf("the page broke its Content-Security-Policy: %s", text)
		}
	}
	err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *cdplog.EventEntryAdded:
			report(ev.Entry.Text)
		case *runtime.EventConsoleAPICalled:
			for _, a := range ev.Args {
				report(string(a.Value) + a.Description)
			}
		}
	})
	if err != nil {
		t.Fatalf("listening to the page's console: %v", err)
	}
}
