//go:build !amd64 || !cgo

package multisha

// haveSHANI is false: the interleaved code is amd64 C, and this build has neither.
const haveSHANI = false

func sumManySHANI(out [][Size]byte, buf []byte, spans []Span) {
	panic("multisha: no SHA extensions in this build")
}

func hmacCounterSHANI(out [][Size]byte, key *[64]byte, from uint64) {
	panic("multisha: no SHA extensions in this build")
}
