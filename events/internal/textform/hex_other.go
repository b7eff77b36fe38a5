//go:build !amd64

package textform

// isHex64 is hex64 where there is no vector version.
func isHex64(s []byte) bool { return hex64(s) }

// isHexOf is hexOf where there is no vector version.
func isHexOf(s string, sum *[32]byte) bool { return hexOf(s, sum) }
