package web_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/sim"
)

// GET /hands/{id}/report is the page `fechado report` writes, in the reader's language, for an
// ended hand only.
func TestHandReport(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	hs := simulated(t, sim.Config{Rules: "br-fechado", Players: 4, Hands: 2, Seed: 5, Table: "t-report"})
	open := hs[1].Events[:len(hs[1].Events)-3] // the second hand, before its end
	e.post(append(handsBody(hs[:1]), jsonl(open)...), http.StatusOK, nil)
	e.waitProjected()
	hand := hs[0].Events[0].Hand
	last := hs[0].Events[len(hs[0].Events)-1]
	get := func(path, accept string) (int, string, string) {
		req, _ := http.NewRequest("GET", e.ts.URL+path, nil)
		if accept != "" {
			req.Header.Set("Accept-Language", accept)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
	}
	code, ctype, page := get("/hands/"+hand+"/report?lang=pt-BR", "tr")
	if code != http.StatusOK || !strings.HasPrefix(ctype, "text/html") {
		t.Fatalf("%d %s: %.300s", code, ctype, page)
	}
	for _, want := range []string{`<html lang="pt-BR">`, "Relatório de disputa", events.Hash(last.Raw)} {
		if !strings.Contains(page, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if strings.Contains(page, "http://") || strings.Contains(page, "https://") {
		t.Error("the report refers to the network")
	}
	if _, _, page := get("/hands/"+hand+"/report", "tr-TR,tr;q=0.9,en;q=0.5"); !strings.Contains(page, `<html lang="tr">`) {
		t.Error("Accept-Language tr does not give a Turkish report")
	}
	if code, _, _ := get("/hands/"+open[0].Hand+"/report", ""); code != http.StatusConflict {
		t.Errorf("a hand in progress: %d, want 409 (its report would show its cards)", code)
	}
	if code, _, _ := get("/hands/nope/report", ""); code != http.StatusBadRequest {
		t.Errorf("a bad id: %d", code)
	}
}
