package web_test

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/fechado/fechado/internal/browsertest"
	"github.com/fechado/fechado/lang"
)

// floorSize is a screen the floor uses: a desktop, a tablet, a phone.
type floorSize struct {
	name          string
	width, height int64
	mobile        bool
}

var floorSizes = []floorSize{{"desktop", 1400, 1000, false}, {"tablet", 1024, 768, true}, {"phone", 390, 844, true}}

// TestBrowserFloor drives the dispute desk as a floor manager would tonight (issue 41), in
// Portuguese and Turkish at a desktop's, a tablet's and a phone's size: the replayer's controls
// stay put while the hand is stepped (Phone), the result shows at its step only, findings are
// listed by their short title with the code in a tooltip and no clipped cell, no page asks for a
// missing favicon, and axe-core finds no serious or critical violation on any page (Axe). The
// screenshots of every size go to the test's artifact folder.
func TestBrowserFloor(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	dir := artifacts(t)
	for _, code := range []string{"pt-BR", "tr"} {
		l, _ := lang.Get(code)
		for _, size := range floorSizes {
			// make test (-short) drives one size a language, Portuguese on the phone and Turkish
			// on the tablet; make test-long every size in both, with the screenshots.
			if testing.Short() && !(code == "pt-BR" && size.name == "phone" || code == "tr" && size.name == "tablet") {
				continue
			}
			// Each language and size in a tab of its own browser context, side by side: the
			// steps of one wait on the page while the other's run, and neither reads the other's
			// storage (the language, the speed, the cards chosen).
			t.Run(code+"/"+size.name, func(t *testing.T) {
				t.Parallel()
				tab := browsertest.Tab(t, int(size.width), int(size.height), 8*time.Minute)
				emulate := chromedp.EmulateViewport(size.width, size.height)
				if size.mobile {
					emulate = chromedp.EmulateViewport(size.width, size.height, chromedp.EmulateMobile, chromedp.EmulateTouch)
				}
				if err := chromedp.Do(tab, emulate, chromedp.Navigate(d.e.ts.URL+"/#/tables"), chromedp.WaitReady(chromedp.CSS(`#tables .tbl`))); err != nil {
					t.Fatal(err)
				}
				js[bool](tab, t, fmt.Sprintf(`localStorage.setItem("lang", %q), localStorage.removeItem("handSpeed"), true`, l.Code))
				if err := chromedp.Do(tab, chromedp.Reload(), chromedp.WaitReady(chromedp.CSS(fmt.Sprintf(`html[lang=%q] #tables .tbl`, l.Code)))); err != nil {
					t.Fatal(err)
				}
				t.Run("PhoneControlsStayAfterFiveTaps", func(t *testing.T) { d.controlsStay(t, tab, l) })
				t.Run("ResultAtItsStep", func(t *testing.T) { d.resultAtItsStep(t, tab) })
				t.Run("SpeedAndCards", func(t *testing.T) { d.speedAndCards(t, tab, l) })
				t.Run("ListsTitleFindings", func(t *testing.T) { d.listTitles(t, tab, l, size) })
				t.Run("Favicon", func(t *testing.T) { d.favicon(t, tab) })
				t.Run("Axe", func(t *testing.T) { d.axe(t, tab, l) })
				if !testing.Short() {
					d.floorShots(t, tab, l, size, dir)
				}
			})
		}
	}
	t.Logf("screenshots in %s", dir)
}

// open loads path of the dashboard in the reader's language and waits for ready.
func (d *desk) open(t *testing.T, tab context.Context, path, ready string) {
	t.Helper()
	if err := within(tab, 30*time.Second, chromedp.Navigate(d.e.ts.URL+path), chromedp.WaitVisible(chromedp.CSS(ready))); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// controlsStay opens the flagged hand at its first event, scrolled to the replayer's controls,
// and taps ▶ five times: the page must not move (the history list scrolls itself) and the
// button must stay on screen, while the step advances.
func (d *desk) controlsStay(t *testing.T, tab context.Context, l *lang.Lang) {
	d.open(t, tab, fmt.Sprintf("/#/hand/%s/1", d.hand), `#next`)
	poll(tab, t, fmt.Sprintf(`document.documentElement.lang === %q`, l.Code))
	js[bool](tab, t, `window.scrollTo(0, document.querySelector(".hand-controls").getBoundingClientRect().top + window.scrollY - 8), true`)
	before := js[float64](tab, t, `window.scrollY`)
	step0 := mustText(tab, t, `#step-seq`)
	for range 5 {
		if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(`#next`))); err != nil {
			t.Fatal(err)
		}
	}
	poll(tab, t, `location.hash.endsWith("/6")`)
	after := js[float64](tab, t, `window.scrollY`)
	top := js[float64](tab, t, `document.querySelector("#next").getBoundingClientRect().top`)
	height := js[float64](tab, t, `window.innerHeight`)
	if after != before || top < 0 || top > height-40 {
		t.Errorf("after five taps on ▶ the page scrolled from %.0f to %.0f and the button is at %.0f of %.0f pixels", before, after, top, height)
	}
	if step := mustText(tab, t, `#step-seq`); step == step0 {
		t.Errorf("five taps left the step at %q", step)
	}
	// The table's next hand is a link away (this is its first hand), and its hands' list too.
	poll(tab, t, `!!document.querySelector("#next-hand")`)
	if href := js[string](tab, t, `document.querySelector(".hand-head a").getAttribute("href")`); href != "#/hands?table=desk-std" {
		t.Errorf("the table's hands are linked as %q", href)
	}
	// The history followed: its line of the step is within the list's box.
	inside := js[bool](tab, t, `(() => { const ol = document.querySelector("#history"), li = ol.querySelector("li.now");
		if (!li) return false; const a = ol.getBoundingClientRect(), b = li.getBoundingClientRect(); return b.top >= a.top - 1 && b.bottom <= a.bottom + 1; })()`)
	if !inside {
		t.Error("the history's line of the step is not in view inside the list")
	}
}

