// Package alias gives the event decoder strings that share the bytes of the line they were read
// from instead of copying them: the one place of package events that steps outside Go's memory
// safety, kept here, small, with its invariant.
//
// The invariant: the bytes a string is made from are never written again, by anybody, for as
// long as the string (or anything holding it) lives. A Go string is immutable, and the compiler
// and the runtime rely on it (map keys, string interning, comparisons); a write into an aliased
// byte would silently change every string over it. events keeps the invariant by aliasing only
// the chunks of a Reader, which are new memory read into once and never reused, and the bytes a
// caller of events.NewReaderBytes promised never to write (a file mapped read-only).
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
