package console_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/browsertest"
)

// tapper drives the console page in chromium and counts the events the page has stored.
type tapper struct {
	t   *testing.T
	ctx context.Context
	n   int // events stored of the hand in progress
	// mouse makes the taps chromium's mouse clicks, as a finger's; otherwise the page's own
	// click() of each button does, which costs one round trip to chromium where a mouse click
	// costs several. Every test clicks with the mouse without -short, TestBrowserBrFechado always.
	mouse bool
}

// click clicks the elements sels select, in turn.
func (p *tapper) click(what string, sels ...string) {
	p.t.Helper()
	if !p.mouse {
		// The page's click() of each element shown and enabled, as far as the page has drawn
		// them: the mouse clicks the rest, waiting for them to be drawn.
		js, _ := json.Marshal(sels)
		n, err := chromedp.Run(p.ctx, chromedp.Evaluate[int](fmt.Sprintf(`((sels) => {
			for (let i = 0; i < sels.length; i++) {
				const el = document.querySelector(sels[i]);
				if (!el || el.disabled || !el.checkVisibility()) return i;
				el.click();
			}
			return sels.length;
		})(%s)`, js)))
		if err != nil {
			p.t.Fatalf("%s: %v", what, err)
		}
		sels = sels[n:]
	}
	var acts []chromedp.Action[chromedp.Void]
	for _, sel := range sels {
		acts = append(acts, chromedp.Click(chromedp.CSS(sel)))
	}
	p.do(what, acts...)
}

func (p *tapper) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.t.Fatalf("%s: %v", what, err)
	}
}

// tap taps the button of act in the step and waits until the server has stored one more event.
func (p *tapper) tap(act string) {
	p.t.Helper()
	p.click("tap "+act, fmt.Sprintf(`[data-act=%q]`, act))
	p.stored(1)
}

// confirmTap taps the button of an irreversible step twice, as the console asks: the first tap
// only arms it (it asks for a second, and nothing is sent), the second does it.
func (p *tapper) confirmTap(act string) {
	p.t.Helper()
	p.click("first tap "+act, fmt.Sprintf(`[data-act=%q]`, act))
	p.do("the button asks for a second tap", chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`[data-act=%q][data-armed="1"]`, act))),
		chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`#step[data-seq="%d"]`, p.n))))
	p.click("second tap "+act, fmt.Sprintf(`[data-act=%q]`, act))
	p.stored(1)
}

// stored waits until k more events of the hand are stored.
func (p *tapper) stored(k int) {
	p.t.Helper()
	p.n += k
	p.do(fmt.Sprintf("waiting for event %d", p.n), chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`#step[data-seq="%d"]`, p.n))))
}

// card picks a card with the picker (rank, then suit) after tapping act.
func (p *tapper) card(act, c string) {
	p.t.Helper()
	p.click("pick "+c,
		fmt.Sprintf(`#step [data-act=%q]`, act),
		fmt.Sprintf(`#picker [data-rank=%q]`, c[:1]),
		fmt.Sprintf(`#picker [data-suit=%q]`, c[1:]))
	p.stored(1)
}

func (p *tapper) step() string {
	r, err := chromedp.Run(p.ctx, chromedp.AttributeValue(chromedp.CSS(`#step`), "data-step"))
	if err != nil {
		p.t.Fatalf("the step: %v", err)
	}
	return r.Value
}

// shot takes a screenshot of the page at width × height into the test's artifacts, for a person to
// look at. Under -short only the first of the test binary is taken: the others repeat it.
func (p *tapper) shot(name string, width, height int64) {
	p.t.Helper()
	if testing.Short() && shotTaken.Swap(true) {
		return
	}
	p.do("viewport", chromedp.EmulateViewport(width, height))
	p.resized(width, height)
	if !browsertest.ShotsKept() {
		return // the page is left at that size all the same
	}
	buf, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	path := filepath.Join(p.t.ArtifactDir(), name)
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot: %s", path)
}

// resized waits until the page is laid out at the viewport of width × height it was just given:
// the condition is checked at each frame the page draws, so it holds once a frame has been drawn
// at that size, which a screenshot then shows.
func (p *tapper) resized(width, height int64) {
	p.t.Helper()
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[bool](fmt.Sprintf(`window.innerWidth === %d && window.innerHeight === %d`, width, height),
		chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		p.t.Fatalf("the page at %d × %d: %v", width, height, err)
	}
}

// want is an expected event: its type and data as JSON.
type want struct {
	typ  string
	data string
}

// shotTaken is set by the first screenshot of the test binary.
var shotTaken atomic.Bool

// TestMain stops the chromium that the browser tests share.
func TestMain(m *testing.M) {
	code := m.Run()
	browsertest.StopShared()
	os.Exit(code)
}

// newBrowser opens, in a tab of the shared chromium, the console of a fresh log, logged in as
// mesa1, at the setup form. The test runs in parallel with the other browser tests: each has its
// own log, server and browser context.
func newBrowser(t *testing.T) (*env, *tapper) {
	t.Parallel()
	e := newEnv(t)
	ctx := browsertest.Tab(t, 1024, 900, 120*time.Second)
	p := &tapper{t: t, ctx: ctx, mouse: !testing.Short()}
	p.do("login",
		chromedp.Navigate(e.ts.URL+"/console/"),
		chromedp.WaitVisible(chromedp.CSS(`#login`)),
		chromedp.SendKeys(chromedp.CSS(`#login [name=user]`), "mesa1"),
		chromedp.SendKeys(chromedp.CSS(`#login [name=pass]`), "senha1"),
		chromedp.Click(chromedp.CSS(`[data-act=login]`)),
		chromedp.WaitVisible(chromedp.CSS(`#setup`)))
	return e, p
}

// setup fills the form: the preset, ante, smallest and largest bet, dealer, and the three
// players' names and stacks, then starts the hand.
func (p *tapper) setup(preset string, ante, minBet, maxBet, dealer int, names []string, stacks []int) {
	p.t.Helper()
	acts := []chromedp.Action[chromedp.Void]{
		chromedp.SetValue(chromedp.CSS(`#setup [name=preset]`), preset),
		chromedp.SetValue(chromedp.CSS(`#setup [name=ante]`), fmt.Sprint(ante)),
		chromedp.SetValue(chromedp.CSS(`#setup [name=min_bet]`), fmt.Sprint(minBet)),
		chromedp.SetValue(chromedp.CSS(`#setup [name=max_bet]`), fmt.Sprint(maxBet)),
		chromedp.SetValue(chromedp.CSS(`#setup [name=dealer]`), fmt.Sprint(dealer)),
	}
	for i, n := range names {
		acts = append(acts,
			chromedp.SetValue(chromedp.CSS(fmt.Sprintf(`#setup tbody tr:nth-child(%d) [name=player]`, i+1)), n),
			chromedp.SetValue(chromedp.CSS(fmt.Sprintf(`#setup tbody tr:nth-child(%d) [name=stack]`, i+1)), fmt.Sprint(stacks[i])))
	}
	p.do("setup", acts...)
	p.tap("start")
}

