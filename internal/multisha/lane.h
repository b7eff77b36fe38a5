// What the two C kernels of package multisha share: a message being hashed (a lane), how its
// blocks are found, and the SHA-NI code that finishes lanes the AVX-512 kernel hands over. Not
// part of the Go side's interface (shani.h is).

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "shani.h"

// K holds the round constants of SHA-256 (FIPS 180-4 §4.2.2).
static const uint32_t K[64] __attribute__((aligned(16))) = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

// state is a chaining value in the order sha256rnds2 wants it: the words A, B, E, F in one
// register and C, D, G, H in the other, A and C in the top lane.
typedef struct {
	__m128i abef, cdgh;
} state;

// lane is one message being hashed: its blocks are read in place from the caller's buffer
// (the whole blocks, the body) and then from tail (the last partial block with the padding and
// the length, one or two blocks). st is its chaining value for the SHA-NI kernel; the AVX-512
// kernel keeps its own, transposed.
typedef struct {
	state st;
	const uint8_t *p; // the next block of the current segment
	size_t nblk;      // the blocks left in the current segment
	size_t ntail;     // the blocks of tail
	int in_body;      // whether the current segment is the body (the tail comes next)
	size_t idx;       // the message's index, where its digest goes
	uint8_t tail[128];
} lane;

static inline void put_be64(uint8_t *p, uint64_t x) {
	for (int i = 7; i >= 0; i--) {
		p[i] = (uint8_t)x;
		x >>= 8;
	}
}

// lane_start sets L to message s of buf, index idx: its segments, not its chaining value.
static inline void lane_start(lane *L, const uint8_t *buf, const multisha_span *s, size_t idx) {
	const size_t len = (size_t)s->len, full = len / 64, rem = len % 64;
	const uint8_t *msg = buf + s->off;
	L->idx = idx;
	memset(L->tail, 0, sizeof L->tail);
	if (rem > 0) {
		memcpy(L->tail, msg + 64 * full, rem);
	}
	L->tail[rem] = 0x80;
	L->ntail = rem < 56 ? 1 : 2; // the 0x80 and the 8-byte length must fit after the bytes
	put_be64(L->tail + 64 * L->ntail - 8, (uint64_t)len * 8);
	if (full > 0) {
		L->p = msg;
		L->nblk = full;
		L->in_body = 1;
	} else {
		L->p = L->tail;
		L->nblk = L->ntail;
		L->in_body = 0;
	}
}

// lane_next moves L, whose current segment is done, to its tail and returns 1; or returns 0 if
// the tail was the one done, the message hashed.
static inline int lane_next(lane *L) {
	if (!L->in_body) {
		return 0;
	}
	L->p = L->tail;
	L->nblk = L->ntail;
	L->in_body = 0;
	return 1;
}

// SHANI_LANES is the most messages the SHA-NI kernel hashes at once (shani_amd64.c says why).
#define SHANI_LANES 4

// multisha_shani_lanes hashes the na <= SHANI_LANES messages of act to their ends with the SHA
// extensions, each from its chaining value and position, then messages next to n of spans, and
// writes every digest to out. The caller has checked that the CPU has the extensions.
void multisha_shani_lanes(lane **act, int na, const uint8_t *buf, const multisha_span *spans, size_t n,
			  size_t next, uint8_t *out);
