package web_test

import (
	"context"
	"fmt"
	"github.com/fechado/fechado/internal/browsertest"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/sim"
)

// TestBrowserReplayer drives chromium through the dashboard: the live tables, the hands list
// filtered to hands with findings, the replayer of a hand with an injected irregularity, stepped
// event by event to the flagged one, where the page must show the finding's code. The screenshot
// goes to the test's artifact folder (go test -artifacts -outputdir DIR keeps it; the path is
// logged).
func TestBrowserReplayer(t *testing.T) {
	e := newEnv(t, 0)
	hs := simulated(t, sim.Config{Rules: "std-draw", Players: 3, Hands: 4, Seed: 7, Table: "browser-table", ExposeRate: -1,
		Inject: []finding.Code{finding.OpenWithoutOpeners}})
	e.post(handsBody(hs), http.StatusOK, nil)
	e.waitProjected()
	h := injected(t, hs)
	hand, seq, code := h.Events[0].Hand, int(h.Seq), string(h.Injected)

	ctx := browser(t)

	err := chromedp.Do(ctx,
		chromedp.Navigate(e.ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(`#tables .tbl[data-table="browser-table"]`)),
	)
	if err != nil {
		t.Fatalf("tables page: %v", err)
	}
	tables := mustText(ctx, t, `#tables`)
	if !strings.Contains(tables, "browser-table") || !strings.Contains(tables, "Draw Poker, jacks or better") {
		t.Errorf("the tables page shows %q", tables)
	}
	err = chromedp.Do(ctx,
		// The hands list, filtered to hands with findings with the form.
		chromedp.Click(chromedp.CSS(`a[data-nav="hands"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#filters`)),
		chromedp.Click(chromedp.CSS(`#filters input[name="findings"]`)),
		chromedp.Click(chromedp.CSS(`#filters button[type="submit"]`)),
		// The list as filtered: the box is checked in the page's markup, not only by the click.
		chromedp.WaitVisible(chromedp.CSS(`#filters input[name="findings"][checked]`)),
		chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`#hands tr[data-hand=%q]`, hand))),
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`#hands tr[data-hand=%q] td`, hand))),
		// The replayer: back to the start, then forward one event at a time.
		chromedp.WaitVisible(chromedp.CSS(`#slider`)),
		chromedp.Click(chromedp.CSS(`#first`)),
		chromedp.WaitVisible(chromedp.CSS(`#step-seq`)),
	)
	if err != nil {
		t.Fatalf("dashboard: %v", err)
	}
	if got := mustText(ctx, t, `#step-seq`); !strings.HasSuffix(got, "seq 1") {
		t.Fatalf("the start of the replay shows %q, want seq 1", got)
	}
	for i := 1; i < seq; i++ {
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#next`))); err != nil {
			t.Fatal(err)
		}
	}
	stepSeq, at := mustText(ctx, t, `#step-seq`), mustText(ctx, t, `#step-findings`)
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(stepSeq, fmt.Sprintf("seq %d", seq)) {
		t.Fatalf("after %d steps the replayer is at %q, want seq %d", seq-1, stepSeq, seq)
	}
	if !strings.Contains(at, code) {
		t.Errorf("at seq %d the page shows %q, want the finding %s", seq, at, code)
	}
	if !strings.Contains(at, "expected") {
		t.Errorf("at seq %d the finding shows no expected value: %q", seq, at)
	}
	// One step back the finding is not shown: the page shows it at its event only.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#prev`))); err != nil {
		t.Fatal(err)
	}
	before := mustText(ctx, t, `#step-findings`)
	if strings.Contains(before, code) {
		t.Errorf("at seq %d the page already shows %s: %q", seq-1, code, before)
	}
	path := filepath.Join(t.ArtifactDir(), "replayer.png")
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot of hand %s at seq %d: %s", hand, seq, path)
}

// browser starts a headless chromium for the test, closed when it ends, and returns its context
// (a minute at most).
func browser(t *testing.T) context.Context {
	t.Helper()
	return browsertest.New(t, 1300, 1000, 60*time.Second)
}

// mustText returns the text of the first element sel matches.
func mustText(ctx context.Context, t *testing.T, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("text of %s: %v", sel, err)
	}
	return s
}
