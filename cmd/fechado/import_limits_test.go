package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fechado/fechado/handhistory"
	"github.com/fechado/fechado/internal/testfiles"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
)

// The input limits of import (docs/security.md, "Input limits"): an input over 16 MiB, or
// nested over 64 deep, is refused whole, naming the file (and line) and the limit in the reader's
// language, in bounded memory; nothing of it is written or published, the other files are.

// importRealSession is the real 30-hand PokerStars session of testdata/hh.
func importRealSession(t *testing.T) string {
	return testfiles.Glob(t, "hh/5-Carddraw-USD-0.10-0.20-200911.txt")[0]
}

// writeOversize writes blank lines then the real session, one byte over handhistory.MaxInput,
// and returns its path and bytes: under the limit its hands would import.
func writeOversize(t *testing.T, dir string) (string, []byte) {
	t.Helper()
	real, err := os.ReadFile(importRealSession(t))
	if err != nil {
		t.Fatal(err)
	}
	pad := handhistory.MaxInput + 1 - len(real)
	data := append(bytes.Repeat(append(bytes.Repeat([]byte(" "), 64<<10-1), '\n'), pad/(64<<10)+1)[:pad], real...)
	path := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, data
}

// storedEvents counts the events of the embedded log in dir.
func storedEvents(t *testing.T, dir string) int {
	t.Helper()
	l := recordertest.OpenDir(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	n := 0
	if err := l.ReadAll(ctx, 0, func(recorder.Stored) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	return n
}

// A file one byte over 16 MiB is refused by its size before it is read (with the file given
// before it imported whole), standard input after one byte over, and --publish stores nothing.
func TestImportRefusesOversizeInput(t *testing.T) {
	dir := t.TempDir()
	good := importRealSession(t)
	big, bigData := writeOversize(t, dir)
	wantOut := filepath.Join(dir, "want.jsonl")
	if code, out, _ := runAlloc(t, "import", "--format", "pokerstars", "--out", wantOut, good); code != exitOK {
		t.Fatalf("the session alone: exit %d: %s", code, out)
	}
	_, _, base := runAlloc(t, "import", "--format", "auto", "--out", filepath.Join(dir, "base.jsonl"), good)

	gotOut := filepath.Join(dir, "got.jsonl")
	code, out, alloc := runAlloc(t, "import", "--format", "auto", "--out", gotOut, good, big)
	t.Logf("a file of %d bytes refused: allocated %.1f MiB, %.1f MiB without it", len(bigData), float64(alloc)/(1<<20), float64(base)/(1<<20))
	for _, want := range []string{
		"fechado import: " + big + ": larger than 16 MiB, the most import reads of one file; nothing of it was imported. Import a longer history as several files.\n",
		"Hands imported: 30 of 30. Events: 1,525. Files: 2.",
		"Files that could not be read: 1.",
	} {
		if code != exitUsage || !strings.Contains(out, want) {
			t.Fatalf("exit %d, want 2 and %q:\n%s", code, want, out)
		}
	}
	if !bytes.Equal(recRead(t, gotOut), recRead(t, wantOut)) {
		t.Error("the output is not the session's events alone")
	}
	// Refused by its size, unread: far less than the file's 16 MiB more than the session alone.
	// (The bound leaves room for what other goroutines of the test binary allocate meanwhile:
	// TotalAlloc is the process's.)
	if alloc > base+handhistory.MaxInput/4 {
		t.Errorf("allocated %d KiB to refuse the file, %d KiB without it", alloc>>10, base>>10)
	}

	// Standard input is read to one byte over the limit, not further; in the reader's language.
	var stdout, stderr bytes.Buffer
	m := &Main{Stdin: bytes.NewReader(append(bigData, bigData...)), Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }}
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	code = m.Run([]string{"import", "--format", "pokerstars", "--lang", "es", "-"})
	runtime.ReadMemStats(&m1)
	t.Logf("standard input of %d bytes refused: allocated %.1f MiB", 2*len(bigData), float64(m1.TotalAlloc-m0.TotalAlloc)/(1<<20))
	if want := "-: mayor que 16 MiB, lo máximo que import lee de un archivo; no se importó nada de él."; code != exitUsage || stdout.Len() != 0 || !strings.Contains(stderr.String(), want) {
		t.Fatalf("stdin: exit %d, stdout %d bytes, want %q in:\n%s", code, stdout.Len(), want, stderr.String())
	}
	if a := m1.TotalAlloc - m0.TotalAlloc; a > 4*handhistory.MaxInput {
		t.Errorf("stdin: allocated %d MiB", a>>20)
	}

	// --publish appends nothing of it.
	data := filepath.Join(dir, "data")
	if code, _, stderr := runImportCmd(t, "", "--format", "auto", "--publish", "--data", data, big); code != exitUsage || !strings.Contains(stderr, "published 0 event(s)") {
		t.Fatalf("--publish: exit %d:\n%s", code, stderr)
	}
	if n := storedEvents(t, data); n != 0 {
		t.Fatalf("%d events stored", n)
	}
}

// deepBossFile writes the real Boss file, then a hand nested 2,000,000 deep (14 MB: the file of
// the security review, which cost 380 MB resident and ended on `bad stakes ""`), and returns its
// path and the line of the nesting.
func deepBossFile(t *testing.T, dir string) (string, int) {
	t.Helper()
	real, err := os.ReadFile(testfiles.Glob(t, "hh/boss/5CD-PL-EUR-0.50-1.00-201307.txt")[0])
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.Write(real)
	b.WriteString("\n<HISTORY ID=\"1\" GAME=\"GAME_FCD\">\n")
	line := bytes.Count(b.Bytes(), []byte("\n")) + 1
	b.WriteString(strings.Repeat("<a>", 2_000_000) + strings.Repeat("</a>", 2_000_000) + "</HISTORY>\n")
	path := filepath.Join(dir, "deep.xml")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, line
}

// Boss XML nested 2,000,000 deep is refused at the 65th level, naming file:line, allocating
// less than limitsBound (it was 515 MiB); the real hand before it is not written either, and
// --publish stores nothing. PHH nested as deep is refused the same way.
func TestImportRefusesDeepXMLInBoundedMemory(t *testing.T) {
	dir := t.TempDir()
	deep, line := deepBossFile(t, dir)
	out := filepath.Join(dir, "out.jsonl")
	code, msg, alloc := runAlloc(t, "import", "--format", "auto", "--out", out, deep)
	t.Logf("%s: allocated %.1f MiB", deep, float64(alloc)/(1<<20))
	want := "fechado import: " + deep + ":" + strconv.Itoa(line) + ": nested deeper than 64 levels, the most import reads; nothing of this file was imported.\n"
	if code != exitUsage || !strings.Contains(msg, want) || !strings.Contains(msg, "Hands imported: 0 of 0.") || !strings.Contains(msg, "Files that could not be read: 1.") {
		t.Fatalf("exit %d, want 2 and %q:\n%.2000s", code, want, msg)
	}
	if len(recRead(t, out)) != 0 {
		t.Error("events were written")
	}
	if alloc > limitsBound {
		t.Errorf("allocated %d MiB, over %d MiB", alloc>>20, limitsBound>>20)
	}

	// In Portuguese, and through --publish: nothing stored.
	data := filepath.Join(dir, "data")
	code, _, stderr := runImportCmd(t, "", "--format", "boss", "--lang", "pt-BR", "--publish", "--data", data, deep)
	if want := deep + ":" + strconv.Itoa(line) + ": aninhado em mais de 64 níveis"; code != exitUsage || !strings.Contains(stderr, want) {
		t.Fatalf("--publish: exit %d, want %q:\n%s", code, want, stderr)
	}
	if n := storedEvents(t, data); n != 0 {
		t.Fatalf("%d events stored", n)
	}

	// PHH: 2,000,000 nested arrays overflowed the Go stack.
	phh := filepath.Join(dir, "deep.phh")
	if err := os.WriteFile(phh, []byte("variant = \"F5CD\"\nx = "+strings.Repeat("[", 2_000_000)+strings.Repeat("]", 2_000_000)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, msg, alloc = runAlloc(t, "import", "--format", "phh", phh)
	if want := phh + ":2: nested deeper than 64 levels"; code != exitUsage || !strings.Contains(msg, want) || alloc > limitsBound {
		t.Fatalf("PHH: exit %d, allocated %d MiB, want %q:\n%.2000s", code, alloc>>20, want, msg)
	}
}
