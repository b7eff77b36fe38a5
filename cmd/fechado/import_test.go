package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/testfiles"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
)

const importData = "../../handhistory/testdata"

// runImportCmd runs "fechado import ARGS" in-process.
func runImportCmd(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	m := &Main{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	code = m.Run(append([]string{"import"}, args...))
	return code, out.String(), errb.String()
}

// parseLines decodes JSON Lines strictly and checks the chain; it returns the events.
func parseLines(t *testing.T, s string) []*events.Event {
	t.Helper()
	r := events.NewReader(strings.NewReader(s), "out")
	chain := events.NewChain()
	var out []*events.Event
	for {
		e, err := r.Next()
		if err != nil {
			if err.Error() == "EOF" {
				return out
			}
			t.Fatalf("output line %d: %v", r.Line(), err)
		}
		if ps := chain.Check(e); len(ps) > 0 {
			t.Fatalf("output line %d: %v", r.Line(), ps)
		}
		out = append(out, e)
	}
}

func hands(evs []*events.Event) int {
	n := 0
	for _, e := range evs {
		if e.Type == events.HandStartedType {
			n++
		}
	}
	return n
}

func TestImportPokerStarsToFile(t *testing.T) {
	real := testfiles.Glob(t, "hh/*.txt")
	if len(real) != 8 {
		t.Fatalf("want the 8 real PokerStars files in testdata/hh, found %d", len(real))
	}
	files := append([]string{
		filepath.Join(importData, "pokerstars/fl-session-bom-crlf.txt"),
		filepath.Join(importData, "pokerstars/pl-hand-header-lf.txt"),
		filepath.Join(importData, "pokerstars/nl-tournament-antes.txt"),
		filepath.Join(importData, "pokerstars/fl-2009-single-zone-split.txt"),
	}, real...)
	out := filepath.Join(t.TempDir(), "hands.jsonl")
	code, stdout, stderr := runImportCmd(t, "", append([]string{"--format", "pokerstars", "--out", out}, files...)...)
	if code != exitOK || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	evs := parseLines(t, string(data))
	// fl-2009-single-zone-split.txt is the first hand of 5-Carddraw-USD-0.10-0.20-200911.txt:
	// 43 hands found, one of them twice.
	if n := hands(evs); n != 42 {
		t.Fatalf("%d hands written, want 42: %s", n, stderr)
	}
	if !strings.Contains(stderr, "Hands imported: 42 of 43.") || !strings.Contains(stderr, "taken once: 1.") {
		t.Errorf("stderr %q", stderr)
	}
	// A second import writes the same bytes: the same ids, so the log takes nothing new.
	out2 := filepath.Join(t.TempDir(), "again.jsonl")
	if code, _, stderr := runImportCmd(t, "", append([]string{"--out", out2, "--format=pokerstars"}, files...)...); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if again, _ := os.ReadFile(out2); !bytes.Equal(again, data) {
		t.Fatal("a second import differs")
	}
}

func TestImportMalformedExits2(t *testing.T) {
	code, stdout, stderr := runImportCmd(t, "", "--format", "pokerstars", filepath.Join(importData, "pokerstars/malformed.txt"))
	if code != exitUsage {
		t.Fatalf("exit %d, want 2; stderr %s", code, stderr)
	}
	if n := hands(parseLines(t, stdout)); n != 2 {
		t.Errorf("%d good hands written, want 2", n)
	}
	for _, want := range []string{"malformed.txt:32: hand 62000000002: unknown action", "malformed.txt:56: hand 62000000003: the hand is cut short"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

func TestImportPHHAndStdin(t *testing.T) {
	code, stdout, stderr := runImportCmd(t, "", "--format", "phh",
		filepath.Join(importData, "phh/fixed-showdown.phh"), filepath.Join(importData, "phh/session.phhs"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := hands(parseLines(t, stdout)); n != 4 {
		t.Errorf("%d hands, want 4", n)
	}
	lowball, err := os.ReadFile(filepath.Join(importData, "phh/lowball.phh"))
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runImportCmd(t, string(lowball), "--format", "phh", "-")
	if code != exitUsage || stdout != "" || !strings.Contains(stderr, `-:1: hand 1: variant "N2L1D"`) {
		t.Fatalf("exit %d stdout %q stderr %s", code, stdout, stderr)
	}
}

func TestImportDuplicatesAndMissing(t *testing.T) {
	f := filepath.Join(importData, "pokerstars/pl-hand-header-lf.txt")
	code, stdout, stderr := runImportCmd(t, "", "--format", "pokerstars", f, f)
	if code != exitOK || hands(parseLines(t, stdout)) != 2 || !strings.Contains(stderr, "Hands found twice and taken once: 2.") {
		t.Fatalf("exit %d stderr %s", code, stderr)
	}
	code, stdout, stderr = runImportCmd(t, "", "--format", "pokerstars", f, "no-such-file.txt")
	if code != exitUsage || hands(parseLines(t, stdout)) != 2 || !strings.Contains(stderr, "no-such-file.txt") ||
		!strings.Contains(stderr, "Files that could not be read: 1.") || strings.Contains(stderr, "Hands not imported") {
		t.Fatalf("exit %d stderr %s", code, stderr)
	}
}

// `cat *.txt | fechado import --format pokerstars -` of the eight real PokerStars files imports
// 37 of 37 hands, and the summary counts hands (issue 45: it lost 5 and said "2 hand(s) or
// file(s) skipped").
func TestImportConcatenatedFromStdin(t *testing.T) {
	var cat []byte
	for _, f := range testfiles.Glob(t, "hh/*.txt") {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cat = append(cat, data...)
	}
	code, stdout, stderr := runImportCmd(t, string(cat), "--format", "pokerstars", "-")
	if code != exitOK || hands(parseLines(t, stdout)) != 37 || !strings.Contains(stderr, "Hands imported: 37 of 37.") {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	// The summary is in the reader's language.
	_, _, stderr = runImportCmd(t, string(cat), "--format", "pokerstars", "--lang", "pt-BR", "-")
	if !strings.Contains(stderr, "Mãos importadas: 37 de 37.") {
		t.Errorf("pt-BR: %s", stderr)
	}
}

func TestImportUsage(t *testing.T) {
	f := filepath.Join(importData, "pokerstars/pl-hand-header-lf.txt")
	for _, args := range [][]string{
		{f},
		{"--format", "ohh", f},
		{"--format", "pokerstars"},
	} {
		if code, stdout, _ := runImportCmd(t, "", args...); code != exitUsage || stdout != "" {
			t.Errorf("%v: exit %d stdout %q, want 2 and nothing", args, code, stdout)
		}
	}
	if code, stdout, _ := runImportCmd(t, "", "--format", "pokerstars", "--nope", f); code != exitUsage || strings.Contains(stdout, `"hand.started"`) {
		t.Errorf("--nope: exit %d, want 2 and no events", code)
	}
	code, _, stderr := runImportCmd(t, "", "--format", "pokerstars", "--publish", "--out", "x.jsonl", f)
	if code != exitUsage || !strings.Contains(stderr, "give one of them") {
		t.Errorf("--publish --out: exit %d stderr %s", code, stderr)
	}
	code, stdout, _ := runImportCmd(t, "", "--help")
	if code != exitOK || !strings.Contains(stdout, "N2L1D") || !strings.Contains(stdout, "F5CD") {
		t.Errorf("--help: exit %d\n%s", code, stdout)
	}
}

// --publish appends through the recorder to an embedded log; a second import stores nothing new.
func TestImportPublish(t *testing.T) {
	dir := t.TempDir()
	files := []string{
		filepath.Join(importData, "pokerstars/fl-session-bom-crlf.txt"),
		filepath.Join(importData, "pokerstars/malformed.txt"),
	}
	want := 0
	for _, f := range files {
		code, stdout, stderr := runImportCmd(t, "", "--format", "pokerstars", f)
		if code != exitOK && code != exitUsage {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		want += len(parseLines(t, stdout))
	}
	code, stdout, stderr := runImportCmd(t, "", append([]string{"--format", "pokerstars", "--publish", "--data", dir}, files...)...)
	if code != exitUsage || stdout != "" {
		t.Fatalf("exit %d (want 2: malformed.txt has bad hands), stdout %q, stderr %s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, fmt.Sprintf("published %d event(s), 0 already stored", want)) {
		t.Fatalf("stderr:\n%s", stderr)
	}
	code, _, stderr = runImportCmd(t, "", "--format", "pokerstars", "--publish", "--data", dir, files[0])
	if code != exitOK || !strings.Contains(stderr, "published 0 event(s)") {
		t.Fatalf("second import: exit %d\n%s", code, stderr)
	}
	l := recordertest.OpenDir(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	n := 0
	if err := l.ReadAll(ctx, 0, func(s recorder.Stored) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	if n != want {
		t.Fatalf("%d events stored, want %d", n, want)
	}
}

// --format auto recognises the room of every example file of testdata/hh and imports all 71 of
// their hands (37 PokerStars, 3 Full Tilt, 15 OnGame, 15 Boss, 1 Merge).
func TestImportAutoEveryRoom(t *testing.T) {
	var files []string
	for _, pat := range []string{"hh/*.txt", "hh/fulltilt/*", "hh/ongame/*", "hh/boss/*", "hh/merge/*"} {
		files = append(files, testfiles.Glob(t, pat)...)
	}
	code, stdout, stderr := runImportCmd(t, "", append([]string{"--format", "auto"}, files...)...)
	if code != exitOK || hands(parseLines(t, stdout)) != 71 || !strings.Contains(stderr, "Hands imported: 71 of 71.") {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	for _, room := range []string{"pokerstars", "fulltilt", "ongame", "boss", "merge"} {
		if !strings.Contains(stderr, ": read as "+room+".") {
			t.Errorf("no file read as %s: %s", room, stderr)
		}
	}
	code, _, stderr = runImportCmd(t, "hello\n", "--format", "auto", "-")
	if code != exitUsage || !strings.Contains(stderr, "no room recognised") {
		t.Errorf("plain text: exit %d %s", code, stderr)
	}
}
