/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The FIPS 202 sponge of Merlin's fips202.h implementations (keccak_thumb2.c:
 * PQClean's API over wolfSSL's Thumb-2 Keccak; sponge.c: mupq's heap-free
 * API), included by each with MBI_PERMUTE defined as its Keccak-f[1600]
 * (state of 25 little-endian lanes, in place).
 *
 * FIPS 202 Algorithm 8, SPONGE[Keccak-p[1600, 24], pad10*1, r], with the
 * suffix bits of section 6: SHAKE appends 1111 (0x1F with the first
 * padding bit), SHA-3 appends 01 (0x06). Byte i of the rate is byte i mod 8
 * of lane i / 8 (section B.1). An incremental state is the 25 lanes, then a
 * byte count (PQClean's and mupq's layout): bytes absorbed into the current
 * block, or, once finalized, bytes of the current squeezed block not yet
 * returned.
 */
#ifndef MERLIN_SPONGE_CORE_H
#define MERLIN_SPONGE_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define LANES 25
#define INC_WORDS (LANES + 1)

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
    MBI_PERMUTE(s);
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
    MBI_PERMUTE(s);
    take = n < r ? n : r;
    read_bytes(out, s, 0, take);
    out += take;
    n -= take;
    s[LANES] = r - take;
  }
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
    MBI_PERMUTE(s);
    read_bytes(out + b * r, s, 0, r);
  }
}

#endif
