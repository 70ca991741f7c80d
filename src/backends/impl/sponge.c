/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Merlin's heap-free FIPS 202 (docs/bring-your-own.md, "Heap-free
 * hashing"): the API of mupq's fips202.h and keccakf1600.h (sponge/), whose
 * contexts hold their state, for folders that call that API without common
 * code of their own. Built twice (cmake/MerlinImpl.cmake): over the C
 * Keccak-f[1600] below (names mbe_s202c_*, impl.hash = c) and over
 * wolfSSL's Thumb-2 BlockSha3 (mbe_s202t_*, impl.hash = thumb2-asm); a
 * folder's calls are renamed to one of them. Nothing is allocated: the
 * heap figures of such a folder are what it allocates itself.
 */
#include "sponge/fips202.h"
#include "sponge/keccakf1600.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define MBI_CAT(a, b) MBI_CAT_(a, b)
#define MBI_CAT_(a, b) a##b
#define SP(name) MBI_CAT(MBI_SPONGE_PREFIX, name)

#ifdef MBI_SPONGE_THUMB2
/* wolfSSL's Keccak-f[1600] (keccak_thumb2.cmake renames it). */
void BlockSha3(uint64_t *state);
#define MBI_PERMUTE BlockSha3
#else
/* Keccak-f[1600] (FIPS 202 section 3.3, Algorithm 7): 24 rounds of theta,
 * rho and pi (walked lane by lane from A[1, 0]: rot[t] = (t+1)(t+2)/2 mod
 * 64, the lane reached next at pos[t]), chi and iota with the round
 * constants of Algorithm 6. Lane x + 5y is A[x, y]. */
static const uint64_t rc[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL,
    0x8000000080008000ULL, 0x000000000000808bULL, 0x0000000080000001ULL,
    0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008aULL,
    0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL,
    0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL,
    0x000000000000800aULL, 0x800000008000000aULL, 0x8000000080008081ULL,
    0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL};
static const uint8_t rot[24] = {1,  3,  6,  10, 15, 21, 28, 36, 45, 55, 2,  14,
                                27, 41, 56, 8,  25, 43, 62, 18, 39, 61, 20, 44};
static const uint8_t pos[24] = {10, 7,  11, 17, 18, 3, 5,  16, 8,  21, 24, 4,
                                15, 23, 19, 13, 12, 2, 20, 14, 22, 9,  6,  1};

static uint64_t rotl(uint64_t v, unsigned n) {
  return (v << n) | (v >> (64 - n));
}

static void keccak_f1600(uint64_t *a) {
  uint64_t c[5], t;
  for (int r = 0; r < 24; r++) {
    for (int x = 0; x < 5; x++)
      c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
    for (int x = 0; x < 5; x++) {
      t = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1);
      for (int y = 0; y < 25; y += 5)
        a[y + x] ^= t;
    }
    t = a[1];
    for (int i = 0; i < 24; i++) {
      uint64_t next = a[pos[i]];
      a[pos[i]] = rotl(t, rot[i]);
      t = next;
    }
    for (int y = 0; y < 25; y += 5) {
      for (int x = 0; x < 5; x++)
        c[x] = a[y + x];
      for (int x = 0; x < 5; x++)
        a[y + x] = c[x] ^ (~c[(x + 1) % 5] & c[(x + 2) % 5]);
    }
    a[0] ^= rc[r];
  }
}
#define MBI_PERMUTE keccak_f1600
#endif

#include "sponge_core.h"

/* ---- keccakf1600.h ----------------------------------------------------- */

void SP(KeccakF1600_StatePermute)(uint64_t *state);
void SP(KeccakF1600_StateXORBytes)(uint64_t *state, const unsigned char *data,
                                   unsigned int offset, unsigned int length);
void SP(KeccakF1600_StateExtractBytes)(uint64_t *state, unsigned char *data,
                                       unsigned int offset,
                                       unsigned int length);

void SP(KeccakF1600_StatePermute)(uint64_t *state) { MBI_PERMUTE(state); }
void SP(KeccakF1600_StateXORBytes)(uint64_t *state, const unsigned char *data,
                                   unsigned int offset, unsigned int length) {
  xor_bytes(state, offset, data, length);
}
void SP(KeccakF1600_StateExtractBytes)(uint64_t *state, unsigned char *data,
                                       unsigned int offset,
                                       unsigned int length) {
  read_bytes(data, state, offset, length);
}

/* ---- SHAKE128 / SHAKE256 (FIPS 202 section 6.2) ------------------------ */

