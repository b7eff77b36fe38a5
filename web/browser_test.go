package web_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/browsertest"
	"github.com/fechado/fechado/sim"
)

// TestBrowserReplayer drives chromium through the dashboard: the live tables, the hands list
// filtered to hands with findings, and the page of a hand with an injected irregularity, the
// dispute desk: stepped with the keyboard to the flagged event, where the finding must read as a
// sentence naming the player and citing the rule, in English and then in Portuguese; then at a
// phone's width, where the page must be no wider than the screen and the finding must sit just
// under the table. Screenshots of the desktop and the phone go to the test's artifact folder
// (go test -artifacts -outputdir DIR keeps them; the paths are logged).
func TestBrowserReplayer(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	hs := simulated(t, sim.Config{Rules: "std-draw", Players: 3, Hands: 4, Seed: 7, Table: "browser-table", ExposeRate: -1,
		Inject: []finding.Code{finding.OpenWithoutOpeners}})
	e.post(handsBody(hs), http.StatusOK, nil)
	e.waitProjected()
	h := injected(t, hs)
	hand, seq, code := h.Events[0].Hand, int(h.Seq), string(h.Injected)
	// What the page must say at the flagged event, as the API tells it in each language.
	told := map[string]shownFindingJSON{}
	for _, l := range []string{"en", "pt-BR"} {
		var step struct {
			Findings []shownFindingJSON `json:"findings"`
		}
		e.get(fmt.Sprintf("/api/hands/%s/replay?at=%d&lang=%s", hand, seq, l), http.StatusOK, &step)
		if len(step.Findings) == 0 || len(step.Findings[0].Players) == 0 || step.Findings[0].RuleTitle == "" {
			t.Fatalf("%s: the finding at seq %d is told as %+v", l, seq, step.Findings)
		}
		told[l] = step.Findings[0]
	}

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
		// The hand's page: back to the start with Home, then forward one event at a time.
		chromedp.WaitVisible(chromedp.CSS(`#table svg.table`)),
		chromedp.KeyEvent(kb.Home),
	)
	if err != nil {
		t.Fatalf("dashboard: %v", err)
	}
	total := len(h.Events)
	if got, want := mustText(ctx, t, `#step-seq`), fmt.Sprintf("Event 1 of %d", total); got != want {
		t.Fatalf("after Home the page is at %q, want %q", got, want)
	}
	for i := 1; i < seq-1; i++ {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
			t.Fatal(err)
		}
	}
	// One event before the finding it is not shown: the page shows it at its event only.
	if before := mustText(ctx, t, `#step-seq`); before != fmt.Sprintf("Event %d of %d", seq-1, total) {
		t.Fatalf("after %d steps the page is at %q", seq-2, before)
	}
	if n := count(ctx, t, `#step-findings article`); n != 0 {
		t.Errorf("at seq %d the page already shows %d findings", seq-1, n)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	if got := mustText(ctx, t, `#step-seq`); got != fmt.Sprintf("Event %d of %d", seq, total) {
		t.Fatalf("the page is at %q, want event %d", got, seq)
	}
	checkFinding := func(l string) {
		t.Helper()
		// Read by script: the DOM chromedp mirrors lags behind a page redrawn whole.
		at := js[string](ctx, t, `document.querySelector("#step-findings").innerText`)
		f := told[l]
		for _, want := range []string{f.Sentence, f.Players[0], f.Citation, f.RuleTitle} {
			if !strings.Contains(at, want) {
				t.Errorf("%s: at seq %d the finding reads %q, lacking %q", l, seq, at, want)
			}
		}
		if n := count(ctx, t, fmt.Sprintf(`#step-findings article[data-code=%q]`, code)); n != 1 {
			t.Errorf("%s: %d findings %s shown at seq %d", l, n, code, seq)
		}
		// The table marks the offending player's seat.
		if n := count(ctx, t, `#table svg.table rect.plate.marked`); n == 0 {
			t.Errorf("%s: no seat is marked on the table at seq %d", l, seq)
		}
	}
	checkFinding("en")
	desktop := fullShot(ctx, t)
	// End goes to the last event; Page Up to the start of the part of the hand it is in (the
	// showdown). Then the finding's address, loaded afresh, opens the page at the finding.
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.End)); err != nil {
		t.Fatal(err)
	}
	if got := mustText(ctx, t, `#step-seq`); got != fmt.Sprintf("Event %d of %d", total, total) {
		t.Errorf("after End the page is at %q", got)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.PageUp)); err != nil {
		t.Fatal(err)
	}
	if now := js[string](ctx, t, `document.querySelector(".jump-round.now").dataset.round`); now != "showdown" {
		t.Errorf("after End and Page Up the page is in the part %q, want the showdown", now)
	}
	if got := mustText(ctx, t, `#step-seq`); got == fmt.Sprintf("Event %d of %d", total, total) {
		t.Errorf("Page Up did not move from the last event")
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(fmt.Sprintf("%s/#/hand/%s/%d", e.ts.URL, hand, seq)), chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	poll(ctx, t, fmt.Sprintf(`document.querySelector("#step-seq") && document.querySelector("#step-seq").textContent === "Event %d of %d"`, seq, total))
	// The same event in Portuguese: the switcher redraws the page at the event shown, which the
	// address follows as the keys step.
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowLeft)); err != nil {
		t.Fatal(err)
	}
	if hash := js[string](ctx, t, `location.hash`); hash != fmt.Sprintf("#/hand/%s/%d", hand, seq) {
		t.Errorf("at seq %d the address is %q", seq, hash)
	}
	if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS(`#lang`), "pt-BR")); err != nil {
		t.Fatal(err)
	}
	js[bool](ctx, t, `document.querySelector("#lang").dispatchEvent(new Event("change"))`)
	poll(ctx, t, fmt.Sprintf(`document.documentElement.lang === "pt-BR" && document.querySelector("#step-seq").textContent === "Evento %d de %d"`, seq, total))
	checkFinding("pt-BR")
	// A phone: nothing wider than the screen, the finding right under the table.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	poll(ctx, t, `window.innerWidth === 390`)
	overflow := js[float64](ctx, t, `document.documentElement.scrollWidth - window.innerWidth`)
	gap := js[float64](ctx, t, `document.querySelector("#step-findings").getBoundingClientRect().top - document.querySelector("#table").getBoundingClientRect().bottom`)
	if overflow > 0 {
		t.Errorf("at 390 pixels the page is %.0f pixels wider than the screen", overflow)
	}
	if gap < 0 || gap > 60 {
		t.Errorf("at 390 pixels the finding is %.0f pixels below the table", gap)
	}
	phone := fullShot(ctx, t)
	if !browsertest.ShotsKept() {
		return
	}
	for name, shot := range map[string][]byte{"hand-desktop.png": desktop, "hand-phone.png": phone} {
		path := filepath.Join(t.ArtifactDir(), name)
		if err := os.WriteFile(path, shot, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot of hand %s at seq %d: %s", hand, seq, path)
	}
}