// deal picks the cards of the deal in the picker, one round at a time in order (the seats from
// the dealer's left), and returns the expected card.dealt events.
func (p *tapper) deal(order []int, hands map[int][]string) []want {
	p.t.Helper()
	var out []want
	for i := range 5 * len(order) {
		s := order[i%len(order)]
		c := hands[s][i/len(order)]
		p.card("pick", c)
		out = append(out, want{"card.dealt", fmt.Sprintf(`{"seat":%d,"card":%q,"phase":"deal"}`, s, c)})
	}
	return out
}

// draw chooses the discards of seat on the cards shown, then picks the replacements; burnAt is
// the replacement (from 0) a burned card comes before, or -1.
func (p *tapper) draw(seat int, throw, get []string, burnAt int, burn string) []want {
	p.t.Helper()
	var out []want
	for _, c := range throw {
		p.click("choose "+c, fmt.Sprintf(`#step [data-card=%q]`, c))
		p.do("chosen "+c, chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`#step .sel[data-card=%q]`, c))))
	}
	if len(throw) == 0 {
		p.tap("pat")
	} else {
		p.tap("discard")
	}
	tj, _ := json.Marshal(append([]string{}, throw...))
	out = append(out, want{"cards.discarded", fmt.Sprintf(`{"seat":%d,"cards":%s}`, seat, tj)})
	for i, c := range get {
		if i == burnAt {
			if s := p.step(); s != "burn" {
				p.t.Fatalf("before replacement %d of seat %d the console offers %q, want the burn", i+1, seat, s)
			}
			p.card("pick", burn)
			out = append(out, want{"card.burned", fmt.Sprintf(`{"card":%q}`, burn)})
		}
		p.card("pick", c)
		out = append(out, want{"card.dealt", fmt.Sprintf(`{"seat":%d,"card":%q,"phase":"draw"}`, seat, c)})
	}
	return out
}

// check compares the stored hands with the expected events and audits them together.
func (e *env) check(t *testing.T, hands map[string][]want, order []string) {
	t.Helper()
	a := audit.New(func(f finding.Finding) { t.Errorf("the audit finds %s", f.JSON()) })
	for _, ev := range e.compare(t, hands, order) {
		a.Add(ev)
	}
	a.Close()
}

// compare compares the stored hands with the expected events, event for event, and returns the
// stored events.
func (e *env) compare(t *testing.T, hands map[string][]want, order []string) []*events.Event {
	t.Helper()
	var all []*events.Event
	for _, id := range order {
		want := hands[id]
		var st answer
		e.call("mesa1", "senha1", "GET", "/console/api/hands/"+id, nil, &st)
		if len(st.Events) != len(want) {
			t.Errorf("hand %s: %d events stored, want %d", id, len(st.Events), len(want))
		}
		for i, raw := range st.Events {
			ev, err := events.Parse(raw)
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, ev)
			if i >= len(want) {
				continue
			}
			var got struct {
				Seq  int             `json:"seq"`
				Type string          `json:"type"`
				Data json.RawMessage `json:"data"`
			}
			_ = json.Unmarshal(raw, &got)
			var g, w any
			_ = json.Unmarshal(got.Data, &g)
			if err := json.Unmarshal([]byte(want[i].data), &w); err != nil {
				t.Fatalf("the test's event %d: %v", i+1, err)
			}
			if got.Seq != i+1 || got.Type != want[i].typ || !reflect.DeepEqual(g, w) {
				t.Errorf("hand %s event %d: stored seq %d %s %s, want %s %s", id, i+1, got.Seq, got.Type, got.Data, want[i].typ, want[i].data)
			}
		}
	}
	return all
}

