package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fechado/fechado/projector"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/fechado/fechado/web"
)

// TestIntegrityFlagsPlantedSoftPlay runs the commands end to end: sim --room plants two pairs of
// soft players and writes the truth; integrity --json scores every pair and flags the planted
// ones (soft-play), and the text report says so in Portuguese with the pair's hands.
func TestIntegrityFlagsPlantedSoftPlay(t *testing.T) {
	dir := t.TempDir()
	log, truth := filepath.Join(dir, "room.jsonl"), filepath.Join(dir, "truth.jsonl")
	code, out, errOut := fechado("", "sim", "--room", "--players", "24", "--tables", "4", "--hands", "6000", "--seed", "31",
		"--colluders", "2", "--collusion", "soft-play", "--truth", truth, "--out", log)
	if code != exitOK || out != "" || errOut != "" {
		t.Fatalf("sim --room: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	b, err := os.ReadFile(truth)
	if err != nil {
		t.Fatal(err)
	}
	planted := map[[2]string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var p struct{ A, B, Kind string }
		if err := json.Unmarshal([]byte(line), &p); err != nil || p.Kind != "soft-play" {
			t.Fatalf("truth line %q: %v", line, err)
		}
		a, b := p.A, p.B
		if a > b {
			a, b = b, a
		}
		planted[[2]string{a, b}] = true
	}
	if len(planted) != 2 {
		t.Fatalf("%d pairs in the truth, want 2", len(planted))
	}

	code, out, _ = fechado("", "integrity", "--json", log)
	if code != exitFindings {
		t.Fatalf("integrity --json: exit %d, want %d (pairs flagged)", code, exitFindings)
	}
	found, clean, pairs := 0, 0, 0
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var p struct {
			A, B    string
			Score   float64
			Flagged bool
			Kind    string
			Hands   int
		}
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		pairs++
		switch {
		case planted[[2]string{p.A, p.B}] && p.Flagged:
			found++
			if p.Kind != "soft-play" || p.Score < 2 {
				t.Errorf("planted pair %s-%s: kind %q score %.1f", p.A, p.B, p.Kind, p.Score)
			}
		case p.Flagged:
			clean++
		}
		if p.Hands < 50 {
			t.Errorf("pair %s-%s scored on %d hands, fewer than 50", p.A, p.B, p.Hands)
		}
	}
	if found != 2 || clean > 0 || pairs < 100 {
		t.Errorf("%d of 2 planted pairs flagged, %d clean pairs flagged, %d pairs scored", found, clean, pairs)
	}

	code, out, _ = fechado("", "integrity", "--lang", "pt-BR", log)
	if code != exitFindings || !strings.Contains(out, "Apontado: jogo suave") || !strings.Contains(out, "Mãos: ") ||
		!strings.Contains(out, "Pares apontados: 2") {
		t.Errorf("text report in pt-BR: exit %d\n%s", code, out)
	}
}

func TestIntegrityUsage(t *testing.T) {
	for _, args := range [][]string{
		{"integrity"},
		{"integrity", "--all", "x.jsonl"},
		{"integrity", filepath.Join(t.TempDir(), "missing.jsonl")},
		{"integrity", "--lang", "xx", "-"},
		{"integrity", "--db", "x.db", "-"},
		{"serve", "--integrity", "-1h"},
	} {
		if code, _, _ := fechado("", args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
	// An empty log has no pair to flag.
	if code, out, _ := fechado("", "integrity", "-"); code != exitOK || !strings.Contains(out, "No pair is flagged.") {
		t.Errorf("empty log: exit %d, %q", code, out)
	}
}

// plantedRoom plays a room with sim --room (args add to the room's flags), writes it to
// DIR/room.jsonl and returns its path and the planted pairs, a < b, with their kind.
func plantedRoom(t *testing.T, dir string, args ...string) (string, map[[2]string]string) {
	t.Helper()
	log, truth := filepath.Join(dir, "room.jsonl"), filepath.Join(dir, "truth.jsonl")
	args = append([]string{"sim", "--truth", truth, "--out", log}, args...)
	if code, out, errOut := fechado("", args...); code != exitOK || out != "" || errOut != "" {
		t.Fatalf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
	}
	return log, readTruth(t, truth)
}

// readTruth reads sim's --truth file: the planted pairs, a < b, with their kind.
func readTruth(t *testing.T, path string) map[[2]string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	planted := map[[2]string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var p struct{ A, B, Kind string }
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			t.Fatalf("truth line %q: %v", line, err)
		}
		a, b := min(p.A, p.B), max(p.A, p.B)
		planted[[2]string{a, b}] = p.Kind
	}
	return planted
}

// integrityLines decodes integrity --json's output, one object a pair, in its order.
func integrityLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var lines []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		lines = append(lines, m)
	}
	return lines
}

