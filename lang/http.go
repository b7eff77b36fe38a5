package lang

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sync"
)

// Catalogue is one language's messages as the pages read them (GET /api/messages, the console's
// /console/api/messages): the pages fill the placeholders themselves, picking the plural form
// and writing numbers in the locale, and list the languages a reader may switch to.
type Catalogue struct {
	Lang     string                 `json:"lang"`
	Name     string                 `json:"name"`
	Langs    []LangName             `json:"langs"`
	Messages map[string]CatalogText `json:"messages"`
}

// LangName is a language a reader may switch to, in its own words.
type LangName struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

// CatalogText is one message of a Catalogue: its forms by CLDR plural category (the names
// Intl.PluralRules gives), those it has besides other.
type CatalogText struct {
	Zero  string `json:"zero,omitempty"`
	One   string `json:"one,omitempty"`
	Two   string `json:"two,omitempty"`
	Few   string `json:"few,omitempty"`
	Many  string `json:"many,omitempty"`
	Other string `json:"other"`
}

// Catalogue returns every message of l (English's where l lacks one) and the languages.
func (l *Lang) Catalogue() Catalogue {
	c := Catalogue{Lang: l.Code, Name: l.Name, Messages: make(map[string]CatalogText, len(English().Messages))}
	for _, x := range All() {
		c.Langs = append(c.Langs, LangName{Code: x.Code, Name: x.Name})
	}
	for key := range English().Messages {
		c.Messages[key] = CatalogText(l.Text(key))
	}
	return c
}

// FromRequest returns the reader's language of an HTTP request: ?lang=, else the first of
// Accept-Language fechado speaks, else English.
func FromRequest(r *http.Request) *Lang {
	if l, ok := Get(r.URL.Query().Get("lang")); ok {
		return l
	}
	l, _ := FromAccept(r.Header.Get("Accept-Language"))
	return l
}

// ServeMessages answers a page's request for its words: the Catalogue of the reader's language
// (FromRequest). The catalogue is small, and one answer serves every page.
func ServeMessages(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(encodedCatalogue(FromRequest(r)))
}

// catalogues holds each language's Catalogue as JSON, encoded at its first request: a
// language's messages do not change while the program runs, and encoding all of them (84 KB in
// Portuguese, the keys of a map sorted) for every page's request was a twentieth of serve's CPU
// under the web API's whole mix of reads (BENCHMARKS.md, nineteenth session).
var catalogues sync.Map // *Lang → []byte

// encodedCatalogue returns l's Catalogue as JSON, a line, as json.Encoder writes it.
func encodedCatalogue(l *Lang) []byte {
	if b, ok := catalogues.Load(l); ok {
		return b.([]byte)
	}
	var buf bytes.Buffer
	_ = json.NewEncoder(&buf).Encode(l.Catalogue()) // strings and slices: no error
	b, _ := catalogues.LoadOrStore(l, buf.Bytes())
	return b.([]byte)
}
