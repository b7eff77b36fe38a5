// Package alias gives the event decoder strings that share the bytes of the line they were read
// from instead of copying them: the one place of package events that steps outside Go's memory
// safety, kept here, small, with its invariant.
//
// The invariant: the bytes a string is made from are never written again, by anybody, for as
// long as the string (or anything holding it) lives. A Go string is immutable, and the compiler
// and the runtime rely on it (map keys, string interning, comparisons); a write into an aliased
// byte would silently change every string over it. events keeps the invariant by aliasing only
// the chunks of a Reader, which are new memory read into once and never reused, the bytes a
// caller of events.NewReaderBytes promised never to write (a file mapped read-only), and the
// lines a caller of a Decoder promised never to write (each message read from the log, its own
// allocation, as the recorder's bulk reads give it). The one
// exception is a Reader made by events.NewReaderReusing: it reads into a chunk again only once
// every line it handed out from it came back with its event (Recycle), and its caller promised to
// keep nothing of an event it gave back, so no string over the chunk is alive when it is written.
package alias

import "unsafe"

// String returns b's bytes as a string without copying them. b must never be written again
// (the package's invariant); the string keeps b's whole allocation alive.
func String(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// Within reports whether part's bytes lie in whole's allocation (whole[:cap(whole)]): which
// chunk of lines a line handed out came from, for a Reader that reuses its chunks. An empty part
// lies nowhere.
func Within(part, whole []byte) bool {
	if cap(part) == 0 || cap(whole) == 0 {
		return false
	}
	at := uintptr(unsafe.Pointer(unsafe.SliceData(part)))
	base := uintptr(unsafe.Pointer(unsafe.SliceData(whole)))
	return at >= base && at < base+uintptr(cap(whole))
}