#define XOF(name, RATE, ctxT, incT)                                            \
  void SP(name##_absorb)(ctxT * st, const uint8_t *in, size_t inlen);          \
  void SP(name##_squeezeblocks)(uint8_t * out, size_t nblocks, ctxT * st);     \
  void SP(name##_ctx_release)(ctxT * st);                                      \
  void SP(name##_ctx_clone)(ctxT * dest, const ctxT *src);                     \
  void SP(name##_inc_init)(incT * st);                                         \
  void SP(name##_inc_absorb)(incT * st, const uint8_t *in, size_t inlen);      \
  void SP(name##_inc_finalize)(incT * st);                                     \
  void SP(name##_inc_squeeze)(uint8_t * out, size_t outlen, incT * st);        \
  void SP(name##_inc_ctx_clone)(incT * dest, const incT *src);                 \
  void SP(name##_inc_ctx_release)(incT * st);                                  \
  void SP(name)(uint8_t * out, size_t outlen, const uint8_t *in,               \
                size_t inlen);                                                 \
  void SP(name##_absorb)(ctxT * st, const uint8_t *in, size_t inlen) {         \
    absorb_all(st->ctx, RATE, in, inlen, 0x1F);                                \
  }                                                                            \
  void SP(name##_squeezeblocks)(uint8_t * out, size_t nblocks, ctxT * st) {    \
    squeeze_blocks(out, nblocks, st->ctx, RATE);                               \
  }                                                                            \
  void SP(name##_ctx_release)(ctxT * st) { (void)st; }                         \
  void SP(name##_ctx_clone)(ctxT * dest, const ctxT *src) {                    \
    memcpy(dest, src, sizeof *dest);                                           \
  }                                                                            \
  void SP(name##_inc_init)(incT * st) { inc_init(st->ctx); }                   \
  void SP(name##_inc_absorb)(incT * st, const uint8_t *in, size_t inlen) {     \
    inc_absorb(st->ctx, RATE, in, inlen);                                      \
  }                                                                            \
  void SP(name##_inc_finalize)(incT * st) {                                    \
    inc_finalize(st->ctx, RATE, 0x1F);                                         \
  }                                                                            \
  void SP(name##_inc_squeeze)(uint8_t * out, size_t outlen, incT * st) {       \
    inc_squeeze(out, outlen, st->ctx, RATE);                                   \
  }                                                                            \
  void SP(name##_inc_ctx_clone)(incT * dest, const incT *src) {                \
    memcpy(dest, src, sizeof *dest);                                           \
  }                                                                            \
  void SP(name##_inc_ctx_release)(incT * st) { (void)st; }                     \
  void SP(name)(uint8_t * out, size_t outlen, const uint8_t *in,               \
                size_t inlen) {                                                \
    uint64_t s[INC_WORDS];                                                     \
    inc_init(s);                                                               \
    inc_absorb(s, RATE, in, inlen);                                            \
    inc_finalize(s, RATE, 0x1F);                                               \
    inc_squeeze(out, outlen, s, RATE);                                         \
  }

XOF(shake128, SHAKE128_RATE, shake128ctx, shake128incctx)
XOF(shake256, SHAKE256_RATE, shake256ctx, shake256incctx)

/* ---- SHA3-256/384/512 (FIPS 202 section 6.1) --------------------------- */

#define HASH(name, RATE, OUT, incT)                                            \
  void SP(name##_inc_init)(incT * st);                                         \
  void SP(name##_inc_ctx_clone)(incT * dest, const incT *src);                 \
  void SP(name##_inc_ctx_release)(incT * st);                                  \
  void SP(name##_inc_absorb)(incT * st, const uint8_t *in, size_t inlen);      \
  void SP(name##_inc_finalize)(uint8_t * out, incT * st);                      \
  void SP(name)(uint8_t * out, const uint8_t *in, size_t inlen);               \
  void SP(name##_inc_init)(incT * st) { inc_init(st->ctx); }                   \
  void SP(name##_inc_ctx_clone)(incT * dest, const incT *src) {                \
    memcpy(dest, src, sizeof *dest);                                           \
  }                                                                            \
  void SP(name##_inc_ctx_release)(incT * st) { (void)st; }                     \
  void SP(name##_inc_absorb)(incT * st, const uint8_t *in, size_t inlen) {     \
    inc_absorb(st->ctx, RATE, in, inlen);                                      \
  }                                                                            \
  void SP(name##_inc_finalize)(uint8_t * out, incT * st) {                     \
    inc_finalize(st->ctx, RATE, 0x06);                                         \
    MBI_PERMUTE(st->ctx);                                                      \
    read_bytes(out, st->ctx, 0, OUT);                                          \
  }                                                                            \
  void SP(name)(uint8_t * out, const uint8_t *in, size_t inlen) {              \
    uint64_t s[LANES];                                                         \
    absorb_all(s, RATE, in, inlen, 0x06);                                      \
    MBI_PERMUTE(s);                                                            \
    read_bytes(out, s, 0, OUT);                                                \
  }

HASH(sha3_256, SHA3_256_RATE, 32, sha3_256incctx)
HASH(sha3_384, SHA3_384_RATE, 48, sha3_384incctx)
HASH(sha3_512, SHA3_512_RATE, 64, sha3_512incctx)
