package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The API timer reads every endpoint it lists, each with its ids from what the server lists, and
// counts a failed answer as an error of its endpoint, not as a time.
func TestReadAPITimesEveryEndpoint(t *testing.T) {
	var chips atomic.Int64
	mux := http.NewServeMux()
	js := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }
	}
	mux.HandleFunc("GET /api/tables", js(`{"tables":[{"table":"T 1"}]}`))
	mux.HandleFunc("GET /api/hands", js(`{"hands":[{"hand":"h1"},{"hand":"h2"}]}`))
	mux.HandleFunc("GET /api/players", js(`{"players":[{"player":"Ana"}]}`))
	mux.HandleFunc("GET /api/tournaments", js(`{"tournaments":[]}`))
	mux.HandleFunc("GET /api/tables/{id}/chips", func(w http.ResponseWriter, r *http.Request) {
		chips.Add(1)
		if r.PathValue("id") != "T 1" {
			t.Errorf("chips of %q", r.PathValue("id"))
		}
		http.Error(w, "broken", http.StatusServiceUnavailable)
	})
	mux.HandleFunc("/", js(`{}`))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	times, err := readAPI(context.Background(), srv.URL+"/", 3, 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if times.Clients != 3 || len(times.Endpoints) < 20 {
		t.Fatalf("%d clients, %d endpoints", times.Clients, len(times.Endpoints))
	}
	for _, e := range times.Endpoints {
		if strings.Contains(e.Name, "tournaments") {
			t.Errorf("%s read with no tournament listed", e.Name)
		}
		switch {
		case strings.Contains(e.Name, "/chips"):
			if e.Count != 0 || e.Errors == 0 || int64(e.Errors) != chips.Load() || !strings.Contains(e.First, "503") {
				t.Errorf("chips: %d times, %d errors of %d requests (%q)", e.Count, e.Errors, chips.Load(), e.First)
			}
		case e.Count == 0 || e.Errors != 0 || e.P50 <= 0 || e.P99 < e.P50 || e.Max < e.P99:
			t.Errorf("%s: %+v", e.Name, e)
		}
	}
}

// The report gives each endpoint's p50, p99 and count at each size, and a size whose timer failed
// says so.
func TestReportAPITable(t *testing.T) {
	cfg, err := parseFlags([]string{"-sizes", "1000,2000"})
	if err != nil {
		t.Fatal(err)
	}
	w := &wholeProcess{cfg: cfg, sizes: []*size{
		{Nominal: 1000, Hands: 1000, API: &apiTimes{Clients: 20, Seconds: 20, Requests: 400, ServeMaxRSS: 90e6, ServeIdleHWM: 70e6, ServeCPU: 12,
			Endpoints: []apiEndpoint{{Name: "GET /api/hands", Count: 200, P50: 12.5, P99: 80, Max: 90}, {Name: "GET /metrics", Count: 198, Errors: 2, P50: 3, P99: 9}}}},
		{Nominal: 2000, Hands: 2000, APIErr: errors.New("serve did not answer")},
	}}
	rep := &report{cfg: cfg, Whole: w}
	var b strings.Builder
	rep.apiReads(func(format string, a ...any) { fmt.Fprintf(&b, format, a...) })
	md := b.String()
	for _, want := range []string{"| `GET /api/hands` | 12.5 | 80.0 | 200 | – | – | – |", "| `GET /metrics` | 3.0 | 9.0 | 198 (2 errors) |",
		"2,000 hands: **failed**: serve did not answer", "400 requests in 20 s (20/s); serve's peak memory 70 MB idle (once it answered, before the clients), 90 MB over the reads"} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %q:\n%s", want, md)
		}
	}
}
