package browsertest

import (
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestWindowsLoadNoBrowserUI: a window of the browser and one more browser context (each Tab is
// one) hold the pages the tests open and nothing else. chromium 156 loads its address bar's popup
// (chrome://omnibox-popup.top-chrome/) ahead in a renderer of its own for every window, a third of
// the browser tests' CPU, unless allocatorOptions turns the features off; a chromium that names
// them otherwise brings the renderers back, and this test says so.
func TestWindowsLoadNoBrowserUI(t *testing.T) {
	if _, err := os.Stat(Chromium); err != nil {
		t.Skipf("no chromium: %v", err)
	}
	ctx := New(t, 400, 300, 30*time.Second)
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	tab, cancel := chromedp.NewContext(ctx, chromedp.WithNewBrowserContext())
	defer cancel()
	if err := chromedp.Do(tab, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	targets, err := chromedp.Targets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pages := 0
	for _, x := range targets {
		switch x.Type {
		case "page":
			pages++
		case "browser_ui":
			t.Errorf("the browser loaded %s (%s) beside the pages", x.URL, x.Type)
		}
	}
	if pages != 2 {
		t.Errorf("%d pages, want the two the test opened", pages)
	}
}
