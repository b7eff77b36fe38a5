// The measurements behind package multisha (see shani_amd64.c): the throughput of SHA-256 block
// compression with the SHA extensions for 1 stream (each block depending on the one before, as
// in one message) and for 1 to 4 independent streams interleaved in one thread; sixteen lanes of
// AVX-512 without the SHA extensions; and those sixteen with two SHA-NI streams mixed in.
// Each variant is checked against a plain C compression first. Its sixteen-lane code reads the
// blocks a word at a time through memory rather than transposing them in registers, and the mix
// runs the SHA instructions (legacy SSE) with the upper ZMM state dirty: both cost it what the
// kernel in use, avx512_amd64.c, does not pay (BENCHMARKS.md, the twenty-first session). Not part
// of the build (testdata):
//
//	gcc -O2 -msha -msse4.1 -mssse3 -o shani_bench multisha/testdata/shani_bench.c
//	taskset -c 1 ./shani_bench
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// st[l][0] = ABEF, st[l][1] = CDGH
#define DEF_SHANI(N)                                                                               \
  __attribute__((noinline)) static void shani##N(__m128i st[][2], const uint8_t *const *blk) {    \
    const __m128i mask = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);             \
    __m128i s0[N], s1[N], sv0[N], sv1[N], w[N][4];                                                 \
    _Pragma("GCC unroll 8") for (int l = 0; l < N; l++) {                                          \
      s0[l] = st[l][0];                                                                            \
      s1[l] = st[l][1];                                                                            \
      sv0[l] = s0[l];                                                                              \
      sv1[l] = s1[l];                                                                              \
    }                                                                                              \
    _Pragma("GCC unroll 16") for (int i = 0; i < 16; i++) {                                        \
      __m128i k = _mm_loadu_si128((const __m128i *)&K[4 * i]);                                     \
      _Pragma("GCC unroll 8") for (int l = 0; l < N; l++) {                                        \
        __m128i x;                                                                                 \
        if (i < 4) {                                                                               \
          x = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blk[l] + 16 * i)), mask);          \
        } else {                                                                                   \
          __m128i a = w[l][i & 3], b = w[l][(i + 1) & 3], c = w[l][(i + 2) & 3],                   \
                  d = w[l][(i + 3) & 3];                                                           \
          x = _mm_sha256msg1_epu32(a, b);                                                          \
          x = _mm_add_epi32(x, _mm_alignr_epi8(d, c, 4));                                          \
          x = _mm_sha256msg2_epu32(x, d);                                                          \
        }                                                                                          \
        w[l][i & 3] = x;                                                                           \
        __m128i m = _mm_add_epi32(x, k);                                                           \
        s1[l] = _mm_sha256rnds2_epu32(s1[l], s0[l], m);                                            \
        m = _mm_shuffle_epi32(m, 0x0E);                                                            \
        s0[l] = _mm_sha256rnds2_epu32(s0[l], s1[l], m);                                            \
      }                                                                                            \
    }                                                                                              \
    _Pragma("GCC unroll 8") for (int l = 0; l < N; l++) {                                          \
      st[l][0] = _mm_add_epi32(s0[l], sv0[l]);                                                     \
      st[l][1] = _mm_add_epi32(s1[l], sv1[l]);                                                     \
    }                                                                                              \
  }

DEF_SHANI(1)
DEF_SHANI(2)
DEF_SHANI(3)
DEF_SHANI(4)

