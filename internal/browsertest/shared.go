package browsertest

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// shared is the one chromium that Tab opens its tabs in: starting chromium is most of what a
// short browser test costs, so a test binary starts it once and every test gets a tab of it.
var shared struct {
	once    sync.Once
	ctx     context.Context // the browser's first tab, which the others are made from
	cancel  func()
	profile string
	err     error
}

// allocatorOptions are the options New starts the browser exe with, in the profile folder dir.
//
// Without a spare renderer: chromium keeps a renderer process started ahead for the next tab or
// navigation, and starts another each time one is taken, which the tests, opening some forty
// tabs a package, pay for in processes nobody uses (27 renderers for 8 tabs of three pages each,
// 18 without, a fifth less of the renderers' CPU). A page runs the same in either.
//
// Without the address bar's WebUI popup (WebUIOmniboxPopup, WebUIOmniboxAimPopup): chromium 156
// loads chrome://omnibox-popup.top-chrome/ and its omnibox_popup_aim.html ahead, in a renderer of
// their own, for every window, and each browser context Tab makes is a window: 19 such renderers
// for console's browser tests, a third of their CPU (50 s of all processes' CPU, 35 s without),
// for an address bar that a headless browser never shows. The pages under test are not browser
// UI; they run the same.
func allocatorOptions(exe, dir string, width, height int) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-features", "SpareRendererForSitePerProcess,WebUIOmniboxPopup,WebUIOmniboxAimPopup"),
		chromedp.UserDataDir(dir),
		chromedp.WindowSize(width, height),
	}
}

// Tab returns the context of a new tab with a viewport of width × height pixels in the test
// binary's shared chromium, which the first call starts. The tab has a browser context of its own
// (the incognito kind: its own cookies and storage, nothing kept from or for other tests), so
// tests that use Tab may run in parallel. The tab closes after timeout or with the test. A test
// binary that calls Tab stops the chromium with StopShared in its TestMain. It skips the test when
// there is no browser (Find).
func Tab(t testing.TB, width, height int, timeout time.Duration) context.Context {
	t.Helper()
	exe := need(t)
	shared.once.Do(func() { startShared(exe) })
	if shared.err != nil {
		t.Fatalf("the browser test needs chromium: %v", shared.err)
	}
	ctx, cancel := chromedp.NewContext(shared.ctx, chromedp.WithNewBrowserContext())
	ctx, cancelT := context.WithTimeout(ctx, timeout)
	t.Cleanup(func() {
		cancelT()
		cancel()
	})
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), int64(height))); err != nil {
		t.Fatalf("a tab of the shared chromium: %v", err)
	}
	failOnCSPViolation(t, ctx)
	return ctx
}

// startShared starts the shared browser exe and runs its first tab, from which Tab makes the
// others.
func startShared(exe string) {
	shared.profile, shared.err = os.MkdirTemp("", "browsertest")
	if shared.err != nil {
		return
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), allocatorOptions(exe, shared.profile, 1024, 900)...)
	ctx, cancel := chromedp.NewContext(actx)
	shared.ctx = ctx
	shared.cancel = func() {
		cancel()
		cancelA()
	}
	shared.err = chromedp.Do(ctx)
}

// StopShared stops the chromium that Tab started, if it did, and removes its profile folder.
func StopShared() {
	if shared.cancel != nil {
		shared.cancel()
	}
	if shared.profile != "" {
		_ = os.RemoveAll(shared.profile)
	}
}
