/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fips202.h API of PQClean's common/ (the one implementation folders
 * call) over wolfSSL's Thumb-2 assembly Keccak-f[1600] (BlockSha3, in
 * wolfcrypt/src/port/arm/thumb2-sha3-asm.S): impl.hash = thumb2-asm
 * (docs/bring-your-own.md), the way pqm4 measures schemes, with an
 * assembly permutation under portable C. The folders' calls are renamed to
 * these (mbe_kt2_<name>, cmake/MerlinImpl.cmake and keccak_thumb2.cmake).
 *
 * The sponge is FIPS 202 Algorithm 8, SPONGE[Keccak-p[1600, 24], pad10*1,
 * r], with the suffix bits of section 6: SHAKE appends 1111 (0x1F with the
 * first padding bit), SHA-3 appends 01 (0x06). A state is 25 lanes; byte i
 * of the rate is byte i mod 8 of lane i / 8 (little-endian lanes, section
 * B.1), which is the layout BlockSha3 works on. The contexts and their
 * allocation follow PQClean's common/fips202.c, so that heap use compares
 * like for like: incremental and SHAKE contexts are allocated (an
 * allocation failure ends the run with status 111, as there), SHA-3 one-shot
 * hashing keeps its state on the stack.
 */
#include "fips202.h"

#include <stdlib.h>
#include <string.h>

/* wolfSSL's BlockSha3, renamed when assembled (keccak_thumb2.cmake):
 * Keccak-f[1600] in place. */
void BlockSha3(uint64_t *state);
void *mcore_malloc(size_t n);
void mcore_free(void *p);

#define LANES 25
/* An incremental context: the lanes, then a byte count (PQClean's
 * layout): bytes absorbed into the current block, or, once finalized,
 * bytes of the current squeezed block not yet returned. */
#define INC_WORDS (LANES + 1)

static uint64_t *alloc_words(size_t n) {
  uint64_t *p = mcore_malloc(n * sizeof *p);
  if (!p)
    exit(111);
  return p;
}

/* XOR n message bytes into the rate from byte offset at. */
static void xor_bytes(uint64_t *s, size_t at, const uint8_t *m, size_t n) {
  for (size_t i = 0; i < n; i++)
    s[(at + i) >> 3] ^= (uint64_t)m[i] << (8 * ((at + i) & 7));
}

static void read_bytes(uint8_t *out, const uint64_t *s, size_t at, size_t n) {
  for (size_t i = 0; i < n; i++)
    out[i] = (uint8_t)(s[(at + i) >> 3] >> (8 * ((at + i) & 7)));
}

static void inc_init(uint64_t *s) { memset(s, 0, INC_WORDS * sizeof *s); }

static void inc_absorb(uint64_t *s, size_t r, const uint8_t *m, size_t n) {
  while (n + s[LANES] >= r) {
    size_t take = r - (size_t)s[LANES];
    xor_bytes(s, (size_t)s[LANES], m, take);
    m += take;
    n -= take;
    s[LANES] = 0;
    BlockSha3(s);
  }
  xor_bytes(s, (size_t)s[LANES], m, n);
  s[LANES] += n;
}

/* pad10*1 with the suffix bits (their first padding bit included in
 * suffix); afterwards no byte of the block is left to squeeze. */
static void inc_finalize(uint64_t *s, size_t r, uint8_t suffix) {
  s[s[LANES] >> 3] ^= (uint64_t)suffix << (8 * (s[LANES] & 7));
  s[(r - 1) >> 3] ^= (uint64_t)0x80 << (8 * ((r - 1) & 7));
  s[LANES] = 0;
}

static void inc_squeeze(uint8_t *out, size_t n, uint64_t *s, size_t r) {
  size_t take = n < s[LANES] ? n : (size_t)s[LANES];
  read_bytes(out, s, r - (size_t)s[LANES], take);
  out += take;
  n -= take;
  s[LANES] -= take;
  while (n) {
    BlockSha3(s);
    take = n < r ? n : r;
    read_bytes(out, s, 0, take);
    out += take;
    n -= take;
    s[LANES] = r - take;
  }
}

static uint64_t *inc_new(void) {
  uint64_t *s = alloc_words(INC_WORDS);
  inc_init(s);
  return s;
}

static uint64_t *words_clone(const uint64_t *src, size_t n) {
  uint64_t *s = alloc_words(n);
  memcpy(s, src, n * sizeof *s);
  return s;
}

/* The whole message into a fresh state, padded. */
static void absorb_all(uint64_t *s, size_t r, const uint8_t *m, size_t n,
                       uint8_t suffix) {
  uint64_t inc[INC_WORDS];
  inc_init(inc);
  inc_absorb(inc, r, m, n);
  inc_finalize(inc, r, suffix);
  memcpy(s, inc, LANES * sizeof *s);
}

static void squeeze_blocks(uint8_t *out, size_t nblocks, uint64_t *s,
                           size_t r) {
  for (size_t b = 0; b < nblocks; b++) {
    BlockSha3(s);
    read_bytes(out + b * r, s, 0, r);
  }
}

/* ---- SHAKE128 / SHAKE256 (FIPS 202 section 6.2) ------------------------ */

