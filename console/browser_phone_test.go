package console_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/fechado/fechado/console"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/browsertest"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/recorder/recordertest"
)

// suit finds a card's face on a screen: its suit symbol.
var suit = regexp.MustCompile(`[♣♦♥♠]`)

// TestBrowserConsolePhoneOwnCards (serve --player-cards, issue 41), in Portuguese and Turkish: a
// br-online hand on the tablet (1024×768) from the console's machine shuffle with the cards
// hidden; the dealer shows Beto's code (seat 2), and Beto opens its link on his phone (390×844, a
// browser of its own with no login, its language the reader's): his five cards appear there, in
// his language, and are on no screen of the tablet; after his draw (two cards thrown by their
// places) his page shows the two cards he drew, by itself. Axe runs on the tablet with the code
// shown and on the phone's page, and the phone's page has no English word of the console's.
// Screenshots (artifacts), for L = pt-BR and tr: console-L-tablet-seat-code.png (the tablet with
// Beto's code shown), console-L-phone-own-cards.png (his cards after the deal),
// console-L-phone-own-draw.png (after his draw).
func TestBrowserConsolePhoneOwnCards(t *testing.T) {
	for _, code := range []string{"pt-BR", "tr"} {
		t.Run(code, func(t *testing.T) { phoneOwnCards(t, code) })
	}
}