// fullShot photographs the whole page (PNG: the text stays sharp), or returns nil when no
// screenshot outlives the test (browsertest.ShotsKept).
func fullShot(ctx context.Context, t *testing.T) []byte {
	t.Helper()
	if !browsertest.ShotsKept() {
		return nil
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	return shot
}

// shownFindingJSON is a finding as GET /api/hands/{id}/replay tells it.
type shownFindingJSON struct {
	Code      string   `json:"code"`
	Sentence  string   `json:"sentence"`
	Citation  string   `json:"citation"`
	RuleTitle string   `json:"rule_title"`
	Rule      string   `json:"rule"`
	Anchor    string   `json:"anchor"`
	Remedy    string   `json:"remedy"`
	Players   []string `json:"players"`
	Cards     []string `json:"cards"`
	Seats     []int    `json:"seats"`
}

// count returns how many elements sel matches.
func count(ctx context.Context, t *testing.T, sel string) int {
	t.Helper()
	return js[int](ctx, t, fmt.Sprintf(`document.querySelectorAll(%q).length`, sel))
}

// js returns the value of a JavaScript expression in the page.
func js[T any](ctx context.Context, t *testing.T, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// poll waits until a JavaScript expression holds in the page.
func poll(ctx context.Context, t *testing.T, expr string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr)); err != nil {
		t.Fatalf("waiting for %s: %v", expr, err)
	}
}

// browser opens a tab of the package's shared chromium for the test, in a browser context of its
// own, closed when it ends, and returns its context (a minute at most).
func browser(t *testing.T) context.Context {
	t.Helper()
	return browsertest.Tab(t, 1300, 1000, 60*time.Second)
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
