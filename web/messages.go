package web

import (
	"net/http"

	"github.com/fechado/fechado/lang"
)

// getMessages is GET /api/messages: the catalogue of the reader's language for the pages, which
// fill the placeholders themselves (app.js's t), and the languages a reader may switch to; the
// table console serves the same answer (lang.ServeMessages).
func (s *Server) getMessages(w http.ResponseWriter, r *http.Request) { lang.ServeMessages(w, r) }
