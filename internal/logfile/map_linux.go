package logfile

import (
	"os"
	"strconv"
	"syscall"
)

// mapFile maps f, a regular file of at least one byte, read-only into memory, and returns its
// bytes with the function that gives their first n bytes back to the file (see
// events.NewReaderBytes). ok is false when f cannot be mapped; f is then left as it was.
//
// The mapping is never unmapped: the events read from it may be kept for as long as their
// holder likes. Only its address space stays taken, which a 64-bit process has plenty of; a
// 32-bit one reads through buffers instead.
func mapFile(f *os.File) (b []byte, release func(n int), ok bool) {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() == 0 || strconv.IntSize < 64 {
		return nil, nil, false
	}
	b, err = syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		return nil, nil, false
	}
	released := 0
	page := os.Getpagesize()
	return b, func(n int) {
		// A caller may still read the last lines it was given (the auditor reads the events of
		// a hand again when the hand ends): until the end of the file, the last lag bytes are
		// kept, so that those are not read back from the file into pages that nothing would
		// then let go.
		last := n >= len(b)
		if !last {
			n -= lag
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
	}, true
}

// lag is how much of what a Reader has returned stays mapped in memory, behind where it reads.
const lag = 1 << 20

// releaseStep is how much a mapping gives back at a time at least (but at the end of the file).
const releaseStep = 4 << 20
