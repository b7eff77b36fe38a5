//go:build amd64 && cgo

package multisha

/*
// -O2 even if CGO_CFLAGS asks for less (these flags come after it): the kernels need their
// per-lane loops unrolled and their arrays kept in registers.
#cgo CFLAGS: -O2
#cgo noescape multisha_sum_many
#cgo nocallback multisha_sum_many
#cgo noescape multisha_sum_many_avx512
#cgo nocallback multisha_sum_many_avx512
#cgo noescape multisha_hmac_counter
#cgo nocallback multisha_hmac_counter
#include "shani.h"
*/
import "C"

import "unsafe"

// haveSHANI is whether this CPU has the SHA extensions that shani_amd64.c uses.
var haveSHANI = C.multisha_have_shani() != 0

// haveAVX512 is whether this CPU has the AVX-512 instructions that avx512_amd64.c uses, and the
// OS keeps their registers.
var haveAVX512 = C.multisha_have_avx512() != 0

// The C code reads the spans as pairs of int64: so they are, and must stay.
var (
	_ [unsafe.Sizeof(Span{}) - 16]byte
	_ [16 - unsafe.Sizeof(Span{})]byte
)

// sumManySHANI is SumMany in C, whose arguments it has checked: len(spans) > 0, every span
// within buf, len(out) >= len(spans). The memory passed holds no Go pointers, and the C code
// keeps none of it (noescape, nocallback), so that the caller's slices may live on its stack.
func sumManySHANI(out [][Size]byte, buf []byte, spans []Span) {
	C.multisha_sum_many((*C.uint8_t)(unsafe.SliceData(buf)),
		(*C.multisha_span)(unsafe.Pointer(unsafe.SliceData(spans))), C.size_t(len(spans)),
		(*C.uint8_t)(&out[0][0]))
}

// hmacCounterSHANI is HMACCounter in C, for len(out) > 0 and the key as one block.
func hmacCounterSHANI(out [][Size]byte, key *[64]byte, from uint64) {
	C.multisha_hmac_counter((*C.uint8_t)(&key[0]), C.uint64_t(from), C.size_t(len(out)), (*C.uint8_t)(&out[0][0]))
}

// sumManyAVX512 is sumManySHANI with sixteen messages at once in AVX-512 registers, the batch's
// last handoff or fewer finished with SHA-NI (0 for none).
func sumManyAVX512(out [][Size]byte, buf []byte, spans []Span, handoff int) {
	C.multisha_sum_many_avx512((*C.uint8_t)(unsafe.SliceData(buf)),
		(*C.multisha_span)(unsafe.Pointer(unsafe.SliceData(spans))), C.size_t(len(spans)),
		(*C.uint8_t)(&out[0][0]), C.int(handoff))
}
