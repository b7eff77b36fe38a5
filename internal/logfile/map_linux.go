package logfile

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// mapFile maps f, a regular file of at least one byte called name, read-only into memory, and
// returns its bytes with the function that gives their first n bytes back to the file (see
// events.NewReaderBytes) and, for a file of fetchMin bytes or more on a kernel that replaces a
// mapping in one step, the function that copies blocks of it ahead of the reading
// (Mapping.Fetch), else nil. ok is false when f cannot be mapped; f is then left as it was.
//
// The mapping is never unmapped: the events read from it may be kept for as long as their
// holder likes. Only its address space stays taken, which a 64-bit process has plenty of; a
// 32-bit one reads through buffers instead.
func mapFile(f *os.File, name string) (b []byte, release func(n int), fetch func(from, to int), ok bool) {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() == 0 || strconv.IntSize < 64 {
		return nil, nil, nil, false
	}
	size := int(st.Size())
	var c *copies
	if size >= fetchMin && replacesInOneStep() {
		if base, ok := mapAligned(f, size); ok {
			b = unsafe.Slice((*byte)(base), size)
			c = &copies{base: base, size: size, name: name, st: st}
			// A block the page cache does not hold is read in as one huge folio at its
			// first touch, which this and every later reading then maps whole (see
			// Writer): the file mapped 64 KB at a time or copied otherwise.
			_ = unix.Madvise(b, unix.MADV_HUGEPAGE)
		}
	}
	if b == nil {
		if b, err = syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_PRIVATE); err != nil {
			return nil, nil, nil, false
		}
	}
	released := 0
	page := os.Getpagesize()
	release = func(n int) {
		// A caller may still read the last lines it was given (the auditor reads the events of
		// a hand again when the hand ends): until the end of the file, the last lag bytes are
		// kept, so that those are not read back from the file into pages that nothing would
		// then let go.
		last := n >= len(b)
		if !last {
			n -= lag
		}
		// Copies behind n go back to the file first: MADV_DONTNEED would empty them.
		if c != nil {
			n = min(n, c.release(n, last))
		}
		// MADV_DONTNEED drops the pages from the process: the mapping is of a file and never
		// written, so reading them again reads the file again, unchanged. Less than before is a
		// second reading from the start (audit.Spread gives up its spread): its pages are
		// given back as it goes, as the first reading's were.
		n = n / page * page
		if n < released {
			released = 0
		}
		// In steps of releaseStep at least: each call interrupts every other core running a
		// thread of the process to flush its TLB (a spread audit's workers).
		if n >= released+releaseStep || last && n > released {
			_ = syscall.Madvise(b[released:n], syscall.MADV_DONTNEED)
			released = n
		}
	}
	if c != nil {
		fetch = c.fetch
	}
	return b, release, fetch, true
}

// lag is how much of what a Reader has returned stays mapped in memory, behind where it reads.
const lag = 1 << 20

// releaseStep is how much a mapping gives back at a time at least (but at the end of the file).
const releaseStep = 4 << 20

// block is what Fetch copies at a time: a huge page, as a Writer's pieces are.
const block = Piece

// fetchMin is the smallest file whose mapping Fetch copies ahead: four blocks. Below it, the
// faults of the whole file cost a few milliseconds at most, and opening it again to copy would
// save little of that.
const fetchMin = 4 * block

// The pages of a file's mapping are the page cache's own, each mapped on its first touch: in
// pieces of up to 64 KB around the page touched (the kernel's fault-around), or a whole 2 MB
// when the page cache holds that part of the file as one large folio, which depends on how
// the file came into it. On a virtual machine that keeps the guest's page tables itself, each
// such fault is dear: touching every cache line of 64 MB that the page cache holds in 4 KB pages
// cost 42–52 ms through the mapping, against 16.3–16.6 ms through copies made with pread(2) into
// fresh anonymous memory in 2 MB huge pages (BenchmarkTouchLog, BENCHMARKS.md, twenty-fourth
// session). So Fetch replaces blocks of the mapping, ahead of the reading, by such copies; and
// release puts the file's mapping back over each copy once the reading is past it, which frees
// the copy's memory as MADV_DONTNEED frees the file's pages: whatever is read behind the reading
// is read from the file again, as before, and memory stays flat.
//
// Every byte of the mapping reads as the file's at every moment but one: while Fetch fills a
// block (its pages are the copy's, still empty). Fetch's caller must be the one reader ahead of
// every other: Fetch copies only the blocks that begin at or after from, where nothing has been
// handed out. Replacing a block of the mapping by another mapping is one step, with no moment
// when the address maps nothing, on Linux 6.12 and later (mmap with MAP_FIXED, "Avoid MAP_FIXED
// gap exposure"); before it, a read of a block just then put back to the file could fault, which
// Guard would report as a changed file, so Fetch is not offered there.