// checkFound fails unless every planted pair is among the lines, flagged with its kind (the
// kinds a test plants are told apart by the analysis), and no other pair is flagged.
func checkFound(t *testing.T, what string, lines []map[string]any, planted map[[2]string]string) {
	t.Helper()
	found := 0
	for _, m := range lines {
		pair := [2]string{m["a"].(string), m["b"].(string)}
		kind, ok := planted[pair]
		switch {
		case ok && m["flagged"] == true:
			found++
			if m["kind"] != kind {
				t.Errorf("%s: planted pair %v (%s) flagged as %v", what, pair, kind, m["kind"])
			}
		case ok:
			t.Errorf("%s: planted pair %v (%s) not flagged: score %v", what, pair, kind, m["score"])
		case m["flagged"] == true:
			t.Errorf("%s: clean pair %v flagged: score %v, kind %v", what, pair, m["score"], m["kind"])
		}
	}
	if found != len(planted) {
		t.Errorf("%s: %d of the %d planted pairs flagged", what, found, len(planted))
	}
}

// TestIntegrityAllOverNATSFindsThePlantedPairs records a room with planted pairs into the log of
// an embedded NATS server (fechado record --data) and reads it back with integrity --all: the
// planted pairs are flagged, and the output is byte for byte that of integrity on the file.
func TestIntegrityAllOverNATSFindsThePlantedPairs(t *testing.T) {
	dir := t.TempDir()
	// 600 hands: small enough for the race detector; seed 5 flags its pair there (web's test).
	log, planted := plantedRoom(t, dir, "--room", "--players", "12", "--tables", "2", "--hands", "600", "--seed", "5",
		"--colluders", "1", "--collusion", "soft-play")
	data := filepath.Join(dir, "data")
	if code, _, errOut := fechado("", "record", "--data", data, log); code != exitOK {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	code, onFile, _ := fechado("", "integrity", "--json", log)
	if code != exitFindings {
		t.Fatalf("integrity --json FILE: exit %d, want %d", code, exitFindings)
	}
	code, stored, errOut := fechado("", "integrity", "--json", "--all", "--data", data)
	if code != exitFindings {
		t.Fatalf("integrity --json --all: exit %d, want %d: %s", code, exitFindings, errOut)
	}
	checkFound(t, "--all", integrityLines(t, stored), planted)
	if stored != onFile {
		t.Errorf("integrity --all over NATS (%d bytes) differs from integrity on the file (%d bytes)", len(stored), len(onFile))
	}
	if code, text, _ := fechado("", "integrity", "--all", "--data", data, "--lang", "tr"); code != exitFindings ||
		!strings.Contains(text, "İşaretlenen ikili: 1") {
		t.Errorf("integrity --all in Turkish: exit %d\n%s", code, text)
	}
}

// TestIntegrityPageShowsThePairsOfIntegrityJSON is the differential test of the one verdict:
// integrity --save stores the analysis in the read models, and the dashboard's Integrity page
// (GET /api/integrity, which reads them) gives every pair with the same fields and values, in
// the same order, as integrity --json writes them.
func TestIntegrityPageShowsThePairsOfIntegrityJSON(t *testing.T) {
	dir := t.TempDir()
	log, planted := plantedRoom(t, dir, "--room", "--players", "24", "--tables", "4", "--hands", "6000", "--seed", "47",
		"--colluders", "3")
	db := filepath.Join(dir, "read.db")
	code, out, errOut := fechado("", "integrity", "--json", "--save", "--db", db, log)
	if code != exitFindings {
		t.Fatalf("integrity --json --save: exit %d: %s", code, errOut)
	}
	lines := integrityLines(t, out)
	checkFound(t, "integrity --json", lines, planted)

	rm, err := projector.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer rm.Close()
	srv, err := web.New(web.Options{Log: recordertest.Open(t), DB: rm})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	var page struct {
		Computed bool
		Total    int
		Pairs    []map[string]any
	}
	resp, err := http.Get(ts.URL + "/api/integrity?lang=pt-BR&limit=1000")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&page); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/integrity: %d %v", resp.StatusCode, err)
	}
	if !page.Computed || page.Total != len(lines) || len(page.Pairs) != len(lines) {
		t.Fatalf("the page has %d of %d pairs (computed %v), integrity --json %d", len(page.Pairs), page.Total, page.Computed, len(lines))
	}
	for i, p := range page.Pairs {
		if p["rank"] != float64(i+1) {
			t.Errorf("pair %d of the page has rank %v", i+1, p["rank"])
		}
		for _, k := range []string{"rank", "words", "title"} { // the page's own: its order and words
			delete(p, k)
		}
		if !reflect.DeepEqual(p, lines[i]) {
			t.Errorf("pair %d: the page says\n%v\nintegrity --json says\n%v", i+1, p, lines[i])
		}
	}
}

