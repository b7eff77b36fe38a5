package main

import (
	"encoding/csv"
	"path/filepath"
	"strings"
	"testing"
)

// Bad usage exits 2, an unreachable log 3; each command documents the log flags.
func TestLogCommandsUsage(t *testing.T) {
	// An empty log, set up: export then looks for what it does not hold.
	empty := t.TempDir()
	if code, _, stderr := recRun(t, nil, "init", "--data", empty); code != 0 {
		t.Fatalf("init: %d %s", code, stderr)
	}
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"record"}, 2, "no file to record"},
		{[]string{"record", "--data", t.TempDir(), "/no/such/file.jsonl"}, 2, "no such file"},
		{[]string{"record", "--window", "0", "x"}, 2, "--window"},
		{[]string{"record", "--user", "u", "x"}, 2, "go with --nats"},
		{[]string{"record", "--nats", "nats://127.0.0.1:1", "-"}, 3, "127.0.0.1:1"},
		{[]string{"export", "--data", t.TempDir()}, 2, "give one of"},
		{[]string{"export", "--all", "--hand", "x"}, 2, "give one of"},
		{[]string{"export", "--all", "x"}, 2, "unexpected argument"},
		{[]string{"export", "--data", empty, "--hand", "01a227c1-7c48-7c42-9370-e7acfdf6ed53"}, 2, "hand not found"},
		{[]string{"export", "--data", empty, "--table", "nobody"}, 2, "no hand of table nobody"},
		{[]string{"export", "--data", t.TempDir(), "--table", "nobody"}, 3, "does not exist"}, // never set up: nothing created
		{[]string{"verify", "--nats", "nats://127.0.0.1:1"}, 3, "127.0.0.1:1"},
		{[]string{"verify", "x"}, 2, "unexpected argument"},
	} {
		code, _, stderr := recRun(t, nil, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%v: exit %d %q, want %d and %q", tc.args, code, stderr, tc.code, tc.msg)
		}
	}
	for _, c := range []string{"record", "export", "verify"} {
		if code, out, _ := recRun(t, nil, c, "--help"); code != 0 || !strings.Contains(out, "-data") || !strings.Contains(out, "-nats") {
			t.Errorf("%s --help: exit %d\n%s", c, code, out)
		}
	}
}

// exportLog records a simulated online-draw table, a br-fechado table and an online-draw
// tournament into a fresh log and returns its directory and the hands of each.
func exportLog(t *testing.T) (data string, online, fechado, cup int) {
	t.Helper()
	dir := t.TempDir()
	data = filepath.Join(dir, "data")
	files := map[string][]string{
		"online.jsonl":  {"sim", "--rules", "online-draw", "--players", "5", "--hands", "25", "--seed", "4", "--table", "on", "--expose-rate", "0"},
		"fechado.jsonl": {"sim", "--rules", "br-fechado", "--players", "4", "--hands", "6", "--seed", "4", "--table", "br", "--expose-rate", "0"},
		"cup.jsonl":     {"sim", "--tournament", "--rules", "online-draw", "--entries", "6", "--tables", "1", "--seed", "3", "--expose-rate", "0", "--id", "cup"},
	}
	counts := map[string]int{}
	var paths []string
	for name, args := range files {
		p := filepath.Join(dir, name)
		if code, _, stderr := recRun(t, nil, append(args, "--out", p)...); code != 0 {
			t.Fatalf("%v: exit %d %s", args, code, stderr)
		}
		counts[name] = strings.Count(string(recRead(t, p)), `"type":"hand.started"`)
		paths = append(paths, p)
	}
	if code, _, stderr := recRun(t, nil, append([]string{"record", "--data", data}, paths...)...); code != 0 {
		t.Fatalf("record: exit %d %s", code, stderr)
	}
	return data, counts["online.jsonl"], counts["fechado.jsonl"], counts["cup.jsonl"]
}

