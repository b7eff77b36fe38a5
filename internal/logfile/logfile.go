// Package logfile opens the JSON Lines logs that commands read from files. On Linux a regular
// file is mapped into memory, read-only, instead of being read through buffers (but for a
// caller that gives every event back, OpenReusing): the lines and the events' strings are then
// the file's own pages, which the kernel already holds, so reading a log copies none of it into
// the heap. The lines were the largest part of what an audit allocates,
// and the garbage collector's work and the copy go with them (BENCHMARKS.md).
//
// What a Reader hands out stays its caller's (events.Reader): a mapping is never unmapped and
// never written, and the pages already read are given back to the file as reading goes (they are
// read from it again if touched), so memory stays flat however long the log. On Linux 6.12 and
// later, the parts of a large file that the page cache does not hold in huge pages are copied
// into memory just ahead of the reading and given back to the file behind it (Mapping.Fetch,
// map_linux.go), which costs less than mapping them 4 KB at a time. The price is that a
// log must not change while it is read: a file cut short under the reader (or a disk that fails
// to read a page) makes reading its missing part fail, which Guard turns into an error instead
// of a crash.
//
// The logs that commands write go through a Writer, in the pieces that the page cache keeps as
// huge folios, which a mapping maps whole (writer.go).
package logfile

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"sync"
	"unsafe"

	"github.com/fechado/fechado/events"
)

// Open returns a Reader of the log file called name, and the function that closes it when it is
// done with. A file that cannot be mapped (not a regular file, empty, or on a system without
// mappings) is read through buffers as events.NewReader does.
func Open(name string) (*events.Reader, func() error, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	if b, release, fetch, ok := mapFile(f, name); ok {
		// The mapping does not need the file open.
		if err := f.Close(); err != nil {
			return nil, nil, err
		}
		mapped.add(b, name)
		r := events.NewReaderBytes(b, name, release)
		if fetch != nil {
			r.Fetch(fetch) // the Reader is the mapping's one reader
		}
		return r, func() error { return nil }, nil
	}
	return events.NewReader(f, name), f.Close, nil
}

// OpenReusing returns a Reader of the log file called name that reads it into a few chunks used
// over and over (events.NewReaderReusing, as o says; the file's size is set) rather than mapping
// it, and the function that closes it. The caller must give back every event it is done with
// (events.Reader.Recycle) and keep nothing of them: what they alias is written again. The first
// touch of each page of a fresh mapping is dear on some machines (a virtual machine keeping the
// guest's page tables itself); a few chunks touched once each are not.
func OpenReusing(name string, o events.Reuse) (*events.Reader, func() error, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		o.Size = int(st.Size())
	}
	return events.NewReaderReusing(f, name, o), f.Close, nil
}

// Mapping is a log file mapped into memory, read-only (Map).
type Mapping struct {
	// Bytes are the file's bytes. They are never written nor unmapped; they must be read under
	// Guard.
	Bytes []byte
	// Release gives the first n bytes back to the file once every line there is done with (as
	// events.NewReaderBytes's done; n smaller than before begins a second reading from the
	// start).
	Release func(n int)
	// Fetch, when not nil, copies the blocks of the file that begin in [from, to) into memory
	// of the process's own, ahead of the reading, which touches them for less than the
	// mapping's pages would cost (map_linux.go). Only the one reader ahead of every other may
	// call it, with from where nothing has been handed out of the bytes yet; Release gives the
	// copies back to the file.
	Fetch func(from, to int)
}

// Map returns the log file called name mapped into memory; ok is false when the file cannot be
// mapped (not a regular file, empty, or on a system without mappings), and the caller reads it
// with Open instead.
func Map(name string) (m Mapping, ok bool, err error) {
	f, err := os.Open(name)
	if err != nil {
		return Mapping{}, false, err
	}
	defer f.Close() // the mapping does not need the file open
	m.Bytes, m.Release, m.Fetch, ok = mapFile(f, name)
	if ok {
		mapped.add(m.Bytes, name)
	}
	return m, ok, nil
}

// ErrChanged is Guard's error when a part of a mapped log could not be read any more: the file
// was cut short while it was read, or the disk failed. The error Guard returns names the file.
var ErrChanged = errors.New("the file was cut short, or could not be read from the disk, while it was being read: read it again once nothing writes to it")

// Guard runs fn, which reads logs opened by Open, and returns its error; or an error wrapping
// ErrChanged, naming the file, when fn touched a part of a mapped log that is no longer in the
// file (the system signals it as a memory fault, which would otherwise end the process). Any
// other panic goes on, a fault elsewhere included.
func Guard(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if f, ok := r.(interface{ Addr() uintptr }); ok {
				if name, ok := mapped.find(f.Addr()); ok {
					err = fmt.Errorf("%s: %w", name, ErrChanged)
					return
				}
			}
			panic(r)
		}
	}()
	return fn()
}

// mappings are the files mapped by Open, by the addresses of their bytes (they are never
// unmapped), so that Guard tells a fault on a log from any other.
type mappings struct {
	mu sync.Mutex
	m  []mapping
}

type mapping struct {
	start, end uintptr
	name       string
	b          []byte // the bytes, for the tests
}

var mapped mappings

func (ms *mappings) add(b []byte, name string) {
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	ms.mu.Lock()
	defer ms.mu.Unlock()
	ms.m = append(ms.m, mapping{start, start + uintptr(len(b)), name, b})
}

// find returns the name of the file mapped at addr.
func (ms *mappings) find(addr uintptr) (string, bool) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	for _, m := range ms.m {
		if addr >= m.start && addr < m.end {
			return m.name, true
		}
	}
	return "", false
}
