package logfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugeBlocks maps the file at path and returns how many of its blocks the page cache holds in
// huge pages (hugeIn), skipping the test where the kernel offers no aligned mapping (Map's
// Fetch).
func hugeBlocks(t *testing.T, path string) int {
	t.Helper()
	m, ok, err := Map(path)
	if err != nil || !ok {
		t.Fatalf("Map: %v %v", ok, err)
	}
	defer m.Release(len(m.Bytes))
	if m.Fetch == nil {
		t.Skip("no aligned mapping here (Linux 6.12 and later, 64-bit)")
	}
	return len(hugeIn(t, m.Bytes))
}

// hugeIn returns the whole blocks of the aligned mapping b that the page cache holds in huge
// pages, touching a byte of each (the PAGEMAP_SCAN ioctl); the test is skipped where
// /proc/self/pagemap cannot be read.
func hugeIn(t *testing.T, b []byte) []int {
	t.Helper()
	scan := newHugeScan()
	if scan == nil {
		t.Skip("/proc/self/pagemap cannot be read")
	}
	defer scan.close()
	var huge []int
	for k := 0; k < len(b)/block; k++ {
		if scan.huge(unsafe.Pointer(&b[k*block])) {
			huge = append(huge, k)
		}
	}
	return huge
}

// hugeAtOnce writes log to a file of dir at once and returns how many of its blocks the page cache
// holds in huge pages, skipping the test when none: a filesystem without large folios, or tmpfs
// without huge pages.
func hugeAtOnce(t *testing.T, dir string, log []byte) int {
	t.Helper()
	whole := filepath.Join(dir, "whole.jsonl")
	if err := os.WriteFile(whole, log, 0o644); err != nil {
		t.Fatal(err)
	}
	n := hugeBlocks(t, whole)
	if n == 0 {
		t.Skip("the page cache holds no block of a file written at once in a huge page here")
	}
	return n
}

// A log written through a Writer, line by line, is held by the page cache in huge pages wherever
// a file written at once is: each piece is one folio. Written 64 KB at a time (bufio's pieces in
// sim and export before), the same lines were held in none (BENCHMARKS.md, twenty-fifth session).
func TestLogWrittenInPiecesIsMappedInHugePages(t *testing.T) {
	dir := t.TempDir()
	line := append(bytes.Repeat([]byte{'x'}, 480), '\n')
	var log []byte
	for len(log) < 8*block {
		log = append(log, line...)
	}
	control := hugeAtOnce(t, dir, log)
	pieces := filepath.Join(dir, "pieces.jsonl")
	f, err := os.Create(pieces)
	if err != nil {
		t.Fatal(err)
	}
	w := NewWriter(f)
	for off := 0; off < len(log); off += len(line) {
		w.Write(log[off : off+len(line)])
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	got := hugeBlocks(t, pieces)
	t.Logf("blocks in huge pages: %d of 8 written at once, %d written in pieces", control, got)
	// A huge folio the kernel could not find memory for is made of small ones instead: one
	// block may miss, as one of the file written at once may.
	if got < control-1 {
		t.Errorf("%d of the 8 blocks written in pieces are in huge pages, against %d written at once", got, control)
	}
}

// A block that the page cache no longer holds (the kernel reclaims what is not read for a while)
// is read back in as one huge folio by the mapping's first touch of it, whatever folios its
// writing made: later readings map it whole. Without the mapping's advice, none of the 8 blocks
// was (BENCHMARKS.md, twenty-fifth session).
func TestMappingReadsAnEvictedLogBackInHugePages(t *testing.T) {
	dir := t.TempDir()
	log := bytes.Repeat(append(bytes.Repeat([]byte{'y'}, 480), '\n'), 8*block/481+1)
	control := hugeAtOnce(t, dir, log)
	path := filepath.Join(dir, "evicted.jsonl")
	writeInPages(t, path, log)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		t.Skipf("the page cache cannot be told to drop the file: %v", err)
	}
	// As above, one block may miss.
	if n := hugeBlocks(t, path); n < control-1 {
		t.Errorf("%d of the 8 blocks read back are in huge pages, against %d of a file written at once", n, control)
	}
}
