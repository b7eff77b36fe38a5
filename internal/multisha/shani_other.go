//go:build !amd64 || !cgo

package multisha

// haveSHANI and haveAVX512 are false: the kernels are amd64 C, and this build has neither.
const (
	haveSHANI  = false
	haveAVX512 = false
)

func sumManySHANI(out [][Size]byte, buf []byte, spans []Span) {
	panic("multisha: no SHA extensions in this build")
}

func hmacCounterSHANI(out [][Size]byte, key *[64]byte, from uint64) {
	panic("multisha: no SHA extensions in this build")
}

func sumManyAVX512(out [][Size]byte, buf []byte, spans []Span, handoff int) {
	panic("multisha: no AVX-512 in this build")
}