// copies are the blocks of a mapping that Fetch replaced by copies.
type copies struct {
	base unsafe.Pointer
	size int
	name string
	st   os.FileInfo

	mu sync.Mutex
	// f is the file, opened by the first Fetch and closed at the end of the first reading.
	f *os.File
	// next is the first block Fetch has not looked at; held, the blocks that are copies, in
	// order; stopped that Fetch copies no more (a read failed or came short, the file changed,
	// or the first reading ended).
	next    int
	held    []int
	stopped bool
	// scan tells a block the page cache holds in one huge page, once opened with f.
	scan *hugeScan
}

// fetch copies every block of the mapping that begins in [from, to) and was not copied yet.
func (c *copies) fetch(from, to int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	to = min(to, c.size)
	k := max(c.next, (from+block-1)/block)
	for ; !c.stopped && k*block < to; k++ {
		if !c.copyBlock(k) {
			c.stop()
		}
	}
	c.next = max(c.next, k)
}

// copyBlock replaces block k of the mapping by a copy of the file's bytes, unless the page cache
// holds it in a huge page, and reports false when the file cannot be read: the block then stays
// the file's, and Fetch stops.
func (c *copies) copyBlock(k int) bool {
	if c.f == nil {
		f, err := os.Open(c.name)
		if err != nil {
			return false
		}
		// The file mapped, not another since put at its name.
		if st, err := f.Stat(); err != nil || !os.SameFile(st, c.st) || st.Size() != int64(c.size) {
			f.Close()
			return false
		}
		c.f = f
		c.scan = newHugeScan()
	}
	addr := unsafe.Add(c.base, k*block)
	if c.scan.huge(addr) {
		return true // the file's own huge page: nothing to gain
	}
	if _, err := unix.MmapPtr(-1, 0, addr, block, unix.PROT_READ|unix.PROT_WRITE,
		unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_FIXED); err != nil {
		return false
	}
	b := unsafe.Slice((*byte)(addr), block)
	_ = unix.Madvise(b, unix.MADV_HUGEPAGE)
	want := min(block, c.size-k*block)
	got := 0
	for got < want {
		n, err := unix.Pread(int(c.f.Fd()), b[got:want], int64(k*block+got))
		if n <= 0 || err != nil {
			break
		}
		got += n
	}
	if got < want {
		// Cut short since: the file's own pages again, which Guard reports as changed. Should
		// that fail (the system out of memory for the mapping), the copy stays, its end empty.
		c.toFile(k)
		return false
	}
	c.held = append(c.held, k)
	return true
}

// toFile puts the file's mapping back over block k, and reports whether it did. If not, the
// copy stays, its bytes the file's still.
func (c *copies) toFile(k int) bool {
	addr := unsafe.Add(c.base, k*block)
	_, err := unix.MmapPtr(int(c.f.Fd()), int64(k*block), addr, block, unix.PROT_READ, unix.MAP_PRIVATE|unix.MAP_FIXED)
	return err == nil
}

// release puts the file back over the copies that end at n or before (all of them at the last
// release of a reading), and returns how far from the start nothing is a copy any more: the
// mapping's release gives back the file's pages only that far, since the pages of a copy are
// the only ones holding its bytes.
func (c *copies) release(n int, last bool) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.held) > 0 && (last || (c.held[0]+1)*block <= n) {
		if !c.toFile(c.held[0]) {
			break // held still, so that no MADV_DONTNEED empties it: tried again next time
		}
		c.held = c.held[1:]
	}
	if last {
		c.stop()
	}
	if len(c.held) > 0 {
		return c.held[0] * block
	}
	return n
}

// stop ends the fetching, and closes the file once no copy needs it.
func (c *copies) stop() {
	c.stopped = true
	if c.f != nil && len(c.held) == 0 {
		c.f.Close()
		c.f = nil
		c.scan.close()
	}
}

