//go:build !amd64

package prefetch

// Bytes does nothing where there is no prefetch instruction to give: the later reading waits
// for the bytes as it would have.
func Bytes(b []byte) {}
