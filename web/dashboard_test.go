package web_test

import (
	"encoding/json"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/sim"
)

// The Grafana dashboard of the repository (docs/grafana/fechado.json) loads as a dashboard, and
// every metric its panels query is one fechado serve exposes on /metrics: the server is fed a
// hand with an irregularity first, so that the finding counter has a series to show.
func TestGrafanaDashboardQueriesExposedMetrics(t *testing.T) {
	b, err := os.ReadFile("../docs/grafana/fechado.json")
	if err != nil {
		t.Fatal(err)
	}
	type panel struct {
		Title   string `json:"title"`
		Type    string `json:"type"`
		Targets []struct {
			Expr  string `json:"expr"`
			RefID string `json:"refId"`
		} `json:"targets"`
		Panels  []json.RawMessage         `json:"panels"`
		GridPos *struct{ H, W, X, Y int } `json:"gridPos"`
	}
	var dash struct {
		Title         string  `json:"title"`
		UID           string  `json:"uid"`
		SchemaVersion int     `json:"schemaVersion"`
		Panels        []panel `json:"panels"`
	}
	if err := json.Unmarshal(b, &dash); err != nil {
		t.Fatalf("docs/grafana/fechado.json: %v", err)
	}
	if dash.Title == "" || dash.UID == "" || dash.SchemaVersion == 0 || len(dash.Panels) < 5 {
		t.Fatalf("not a dashboard: %q %q schema %d, %d panels", dash.Title, dash.UID, dash.SchemaVersion, len(dash.Panels))
	}

	e := newEnv(t, 0)
	hs := simulated(t, sim.Config{Rules: "br-fechado", Players: 3, Hands: 4, Seed: 71, Table: "t-dash", ExposeRate: -1,
		Inject: []finding.Code{finding.BetOutOfTurn}})
	e.post(handsBody(hs), http.StatusOK, nil)
	exposed := map[string]string{} // metric family → type
	deadline := time.Now().Add(20 * time.Second)
	for {
		code, text := e.do(http.MethodGet, "/metrics", nil)
		if code != http.StatusOK {
			t.Fatalf("GET /metrics: %d", code)
		}
		for _, l := range strings.Split(string(text), "\n") {
			if f := strings.Fields(l); len(f) == 4 && f[0] == "#" && f[1] == "TYPE" {
				exposed[f[2]] = f[3]
			}
		}
		if _, ok := exposed["fechado_findings_total"]; ok || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	metric := regexp.MustCompile(`\b(?:fechado|go|process)_[a-z0-9_]+\b`)
	queried := 0
	for _, p := range dash.Panels {
		if p.GridPos == nil || len(p.Targets) == 0 {
			t.Errorf("panel %q has no place or no query", p.Title)
		}
		for _, tg := range p.Targets {
			names := metric.FindAllString(tg.Expr, -1)
			if len(names) == 0 {
				t.Errorf("panel %q, query %s: no metric in %q", p.Title, tg.RefID, tg.Expr)
			}
			for _, n := range names {
				queried++
				if _, ok := exposed[n]; ok {
					continue
				}
				base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(n, "_bucket"), "_sum"), "_count")
				if exposed[base] != "histogram" {
					t.Errorf("panel %q queries %s, which /metrics does not expose", p.Title, n)
				}
			}
		}
	}
	if queried < 10 {
		t.Errorf("%d metrics queried", queried)
	}
}