// TestBrowserBrFechado taps through the console in chromium: it opens table mesa-1 for
// br-fechado, records a deal nobody opens with cards not recorded (a physical deck), then the next
// hand, filled from the first (dealer passed left, one passed-out deal, the carry), with cards
// entered in the card picker: seat 3 opens with kings (queens or better after one passed deal),
// seat 2 folds, the stub and the folded hand are reshuffled, both draw three, check, show, and the
// engine's award goes to seat 1's aces. The stored logs audit clean and equal, event for event,
// the logs the test expects.
func TestBrowserBrFechado(t *testing.T) {
	e, p := newBrowser(t)
	p.mouse = true // the one test of the taps as a finger's even under -short
	p.shot("setup-390.png", 390, 844)
	p.do("players",
		chromedp.EmulateViewport(1024, 900),
		chromedp.SendKeys(chromedp.CSS(`#setup tbody tr:nth-child(1) [name=player]`), "Ana"),
		chromedp.SendKeys(chromedp.CSS(`#setup tbody tr:nth-child(2) [name=player]`), "Beto"),
		chromedp.SendKeys(chromedp.CSS(`#setup tbody tr:nth-child(3) [name=player]`), "Caio"))
	p.tap("start")

	// Hand 1: dealer seat 1, the deal from seat 2; nobody opens.
	first := []want{{"hand.started", `{"rules":{"name":"br-fechado"},"number":1,"dealer":1,"seats":[{"seat":1,"player":"Ana","stack":100},{"seat":2,"player":"Beto","stack":100},{"seat":3,"player":"Caio","stack":100}],"stakes":{"ante":1,"min_bet":2,"max_bet":10},"carry":0,"passed_out":0}`},
		{"deck.shuffled", `{"method":"physical","count":3}`}, {"deck.cut", `{"at":0}`},
		{"ante.posted", `{"seat":2,"amount":1}`}, {"ante.posted", `{"seat":3,"amount":1}`}, {"ante.posted", `{"seat":1,"amount":1}`}}
	p.tap("physical-shuffle")
	p.tap("no-cut")
	for range 3 {
		p.tap("ante")
	}
	for i := range 15 {
		p.tap("unknown")
		first = append(first, want{"card.dealt", fmt.Sprintf(`{"seat":%d,"phase":"deal"}`, []int{2, 3, 1}[i%3])})
	}
	for _, s := range []int{2, 3, 1} {
		p.tap("check")
		first = append(first, want{"player.acted", fmt.Sprintf(`{"seat":%d,"round":"first","action":"check","amount":0}`, s)})
	}
	p.tap("pass")
	p.tap("end")
	first = append(first, want{"hand.passed", `{}`},
		want{"hand.ended", `{"stacks":[{"seat":1,"stack":99},{"seat":2,"stack":99},{"seat":3,"stack":99}],"carry":3}`})
	firstID := handID(p)

	// Hand 2, from the form the console fills after hand 1.
	p.do("next hand", chromedp.Click(chromedp.CSS(`[data-act=next-hand]`)), chromedp.WaitVisible(chromedp.CSS(`#setup`)))
	p.n = 0
	p.tap("start")
	second := []want{{"hand.started", `{"rules":{"name":"br-fechado"},"number":2,"dealer":2,"seats":[{"seat":1,"player":"Ana","stack":99},{"seat":2,"player":"Beto","stack":99},{"seat":3,"player":"Caio","stack":99}],"stakes":{"ante":1,"min_bet":2,"max_bet":10},"carry":3,"passed_out":1,"previous":"` + firstID + `"}`},
		{"deck.shuffled", `{"method":"physical","count":3}`}, {"deck.cut", `{"at":0}`},
		{"ante.posted", `{"seat":3,"amount":1}`}, {"ante.posted", `{"seat":1,"amount":1}`}, {"ante.posted", `{"seat":2,"amount":1}`}}
	p.tap("physical-shuffle")
	p.tap("no-cut")
	for range 3 {
		p.tap("ante")
	}
	hands := map[int][]string{3: {"Ks", "Kh", "9c", "8d", "7s"}, 1: {"Ah", "Ad", "Qc", "Jd", "Ts"}, 2: {"7h", "8h", "9h", "Jh", "7c"}}
	p.do("the picker", chromedp.Click(chromedp.CSS(`#step [data-act="pick"]`)), chromedp.Click(chromedp.CSS(`#picker [data-rank="K"]`)))
	p.shot("picker-390.png", 390, 844)
	p.do("close the picker", chromedp.Click(chromedp.CSS(`#picker [data-act="pick-cancel"]`)), chromedp.EmulateViewport(1024, 900))
	second = append(second, p.deal([]int{3, 1, 2}, hands)...)
	p.shot("action-390.png", 390, 844)
	p.shot("action-1024.png", 1024, 768)
	p.do("viewport", chromedp.EmulateViewport(1024, 900))
	p.tap("bet") // seat 3 opens with kings for the least, 2
	p.tap("call")
	p.confirmTap("fold")
	second = append(second,
		want{"player.acted", `{"seat":3,"round":"first","action":"bet","amount":2}`},
		want{"player.acted", `{"seat":1,"round":"first","action":"call","amount":2}`},
		want{"player.acted", `{"seat":2,"round":"first","action":"fold","amount":0}`})
	// The reshuffle gathers the stub and Beto's folded cards: the deck but the live hands.
	live := cards.SetOf(parse(t, hands[3])...) | cards.SetOf(parse(t, hands[1])...)
	gathered := cards.DeckSet(cards.Seven) &^ live
	gj, _ := json.Marshal(gathered.Cards())
	if s := p.step(); s != "reshuffle" {
		t.Fatalf("after the first round the console offers %q, want the reshuffle", s)
	}
	p.tap("physical-shuffle")
	p.tap("no-cut")
	second = append(second, want{"deck.shuffled", `{"method":"physical","cards":` + string(gj) + `}`}, want{"deck.cut", `{"at":0}`})
	p.shot("discard-390.png", 390, 844)
	p.do("viewport", chromedp.EmulateViewport(1024, 900))
	second = append(second, p.draw(3, []string{"9c", "8d", "7s"}, []string{"Kd", "9s", "8s"}, -1, "")...)
	second = append(second, p.draw(1, []string{"Qc", "Jd", "Ts"}, []string{"As", "Qh", "Jc"}, -1, "")...)
	// br-fechado: the last raiser of the first round, else the opener, speaks first after the draw.
	p.tap("check")
	p.tap("check")
	p.tap("show")
	p.tap("show")
	p.shot("award-390.png", 390, 844)
	p.do("viewport", chromedp.EmulateViewport(1024, 900))
	p.tap("award")
	p.tap("end")
	second = append(second,
		want{"player.acted", `{"seat":3,"round":"second","action":"check","amount":0}`},
		want{"player.acted", `{"seat":1,"round":"second","action":"check","amount":0}`},
		want{"hand.shown", `{"seat":3,"cards":["Ks","Kh","Kd","9s","8s"]}`},
		want{"hand.shown", `{"seat":1,"cards":["Ah","Ad","As","Qh","Jc"]}`},
		want{"pot.awarded", `{"seat":1,"amount":10,"pot":0}`},
		want{"hand.ended", `{"stacks":[{"seat":1,"stack":106},{"seat":2,"stack":98},{"seat":3,"stack":96}],"carry":0}`})
	secondID := handID(p)
	if s := p.step(); s != "done" {
		t.Fatalf("after hand.ended the console shows %q", s)
	}

	// The stored logs: equal to the expected ones event for event, and clean to the auditor.
	e.check(t, map[string][]want{firstID: first, secondID: second}, []string{firstID, secondID})
}

func handID(p *tapper) string {
	id, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`S.hand.id`))
	if err != nil {
		p.t.Fatalf("hand id: %v", err)
	}
	return id
}