// ---- AVX-512 16-lane: state transposed, st[j][lane] ----
#define ROR512(x, n) _mm512_ror_epi32(x, n)
__attribute__((noinline, target("avx512f,avx512bw"))) static void avx512x16(uint32_t st[8][16],
                                                                             const uint8_t *const *blk) {
  __m512i w[16];
  const __m512i bswap = _mm512_set4_epi32(0x0c0d0e0f, 0x08090a0b, 0x04050607, 0x00010203);
  // Gather word t of each lane: stride through 16 pointers.
  for (int t = 0; t < 16; t++) {
    uint32_t tmp[16] __attribute__((aligned(64)));
    for (int l = 0; l < 16; l++) memcpy(&tmp[l], blk[l] + 4 * t, 4);
    w[t] = _mm512_shuffle_epi8(_mm512_load_si512(tmp), bswap);
  }
  __m512i a = _mm512_loadu_si512(st[0]), b = _mm512_loadu_si512(st[1]), c = _mm512_loadu_si512(st[2]),
          d = _mm512_loadu_si512(st[3]), e = _mm512_loadu_si512(st[4]), f = _mm512_loadu_si512(st[5]),
          g = _mm512_loadu_si512(st[6]), h = _mm512_loadu_si512(st[7]);
  __m512i a0 = a, b0 = b, c0 = c, d0 = d, e0 = e, f0 = f, g0 = g, h0 = h;
#pragma GCC unroll 64
  for (int t = 0; t < 64; t++) {
    __m512i wt;
    if (t < 16)
      wt = w[t];
    else {
      __m512i w15 = w[(t - 15) & 15], w2 = w[(t - 2) & 15];
      __m512i s0 = _mm512_ternarylogic_epi32(ROR512(w15, 7), ROR512(w15, 18), _mm512_srli_epi32(w15, 3), 0x96);
      __m512i s1 = _mm512_ternarylogic_epi32(ROR512(w2, 17), ROR512(w2, 19), _mm512_srli_epi32(w2, 10), 0x96);
      wt = _mm512_add_epi32(_mm512_add_epi32(w[t & 15], s0), _mm512_add_epi32(w[(t - 7) & 15], s1));
      w[t & 15] = wt;
    }
    __m512i S1 = _mm512_ternarylogic_epi32(ROR512(e, 6), ROR512(e, 11), ROR512(e, 25), 0x96);
    __m512i ch = _mm512_ternarylogic_epi32(e, f, g, 0xca);
    __m512i t1 = _mm512_add_epi32(_mm512_add_epi32(h, S1), _mm512_add_epi32(ch, _mm512_add_epi32(wt, _mm512_set1_epi32(K[t]))));
    __m512i S0 = _mm512_ternarylogic_epi32(ROR512(a, 2), ROR512(a, 13), ROR512(a, 22), 0x96);
    __m512i maj = _mm512_ternarylogic_epi32(a, b, c, 0xe8);
    __m512i t2 = _mm512_add_epi32(S0, maj);
    h = g; g = f; f = e; e = _mm512_add_epi32(d, t1); d = c; c = b; b = a; a = _mm512_add_epi32(t1, t2);
  }
  _mm512_storeu_si512(st[0], _mm512_add_epi32(a, a0));
  _mm512_storeu_si512(st[1], _mm512_add_epi32(b, b0));
  _mm512_storeu_si512(st[2], _mm512_add_epi32(c, c0));
  _mm512_storeu_si512(st[3], _mm512_add_epi32(d, d0));
  _mm512_storeu_si512(st[4], _mm512_add_epi32(e, e0));
  _mm512_storeu_si512(st[5], _mm512_add_epi32(f, f0));
  _mm512_storeu_si512(st[6], _mm512_add_epi32(g, g0));
  _mm512_storeu_si512(st[7], _mm512_add_epi32(h, h0));
}


