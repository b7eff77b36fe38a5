//go:build amd64 && cgo

// SHA-256 of independent messages with the x86 SHA extensions, up to four interleaved in one
// thread.
//
// Why: sha256rnds2 does two of the 64 rounds of a block, and each depends on the one before, so
// one stream waits on its latency. Independent streams whose instructions are interleaved fill
// those waits: the time per block of each stream grows with the lanes, but far less than the
// number of lanes, so the aggregate rate rises (testdata/shani_bench.c measures it per number of
// streams; BENCHMARKS.md has the package's figures). Four lanes are about all that pays: from
// three on, the unit's throughput rather than its latency is the limit, and four lanes' registers
// already spill. So on a CPU with AVX-512 too, SumMany takes sixteen lanes of it
// (avx512_amd64.c), and these lanes only finish its batches; HMACCounter stays here.
//
// Every function that uses the extensions is compiled for them with a target attribute, so no
// other code needs the flags, and multisha_have_shani says at run time whether they may be
// called.

#include <cpuid.h>

#include "lane.h"

#define TARGET __attribute__((target("sha,sse4.1,ssse3")))

int multisha_have_shani(void) {
	unsigned a, b, c, d;
	if (!__get_cpuid(1, &a, &b, &c, &d)) {
		return 0;
	}
	const int ssse3 = (c >> 9) & 1, sse41 = (c >> 19) & 1;
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
		return 0;
	}
	const int sha = (b >> 29) & 1;
	return ssse3 && sse41 && sha;
}

// The initial chaining value of SHA-256 in that order: _mm_set_epi32 takes the top lane first.
#define IV_ABEF 0x6a09e667, 0xbb67ae85, 0x510e527f, 0x9b05688c
#define IV_CDGH 0x3c6ef372, 0xa54ff53a, 0x1f83d9ab, 0x5be0cd19

TARGET static inline void init_state(state *s) {
	s->abef = _mm_set_epi32(IV_ABEF);
	s->cdgh = _mm_set_epi32(IV_CDGH);
}

// store_digest writes the chaining value s as the 32 bytes of a digest: A to H, big-endian.
TARGET static inline void store_digest(const state *s, uint8_t *out) {
	const __m128i rev = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
	// Reversing the 16 bytes of ABEF gives A B E F, each word big-endian; likewise C D G H.
	__m128i x = _mm_shuffle_epi8(s->abef, rev); // A B E F
	__m128i y = _mm_shuffle_epi8(s->cdgh, rev); // C D G H
	_mm_storeu_si128((__m128i *)out, _mm_unpacklo_epi64(x, y));       // A B C D
	_mm_storeu_si128((__m128i *)(out + 16), _mm_unpackhi_epi64(x, y)); // E F G H
}

// KERNEL(N) defines compressN, which runs m blocks through each of N chaining values: lane l
// starts at S[l] and reads its blocks one after the other from P[l]. The lanes are independent,
// and the code of their rounds interleaved, so that one lane's sha256rnds2 runs while another's
// waits. P[l] is left just after the lane's last block.
//
// Four rounds take w, the next four message words (the first sixteen read big-endian from the
// block, the rest scheduled by sha256msg1/msg2 from the four vectors before), plus their
// constants: sha256rnds2 does two rounds with the low two words, and two more with the high two
// moved down.
#define KERNEL(N)                                                                                  \
	TARGET static void compress##N(state *const *S, const uint8_t **P, size_t m) {             \
		const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL); \
		__m128i s0[N], s1[N];                                                               \
		const uint8_t *p[N];                                                                \
		_Pragma("GCC unroll 4") for (int l = 0; l < N; l++) {                               \
			s0[l] = S[l]->abef;                                                         \
			s1[l] = S[l]->cdgh;                                                         \
			p[l] = P[l];                                                                \
		}                                                                                   \
		for (size_t b = 0; b < m; b++) {                                                    \
			__m128i v0[N], v1[N], w[N][4];                                              \
			_Pragma("GCC unroll 4") for (int l = 0; l < N; l++) {                       \
				v0[l] = s0[l];                                                      \
				v1[l] = s1[l];                                                      \
			}                                                                           \
			_Pragma("GCC unroll 16") for (int i = 0; i < 16; i++) {                     \
				const __m128i k = _mm_load_si128((const __m128i *)&K[4 * i]);       \
				_Pragma("GCC unroll 4") for (int l = 0; l < N; l++) {               \
					__m128i x;                                                  \
					if (i < 4) {                                                \
						x = _mm_loadu_si128((const __m128i *)(p[l] + 16 * i)); \
						x = _mm_shuffle_epi8(x, bswap);                     \
					} else {                                                    \
						const __m128i a = w[l][i & 3], b1 = w[l][(i + 1) & 3]; \
						const __m128i c = w[l][(i + 2) & 3], d = w[l][(i + 3) & 3]; \
						x = _mm_sha256msg1_epu32(a, b1);                    \
						x = _mm_add_epi32(x, _mm_alignr_epi8(d, c, 4));     \
						x = _mm_sha256msg2_epu32(x, d);                     \
					}                                                           \
					w[l][i & 3] = x;                                            \
					__m128i t = _mm_add_epi32(x, k);                            \
					s1[l] = _mm_sha256rnds2_epu32(s1[l], s0[l], t);             \
					t = _mm_shuffle_epi32(t, 0x0e);                             \
					s0[l] = _mm_sha256rnds2_epu32(s0[l], s1[l], t);             \
				}                                                                   \
			}                                                                           \
			_Pragma("GCC unroll 4") for (int l = 0; l < N; l++) {                       \
				s0[l] = _mm_add_epi32(s0[l], v0[l]);                                \
				s1[l] = _mm_add_epi32(s1[l], v1[l]);                                \
				p[l] += 64;                                                         \
			}                                                                           \
		}                                                                                   \
		_Pragma("GCC unroll 4") for (int l = 0; l < N; l++) {                               \
			S[l]->abef = s0[l];                                                         \
			S[l]->cdgh = s1[l];                                                         \
			P[l] = p[l];                                                                \
		}                                                                                   \
	}

