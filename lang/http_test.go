package lang

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"testing"
)

// ServeMessages answers, at its first request and every later one, the JSON a fresh encoding of
// the language's Catalogue gives: keeping the encoded catalogue changes no byte, and each
// language gets its own.
func TestServeMessagesAnswersTheCatalogueEveryTime(t *testing.T) {
	seen := map[string]string{}
	for _, code := range Codes() {
		l, _ := Get(code)
		var want bytes.Buffer
		if err := json.NewEncoder(&want).Encode(l.Catalogue()); err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			rec := httptest.NewRecorder()
			ServeMessages(rec, httptest.NewRequest("GET", "/api/messages?lang="+code, nil))
			if got := rec.Body.String(); got != want.String() {
				t.Fatalf("%s, request %d: the answer differs from the catalogue's encoding (%d bytes, want %d)", code, i+1, len(got), want.Len())
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("%s: Content-Type %q", code, ct)
			}
		}
		if other, ok := seen[want.String()]; ok {
			t.Errorf("%s answers %s's catalogue", code, other)
		}
		seen[want.String()] = code
	}
}
