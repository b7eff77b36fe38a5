package web

// The routes and the answers every handler shares; the handlers are in one file per noun:
// tables.go, hands.go, players.go, tournaments.go, integrity.go, and ingest.go for POST /api/events.

import (
	"encoding/json"
	"io/fs"
	"net/http"

	"github.com/fechado/fechado/internal/webguard"
)

// Handler returns the server's HTTP handler: the pages, /api/ and /metrics, every answer with the
// security headers (webguard.Secure).
func (s *Server) Handler() http.Handler { return webguard.Secure(s.mux) }

func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /api/openapi.json", s.getOpenAPI)
	m.HandleFunc("GET /api/tables", s.getTables)
	m.HandleFunc("GET /api/tables/{id}/chips", s.getChips)
	m.HandleFunc("GET /api/tournaments", s.getTournaments)
	m.HandleFunc("GET /api/tournaments/{id}", s.getTournament)
	m.HandleFunc("GET /api/hands", s.getHands)
	m.HandleFunc("GET /api/hands/{id}", s.getHand)
	m.HandleFunc("GET /api/hands/{id}/replay", s.getReplay)
	m.HandleFunc("GET /api/players", s.getPlayers)
	m.HandleFunc("GET /api/players/{name}/stats", s.getPlayerStats)
	m.HandleFunc("GET /api/integrity", s.getIntegrity)
	m.HandleFunc("GET /api/messages", s.getMessages)
	m.HandleFunc("GET /api/events", s.serveSSE)
	m.HandleFunc("POST /api/events", s.postEvents)
	m.HandleFunc("/api/events", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", "GET, POST")
		writeError(w, http.StatusMethodNotAllowed, r.Method+" is not allowed on /api/events", nil)
	})
	m.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such API route: "+r.Method+" "+r.URL.Path, nil)
	})
	m.HandleFunc("GET /hands/{id}/report", s.getReport)
	m.Handle("GET /metrics", s.metrics.handler())
	s.transparencyRoutes(m)
	sub, _ := fs.Sub(assets, "assets")
	files := http.FileServerFS(sub)
	// A browser asks for /favicon.ico on any page that names no icon (the printed report): the
	// dashboard's SVG icon answers, so no page logs a 404.
	m.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) {
		b, _ := fs.ReadFile(sub, "favicon.svg")
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Header().Set("Cache-Control", "max-age=86400")
		w.Write(b)
	})
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		files.ServeHTTP(w, r)
	})
	s.mux = m
}

// apiError is the body of every error answer.
type apiError struct {
	Error string `json:"error"`
	// Line, Field and Hand say where a posted event went wrong, when known.
	Line  int    `json:"line,omitempty"`
	Field string `json:"field,omitempty"`
	Hand  string `json:"hand,omitempty"`
	Seq   int    `json:"seq,omitempty"`
	// Rejected lists the hands of a POST /api/events that were not appended.
	Rejected []rejection `json:"rejected,omitempty"`
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

func writeError(w http.ResponseWriter, code int, msg string, e *apiError) {
	if e == nil {
		e = &apiError{}
	}
	e.Error = msg
	writeJSON(w, code, e)
}

// storeError answers a failure of the log or the database.
func storeError(w http.ResponseWriter, err error) {
	writeError(w, http.StatusServiceUnavailable, "store: "+err.Error(), nil)
}
