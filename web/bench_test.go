package web_test

import (
	"bytes"
	"net/http"
	"testing"
	"time"

	"github.com/fechado/fechado/sim"
)

// BenchmarkPostEvents measures POST /api/events: one request per simulated hand, validated and
// appended to an embedded log, reporting events appended per second.
func BenchmarkPostEvents(b *testing.B) {
	e := newEnv(b, 0)
	hs := simulatedB(b, sim.Config{Rules: "br-fechado", Players: 4, Hands: 1 << 20, Seed: 99, Table: "bench", ExposeRate: -1})
	events := 0
	start := time.Now()
	i := 0
	for b.Loop() {
		h, err := hs.Next()
		if err != nil {
			b.Fatal(err)
		}
		body := jsonl(h.Events)
		resp, err := http.Post(e.ts.URL+"/api/events", "application/x-ndjson", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("hand %d: %d", i, resp.StatusCode)
		}
		events += len(h.Events)
		i++
	}
	b.ReportMetric(float64(events)/time.Since(start).Seconds(), "events/s")
}

// BenchmarkReplay measures GET /api/hands/{id}/replay (every step of a finished hand, with
// its findings), reporting steps served per second.
func BenchmarkReplay(b *testing.B) {
	e := newEnv(b, 0)
	s := simulatedB(b, sim.Config{Rules: "std-draw", Players: 4, Hands: 1, Seed: 98, Table: "bench", ExposeRate: -1})
	h, err := s.Next()
	if err != nil {
		b.Fatal(err)
	}
	resp, err := http.Post(e.ts.URL+"/api/events", "application/x-ndjson", bytes.NewReader(jsonl(h.Events)))
	if err != nil {
		b.Fatal(err)
	}
	resp.Body.Close()
	e.waitProjected()
	url := e.ts.URL + "/api/hands/" + h.Events[0].Hand + "/replay"
	start, steps := time.Now(), 0
	for b.Loop() {
		resp, err := http.Get(url)
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("%d", resp.StatusCode)
		}
		steps += len(h.Events)
	}
	b.ReportMetric(float64(steps)/time.Since(start).Seconds(), "steps/s")
}

func simulatedB(b *testing.B, cfg sim.Config) *sim.Sim {
	b.Helper()
	s, err := sim.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	return s
}