// hugeScan asks the kernel whether a page of the process is mapped as part of a huge page
// (the PAGEMAP_SCAN ioctl of /proc/self/pagemap, Linux 6.7 and later, PAGE_IS_HUGE).
//
// Where the page cache holds a block of the file as one 2 MB folio, the mapping's first touch
// of the block maps all of it at once, and its copy would cost more (a fresh huge page cleared,
// then filled) than it saves: on the room log of make bench, whose page cache held 114 of its
// 135 blocks that way, copying every block made two workers slower (BENCHMARKS.md,
// twenty-fourth session). So Fetch touches a block's first byte through the mapping and copies
// the block only when that did not map a huge page.
type hugeScan struct {
	pagemap *os.File
	arg     pmScanArg
	region  pageRegion
	// touched is where huge reads the byte it touches, so that the read is not left out.
	touched byte
}

// pmScanArg and pageRegion are struct pm_scan_arg and struct page_region of linux/fs.h.
type pmScanArg struct {
	size, flags, start, end, walkEnd, vec, vecLen, maxPages       uint64
	categoryInverted, categoryMask, categoryAnyofMask, returnMask uint64
}

type pageRegion struct{ start, end, categories uint64 }

const (
	// pagemapScan is PAGEMAP_SCAN, _IOWR('f', 16, struct pm_scan_arg).
	pagemapScan   = 3<<30 | uintptr(unsafe.Sizeof(pmScanArg{}))<<16 | 'f'<<8 | 16
	pageIsPresent = 1 << 3
	pageIsHuge    = 1 << 6
)

// newHugeScan returns a hugeScan, or nil when /proc/self/pagemap cannot be opened (every block
// is then copied).
func newHugeScan() *hugeScan {
	f, err := os.Open("/proc/self/pagemap")
	if err != nil {
		return nil
	}
	return &hugeScan{pagemap: f}
}

// huge touches the byte at addr, which must be mapped, and reports whether its page is then
// part of a huge page. It reports false when the kernel cannot tell.
func (s *hugeScan) huge(addr unsafe.Pointer) bool {
	if s == nil {
		return false
	}
	s.touched = *(*byte)(addr)
	s.region = pageRegion{}
	s.arg = pmScanArg{start: uint64(uintptr(addr)), end: uint64(uintptr(addr)) + uint64(os.Getpagesize()),
		vec: uint64(uintptr(unsafe.Pointer(&s.region))), vecLen: 1,
		categoryMask: pageIsPresent | pageIsHuge, returnMask: pageIsPresent | pageIsHuge}
	s.arg.size = uint64(unsafe.Sizeof(s.arg))
	n, _, errno := unix.Syscall(unix.SYS_IOCTL, s.pagemap.Fd(), pagemapScan, uintptr(unsafe.Pointer(&s.arg)))
	return errno == 0 && n > 0
}

func (s *hugeScan) close() {
	if s != nil {
		s.pagemap.Close()
	}
}

// mapAligned maps f, of size bytes, read-only at an address that is a multiple of block, over
// a whole number of blocks (the last block's bytes past the file's end are never read), so that
// each block's copy can be one huge page.
func mapAligned(f *os.File, size int) (unsafe.Pointer, bool) {
	span := (size + block - 1) / block * block
	res, err := unix.MmapPtr(-1, 0, nil, uintptr(span+block), unix.PROT_NONE,
		unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE)
	if err != nil {
		return nil, false
	}
	head := (block - int(uintptr(res)%block)) % block
	base := unsafe.Add(res, head)
	if _, err := unix.MmapPtr(int(f.Fd()), 0, base, uintptr(span), unix.PROT_READ,
		unix.MAP_PRIVATE|unix.MAP_FIXED); err != nil {
		_ = unix.MunmapPtr(res, uintptr(span+block))
		return nil, false
	}
	if head > 0 {
		_ = unix.MunmapPtr(res, uintptr(head))
	}
	if tail := block - head; tail > 0 {
		_ = unix.MunmapPtr(unsafe.Add(base, span), uintptr(tail))
	}
	return base, true
}

// replacesInOneStep reports whether the kernel is Linux 6.12 or later (see above).
func replacesInOneStep() bool {
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return false
	}
	rel := unix.ByteSliceToString(u.Release[:])
	major, rest, _ := strings.Cut(rel, ".")
	minor, _, _ := strings.Cut(rest, ".")
	ma, err1 := strconv.Atoi(major)
	mi, err2 := strconv.Atoi(leadingDigits(minor))
	if err1 != nil || err2 != nil {
		return false
	}
	return ma > 6 || ma == 6 && mi >= 12
}

func leadingDigits(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}
