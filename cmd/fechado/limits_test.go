package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
)

// The input limits (docs/events.md, "Input limits"; docs/security.md): every command that reads
// lines refuses a line over 1 MiB or nested over 64 deep, naming its file and line, in bounded
// memory, and goes on with the rest.

// limitsBound is the most a refused line may add to a command's peak memory.
const limitsBound = 64 << 20

// limitsHands returns three hands of table T.
func limitsHands(t *testing.T) [][]*events.Event {
	var hands [][]*events.Event
	for n := range 3 {
		hands = append(hands, recordertest.Hand(t, "T", n+1, 2))
	}
	return hands
}

// limitsFile writes hands, the second one's line 2 (line 7 of the file) replaced by bad when bad
// is not nil, and returns its path.
func limitsFile(t *testing.T, dir, name string, hands [][]*events.Event, bad func(e *events.Event) []byte) string {
	t.Helper()
	var b bytes.Buffer
	for n, h := range hands {
		for k, e := range h {
			if n == 1 && k == 1 && bad != nil {
				b.Write(bad(e))
			} else {
				b.Write(e.Raw)
			}
			b.WriteByte('\n')
		}
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// limitsBadLine is line 7 of limitsFile.
const limitsBadLine = ":7: "

// deepData replaces the payload of e's line with n nested arrays: a line of about 2n bytes.
func deepData(n int) func(e *events.Event) []byte {
	return func(e *events.Event) []byte {
		i := bytes.Index(e.Raw, []byte(`"data":`)) + len(`"data":`)
		return append(append(bytes.Clone(e.Raw[:i]), strings.Repeat("[", n)...), strings.Repeat("]", n)+"}"...)
	}
}

// bigEvent replaces e by a misdeal.declared of about n bytes (its reason).
func bigEvent(n int) func(e *events.Event) []byte {
	return func(e *events.Event) []byte {
		c := *e
		c.Type, c.Data = events.MisdealDeclaredType, &events.MisdealDeclared{Reason: strings.Repeat("x", n)}
		events.Seal(&c, e.Prev)
		return c.Raw
	}
}

// runAlloc runs one command line in-process and returns its exit code, its output (stdout and
// stderr) and the bytes it allocated in all (runtime.MemStats.TotalAlloc): a bound on how much
// its heap grew. (A child process's maxrss would not do: Linux counts in it the parent's peak,
// the test binary's, which it was forked from.)
func runAlloc(t *testing.T, args ...string) (code int, out string, alloc uint64) {
	t.Helper()
	var b bytes.Buffer
	m := &Main{Stdin: bytes.NewReader(nil), Stdout: &b, Stderr: &b, Getenv: func(string) string { return "" }}
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	code = m.Run(args)
	runtime.ReadMemStats(&m1)
	return code, b.String(), m1.TotalAlloc - m0.TotalAlloc
}

// A line of 8 MB nested 4,000,000 deep (it crashed validate, audit and record with a stack
// overflow at 1.1 GB, issue 38) is refused by every command that reads lines from a file, naming
// file:line, allocating at most limitsBound more than the same command on the file without it;
// record stores the other hands, whole, and export reads them back.
func TestDeepLineRefusedByEveryCommand(t *testing.T) {
	dir := t.TempDir()
	hands := limitsHands(t)
	clean := limitsFile(t, dir, "clean.jsonl", hands, nil)
	deep := limitsFile(t, dir, "deep.jsonl", hands, deepData(4_000_000))
	if fi, _ := os.Stat(deep); fi.Size() < 8_000_000 {
		t.Fatalf("the file is %d bytes", fi.Size())
	}
	bad := hands[1][0].Hand
	for _, c := range []struct {
		name string
		args []string
		code int    // the exit status on deep
		want string // in the output on deep
	}{
		{"validate", []string{"validate", "FILE"}, 2, "FILE" + limitsBadLine + "line too long: 8000"},
		{"audit", []string{"audit", "--json", "FILE"}, 1, `"code":"log.schema","severity":"error","message":"this line is not a valid event: FILE` + limitsBadLine + "line too long"},
		{"audit --tournament", []string{"audit", "--tournament", "none", "--json", "FILE"}, 1, `"code":"log.schema","severity":"error","message":"this line is not a valid event: FILE` + limitsBadLine + "line too long"},
		{"record", []string{"record", "--data", "DATA", "FILE"}, 2, "rejected: FILE" + limitsBadLine + "hand " + bad + " (table T): line too long"},
		{"replay", []string{"replay", "FILE", "--hand", hands[0][0].Hand}, 2, "FILE" + limitsBadLine + "line too long"},
		{"report", []string{"report", "FILE", "--hand", hands[0][0].Hand}, 2, "FILE" + limitsBadLine + "line too long"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := func(file string) []string {
				var out []string
				for _, a := range c.args {
					a = strings.ReplaceAll(a, "FILE", file)
					out = append(out, strings.ReplaceAll(a, "DATA", filepath.Join(dir, "data-"+filepath.Base(file))))
				}
				return out
			}
			_, _, base := runAlloc(t, args(clean)...)
			code, out, alloc := runAlloc(t, args(deep)...)
			t.Logf("%s: allocated %.1f MiB on the deep file, %.1f MiB without its line", c.name, float64(alloc)/(1<<20), float64(base)/(1<<20))
			want := strings.ReplaceAll(c.want, "FILE", deep)
			if code != c.code || !strings.Contains(out, want) {
				t.Fatalf("exit %d, want %d and %q:\n%.2000s", code, c.code, want, out)
			}
			if alloc > base+limitsBound {
				t.Errorf("allocated %d MiB, over %d MiB + %d MiB", alloc>>20, base>>20, limitsBound>>20)
			}
		})
	}
	// What record stored: the first and third hands, whole.
	code, out, _ := recRun(t, nil, "export", "--all", "--data", filepath.Join(dir, "data-deep.jsonl"))
	if want := string(append(recordertest.Lines(hands[0]), recordertest.Lines(hands[2])...)); code != 0 || out != want {
		t.Fatalf("export after record: exit %d:\n%s", code, out)
	}
}

// An event of 2 MiB is refused by validate and by record, naming file:line; record stores
// nothing of its hand and every other hand of the file.
func TestOversizeEventRefusedByValidateAndRecord(t *testing.T) {
	dir := t.TempDir()
	hands := limitsHands(t)
	file := limitsFile(t, dir, "big.jsonl", hands, bigEvent(2<<20))
	code, out, _ := recRun(t, nil, "validate", file)
	if code != 2 || !strings.HasPrefix(out, file+limitsBadLine+"line too long: 2097") {
		t.Fatalf("validate: exit %d: %s", code, out)
	}
	data := filepath.Join(dir, "data")
	code, _, stderr := recRun(t, nil, "record", "--data", data, file)
	if code != 2 || !strings.Contains(stderr, "rejected: "+file+limitsBadLine+"hand "+hands[1][0].Hand+" (table T): line too long: 2097") {
		t.Fatalf("record: exit %d: %s", code, stderr)
	}
	code, out, _ = recRun(t, nil, "export", "--all", "--data", data)
	if want := string(append(recordertest.Lines(hands[0]), recordertest.Lines(hands[2])...)); code != 0 || out != want {
		t.Fatalf("export after record: exit %d:\n%s", code, out)
	}
}

// A line that is not JSON inside a hand refuses that hand whole (issue 39); the others go in.
func TestRecordRefusesHandWithNonJSONLine(t *testing.T) {
	dir := t.TempDir()
	hands := limitsHands(t)
	file := limitsFile(t, dir, "garbage.jsonl", hands, func(*events.Event) []byte { return []byte("garbage, not JSON") })
	data := filepath.Join(dir, "data")
	code, _, stderr := recRun(t, nil, "record", "--data", data, file)
	if code != 2 || !strings.Contains(stderr, "rejected: "+file+limitsBadLine+"hand "+hands[1][0].Hand) {
		t.Fatalf("record: exit %d: %s", code, stderr)
	}
	code, out, _ := recRun(t, nil, "export", "--all", "--data", data)
	if want := string(append(recordertest.Lines(hands[0]), recordertest.Lines(hands[2])...)); code != 0 || out != want {
		t.Fatalf("export after record: exit %d:\n%s", code, out)
	}
}

// A message of the stream nested 500,000 deep (under the store's limit: another client put it
// there, not fechado) is refused by the commands that read the stored log, with an error that
// names its stream sequence (project quarantines it), in bounded memory.
func TestStoredDeepLineRefused(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	hand := recordertest.Hand(t, "T", 1, 2)
	deep := deepData(500_000)(hand[1])
	l := recordertest.OpenDir(t, data)
	js := recordertest.JetStream(t, l)
	subject := recorder.Subject("T", hand[0].Hand)
	for _, line := range [][]byte{hand[0].Raw, deep} {
		if _, err := js.Publish(t.Context(), subject, line); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	for _, args := range [][]string{
		{"export", "--all"}, {"audit", "--all", "--json"}, {"verify"}, {"replay", "--hand", hand[0].Hand},
		{"project", "--db", filepath.Join(dir, "read.db")},
	} {
		code, out, alloc := runAlloc(t, append(args, "--data", data)...)
		t.Logf("%s: exit %d, allocated %.1f MiB: %.300s", args[0], code, float64(alloc)/(1<<20), out)
		if args[0] != "project" && code == 0 || args[0] == "project" && !strings.Contains(out, "1 quarantined") {
			t.Errorf("%s: exit %d on a log with a line nested 500,000 deep:\n%.2000s", args[0], code, out)
		}
		if alloc > limitsBound {
			t.Errorf("%s: allocated %d MiB", args[0], alloc>>20)
		}
	}
}

// vmHWM returns the peak resident memory of process pid so far (VmHWM of /proc/pid/status, which
// starts afresh at exec, unlike a child's maxrss), in bytes; ok is false where there is no /proc.
func vmHWM(t *testing.T, pid int) (n int64, ok bool) {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, found := strings.CutPrefix(line, "VmHWM:"); found {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}

// `fechado serve`, a process of its own, refuses a POST /api/events whose line is 8 MB nested
// 4,000,000 deep (which overflowed its stack, issue 38) with 413 naming the line, its peak
// resident memory grows by less than limitsBound, and it serves on: the hands of a good body go
// in and the API answers.
func TestServeRefusesDeepLineInBoundedMemory(t *testing.T) {
	bin := asFechado(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "serve", "--http", "127.0.0.1:0", "--data", filepath.Join(dir, "data"), "--db", filepath.Join(dir, "read.db"))
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	}()
	var url string
	for deadline := time.Now().Add(60 * time.Second); url == ""; time.Sleep(10 * time.Millisecond) {
		if m := urlLine.FindStringSubmatch(out.String()); m != nil {
			url = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("serve printed no URL: %s", out)
		}
	}
	post := func(body []byte) (int, string) {
		t.Helper()
		resp, err := http.Post(url+"api/events", "application/x-ndjson", bytes.NewReader(body))
		if err != nil {
			t.Fatalf("POST /api/events: %v (the server: %.2000s)", err, out)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	hands := limitsHands(t)
	before, ok := vmHWM(t, cmd.Process.Pid)
	if !ok {
		t.Skip("no /proc/PID/status VmHWM on this system")
	}
	deep := append(append(bytes.Clone(hands[1][0].Raw), '\n'), deepData(4_000_000)(hands[1][1])...)
	code, body := post(append(deep, '\n'))
	after, _ := vmHWM(t, cmd.Process.Pid)
	t.Logf("serve: peak resident memory %.1f MiB before the POST of %d bytes, %.1f MiB after", float64(before)/(1<<20), len(deep), float64(after)/(1<<20))
	if code != http.StatusRequestEntityTooLarge || !strings.Contains(body, "line 2: line too long: 8000") {
		t.Fatalf("POST of the deep line: %d %s", code, body)
	}
	if after > before+limitsBound {
		t.Errorf("peak resident memory grew from %d to %d MiB", before>>20, after>>20)
	}
	if code, body := post(append(recordertest.Lines(hands[0]), recordertest.Lines(hands[2])...)); code != http.StatusOK || !strings.Contains(body, `"appended":10`) {
		t.Fatalf("POST of good hands after it: %d %s", code, body)
	}
	resp, err := http.Get(url + "api/tables")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/tables: %v %v", resp, err)
	}
	resp.Body.Close()
}
