/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mldsa-native configuration (MLD_CONFIG_FILE) for Merlin: the supported way
 * to configure the library, instead of its default mldsa_native_config.h.
 * Read by the library build unit (mldsa_native_lib.c) and by the adapter
 * through mldsa_native.h, so both agree on names and options.
 *
 * Choices (see the option list in mldsa/common.h and mldsa_native.h):
 *   - one build for ML-DSA-44, -65 and -87 (FIPS 204 Table 1) in one unit:
 *     MLD_CONFIG_MULTILEVEL_BUILD, every function named
 *     merlin_mldsa<44|65|87>_<fn>, the level-independent code once as
 *     merlin_mldsa_<fn>;
 *   - portable C only: no MLD_CONFIG_USE_NATIVE_BACKEND_ARITH / _FIPS202.
 *     MLD_CONFIG_NO_ASM is *not* set: it would also remove the empty inline
 *     asm value barriers (compiler barriers, no instructions) that keep the
 *     constant-time code and the zeroisation from being optimised away;
 *   - FIPS 202 (SHAKE128, SHAKE256) from AWS-LC's own Keccak
 *     (crypto/fipsmodule/sha), through AWS-LC's glue header that sits next
 *     to the mldsa/ folder: this copy of mldsa-native carries no fips202/
 *     folder of its own;
 *   - MLD_CONFIG_SERIAL_FIPS202_ONLY: one Keccak state at a time. A Cortex-M
 *     has no parallel Keccak, so the 4-way batched sampling of A, s1/s2 and
 *     y would only run four states one after the other, with four times the
 *     state on the stack;
 *   - no pairwise consistency test in key generation (MLD_CONFIG_KEYGEN_PCT
 *     off): FIPS 204 does not ask for one; AWS-LC enables it only in FIPS
 *     mode. The benchmark times ML-DSA.KeyGen itself;
 *   - working buffers on the stack (the default MLD_ALLOC; not
 *     MLD_CONFIG_REDUCE_RAM), so mldsa-native allocates nothing;
 *   - randombytes is the harness generator (mcore_rng_fill): it draws the
 *     32-byte seed xi of ML-DSA.KeyGen (FIPS 204 Algorithm 1). Signing is
 *     the deterministic variant and draws nothing.
 */
#ifndef MERLIN_MLDSA_CONFIG_H
#define MERLIN_MLDSA_CONFIG_H

#define MLD_CONFIG_NAMESPACE_PREFIX merlin_mldsa
#define MLD_CONFIG_MULTILEVEL_BUILD
/* The SUPERCOP names (crypto_sign_*) cannot serve several levels at once. */
#define MLD_CONFIG_NO_SUPERCOP

/* Relative to the mldsa/ folder, where mldsa-native includes them from. */
#define MLD_CONFIG_FIPS202_CUSTOM_HEADER "../fips202_glue.h"
#define MLD_CONFIG_FIPS202X4_CUSTOM_HEADER "../fips202x4_glue.h"
#define MLD_CONFIG_SERIAL_FIPS202_ONLY

/* The whole library is one unit (mldsa_native_lib.c): its internal functions
 * need no external linkage; the API keeps it for the adapter. Marked unused
 * (as AWS-LC does for mldsa-native) because a profile routing only some
 * parameter sets leaves some level-independent helpers without a caller;
 * the compiler drops them either way. */
#if defined(__GNUC__) || defined(__clang__)
#define MLD_CONFIG_INTERNAL_API_QUALIFIER static __attribute__((unused))
#else
#define MLD_CONFIG_INTERNAL_API_QUALIFIER static
#endif

#define MLD_CONFIG_CUSTOM_RANDOMBYTES
/* Defined only inside the library build (common.h sets MLD_BUILD_INTERNAL
 * before it reads this file), not where the adapter reads the API. */
#if defined(MLD_BUILD_INTERNAL) && !defined(__ASSEMBLER__)
#include <stddef.h>
#include <stdint.h>
void mcore_rng_fill(uint8_t *out, size_t len);
/* 0: success (mldsa-native's randombytes contract). */
static inline int mld_randombytes(uint8_t *out, size_t len) {
  mcore_rng_fill(out, len);
  return 0;
}
#endif

#endif
