package main

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder/recordertest"
)

// recRun runs one command line in-process and returns its exit code and output.
func recRun(t *testing.T, stdin []byte, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	m := &Main{Stdin: bytes.NewReader(stdin), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	code = m.Run(args)
	return code, out.String(), errb.String()
}

func recRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var recSummaryLine = regexp.MustCompile(`fechado record: (\d+) events appended, (\d+) skipped \(already stored\), (\d+) hands`)

// recSummary returns the appended, skipped and hands counts of record's summary line.
func recSummary(t *testing.T, stderr string) (appended, skipped, hands int) {
	t.Helper()
	m := recSummaryLine.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no summary line in %q", stderr)
	}
	a, _ := strconv.Atoi(m[1])
	s, _ := strconv.Atoi(m[2])
	h, _ := strconv.Atoi(m[3])
	return a, s, h
}

// record then export gives the files back byte for byte (stdin too); recording them again
// stores nothing new; verify finds the log whole.
func TestRecordExportVerify(t *testing.T) {
	data := t.TempDir()
	files := []string{vector(t, "table-br-fechado.jsonl"), vector(t, "table-std-draw.jsonl")}
	stdin := recRead(t, vector(t, "table-tr-kapali.jsonl"))
	want := append(append(recRead(t, files[0]), recRead(t, files[1])...), stdin...)
	n := bytes.Count(want, []byte("\n"))

	code, _, stderr := recRun(t, stdin, "record", "--data", data, files[0], files[1], "-")
	if code != 0 {
		t.Fatalf("record: exit %d: %s", code, stderr)
	}
	if a, s, h := recSummary(t, stderr); a != n || s != 0 || h != 18 {
		t.Fatalf("summary %q, want %d appended, 18 hands", stderr, n)
	}
	if strings.Count(stderr, "\n") != 1 {
		t.Fatalf("record printed more than its summary: %q", stderr)
	}
	code, out, stderr := recRun(t, nil, "export", "--all", "--data", data)
	if code != 0 || out != string(want) {
		t.Fatalf("export --all: exit %d %s; output equal: %v", code, stderr, out == string(want))
	}
	out = filepath.Join(t.TempDir(), "t.jsonl")
	if code, _, stderr := recRun(t, nil, "export", "--data", data, "--table", "ex-std-draw", "--out", out); code != 0 {
		t.Fatalf("export --table: exit %d %s", code, stderr)
	}
	if !bytes.Equal(recRead(t, out), recRead(t, files[1])) {
		t.Fatal("export --table differs from the recorded file")
	}
	first, err := events.Parse(bytes.SplitN(stdin, []byte("\n"), 2)[0])
	if err != nil {
		t.Fatal(err)
	}
	var wantHand []byte
	for _, line := range bytes.SplitAfter(stdin, []byte("\n")) {
		if bytes.Contains(line, []byte(`"hand":"`+first.Hand+`"`)) {
			wantHand = append(wantHand, line...)
		}
	}
	code, hand, stderr := recRun(t, nil, "export", "--data", data, "--hand", first.Hand)
	if code != 0 || hand != string(wantHand) || len(wantHand) == 0 {
		t.Fatalf("export --hand: exit %d %s\n%s", code, stderr, hand)
	}

	code, _, stderr = recRun(t, want, "record", "--data", data, "-")
	if a, s, _ := recSummary(t, stderr); code != 0 || a != 0 || s != n {
		t.Fatalf("second record: exit %d %q, want all %d skipped", code, stderr, n)
	}
	code, report, stderr := recRun(t, nil, "verify", "--data", data)
	if code != 0 || !strings.Contains(report, "OK:") || !strings.Contains(report, strconv.Itoa(n)+" events read") {
		t.Fatalf("verify: exit %d %s\n%s", code, stderr, report)
	}
}

