// Package logfile opens the JSON Lines logs that commands read from files. On Linux a regular
// file is mapped into memory, read-only, instead of being read through buffers: the lines and the
// events' strings are then the file's own pages, which the kernel already holds, so reading a log
// copies none of it into the heap. That is half of what an audit would otherwise allocate, and
// the garbage collector's work and the copy go with it (BENCHMARKS.md).
//
// What a Reader hands out stays its caller's (events.Reader): a mapping is never unmapped and
// never written, and the pages already read are given back to the file as reading goes (they are
// read from it again if touched), so memory stays flat however long the log. The price is that a
// log must not change while it is read: a file cut short under the reader makes reading its
// missing part fail, which Guard turns into an error instead of a crash.
package logfile

import (
	"errors"
	"os"
	"runtime/debug"

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
	if b, release, ok := mapFile(f); ok {
		// The mapping does not need the file open.
		if err := f.Close(); err != nil {
			return nil, nil, err
		}
		return events.NewReaderBytes(b, name, release), func() error { return nil }, nil
	}
	return events.NewReader(f, name), f.Close, nil
}

// ErrChanged is Guard's error when a mapped log was cut short while it was read.
var ErrChanged = errors.New("a log file was cut short while it was read: read it again once nothing writes to it")

// Guard runs fn, which reads logs opened by Open, and returns its error; or ErrChanged when fn
// touched a part of a mapped log that is no longer in the file (the system signals it as a
// memory fault, which would otherwise end the process). Any other panic goes on.
func Guard(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if _, fault := r.(interface{ Addr() uintptr }); fault {
				err = ErrChanged
				return
			}
			panic(r)
		}
	}()
	return fn()
}
