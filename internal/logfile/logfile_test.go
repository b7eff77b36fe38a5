package logfile

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
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
		rd.sum, _ = r.LineSum()
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
	readAsNewReader(t, got, b, path)
}

// readAsNewReader fails t unless got is what events.NewReader reads from a copy of b.
func readAsNewReader(t *testing.T, got []read, b []byte, path string) {
	t.Helper()
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
	b, err := os.ReadFile(testfiles.File(t, "vectors", "table-std-draw.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	go func() { pw.Write(b); pw.Close() }()
	name := "/dev/fd/" + strconv.Itoa(int(pr.Fd()))
	r, closeFn, err = Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	got := readAll(t, r)
	want := readAll(t, events.NewReader(bytes.NewReader(b), name))
	if len(got) == 0 || !reflect.DeepEqual(got, want) {
		t.Fatalf("a pipe gave %d events, not the %d of its bytes", len(got), len(want))
	}
}