func parse(t *testing.T, cs []string) []cards.Card {
	var out []cards.Card
	for _, s := range cs {
		c, err := cards.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

// TestBrowserTrKapali records a tr-kapali hand with a tapi player (Ali, dealt in with no chips:
// no ante, cannot open, plays for the antes' pot) and a burn before a fourth drawn card
// (presets.md tr-kapali "most cards drawn"). Banu opens with kings for the pot, Cem calls; Cem
// draws four and wins both pots with two pair.
func TestBrowserTrKapali(t *testing.T) {
	e, p := newBrowser(t)
	p.setup("tr-kapali", 5, 10, 0, 1, []string{"Ali", "Banu", "Cem"}, []int{0, 100, 100})
	hand := []want{{"hand.started", `{"rules":{"name":"tr-kapali"},"number":1,"dealer":1,"seats":[{"seat":1,"player":"Ali","stack":0},{"seat":2,"player":"Banu","stack":100},{"seat":3,"player":"Cem","stack":100}],"stakes":{"ante":5,"min_bet":10,"max_bet":0},"carry":0,"passed_out":0}`},
		{"deck.shuffled", `{"method":"physical","count":3}`}, {"deck.cut", `{"at":0}`},
		{"ante.posted", `{"seat":2,"amount":5}`}, {"ante.posted", `{"seat":3,"amount":5}`}}
	p.tap("physical-shuffle")
	p.tap("no-cut")
	p.tap("ante")
	p.tap("ante")
	if s := p.step(); s != "deal" {
		t.Fatalf("after two antes the console offers %q: the tapi player posts none", s)
	}
	hand = append(hand, p.deal([]int{2, 3, 1}, map[int][]string{
		2: {"Ks", "Kh", "Qd", "9c", "8s"}, 3: {"Qs", "Qh", "Td", "9d", "8h"}, 1: {"Ac", "Ad", "Jh", "Th", "7c"}})...)
	p.tap("bet") // at least the pot: 10
	p.tap("call")
	hand = append(hand,
		want{"player.acted", `{"seat":2,"round":"first","action":"bet","amount":10}`},
		want{"player.acted", `{"seat":3,"round":"first","action":"call","amount":10}`})
	hand = append(hand, p.draw(2, []string{"Qd", "9c", "8s"}, []string{"Jc", "Ts", "9h"}, -1, "")...)
	// Cem announces four cards (tr-kapali: he may raise the number, never lower it): the console
	// records the number with the discard and offers no discard of fewer.
	p.do("declare four", chromedp.Click(chromedp.CSS(`[data-act="declare-4"]`)), chromedp.WaitVisible(chromedp.CSS(`#declared-lower`)))
	if ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`document.querySelector('[data-act="pat"]').disabled`)); err != nil || !ok {
		t.Errorf("after four cards announced, standing pat is still offered (%v)", err)
	}
	drawn := p.draw(3, []string{"Qh", "Td", "9d", "8h"}, []string{"8c", "8d", "7h", "7d"}, 3, "9s")
	drawn[0].data = strings.Replace(drawn[0].data, `}`, `,"declared":4}`, 1)
	hand = append(hand, drawn...)
	hand = append(hand, p.draw(1, nil, nil, -1, "")...)
	p.tap("check")
	p.tap("check")
	p.tap("show")
	p.tap("show")
	p.tap("show")
	p.tap("award")
	p.tap("award")
	p.tap("end")
	hand = append(hand,
		want{"player.acted", `{"seat":2,"round":"second","action":"check","amount":0}`},
		want{"player.acted", `{"seat":3,"round":"second","action":"check","amount":0}`},
		want{"hand.shown", `{"seat":2,"cards":["Ks","Kh","Jc","Ts","9h"]}`},
		want{"hand.shown", `{"seat":3,"cards":["Qs","8c","8d","7h","7d"]}`},
		want{"hand.shown", `{"seat":1,"cards":["Ac","Ad","Jh","Th","7c"]}`},
		want{"pot.awarded", `{"seat":3,"amount":10,"pot":0}`},
		want{"pot.awarded", `{"seat":3,"amount":20,"pot":1}`},
		want{"hand.ended", `{"stacks":[{"seat":1,"stack":0},{"seat":2,"stack":85},{"seat":3,"stack":115}],"carry":0}`})
	id := handID(p)
	e.check(t, map[string][]want{id: hand}, []string{id})
}

// TestBrowserStdDraw records a std-draw hand with a side pot: Fay, short-stacked, calls all-in
// for less than the raise; the engine gives her the main pot and Dana the side pot.
func TestBrowserStdDraw(t *testing.T) {
	e, p := newBrowser(t)
	p.setup("std-draw", 1, 10, 20, 3, []string{"Dana", "Eli", "Fay"}, []int{100, 100, 12})
	hand := []want{{"hand.started", `{"rules":{"name":"std-draw"},"number":1,"dealer":3,"seats":[{"seat":1,"player":"Dana","stack":100},{"seat":2,"player":"Eli","stack":100},{"seat":3,"player":"Fay","stack":12}],"stakes":{"ante":1,"min_bet":10,"max_bet":20},"carry":0,"passed_out":0}`},
		{"deck.shuffled", `{"method":"physical","count":3}`}, {"deck.cut", `{"at":0}`},
		{"ante.posted", `{"seat":1,"amount":1}`}, {"ante.posted", `{"seat":2,"amount":1}`}, {"ante.posted", `{"seat":3,"amount":1}`}}
	p.tap("physical-shuffle")
	p.tap("no-cut")
	for range 3 {
		p.tap("ante")
	}
	hand = append(hand, p.deal([]int{1, 2, 3}, map[int][]string{
		1: {"Js", "Jh", "4c", "5d", "9s"}, 2: {"Qs", "Qh", "3c", "6d", "8s"}, 3: {"As", "Ad", "2c", "7d", "Ts"}})...)
	p.tap("bet")   // Dana opens with jacks: 10, fixed limit
	p.tap("raise") // Eli puts in 20
	p.tap("call")  // Fay: all-in for her 11
	p.tap("call")  // Dana: 10 more
	hand = append(hand,
		want{"player.acted", `{"seat":1,"round":"first","action":"bet","amount":10}`},
		want{"player.acted", `{"seat":2,"round":"first","action":"raise","amount":20}`},
		want{"player.acted", `{"seat":3,"round":"first","action":"call","amount":11}`},
		want{"player.acted", `{"seat":1,"round":"first","action":"call","amount":10}`})
	hand = append(hand, p.draw(1, []string{"4c", "5d", "9s"}, []string{"Jd", "2h", "3h"}, -1, "")...)
	hand = append(hand, p.draw(2, []string{"3c", "6d", "8s"}, []string{"Kc", "4h", "5h"}, -1, "")...)
	hand = append(hand, p.draw(3, []string{"2c", "7d", "Ts"}, []string{"Ac", "Kd", "Qd"}, -1, "")...)
	p.tap("check")
	p.tap("check")
	for range 3 {
		p.tap("show")
	}
	p.shot("side-pot-390.png", 390, 844)
	p.shot("side-pot-1024.png", 1024, 768)
	p.tap("award")
	p.tap("award")
	p.tap("end")
	hand = append(hand,
		want{"player.acted", `{"seat":1,"round":"second","action":"check","amount":0}`},
		want{"player.acted", `{"seat":2,"round":"second","action":"check","amount":0}`},
		want{"hand.shown", `{"seat":2,"cards":["Qs","Qh","Kc","4h","5h"]}`},
		want{"hand.shown", `{"seat":3,"cards":["As","Ad","Ac","Kd","Qd"]}`},
		want{"hand.shown", `{"seat":1,"cards":["Js","Jh","Jd","2h","3h"]}`},
		want{"pot.awarded", `{"seat":3,"amount":36,"pot":0}`},
		want{"pot.awarded", `{"seat":1,"amount":18,"pot":1}`},
		want{"hand.ended", `{"stacks":[{"seat":1,"stack":97},{"seat":2,"stack":79},{"seat":3,"stack":36}],"carry":0}`})
	id := handID(p)
	e.check(t, map[string][]want{id: hand}, []string{id})
}