// TestIntegrityFindsColludersInATournament: sim --tournament plants a pair of each kind among 40
// entries (--colluders, --truth, as --room does), in a long tournament (deep stacks, 4-hour
// levels: some 7,700 hands); integrity flags the three pairs, each by its kind, and no other.
func TestIntegrityFindsColludersInATournament(t *testing.T) {
	dir := t.TempDir()
	log, planted := plantedRoom(t, dir, "--tournament", "--rules", "std-draw", "--entries", "40", "--tables", "5", "--stack", "50000",
		"--level", "4h", "--seed", "4", "--colluders", "3")
	if len(planted) != 3 {
		t.Fatalf("%d pairs in the truth, want 3", len(planted))
	}
	kinds := map[string]bool{}
	for _, k := range planted {
		kinds[k] = true
	}
	if len(kinds) != 3 {
		t.Errorf("the planted kinds are %v, want one of each", kinds)
	}
	code, out, _ := fechado("", "integrity", "--json", log)
	if code != exitFindings {
		t.Fatalf("integrity --json: exit %d, want %d", code, exitFindings)
	}
	checkFound(t, "tournament", integrityLines(t, out), planted)
	// The flags go with --room or --tournament only.
	if code, _, errOut := fechado("", "sim", "--rules", "std-draw", "--players", "4", "--hands", "1", "--colluders", "1"); code != exitUsage {
		t.Errorf("sim --colluders on one table: exit %d (%s), want %d", code, errOut, exitUsage)
	}
}

// TestServeIntegrityStoresTheAnalysisForThePage: serve --integrity runs the analysis over the
// log it serves when it starts and stores it; the Integrity page then gives the room's hands and
// the planted pair flagged first, as integrity --json ranks it on the file.
func TestServeIntegrityStoresTheAnalysisForThePage(t *testing.T) {
	dir := t.TempDir()
	log, planted := plantedRoom(t, dir, "--room", "--players", "12", "--tables", "2", "--hands", "600", "--seed", "5",
		"--colluders", "1", "--collusion", "soft-play")
	data := filepath.Join(dir, "data")
	if code, _, errOut := fechado("", "record", "--data", data, log); code != exitOK {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	_, out, _ := fechado("", "integrity", "--json", log)
	lines := integrityLines(t, out)
	url, stop, _, stderr := startServer(t, "serve", "--http", "127.0.0.1:0", "--data", data, "--integrity", "1h")
	var page struct {
		Computed bool
		Hands    int
		Total    int
		Pairs    []struct {
			A, B, Kind string
			Flagged    bool
			Score      float64
		}
	}
	deadline := time.Now().Add(60 * time.Second)
	for getJSON(t, url+"api/integrity", &page); !page.Computed; getJSON(t, url+"api/integrity", &page) {
		if time.Now().After(deadline) {
			t.Fatalf("no analysis stored 60 s after serve --integrity started: %s", stderr)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if page.Hands != 600 || page.Total != len(lines) || len(page.Pairs) == 0 {
		t.Fatalf("the page: %d hands, %d pairs; integrity --json on the file: %d pairs", page.Hands, page.Total, len(lines))
	}
	top := page.Pairs[0]
	if kind, ok := planted[[2]string{top.A, top.B}]; !ok || !top.Flagged || top.Kind != kind || top.A != lines[0]["a"] || top.Score != lines[0]["score"] {
		t.Errorf("first pair of the page %+v; planted %v; integrity --json's first %v", top, planted, lines[0])
	}
	if code := stop(); code != exitOK {
		t.Fatalf("serve exited %d: %s", code, stderr)
	}
	if !strings.Contains(stderr.String(), "integrity analysis stored") {
		t.Errorf("serve's log does not say the analysis was stored: %s", stderr)
	}
}