KERNEL(1)
KERNEL(2)
KERNEL(3)
KERNEL(4)

#define LANES SHANI_LANES

// compress runs compressN for the n lanes of S and P, 1 <= n <= LANES.
static void compress(int n, state *const *S, const uint8_t **P, size_t m) {
	switch (n) {
	case 1:
		compress1(S, P, m);
		break;
	case 2:
		compress2(S, P, m);
		break;
	case 3:
		compress3(S, P, m);
		break;
	default:
		compress4(S, P, m);
		break;
	}
}

TARGET static void lane_load(lane *L, const uint8_t *buf, const multisha_span *s, size_t idx) {
	init_state(&L->st);
	lane_start(L, buf, s, idx);
}

// multisha_shani_lanes keeps LANES messages in flight: each step compresses as many blocks as the
// shortest current segment has, in every lane at once; a lane whose message is done writes its
// digest and takes the next message, so that messages of unequal lengths still keep the lanes
// busy. Only at the end of the batch do fewer lanes run.
TARGET void multisha_shani_lanes(lane **act, int na, const uint8_t *buf, const multisha_span *spans, size_t n,
				 size_t next, uint8_t *out) {
	while (na > 0) {
		state *S[LANES];
		const uint8_t *P[LANES];
		size_t m = act[0]->nblk;
		for (int l = 0; l < na; l++) {
			S[l] = &act[l]->st;
			P[l] = act[l]->p;
			if (act[l]->nblk < m) {
				m = act[l]->nblk;
			}
		}
		compress(na, S, P, m);
		for (int l = 0; l < na; l++) {
			act[l]->p = P[l];
			act[l]->nblk -= m;
		}
		for (int l = 0; l < na;) {
			lane *L = act[l];
			if (L->nblk > 0 || lane_next(L)) {
				l++;
			} else {
				store_digest(&L->st, out + 32 * L->idx);
				if (next < n) {
					lane_load(L, buf, &spans[next], next);
					next++;
					l++;
				} else {
					// The lane is done: the last active one takes its place, and is looked
					// at in its turn.
					act[l] = act[--na];
				}
			}
		}
	}
}

TARGET void multisha_sum_many(const uint8_t *buf, const multisha_span *spans, size_t n, uint8_t *out) {
	lane lanes[LANES];
	lane *act[LANES];
	int na = 0;
	size_t next = 0;
	while (na < LANES && next < n) {
		lane_load(&lanes[na], buf, &spans[next], next);
		act[na] = &lanes[na];
		na++;
		next++;
	}
	multisha_shani_lanes(act, na, buf, spans, n, next, out);
}

// multisha_hmac_counter hashes the two padded keys once, two lanes at once, then LANES counter
// blocks at a time: the inner hashes from the inner key's state, then the outer hashes of those
// from the outer key's state. Each message is one block after the key's: the 8-byte counter, or
// the 32-byte inner digest, padded with its length (64+8 or 64+32 bytes, in bits).
TARGET void multisha_hmac_counter(const uint8_t *key, uint64_t from, size_t n, uint8_t *out) {
	uint8_t pad[2][64];
	for (int i = 0; i < 64; i++) {
		pad[0][i] = key[i] ^ 0x36;
		pad[1][i] = key[i] ^ 0x5c;
	}
	state keyst[2];
	init_state(&keyst[0]);
	init_state(&keyst[1]);
	{
		state *S[2] = {&keyst[0], &keyst[1]};
		const uint8_t *P[2] = {pad[0], pad[1]};
		compress(2, S, P, 1);
	}
	uint8_t inner[LANES][64], outer[LANES][64];
	memset(inner, 0, sizeof inner);
	memset(outer, 0, sizeof outer);
	for (int l = 0; l < LANES; l++) {
		inner[l][8] = 0x80;
		put_be64(inner[l] + 56, (64 + 8) * 8);
		outer[l][32] = 0x80;
		put_be64(outer[l] + 56, (64 + 32) * 8);
	}
	state st[LANES];
	state *S[LANES] = {&st[0], &st[1], &st[2], &st[3]};
	const uint8_t *P[LANES];
	for (size_t i = 0; i < n; i += LANES) {
		const int r = n - i < LANES ? (int)(n - i) : LANES;
		for (int l = 0; l < r; l++) {
			st[l] = keyst[0];
			put_be64(inner[l], from + i + (uint64_t)l);
			P[l] = inner[l];
		}
		compress(r, S, P, 1);
		for (int l = 0; l < r; l++) {
			store_digest(&st[l], outer[l]);
			st[l] = keyst[1];
			P[l] = outer[l];
		}
		compress(r, S, P, 1);
		for (int l = 0; l < r; l++) {
			store_digest(&st[l], out + 32 * (i + (size_t)l));
		}
	}
}
