package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/fechado/fechado/audit/integrity"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/projector"
	"github.com/fechado/fechado/sim"
)

// integrityAnswer is what the tests read of GET /api/integrity.
type integrityAnswer struct {
	Computed   bool              `json:"computed"`
	ComputedAt string            `json:"computed_at"`
	Hands      int               `json:"hands"`
	Known      int               `json:"known"`
	Flagged    int               `json:"flagged"`
	Summary    string            `json:"summary"`
	Total      int               `json:"total"`
	Graph      string            `json:"graph"`
	HandTitles map[string]string `json:"hand_titles"`
	Pairs      []struct {
		Rank    int     `json:"rank"`
		A       string  `json:"a"`
		B       string  `json:"b"`
		Score   float64 `json:"score"`
		Flagged bool    `json:"flagged"`
		Kind    string  `json:"kind"`
		Hands   int     `json:"hands"`
		Title   string  `json:"title"`
		Words   struct {
			Verdict string `json:"verdict"`
			Overlap string `json:"overlap"`
			Reasons []struct {
				Signal string   `json:"signal"`
				Text   string   `json:"text"`
				Hands  []string `json:"hands"`
			} `json:"reasons"`
		} `json:"words"`
	} `json:"pairs"`
}

// plantedRoom plays a small room with one planted soft-play pair (sim.Room), appends it to the
// server's log, and returns its JSON Lines and the planted pair.
func plantedRoom(t *testing.T, e *env) ([]byte, sim.Pair) {
	t.Helper()
	var b bytes.Buffer
	// Seed 5 flags its planted pair, and none of the 37 clean ones, in a room of 600 hands: small
	// enough for the race detector (1,500 hands took two minutes under it).
	pairs, err := sim.Room(sim.RoomConfig{Players: 12, Tables: 2, Hands: 600, Seed: 5, Colluders: 1, Collusion: []string{sim.CollusionKinds[0]}}, &b)
	if err != nil || len(pairs) != 1 {
		t.Fatalf("sim.Room: %v, %d pairs", err, len(pairs))
	}
	e.postTogether(byTable(t, b.Bytes())...)
	e.waitProjected()
	return b.Bytes(), pairs[0]
}

// byTable splits a log into one body per table, each table's lines in their order: the server
// appends a request's hands one at a time, so the room's ten tables go in side by side, three
// times faster than in one request.
func byTable(t *testing.T, log []byte) [][]byte {
	t.Helper()
	var (
		bodies [][]byte
		at     = map[string]int{}
	)
	for line := range bytes.Lines(log) {
		var ev struct{ Table string }
		if err := json.Unmarshal(line, &ev); err != nil || ev.Table == "" {
			t.Fatalf("a line of the room without its table (%v): %.200s", err, line)
		}
		i, ok := at[ev.Table]
		if !ok {
			i = len(bodies)
			at[ev.Table] = i
			bodies = append(bodies, nil)
		}
		bodies[i] = append(bodies[i], line...)
	}
	return bodies
}

// analyse runs the integrity analysis over log (JSON Lines), as `fechado integrity` does.
func analyse(t *testing.T, log []byte) *integrity.Report {
	t.Helper()
	a := integrity.New(integrity.Options{})
	rd := events.NewReaderBytes(log, "room", nil)
	for {
		ev, err := rd.Next()
		if err != nil {
			break
		}
		a.Add(ev)
	}
	return a.Result()
}

