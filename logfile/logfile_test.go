package logfile

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/testfiles"
)

// bigLog writes the example vectors over and over to a file of at least size bytes in a
// temporary folder and returns its path and bytes.
func bigLog(t *testing.T, size int) (string, []byte) {
	t.Helper()
	var all []byte
	for _, f := range testfiles.Glob(t, "vectors/*.jsonl") {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	var b []byte
	for len(b) < size {
		b = append(b, all...)
	}
	path := filepath.Join(t.TempDir(), "big.jsonl")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, b
}

// read is what a Reader yields: each event with the sum of its line, each error by its text.
type read struct {
	e   *events.Event
	sum [sha256.Size]byte
	err string
}

func readAll(t *testing.T, r *events.Reader) []read {
	t.Helper()
	var out []read
	for {
		e, err := r.NextLenient()
		if err == io.EOF {
			return out
		}
		var rd read
		if err != nil {
			rd.err = err.Error()
		}
		rd.e = e
		if s := r.LineSum(); s != nil {
			rd.sum = *s
		}
		out = append(out, rd)
	}
}

// A log read through Open reads as events.NewReader reads it from a copy of its bytes; and the
// events kept stay so after the file has been read through and its pages given back.
func TestOpenReadsAsNewReader(t *testing.T) {
	path, b := bigLog(t, 9<<20)
	r, closeFn, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	got := readAll(t, r)
	if err := closeFn(); err != nil {
		t.Fatal(err)
	}
	want := readAll(t, events.NewReader(bytes.NewReader(bytes.Clone(b)), path))
	if len(got) != len(want) {
		t.Fatalf("%d events read, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("event %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
}

// residentKB returns the memory of the process that holds the pages of the file at path, in
// kilobytes (the Rss lines of its mappings in /proc/self/smaps).
func residentKB(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	total, in := 0, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if fields := strings.Fields(line); len(fields) > 0 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			in = strings.HasSuffix(line, " "+path)
			continue
		}
		if in && strings.HasPrefix(line, "Rss:") {
			kb, err := strconv.Atoi(strings.Fields(line)[1])
			if err != nil {
				t.Fatal(err)
			}
			total += kb
		}
	}
	return total
}

// On Linux a regular file is mapped, and memory stays flat however long the log: behind the
// reading, no more than lag and a step of the Reader stay in memory, and nothing once the
// file has been read through.
func TestMappedMemoryStaysFlat(t *testing.T) {
	if runtime.GOOS != "linux" || strconv.IntSize < 64 {
		t.Skip("logs are mapped on 64-bit Linux only; elsewhere they are read through buffers, which TestOpenReadsAsNewReader covers")
	}
	path, b := bigLog(t, 48<<20)
	r, closeFn, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	// What the Reader keeps (lag, and up to a step of it between two releases) is not all: the
	// kernel maps the pages of the file around the one touched, up to a large folio of them
	// (2 MiB on x86-64), and the Reader hashes lines ahead. So the bound is a few megabytes,
	// against a log of 48.
	const bound = (lag + 1<<20 + 4<<20) >> 10
	most, lines := 0, 0
	for {
		_, err := r.ReadLine()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		r.LineSum()
		if lines++; lines%2000 == 0 {
			most = max(most, residentKB(t, path))
		}
	}
	if most == 0 {
		t.Fatalf("the file was never seen in memory: it was not mapped (%d bytes read)", len(b))
	}
	t.Logf("at most %d KiB of the %d MiB log in memory at once", most, len(b)>>20)
	if most > bound {
		t.Errorf("up to %d KiB of the log were in memory at once, want at most %d KiB", most, bound)
	}
	if end := residentKB(t, path); end > 64 {
		t.Errorf("%d KiB of the log still in memory once it is read through", end)
	}
}

// A mapped log cut short while it is read does not end the process: Guard returns ErrChanged.
func TestGuardTruncatedLog(t *testing.T) {
	if runtime.GOOS != "linux" || strconv.IntSize < 64 {
		t.Skip("logs are mapped on 64-bit Linux only")
	}
	path, _ := bigLog(t, 8<<20)
	r, closeFn, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	n := 0
	err = Guard(func() error {
		for {
			if _, err := r.Next(); err != nil {
				return err
			}
			if n++; n == 100 {
				if err := os.Truncate(path, 0); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
	if !errors.Is(err, ErrChanged) || !strings.HasPrefix(err.Error(), path+": ") {
		t.Fatalf("reading a log cut short after %d events: %v, want ErrChanged naming %s", n, err, path)
	}
}

// Guard returns what its function returns, and lets other panics go on.
func TestGuardPassesThrough(t *testing.T) {
	want := errors.New("x")
	if err := Guard(func() error { return want }); err != want {
		t.Fatalf("Guard returned %v, want %v", err, want)
	}
	defer func() {
		if r := recover(); r != "boom" {
			t.Fatalf("recovered %v, want the panic boom", r)
		}
	}()
	Guard(func() error { panic("boom") })
}

// What cannot be mapped is read through buffers: an empty file, and a file that is not regular.
func TestOpenUnmappable(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r, closeFn, err := Open(empty)
	if err != nil {
		t.Fatal(err)
	}
	if e, err := r.Next(); err != io.EOF {
		t.Fatalf("an empty file gives %v, %v, want io.EOF", e, err)
	}
	closeFn()
	if _, _, err := Open(filepath.Join(t.TempDir(), "missing.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a missing file gives %v", err)
	}
	if runtime.GOOS == "windows" {
		return
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	line := testfiles.File(t, "vectors", "table-std-draw.jsonl")
	b, err := os.ReadFile(line)
	if err != nil {
		t.Fatal(err)
	}
	go func() { pw.Write(b); pw.Close() }()
	r, closeFn, err = Open("/dev/fd/" + strconv.Itoa(int(pr.Fd())))
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	got := readAll(t, r)
	want := readAll(t, events.NewReader(bytes.NewReader(b), "x"))
	if len(got) != len(want) || len(got) == 0 {
		t.Fatalf("a pipe gave %d events, want %d", len(got), len(want))
	}
}
