package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// report writes one self-contained page for a hand of a file, in the language asked for.
func TestReportCommand(t *testing.T) {
	dir := t.TempDir()
	code, log, _ := fechado("", "sim", "--rules", "br-fechado", "--players", "4", "--hands", "3")
	if code != exitOK {
		t.Fatalf("sim exit %d", code)
	}
	file := filepath.Join(dir, "sim.jsonl")
	if err := os.WriteFile(file, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	first := log[strings.Index(log, `"hand":"`)+8:]
	hand := first[:strings.IndexByte(first, '"')]
	out := filepath.Join(dir, "r.html")
	if code, _, errOut := fechado("", "report", file, "--hand", hand, "--lang", "pt-BR", "--out", out); code != exitOK {
		t.Fatalf("report exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, want := range []string{`<html lang="pt-BR">`, "Relatório de disputa", "Pôquer Fechado (Brasil)", "<svg class=\"table\""} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, "http://") || strings.Contains(page, "https://") {
		t.Error("the page refers to the network")
	}
	if code, stdout, _ := fechado("", "report", file, "--hand", hand); code != exitOK || !strings.Contains(stdout, "Dispute report") {
		t.Errorf("report to stdout: exit %d", code)
	}
	for _, args := range [][]string{
		{"report", file},
		{"report", file, "--hand", "nope"},
		{"report", file, "--hand", hand, "--lang", "xx"},
	} {
		if code, _, _ := fechado("", args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}
