package prefetch

import "unsafe"

// Of asks the processor to bring the cache line holding *p into its caches, as Line does, for a
// pointer of any type: a slot of a table about to be read, asked for by a package that may not
// convert pointers itself (unsafe is kept to internal/).
func Of[T any](p *T) { Line(unsafe.Pointer(p)) }