// resultAtItsStep: the hand's result is hidden until its last step, then shown; the list of all
// the hand's findings at the bottom, and the marks of findings on the slider (whose tooltips say
// them), show a finding only once the replay has reached its event, as it happened; with all
// cards, the floor's review, the slider's marks show from the start and jump to their event.
func (d *desk) resultAtItsStep(t *testing.T, tab context.Context) {
	js[bool](tab, t, `localStorage.setItem("handCards", "shown"), true`)
	// Whatever fails, the next test finds the hand as it happened.
	defer js[bool](tab, t, `localStorage.setItem("handCards", "shown"), true`)
	d.open(t, tab, fmt.Sprintf("/#/hand/%s/1", d.hand), `#next`)
	// The page is drawn again when the address changes: wait for the first step's.
	poll(tab, t, `/^#\/hand\/[^/]+\/1$/.test(location.hash) && document.querySelector("#slider") && document.querySelector("#slider").value === "0"`)
	if js[bool](tab, t, `!document.querySelector("#result").hidden`) {
		t.Error("the result shows at the hand's first event")
	}
	// listed: the findings of the bottom list a reader sees, as [seq, code].
	listed := func() [][2]any {
		return js[[][2]any](tab, t, `[...document.querySelectorAll("#all-findings article.hf")].filter((a) => a.offsetHeight > 0).map((a) => [Number(a.dataset.seq), a.dataset.code])`)
	}
	if got := listed(); len(got) > 0 {
		t.Errorf("at the hand's first event the list of findings shows %v", got)
	}
	// dots: the slider's marks of findings a reader sees (laid out, so neither the eye nor a
	// screen reader finds a hidden one), as [event, tooltip].
	dots := func() [][2]any {
		return js[[][2]any](tab, t, `[...document.querySelectorAll(".hand-marks .find")].filter((b) => b.getClientRects().length > 0).map((b) => [Number(b.dataset.seq), b.title])`)
	}
	allDots := js[int](tab, t, `document.querySelectorAll(".hand-marks .find").length`)
	if got := dots(); len(got) > 0 {
		t.Errorf("as it happened, at the hand's first event the slider marks findings at %v", got)
	}
	flagged := fmt.Sprintf(`#all-findings article.hf[data-code=%q][data-seq="%d"]`, d.code, d.seq)
	flaggedDot := fmt.Sprintf(`.hand-marks .find[data-seq="%d"]`, d.seq)
	// One event before the finding's, it is still not listed nor marked; at its event it is.
	d.openStep(t, tab, d.seq-1)
	for _, f := range listed() {
		if seq := f[0].(float64); int(seq) > d.seq-1 {
			t.Errorf("at event %d the list of findings shows %v, of event %.0f", d.seq-1, f[1], seq)
		}
	}
	for _, f := range dots() {
		if seq := f[0].(float64); int(seq) > d.seq-1 {
			t.Errorf("as it happened, at event %d the slider marks the finding of event %.0f: %q", d.seq-1, seq, f[1])
		}
	}
	js[bool](tab, t, `document.querySelector("#next").click(), true`)
	poll(tab, t, fmt.Sprintf(`location.hash.endsWith("/%d") && document.querySelector(%q).offsetHeight > 0`, d.seq, flagged))
	if js[bool](tab, t, `!document.querySelector("#result").hidden`) {
		t.Errorf("the result shows at the finding's event %d, before the hand's end", d.seq)
	}
	// At its event the finding is marked, its sentence in the mark's tooltip and accessible name.
	sentence := mustText(tab, t, fmt.Sprintf(`#step-findings article.hf[data-code=%q] .hf-sentence`, d.code))
	if shown := js[bool](tab, t, fmt.Sprintf(`(() => { const b = document.querySelector(%q);
		return !!b && b.getClientRects().length > 0 && b.title.includes(%q) && b.getAttribute("aria-label").includes(%q); })()`, flaggedDot, sentence, sentence)); !shown {
		t.Errorf("as it happened, at its event %d the slider does not mark the finding %q", d.seq, sentence)
	}
	js[bool](tab, t, `document.querySelector("#last").click(), true`)
	poll(tab, t, `!document.querySelector("#result").hidden && document.querySelector("#result").offsetHeight > 0`)
	if all, shown := js[int](tab, t, `document.querySelectorAll("#all-findings article.hf").length`), len(listed()); shown != all || all == 0 {
		t.Errorf("at the hand's last event the list shows %d of its %d findings", shown, all)
	}
	if shown := len(dots()); shown != allDots || allDots == 0 {
		t.Errorf("as it happened, at the hand's last event the slider marks %d of its %d steps with findings", shown, allDots)
	}

	// All cards: every mark from the first event on, and a mark is a button to its event, by
	// keyboard too.
	js[bool](tab, t, `localStorage.setItem("handCards", "all"), true`)
	d.openStep(t, tab, 1)
	if shown := len(dots()); shown != allDots {
		t.Errorf("with all cards, at the hand's first event the slider marks %d of its %d steps with findings", shown, allDots)
	}
	if js[bool](tab, t, `!document.querySelector("#result").hidden`) {
		t.Error("with all cards, the result shows at the hand's first event")
	}
	if got := js[string](tab, t, fmt.Sprintf(`(() => { const b = document.querySelector(%q); return b ? b.title : ""; })()`, flaggedDot)); !strings.Contains(got, sentence) {
		t.Errorf("with all cards, the mark of event %d reads %q, want the finding %q", d.seq, got, sentence)
	}
	js[bool](tab, t, fmt.Sprintf(`(() => { const b = document.querySelector(%q); b.focus(); return document.activeElement === b; })()`, flaggedDot))
	if err := chromedp.Do(tab, chromedp.KeyEvent("\r")); err != nil {
		t.Fatal(err)
	}
	poll(tab, t, fmt.Sprintf(`location.hash.endsWith("/%d") && document.querySelector(%q).offsetHeight > 0`, d.seq, `#step-findings article.hf`))
	// Back to the hand as it happened (the page is drawn again for another event): a step before
	// the finding's, its mark is gone again.
	js[bool](tab, t, `localStorage.setItem("handCards", "shown"), true`)
	d.openStep(t, tab, d.seq-1)
	if js[bool](tab, t, fmt.Sprintf(`document.querySelector(%q).getClientRects().length > 0`, flaggedDot)) {
		t.Errorf("as it happened again, at event %d the slider marks the finding of event %d", d.seq-1, d.seq)
	}
}

