package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
