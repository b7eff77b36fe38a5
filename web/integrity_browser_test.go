package web_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/fechado/fechado/projector"
)

// TestIntegrityPageInTheBrowser opens the Integrity page from the menu as a Portuguese reader:
// the menu names it and marks it, the page says when the analysis ran and which signals could not
// be calibrated, the graph draws the flagged pair's line, the flagged pair comes first and open
// with its words, and its evidence hands are links that open the hand in the replayer.
func TestIntegrityPageInTheBrowser(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 64<<20)
	log, _ := plantedRoom(t, e)
	if err := projector.SaveIntegrity(context.Background(), e.db, analyse(t, log), time.Now()); err != nil {
		t.Fatal(err)
	}
	var api integrityAnswer
	e.get("/api/integrity?lang=pt-BR", http.StatusOK, &api)
	var evidence []string
	for _, r := range api.Pairs[0].Words.Reasons {
		evidence = append(evidence, r.Hands...)
	}
	if len(evidence) == 0 {
		t.Fatal("the flagged pair has no evidence hands")
	}

	tab := browser(t)
	if err := chromedp.Do(tab, chromedp.Navigate(e.ts.URL+"/#/tables"), chromedp.WaitReady(chromedp.CSS(`#view`))); err != nil {
		t.Fatal(err)
	}
	js[bool](tab, t, `localStorage.setItem("lang", "pt-BR"), true`)
	if err := chromedp.Do(tab, chromedp.Reload(), chromedp.WaitReady(chromedp.CSS(`html[lang="pt-BR"]`))); err != nil {
		t.Fatal(err)
	}
	if err := within(tab, 30*time.Second, chromedp.Click(chromedp.CSS(`header nav a[data-nav="integrity"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#pairs .ipair.flagged`))); err != nil {
		t.Fatal(err)
	}
	if nav := mustText(tab, t, `header nav a.active`); nav != "Integridade" {
		t.Errorf("the menu marks %q", nav)
	}
	// The whole summary, with the signals too few pairs carried to calibrate (this room's shared
	// cards).
	if s := mustText(tab, t, `#integrity-summary`); !strings.HasPrefix(s, "Análise de") || !strings.Contains(s, "600 mãos") ||
		!strings.Contains(s, "Cartas compartilhadas: teste não calibrado") || s != api.Summary {
		t.Errorf("the summary: %q", s)
	}
	if n := js[int](tab, t, `document.querySelectorAll("svg.igraph line.flagged").length`); n != 1 {
		t.Errorf("the graph draws %d flagged lines, want 1", n)
	}
	first := `document.querySelector("#pairs .ipair")`
	if !js[bool](tab, t, first+`.open && `+first+`.classList.contains("flagged") && `+first+`.id === "pair-1"`) {
		t.Error("the first pair shown is not the flagged one, open")
	}
	if v := mustText(tab, t, `#pair-1 .verdict`); !strings.HasPrefix(v, "Apontado: jogo suave") {
		t.Errorf("the verdict: %q", v)
	}
	links := js[[]string](tab, t, `[...document.querySelectorAll('#pair-1 a[href^="#/hand/"]')].map((a) => a.getAttribute("href").slice(7))`)
	if strings.Join(links, " ") != strings.Join(evidence, " ") {
		t.Errorf("the evidence links %v, want the hands %v", links, evidence)
	}
	// Each named by its table and number, as the API titles it.
	if text := mustText(tab, t, `#pair-1 a[href^="#/hand/"]`); text != api.HandTitles[evidence[0]] || !strings.HasPrefix(text, "Mesa room-") {
		t.Errorf("the first evidence link reads %q, want %q", text, api.HandTitles[evidence[0]])
	}
	if err := within(tab, 30*time.Second, chromedp.Click(chromedp.CSS(`#pair-1 a[href^="#/hand/"]`)), chromedp.WaitVisible(chromedp.CSS(`#next`))); err != nil {
		t.Fatalf("the evidence hand's replayer: %v", err)
	}
	// The replayer adds the step it shows to the address (#/hand/ID/SEQ).
	if h := js[string](tab, t, `location.hash`); h != "#/hand/"+evidence[0] && !strings.HasPrefix(h, "#/hand/"+evidence[0]+"/") {
		t.Errorf("the evidence link opened %q", h)
	}
}
