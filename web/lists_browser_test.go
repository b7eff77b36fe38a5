package web_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/browsertest"
	"github.com/fechado/fechado/rules"
	"github.com/fechado/fechado/sim"
)

// listPage is a page of the dashboard the lists test opens: its hash, and what shows it loaded.
type listPage struct {
	name, hash, ready string
}

// TestBrowserLists drives one chromium through the list pages with a cash table and a finished
// tournament recorded: rows and names are links; the Hands list filtered by a table typed in
// capitals gives its total; the Players list sorts by a column when its header is clicked and
// explains its statistics; a player who rebought has his stack drawn as separate lines, a bust
// ending at 0; the tournament's charts mark every knock-out and its points open their hands. Then,
// at a phone's 390 pixels and in Portuguese, no page is wider than the screen and the chart labels
// are readable. Desktop and phone screenshots of each page go to the test's artifact folder
// (without -short; under -short TestBrowserDesk saves every page).
func TestBrowserLists(t *testing.T) {
	t.Parallel()
	d := sharedTournamentDay(t)
	e, cash, places := d.e, d.cash, d.places
	var winner string
	for p, place := range places {
		if place == 1 {
			winner = p
		}
	}
	// The first cash player to sit down during the session, and the first to rebuy.
	var joiner, rebuyer string
	var buyIn events.Chips
	for _, h := range cash {
		for _, s := range h.Events[0].Data.(*events.HandStarted).Seats {
			if s.Joined && joiner == "" {
				joiner, buyIn = s.Player, s.Stack
			}
			if s.Rebuy != nil && *s.Rebuy > 0 && rebuyer == "" {
				rebuyer = s.Player
			}
		}
	}
	if joiner == "" || rebuyer == "" {
		t.Fatalf("the cash session has no player sitting down (%q) or rebuying (%q): not a test of sessions and rebuys", joiner, rebuyer)
	}
	var dir string
	if !testing.Short() {
		dir = t.ArtifactDir()
	}
	ctx := browsertest.Tab(t, 1300, 1000, 3*time.Minute)
	// shoot saves the whole page; a phone's page is also saved as the screen shows it first.
	shoot := func(name string) {
		t.Helper()
		if testing.Short() {
			return // TestBrowserDesk saves every page under -short; these, the list pages' own, in the long run
		}
		if strings.HasSuffix(name, "-phone") {
			top, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatalf("screenshot %s: %v", name, err)
			}
			if err := os.WriteFile(filepath.Join(dir, name+"-screen.png"), top, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".png"), shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	eval := func(js string, out any) {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](js))
		if err == nil {
			err = json.Unmarshal(v, out)
		}
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
	}
	// hrefs gives the href attribute of every element sel matches.
	hrefs := func(sel string) []string {
		t.Helper()
		var out []string
		eval(fmt.Sprintf(`[...document.querySelectorAll(%q)].map((a) => a.getAttribute("href"))`, sel), &out)
		return out
	}
	allPrefixed := func(what string, got []string, prefix string) {
		t.Helper()
		if len(got) == 0 {
			t.Errorf("%s: no link", what)
		}
		for _, h := range got {
			if !strings.HasPrefix(h, prefix) {
				t.Errorf("%s: link %q, want %s…", what, h, prefix)
			}
		}
	}

	// The Tables page: each table's name opens its hands, each player his page.
	run("tables", chromedp.Navigate(e.ts.URL+"/#/tables"), chromedp.WaitVisible(chromedp.CSS(`#tables .tbl[data-table="t-cash"]`)))
	allPrefixed("table names", hrefs(`#tables .tbl h3 a.table`), "#/hands?table=")
	allPrefixed("players at the tables", hrefs(`#tables .tbl a.player`), "#/player/")
	shoot("tables-desktop")

	// The Hands list, filtered by the table typed in capitals: the total is the table's hands,
	// every row's first cell a link to its hand, every winner a link to his page.
	run("hands",
		chromedp.Navigate(e.ts.URL+"/#/hands"),
		chromedp.WaitVisible(chromedp.CSS(`#filters`)),
		chromedp.SendKeys(chromedp.CSS(`#filters input[name="table"]`), "T-CASH"),
		chromedp.Click(chromedp.CSS(`#filters button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#filters input[name="table"][value="T-CASH"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#hands tbody tr`)),
	)
	if total := mustText(ctx, t, `nav.pager .total`); total != fmt.Sprintf("1–50 of %d", len(cash)) {
		t.Errorf("the hands of T-CASH: %q, want 1–50 of %d", total, len(cash))
	}
	rows := hrefs(`#hands tbody tr td.main a`)
	allPrefixed("hands' rows", rows, "#/hand/")
	if len(rows) != 50 {
		t.Errorf("%d rows link their hand, want 50", len(rows))
	}
	allPrefixed("winners", hrefs(`#hands tbody a.player`), "#/player/")
	var presets []string
	eval(`[...document.querySelectorAll("#filters select[name=preset] option")].map((o) => o.value + "=" + o.textContent)`, &presets)
	if len(presets) != len(rules.Names())+1 || !slices.Contains(presets, "std-draw=Draw Poker, jacks or better") {
		t.Errorf("the game filter offers %q, want any game and the %d presets by name", presets, len(rules.Names()))
	}
	allPrefixed("next page", hrefs(`nav.pager a[rel="next"]`), "#/hands?")
	shoot("hands-desktop")

	// The Players list: sorted by net when its header is clicked, most first, then least first.
	run("players", chromedp.Navigate(e.ts.URL+"/#/players"), chromedp.WaitVisible(chromedp.CSS(`#players tbody tr`)))
	var helps []string
	eval(`[...document.querySelectorAll("#players thead abbr")].map((a) => a.textContent + ": " + a.title)`, &helps)
	for _, stat := range []string{"VPIP", "WTSD", "W$SD"} {
		found := false
		for _, h := range helps {
			found = found || strings.HasPrefix(h, stat+": ") && len(h) > len(stat)+20
		}
		if !found {
			t.Errorf("the Players header does not explain %s: %q", stat, helps)
		}
	}
	if legend := mustText(ctx, t, `.legend-stats`); !strings.Contains(legend, "Went to showdown") || !strings.Contains(legend, "Won money at showdown") {
		t.Errorf("the statistics' legend: %q", legend)
	}
	nets := func() []int {
		var out []int
		eval(`[...document.querySelectorAll("#players tbody tr")].map((tr) => Number(tr.lastElementChild.textContent.replace(/[^0-9-]/g, "")))`, &out)
		return out
	}
	for _, order := range []string{"descending", "ascending"} {
		run("sort by net "+order,
			chromedp.Click(chromedp.CSS(`#players th[data-sort="net"] button`)),
			chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`#players th[data-sort="net"][aria-sort=%q]`, order))),
		)
		n := nets()
		for i := 1; i < len(n); i++ {
			if order == "descending" && n[i] > n[i-1] || order == "ascending" && n[i] < n[i-1] {
				t.Errorf("sorted by net, %s: %v", order, n)
				break
			}
		}
	}
	allPrefixed("players' rows", hrefs(`#players tbody td.main a`), "#/player/")
	shoot("players-desktop")
	// A name's start in capitals finds the names that start with it in any case.
	run("players filtered",
		chromedp.SendKeys(chromedp.CSS(`#pfilters input[name="player"]`), strings.ToUpper(rebuyer[:2])),
		chromedp.Click(chromedp.CSS(`#pfilters button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#pfilters input[name="player"][value="`+strings.ToUpper(rebuyer[:2])+`"]`)),
	)
	var names []string
	eval(`[...document.querySelectorAll("#players tbody td.main")].map((td) => td.textContent)`, &names)
	if len(names) == 0 || !strings.Contains(strings.Join(names, " "), rebuyer) {
		t.Errorf("players starting with %q: %v, want %s among them", strings.ToUpper(rebuyer[:2]), names, rebuyer)
	}
	for _, n := range names {
		if !strings.HasPrefix(n, rebuyer[:2]) {
			t.Errorf("players starting with %q: %v", strings.ToUpper(rebuyer[:2]), names)
		}
	}
	if total := mustText(ctx, t, `nav.pager .total`); !strings.HasSuffix(total, fmt.Sprintf("of %d", len(names))) {
		t.Errorf("the filtered players' total: %q, want %d", total, len(names))
	}

	// The player who sat down: his session reads as a sentence with his buy-in.
	run("joiner", chromedp.Navigate(e.ts.URL+"/#/player/"+joiner), chromedp.WaitVisible(chromedp.CSS(`#sessions tr[data-kind="joined"]`)))
	if row := mustText(ctx, t, `#sessions tr[data-kind="joined"]`); !strings.Contains(row, "with a buy-in of "+engNumber(int64(buyIn))+".") || !strings.Contains(row, "t-cash") {
		t.Errorf("%s's first session row: %q, want a buy-in of %d at t-cash", joiner, row, buyIn)
	}
	// The player who rebought: his stack is drawn in several lines, a ring where chips came in.
	run("rebuyer", chromedp.Navigate(e.ts.URL+"/#/player/"+rebuyer), chromedp.WaitVisible(chromedp.CSS(`#pstacks svg`)))
	var segs, rebuys int
	eval(`document.querySelectorAll("#pstacks polyline.seg").length`, &segs)
	eval(`document.querySelectorAll("#pstacks a.pt[data-kind=rebuy]").length`, &rebuys)
	if segs < 2 || rebuys < 1 {
		t.Errorf("%s rebought, but his chips chart has %d lines and %d rebuys", rebuyer, segs, rebuys)
	}
	allPrefixed("his chart's points", hrefs(`#pstacks a.pt`), "#/hand/")
	shoot("player-desktop")

	// The tournament: the standings start with the winner; each knock-out ends a line at a cross,
	// and the points open their hands; the step control moves hand by hand.
	run("tournament",
		chromedp.Navigate(e.ts.URL+"/#/tournaments"),
		chromedp.WaitVisible(chromedp.CSS(`#tournaments a`)),
		chromedp.Click(chromedp.CSS(`#tournaments td.main a`)),
		chromedp.WaitVisible(chromedp.CSS(`#standings`)),
		chromedp.WaitVisible(chromedp.CSS(`#tmoment p`)),
	)
	if first := mustText(ctx, t, `#standings tbody tr`); !strings.Contains(first, winner) {
		t.Errorf("the standings start with %q, want the winner %s", first, winner)
	}
	var busts int
	eval(`document.querySelectorAll(".tchips a.pt[data-kind=bust]").length`, &busts)
	if busts < entries-1 {
		t.Errorf("the tables' charts mark %d busts, want the %d knock-outs", busts, entries-1)
	}
	allPrefixed("the tournament's chart points", hrefs(`.tchips a.pt`), "#/hand/")
	allPrefixed("the standings' players", hrefs(`#standings td.main a`), "#/player/")
	if outs := mustText(ctx, t, `#knockouts`); strings.Count(outs, "replay") != entries-1 {
		t.Errorf("the knock-outs list %d hands, want %d: %q", strings.Count(outs, "replay"), entries-1, outs)
	}
	if m := mustText(ctx, t, `#tmoment p`); !strings.Contains(m, "moment 1 of") {
		t.Errorf("the step control starts at %q, want moment 1", m)
	}
	run("next moment", chromedp.Click(chromedp.CSS(`#tnext`)), chromedp.WaitVisible(chromedp.CSS(`#tprev:not([disabled])`)))
	if m := mustText(ctx, t, `#tmoment p`); !strings.Contains(m, "moment 2 of") {
		t.Errorf("after Next the step control shows %q, want moment 2", m)
	}
	shoot("tournament-desktop")
	var tournamentHash string
	eval(`location.hash`, &tournamentHash)
	run("a knock-out's hand",
		chromedp.Click(chromedp.CSS(`#knockouts tbody a[href^="#/hand/"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#slider`)),
		chromedp.Navigate(e.ts.URL+"/#/player/"+winner),
		chromedp.WaitVisible(chromedp.CSS(`#ptournaments`)),
	)
	if row := mustText(ctx, t, `#ptournaments tbody tr`); !strings.Contains(row, sim.DefaultTournament) || !strings.Contains(row, fmt.Sprintf("Finished in place 1 of %d.", entries)) {
		t.Errorf("the winner's page lists %q", row)
	}

	// A phone, in Portuguese: nothing wider than the screen, labels of readable size.
	pages := []listPage{
		{"tables", "#/tables", `#tables .tbl`},
		{"hands", "#/hands", `#hands tbody tr`},
		{"players", "#/players", `#players tbody tr`},
		{"player", "#/player/" + rebuyer, `#pstacks svg`},
		{"tournament", tournamentHash, `#tmoment p`},
	}
	var none any
	eval(`localStorage.setItem("lang", "pt-BR")`, &none)
	if _, err := chromedp.Call(ctx, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "America/Sao_Paulo"}); err != nil {
		t.Fatal(err)
	}
	run("phone", chromedp.EmulateViewport(390, 844), chromedp.Navigate(e.ts.URL+"/#/tables"), chromedp.Reload())
	for _, p := range pages {
		run(p.name+" on a phone", chromedp.Navigate(e.ts.URL+"/"+p.hash), chromedp.WaitVisible(chromedp.CSS(p.ready)))
		var wide []string
		eval(overflowJS, &wide)
		if len(wide) > 0 {
			t.Errorf("%s at 390 px: wider than the screen: %v", p.name, wide)
		}
		var smallest float64
		eval(`Math.min(1e9, ...[...document.querySelectorAll("svg.chart text")].map((x) => x.getBoundingClientRect().height).filter((h) => h > 0))`, &smallest)
		if smallest < 9 && smallest != 1e9 {
			t.Errorf("%s at 390 px: a chart label is %.1f px tall", p.name, smallest)
		}
		shoot(p.name + "-phone")
		if p.name == "hands" {
			// The times are the reader's: São Paulo's, with its zone named.
			var at struct{ Attr, Text string }
			eval(`(() => { const x = document.querySelector("#hands time"); return { Attr: x.getAttribute("datetime"), Text: x.textContent }; })()`, &at)
			utc, err := time.Parse(time.RFC3339Nano, at.Attr)
			if err != nil {
				t.Fatal(err)
			}
			brt, err := time.LoadLocation("America/Sao_Paulo")
			if err != nil {
				t.Fatal(err)
			}
			if want := utc.In(brt).Format("02/01/2006, 15:04:05"); !strings.Contains(at.Text, want) || !regexp.MustCompile(`BRT|GMT-3|UTC-3`).MatchString(at.Text) {
				t.Errorf("a hand started at %s shows %q in São Paulo, want %s and the zone", at.Attr, at.Text, want)
			}
		}
	}
	// The words are Portuguese: the heading, the column, the sentence.
	if h := mustText(ctx, t, `h1`); !strings.HasPrefix(h, "Torneio ") {
		t.Errorf("the tournament page in Portuguese is titled %q", h)
	}
	if m := mustText(ctx, t, `#tmoment p`); !regexp.MustCompile(`momento 1 de \d+: nível \d+, \d+ jogadores ainda no torneio`).MatchString(m) {
		t.Errorf("the step control in Portuguese says %q", m)
	}
	if dir != "" {
		t.Logf("screenshots of the list pages: %s", dir)
	}
}

// overflowJS lists the elements that reach past the right edge of the screen outside a box that
// scrolls sideways, and whether the page itself scrolls sideways.
const overflowJS = `(() => {
  const w = document.documentElement.clientWidth, out = [];
  if (document.documentElement.scrollWidth > w) out.push("the page: " + document.documentElement.scrollWidth + " px");
  const scrolls = (el) => { for (let p = el.parentElement; p; p = p.parentElement) { const o = getComputedStyle(p).overflowX; if (o === "auto" || o === "scroll" || o === "hidden") return true; } return false; };
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > w + 1 && !scrolls(el)) out.push(el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + "." + el.className + " " + Math.round(r.right) + " px");
    if (out.length > 10) break;
  }
  return out;
})()`

// engNumber writes n as the English pages do (12,500).
func engNumber(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