__attribute__((noinline, target("avx512f,avx512bw,sha,sse4.1"))) static void hybrid(uint32_t st[8][16],
    const uint8_t *const *blk, __m128i sst[][2], const uint8_t *const *sblk) {
  __m512i w[16];
  const __m512i bswap = _mm512_set4_epi32(0x0c0d0e0f, 0x08090a0b, 0x04050607, 0x00010203);
  for (int t = 0; t < 16; t++) {
    uint32_t tmp[16] __attribute__((aligned(64)));
    for (int l = 0; l < 16; l++) memcpy(&tmp[l], blk[l] + 4 * t, 4);
    w[t] = _mm512_shuffle_epi8(_mm512_load_si512(tmp), bswap);
  }
  const __m128i mask = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  enum {N=2};
  __m128i s0[N], s1[N], sv0[N], sv1[N], sw[N][4];
  for (int l = 0; l < N; l++) { s0[l] = sst[l][0]; s1[l] = sst[l][1]; sv0[l] = s0[l]; sv1[l] = s1[l]; }
  __m512i a = _mm512_loadu_si512(st[0]), b = _mm512_loadu_si512(st[1]), c = _mm512_loadu_si512(st[2]),
          d = _mm512_loadu_si512(st[3]), e = _mm512_loadu_si512(st[4]), f = _mm512_loadu_si512(st[5]),
          g = _mm512_loadu_si512(st[6]), h = _mm512_loadu_si512(st[7]);
  __m512i a0 = a, b0 = b, c0 = c, d0 = d, e0 = e, f0 = f, g0 = g, h0 = h;
#pragma GCC unroll 64
  for (int t = 0; t < 64; t++) {
    if ((t & 3) == 0) {
      int i = t >> 2;
      __m128i k = _mm_loadu_si128((const __m128i *)&K[4 * i]);
#pragma GCC unroll 4
      for (int l = 0; l < N; l++) {
        __m128i x;
        if (i < 4) x = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(sblk[l] + 16 * i)), mask);
        else {
          __m128i aa = sw[l][i & 3], bb = sw[l][(i + 1) & 3], cc = sw[l][(i + 2) & 3], dd = sw[l][(i + 3) & 3];
          x = _mm_sha256msg1_epu32(aa, bb);
          x = _mm_add_epi32(x, _mm_alignr_epi8(dd, cc, 4));
          x = _mm_sha256msg2_epu32(x, dd);
        }
        sw[l][i & 3] = x;
        __m128i m = _mm_add_epi32(x, k);
        s1[l] = _mm_sha256rnds2_epu32(s1[l], s0[l], m);
        m = _mm_shuffle_epi32(m, 0x0E);
        s0[l] = _mm_sha256rnds2_epu32(s0[l], s1[l], m);
      }
    }
    __m512i wt;
    if (t < 16) wt = w[t];
    else {
      __m512i w15 = w[(t - 15) & 15], w2 = w[(t - 2) & 15];
      __m512i q0 = _mm512_ternarylogic_epi32(ROR512(w15, 7), ROR512(w15, 18), _mm512_srli_epi32(w15, 3), 0x96);
      __m512i q1 = _mm512_ternarylogic_epi32(ROR512(w2, 17), ROR512(w2, 19), _mm512_srli_epi32(w2, 10), 0x96);
      wt = _mm512_add_epi32(_mm512_add_epi32(w[t & 15], q0), _mm512_add_epi32(w[(t - 7) & 15], q1));
      w[t & 15] = wt;
    }
    __m512i S1 = _mm512_ternarylogic_epi32(ROR512(e, 6), ROR512(e, 11), ROR512(e, 25), 0x96);
    __m512i ch = _mm512_ternarylogic_epi32(e, f, g, 0xca);
    __m512i t1 = _mm512_add_epi32(_mm512_add_epi32(h, S1), _mm512_add_epi32(ch, _mm512_add_epi32(wt, _mm512_set1_epi32(K[t]))));
    __m512i S0 = _mm512_ternarylogic_epi32(ROR512(a, 2), ROR512(a, 13), ROR512(a, 22), 0x96);
    __m512i maj = _mm512_ternarylogic_epi32(a, b, c, 0xe8);
    __m512i t2 = _mm512_add_epi32(S0, maj);
    h = g; g = f; f = e; e = _mm512_add_epi32(d, t1); d = c; c = b; b = a; a = _mm512_add_epi32(t1, t2);
  }
  for (int l = 0; l < N; l++) { sst[l][0] = _mm_add_epi32(s0[l], sv0[l]); sst[l][1] = _mm_add_epi32(s1[l], sv1[l]); }
  _mm512_storeu_si512(st[0], _mm512_add_epi32(a, a0));
  _mm512_storeu_si512(st[1], _mm512_add_epi32(b, b0));
  _mm512_storeu_si512(st[2], _mm512_add_epi32(c, c0));
  _mm512_storeu_si512(st[3], _mm512_add_epi32(d, d0));
  _mm512_storeu_si512(st[4], _mm512_add_epi32(e, e0));
  _mm512_storeu_si512(st[5], _mm512_add_epi32(f, f0));
  _mm512_storeu_si512(st[6], _mm512_add_epi32(g, g0));
  _mm512_storeu_si512(st[7], _mm512_add_epi32(h, h0));
}