// openStep opens the flagged hand at event seq, from another step of it: the page is drawn again
// for the new address, so it waits for the page at that event (its line of the history marked),
// not the other step's still on screen, whose controls a test would find detached.
func (d *desk) openStep(t *testing.T, tab context.Context, seq int) {
	t.Helper()
	d.open(t, tab, fmt.Sprintf("/#/hand/%s/%d", d.hand, seq), `#next`)
	poll(tab, t, fmt.Sprintf(`(() => { const li = document.querySelector("#history li.now");
		return !!li && Number(li.dataset.seq) <= %[1]d && %[1]d <= Number(li.dataset.last) && location.hash.endsWith("/%[1]d"); })()`, seq))
}

// speedAndCards: the play speed is chosen and kept; "all cards" turns the face-down cards of the
// hand as it happened face up, and the choice is kept until it is turned back.
func (d *desk) speedAndCards(t *testing.T, tab context.Context, l *lang.Lang) {
	d.openStep(t, tab, d.seq)
	js[bool](tab, t, `(() => { const s = document.querySelector("#speed"); s.value = "2"; s.dispatchEvent(new Event("change")); return true; })()`)
	if v := js[string](tab, t, `localStorage.getItem("handSpeed")`); v != "2" {
		t.Errorf("the speed chosen is kept as %q", v)
	}
	backs := func() int { return js[int](tab, t, `document.querySelectorAll("#table .back").length`) }
	happened := backs()
	if got, want := mustText(tab, t, `#cards`), l.T("web.hand.cards.all", nil); got != want {
		t.Errorf("the cards button reads %q, want %q", got, want)
	}
	js[bool](tab, t, `document.querySelector("#cards").click(), true`)
	poll(tab, t, fmt.Sprintf(`document.querySelector("#cards") && document.querySelector("#cards").textContent === %q`, l.T("web.hand.cards.happened", nil)))
	if all := backs(); all >= happened {
		t.Errorf("all cards shows %d face-down cards, as it happened %d", all, happened)
	}
	js[bool](tab, t, `document.querySelector("#cards").click(), localStorage.removeItem("handSpeed"), true`)
	poll(tab, t, fmt.Sprintf(`document.querySelector("#cards") && document.querySelector("#cards").textContent === %q`, l.T("web.hand.cards.all", nil)))
}

