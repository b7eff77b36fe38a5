package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
)

// cupLog is the log of a small tournament, cup, that fechado sim --tournament writes, and its exit
// code and stderr; the tests that read it share one run.
var cupLog = sync.OnceValues(func() (string, error) {
	code, out, errOut := fechado("", "sim", "--tournament", "--rules", "std-draw", "--entries", "24", "--tables", "3", "--seed", "6", "--id", "cup")
	if code != exitOK || errOut != "" {
		return "", fmt.Errorf("sim --tournament: exit %d, stderr %q", code, errOut)
	}
	return out, nil
})

// cupAudit is fechado audit --json --tournament cup of cup's log in one file, which the tests
// compare other ways of auditing it with.
var cupAudit = sync.OnceValue(func() string {
	log, err := cupLog()
	if err != nil {
		return ""
	}
	f, err := os.CreateTemp("", "cup*.jsonl")
	if err != nil {
		return ""
	}
	defer os.Remove(f.Name())
	_, err = f.WriteString(log)
	if err := errors.Join(err, f.Close()); err != nil {
		return ""
	}
	_, out, _ := fechado("", "audit", "--json", "--tournament", "cup", f.Name())
	return out
})

// simTournament returns cup's log, and the same log split into one file per table (in dir).
func simTournament(t *testing.T, dir string) (string, []string) {
	t.Helper()
	out, err := cupLog()
	if err != nil {
		t.Fatal(err)
	}
	byTable := map[string][]string{}
	for _, line := range strings.SplitAfter(out, "\n") {
		if line == "" {
			continue
		}
		var e struct{ Table string }
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatal(err)
		}
		byTable[e.Table] = append(byTable[e.Table], line)
	}
	var files []string
	for tb, lines := range byTable {
		f := filepath.Join(dir, tb+".jsonl")
		if err := os.WriteFile(f, []byte(strings.Join(lines, "")), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	sort.Strings(files)
	return out, files
}

// fechado audit --tournament reads the tables' files as one log in time order: the same findings
// as the tournament's one log, and the standings after the report.
func TestAuditTournamentFiles(t *testing.T) {
	dir := t.TempDir()
	log, files := simTournament(t, dir)
	if len(files) < 3 {
		t.Fatalf("%d tables", len(files))
	}
	whole := filepath.Join(dir, "whole.jsonl")
	if err := os.WriteFile(whole, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	one := cupAudit()
	_, merged, _ := fechado("", append([]string{"audit", "--json", "--tournament", "cup"}, files...)...)
	if one != merged || !strings.Contains(one, `"code":"tournament.place"`) {
		t.Errorf("the tables' files merged audit differently from the whole log:\n%s\n---\n%s", merged, one)
	}
	// The standings in the reader's language: the words and the numbers' grouping.
	for _, c := range []struct {
		lang  string
		wants []string
	}{
		{"en", []string{"Tournament cup: 24 entries of 1,000 chips", "Chips on the tables: 24,000 of 24,000", "The tournament is over.", "\n1      1      "}},
		{"pt-BR", []string{"Torneio cup: 24 inscrições de 1.000 fichas", "Fichas nas mesas: 24.000 de 24.000", "O torneio terminou.", "lugar  posição jogador"}},
		{"tr", []string{"Turnuva cup: 1.000 fişle 24 kayıt", "Masalarda 24.000 fişten 24.000 fiş var.", "Turnuva bitti.", "derece sıra   oyuncu"}},
	} {
		_, text, _ := fechado("", append([]string{"audit", "--lang", c.lang, "--tournament", "cup"}, files...)...)
		for _, want := range c.wants {
			if !strings.Contains(text, want) {
				t.Errorf("%s: the report lacks %q:\n%s", c.lang, want, text)
			}
		}
	}
	// A tournament with no hand in the files is an error (exit 2, as export's), not a clean audit.
	code, other, errOut := fechado("", "audit", "--tournament", "another", whole)
	if code != exitUsage || other != "" || !strings.Contains(errOut, "no hand of tournament another is in the files") {
		t.Errorf("audit --tournament another: exit %d, stdout %q, stderr %q", code, other, errOut)
	}
}

// fechado sim --tournament checks its flags and injects tournament codes only.
func TestSimTournamentUsage(t *testing.T) {
	for _, args := range [][]string{
		{"sim", "--tournament", "--rules", "std-draw"},
		{"sim", "--tournament", "--entries", "10"},
		{"sim", "--tournament", "--rules", "std-draw", "--entries", "1"},
		{"sim", "--tournament", "--rules", "std-draw", "--entries", "10", "--inject", "pot.total"},
	} {
		if code, _, _ := fechado("", args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
	code, out, _ := fechado("", "sim", "--tournament", "--rules", "std-draw", "--entries", "24", "--tables", "3", "--seed", "6", "--id", "cup", "--inject", "all")
	if code != exitOK {
		t.Fatalf("--inject all: exit %d", code)
	}
	codes := map[string]bool{}
	for _, f := range auditLog(t, out) {
		codes[string(f.Code)] = true
	}
	for _, c := range []string{"tournament.move", "tournament.level", "tournament.chips"} {
		if !codes[c] {
			t.Errorf("--inject all: no %s found", c)
		}
	}
}

// fechado replay --tournament shows every table and the standings at a moment, the same from the
// tables' files as from the one log.
func TestReplayTournament(t *testing.T) {
	dir := t.TempDir()
	log, files := simTournament(t, dir)
	whole := filepath.Join(dir, "whole.jsonl")
	if err := os.WriteFile(whole, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	at := "2026-11-29T12:12:00Z"
	code, one, errOut := fechado("", "replay", "--tournament", "cup", "--at", at, "--json", whole)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	_, merged, _ := fechado("", append([]string{"replay", "--tournament", "cup", "--at", at, "--json"}, files...)...)
	if one != merged {
		t.Error("the tables' files give another state than the one log")
	}
	var r struct {
		InPlay    int   `json:"in_play"`
		ChipsHeld int64 `json:"chips_held"`
		ChipsMade int64 `json:"chips_made"`
		Tables    []struct {
			Players []struct{ Chips int64 }
			Running *struct{ Pot int64 }
			Carry   int64
		}
		Standings []struct{ Place int }
	}
	if err := json.Unmarshal([]byte(one), &r); err != nil {
		t.Fatal(err)
	}
	if r.ChipsHeld != 24000 || r.ChipsMade != 24000 || len(r.Tables) != 3 || len(r.Standings) != 24 {
		t.Errorf("at %s: %+v", at, r)
	}
	var sum int64
	running := 0
	for _, tb := range r.Tables {
		for _, p := range tb.Players {
			sum += p.Chips
		}
		sum += tb.Carry
		if tb.Running != nil {
			running++
		}
	}
	if sum != 24000 || running == 0 {
		t.Errorf("the tables hold %d chips between their hands, want 24000; %d hands in progress", sum, running)
	}
	_, end, _ := fechado("", "replay", "--tournament", "cup", whole)
	if !strings.Contains(end, "The tournament is over.") || !strings.Contains(end, "1 of 24 players still in") {
		t.Errorf("at the end:\n%s", end)
	}
	if code, _, _ := fechado("", "replay", "--tournament", "cup", "--at", "noon", whole); code != exitUsage {
		t.Errorf("--at noon: exit %d", code)
	}
	if code, _, _ := fechado("", "replay", "--at", at, whole); code != exitUsage {
		t.Errorf("--at TIME without --tournament: exit %d", code)
	}
}

// A tournament recorded in the log audits and replays from the store as from its file.
func TestTournamentFromStore(t *testing.T) {
	dir := t.TempDir()
	log, _ := simTournament(t, dir)
	at := "2026-11-29T12:20:00Z"
	if testing.Short() {
		// The first half hour of play, the moment replayed within it: store and file still hold
		// the same hands, a few of them cut short, at every table.
		log = logUntil(t, log, "2026-11-29T12:30:00Z")
	}
	data := filepath.Join(dir, "data")
	l := recordertest.OpenDir(t, data)
	rec := l.NewRecorder(context.Background(), recorder.RecordOptions{})
	if err := rec.AddLines(strings.NewReader(log), "cup.jsonl"); err != nil {
		t.Fatal(err)
	}
	if st, err := rec.Close(); err != nil || st.Rejected != 0 || st.Conflicts != 0 {
		t.Fatalf("recording: %+v %v", st, err)
	}
	l.Close() // the command opens the store itself
	whole := filepath.Join(dir, "whole.jsonl")
	if err := os.WriteFile(whole, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	fromFile := cupAudit()
	if testing.Short() {
		_, fromFile, _ = fechado("", "audit", "--json", "--tournament", "cup", whole)
	}
	_, fromStore, errOut := fechado("", "audit", "--json", "--tournament", "cup", "--data", data)
	if fromFile != fromStore || fromFile == "" {
		t.Errorf("the store audits otherwise (stderr %q):\n%s\n---\n%s", errOut, fromStore, fromFile)
	}
	_, r1, _ := fechado("", "replay", "--json", "--tournament", "cup", "--at", at, whole)
	_, r2, _ := fechado("", "replay", "--json", "--tournament", "cup", "--at", at, "--data", data)
	if r1 != r2 || r1 == "" {
		t.Errorf("the store replays otherwise:\n%s\n---\n%s", r2, r1)
	}
}

// logUntil returns the lines of log whose events happened before until (RFC 3339, UTC).
func logUntil(t *testing.T, log, until string) string {
	t.Helper()
	var b strings.Builder
	for _, line := range strings.SplitAfter(log, "\n") {
		if line == "" {
			continue
		}
		var e struct{ At string }
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatal(err)
		}
		if e.At < until {
			b.WriteString(line)
		}
	}
	return b.String()
}
