package web

import (
	"net/http"

	"github.com/fechado/fechado/lang"
)

// messagesView is GET /api/messages: the catalogue of one language for the pages, which fill
// the placeholders themselves (app.js's t), and the languages a reader may switch to.
type messagesView struct {
	Lang     string                 `json:"lang"`
	Name     string                 `json:"name"`
	Langs    []langView             `json:"langs"`
	Messages map[string]messageView `json:"messages"`
}

type langView struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

type messageView struct {
	One   string `json:"one,omitempty"`
	Other string `json:"other"`
}

// getMessages answers with the reader's language (?lang=, else Accept-Language, else English)
// and every one of its messages; the catalogue is small, and one answer serves every page.
func (s *Server) getMessages(w http.ResponseWriter, r *http.Request) {
	l := readerLang(r)
	v := messagesView{Lang: l.Code, Name: l.Name, Messages: make(map[string]messageView, len(lang.English().Messages))}
	for _, x := range lang.All() {
		v.Langs = append(v.Langs, langView{Code: x.Code, Name: x.Name})
	}
	for key := range lang.English().Messages {
		t := l.Text(key)
		v.Messages[key] = messageView{One: t.One, Other: t.Other}
	}
	w.Header().Set("Cache-Control", "no-cache")
	writeJSON(w, http.StatusOK, v)
}
