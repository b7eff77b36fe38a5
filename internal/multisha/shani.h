// The C side of package multisha: SHA-256 of several independent messages at once in one
// thread, with the x86 SHA extensions (shani_amd64.c) or in the lanes of AVX-512 registers
// (avx512_amd64.c).

#include <stddef.h>
#include <stdint.h>

// multisha_span is a message buf[off : off+len]; its layout is that of the Go Span on amd64.
typedef struct {
	int64_t off, len;
} multisha_span;

// multisha_have_shani reports whether the CPU has the SHA extensions with SSSE3 and SSE4.1.
int multisha_have_shani(void);

// multisha_sum_many sets out[32*i : 32*i+32] to the SHA-256 of message spans[i] of buf, for i < n.
// The spans lie within buf (the caller checked).
void multisha_sum_many(const uint8_t *buf, const multisha_span *spans, size_t n, uint8_t *out);

// multisha_hmac_counter sets out[32*i : 32*i+32] to HMAC-SHA256(key, from+i as 8 bytes
// big-endian), for i < n. key is the HMAC key already brought to one 64-byte block (zero-padded,
// or hashed then zero-padded when longer than a block).
void multisha_hmac_counter(const uint8_t *key, uint64_t from, size_t n, uint8_t *out);

// multisha_have_avx512 reports whether the CPU has AVX-512 F, BW and VL and the OS keeps the
// ZMM registers' state.
int multisha_have_avx512(void);

// multisha_sum_many_avx512 is multisha_sum_many with sixteen messages at once in AVX-512
// registers; the last handoff or fewer messages of the batch are finished with the SHA
// extensions (handoff > 0 only on a CPU that has them).
void multisha_sum_many_avx512(const uint8_t *buf, const multisha_span *spans, size_t n, uint8_t *out,
			      int handoff);
