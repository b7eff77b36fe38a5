package logfile

import "os"

// Map returns the bytes of the log file called name mapped into memory, as Open maps it, for a
// reader that cuts them itself (audit.ParallelReaders decodes blocks of them on several cores),
// with release, which gives their first n bytes back to the file as NewReaderBytes's done does.
// ok is false, and nothing is open, when the file cannot be mapped (not a regular file, empty,
// or on a system without mappings): Open reads it through buffers then. Guard covers the bytes.
func Map(name string) (b []byte, release func(n int), ok bool, err error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, false, err
	}
	defer f.Close() // the mapping does not need the file open
	if b, release, ok = mapFile(f); !ok {
		return nil, nil, false, nil
	}
	mapped.add(b, name)
	return b, release, true, nil
}