#define XOF(name, RATE, ctxT, incT)                                            \
  void mbe_kt2_##name##_absorb(ctxT *st, const uint8_t *in, size_t inlen);     \
  void mbe_kt2_##name##_squeezeblocks(uint8_t *out, size_t nblocks, ctxT *st); \
  void mbe_kt2_##name##_ctx_release(ctxT *st);                                 \
  void mbe_kt2_##name##_ctx_clone(ctxT *dest, const ctxT *src);                \
  void mbe_kt2_##name##_inc_init(incT *st);                                    \
  void mbe_kt2_##name##_inc_absorb(incT *st, const uint8_t *in, size_t inlen); \
  void mbe_kt2_##name##_inc_finalize(incT *st);                                \
  void mbe_kt2_##name##_inc_squeeze(uint8_t *out, size_t outlen, incT *st);    \
  void mbe_kt2_##name##_inc_ctx_clone(incT *dest, const incT *src);            \
  void mbe_kt2_##name##_inc_ctx_release(incT *st);                             \
  void mbe_kt2_##name(uint8_t *out, size_t outlen, const uint8_t *in,          \
                      size_t inlen);                                           \
  void mbe_kt2_##name##_absorb(ctxT *st, const uint8_t *in, size_t inlen) {    \
    st->ctx = alloc_words(LANES);                                              \
    absorb_all(st->ctx, RATE, in, inlen, 0x1F);                                \
  }                                                                            \
  void mbe_kt2_##name##_squeezeblocks(uint8_t *out, size_t nblocks,            \
                                      ctxT *st) {                              \
    squeeze_blocks(out, nblocks, st->ctx, RATE);                               \
  }                                                                            \
  void mbe_kt2_##name##_ctx_release(ctxT *st) { mcore_free(st->ctx); }         \
  void mbe_kt2_##name##_ctx_clone(ctxT *dest, const ctxT *src) {               \
    dest->ctx = words_clone(src->ctx, LANES);                                  \
  }                                                                            \
  void mbe_kt2_##name##_inc_init(incT *st) { st->ctx = inc_new(); }            \
  void mbe_kt2_##name##_inc_absorb(incT *st, const uint8_t *in,                \
                                   size_t inlen) {                             \
    inc_absorb(st->ctx, RATE, in, inlen);                                      \
  }                                                                            \
  void mbe_kt2_##name##_inc_finalize(incT *st) {                               \
    inc_finalize(st->ctx, RATE, 0x1F);                                         \
  }                                                                            \
  void mbe_kt2_##name##_inc_squeeze(uint8_t *out, size_t outlen, incT *st) {   \
    inc_squeeze(out, outlen, st->ctx, RATE);                                   \
  }                                                                            \
  void mbe_kt2_##name##_inc_ctx_clone(incT *dest, const incT *src) {           \
    dest->ctx = words_clone(src->ctx, INC_WORDS);                              \
  }                                                                            \
  void mbe_kt2_##name##_inc_ctx_release(incT *st) { mcore_free(st->ctx); }     \
  void mbe_kt2_##name(uint8_t *out, size_t outlen, const uint8_t *in,          \
                      size_t inlen) {                                          \
    uint8_t t[RATE];                                                           \
    uint64_t *s = alloc_words(LANES);                                          \
    absorb_all(s, RATE, in, inlen, 0x1F);                                      \
    squeeze_blocks(out, outlen / RATE, s, RATE);                               \
    if (outlen % RATE) {                                                       \
      squeeze_blocks(t, 1, s, RATE);                                           \
      memcpy(out + outlen / RATE * RATE, t, outlen % RATE);                    \
    }                                                                          \
    mcore_free(s);                                                             \
  }

XOF(shake128, SHAKE128_RATE, shake128ctx, shake128incctx)
XOF(shake256, SHAKE256_RATE, shake256ctx, shake256incctx)

/* ---- SHA3-256/384/512 (FIPS 202 section 6.1) --------------------------- */

#define HASH(name, RATE, OUT, incT)                                            \
  void mbe_kt2_##name##_inc_init(incT *st);                                    \
  void mbe_kt2_##name##_inc_ctx_clone(incT *dest, const incT *src);            \
  void mbe_kt2_##name##_inc_ctx_release(incT *st);                             \
  void mbe_kt2_##name##_inc_absorb(incT *st, const uint8_t *in, size_t inlen); \
  void mbe_kt2_##name##_inc_finalize(uint8_t *out, incT *st);                  \
  void mbe_kt2_##name(uint8_t *out, const uint8_t *in, size_t inlen);          \
  void mbe_kt2_##name##_inc_init(incT *st) { st->ctx = inc_new(); }            \
  void mbe_kt2_##name##_inc_ctx_clone(incT *dest, const incT *src) {           \
    dest->ctx = words_clone(src->ctx, INC_WORDS);                              \
  }                                                                            \
  void mbe_kt2_##name##_inc_ctx_release(incT *st) { mcore_free(st->ctx); }     \
  void mbe_kt2_##name##_inc_absorb(incT *st, const uint8_t *in,                \
                                   size_t inlen) {                             \
    inc_absorb(st->ctx, RATE, in, inlen);                                      \
  }                                                                            \
  /* As PQClean's: the digest, and the context released. */                    \
  void mbe_kt2_##name##_inc_finalize(uint8_t *out, incT *st) {                 \
    inc_finalize(st->ctx, RATE, 0x06);                                         \
    BlockSha3(st->ctx);                                                        \
    read_bytes(out, st->ctx, 0, OUT);                                          \
    mcore_free(st->ctx);                                                       \
  }                                                                            \
  void mbe_kt2_##name(uint8_t *out, const uint8_t *in, size_t inlen) {         \
    uint64_t s[LANES];                                                         \
    absorb_all(s, RATE, in, inlen, 0x06);                                      \
    BlockSha3(s);                                                              \
    read_bytes(out, s, 0, OUT);                                                \
  }

HASH(sha3_256, SHA3_256_RATE, 32, sha3_256incctx)
HASH(sha3_384, SHA3_384_RATE, 48, sha3_384incctx)
HASH(sha3_512, SHA3_512_RATE, 64, sha3_512incctx)