// TestIntegrityPageShowsStoredPairsInPortuguese: before any analysis the page says so, in the
// reader's language; once one is stored (projector.SaveIntegrity, as `fechado integrity --save`
// does), GET /api/integrity?lang=pt-BR gives its time and hands, the pairs strongest first with
// the planted pair flagged at the top, their verdict and signals in Portuguese, evidence hands the
// replayer opens, and a graph of the pairs' players with the flagged pair's line in red.
func TestIntegrityPageShowsStoredPairsInPortuguese(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 64<<20)
	log, planted := plantedRoom(t, e)

	var none integrityAnswer
	e.get("/api/integrity?lang=pt-BR", http.StatusOK, &none)
	if none.Computed || len(none.Pairs) != 0 || !strings.Contains(none.Summary, "Nenhuma análise de integridade") {
		t.Errorf("before any analysis: computed %v, %d pairs, summary %q", none.Computed, len(none.Pairs), none.Summary)
	}

	r := analyse(t, log)
	at := time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)
	if err := projector.SaveIntegrity(context.Background(), e.db, r, at); err != nil {
		t.Fatal(err)
	}
	var got integrityAnswer
	e.get("/api/integrity?lang=pt-BR&tz=America/Sao_Paulo&limit=1000", http.StatusOK, &got)
	if !got.Computed || got.ComputedAt != "2026-12-01T09:30:00Z" || got.Hands != 600 || got.Known != 600 || got.Total != len(r.Pairs) ||
		len(got.Pairs) != len(r.Pairs) || got.Flagged != 1 {
		t.Fatalf("the page: computed %v at %s over %d hands (%d known), %d of %d pairs, %d flagged; the analysis %d hands, %d pairs",
			got.Computed, got.ComputedAt, got.Hands, got.Known, len(got.Pairs), got.Total, got.Flagged, r.Hands, len(r.Pairs))
	}
	// When and over how many hands, in Portuguese and the reader's time zone (UTC-3).
	for _, want := range []string{"Análise de", "06:30", "600 mãos", "pares avaliados"} {
		if !strings.Contains(got.Summary, want) {
			t.Errorf("the summary %q does not say %q", got.Summary, want)
		}
	}
	// And which signals too few pairs carried to calibrate them, as the text report does.
	for _, u := range r.Uncalibrated {
		name := map[string]string{integrity.SoftPlay: "Jogo suave", integrity.ChipDump: "Passagem de fichas", integrity.ShareCards: "Cartas compartilhadas"}[u.Signal]
		if !strings.Contains(got.Summary, name+": teste não calibrado") {
			t.Errorf("the summary %q does not say %s was not calibrated", got.Summary, u.Signal)
		}
	}
	top := got.Pairs[0]
	a, b := min(planted.A, planted.B), max(planted.A, planted.B)
	if top.Rank != 1 || top.A != a || top.B != b || !top.Flagged || top.Kind != "soft-play" || top.Score < 2 {
		t.Fatalf("first pair %d: %s-%s flagged %v (%s, score %.1f); planted %s-%s", top.Rank, top.A, top.B, top.Flagged, top.Kind, top.Score, a, b)
	}
	if !strings.HasPrefix(top.Title, "1. "+a+" e "+b+": pontuação ") || !strings.HasPrefix(top.Words.Verdict, "Apontado: jogo suave") ||
		!strings.HasPrefix(top.Words.Overlap, "Mesa em comum:") {
		t.Errorf("the flagged pair in Portuguese: %q / %q / %q", top.Title, top.Words.Verdict, top.Words.Overlap)
	}
	for i, p := range got.Pairs[1:] {
		if p.Flagged || p.Rank != i+2 || !strings.HasPrefix(p.Words.Verdict, "Não apontado") {
			t.Errorf("pair %d (%s-%s): flagged %v, verdict %q", p.Rank, p.A, p.B, p.Flagged, p.Words.Verdict)
		}
	}
	// The soft-play signal shows its evidence hands, and each opens in the replayer.
	var evidence []string
	for _, rs := range top.Words.Reasons {
		if rs.Signal == "soft-play" {
			evidence = rs.Hands
			if !strings.HasPrefix(rs.Text, "Jogo suave:") {
				t.Errorf("soft play in Portuguese: %q", rs.Text)
			}
		}
	}
	if len(evidence) == 0 {
		t.Fatalf("the flagged pair's soft play gives no hands: %+v", top.Words.Reasons)
	}
	for _, h := range evidence {
		var hand struct {
			Events []struct {
				Data struct {
					Seats []struct {
						Player string `json:"player"`
					} `json:"seats"`
				} `json:"data"`
			} `json:"events"`
		}
		e.get("/api/hands/"+url.PathEscape(h), http.StatusOK, &hand)
		names := map[string]bool{}
		if len(hand.Events) > 0 {
			for _, s := range hand.Events[0].Data.Seats {
				names[s.Player] = true
			}
		}
		if !names[a] || !names[b] {
			t.Errorf("evidence hand %s is not a hand of %s and %s: %v", h, a, b, names)
		}
		if title := got.HandTitles[h]; !strings.HasPrefix(title, "Mesa room-") || !strings.Contains(title, ", mão ") {
			t.Errorf("evidence hand %s is titled %q", h, title)
		}
		if code, _ := e.do(http.MethodGet, "/api/hands/"+url.PathEscape(h)+"/replay?lang=pt-BR", nil); code != http.StatusOK {
			t.Errorf("the replayer of evidence hand %s: %d", h, code)
		}
	}
	// The graph: an SVG with its name in Portuguese, the players linked to their pages, and the
	// flagged pair's line in red; no script.
	g := got.Graph
	if !strings.HasPrefix(g, "<svg") || !strings.Contains(g, "Quem joga com quem") || strings.Count(g, `class="flagged"`) != 1 ||
		!strings.Contains(g, `href="#/player/`+a+`"`) || !strings.Contains(g, `href="#/player/`+b+`"`) || strings.Contains(g, "<script") {
		t.Errorf("the graph:\n%.600s", g)
	}

	// A page of the list, and a bad request.
	var page integrityAnswer
	e.get("/api/integrity?lang=tr&limit=2&offset=1", http.StatusOK, &page)
	if len(page.Pairs) != 2 || page.Pairs[0].Rank != 2 || !strings.HasPrefix(page.Pairs[0].Words.Verdict, "İşaretlenmedi") {
		t.Errorf("the second page of 2 in Turkish: %+v", page.Pairs)
	}
	e.get("/api/integrity?tz=Nowhere/Else", http.StatusBadRequest, nil)
}

