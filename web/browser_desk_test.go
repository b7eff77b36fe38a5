package web_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/fechado/fechado/audit/integrity"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/explain"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/browsertest"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/projector"
	"github.com/fechado/fechado/sim"
)

// desk is the dashboard as a floor manager finds it: a server with a few tables of every kind
// (a std-draw table with a hand opened without openers, a Brazilian cash game where players come
// and go, a Turkish table, a small tournament) and the flagged hand's facts the pages must show.
type desk struct {
	e *env
	// hand is the flagged hand, flagged with code at its event seq, against the player in seat.
	hand, code, preset string
	seq, seat          int
	names              map[int]string
	// player has a page; tournament is the tournament's id.
	player, tournament string
	// lives counts the hands appended while the tabs are open, each of a table of its own.
	lives int
}

func newDesk(t *testing.T) *desk {
	t.Helper()
	d := &desk{e: newEnv(t, 64<<20), tournament: sim.DefaultTournament}
	flagged := simulated(t, sim.Config{Rules: "std-draw", Players: 4, Hands: 5, Seed: 7, Table: "desk-std", ExposeRate: -1,
		Inject: []finding.Code{finding.OpenWithoutOpeners}})
	// Each table's hands in a request of its own, side by side.
	bodies := [][]byte{handsBody(flagged),
		handsBody(simulated(t, sim.Config{Rules: "br-fechado", Players: 5, Hands: 25, Seed: 4, Table: "desk-br", Cash: true, ExposeRate: -1})),
		handsBody(simulated(t, sim.Config{Rules: "tr-kapali", Players: 4, Hands: 6, Seed: 5, Table: "desk-tr", ExposeRate: -1})),
	}
	ts, err := sim.NewTournament(sim.TournamentConfig{Rules: "br-fechado", Entries: 8, Tables: 2, Seed: 3, ExposeRate: -1})
	if err != nil {
		t.Fatal(err)
	}
	// The tournament's first hands: it is running, as on the floor.
	var tourney []*sim.Hand
	for range 30 {
		h, err := ts.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		tourney = append(tourney, h)
	}
	bodies = append(bodies, handsBody(tourney))
	d.e.postTogether(bodies...)
	d.e.waitProjected()
	// An integrity analysis of these hands for the Integrity page: the desk's tables are too
	// small for the default least number of hands a pair must share, so a pair needs 5 here.
	a := integrity.New(integrity.Options{MinHands: 5})
	for _, b := range bodies {
		rd := events.NewReaderBytes(b, "desk", nil)
		for ev, err := rd.Next(); err == nil; ev, err = rd.Next() {
			a.Add(ev)
		}
	}
	if err := projector.SaveIntegrity(context.Background(), d.e.db, a.Result(), time.Now()); err != nil {
		t.Fatal(err)
	}

	h := injected(t, flagged)
	start := h.Events[0].Data.(*events.HandStarted)
	d.hand, d.code, d.seq, d.preset = h.Events[0].Hand, string(h.Injected), int(h.Seq), start.Rules.Name
	d.names = map[int]string{}
	for _, s := range start.Seats {
		d.names[int(s.Seat)] = s.Player
	}
	d.player = start.Seats[0].Player
	var stored struct {
		Findings []struct {
			Seq  int    `json:"seq"`
			Code string `json:"code"`
			Seat int    `json:"seat"`
		} `json:"findings"`
	}
	d.e.get("/api/hands/"+d.hand, http.StatusOK, &stored)
	for _, f := range stored.Findings {
		if f.Code == d.code && f.Seq == d.seq {
			d.seat = f.Seat
		}
	}
	if d.seat == 0 {
		t.Fatalf("hand %s has no %s against a seat at seq %d: %+v", d.hand, d.code, d.seq, stored.Findings)
	}
	return d
}

// appendLive appends one hand of a new table and returns the table's id.
func (d *desk) appendLive(t *testing.T) string {
	t.Helper()
	d.lives++
	table := fmt.Sprintf("desk-live-%d", d.lives)
	d.e.post(handsBody(simulated(t, sim.Config{Rules: "br-fechado", Players: 3, Hands: 1, Seed: uint64(90 + d.lives), Table: table,
		ExposeRate: -1})), http.StatusOK, nil)
	return table
}

