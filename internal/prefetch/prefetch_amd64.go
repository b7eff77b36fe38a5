//go:build amd64

package prefetch

// Bytes asks the processor to bring b's bytes into its caches (PREFETCHT0, one a cache line),
// and returns at once: the next lines to hash, asked for a line at a time while the lines before
// them are decoded, are found there instead of waited for.
//
//go:noescape
func Bytes(b []byte)
