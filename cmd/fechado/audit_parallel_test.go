package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAuditParallelFindingsIdentical proves that `fechado audit --workers N` prints what
// `--workers 1` prints, byte for byte, in JSON and in the text report, with the same exit status,
// on two files read as one log: a cash session of two tables with every code injected, then a
// tournament of three tables.
func TestAuditParallelFindingsIdentical(t *testing.T) {
	dir := t.TempDir()
	cash, tour := filepath.Join(dir, "cash.jsonl"), filepath.Join(dir, "cup.jsonl")
	var cashLog strings.Builder
	for _, table := range []string{"a", "b"} {
		code, out, errOut := recRun(t, nil, "sim", "--rules", "std-draw", "--players", "5", "--hands", "60", "--seed", "3",
			"--table", "cash-"+table, "--cash", "--inject", "all")
		if code != exitOK {
			t.Fatalf("sim: %d %s", code, errOut)
		}
		cashLog.WriteString(out)
	}
	if err := os.WriteFile(cash, []byte(cashLog.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := recRun(t, nil, "sim", "--tournament", "--rules", "std-draw", "--entries", "14", "--tables", "3",
		"--seed", "4", "--inject", "all", "--out", tour); code != exitOK {
		t.Fatalf("sim --tournament: %d %s", code, errOut)
	}
	for _, mode := range [][]string{{"--json"}, {"--lang", "tr", "-v"}} {
		args := append([]string{"audit", "--workers", "1"}, append(mode, cash, tour)...)
		code1, want, _ := recRun(t, nil, args...)
		if code1 != exitFindings || strings.Count(want, "\n") < 100 || !strings.Contains(want, "tournament.") {
			t.Fatalf("%v: exit %d, %d lines: the log should have findings of every kind", args, code1, strings.Count(want, "\n"))
		}
		for _, n := range []string{"2", "3", "0"} {
			args[2] = n
			code, got, errOut := recRun(t, nil, args...)
			if code != code1 || got != want {
				t.Errorf("%v: exit %d (want %d); output identical: %t %s", args, code, code1, got == want, errOut)
			}
		}
	}
}