// long reports whether the whole browser test runs: without -short (make test-long).
func long() bool { return !testing.Short() }

// artifacts is where the screenshots go: $FECHADO_ARTIFACTS when set, else the test's artifact
// folder (kept by go test -artifacts -outputdir DIR).
func artifacts(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("FECHADO_ARTIFACTS")
	if dir == "" {
		return t.ArtifactDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestBrowserDesk drives chromium through the dashboard as the issue of the dispute desk asks:
// ten tabs at once on one live connection; the page frame and a flagged hand's finding in each of
// the four languages; screenshots of every page at a desktop's and a phone's width, none wider than
// the phone. Under -short four tabs share the connection (three more without Web Locks), and one
// language is photographed, at the phone's width only, where every page's width is checked (the
// others have their words and their finding checked); without -short it opens ten tabs
// and photographs all four languages at both widths.
func TestBrowserDesk(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	limit := 4 * time.Minute // the whole browser's
	if long() {
		limit = 12 * time.Minute // every language photographed
	}
	// The tabs that share a live connection are of one browser context (one origin's storage,
	// locks and channels), as the tabs of a person's browser are.
	ctx := browsertest.Tab(t, 1400, 1000, limit)
	t.Run("TenTabs", func(t *testing.T) { d.tenTabs(t, ctx) }) // four under -short
	t.Run("NoWebLocks", func(t *testing.T) { d.noLocks(t, ctx) })
	dir := artifacts(t)
	shots := map[string]bool{"pt-BR": true}
	// The languages, once the live tests counted their connections: side by side, each in a
	// browser context of its own, whose storage keeps the language it chose.
	for _, l := range lang.All() {
		t.Run(l.Code, func(t *testing.T) {
			t.Parallel()
			tab := browsertest.Tab(t, 1400, 1000, limit)
			d.language(t, tab, l)
			if shots[l.Code] || long() {
				d.screenshots(t, tab, l, dir)
			}
		})
	}
	t.Logf("screenshots in %s", dir)
}

// tenTabs opens ten tabs of the tables page at once (four under -short: the sharing is the same,
// each tab more only loads the browser longer): every one loads, shows the live state and receives
// a hand appended afterwards, while the server counts one client of GET /api/events and one tab
// leads. When the leading tab closes, another takes the connection over.
func (d *desk) tenTabs(t *testing.T, root context.Context) {
	n := 10
	if !long() {
		n = 4
	}
	d.sharedLive(t, root, n, nil, `!!navigator.locks`)
}

// noLocks opens three tabs of a browser without Web Locks, as a dashboard served over plain http
// on a local network is: the tabs elect the leader by heartbeats over the channel, with the same
// outcome.
func (d *desk) noLocks(t *testing.T, root context.Context) {
	d.sharedLive(t, root, 3, func(tab context.Context) error {
		_, err := chromedp.Call(tab, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: `Object.defineProperty(Navigator.prototype, "locks", { get: () => undefined });`})
		return err
	}, `navigator.locks === undefined`)
}

// sharedLive opens n tabs of the tables page at once (prepare, when set, runs on each new tab
// first, and the expression is must hold in each once it loaded) and checks that they share one
// live connection, then that another tab takes it over when the leading tab closes. The tabs are
// closed when it returns.
func (d *desk) sharedLive(t *testing.T, root context.Context, n int, prepare func(context.Context) error, is string) {
	tabs, closers := make([]context.Context, n), make([]context.CancelFunc, n)
	for i := range tabs {
		tabs[i], closers[i] = chromedp.NewContext(root)
		defer closers[i]()
	}
	d.each(t, tabs, func(i int, tab context.Context) error {
		if prepare != nil {
			if err := prepare(tab); err != nil {
				return err
			}
		}
		// The tab's first action opens it, for as long as tab lives, at the desktop's size of
		// the test's other tabs; the page gets its own deadline.
		if err := chromedp.Do(tab, chromedp.EmulateViewport(1400, 1000)); err != nil {
			return err
		}
		return within(tab, 30*time.Second, chromedp.Navigate(d.e.ts.URL+"/#/tables"))
	})
	d.each(t, tabs, func(i int, tab context.Context) error {
		err := within(tab, 30*time.Second, chromedp.WaitReady(chromedp.CSS(`#tables .tbl[data-table="desk-std"]`)),
			chromedp.WaitReady(chromedp.CSS(`#live[data-state="on"]`)))
		if err != nil {
			return err
		}
		if ok, err := chromedp.Run(tab, chromedp.Evaluate[bool](is)); err != nil || !ok {
			return fmt.Errorf("%s is not so (%v)", is, err)
		}
		return nil
	})
	d.liveReachesAll(t, tabs)
	leader := d.oneLeader(t, tabs)

	// The leader closes: another tab opens the connection, alone.
	closers[leader]()
	rest := append(tabs[:leader:leader], tabs[leader+1:]...)
	d.liveReachesAll(t, rest)
	d.oneLeader(t, rest)
}

// liveReachesAll appends a hand of a new table and waits for every tab to show the table.
func (d *desk) liveReachesAll(t *testing.T, tabs []context.Context) {
	t.Helper()
	table := d.appendLive(t)
	d.each(t, tabs, func(i int, tab context.Context) error {
		return within(tab, 30*time.Second, chromedp.WaitReady(chromedp.CSS(fmt.Sprintf(`#tables .tbl[data-table=%q]`, table))))
	})
}

// oneLeader checks that the server has one client of GET /api/events and one tab says it leads,
// and returns that tab's index.
func (d *desk) oneLeader(t *testing.T, tabs []context.Context) int {
	t.Helper()
	d.e.waitMetric("fechado_sse_clients", 1)
	leader, n := -1, 0
	for i, tab := range tabs {
		role, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector("#live").dataset.role`))
		if err != nil {
			t.Fatal(err)
		}
		if role == "leader" {
			leader, n = i, n+1
		}
	}
	if n != 1 {
		t.Fatalf("%d of %d tabs lead the live connection, want one", n, len(tabs))
	}
	return leader
}

// each runs fn on every tab at once and fails the test with the errors.
func (d *desk) each(t *testing.T, tabs []context.Context, fn func(int, context.Context) error) {
	t.Helper()
	errs := make([]error, len(tabs))
	var wg sync.WaitGroup
	for i, tab := range tabs {
		wg.Go(func() { errs[i] = fn(i, tab) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("tab %d: %v", i+1, err)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
}

// within runs actions on tab, for at most d.
func within(tab context.Context, d time.Duration, actions ...chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(tab, d)
	defer cancel()
	return chromedp.Do(ctx, actions...)
}

// language switches the page to l with the switcher, checks the frame's words, then opens the
// flagged hand at its finding: the sentence names the player and cites the rule, in l.
func (d *desk) language(t *testing.T, tab context.Context, l *lang.Lang) {
	err := chromedp.Do(tab,
		chromedp.Navigate(d.e.ts.URL+"/#/tables"),
		chromedp.WaitReady(chromedp.CSS(`#tables .tbl`)),
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Run(ctx, chromedp.Evaluate[any](fmt.Sprintf(
				`{ const s = document.querySelector("#lang"); s.value = %q; s.dispatchEvent(new Event("change")); }`, l.Code)))
			return err
		}),
		chromedp.WaitReady(chromedp.CSS(fmt.Sprintf(`html[lang=%q]`, l.Code))),
		chromedp.WaitReady(chromedp.CSS(`#live[data-state="on"]`)),
	)
	if err != nil {
		t.Fatalf("switching to %s: %v", l.Code, err)
	}
	for sel, key := range map[string]string{`a[data-nav="tables"]`: "web.nav.tables", `a[data-nav="tournaments"]`: "web.nav.tournaments",
		`footer span`: "web.footer", `#live`: "web.live.on"} {
		if got, want := strings.TrimSpace(mustText(tab, t, sel)), l.T(key, nil); got != want {
			t.Errorf("%s: %s reads %q, want %q", l.Code, sel, got, want)
		}
	}
	// The finding at its event: whichever elements carry its code, one tells it in l.
	rule, ok := explain.RuleFor(finding.Code(d.code), d.preset)
	if !ok {
		t.Fatalf("no rule for %s under %s", d.code, d.preset)
	}
	player, title := d.names[d.seat], l.T(rule.Title, nil)
	err = chromedp.Do(tab,
		chromedp.Navigate(fmt.Sprintf("%s/#/hand/%s/%d", d.e.ts.URL, d.hand, d.seq)),
		chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`[data-code=%q]`, d.code))),
	)
	if err != nil {
		t.Fatalf("hand %s at seq %d: %v", d.hand, d.seq, err)
	}
	texts, err := chromedp.Run(tab, chromedp.Evaluate[[]string](fmt.Sprintf(
		`[...document.querySelectorAll('[data-code=%q]')].map((e) => e.innerText + "\n" + e.innerHTML)`, d.code)))
	if err != nil {
		t.Fatalf("hand %s at seq %d: %v", d.hand, d.seq, err)
	}
	// It says what the floor does now, and states the rule in l's words, cited by its name,
	// never by a file.
	remedy, words := explain.Remedy(l, finding.Code(d.code), d.preset), explain.RuleWords(l, finding.Code(d.code), d.preset)
	told := false
	for _, s := range texts {
		told = told || strings.Contains(s, player) && strings.Contains(s, title) && strings.Contains(s, remedy) &&
			strings.Contains(s, words) && !strings.Contains(s, "rules.md")
	}
	if !told {
		t.Errorf("%s: no element of %s names %s, cites %q, says %q and states %q: %q", l.Code, d.code, player, title, remedy, words, texts)
	}
}

