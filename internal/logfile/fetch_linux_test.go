package logfile

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// writeInPages writes b to a new file at path 4 KB at a time: the page cache then holds it in
// pages of 4 KB (a file system allocates its folios as large as each write), none of which the
// mapping can map as a huge page, so that Fetch copies every block.
func writeInPages(t testing.TB, path string, b []byte) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	for off := 0; off < len(b); off += 4096 {
		if _, err := f.Write(b[off:min(len(b), off+4096)]); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// mapForFetch writes size random bytes to a file (writeInPages) and maps it with Map; the test
// is skipped where Map offers no Fetch (another kernel than Linux 6.12 or later, a 32-bit
// process).
func mapForFetch(t *testing.T, size int) (Mapping, string, []byte) {
	t.Helper()
	want := make([]byte, size)
	rng := rand.New(rand.NewPCG(1, uint64(size)))
	for i := range want {
		want[i] = byte(rng.Uint32())
	}
	path := filepath.Join(t.TempDir(), "log.jsonl")
	writeInPages(t, path, want)
	m, ok, err := Map(path)
	if err != nil || !ok {
		t.Fatalf("Map: ok %v, %v", ok, err)
	}
	if m.Fetch == nil {
		if replacesInOneStep() {
			t.Fatal("Map offered no Fetch on a kernel that replaces a mapping in one step")
		}
		t.Skip("Fetch is offered on Linux 6.12 and later only")
	}
	// A file system whose page cache holds even a file written in pages as huge pages (tmpfs
	// with huge pages always) leaves Fetch nothing to copy.
	scan := newHugeScan()
	defer scan.close()
	if scan.huge(unsafe.Pointer(&m.Bytes[0])) {
		t.Skip("the page cache holds a file written 4 KB at a time in huge pages here: Fetch copies nothing")
	}
	return m, path, want
}

// vma is one mapping of /proc/self/smaps: where it is, what it maps (a file's path, or "" for
// anonymous memory), and its resident kilobytes.
type vma struct {
	start, end uintptr
	path       string
	rssKB      int
}

func vmas(t *testing.T) []vma {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []vma
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		if len(fields) > 0 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			lo, hi, _ := strings.Cut(fields[0], "-")
			s, err1 := strconv.ParseUint(lo, 16, 64)
			e, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("smaps: %q", line)
			}
			v := vma{start: uintptr(s), end: uintptr(e)}
			if len(fields) >= 6 {
				v.path = fields[5]
			}
			out = append(out, v)
			continue
		}
		if len(out) > 0 && strings.HasPrefix(line, "Rss:") {
			out[len(out)-1].rssKB, _ = strconv.Atoi(strings.Fields(line)[1])
		}
	}
	return out
}

// copiesIn returns the blocks of b that are copies (anonymous memory) and the resident
// kilobytes of all of b's mappings.
func copiesIn(t *testing.T, b []byte) (blocks []int, rssKB int) {
	t.Helper()
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	end := start + uintptr(len(b))
	for _, v := range vmas(t) {
		if v.end <= start || v.start >= end {
			continue
		}
		rssKB += v.rssKB
		if v.path == "" {
			for a := max(v.start, start); a < min(v.end, end); a += block {
				blocks = append(blocks, int(a-start)/block)
			}
		}
	}
	return blocks, rssKB
}

