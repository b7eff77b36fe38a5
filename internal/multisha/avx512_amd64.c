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

// compress16 runs m blocks through each of the sixteen chaining values st[0..7] (word j of lane
// l in st[j][l]): lane l reads its blocks from P[l] on, step[l] bytes apart (64, or 0 for an idle
// lane that reads one block again and again), and P[l] is left after the last.
TARGET512 static void compress16(uint32_t st[8][16], const uint8_t **P, const size_t *step, size_t m) {
	__m512i a = _mm512_loadu_si512(st[0]), b = _mm512_loadu_si512(st[1]);
	__m512i c = _mm512_loadu_si512(st[2]), d = _mm512_loadu_si512(st[3]);
	__m512i e = _mm512_loadu_si512(st[4]), f = _mm512_loadu_si512(st[5]);
	__m512i g = _mm512_loadu_si512(st[6]), h = _mm512_loadu_si512(st[7]);
	const uint8_t *p[16];
	_Pragma("GCC unroll 16") for (int l = 0; l < 16; l++) {
		p[l] = P[l];
	}
	for (size_t blk = 0; blk < m; blk++) {
		__m512i w[16];
		transpose16(w, p);
		_Pragma("GCC unroll 16") for (int l = 0; l < 16; l++) {
			p[l] += step[l];
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
	_mm512_storeu_si512(st[0], a);
	_mm512_storeu_si512(st[1], b);
	_mm512_storeu_si512(st[2], c);
	_mm512_storeu_si512(st[3], d);
	_mm512_storeu_si512(st[4], e);
	_mm512_storeu_si512(st[5], f);
	_mm512_storeu_si512(st[6], g);
	_mm512_storeu_si512(st[7], h);
	_Pragma("GCC unroll 16") for (int l = 0; l < 16; l++) {
		P[l] = p[l];
	}
}

static inline void put_be32(uint8_t *p, uint32_t x) {
	p[0] = (uint8_t)(x >> 24);
	p[1] = (uint8_t)(x >> 16);
	p[2] = (uint8_t)(x >> 8);
	p[3] = (uint8_t)x;
}

// multisha_sum_many_avx512 is multisha_sum_many with sixteen lanes of AVX-512. When no message
// is left to start and at most handoff lanes still run, they are finished by the SHA-NI kernel
// (the caller has checked the CPU has it), SHANI_LANES at a time; handoff 0 keeps every message
// on AVX-512 to its end.
TARGET512 void multisha_sum_many_avx512(const uint8_t *buf, const multisha_span *spans, size_t n, uint8_t *out,
					int handoff) {
	uint32_t st[8][16] __attribute__((aligned(64)));
	lane lanes[LANES16];
	const uint8_t *P[LANES16];
	size_t step[LANES16];
	int live[LANES16];
	int na = 0;
	size_t next = 0;
	for (int l = 0; l < LANES16; l++) {
		live[l] = next < n;
		if (live[l]) {
			lane_start(&lanes[l], buf, &spans[next], next);
			next++;
			na++;
			for (int j = 0; j < 8; j++) {
				st[j][l] = IV[j];
			}
		}
	}
	while (na > handoff || (na > 0 && next < n)) {
		size_t m = SIZE_MAX;
		for (int l = 0; l < LANES16; l++) {
			if (live[l]) {
				P[l] = lanes[l].p;
				step[l] = 64;
				if (lanes[l].nblk < m) {
					m = lanes[l].nblk;
				}
			} else {
				P[l] = idle;
				step[l] = 0;
			}
		}
		compress16(st, P, step, m);
		for (int l = 0; l < LANES16; l++) {
			if (!live[l]) {
				continue;
			}
			lane *L = &lanes[l];
			L->p = P[l];
			L->nblk -= m;
			if (L->nblk > 0 || lane_next(L)) {
				continue;
			}
			for (int j = 0; j < 8; j++) {
				put_be32(out + 32 * L->idx + 4 * j, st[j][l]);
			}
			if (next < n) {
				lane_start(L, buf, &spans[next], next);
				next++;
				for (int j = 0; j < 8; j++) {
					st[j][l] = IV[j];
				}
			} else {
				live[l] = 0;
				na--;
			}
		}
	}
	if (na == 0) {
		return;
	}
	// The last lanes to SHA-NI, their chaining values in its order, SHANI_LANES at a time.
	lane *act[SHANI_LANES];
	int k = 0;
	for (int l = 0; l < LANES16; l++) {
		if (!live[l]) {
			continue;
		}
		lanes[l].st.abef = _mm_set_epi32((int)st[0][l], (int)st[1][l], (int)st[4][l], (int)st[5][l]);
		lanes[l].st.cdgh = _mm_set_epi32((int)st[2][l], (int)st[3][l], (int)st[6][l], (int)st[7][l]);
		act[k++] = &lanes[l];
		if (k == SHANI_LANES) {
			multisha_shani_lanes(act, k, buf, spans, n, n, out);
			k = 0;
		}
	}
	if (k > 0) {
		multisha_shani_lanes(act, k, buf, spans, n, n, out);
	}
}
