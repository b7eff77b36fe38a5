package web

import (
	_ "embed"
	"net/http"
)

// openAPI is the OpenAPI 3.1 document of the API (openapi.json): every route of routes() under
// /api/, its parameters and the JSON Schema (2020-12) of its answers. The API tests check every
// answer they get against it (openapi_test.go), so it cannot drift from the handlers unseen.
//
//go:embed openapi.json
var openAPI []byte

// OpenAPI returns the OpenAPI 3.1 document of the API, as GET /api/openapi.json serves it.
func OpenAPI() []byte { return openAPI }

// getOpenAPI is GET /api/openapi.json.
func (s *Server) getOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.Write(openAPI)
}
