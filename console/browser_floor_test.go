package console_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/fechado/fechado/internal/browsertest"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/rules"
)

// TestBrowserConsoleFloor plays a hand on the console as a dealer would tonight (issue 41), in
// Portuguese, Turkish and Spanish: every screen in the reader's words only (no English sentence
// of the console's, no preset code, no "pot 0"); a machine shuffle with the cards hidden (no face
// on screen near the dealer); the whole deal in one tap (DealRoundInOneTap: eight players' forty
// cards from one tap); a fold confirmed with a second tap, the first sending nothing (Confirm);
// axe-core on every screen (Axe); screenshots at a tablet's and a phone's size for pt-BR and tr.
func TestBrowserConsoleFloor(t *testing.T) {
	for _, code := range []string{"pt-BR", "tr", "es"} {
		t.Run(code, func(t *testing.T) {
			_, p := newBrowser(t)
			l, _ := lang.Get(code)
			p.do("language "+code, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(
				`(() => { const s = document.querySelector("#bar-lang"); s.value = %q; s.dispatchEvent(new Event("change")); })()`, code)),
				chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`html[lang=%q]`, code))))
			english := englishOf(l)
			screen := func(name string) {
				t.Helper()
				p.everyWordIn(l, name, english)
				p.axe(name)
				if code != "es" {
					p.floorShot(l, name)
				}
			}
			// Eight players: forty cards to deal.
			for range 5 {
				p.click("add a seat", `[data-act="add-seat"]`)
			}
			screen("setup")
			names := []string{"Ana", "Beto", "Caio", "Dora", "Enzo", "Fábio", "Gil", "Hugo"}
			p.setup("br-fechado", 1, 2, 10, 1, names, []int{100, 100, 100, 100, 100, 100, 100, 100})
			p.tap("machine-shuffle")
			p.tap("cut")
			for range names {
				p.tap("ante")
			}
			// Cards hidden: the deal names no card, by symbol or by name.
			p.click("hide the cards", `[data-act="hidden"]`)
			p.do("hidden", chromedp.WaitVisible(chromedp.CSS(`[data-act="deal-round"]`)))
			if txt := p.text(`#step`); regexp.MustCompile(`[♣♦♥♠]`).MatchString(txt) {
				t.Errorf("with the cards hidden the deal shows a card: %q", txt)
			}
			screen("deal-hidden")
			t.Run("DealRoundInOneTap", func(t *testing.T) {
				p.click("deal the round", `[data-act="deal-round"]`)
				p.stored(5 * len(names))
				if s := p.step(); s != "action" {
					t.Errorf("after the round dealt in one tap the console asks for %q, want the first action", s)
				}
			})
			screen("action")
			t.Run("Confirm", func(t *testing.T) { p.confirmTap("fold") })
			screen("after-fold")
		})
	}
}

// englishOf lists the English words of the console a translated screen must not show: each
// English message's text between its placeholders, where it is a phrase (two words or more, ten
// letters or more) that the language's own message does not share, and the presets' codes.
func englishOf(l *lang.Lang) []string {
	var out []string
	ph := regexp.MustCompile(`\{[a-z_]+\}`)
	for key, m := range lang.English().Messages {
		if !strings.HasPrefix(key, "console.") && !strings.HasPrefix(key, "preset.") && !strings.HasPrefix(key, "f.") {
			continue
		}
		own := l.Messages[key].Other
		for _, frag := range ph.Split(m.Other, -1) {
			frag = strings.TrimSpace(strings.Trim(frag, " .,:;()·—"))
			if len(frag) >= 10 && strings.Contains(frag, " ") && !strings.Contains(own, frag) {
				out = append(out, frag)
			}
		}
	}
	return append(out, rules.Names()...)
}

// everyWordIn fails on any English phrase of the console, or preset code, in the page's text.
func (p *tapper) everyWordIn(l *lang.Lang, screen string, english []string) {
	p.t.Helper()
	body := p.text(`body`)
	for _, s := range english {
		if strings.Contains(body, s) {
			p.t.Errorf("%s, %s screen: English or an internal word on the page: %q", l.Code, screen, s)
		}
	}
	for _, s := range []string{"monte 0", "pot 0", "bote 0", "0. pot", "a pair of"} {
		if strings.Contains(strings.ToLower(body), s) {
			p.t.Errorf("%s, %s screen: %q on the page", l.Code, screen, s)
		}
	}
}

// text returns the visible text of sel.
func (p *tapper) text(sel string) string {
	p.t.Helper()
	s, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.querySelector(%q).innerText`, sel)))
	if err != nil {
		p.t.Fatalf("text of %s: %v", sel, err)
	}
	return s
}

// axe fails on any serious or critical violation axe-core finds on the screen.
func (p *tapper) axe(screen string) {
	p.t.Helper()
	vs, err := browsertest.Axe(p.ctx)
	if err != nil {
		p.t.Fatalf("%s: %v", screen, err)
	}
	for _, v := range vs {
		p.t.Errorf("%s screen: %s", screen, v)
	}
}

// floorShot photographs the screen at a 1024×768 tablet and a 390×844 phone, into
// $FECHADO_ARTIFACTS or the test's artifact folder when the shots are kept (browsertest.ShotsKept),
// then goes back to the tablet.
func (p *tapper) floorShot(l *lang.Lang, screen string) {
	p.t.Helper()
	dir := os.Getenv("FECHADO_ARTIFACTS")
	if dir == "" {
		dir = p.t.ArtifactDir()
	}
	sizes := []struct {
		name          string
		width, height int64
	}{{"phone", 390, 844}, {"tablet", 1024, 768}}
	if !browsertest.ShotsKept() {
		// No screenshot outlives the test: the page goes to the tablet's size all the same,
		// where the test goes on.
		sizes = sizes[1:]
	}
	for _, size := range sizes {
		p.do("viewport", chromedp.EmulateViewport(size.width, size.height))
		p.resized(size.width, size.height)
		if !browsertest.ShotsKept() {
			continue
		}
		buf, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			p.t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("console-%s-%s-%s.png", l.Code, size.name, screen)), buf, 0o644); err != nil {
			p.t.Fatal(err)
		}
	}
}

// TestBrowserConsoleAxeLogin: the login screen, the first a dealer sees, has no serious or
// critical accessibility violation in Portuguese and Turkish.
func TestBrowserConsoleAxeLogin(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := browsertest.Tab(t, 390, 844, time.Minute)
	p := &tapper{t: t, ctx: ctx}
	for _, code := range []string{"pt-BR", "tr"} {
		p.do("login screen "+code, chromedp.Navigate(e.ts.URL+"/console/"), chromedp.WaitVisible(chromedp.CSS(`#login`)),
			chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => { const s = document.querySelector("#bar-lang"); s.value = %q; s.dispatchEvent(new Event("change")); })()`, code)),
			chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`html[lang=%q] #login`, code))))
		p.axe("login " + code)
	}
}
