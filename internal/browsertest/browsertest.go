// Package browsertest starts the headless chromium that the browser tests of web and console
// drive: Debian's package, which `make chromium` installs, with the options that keep it from
// reaching the network or keeping state between tests.
package browsertest

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Chromium is where Debian's chromium package installs the browser.
const Chromium = "/usr/bin/chromium"

// New starts chromium with a window of width × height pixels, in a profile folder of its own, and
// returns its context, which ends after timeout or with the test.
func New(t testing.TB, width, height int, timeout time.Duration) context.Context {
	t.Helper()
	if _, err := os.Stat(Chromium); err != nil {
		t.Fatalf("the browser test needs chromium at %s (%v): `make chromium` installs it", Chromium, err)
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), allocatorOptions(t.TempDir(), width, height)...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, timeout)
	t.Cleanup(func() {
		cancelT()
		cancel()
		cancelA()
	})
	failOnCSPViolation(t, ctx)
	return ctx
}