// TestBrowserLostConnection: the answer to a stored event is lost, so the page sends the event
// again with the same id: the recorder skips it and nothing is doubled. Then the connection is
// down: the page keeps the event in its queue, says so, and undoes it on a tap before it is ever
// stored; back online, the next tap is stored once.
func TestBrowserLostConnection(t *testing.T) {
	e, p := newBrowser(t)
	p.setup("br-fechado", 1, 2, 10, 1, []string{"Ana", "Beto", "Caio"}, []int{100, 100, 100})
	p.tap("physical-shuffle")
	e.lose.Store(loseAnswer)
	p.tap("no-cut") // stored, its answer lost, sent again, skipped
	if s := p.step(); s != "ante" {
		t.Fatalf("after the resent cut the console offers %q, want the first ante", s)
	}
	e.lose.Store(loseAll)
	p.do("ante while offline", chromedp.Click(chromedp.CSS(`[data-act="ante"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-act="undo"]`)), chromedp.WaitVisible(chromedp.CSS(`#bar-net`)))
	net, err := chromedp.Run(p.ctx, chromedp.Text(chromedp.CSS(`#bar-net`)))
	if err != nil || !strings.Contains(net, "1 event is waiting") {
		t.Errorf("offline, the bar says %q (%v), want the one event waiting", net, err)
	}
	p.shot("offline-390.png", 390, 844)
	p.do("undo", chromedp.EmulateViewport(1024, 900), chromedp.Click(chromedp.CSS(`[data-act="undo"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#step[data-step="ante"]`)))
	e.lose.Store(loseNothing)
	p.tap("ante")
	id := handID(p)
	e.compare(t, map[string][]want{id: {
		{"hand.started", `{"rules":{"name":"br-fechado"},"number":1,"dealer":1,"seats":[{"seat":1,"player":"Ana","stack":100},{"seat":2,"player":"Beto","stack":100},{"seat":3,"player":"Caio","stack":100}],"stakes":{"ante":1,"min_bet":2,"max_bet":10},"carry":0,"passed_out":0}`},
		{"deck.shuffled", `{"method":"physical","count":3}`}, {"deck.cut", `{"at":0}`}, {"ante.posted", `{"seat":2,"amount":1}`},
	}}, []string{id})
}

// TestBrowserMachineShuffle: the console shuffles with hmac-sha256-fy-v1 itself. The page shows
// the commitment before the deal, deals the cards the shuffle and the cut give, and reveals the
// seed after the hand; the seed opens the commitment shown and gives every card dealt.
func TestBrowserMachineShuffle(t *testing.T) {
	e, p := newBrowser(t)
	p.setup("br-fechado", 1, 2, 10, 1, []string{"Ana", "Beto", "Caio"}, []int{100, 100, 100})
	p.tap("machine-shuffle")
	shown, err := chromedp.Run(p.ctx, chromedp.Text(chromedp.CSS(`#commitment`)))
	if err != nil {
		t.Fatalf("no commitment on screen before the deal: %v", err)
	}
	p.tap("cut") // the amount the page proposes: half the deck, 16
	for range 3 {
		p.tap("ante")
	}
	for range 15 {
		p.tap("deal")
	}
	for range 3 {
		p.tap("check")
	}
	p.tap("pass")
	if s := p.step(); s != "reveal" {
		t.Fatalf("after the passed deal the console offers %q, want the seed's reveal", s)
	}
	p.tap("reveal")
	p.tap("end")
	id := handID(p)

	var st answer
	e.call("mesa1", "senha1", "GET", "/console/api/hands/"+id, nil, &st)
	var commitment string
	var seed cards.Seed
	for _, raw := range st.Events {
		ev, err := events.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		switch d := ev.Data.(type) {
		case *events.DeckShuffled:
			commitment = d.Commitment
		case *events.DeckRevealed:
			seed = d.Seed
		}
	}
	if !strings.Contains(shown, commitment) || !seed.Opens(commitment) {
		t.Fatalf("the page showed %q; stored commitment %s, revealed seed %s", shown, commitment, seed)
	}
	stub, err := cards.Cut(cards.Shuffle(seed, cards.Deck(cards.Seven)), 16)
	if err != nil {
		t.Fatal(err)
	}
	hand := []want{{"hand.started", `{"rules":{"name":"br-fechado"},"number":1,"dealer":1,"seats":[{"seat":1,"player":"Ana","stack":100},{"seat":2,"player":"Beto","stack":100},{"seat":3,"player":"Caio","stack":100}],"stakes":{"ante":1,"min_bet":2,"max_bet":10},"carry":0,"passed_out":0}`},
		{"deck.shuffled", fmt.Sprintf(`{"method":"hmac-sha256-fy-v1","commitment":%q}`, commitment)}, {"deck.cut", `{"at":16}`},
		{"ante.posted", `{"seat":2,"amount":1}`}, {"ante.posted", `{"seat":3,"amount":1}`}, {"ante.posted", `{"seat":1,"amount":1}`}}
	for i := range 15 {
		hand = append(hand, want{"card.dealt", fmt.Sprintf(`{"seat":%d,"card":%q,"phase":"deal"}`, []int{2, 3, 1}[i%3], stub[i])})
	}
	for _, s := range []int{2, 3, 1} {
		hand = append(hand, want{"player.acted", fmt.Sprintf(`{"seat":%d,"round":"first","action":"check","amount":0}`, s)})
	}
	hand = append(hand, want{"hand.passed", `{}`}, want{"deck.revealed", fmt.Sprintf(`{"shuffle":2,"seed":%q}`, seed)},
		want{"hand.ended", `{"stacks":[{"seat":1,"stack":99},{"seat":2,"stack":99},{"seat":3,"stack":99}],"carry":3}`})
	e.check(t, map[string][]want{id: hand}, []string{id})
}

