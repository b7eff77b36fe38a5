package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer that a running command writes while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var urlLine = regexp.MustCompile(`web interface on (http://127\.0\.0\.1:\d+/)`)

// startServer runs "fechado args…" in-process until the returned stop is called; it waits for
// the URL the command prints first and returns it, the exit code channel and the streams.
func startServer(t *testing.T, args ...string) (url string, stop func() int, stdout, stderr *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	old := serveContext
	serveContext = func() (context.Context, context.CancelFunc) { return ctx, cancel }
	t.Cleanup(func() { serveContext = old })
	stdout, stderr = &syncBuffer{}, &syncBuffer{}
	m := &Main{Stdin: strings.NewReader(""), Stdout: stdout, Stderr: stderr}
	done := make(chan int, 1)
	go func() { done <- m.Run(args) }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if m := urlLine.FindStringSubmatch(stdout.String()); m != nil {
			url = m[1]
			break
		}
		select {
		case code := <-done:
			t.Fatalf("%v exited %d before serving: %s", args, code, stderr)
		default:
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("%v printed no URL within 30 s: %s", args, stderr)
		}
		time.Sleep(5 * time.Millisecond)
	}
	var once sync.Once
	code := -1
	stop = func() int {
		once.Do(func() {
			cancel()
			select {
			case code = <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("the server did not stop within 30 s")
			}
		})
		return code
	}
	t.Cleanup(func() { stop() })
	return url, stop, stdout, stderr
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, b)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

func TestServe(t *testing.T) {
	dir := t.TempDir()
	url, stop, stdout, stderr := startServer(t, "serve", "--http", "127.0.0.1:0", "--data", dir)
	if !strings.HasPrefix(stdout.String(), "fechado: web interface on ") {
		t.Errorf("the URL is not printed first: %q", stdout)
	}
	hand := `{"id":"01900000-0000-7000-8000-00000000a001","table":"cli","hand":"01900000-0000-7000-8000-0000000000h1","seq":1,"at":"2026-11-29T12:00:00Z","type":"hand.started","data":{}}`
	resp, err := http.Post(url+"api/events", "application/x-ndjson", strings.NewReader(hand))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnprocessableEntity && resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a bad event: %d, want 4xx", resp.StatusCode)
	}
	var tables struct {
		Tables []any `json:"tables"`
	}
	getJSON(t, url+"api/tables", &tables)
	if tables.Tables == nil || len(tables.Tables) != 0 {
		t.Errorf("tables of an empty log: %+v", tables)
	}
	if code := stop(); code != exitOK {
		t.Fatalf("serve exited %d: %s", code, stderr)
	}
	if !strings.Contains(stderr.String(), "shutting down") {
		t.Errorf("stderr: %q", stderr)
	}
	if _, err := http.Get(url + "api/tables"); err == nil {
		t.Error("the server still answers after shutdown")
	}
	// The data folder holds the log and the read models, and opens again.
	if matches, _ := filepath.Glob(filepath.Join(dir, "fechado.db")); len(matches) != 1 {
		t.Errorf("no read models in %s", dir)
	}
	_, stop2, _, stderr2 := startServer(t, "serve", "--http", "127.0.0.1:0", "--data", dir)
	if code := stop2(); code != exitOK {
		t.Fatalf("second serve exited %d: %s", code, stderr2)
	}
}

func TestServeUsage(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "--http", "256.1.1.1:99999"},
		{"serve", "extra"},
		{"serve", "--nope"},
		{"serve", "--creds", "x.creds"},
		{"serve", "--nats", "nats://127.0.0.1:1", "--nats-listen", "127.0.0.1:0"},
		{"demo", "--players", "1"},
		{"demo", "--min-delay", "2s", "--max-delay", "1s"},
	} {
		var out, errb bytes.Buffer
		m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
		if code := m.Run(args); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, exitUsage, errb.String())
		}
	}
	var out bytes.Buffer
	m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: io.Discard}
	if code := m.Run([]string{"serve", "--help"}); code != exitOK || !strings.Contains(out.String(), "--http") {
		t.Errorf("serve --help: %d %s", code, out.String())
	}
}

func TestDemo(t *testing.T) {
	url, stop, stdout, stderr := startServer(t, "demo", "--http", "127.0.0.1:0", "--min-delay", "1ms", "--max-delay", "3ms", "--seed", "3")
	if !strings.HasPrefix(stdout.String(), "fechado: web interface on ") {
		t.Errorf("the URL is not printed first: %q", stdout)
	}
	// Every preset's table and the irregular one play; the auditor flags an injected hand.
	deadline := time.Now().Add(40 * time.Second)
	for {
		var hands struct {
			Hands []struct {
				Table string `json:"table"`
				Ended bool   `json:"ended"`
				Audit string `json:"audit"`
			} `json:"hands"`
		}
		getJSON(t, url+"api/hands?limit=1000", &hands)
		tables := map[string]bool{}
		flagged := false
		for _, h := range hands.Hands {
			if h.Ended {
				tables[h.Table] = true
			}
			if h.Table == "demo-irregular" && h.Audit == "error" {
				flagged = true
			}
		}
		if len(tables) == 6 && flagged {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 40 s: hands ended at %v, irregular hand flagged %v; stderr %s", tables, flagged, stderr)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if code := stop(); code != exitOK {
		t.Fatalf("demo exited %d: %s", code, stderr)
	}
	m := regexp.MustCompile(` data=(\S+)`).FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("stderr names no data folder: %s", stderr)
	}
	if matches, _ := filepath.Glob(m[1]); len(matches) != 0 {
		t.Errorf("the demo's temporary folder %s is left behind", m[1])
	}
}