// readAsSpread reads m as the spread's reader and workers do: Fetch ahead of the reading,
// Release behind it, and it checks that every byte read, at the reading, ahead of it and behind
// it (as far back as the start when far is set: a hand's first events), reads as want. It
// returns the most memory the mapping held at once, and fails if no block ahead of the reading
// was a copy, or a block behind what was released still is.
func readAsSpread(t *testing.T, m Mapping, want []byte, far bool) (mostKB int) {
	t.Helper()
	b, size := m.Bytes, len(want)
	rng := rand.New(rand.NewPCG(2, 3))
	// Not a divisor of block: the releases fall anywhere in a block, as the spread's rounds end
	// anywhere.
	const step = 20 << 10
	sawCopy := false
	for off := 0; off < size; off += step {
		m.Fetch(off, off+2*step)
		// Far behind, and ahead where nothing is fetched yet (the file's own pages), only when
		// far is set: those pages stay in memory for good.
		at := []int{off, max(0, off-rng.IntN(2*block))}
		if far {
			at = append(at, rng.IntN(off+1), min(size-1, off+rng.IntN(8*block)))
		}
		for _, at := range at {
			n := min(size-at, 4096)
			if !bytes.Equal(b[at:at+n], want[at:at+n]) {
				t.Fatalf("at %d, reading at %d: the bytes differ from the file's", off, at)
			}
		}
		m.Release(off - 2*block) // the workers are behind the reader
		if from := max(0, off-4*block); far && !bytes.Equal(b[from:off], want[from:off]) {
			t.Fatalf("at %d, once released up to %d, the bytes behind differ from the file's", off, off-2*block)
		}
		if off/step%50 == 0 {
			blocks, kb := copiesIn(t, b)
			mostKB = max(mostKB, kb)
			for _, k := range blocks {
				if (k+1)*block <= off-2*block-lag {
					t.Fatalf("at %d, block %d is still a copy, behind what was released", off, k)
				}
				sawCopy = sawCopy || k*block >= off-step
			}
		}
	}
	if !sawCopy {
		t.Fatal("no block ahead of the reading was a copy: Fetch copied nothing")
	}
	m.Release(size)
	if !bytes.Equal(b, want) {
		t.Fatal("once released, the mapping does not read as the file")
	}
	if blocks, _ := copiesIn(t, b); len(blocks) > 0 {
		t.Fatalf("blocks %v are still copies after the last release", blocks)
	}
	// A second reading from the start, as Spread's when it gives up, reads the file's pages.
	m.Release(0)
	if !bytes.Equal(b, want) {
		t.Fatal("a second reading does not read as the file")
	}
	return mostKB
}

// A mapping read as the spread's reader reads it (Fetch ahead, Release behind) reads as the file
// at every moment, ahead of the reading, under it and as far behind it as its start; the blocks
// ahead are copies, which Release gives back to the file.
func TestFetchedMappingReadsAsTheFile(t *testing.T) {
	m, _, want := mapForFetch(t, 24*block+12345)
	readAsSpread(t, m, want, true)
}

// Memory stays flat while a fetched mapping is read: the copies ahead (up to two blocks), the
// blocks between the workers and the reader (two), lag, and a release step of the file's pages
// behind.
func TestFetchedMappingStaysFlat(t *testing.T) {
	m, _, want := mapForFetch(t, 32*block+12345)
	most := readAsSpread(t, m, want, false)
	const bound = (4*block + lag + releaseStep + block) >> 10
	t.Logf("at most %d KiB of the %d MiB file in memory at once", most, len(want)>>20)
	if most > bound {
		t.Errorf("up to %d KiB of the file were in memory at once, want at most %d KiB", most, bound)
	}
}

// A block that begins before from is not copied: bytes there may have been handed out.
func TestFetchCopiesNoBlockThatBeginsBeforeFrom(t *testing.T) {
	m, _, _ := mapForFetch(t, 8*block)
	m.Fetch(block+1, 3*block+1)
	blocks, _ := copiesIn(t, m.Bytes)
	if len(blocks) != 2 || blocks[0] != 2 || blocks[1] != 3 {
		t.Fatalf("Fetch(block+1, 3*block+1) copied blocks %v, want [2 3]", blocks)
	}
	m.Release(len(m.Bytes))
}

// A file cut short while its mapping is fetched is not copied past its new end: the mapping
// faults there, as it would without Fetch, and Guard reports the file changed. A file of
// another size than the one mapped is not copied at all.
func TestFetchOfAFileCutShortLeavesItToGuard(t *testing.T) {
	m, path, want := mapForFetch(t, 8*block)
	m.Fetch(0, 1)
	if err := os.Truncate(path, int64(2*block+100)); err != nil {
		t.Fatal(err)
	}
	m.Fetch(0, len(m.Bytes))
	blocks, _ := copiesIn(t, m.Bytes)
	if len(blocks) != 2 {
		t.Fatalf("blocks %v are copies, want the two the file still holds whole", blocks)
	}
	if !bytes.Equal(m.Bytes[:2*block+100], want[:2*block+100]) {
		t.Fatal("the mapping does not read as the file")
	}
	err := Guard(func() error {
		sink = m.Bytes[5*block]
		return nil
	})
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("reading past the new end: %v, want ErrChanged", err)
	}
	m.Release(len(m.Bytes))

	writeInPages(t, path, want)
	m2, ok, err := Map(path)
	if err != nil || !ok || m2.Fetch == nil {
		t.Fatalf("Map: %v %v", ok, err)
	}
	if err := os.Truncate(path, int64(block)); err != nil {
		t.Fatal(err)
	}
	m2.Fetch(0, len(m2.Bytes))
	if blocks, _ := copiesIn(t, m2.Bytes); len(blocks) > 0 {
		t.Fatalf("blocks %v of a file cut short before the first Fetch were copied", blocks)
	}
}

