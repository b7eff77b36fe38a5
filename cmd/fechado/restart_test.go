package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/sim"
)

// shownHand is an ended hand as the API shows it: its row in the list (audit badge, codes) and
// its findings.
type shownHand struct {
	Row      json.RawMessage
	Findings []json.RawMessage
}

// endedHands returns every ended hand the server at url lists, with its findings, by hand id.
func endedHands(t *testing.T, url string) map[string]shownHand {
	t.Helper()
	var list struct {
		Hands []json.RawMessage `json:"hands"`
	}
	getJSON(t, url+"api/hands?limit=1000", &list)
	out := map[string]shownHand{}
	for _, row := range list.Hands {
		var h struct {
			Hand  string `json:"hand"`
			Ended bool   `json:"ended"`
		}
		if err := json.Unmarshal(row, &h); err != nil {
			t.Fatal(err)
		}
		if !h.Ended {
			continue
		}
		var one struct {
			Findings []json.RawMessage `json:"findings"`
		}
		getJSON(t, url+"api/hands/"+h.Hand, &one)
		out[h.Hand] = shownHand{Row: row, Findings: one.Findings}
	}
	return out
}

// metric returns the value of a counter or gauge at url's /metrics: name is the series as
// /metrics writes it, labels and all.
func metric(t *testing.T, url, name string) int {
	t.Helper()
	v, ok := metricIn(t, url, name)
	if !ok {
		t.Fatalf("/metrics has no %s", name)
	}
	return v
}

// metricOr is metric, or def when /metrics has no such series (yet).
func metricOr(t *testing.T, url, name string, def int) int {
	t.Helper()
	if v, ok := metricIn(t, url, name); ok {
		return v
	}
	return def
}

func metricIn(t *testing.T, url, name string) (int, bool) {
	t.Helper()
	resp, err := http.Get(url + "metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` (\S+)$`).FindSubmatch(b)
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(string(m[1]), 64)
	if err != nil {
		t.Fatal(err)
	}
	return int(v), true
}

// caughtUp waits until the server at url has projected everything its log holds.
func caughtUp(t *testing.T, url string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for metric(t, url, "fechado_projector_lag_events") != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the projector did not catch up within 30 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// endedInDB counts the hands the read models at path hold as ended.
func endedInDB(t *testing.T, path string) int {
	t.Helper()
	db := openReadModels(t, path)
	defer db.Close() // before serve opens it again
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM hands WHERE end_seq IS NOT NULL`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestServeRestartKeepsFindings stops the demo mid-play and starts serve again on its data: every
// hand shows the same findings, table.* included, and the auditor of the new process audits only
// the hands that ended after the old one's last commit, each once (fechado_hands_audited_total).
func TestServeRestartKeepsFindings(t *testing.T) {
	if testing.Short() {
		t.Skip("plays the demo for a few seconds")
	}
	dir := t.TempDir()
	url, stop, _, stderr := startServer(t, "demo", "--http", "127.0.0.1:0", "--data", dir,
		"--min-delay", "1ms", "--max-delay", "3ms", "--seed", "5")
	// A table whose dealer does not move as the preset says: table.* findings, which need the
	// hand before, besides the demo's irregular table.
	hs, err := sim.All(sim.Config{Rules: "br-fechado", Players: 4, Hands: 6, Seed: 71, Table: "restart-dealer",
		ExposeRate: -1, Inject: []finding.Code{finding.TableDealer}})
	if err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	for _, h := range hs {
		if err := sim.WriteHand(&body, h); err != nil {
			t.Fatal(err)
		}
	}
	resp, err := http.Post(url+"api/events", "application/x-ndjson", &body)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /api/events: %d", resp.StatusCode)
	}
	deadline := time.Now().Add(40 * time.Second)
	var before map[string]shownHand
	for {
		before = endedHands(t, url)
		codes := map[string]bool{}
		for _, h := range before {
			for _, f := range h.Findings {
				var c struct {
					Code string `json:"code"`
				}
				json.Unmarshal(f, &c)
				codes[c.Code] = true
			}
		}
		if codes[string(finding.TableDealer)] && len(codes) >= 3 && len(before) >= 30 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 40 s: %d hands ended, codes found %v; stderr %s", len(before), codes, stderr)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if code := stop(); code != exitOK {
		t.Fatalf("demo exited %d: %s", code, stderr)
	}
	dbPath := filepath.Join(dir, "fechado.db")
	endedBefore := endedInDB(t, dbPath)

	url2, stop2, _, stderr2 := startServer(t, "serve", "--http", "127.0.0.1:0", "--data", dir)
	caughtUp(t, url2)
	after := endedHands(t, url2)
	for id, h := range before {
		if !reflect.DeepEqual(h, after[id]) {
			t.Errorf("hand %s: findings before the restart %s, after %s", id, h.Findings, after[id].Findings)
		}
	}
	// The counter moves just after the commit the lag is read from. A last hand, of a table of its
	// own, with a finding the demo's tables never give (deck.commitment): the projector reports
	// what it audited in the stream's order, so once that finding is counted every hand before it
	// has been counted too.
	want := len(after) - endedBefore + 1
	last, err := sim.All(sim.Config{Rules: "br-fechado", Players: 4, Hands: 1, Seed: 72, Table: "restart-last",
		ExposeRate: -1, Inject: []finding.Code{finding.DeckCommitment}})
	if err != nil {
		t.Fatal(err)
	}
	body.Reset()
	if err := sim.WriteHand(&body, last[0]); err != nil {
		t.Fatal(err)
	}
	if resp, err = http.Post(url2+"api/events", "application/x-ndjson", &body); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	const lastFound = `fechado_findings_total{code="deck.commitment",severity="error"}`
	deadline = time.Now().Add(10 * time.Second)
	for metricOr(t, url2, lastFound, 0) < 1 {
		if time.Now().After(deadline) {
			t.Fatalf("the last hand's finding not counted after 10 s: %s", stderr2)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := metric(t, url2, "fechado_hands_audited_total"); got != want {
		t.Errorf("the restarted server audited %d hands; %d ended after the last commit before the restart (%d in all), and one more after it",
			got, want-1, len(after))
	}
	if code := stop2(); code != exitOK {
		t.Fatalf("serve exited %d: %s", code, stderr2)
	}
}
