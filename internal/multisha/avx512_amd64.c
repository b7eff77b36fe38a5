//go:build amd64 && cgo

// SHA-256 of sixteen independent messages at once in the sixteen 32-bit lanes of AVX-512
// registers, without the SHA extensions (multi-buffer SHA-256, as in Intel's ISA-L crypto).
//
// Why: SHA-NI is bound by its unit's throughput on the CPUs that have both (a Sapphire Rapids
// gives about 1.7 to 2 GB/s however many streams are interleaved, shani_amd64.c), while the
// plain rounds of sixteen messages are about 17 vector operations a round on two ports; a
// round's rotations are vprord, its Ch, Maj and three-way xors one vpternlogd each. Word j of
// the sixteen chaining values is one register; the sixteen lanes' blocks are transposed into
// sixteen registers of message words, a lane's block in its element.
//
// Lanes of unequal lengths: as the SHA-NI code, a lane whose message is done takes the next one,
// each step compressing as many blocks as the shortest current segment has. When no message is
// left and few lanes still run, sixteen lanes would mostly hash nothing: those lanes are handed
// to the SHA-NI kernel, where the CPU has it, to finish.

#include <cpuid.h>

#include "lane.h"

#define TARGET512 __attribute__((target("avx512f,avx512vl,avx512bw")))

#define LANES16 16

// multisha_have_avx512 reports whether the CPU has AVX-512 F, BW and VL and the OS saves the
// registers' whole state (XCR0: the SSE, AVX, opmask and both halves of the upper ZMM state),
// without which the instructions fault.
int multisha_have_avx512(void) {
	unsigned a, b, c, d;
	if (!__get_cpuid(1, &a, &b, &c, &d) || !((c >> 27) & 1)) { // OSXSAVE: xgetbv may be used
		return 0;
	}
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
		return 0;
	}
	const int f = (b >> 16) & 1, bw = (b >> 30) & 1, vl = (b >> 31) & 1;
	if (!(f && bw && vl)) {
		return 0;
	}
	unsigned lo, hi;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (lo & 0xe6) == 0xe6;
}