// deskPage is one page of the dashboard to photograph: its path and what shows it loaded.
type deskPage struct {
	name, path, ready string
}

func (d *desk) pages(l *lang.Lang) []deskPage {
	return []deskPage{
		{"tables", "/#/tables", `#tables .tbl`},
		{"hands", "/#/hands", `#hands tr[data-hand]`},
		{"hand-finding", fmt.Sprintf("/#/hand/%s/%d", d.hand, d.seq), fmt.Sprintf(`[data-code=%q]`, d.code)},
		{"report", fmt.Sprintf("/hands/%s/report?lang=%s", d.hand, url.QueryEscape(l.Code)), `h1`},
		{"players", "/#/players", `#players tr[data-player]`},
		{"player", "/#/player/" + url.PathEscape(d.player), `#sessions`},
		{"tournaments", "/#/tournaments", `#tournaments a`},
		{"tournament", "/#/tournaments/" + d.tournament, `#standings`},
		{"integrity", "/#/integrity", `#pairs .ipair`},
	}
}

// screenshots photographs every page at 1400×1000 (not under -short: the other tests load the
// pages at a desktop's width) and at a 390×844 phone, and checks that no page is wider than the
// phone.
func (d *desk) screenshots(t *testing.T, tab context.Context, l *lang.Lang, dir string) {
	type size struct {
		name          string
		width, height int64
		mobile        bool
	}
	sizes := []size{{"desktop", 1400, 1000, false}, {"phone", 390, 844, true}}
	if !long() {
		sizes = sizes[1:]
	}
	for _, size := range sizes {
		emulate := chromedp.EmulateViewport(size.width, size.height)
		if size.mobile {
			emulate = chromedp.EmulateViewport(size.width, size.height, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch)
		}
		if err := chromedp.Do(tab, emulate); err != nil {
			t.Fatal(err)
		}
		for _, p := range d.pages(l) {
			err := within(tab, 30*time.Second, chromedp.Navigate(d.e.ts.URL+p.path), chromedp.WaitVisible(chromedp.CSS(p.ready)))
			var width int64
			var shot []byte
			if err == nil {
				width, err = chromedp.Run(tab, chromedp.Evaluate[int64](`document.documentElement.scrollWidth`))
			}
			if err == nil && browsertest.ShotsKept() {
				shot, err = chromedp.Run(tab, chromedp.FullScreenshot(100)) // PNG: text stays sharp
			}
			if err != nil {
				t.Errorf("%s %s page: %v", size.name, p.name, err)
				continue
			}
			if size.mobile && width > size.width {
				t.Errorf("%s: the %s page is %d pixels wide on a %d-pixel phone", l.Code, p.name, width, size.width)
			}
			if shot == nil {
				continue // no screenshot outlives the test: its page and width are checked
			}
			path := filepath.Join(dir, fmt.Sprintf("%s-%s-%s.png", l.Code, size.name, p.name))
			if err := os.WriteFile(path, shot, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