// scalar reference
static void ref(uint32_t s[8], const uint8_t *p) {
#define R(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
  uint32_t w[64];
  for (int t = 0; t < 16; t++) w[t] = (uint32_t)p[4 * t] << 24 | p[4 * t + 1] << 16 | p[4 * t + 2] << 8 | p[4 * t + 3];
  for (int t = 16; t < 64; t++)
    w[t] = w[t - 16] + (R(w[t - 15], 7) ^ R(w[t - 15], 18) ^ (w[t - 15] >> 3)) + w[t - 7] +
           (R(w[t - 2], 17) ^ R(w[t - 2], 19) ^ (w[t - 2] >> 10));
  uint32_t a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
  for (int t = 0; t < 64; t++) {
    uint32_t t1 = h + (R(e, 6) ^ R(e, 11) ^ R(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
    uint32_t t2 = (R(a, 2) ^ R(a, 13) ^ R(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
  }
  s[0] += a; s[1] += b; s[2] += c; s[3] += d; s[4] += e; s[5] += f; s[6] += g; s[7] += h;
}

static const uint32_t IV[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

static void pack(__m128i st[2], const uint32_t s[8]) {
  // ABEF = (A,B,E,F) with A in high: _mm_set_epi32(A,B,E,F); CDGH = set(C,D,G,H)
  st[0] = _mm_set_epi32(s[0], s[1], s[4], s[5]);
  st[1] = _mm_set_epi32(s[2], s[3], s[6], s[7]);
}
static void unpack(uint32_t s[8], const __m128i st[2]) {
  uint32_t x[4], y[4];
  _mm_storeu_si128((__m128i *)x, st[0]);
  _mm_storeu_si128((__m128i *)y, st[1]);
  s[0] = x[3]; s[1] = x[2]; s[4] = x[1]; s[5] = x[0];
  s[2] = y[3]; s[3] = y[2]; s[6] = y[1]; s[7] = y[0];
}

#define NBLK 4096
static uint8_t data[NBLK * 64];

int main(void) {
  for (int i = 0; i < (int)sizeof data; i++) data[i] = (uint8_t)(i * 131 + (i >> 7));
  // correctness
  {
    uint32_t r[4][8];
    __m128i st[4][2];
    const uint8_t *p[4];
    for (int l = 0; l < 4; l++) {
      memcpy(r[l], IV, 32);
      pack(st[l], IV);
      p[l] = data + 64 * l;
      ref(r[l], p[l]);
    }
    shani4(st, p);
    for (int l = 0; l < 4; l++) {
      uint32_t s[8];
      unpack(s, st[l]);
      if (memcmp(s, r[l], 32)) printf("shani4 lane %d WRONG\n", l);
    }
    uint32_t st16[8][16];
    const uint8_t *p16[16];
    for (int l = 0; l < 16; l++) {
      for (int j = 0; j < 8; j++) st16[j][l] = IV[j];
      p16[l] = data + 64 * l;
    }
    avx512x16(st16, p16);
    for (int l = 0; l < 16; l++) {
      uint32_t rr[8];
      memcpy(rr, IV, 32);
      ref(rr, data + 64 * l);
      for (int j = 0; j < 8; j++)
        if (st16[j][l] != rr[j]) { printf("avx512 lane %d WRONG\n", l); break; }
    }
  }
  const int reps = 200;
  for (int round = 0; round < 3; round++) {
    // 1 stream chained (latency-bound, like one long message)
    {
      __m128i st[1][2];
      pack(st[0], IV);
      double t0 = now();
      for (int r = 0; r < reps; r++)
        for (int b = 0; b < NBLK; b++) {
          const uint8_t *p[1] = {data + 64 * b};
          shani1(st, p);
        }
      double dt = now() - t0;
      double n = (double)reps * NBLK;
      printf("shani x1 chained:   %6.2f ns/block/stream  %6.2f ns/block agg  %.2f GB/s\n", dt / n * 1e9, dt / n * 1e9, n * 64 / dt / 1e9);
    }
#define RUN(N)                                                                                     \
  {                                                                                                \
    __m128i st[N][2];                                                                              \
    for (int l = 0; l < N; l++) pack(st[l], IV);                                                   \
    double t0 = now();                                                                             \
    for (int r = 0; r < reps; r++)                                                                 \
      for (int b = 0; b + N <= NBLK; b += N) {                                                     \
        const uint8_t *p[N];                                                                       \
        for (int l = 0; l < N; l++) p[l] = data + 64 * (b + l);                                    \
        shani##N(st, p);                                                                           \
      }                                                                                            \
    double dt = now() - t0;                                                                        \
    double n = (double)reps * (NBLK / N * N);                                                      \
    printf("shani x%d interleaved: %6.2f ns/block/stream  %6.2f ns/block agg  %.2f GB/s\n", N,      \
           dt / n * N * 1e9, dt / n * 1e9, n * 64 / dt / 1e9);                                     \
  }
    RUN(1) RUN(2) RUN(3) RUN(4)
    {
      uint32_t st16[8][16];
      for (int l = 0; l < 16; l++)
        for (int j = 0; j < 8; j++) st16[j][l] = IV[j];
      double t0 = now();
      for (int r = 0; r < reps; r++)
        for (int b = 0; b + 16 <= NBLK; b += 16) {
          const uint8_t *p[16];
          for (int l = 0; l < 16; l++) p[l] = data + 64 * (b + l);
          avx512x16(st16, p);
        }
      double dt = now() - t0;
      double n = (double)reps * NBLK;
      printf("avx512 x16:         %6.2f ns/block/stream  %6.2f ns/block agg  %.2f GB/s\n", dt / n * 16 * 1e9, dt / n * 1e9, n * 64 / dt / 1e9);
    }

    {
      uint32_t st16[8][16];
      __m128i sst[2][2]; pack(sst[0], IV); pack(sst[1], IV);
      for (int l = 0; l < 16; l++)
        for (int j = 0; j < 8; j++) st16[j][l] = IV[j];
      double t0 = now();
      for (int r = 0; r < reps; r++)
        for (int b = 0; b + 18 <= NBLK; b += 18) {
          const uint8_t *p[16], *q[2];
          for (int l = 0; l < 16; l++) p[l] = data + 64 * (b + l);
          q[0] = data + 64*(b+16); q[1] = data + 64*(b+17);
          hybrid(st16, p, sst, q);
        }
      double dt = now() - t0;
      double n = (double)reps * (NBLK/18*18);
      printf("hybrid 16+2:        %6.2f ns/block agg  %.2f GB/s\n", dt / n * 1e9, n * 64 / dt / 1e9);
    }
  }
  return 0;
}