// listTitles: the hands with findings list each finding by its short title in l, the code in the
// title attribute, and no cell of the list is clipped.
func (d *desk) listTitles(t *testing.T, tab context.Context, l *lang.Lang, size floorSize) {
	d.open(t, tab, "/#/hands?findings=1", `#hands .ftag`)
	tags := js[[][2]string](tab, t, `[...document.querySelectorAll("#hands .ftag")].map((e) => [e.title, e.textContent])`)
	if len(tags) == 0 {
		t.Fatal("no finding in the list")
	}
	for _, tg := range tags {
		if want := l.T("ftitle."+tg[0], nil); tg[1] != want || !l.Has("ftitle."+tg[0]) {
			t.Errorf("the finding %s is listed as %q, want %q", tg[0], tg[1], want)
		}
	}
	if size.width >= 1024 {
		clipped := js[[]string](tab, t, `[...document.querySelectorAll("#hands td, #hands th")].filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent)`)
		if len(clipped) > 0 {
			t.Errorf("clipped cells at %d pixels: %q", size.width, clipped)
		}
		if wide := js[float64](tab, t, `(() => { const s = document.querySelector("#hands").closest(".scroll"); return s.scrollWidth - s.clientWidth; })()`); wide > 1 {
			t.Errorf("at %d pixels the hands list is %.0f pixels wider than its box: the findings are off screen", size.width, wide)
		}
	}
	// The lobby names them the same way.
	d.open(t, tab, "/#/tables", `#tables .tbl`)
	if codes := js[[]string](tab, t, `[...document.querySelectorAll("#tables .code")].map((e) => e.textContent)`); len(codes) > 0 {
		t.Errorf("the lobby lists finding codes: %q", codes)
	}
}

// favicon: the pages name an icon the server has, and /favicon.ico answers too.
func (d *desk) favicon(t *testing.T, tab context.Context) {
	d.open(t, tab, "/#/tables", `#tables .tbl`)
	got, err := chromedp.Run(tab, chromedp.Evaluate[[]int](`Promise.all([document.querySelector("link[rel=icon]").href, "/favicon.ico"].map((u) => fetch(u).then((r) => r.status)))`, chromedp.EvalAwaitPromise))
	if err != nil || len(got) != 2 || got[0] != 200 || got[1] != 200 {
		t.Errorf("the icon and /favicon.ico answer %v (%v)", got, err)
	}
}

// axe runs axe-core on every page of the dashboard, the hand at its finding and the printed
// report included: no serious or critical violation of WCAG 2.1 A or AA. The report, a document
// of its own, comes last: the dashboard's pages are one document whose address changes after the
// #, which loads once and is given the checker once.
func (d *desk) axe(t *testing.T, tab context.Context, l *lang.Lang) {
	own := func(p deskPage) int {
		if strings.HasPrefix(p.path, "/#/") {
			return 0
		}
		return 1
	}
	pages := d.pages(l)
	slices.SortStableFunc(pages, func(a, b deskPage) int { return cmp.Compare(own(a), own(b)) })
	for _, p := range pages {
		d.open(t, tab, p.path, p.ready)
		vs, err := browsertest.Axe(tab)
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		for _, v := range vs {
			t.Errorf("%s page: %s", p.name, v)
		}
	}
}

// floorShots photographs the hand at its finding (after five steps from the start, and at its
// finding), the hands list and the lobby, into dir.
func (d *desk) floorShots(t *testing.T, tab context.Context, l *lang.Lang, size floorSize, dir string) {
	shots := []deskPage{
		{"hand-step6", fmt.Sprintf("/#/hand/%s/6", d.hand), `#next`},
		{"hand-finding", fmt.Sprintf("/#/hand/%s/%d", d.hand, d.seq), fmt.Sprintf(`#step-findings [data-code=%q]`, d.code)},
		{"hands", "/#/hands?findings=1", `#hands .ftag`},
		{"tables", "/#/tables", `#tables .tbl`},
	}
	for _, p := range shots {
		d.open(t, tab, p.path, p.ready)
		if p.name == "hand-finding" { // the rule opened, as a floor manager reads it
			js[bool](tab, t, `document.querySelectorAll("#step-findings details").forEach((e) => e.open = true), true`)
		}
		shot, err := chromedp.Run(tab, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, fmt.Sprintf("floor-%s-%s-%s.png", l.Code, size.name, p.name))
		if err := os.WriteFile(path, shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
