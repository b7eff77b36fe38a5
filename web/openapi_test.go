package web_test

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/sim"
	"github.com/fechado/fechado/web"
)

// apiSpec is the OpenAPI document, compiled once: its paths as patterns, and a compiler that
// knows the whole document, so that a response schema's $refs into components resolve.
var apiSpec = sync.OnceValues(func() (*openAPISpec, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(web.OpenAPI()))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(specURL, doc); err != nil {
		return nil, err
	}
	var raw struct {
		Paths map[string]map[string]struct {
			Responses map[string]struct {
				Content map[string]json.RawMessage `json:"content"`
			} `json:"responses"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(web.OpenAPI(), &raw); err != nil {
		return nil, err
	}
	s := &openAPISpec{c: c, paths: raw.Paths, schemas: map[string]*jsonschema.Schema{}}
	for p := range raw.Paths {
		re := "^" + regexp.MustCompile(`\\\{[^/]+\\\}`).ReplaceAllString(regexp.QuoteMeta(p), `[^/]+`) + "$"
		s.patterns = append(s.patterns, pathPattern{p, regexp.MustCompile(re)})
	}
	return s, nil
})

const specURL = "https://fechado.invalid/api/openapi.json"

type pathPattern struct {
	path string
	re   *regexp.Regexp
}

type openAPISpec struct {
	mu       sync.Mutex
	c        *jsonschema.Compiler
	patterns []pathPattern
	paths    map[string]map[string]struct {
		Responses map[string]struct {
			Content map[string]json.RawMessage `json:"content"`
		} `json:"responses"`
	}
	schemas map[string]*jsonschema.Schema
}

func (s *openAPISpec) schema(ptr string) (*jsonschema.Schema, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sc, ok := s.schemas[ptr]; ok {
		return sc, nil
	}
	sc, err := s.c.Compile(specURL + "#" + ptr)
	if err != nil {
		return nil, err
	}
	s.schemas[ptr] = sc
	return sc, nil
}

// pointerEscape escapes a JSON pointer token.
func pointerEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// checkAPI validates one answer of the API against the OpenAPI document: the route and method
// are documented (else the answer must be the documented Error, as for an unknown route), the
// status is one of the operation's responses (or its default), the content type is the one the
// document gives, and a JSON body validates against the response's schema.
func checkAPI(t testing.TB, method, path string, code int, contentType string, body []byte) {
	t.Helper()
	if !strings.HasPrefix(path, "/api/") {
		return
	}
	spec, err := apiSpec()
	if err != nil {
		t.Fatalf("openapi.json: %v", err)
	}
	path, _, _ = strings.Cut(path, "?")
	route := ""
	for _, p := range spec.patterns {
		if p.re.MatchString(path) && (route == "" || strings.Count(p.path, "{") < strings.Count(route, "{")) {
			route = p.path
		}
	}
	m := strings.ToLower(method)
	op, ok := spec.paths[route][m]
	ptr := "/components/schemas/Error"
	switch {
	case route == "" || !ok:
		// An undocumented route or method answers 404 or 405 with an Error.
		if code != http.StatusNotFound && code != http.StatusMethodNotAllowed {
			t.Errorf("%s %s: %d, but the route is not in openapi.json", method, path, code)
			return
		}
	default:
		status := strconv.Itoa(code)
		if _, ok := op.Responses[status]; !ok {
			status = "default"
		}
		resp, ok := op.Responses[status]
		if !ok {
			t.Errorf("%s %s: status %d is not documented", method, path, code)
			return
		}
		mt, _, _ := mime.ParseMediaType(contentType)
		if _, ok := resp.Content[mt]; !ok {
			t.Errorf("%s %s: %d answers %q, openapi.json documents %v", method, path, code, mt, keys(resp.Content))
			return
		}
		if mt != "application/json" {
			return
		}
		ptr = "/paths/" + pointerEscape(route) + "/" + m + "/responses/" + status + "/content/" + pointerEscape(mt) + "/schema"
	}
	sc, err := spec.schema(ptr)
	if err != nil {
		t.Fatalf("openapi.json %s: %v", ptr, err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		t.Errorf("%s %s: %d: not JSON: %v", method, path, code, err)
		return
	}
	if err := sc.Validate(v); err != nil {
		t.Errorf("%s %s: %d: the answer does not match openapi.json %s:\n%v", method, path, code, ptr, err)
	}
}

func keys[M ~map[string]V, V any](m M) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// The document is OpenAPI 3.1, served at /api/openapi.json as embedded, and documents every
// /api/ route the server registers (read from api.go, so a new route without documentation
// fails here).
func TestOpenAPIDocumentsEveryRoute(t *testing.T) {
	e := newEnv(t, 0)
	code, b := e.do(http.MethodGet, "/api/openapi.json", nil)
	if code != http.StatusOK || !bytes.Equal(b, web.OpenAPI()) {
		t.Fatalf("GET /api/openapi.json: %d, %d bytes", code, len(b))
	}
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(b, &doc); err != nil || doc.OpenAPI != "3.1.0" {
		t.Fatalf("openapi %q: %v", doc.OpenAPI, err)
	}
	src, err := os.ReadFile("api.go")
	if err != nil {
		t.Fatal(err)
	}
	routes := regexp.MustCompile(`HandleFunc\("(GET|POST) (/api/[^"]+)"`).FindAllStringSubmatch(string(src), -1)
	if len(routes) < 10 {
		t.Fatalf("%d routes found in api.go", len(routes))
	}
	for _, r := range routes {
		if _, ok := doc.Paths[r[2]][strings.ToLower(r[1])]; !ok {
			t.Errorf("%s %s is not in openapi.json", r[1], r[2])
		}
	}
	// And the check itself catches a wrong answer.
	ft := &fakeT{}
	checkAPI(ft, "GET", "/api/tables", 200, "application/json", []byte(`{"tables":[{"table":1}]}`))
	checkAPI(ft, "GET", "/api/hands", 418, "text/plain", []byte(`teapot`))
	if ft.errors != 2 {
		t.Errorf("checkAPI let %d of 2 wrong answers through", 2-ft.errors)
	}
}

// fakeT counts the errors checkAPI reports.
type fakeT struct {
	testing.TB
	errors int
}

func (f *fakeT) Helper()                   {}
func (f *fakeT) Errorf(string, ...any)     { f.errors++ }
func (f *fakeT) Fatalf(s string, a ...any) { f.errors++ }

// Every operation of the document answers, on a real day of play (a cash table and a
// tournament), what the document says: each documented route with real ids, and the errors of a
// few wrong requests, all checked by the request helper against openapi.json.
func TestOpenAPIEveryOperationAnswersAsDocumented(t *testing.T) {
	t.Parallel()
	d := sharedTournamentDay(t)
	e := d.e
	hand := d.cash[len(d.cash)-1].Events[0].Hand
	player := d.cash[0].Events[0].Data.(*events.HandStarted).Seats[0].Player
	mid := d.hands[len(d.hands)/2].Events[2].At
	for _, c := range []struct {
		method, path string
		want         int
	}{
		{"GET", "/api/openapi.json", 200},
		{"GET", "/api/tables", 200},
		{"GET", "/api/tables/t-cash/chips", 200},
		{"GET", "/api/tournaments", 200},
		{"GET", "/api/tournaments/" + sim.DefaultTournament, 200},
		{"GET", "/api/tournaments/" + sim.DefaultTournament + "?at=" + url.QueryEscape(mid), 200},
		{"GET", "/api/hands?limit=5", 200},
		{"GET", "/api/hands?table=t-cash&findings=0", 200},
		{"GET", "/api/hands/" + hand, 200},
		{"GET", "/api/hands/" + hand + "/replay?lang=pt-BR", 200},
		{"GET", "/api/hands/" + hand + "/replay?at=3", 200},
		{"GET", "/api/players?limit=3&sort=net&order=desc", 200},
		{"GET", "/api/players/" + url.PathEscape(player) + "/stats", 200},
		{"GET", "/api/messages?lang=tr", 200},
		{"GET", "/api/integrity?lang=pt-BR", 200},
		{"GET", "/api/integrity?limit=0", 400},
		{"GET", "/api/hands/01900000-0000-7000-8000-00000000dead", 404},
		{"GET", "/api/hands/" + hand + "/replay?at=9999", 404},
		{"GET", "/api/players?sort=nonsense", 400},
		{"GET", "/api/tournaments/nobody", 404},
		{"GET", "/api/nothing/here", 404},
		{"PUT", "/api/events", 405},
		{"POST", "/api/events", 400},
	} {
		if code, b := e.do(c.method, c.path, nil); code != c.want {
			t.Errorf("%s %s: %d %.200s, want %d", c.method, c.path, code, b, c.want)
		}
	}
}