// Another file put at the mapped file's name is not copied into its mapping.
func TestFetchCopiesNothingOfAnotherFileAtTheName(t *testing.T) {
	m, path, want := mapForFetch(t, 6*block)
	other := filepath.Join(filepath.Dir(path), "other")
	if err := os.WriteFile(other, make([]byte, len(want)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	m.Fetch(0, len(m.Bytes))
	if blocks, _ := copiesIn(t, m.Bytes); len(blocks) > 0 {
		t.Fatalf("blocks %v were copied from another file", blocks)
	}
	if !bytes.Equal(m.Bytes, want) {
		t.Fatal("the mapping does not read as the file mapped")
	}
}

// A block that the page cache holds as one huge page is left to the mapping, which maps it
// whole at its first touch: Fetch copies only the others. Whether a file system holds a file
// written at once in huge pages depends on it; the test is skipped where it holds none.
func TestFetchLeavesTheFilesHugePagesMapped(t *testing.T) {
	m, path, want := mapForFetch(t, 8*block)
	if err := os.WriteFile(path+".whole", want, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".whole", path); err != nil {
		t.Fatal(err)
	}
	m, ok, err := Map(path)
	if err != nil || !ok || m.Fetch == nil {
		t.Fatalf("Map: %v %v", ok, err)
	}
	huge := hugeIn(t, m.Bytes)
	if len(huge) == 0 {
		t.Skip("the page cache holds no block of a file written at once in a huge page here")
	}
	m.Fetch(0, len(m.Bytes))
	copied, _ := copiesIn(t, m.Bytes)
	for k := range 8 {
		if slices.Contains(huge, k) == slices.Contains(copied, k) {
			t.Errorf("block %d: a huge page of the file %v, a copy %v", k, slices.Contains(huge, k), slices.Contains(copied, k))
		}
	}
	t.Logf("blocks in huge pages of the file %v, copies %v", huge, copied)
	if !bytes.Equal(m.Bytes, want) {
		t.Fatal("the mapping does not read as the file")
	}
	m.Release(len(m.Bytes))
}

// A log of Open's whose page cache holds it in 4 KB pages is read through copies (the Reader
// fetches ahead of its lines, events.Reader.Fetch), and reads as events.NewReader reads a copy
// of its bytes: the same events and sums, kept events included once the whole file has been read
// and the copies have gone back to the file.
func TestOpenOfAFetchedLogReadsAsNewReader(t *testing.T) {
	if !replacesInOneStep() {
		t.Skip("Fetch is offered on Linux 6.12 and later only")
	}
	src, b := bigLog(t, 9<<20)
	path := filepath.Join(filepath.Dir(src), "pages.jsonl")
	writeInPages(t, path, b)
	r, closeFn, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	mapped.mu.Lock()
	last := mapped.m[len(mapped.m)-1]
	mapped.mu.Unlock()
	if last.name != path {
		t.Fatalf("the last mapping is of %s, not %s", last.name, path)
	}
	m := last.b
	var got []read
	sawCopy := false
	for {
		e, err := r.NextLenient()
		if err == io.EOF {
			break
		}
		rd := read{e: e}
		if err != nil {
			rd.err = err.Error()
		}
		rd.sum, _ = r.LineSum()
		got = append(got, rd)
		if len(got)%500 == 0 && !sawCopy {
			blocks, _ := copiesIn(t, m)
			sawCopy = len(blocks) > 0
		}
	}
	if err := closeFn(); err != nil {
		t.Fatal(err)
	}
	if !sawCopy {
		t.Fatal("no block of the mapping was ever a copy: the Reader fetched nothing")
	}
	if blocks, _ := copiesIn(t, m); len(blocks) > 0 {
		t.Fatalf("blocks %v are still copies once the log is read through", blocks)
	}
	readAsNewReader(t, got, b, path)
}