// The recorder fills prev where the input left it out: the stored log is the producer's log with
// prev.
func TestRecordFillsPrev(t *testing.T) {
	want := recRead(t, vector(t, "table-br-online.jsonl"))
	in := regexp.MustCompile(`"prev":"[0-9a-f]*",`).ReplaceAll(want, nil)
	data := t.TempDir()
	if code, _, stderr := recRun(t, in, "record", "--data", data, "-"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, out, _ := recRun(t, nil, "export", "--all", "--data", data); out != string(want) {
		t.Fatal("the stored log is not the input with prev filled in")
	}
}

// An invalid hand is rejected with its file and line, the others go in, and record exits 2; a
// hand that differs from the stored one is refused and record exits 3.
func TestRecordRejects(t *testing.T) {
	good := recordertest.Hand(t, "T", 1, 2)
	bad := recordertest.Hand(t, "T", 2, 2)
	in := append(recordertest.Lines(bad[:2]), recordertest.Lines(bad[3:])...) // seq 4 after 2: line 3
	in = append(in, recordertest.Lines(good)...)
	dir := t.TempDir()
	file := filepath.Join(dir, "in.jsonl")
	if err := os.WriteFile(file, in, 0o644); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	code, _, stderr := recRun(t, nil, "record", "--data", data, file)
	if code != 2 || !strings.Contains(stderr, "rejected: "+file+":3: hand "+bad[0].Hand+" (table T) seq 4: seq 4 follows seq 2") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if a, _, _ := recSummary(t, stderr); a != len(good) || !strings.Contains(stderr, ", 1 rejected") {
		t.Fatalf("summary: %s", stderr)
	}
	if _, out, _ := recRun(t, nil, "export", "--all", "--data", data); out != string(recordertest.Lines(good)) {
		t.Fatalf("stored: %s", out)
	}

	other := *good[2]
	other.Data = &events.AntePosted{Seat: 2, Amount: 9}
	events.Seal(&other, good[2].Prev)
	code, _, stderr = recRun(t, recordertest.Lines([]*events.Event{good[0], good[1], &other}), "record", "--data", data, "-")
	if code != 3 || !strings.Contains(stderr, "refused: -:3: hand "+good[0].Hand+" (table T) seq 3: sequence conflict") {
		t.Fatalf("conflict: exit %d: %s", code, stderr)
	}
}

// A `fechado record` process killed with SIGKILL halfway through a large file, then run again,
// leaves the log equal to the file: nothing lost, nothing doubled. Under -short the file is
// smaller: recording it still reports its progress many times before the kill lands.
func TestRecordSurvivesSIGKILL(t *testing.T) {
	dir := t.TempDir()
	bin := asFechado(t)
	start := time.Now()
	// Many small valid hands at a few tables: enough that recording takes well over a second.
	var in bytes.Buffer
	hands := 15000
	if testing.Short() {
		hands = 500
	}
	for i := range hands {
		in.Write(recordertest.Lines(recordertest.Hand(t, "t"+strconv.Itoa(i%8), i+1, 2+i%3)))
	}
	file := filepath.Join(dir, "big.jsonl")
	if err := os.WriteFile(file, in.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	total := bytes.Count(in.Bytes(), []byte("\n"))
	data := filepath.Join(dir, "data")

	t.Logf("generated %d events in %s", total, time.Since(start))
	start = time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "record", "--data", data, "--progress", "2ms", file)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	progress := regexp.MustCompile(`(\d+) events read, (\d+) appended`)
	sc := bufio.NewScanner(stderr)
	killedAt := -1
	for sc.Scan() {
		if m := progress.FindStringSubmatch(sc.Text()); m != nil {
			if n, _ := strconv.Atoi(m[2]); n >= total/3 {
				if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
				killedAt = n
				break
			}
		}
	}
	err = cmd.Wait()
	if killedAt < 0 {
		t.Fatalf("record ended before it could be killed halfway (%v): make the file bigger", err)
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("record was not killed: %v", err)
	}
	t.Logf("killed after %d of %d events were acknowledged (%s)", killedAt, total, time.Since(start))
	start = time.Now()

	// The rest runs in this process: the crash is what needed a process of its own.
	code, _, errOut := recRun(t, nil, "record", "--data", data, file)
	if code != exitOK {
		t.Fatalf("second record: exit %d\n%s", code, errOut)
	}
	a, s, _ := recSummary(t, errOut)
	if a+s != total || s == 0 {
		t.Fatalf("second record: %s; want %d events appended or skipped", errOut, total)
	}
	t.Logf("second run: %s (%s)", strings.TrimSpace(errOut), time.Since(start))
	start = time.Now()
	exported := filepath.Join(dir, "out.jsonl")
	if code, _, errOut := recRun(t, nil, "export", "--data", data, "--all", "--out", exported); code != exitOK {
		t.Fatalf("export: exit %d\n%s", code, errOut)
	}
	if !bytes.Equal(recRead(t, exported), in.Bytes()) {
		t.Fatal("the log differs from the file after the crash and the second run")
	}
	t.Logf("export: %s", time.Since(start))
	if code, out, errOut := recRun(t, nil, "verify", "--data", data); code != exitOK {
		t.Fatalf("verify: exit %d\n%s%s", code, out, errOut)
	}
}