// TestBrowserExposedMisdeal: the first card of the deal is exposed; br-fechado keeps an exposed
// card except among the first two of the deal (presets.md, exposed cards), so the console asks
// for the misdeal, then returns every ante and ends the hand with nothing carried. The auditor
// finds only the exposure itself.
func TestBrowserExposedMisdeal(t *testing.T) {
	e, p := newBrowser(t)
	p.setup("br-fechado", 1, 2, 10, 1, []string{"Ana", "Beto", "Caio"}, []int{100, 100, 100})
	p.tap("physical-shuffle")
	p.tap("no-cut")
	for range 3 {
		p.tap("ante")
	}
	p.card("pick", "Ah")
	p.do("expose", chromedp.Click(chromedp.CSS(`[data-act="exposed"]`)),
		chromedp.Click(chromedp.CSS(`#picker [data-rank="A"]`)), chromedp.Click(chromedp.CSS(`#picker [data-suit="h"]`)))
	p.stored(1)
	if s := p.step(); s != "misdeal" {
		t.Fatalf("after the first card was exposed the console offers %q, want the misdeal", s)
	}
	p.shot("misdeal-390.png", 390, 844)
	p.do("viewport", chromedp.EmulateViewport(1024, 900))
	p.confirmTap("misdeal-now")
	for range 3 {
		p.tap("return")
	}
	p.tap("end")
	id := handID(p)
	evs := e.compare(t, map[string][]want{id: {
		{"hand.started", `{"rules":{"name":"br-fechado"},"number":1,"dealer":1,"seats":[{"seat":1,"player":"Ana","stack":100},{"seat":2,"player":"Beto","stack":100},{"seat":3,"player":"Caio","stack":100}],"stakes":{"ante":1,"min_bet":2,"max_bet":10},"carry":0,"passed_out":0}`},
		{"deck.shuffled", `{"method":"physical","count":3}`}, {"deck.cut", `{"at":0}`},
		{"ante.posted", `{"seat":2,"amount":1}`}, {"ante.posted", `{"seat":3,"amount":1}`}, {"ante.posted", `{"seat":1,"amount":1}`},
		{"card.dealt", `{"seat":2,"card":"Ah","phase":"deal"}`},
		{"card.exposed", `{"card":"Ah","phase":"deal","seat":2,"cause":"dealer"}`},
		{"misdeal.declared", `{"reason":"The dealer declared a misdeal."}`},
		{"bet.returned", `{"seat":1,"amount":1}`}, {"bet.returned", `{"seat":2,"amount":1}`}, {"bet.returned", `{"seat":3,"amount":1}`},
		{"hand.ended", `{"stacks":[{"seat":1,"stack":100},{"seat":2,"stack":100},{"seat":3,"stack":100}],"carry":0}`},
	}}, []string{id})
	for _, f := range audit.Hand(evs) {
		if f.Code != finding.CardExposed {
			t.Errorf("the audit finds %s", f.JSON())
		}
	}
}

