/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fips202.h API of PQClean's common/ (the one implementation folders
 * call) over wolfSSL's Thumb-2 assembly Keccak-f[1600] (BlockSha3, in
 * wolfcrypt/src/port/arm/thumb2-sha3-asm.S): impl.hash = thumb2-asm
 * (docs/bring-your-own.md), the way pqm4 measures schemes, with an
 * assembly permutation under portable C. The folders' calls are renamed to
 * these (mbe_kt2_<name>, cmake/MerlinImpl.cmake and keccak_thumb2.cmake).
 *
 * The sponge is sponge_core.h's (FIPS 202 Algorithm 8), whose lane layout
 * is the one BlockSha3 works on. The contexts and their
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

#define MBI_PERMUTE BlockSha3
#include "sponge_core.h"

static uint64_t *alloc_words(size_t n) {
  uint64_t *p = mcore_malloc(n * sizeof *p);
  if (!p)
    exit(111);
  return p;
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
