package logfile

import (
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/fechado/fechado/events"
)

// openMapped writes a log of at least size bytes (bigLog) and opens it, mapped: the tests of this
// file check the mapping, which a 32-bit process does without (the test is skipped there).
func openMapped(t *testing.T, size int) (*events.Reader, string, []byte) {
	t.Helper()
	if strconv.IntSize < 64 {
		t.Skip("a 32-bit process reads logs through buffers, which TestOpenReadsAsNewReader covers")
	}
	path, b := bigLog(t, size)
	r, closeFn, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeFn() })
	return r, path, b
}

// residentKB returns the memory of the process that holds the pages of the file at path, in
// kilobytes (the Rss lines of its mappings in /proc/self/smaps, read by vmas).
func residentKB(t *testing.T, path string) int {
	t.Helper()
	total := 0
	for _, v := range vmas(t) {
		if v.path == path {
			total += v.rssKB
		}
	}
	return total
}

// On Linux a regular file is mapped, and memory stays flat however long the log: behind the
// reading, no more than lag and a step of the Reader stay in memory, and nothing once the
// file has been read through.
func TestMappedMemoryStaysFlat(t *testing.T) {
	r, path, b := openMapped(t, 48<<20)
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
	r, path, _ := openMapped(t, 8<<20)
	n := 0
	err := Guard(func() error {
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

// A fault that is not on a mapped log is not Guard's to turn into an error: memory that may not
// be read, mapped by the test itself, faults through Guard as it would without it.
func TestGuardOtherFault(t *testing.T) {
	b, err := syscall.Mmap(-1, 0, 4096, syscall.PROT_NONE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		r := recover()
		if _, ok := r.(interface{ Addr() uintptr }); !ok {
			t.Fatalf("recovered %v, want the fault itself", r)
		}
	}()
	Guard(func() error {
		sink = b[0]
		return nil
	})
	t.Fatal("the fault did not panic")
}

// sink keeps the read of TestGuardOtherFault from being left out.
var sink byte