func phoneOwnCards(t *testing.T, code string) {
	t.Parallel()
	e := newEnvWith(t, console.Options{Log: recordertest.OpenAuth(t, devices), Auth: devices, PlayerCards: true})
	l, _ := lang.Get(code)
	ctx := browsertest.Tab(t, 1024, 768, 3*time.Minute)
	p := &tapper{t: t, ctx: ctx, mouse: !testing.Short()}
	p.do("login",
		chromedp.Navigate(e.ts.URL+"/console/"),
		chromedp.WaitVisible(chromedp.CSS(`#login`)),
		chromedp.SendKeys(chromedp.CSS(`#login [name=user]`), "mesa1"),
		chromedp.SendKeys(chromedp.CSS(`#login [name=pass]`), "senha1"),
		chromedp.Click(chromedp.CSS(`[data-act=login]`)),
		chromedp.WaitVisible(chromedp.CSS(`#setup`)),
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => { const s = document.querySelector("#bar-lang"); s.value = %q; s.dispatchEvent(new Event("change")); })()`, code)),
		chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`html[lang=%q] #setup`, code))))
	dir := os.Getenv("FECHADO_ARTIFACTS")
	if dir == "" {
		dir = t.ArtifactDir()
	}
	shot := func(p *tapper, name string) {
		t.Helper()
		if !browsertest.ShotsKept() {
			return
		}
		buf, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), buf, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s", filepath.Join(dir, name))
	}
	// noFaces fails if the tablet shows a card's face anywhere.
	noFaces := func(when string) {
		t.Helper()
		if txt := p.text(`#main`); suit.MatchString(txt) {
			t.Errorf("%s the tablet shows a card's face: %q", when, txt)
		}
	}

	p.setup("br-online", 0, 10, 0, 1, []string{"Ana", "Beto", "Caio"}, []int{100, 100, 100})
	p.tap("machine-shuffle")
	p.tap("cut")
	p.tap("bet") // the blind round: Beto, the starter, bets the least
	p.tap("call")
	p.tap("call")
	p.click("hide the cards", `[data-act="hidden"]`)
	p.do("hidden", chromedp.WaitVisible(chromedp.CSS(`[data-act="deal-round"]`)))
	p.click("deal the round", `[data-act="deal-round"]`)
	p.stored(15)
	noFaces("after the deal")

	// Beto's code, shown on a tap, one seat at a time.
	p.click("Beto's code", `[data-act="seat-2"]`)
	p.do("the code", chromedp.WaitVisible(chromedp.CSS(`#seat-link[data-seat="2"]`)), chromedp.WaitVisible(chromedp.CSS(`#seat-qr`)))
	link := js[string](p, `document.querySelector("#seat-link").href`)
	if w := js[int](p, `document.querySelector("#seat-qr").naturalWidth`); w == 0 {
		t.Error("the QR code image does not load")
	}
	if n := js[int](p, `document.querySelectorAll("#seat-links img").length`); n != 1 {
		t.Errorf("%d codes on the tablet at once, want Beto's only", n)
	}
	noFaces("with Beto's code shown")
	p.axe("seat code")
	shot(p, "console-"+code+"-tablet-seat-code.png")
	p.click("hide the code", `[data-act="seat-hide"]`)
	p.do("the code hidden", chromedp.WaitVisible(chromedp.CSS(`[data-act="seat-1"]`)))

	id := handID(p)
	stored := func() []*events.Event {
		var st answer
		e.call("mesa1", "senha1", "GET", "/console/api/hands/"+id, nil, &st)
		return st.stored(t)
	}
	dealt := dealtTo(stored(), events.PhaseDeal)

	// Beto's phone: a browser of its own (no session, no storage), in the reader's language.
	phone := &tapper{t: t, ctx: browsertest.Tab(t, 390, 844, 2*time.Minute)}
	if _, err := chromedp.Call(phone.ctx, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{
		UserAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36", AcceptLanguage: code}); err != nil {
		t.Fatal(err)
	}
	phone.do("Beto's link on his phone",
		chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch),
		chromedp.Navigate(link),
		chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`html[lang=%q] #seat-dealt`, code))))
	shown := func(sel string) []string {
		return js[[]string](phone, fmt.Sprintf(`[...document.querySelectorAll(%q)].map((c) => c.dataset.card)`, sel))
	}
	if got := shown(`#seat-dealt .card`); !slices.Equal(got, dealt[2]) {
		t.Errorf("Beto's phone shows %v, want the five cards dealt to him %v", got, dealt[2])
	}
	for _, c := range shown(`[data-card]`) {
		if !slices.Contains(dealt[2], c) {
			t.Errorf("Beto's phone shows %s, a card not his", c)
		}
	}
	if got, want := phone.text(`h1`), l.T("console.seat.title", lang.Args{"player": "Beto", "seat": 2}); got != want {
		t.Errorf("the phone's heading reads %q, want %q", got, want)
	}
	phone.everyWordIn(l, "phone", englishOf(l))
	phone.axe("phone")
	shot(phone, "console-"+code+"-phone-own-cards.png")

	// The first round, then Beto throws his first two cards, chosen by their places.
	p.tap("bet")
	p.tap("call")
	p.tap("call")
	if s := p.step(); s != "discard" {
		t.Fatalf("after the first round the console offers %q, want Beto's discard", s)
	}
	for _, c := range dealt[2][:2] {
		p.click("choose "+c, fmt.Sprintf(`#step [data-card=%q]`, c))
		p.do("chosen "+c, chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`#step .sel[data-card=%q]`, c))))
	}
	p.tap("discard")
	for s := p.step(); s == "draw" || s == "burn"; s = p.step() {
		p.tap(map[string]string{"draw": "deal", "burn": "burn"}[s])
	}
	noFaces("after Beto's draw")
	drawn := dealtTo(stored(), events.PhaseDraw)[2]
	if len(drawn) != 2 {
		t.Fatalf("Beto drew %v, want two cards", drawn)
	}
	// His page follows the hand by itself.
	phone.do("his draw on his phone", chromedp.WaitVisible(chromedp.CSS(`#seat-drawn .card:nth-child(2)`)))
	if got := shown(`#seat-drawn .card`); !slices.Equal(got, drawn) {
		t.Errorf("Beto's phone shows the draw %v, want %v", got, drawn)
	}
	mine := append(append([]string{}, dealt[2]...), drawn...)
	for _, c := range shown(`[data-card]`) {
		if !slices.Contains(mine, c) {
			t.Errorf("after the draw Beto's phone shows %s, a card not his", c)
		}
	}
	shot(phone, "console-"+code+"-phone-own-draw.png")
}