static const uint32_t IV[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
			       0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

// idle is the block an idle lane reads: its element of the state is hashed and never read.
static const uint8_t idle[64] __attribute__((aligned(64)));

#define ROR(x, n) _mm512_ror_epi32(x, n)

// transpose16 loads the next block of each of the sixteen lanes, p[l], and sets w[t] to word t of
// the sixteen blocks, read big-endian: lane l's in element l. Two rounds of unpacks make 4x4
// transposes within each 128-bit quarter, two of 128-bit shuffles move the quarters.
TARGET512 static inline void transpose16(__m512i w[16], const uint8_t *const *p) {
	const __m512i bswap = _mm512_set4_epi32(0x0c0d0e0f, 0x08090a0b, 0x04050607, 0x00010203);
	__m512i r[16], t[16];
	_Pragma("GCC unroll 16") for (int l = 0; l < 16; l++) {
		r[l] = _mm512_shuffle_epi8(_mm512_loadu_si512((const void *)p[l]), bswap);
	}
	// t[2i], t[2i+1]: in quarter k, words 4k, 4k+1 (then 4k+2, 4k+3) of rows 2i and 2i+1 by turns.
	_Pragma("GCC unroll 8") for (int i = 0; i < 8; i++) {
		t[2 * i] = _mm512_unpacklo_epi32(r[2 * i], r[2 * i + 1]);
		t[2 * i + 1] = _mm512_unpackhi_epi32(r[2 * i], r[2 * i + 1]);
	}
	// r[4g+q]: in quarter k, word 4k+q of rows 4g to 4g+3.
	_Pragma("GCC unroll 4") for (int g = 0; g < 4; g++) {
		r[4 * g + 0] = _mm512_unpacklo_epi64(t[4 * g], t[4 * g + 2]);
		r[4 * g + 1] = _mm512_unpackhi_epi64(t[4 * g], t[4 * g + 2]);
		r[4 * g + 2] = _mm512_unpacklo_epi64(t[4 * g + 1], t[4 * g + 3]);
		r[4 * g + 3] = _mm512_unpackhi_epi64(t[4 * g + 1], t[4 * g + 3]);
	}
	// w[4k+q] takes quarter k of r[q], r[4+q], r[8+q], r[12+q]: a 4x4 transpose of quarters.
	_Pragma("GCC unroll 4") for (int q = 0; q < 4; q++) {
		const __m512i x0 = _mm512_shuffle_i32x4(r[q], r[4 + q], 0x44);     // r[q].0 .1, r[4+q].0 .1
		const __m512i x1 = _mm512_shuffle_i32x4(r[q], r[4 + q], 0xee);     // .2 .3 of both
		const __m512i x2 = _mm512_shuffle_i32x4(r[8 + q], r[12 + q], 0x44);
		const __m512i x3 = _mm512_shuffle_i32x4(r[8 + q], r[12 + q], 0xee);
		w[q] = _mm512_shuffle_i32x4(x0, x2, 0x88);      // quarter 0 of the four
		w[4 + q] = _mm512_shuffle_i32x4(x0, x2, 0xdd);  // quarter 1
		w[8 + q] = _mm512_shuffle_i32x4(x1, x3, 0x88);  // quarter 2
		w[12 + q] = _mm512_shuffle_i32x4(x1, x3, 0xdd); // quarter 3
	}
}

// compress16 runs m blocks through each of the sixteen chaining values s (word j of lane l in
// element l of s[j]): lane l reads its blocks from P[l] on, step[l] bytes apart (64, or 0 for an
// idle lane that reads one block again and again), and P[l] is left after the last.
TARGET512 static inline __attribute__((always_inline)) void compress16(__m512i s[8], const uint8_t **P,
									const size_t *step, uint32_t m) {
	__m512i a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
	for (uint32_t blk = 0; blk < m; blk++) {
		__m512i w[16];
		transpose16(w, P);
		_Pragma("GCC unroll 16") for (int l = 0; l < 16; l++) {
			P[l] += step[l];
		}
		const __m512i a0 = a, b0 = b, c0 = c, d0 = d, e0 = e, f0 = f, g0 = g, h0 = h;
		_Pragma("GCC unroll 64") for (int t = 0; t < 64; t++) {
			__m512i wt;
			if (t < 16) {
				wt = w[t];
			} else {
				// W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16], in a ring of sixteen.
				const __m512i w15 = w[(t - 15) & 15], w2 = w[(t - 2) & 15];
				const __m512i s0 = _mm512_ternarylogic_epi32(ROR(w15, 7), ROR(w15, 18), _mm512_srli_epi32(w15, 3), 0x96);
				const __m512i s1 = _mm512_ternarylogic_epi32(ROR(w2, 17), ROR(w2, 19), _mm512_srli_epi32(w2, 10), 0x96);
				wt = _mm512_add_epi32(_mm512_add_epi32(w[t & 15], s0), _mm512_add_epi32(w[(t - 7) & 15], s1));
				w[t & 15] = wt;
			}
			// 0x96 is the xor of three, 0xca e ? f : g (Ch), 0xe8 the majority (Maj).
			const __m512i S1 = _mm512_ternarylogic_epi32(ROR(e, 6), ROR(e, 11), ROR(e, 25), 0x96);
			const __m512i ch = _mm512_ternarylogic_epi32(e, f, g, 0xca);
			const __m512i hk = _mm512_add_epi32(h, _mm512_add_epi32(wt, _mm512_set1_epi32((int)K[t])));
			const __m512i t1 = _mm512_add_epi32(_mm512_add_epi32(hk, S1), ch);
			const __m512i S0 = _mm512_ternarylogic_epi32(ROR(a, 2), ROR(a, 13), ROR(a, 22), 0x96);
			const __m512i maj = _mm512_ternarylogic_epi32(a, b, c, 0xe8);
			h = g;
			g = f;
			f = e;
			e = _mm512_add_epi32(d, t1);
			d = c;
			c = b;
			b = a;
			a = _mm512_add_epi32(t1, _mm512_add_epi32(S0, maj));
		}
		a = _mm512_add_epi32(a, a0);
		b = _mm512_add_epi32(b, b0);
		c = _mm512_add_epi32(c, c0);
		d = _mm512_add_epi32(d, d0);
		e = _mm512_add_epi32(e, e0);
		f = _mm512_add_epi32(f, f0);
		g = _mm512_add_epi32(g, g0);
		h = _mm512_add_epi32(h, h0);
	}
	s[0] = a, s[1] = b, s[2] = c, s[3] = d, s[4] = e, s[5] = f, s[6] = g, s[7] = h;
}

// lanes16 is the sixteen messages in flight, one a lane, their fields each an array by lane so
// that compress16 and the vector code below read them at once.
typedef struct {
	uint8_t tail[LANES16][128] __attribute__((aligned(64))); // as lane's tail
	uint32_t nblk[LANES16] __attribute__((aligned(64)));     // the blocks left in the current segment
	const uint8_t *P[LANES16];                                // the next block of each lane
	size_t step[LANES16];                                     // 64, or 0 for an idle lane
	size_t idx[LANES16];                                      // the message's index
	uint32_t ntail[LANES16];                                  // the blocks of tail
} lanes16;

// start16 sets lane l of L to message s of buf, index idx (its chaining value is the caller's):
// the last partial block, its padding and length, one or two blocks, built in a register (a
// masked load reads no byte past the message) and stored as the lane's tail.
TARGET512 static inline void start16(lanes16 *L, int l, const uint8_t *buf, const multisha_span *s,
				      size_t idx) {
	const uint64_t len = (uint64_t)s->len, full = len / 64, rem = len % 64;
	const uint8_t *msg = buf + s->off;
	__m512i t = _mm512_maskz_loadu_epi8((1ULL << rem) - 1, msg + 64 * full);
	t = _mm512_mask_mov_epi8(t, 1ULL << rem, _mm512_set1_epi8((char)0x80));
	const __m512i bits = _mm512_set1_epi64((long long)__builtin_bswap64(len * 8));
	if (rem < 56) { // the 0x80 and the 8-byte length fit after the bytes
		_mm512_store_si512(L->tail[l], _mm512_mask_mov_epi64(t, 0x80, bits));
		L->ntail[l] = 1;
	} else {
		_mm512_store_si512(L->tail[l], t);
		_mm512_store_si512(L->tail[l] + 64, _mm512_maskz_mov_epi64(0x80, bits));
		L->ntail[l] = 2;
	}
	L->idx[l] = idx;
	L->step[l] = 64;
	if (full > 0) {
		L->P[l] = msg;
		L->nblk[l] = (uint32_t)full;
	} else {
		L->P[l] = L->tail[l];
		L->nblk[l] = L->ntail[l];
	}
}

// multisha_sum_many_avx512 is multisha_sum_many with sixteen lanes of AVX-512. When no message
// is left to start and at most handoff lanes still run, they are finished by the SHA-NI kernel
// (the caller has checked the CPU has it), SHANI_LANES at a time; handoff 0 keeps every message
// on AVX-512 to its end. Every message is shorter than 2^36 bytes (the caller sees to it), so
// that a lane's count of blocks fits in 32 bits, and an idle lane's (2^32-1, less the blocks of
// the messages still running when it went idle) never reaches 0.
TARGET512 void multisha_sum_many_avx512(const uint8_t *buf, const multisha_span *spans, size_t n, uint8_t *out,
					int handoff) {
	lanes16 L;
	__m512i st[8];
	uint32_t live = 0, body = 0; // lanes with a message; lanes in the body of theirs
	size_t next = 0;
	for (int j = 0; j < 8; j++) {
		st[j] = _mm512_set1_epi32((int)IV[j]);
	}
	for (int l = 0; l < LANES16; l++) {
		if (next < n) {
			start16(&L, l, buf, &spans[next], next);
			body |= (uint32_t)(L.P[l] != L.tail[l]) << l;
			live |= 1u << l;
			next++;
		} else {
			L.P[l] = idle;
			L.step[l] = 0;
			L.nblk[l] = UINT32_MAX;
		}
	}
	// The words of a chaining value in the digest's order, 64 bytes apart: a lane's gather.
	const __m256i words = _mm256_setr_epi32(0, 16, 32, 48, 64, 80, 96, 112);
	const __m256i bswap = _mm256_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14,
					      15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
	uint32_t sts[8][16] __attribute__((aligned(64)));
	while (live != 0 && (next < n || __builtin_popcount(live) > handoff)) {
		__m512i nb = _mm512_load_si512(L.nblk);
		const uint32_t m = _mm512_reduce_min_epu32(nb);
		compress16(st, L.P, L.step, m);
		nb = _mm512_sub_epi32(nb, _mm512_set1_epi32((int)m));
		_mm512_store_si512(L.nblk, nb);
		uint32_t ended = _mm512_mask_cmpeq_epi32_mask((__mmask16)live, nb, _mm512_setzero_si512());
		// Lanes at the end of their body go on to their tails; the others ended are done.
		const uint32_t tails = ended & body;
		for (uint32_t x = tails; x != 0; x &= x - 1) {
			const int l = __builtin_ctz(x);
			L.P[l] = L.tail[l];
			L.nblk[l] = L.ntail[l];
		}
		body &= ~tails;
		const uint32_t done = ended & ~tails;
		if (done == 0) {
			continue;
		}
		// Lanes whose message is hashed: their digests out, then the next messages in.
		for (int j = 0; j < 8; j++) {
			_mm512_store_si512(sts[j], st[j]);
		}
		uint32_t restart = 0;
		for (uint32_t x = done; x != 0; x &= x - 1) {
			const int l = __builtin_ctz(x);
			const __m256i dg = _mm256_i32gather_epi32((const int *)&sts[0][l], words, 4);
			_mm256_storeu_si256((__m256i *)(out + 32 * L.idx[l]), _mm256_shuffle_epi8(dg, bswap));
			if (next < n) {
				start16(&L, l, buf, &spans[next], next);
				body |= (uint32_t)(L.P[l] != L.tail[l]) << l;
				restart |= 1u << l;
				next++;
			} else {
				live &= ~(1u << l);
				L.P[l] = idle;
				L.step[l] = 0;
				L.nblk[l] = UINT32_MAX;
			}
		}
		for (int j = 0; j < 8; j++) {
			st[j] = _mm512_mask_mov_epi32(st[j], (__mmask16)restart, _mm512_set1_epi32((int)IV[j]));
		}
	}
	if (live == 0) {
		return;
	}
	// The last lanes to SHA-NI, their chaining values in its order, SHANI_LANES at a time.
	for (int j = 0; j < 8; j++) {
		_mm512_store_si512(sts[j], st[j]);
	}
	lane lanes[SHANI_LANES];
	lane *act[SHANI_LANES];
	int k = 0;
	for (uint32_t x = live; x != 0; x &= x - 1) {
		const int l = __builtin_ctz(x);
		lane *M = &lanes[k];
		M->st.abef = _mm_set_epi32((int)sts[0][l], (int)sts[1][l], (int)sts[4][l], (int)sts[5][l]);
		M->st.cdgh = _mm_set_epi32((int)sts[2][l], (int)sts[3][l], (int)sts[6][l], (int)sts[7][l]);
		memcpy(M->tail, L.tail[l], sizeof M->tail);
		M->ntail = L.ntail[l];
		M->idx = L.idx[l];
		M->nblk = L.nblk[l];
		M->in_body = (body >> l) & 1;
		M->p = M->in_body ? L.P[l] : M->tail + (L.P[l] - L.tail[l]);
		act[k++] = M;
		if (k == SHANI_LANES) {
			multisha_shani_lanes(act, k, buf, spans, n, n, out);
			k = 0;
		}
	}
	if (k > 0) {
		multisha_shani_lanes(act, k, buf, spans, n, n, out);
	}
}