// TestBrowserLanguages: the switcher turns the console into Portuguese and Turkish with the
// tables' own words (mesa, pingo; pas, yer), numbers in the locale's digits, and the choice
// outlives a reload.
func TestBrowserLanguages(t *testing.T) {
	_, p := newBrowser(t)
	// text reads the element's text in one evaluation: the page re-renders after each answer of
	// the server, and a node found first and read after (chromedp.Text) may be gone by then.
	text := func(sel string) string {
		s, err := chromedp.Run(p.ctx, chromedp.Poll[[]string](fmt.Sprintf(
			`(() => { const e = document.querySelector(%q); return e ? [e.innerText] : null; })()`, sel),
			chromedp.WithPollingTimeout(10*time.Second)))
		if err != nil || len(s) != 1 {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return s[0]
	}
	// settled reads the element's text until ok holds or 10 seconds pass, and returns the last
	// text read: a language change re-renders the page after html[lang] changes, so one read
	// right after it may still see the previous language's figures.
	settled := func(sel string, ok func(string) bool) string {
		deadline := time.Now().Add(10 * time.Second)
		for {
			got := text(sel)
			if ok(got) || time.Now().After(deadline) {
				return got
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	is := func(want string) func(string) bool { return func(s string) bool { return s == want } }
	choose := func(code string) {
		p.do("language "+code, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(
			`(() => { const s = document.querySelector("#bar-lang"); s.value = %q; s.dispatchEvent(new Event("change")); })()`, code)),
			chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`html[lang=%q]`, code))))
	}
	choose("pt-BR")
	if got := settled(`#setup h1`, is("Abrir a mesa mesa-1")); got != "Abrir a mesa mesa-1" {
		t.Errorf("pt-BR setup title %q", got)
	}
	p.setup("br-fechado", 500, 1000, 5000, 1, []string{"Ana", "Beto", "Caio"}, []int{12500, 12500, 12500})
	p.tap("physical-shuffle")
	p.tap("no-cut")
	if got := settled(`#step .prompt`, is("Beto (lugar 2) põe o pingo de 500.")); got != "Beto (lugar 2) põe o pingo de 500." {
		t.Errorf("pt-BR ante prompt %q", got)
	}
	if got := settled(`.players .player:nth-child(1)`, func(s string) bool { return strings.Contains(s, "12.500") }); !strings.Contains(got, "12.500") {
		t.Errorf("pt-BR stack %q, want 12.500", got)
	}
	for range 3 {
		p.tap("ante")
	}
	for range 15 {
		p.tap("unknown")
	}
	if got := settled(`[data-act=check]`, is("Mesa")); got != "Mesa" {
		t.Errorf("pt-BR check button %q, want Mesa", got)
	}
	choose("tr")
	if got := settled(`[data-act=check]`, is("Pas")); got != "Pas" {
		t.Errorf("tr check button %q, want Pas", got)
	}
	if got := settled(`#bar-pot`, is("Pot: 1.500")); got != "Pot: 1.500" {
		t.Errorf("tr pot %q, want Pot: 1.500", got)
	}
	p.do("reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`#step`)))
	if got := settled(`[data-act=check]`, is("Pas")); got != "Pas" {
		t.Errorf("after a reload the check button is %q, want Pas", got)
	}
	choose("en")
	if got := settled(`#bar-pot`, is("Pot: 1,500")); got != "Pot: 1,500" {
		t.Errorf("en pot %q, want Pot: 1,500", got)
	}
}

// TestBrowserTournament: the setup form's tournament section. The first hand carries the
// tournament, its level, entries and starting chips, every player joining; after it the console
// keeps the tournament, "next level" puts level 2's stakes of the schedule in the form, and a
// player moved to another table leaves with his chips (left with to).
func TestBrowserTournament(t *testing.T) {
	e, p := newBrowser(t)
	p.do("tournament",
		chromedp.Click(chromedp.CSS(`#tournament summary`)),
		chromedp.SendKeys(chromedp.CSS(`#tournament [name=t_id]`), "copa"),
		chromedp.SendKeys(chromedp.CSS(`#tournament [name=t_entries]`), "9"),
		chromedp.SendKeys(chromedp.CSS(`#tournament [name=t_stack]`), "100"),
		chromedp.SetValue(chromedp.CSS(`#tournament [name=t_schedule]`), "1, 2, 10\n2, 4, 20"))
	p.setup("br-fechado", 1, 2, 10, 1, []string{"Ana", "Beto", "Caio"}, []int{100, 100, 100})
	first := handID(p)
	p.tap("physical-shuffle")
	p.tap("no-cut")
	for range 3 {
		p.tap("ante")
	}
	for range 15 {
		p.tap("unknown")
	}
	for range 3 {
		p.tap("check")
	}
	p.tap("pass")
	p.tap("end")
	p.do("next hand", chromedp.Click(chromedp.CSS(`[data-act=next-hand]`)), chromedp.WaitVisible(chromedp.CSS(`#setup`)))
	p.n = 0
	p.do("level 2 and a move",
		chromedp.Click(chromedp.CSS(`[data-act=next-level]`)),
		chromedp.Click(chromedp.CSS(`[data-act=add-move]`)),
		chromedp.SendKeys(chromedp.CSS(`#t-moves [name=m_player]`), "Caio"),
		chromedp.SendKeys(chromedp.CSS(`#t-moves [name=m_to]`), "mesa-2"))
	p.tap("start")
	second := handID(p)

	started := func(hand string) map[string]any {
		var st answer
		if code := e.call("mesa1", "senha1", "GET", "/console/api/hands/"+hand, nil, &st); code != http.StatusOK || len(st.Events) == 0 {
			t.Fatalf("hand %s: %d", hand, code)
		}
		var ev struct{ Data map[string]any }
		if err := json.Unmarshal(st.Events[0], &ev); err != nil {
			t.Fatal(err)
		}
		return ev.Data
	}
	js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	h1, h2 := started(first), started(second)
	if got, want := js(h1["tournament"]), `{"entries":9,"id":"copa","level":1,"stack":100}`; got != want {
		t.Errorf("the first hand's tournament %s, want %s", got, want)
	}
	if got, want := js(h1["seats"]), `[{"joined":true,"player":"Ana","seat":1,"stack":100},{"joined":true,"player":"Beto","seat":2,"stack":100},{"joined":true,"player":"Caio","seat":3,"stack":100}]`; got != want {
		t.Errorf("the first hand's seats %s, want %s", got, want)
	}
	for k, want := range map[string]string{
		"tournament": `{"id":"copa","level":2}`,
		"stakes":     `{"ante":2,"max_bet":20,"min_bet":4}`,
		"seats":      `[{"player":"Ana","seat":1,"stack":99},{"player":"Beto","seat":2,"stack":99}]`,
		"left":       `[{"player":"Caio","stack":99,"to":"mesa-2"}]`,
	} {
		if got := js(h2[k]); got != want {
			t.Errorf("the second hand's %s: %s, want %s", k, got, want)
		}
	}
}

// TestBrowserBlindGames records, at one table, a br-online hand (presets.md br-online: a blind
// betting round before the deal, no check, no ante) and then, filled from it, an online-draw hand
// (its small and big blind left of the button the console places; a raise, a draw, a showdown),
// in which a card shows in the cut: the console asks for the preset's remedy, a new shuffle and
// cut, before the blinds. The stored logs equal the expected ones event for event and audit clean
// as one table, but for the exposure itself.
func TestBrowserBlindGames(t *testing.T) {
	e, p := newBrowser(t)
	p.setup("br-online", 0, 10, 0, 1, []string{"Ana", "Beto", "Caio"}, []int{100, 100, 100})
	first := []want{{"hand.started", `{"rules":{"name":"br-online"},"number":1,"dealer":1,"seats":[{"seat":1,"player":"Ana","stack":100},{"seat":2,"player":"Beto","stack":100},{"seat":3,"player":"Caio","stack":100}],"stakes":{"ante":0,"min_bet":10,"max_bet":0},"carry":0,"passed_out":0}`},
		{"deck.shuffled", `{"method":"physical","count":3}`}, {"deck.cut", `{"at":0}`}}
	p.tap("physical-shuffle")
	p.tap("no-cut")
	if s := p.step(); s != "action" {
		t.Fatalf("br-online after the cut offers %q, want the blind round's first action", s)
	}
	if n, err := chromedp.Run(p.ctx, chromedp.Evaluate[int](`document.querySelectorAll('#step [data-act="check"]').length`)); err != nil || n != 0 {
		t.Errorf("br-online offers a check in the blind round (%v)", err)
	}
	p.tap("bet") // Beto, the starter, bets the least: 10
	p.tap("call")
	p.tap("call")
	first = append(first,
		want{"player.acted", `{"seat":2,"round":"blind","action":"bet","amount":10}`},
		want{"player.acted", `{"seat":3,"round":"blind","action":"call","amount":10}`},
		want{"player.acted", `{"seat":1,"round":"blind","action":"call","amount":10}`})
	first = append(first, p.deal([]int{2, 3, 1}, map[int][]string{
		2: {"Ah", "Ad", "Kc", "7d", "3s"}, 3: {"Qs", "Qh", "9c", "8d", "4s"}, 1: {"Js", "Jh", "Tc", "6d", "2s"}})...)
	p.tap("bet")
	p.confirmTap("fold")
	p.tap("call")
	first = append(first,
		want{"player.acted", `{"seat":2,"round":"first","action":"bet","amount":10}`},
		want{"player.acted", `{"seat":3,"round":"first","action":"fold","amount":0}`},
		want{"player.acted", `{"seat":1,"round":"first","action":"call","amount":10}`})
	first = append(first, p.draw(2, []string{"Kc", "7d", "3s"}, []string{"Ac", "5h", "5d"}, -1, "")...)
	first = append(first, p.draw(1, []string{"Tc", "6d", "2s"}, []string{"Jd", "9h", "8h"}, -1, "")...)
	p.tap("bet")
	p.tap("call")
	p.tap("show")
	p.tap("show")
	p.tap("award")
	p.tap("end")
	first = append(first,
		want{"player.acted", `{"seat":2,"round":"second","action":"bet","amount":10}`},
		want{"player.acted", `{"seat":1,"round":"second","action":"call","amount":10}`},
		want{"hand.shown", `{"seat":2,"cards":["Ah","Ad","Ac","5h","5d"]}`},
		want{"hand.shown", `{"seat":1,"cards":["Js","Jh","Jd","9h","8h"]}`},
		want{"pot.awarded", `{"seat":2,"amount":70,"pot":0}`},
		want{"hand.ended", `{"stacks":[{"seat":1,"stack":70},{"seat":2,"stack":140},{"seat":3,"stack":90}],"carry":0}`})
	firstID := handID(p)

	// The next hand, online-draw, from the form the console fills after the first.
	p.do("next hand", chromedp.Click(chromedp.CSS(`[data-act=next-hand]`)), chromedp.WaitVisible(chromedp.CSS(`#setup`)),
		chromedp.SetValue(chromedp.CSS(`#setup [name=preset]`), "online-draw"))
	if _, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`document.querySelector('#setup [name=preset]').dispatchEvent(new Event("change"))`)); err != nil {
		t.Fatal(err)
	}
	// A blind game's form asks for the small blind and names min_bet the big blind.
	p.do("the small blind", chromedp.WaitVisible(chromedp.CSS(`#small-blind`)), chromedp.SetValue(chromedp.CSS(`#setup [name=small_blind]`), "5"))
	p.shot("blinds-setup-390.png", 390, 844)
	p.do("viewport", chromedp.EmulateViewport(1024, 900))
	p.n = 0
	p.tap("start")
	second := []want{{"hand.started", `{"rules":{"name":"online-draw"},"number":2,"dealer":2,"seats":[{"seat":1,"player":"Ana","stack":70},{"seat":2,"player":"Beto","stack":140},{"seat":3,"player":"Caio","stack":90}],"stakes":{"ante":0,"min_bet":10,"max_bet":0},"carry":0,"passed_out":0,"previous":"` + firstID + `"}`},
		{"deck.shuffled", `{"method":"physical","count":3}`},
		{"card.exposed", `{"card":"Kc","phase":"cut","cause":"dealer"}`},
		{"deck.shuffled", `{"method":"physical","count":3}`}, {"deck.cut", `{"at":0}`}}
	p.tap("physical-shuffle")
	p.do("expose in the cut", chromedp.Click(chromedp.CSS(`[data-act="exposed"]`)),
		chromedp.Click(chromedp.CSS(`#picker [data-rank="K"]`)), chromedp.Click(chromedp.CSS(`#picker [data-suit="c"]`)))
	p.stored(1)
	if s := p.step(); s != "shuffle" {
		t.Fatalf("after a card shown in the cut the console offers %q, want a new shuffle", s)
	}
	p.do("the remedy", chromedp.WaitVisible(chromedp.CSS(`#remedy`)))
	p.tap("physical-shuffle")
	p.tap("no-cut")
	p.shot("blind-390.png", 390, 844)
	p.do("viewport", chromedp.EmulateViewport(1024, 900))
	p.tap("blind")
	p.tap("blind")
	second = append(second, want{"blind.posted", `{"seat":3,"amount":5,"blind":"small"}`}, want{"blind.posted", `{"seat":1,"amount":10,"blind":"big"}`})
	second = append(second, p.deal([]int{3, 1, 2}, map[int][]string{
		3: {"9s", "9h", "4c", "5d", "7c"}, 1: {"Ks", "Kh", "2c", "3d", "8c"}, 2: {"Qc", "Qd", "Jc", "Th", "6h"}})...)
	p.tap("raise") // Beto, left of the big blind: to put in 20
	p.tap("call")
	p.tap("call")
	second = append(second,
		want{"player.acted", `{"seat":2,"round":"first","action":"raise","amount":20}`},
		want{"player.acted", `{"seat":3,"round":"first","action":"call","amount":15}`},
		want{"player.acted", `{"seat":1,"round":"first","action":"call","amount":10}`})
	second = append(second, p.draw(3, []string{"4c", "5d", "7c"}, []string{"9d", "2h", "3h"}, -1, "")...)
	second = append(second, p.draw(1, []string{"2c", "3d", "8c"}, []string{"Kd", "4h", "5h"}, -1, "")...)
	second = append(second, p.draw(2, nil, nil, -1, "")...)
	for range 3 {
		p.tap("check")
	}
	for range 3 {
		p.tap("show")
	}
	p.tap("award")
	p.tap("end")
	second = append(second,
		want{"player.acted", `{"seat":3,"round":"second","action":"check","amount":0}`},
		want{"player.acted", `{"seat":1,"round":"second","action":"check","amount":0}`},
		want{"player.acted", `{"seat":2,"round":"second","action":"check","amount":0}`},
		want{"hand.shown", `{"seat":2,"cards":["Qc","Qd","Jc","Th","6h"]}`},
		want{"hand.shown", `{"seat":3,"cards":["9s","9h","9d","2h","3h"]}`},
		want{"hand.shown", `{"seat":1,"cards":["Ks","Kh","Kd","4h","5h"]}`},
		want{"pot.awarded", `{"seat":1,"amount":60,"pot":0}`},
		want{"hand.ended", `{"stacks":[{"seat":1,"stack":110},{"seat":2,"stack":120},{"seat":3,"stack":70}],"carry":0}`})
	secondID := handID(p)
	a := audit.New(func(f finding.Finding) {
		if f.Code != finding.CardExposed {
			t.Errorf("the audit finds %s", f.JSON())
		}
	})
	for _, ev := range e.compare(t, map[string][]want{firstID: first, secondID: second}, []string{firstID, secondID}) {
		a.Add(ev)
	}
	a.Close()
}
