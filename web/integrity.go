package web

import (
	"database/sql"
	"errors"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/text/message"

	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/projector"
)

// The Integrity page (docs/integrity.md): the pairs of players the last integrity analysis
// scored, strongest evidence first, in the reader's words, and a graph of who plays with whom.
// The analysis is not the web server's: `fechado integrity --all --save` or `fechado serve
// --integrity` runs audit/integrity over the whole log and stores its verdict in the read models
// (projector.SaveIntegrity); this page reads that verdict and says when it was computed.

// IntegrityLimit is the number of pairs a page of /api/integrity gives by default.
const IntegrityLimit = 50

// graphPlayers bounds the players the graph draws: those of the strongest pairs, in rank order.
const graphPlayers = 24

// integrityPairView is a stored pair as the page shows it: the pair as `fechado integrity
// --json` writes it (the same fields, the same values), its rank, and its words.
type integrityPairView struct {
	projector.IntegrityPair
	Words projector.IntegrityWords `json:"words"`
	// Title is the pair's line: rank, players, score and hands together.
	Title string `json:"title"`
}

// integrityView is the answer of GET /api/integrity.
type integrityView struct {
	// Computed is false until an analysis was stored; Summary then says how to run one.
	Computed   bool    `json:"computed"`
	ComputedAt string  `json:"computed_at,omitempty"`
	Hands      int     `json:"hands"`
	Known      int     `json:"known"`
	Players    int     `json:"players"`
	Flagged    int     `json:"flagged"`
	Threshold  float64 `json:"threshold"`
	Summary    string  `json:"summary"`
	// Uncalibrated lists the signals (soft-play, chip-dump, share-cards) the analysis could not
	// calibrate, too few pairs carrying them: they flag no pair, and Summary says so.
	Uncalibrated []string            `json:"uncalibrated,omitempty"`
	Total        int                 `json:"total"`
	Limit        int                 `json:"limit"`
	Offset       int                 `json:"offset"`
	Pairs        []integrityPairView `json:"pairs"`
	// HandTitles names each evidence hand of the page's pairs that the read models hold by its
	// table and number, for its link: an id names no hand a reader knows.
	HandTitles map[string]string `json:"hand_titles"`
	Graph      template.HTML     `json:"graph"`
}

