package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
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

// report reads a stored hand as it reads a file: the same page.
func TestReportStored(t *testing.T) {
	code, log, _ := fechado("", "sim", "--rules", "tr-kapali", "--players", "3", "--hands", "2")
	if code != exitOK {
		t.Fatalf("sim exit %d", code)
	}
	dir := t.TempDir()
	l := recordertest.OpenDir(t, dir)
	rec := l.NewRecorder(context.Background(), recorder.RecordOptions{})
	if err := rec.AddLines(strings.NewReader(log), "sim"); err != nil {
		t.Fatal(err)
	}
	if st, err := rec.Close(); err != nil || st.Rejected != 0 {
		t.Fatalf("recording: %+v %v", st, err)
	}
	l.Close()
	file := filepath.Join(t.TempDir(), "sim.jsonl")
	if err := os.WriteFile(file, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	first := log[strings.Index(log, `"hand":"`)+8:]
	hand := first[:strings.IndexByte(first, '"')]
	code, stored, errOut := fechado("", "report", "--hand", hand, "--lang", "tr", "--data", dir)
	if code != exitOK {
		t.Fatalf("stored report: exit %d: %s", code, errOut)
	}
	_, fromFile, _ := fechado("", "report", file, "--hand", hand, "--lang", "tr")
	// The two differ only in the time each was prepared.
	prepared := regexp.MustCompile(`kayıtlı günlükten [^<]* tarihinde`)
	if a, b := prepared.ReplaceAllString(stored, ""), prepared.ReplaceAllString(fromFile, ""); a != b || !strings.Contains(a, "Kapalı Poker") {
		t.Errorf("the stored hand's report differs from the file's")
	}
}