// export --format pokerstars|phh writes what import reads back, hand for hand; hands of a
// preset the format cannot express are left out and named with their rule (exit 2); --tournament
// exports the hands of one tournament; the default format is still the log's JSON Lines.
func TestExportHandHistoriesImportBack(t *testing.T) {
	data, online, fechado, cup := exportLog(t)
	for _, f := range []string{"pokerstars", "phh"} {
		code, text, stderr := recRun(t, nil, "export", "--all", "--data", data, "--format", f)
		if code != exitUsage || !strings.Contains(stderr, "deck_low") || !strings.Contains(stderr, "(br-fechado)") ||
			strings.Count(stderr, "was left out") < fechado {
			t.Fatalf("%s --all: exit %d, stderr %s", f, code, stderr)
		}
		name := "-"
		code, events, stderr := recRun(t, []byte(text), "import", "--format", f, name)
		got := strings.Count(events, `"type":"hand.started"`)
		// PHH places the button and the blinds by position: a hand with a dead button or a
		// missing small blind is left out of it (named on stderr), never written wrong.
		if code != exitOK || got == 0 || got > online+cup || f == "pokerstars" && got != online+cup {
			t.Fatalf("%s: import back gives %d hands of %d (exit %d): %s", f, got, online+cup, code, stderr)
		}
	}
	code, text, stderr := recRun(t, nil, "export", "--tournament", "cup", "--data", data, "--format", "pokerstars")
	if code != exitOK || strings.Count(text, "PokerStars Hand #") != cup || !strings.Contains(text, ": Tournament #") {
		t.Fatalf("--tournament cup: exit %d, %d hands of %d: %s", code, strings.Count(text, "PokerStars Hand #"), cup, stderr)
	}
	code, jsonl, _ := recRun(t, nil, "export", "--tournament", "cup", "--data", data)
	if code != exitOK || strings.Count(jsonl, `"type":"hand.started"`) != cup || !strings.HasPrefix(jsonl, "{") {
		t.Fatalf("--tournament cup as JSON Lines: exit %d", code)
	}
	if code, _, stderr := recRun(t, nil, "export", "--tournament", "nope", "--data", data); code != exitUsage || !strings.Contains(stderr, "no hand of tournament nope") {
		t.Errorf("unknown tournament: exit %d %s", code, stderr)
	}
	if code, _, stderr := recRun(t, nil, "export", "--all", "--data", data, "--format", "ohh"); code != exitUsage || !strings.Contains(stderr, "--format must be") {
		t.Errorf("unknown format: exit %d %s", code, stderr)
	}
}

// export --format csv writes a read model of the projected log, header first, for the hands the
// filters select.
func TestExportCSVOfTheReadModels(t *testing.T) {
	data, online, _, _ := exportLog(t)
	if code, stderr := projRun(t, "project", "--data", data); code != 0 {
		t.Fatalf("project: exit %d %s", code, stderr)
	}
	code, out, stderr := recRun(t, nil, "export", "--table", "on", "--data", data, "--format", "csv")
	if code != exitOK {
		t.Fatalf("exit %d %s", code, stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) != online+1 || recs[0][1] != "hand_id" || recs[0][2] != "table_id" {
		t.Fatalf("hands view: %d rows (want %d and a header), %v, header %v", len(recs), online, err, recs[0])
	}
	for _, r := range recs[1:] {
		if r[2] != "on" {
			t.Fatalf("a hand of table %s", r[2])
		}
	}
	code, out, _ = recRun(t, nil, "export", "--hand", recs[1][1], "--data", data, "--format", "csv", "--view", "players")
	players, _ := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != exitOK || len(players) < 3 || players[0][3] != "player" || players[1][2] != recs[1][1] {
		t.Fatalf("players view of one hand: exit %d %v", code, players)
	}
	if code, _, stderr := recRun(t, nil, "export", "--all", "--data", t.TempDir(), "--format", "csv"); code != exitUsage || !strings.Contains(stderr, "fechado project") {
		t.Errorf("no read models: exit %d %s", code, stderr)
	}
}