// TestIntegritySummarySaysWhichSignalsWereNotCalibrated: a signal too few pairs carry to
// calibrate flags nobody (docs/integrity.md, "Too few pairs"); the page's summary says which, and
// why, in the reader's language, and names no signal that was calibrated. The stored analysis
// has chip dumping uncalibrated (every pair carrying it shows its raw z), soft play calibrated,
// shared cards with no data.
func TestIntegritySummarySaysWhichSignalsWereNotCalibrated(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 1<<20)
	pair := func(a, b string, soft float64, dump integrity.Signal) integrity.Pair {
		return integrity.Pair{A: a, B: b, Hands: 60, P: 1, Q: 1,
			Soft:    integrity.Signal{Z: soft, P: 0.2, N: 40},
			Dumping: integrity.Dump{Signal: dump, From: a, To: b},
			Shared:  integrity.Signal{P: 1}}
	}
	r := &integrity.Report{Hands: 900, Known: 900, Players: 3, Threshold: 2, Q: 0.01, Pairs: []integrity.Pair{
		pair("ana", "bruno", 0.8, integrity.Signal{Z: 2.4, P: 1, N: 12, Uncalibrated: true}),
		pair("ana", "carla", -0.3, integrity.Signal{Z: 0.5, P: 1, N: 9, Uncalibrated: true}),
		pair("bruno", "carla", 0.1, integrity.Signal{P: 1}),
	}}
	if err := projector.SaveIntegrity(context.Background(), e.db, r, time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		lang             string
		says, never      []string
		countsBeforeGaps string
	}{
		{"en", []string{"Chip dumping: not calibrated", "Fewer than 20 pairs"}, []string{"Soft play", "Shared cards"}, "3 pairs scored"},
		{"pt-BR", []string{"Passagem de fichas: teste não calibrado", "Menos de 20 pares"}, []string{"Jogo suave", "Cartas compartilhadas"}, "3 pares avaliados"},
		{"tr", []string{"Fiş aktarma: test kalibre edilmedi", "en az 20 ikili"}, []string{"Yumuşak oyun", "Paylaşılan kağıtlar"}, "3 ikili puanlandı"},
		{"es", []string{"Traspaso de fichas: prueba no calibrada", "Menos de 20 parejas"}, []string{"Juego suave", "Cartas compartidas"}, "3 parejas puntuadas"},
	} {
		var got struct {
			Summary      string   `json:"summary"`
			Uncalibrated []string `json:"uncalibrated"`
		}
		e.get("/api/integrity?lang="+c.lang, http.StatusOK, &got)
		for _, want := range c.says {
			if !strings.Contains(got.Summary, want) {
				t.Errorf("%s: the summary %q does not say %q", c.lang, got.Summary, want)
			}
		}
		for _, not := range c.never {
			if strings.Contains(got.Summary, not) {
				t.Errorf("%s: the summary %q names %q, which was not left uncalibrated", c.lang, got.Summary, not)
			}
		}
		if i := strings.Index(got.Summary, c.countsBeforeGaps); i < 0 || i > strings.Index(got.Summary, c.says[0]) {
			t.Errorf("%s: the summary %q does not give the counts (%q) before the signals not calibrated", c.lang, got.Summary, c.countsBeforeGaps)
		}
		if len(got.Uncalibrated) != 1 || got.Uncalibrated[0] != integrity.ChipDump {
			t.Errorf("%s: uncalibrated %v, want [%s]", c.lang, got.Uncalibrated, integrity.ChipDump)
		}
	}

	// Once every signal carried by a pair is calibrated, the summary names none.
	r.Pairs[0].Dumping.Signal = integrity.Signal{Z: 2.4, P: 0.016, N: 12}
	r.Pairs[1].Dumping.Signal = integrity.Signal{Z: 0.5, P: 0.6, N: 9}
	if err := projector.SaveIntegrity(context.Background(), e.db, r, time.Date(2026, 12, 2, 9, 30, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Summary      string   `json:"summary"`
		Uncalibrated []string `json:"uncalibrated"`
	}
	e.get("/api/integrity?lang=en", http.StatusOK, &got)
	if strings.Contains(got.Summary, "calibrated") || len(got.Uncalibrated) != 0 {
		t.Errorf("every signal calibrated: the summary %q, uncalibrated %v", got.Summary, got.Uncalibrated)
	}
}