// getIntegrity is GET /api/integrity?lang=&tz=&limit=&offset=: the last integrity analysis
// stored, a page of its pairs strongest first (Total: every pair scored), each with its words in
// the reader's language, and the graph of the strongest pairs' players.
func (s *Server) getIntegrity(w http.ResponseWriter, r *http.Request) {
	pg, bad := pageOf(r, IntegrityLimit)
	if bad != nil {
		writeError(w, http.StatusBadRequest, bad.Error, bad)
		return
	}
	loc, ok := readerZone(w, r)
	if !ok {
		return
	}
	l := readerLang(r)
	ctx := r.Context()
	run, err := projector.ReadIntegrityRun(ctx, s.db)
	if err != nil {
		storeError(w, err)
		return
	}
	out := integrityView{Limit: pg.Limit, Offset: pg.Offset, Pairs: []integrityPairView{}, HandTitles: map[string]string{}}
	if run == nil {
		out.Summary = l.T("web.integrity.never", nil)
		writeJSON(w, http.StatusOK, out)
		return
	}
	pr := message.NewPrinter(l.Tag)
	out.Computed, out.ComputedAt = true, run.At.UTC().Format(time.RFC3339)
	out.Hands, out.Known, out.Players, out.Flagged, out.Threshold, out.Total = run.Hands, run.Known, run.Players, run.Flagged, run.Threshold, run.Pairs
	out.Summary = l.T("web.integrity.computed", lang.Args{"date": l.DateTime(run.At.In(loc)), "hands": run.Hands, "known": run.Known,
		"players": run.Players, "pairs": run.Pairs, "flagged": run.Flagged, "threshold": pr.Sprintf("%.0f", run.Threshold),
		"q": l.Percent(run.Q)})
	// A signal that could not be calibrated flags nobody: the summary says so, or a reader takes
	// its silence for a clean room (each pair's words say it too, but only of that pair).
	gaps, err := projector.IntegrityGaps(ctx, s.db)
	if err != nil {
		storeError(w, err)
		return
	}
	for _, g := range gaps {
		out.Summary += " " + g.Words(l)
		out.Uncalibrated = append(out.Uncalibrated, string(g))
	}
	pairs, err := projector.IntegrityPairs(ctx, s.db, pg.Limit, pg.Offset)
	if err != nil {
		storeError(w, err)
		return
	}
	for _, p := range pairs {
		v := integrityPairView{IntegrityPair: p, Words: p.Words(l),
			Title: l.T("integrity.pair", lang.Args{"rank": p.Rank, "a": p.A, "b": p.B, "score": pr.Sprintf("%.1f", p.Score), "hands": p.Hands})}
		for _, r := range v.Words.Reasons {
			for _, h := range r.Hands {
				if _, ok := out.HandTitles[h]; ok {
					continue
				}
				row, err := projector.Hand(ctx, s.db, h)
				switch {
				case errors.Is(err, sql.ErrNoRows):
					// Analysed from a file the log does not hold: the link names it by its id.
				case err != nil:
					storeError(w, err)
					return
				default:
					out.HandTitles[h] = l.T("web.hands.title.one", lang.Args{"table": row.Table, "number": row.Number})
				}
			}
		}
		out.Pairs = append(out.Pairs, v)
	}
	top, err := projector.IntegrityPairs(ctx, s.db, graphPlayers, 0)
	if err != nil {
		storeError(w, err)
		return
	}
	var names []string
	seen := map[string]bool{}
	for _, p := range top {
		for _, n := range []string{p.A, p.B} {
			if !seen[n] && len(names) < graphPlayers {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	edges, err := projector.IntegrityAmong(ctx, s.db, names)
	if err != nil {
		storeError(w, err)
		return
	}
	out.Graph = integrityGraph(l, names, edges)
	writeJSON(w, http.StatusOK, out)
}

// integrityGraph draws who plays with whom: the players on a circle, in the order of the pairs'
// ranks (a pair's players side by side), a line between two of them for every pair scored, as
// wide as their hands together; a flagged pair's line is red and drawn on top. Each player links
// to his page (so the drawing is a group, not an image: an image holds no link). The drawing is
// inline SVG, with no script (the dashboard's CSP).
func integrityGraph(l *lang.Lang, names []string, edges []projector.IntegrityPair) template.HTML {
	const w, h, cx, cy, r = 640.0, 520.0, 320.0, 260.0, 200.0
	esc := template.HTMLEscapeString
	pr := message.NewPrinter(l.Tag)
	var b strings.Builder
	title := l.T("web.integrity.graph", nil)
	fmt.Fprintf(&b, `<svg class="igraph" viewBox="0 0 %.0f %.0f" role="group" aria-labelledby="igraph-title" xmlns="http://www.w3.org/2000/svg">`, w, h)
	fmt.Fprintf(&b, `<title id="igraph-title">%s</title>`, esc(title))
	if len(names) == 0 {
		b.WriteString(`</svg>`)
		return template.HTML(b.String())
	}
	at := map[string][2]float64{}
	for i, n := range names {
		a := -math.Pi/2 + 2*math.Pi*float64(i)/float64(len(names))
		at[n] = [2]float64{cx + r*math.Cos(a), cy + r*math.Sin(a)}
	}
	most := 1
	for _, e := range edges {
		most = max(most, e.Hands)
	}
	// Unflagged first, so that the flagged lines are drawn over them.
	for _, flagged := range []bool{false, true} {
		for _, e := range edges {
			if e.Flagged != flagged {
				continue
			}
			p, q := at[e.A], at[e.B]
			width := 0.5 + 5.5*float64(e.Hands)/float64(most)
			colour, opacity := "#6b7280", 0.45
			if flagged {
				colour, opacity = "#c62828", 0.95
			}
			tip := l.T("integrity.pair", lang.Args{"rank": e.Rank, "a": e.A, "b": e.B, "score": pr.Sprintf("%.1f", e.Score), "hands": e.Hands})
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-opacity="%.2f" stroke-width="%.1f"`,
				p[0], p[1], q[0], q[1], colour, opacity, width)
			if flagged {
				b.WriteString(` class="flagged"`)
			}
			fmt.Fprintf(&b, `><title>%s</title></line>`, esc(tip))
		}
	}
	for i, n := range names {
		p := at[n]
		// The label goes outside the circle, beyond the player's point: to its right on the
		// right half, to its left on the left half, above or below it at the top and bottom.
		a := -math.Pi/2 + 2*math.Pi*float64(i)/float64(len(names))
		lx, ly := cx+(r+12)*math.Cos(a), cy+(r+12)*math.Sin(a)+4
		anchor := "middle"
		switch c := math.Cos(a); {
		case c > 0.3:
			anchor = "start"
		case c < -0.3:
			anchor = "end"
		case math.Sin(a) < 0:
			ly -= 6
		default:
			ly += 8
		}
		fmt.Fprintf(&b, `<a href="#/player/%s"><circle cx="%.1f" cy="%.1f" r="6" fill="#0b6bcb"/><text x="%.1f" y="%.1f" text-anchor="%s" font-size="13" fill="currentColor">%s</text></a>`,
			esc(url.PathEscape(n)), p[0], p[1], lx, ly, anchor, esc(n))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}
