/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A test-only backend (tests/ct/plant.sh, docs/constant-time.md): planted
 * constant-time leaks. HMAC-SHA256 is served five times; each variant runs a
 * few lines on the key, then the image's real HMAC-SHA256 (the backend the
 * test profile routes it to), so every known-answer test passes. One
 * variant is constant time; the other four leak the key, each in the way
 * one check of the constant-time pass is meant to catch:
 *
 *   ct-select        a masked select and a public-index lookup: no finding
 *   table-lookup     a table indexed by key bytes: the address trace
 *   secret-branch    a branch on a key bit whose two arms have the same
 *                    length: the path (the instruction count cannot see it)
 *   secret-division  a division by a value derived from the key: the
 *                    variable-latency list where the core has a divider
 *                    whose time depends on its operands (M3, M4: UDIV), the
 *                    path on ARMv6-M (libgcc's division loops)
 *   select-branch    a "constant-time" select of the source buffer written
 *                    with ?:, which the compiler may turn into a branch
 *                    (path) or a conditional move (the loads then go to
 *                    the chosen buffer: the address trace)
 *
 * Built only when CMake's test hook MERLIN_TEST_CT_PLANT is on
 * (tests/ct/plant/plant.cmake): no shipped image carries it.
 */
#include "mcore.h"

#include <stddef.h>
#include <stdint.h>

#define NOINLINE __attribute__((noinline))

static volatile uint32_t sink; /* keeps every planted line alive */

/* A 256-byte table in flash, like an S-box. */
#define T4(i)                                                                  \
  (uint8_t)((i)*167 + 13), (uint8_t)((i + 1) * 167 + 13),                      \
      (uint8_t)((i + 2) * 167 + 13), (uint8_t)((i + 3) * 167 + 13)
#define T16(i) T4(i), T4(i + 4), T4(i + 8), T4(i + 12)
#define T64(i) T16(i), T16(i + 16), T16(i + 32), T16(i + 48)
static const uint8_t table[256] = {T64(0), T64(64), T64(128), T64(192)};

static const mcore_mac_vt *real_hmac(void) {
  for (size_t b = 0; b < mcore_n_backends; b++)
    for (size_t i = 0; i < mcore_backends[b]->n_impls; i++) {
      const mcore_impl *im = &mcore_backends[b]->impls[i];
      if (im->alg == MCORE_ALG_HMAC_SHA256 &&
          im->backend != MCORE_BACKEND_CT_PLANT)
        return im->vt.mac;
    }
  return NULL;
}

/* The constant-time reference: a masked select, a lookup at a public
 * index. */
NOINLINE static void plant_ct_select(const uint8_t *key, size_t n) {
  uint32_t mask = 0u - (uint32_t)(key[0] & 1u);
  uint32_t a = 0x01234567u ^ (uint32_t)n, b = 0x89abcdefu;
  sink = (a & mask) | (b & ~mask);
  sink = table[n & 0xFFu];
}

NOINLINE static void plant_table_lookup(const uint8_t *key, size_t n) {
  uint32_t acc = 0;
  for (size_t i = 0; i < n && i < 32; i++)
    acc ^= table[key[i]];
  sink = acc;
}

/* In assembly, so that both arms are exactly four instructions whatever
 * the compiler: one path per value of the bit, one instruction count. The
 * 16-bit flag-setting forms, in the syntax the compiler speaks: divided
 * for ARMv6-M (gcc), unified for ARMv7-M. */
#if defined(__ARM_ARCH_6M__) && !defined(__clang__)
#define ASM_LSLS "lsl %[b], %[b], #31\n\t"
#define ASM_ADDS(k) "add %[x], #" k "\n\t"
#else
#define ASM_LSLS "lsls %[b], %[b], #31\n\t"
#define ASM_ADDS(k) "adds %[x], %[x], #" k "\n\t"
#endif
NOINLINE static void plant_secret_branch(const uint8_t *key, size_t n) {
  uint32_t bit = key[0], x = (uint32_t)n;
#if defined(__thumb__)
  __asm__ volatile(ASM_LSLS
                   "bcs 1f\n\t" ASM_ADDS("1") "b 2f\n"
                                              "1:\n\t" ASM_ADDS("2") "nop\n"
                                                                     "2:\n"
                   : [b] "+l"(bit), [x] "+l"(x)
                   :
                   : "cc");
#else
  x += (bit & 1u) ? 2u : 1u;
#endif
  sink = x;
}

NOINLINE static void plant_secret_division(const uint8_t *key, size_t n) {
  uint32_t d = 1u + key[0] + ((uint32_t)key[1] << 8);
  sink = (0xFFFFFFFFu - (uint32_t)n) / d;
}

NOINLINE static void plant_select_branch(const uint8_t *key, size_t n) {
  static const uint8_t zeros[32],
      ones[32] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  const uint8_t *src = (key[0] & 1u) ? ones : zeros; /* "select" */
  uint32_t acc = 0;
  for (size_t i = 0; i < 16 && i < n; i++)
    acc += src[i];
  sink = acc;
}

#define PLANT(name)                                                            \
  static int mac_##name(uint8_t *tag, const uint8_t *key, size_t key_len,      \
                        const uint8_t *msg, size_t len) {                      \
    const mcore_mac_vt *real = real_hmac();                                    \
    if (!real || key_len == 0)                                                 \
      return MCORE_ERR;                                                        \
    plant_##name(key, key_len);                                                \
    return real->mac(tag, key, key_len, msg, len);                             \
  }                                                                            \
  static const mcore_mac_vt vt_##name = {.tag_len = 32, .mac = mac_##name};

PLANT(ct_select)
PLANT(table_lookup)
PLANT(secret_branch)
PLANT(secret_division)
PLANT(select_branch)

#define IMPL(label, name)                                                      \
  {                                                                            \
    .alg = MCORE_ALG_HMAC_SHA256, .backend = MCORE_BACKEND_CT_PLANT,           \
    .variant = label, .vt = {                                                  \
      .mac = &vt_##name                                                        \
    }                                                                          \
  }

static const mcore_impl impls[] = {
    IMPL("ct-select", ct_select),
    IMPL("table-lookup", table_lookup),
    IMPL("secret-branch", secret_branch),
    IMPL("secret-division", secret_division),
    IMPL("select-branch", select_branch),
};

const mcore_backend mbe_ct_plant_backend = {
    .id = MCORE_BACKEND_CT_PLANT,
    .library = "ct-plant",
    .version = "test",
    .impls = impls,
    .n_impls = sizeof impls / sizeof impls[0],
};
