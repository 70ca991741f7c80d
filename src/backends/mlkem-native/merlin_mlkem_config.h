/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mlkem-native configuration (MLK_CONFIG_FILE) for Merlin: the supported way
 * to configure the library, instead of its default mlkem_native_config.h.
 * Read by the library build unit (mlkem_native_lib.c) and by the adapter
 * through mlkem_native.h, so both agree on names and options.
 *
 * Choices (see the option list in mlkem/common.h and mlkem_native.h):
 *   - one build for ML-KEM-512, -768 and -1024 (FIPS 203 Table 2) in one
 *     unit: MLK_CONFIG_MULTILEVEL_BUILD, every function named
 *     merlin_mlkem<512|768|1024>_<fn>, the level-independent code once as
 *     merlin_mlkem_<fn>;
 *   - portable C only: no MLK_CONFIG_USE_NATIVE_BACKEND_ARITH / _FIPS202.
 *     MLK_CONFIG_NO_ASM is *not* set: it would also remove the empty inline
 *     asm value barriers (compiler barriers, no instructions) that keep the
 *     constant-time selection and the zeroisation from being optimised away;
 *   - FIPS 202 (SHA3-256, SHA3-512, SHAKE128, SHAKE256) from AWS-LC's own
 *     Keccak (crypto/fipsmodule/sha), through AWS-LC's glue header that sits
 *     next to the mlkem/ folder: this copy of mlkem-native carries no
 *     fips202/ folder of its own;
 *   - MLK_CONFIG_SERIAL_FIPS202_ONLY: one Keccak state at a time. A Cortex-M
 *     has no parallel Keccak, so the 4-way batched path would only run four
 *     states one after the other, with four times the state on the stack
 *     and wasted squeezes on the entries already complete;
 *   - no pairwise consistency test in key generation (MLK_CONFIG_KEYGEN_PCT
 *     off): FIPS 203 does not ask for one; AWS-LC enables it only in FIPS
 *     mode. The benchmark times ML-KEM.KeyGen itself;
 *   - working buffers on the stack (the default MLK_ALLOC), so mlkem-native
 *     allocates nothing;
 *   - randombytes is the harness generator (mcore_rng_fill). The timed
 *     operations use the derandomised API (FIPS 203 Algorithms 16-18), so it
 *     is only reached by the randomised entry points.
 */
#ifndef MERLIN_MLKEM_CONFIG_H
#define MERLIN_MLKEM_CONFIG_H

#define MLK_CONFIG_NAMESPACE_PREFIX merlin_mlkem
#define MLK_CONFIG_MULTILEVEL_BUILD
/* The SUPERCOP names (crypto_kem_*) cannot serve several levels at once. */
#define MLK_CONFIG_NO_SUPERCOP

/* Relative to the mlkem/ folder, where mlkem-native includes them from. */
#define MLK_CONFIG_FIPS202_CUSTOM_HEADER "../fips202_glue.h"
#define MLK_CONFIG_FIPS202X4_CUSTOM_HEADER "../fips202x4_glue.h"
#define MLK_CONFIG_SERIAL_FIPS202_ONLY

/* The whole library is one unit (mlkem_native_lib.c): its internal functions
 * need no external linkage; the API keeps it for the adapter. Marked unused
 * (as AWS-LC does for mldsa-native) because a profile routing only some
 * parameter sets leaves some level-independent helpers without a caller;
 * the compiler drops them either way. */
#if defined(__GNUC__) || defined(__clang__)
#define MLK_CONFIG_INTERNAL_API_QUALIFIER static __attribute__((unused))
#else
#define MLK_CONFIG_INTERNAL_API_QUALIFIER static
#endif

#define MLK_CONFIG_CUSTOM_RANDOMBYTES
/* Defined only inside the library build (common.h sets MLK_BUILD_INTERNAL
 * before it reads this file), not where the adapter reads the API. */
#if defined(MLK_BUILD_INTERNAL) && !defined(__ASSEMBLER__)
#include <stddef.h>
#include <stdint.h>
void mcore_rng_fill(uint8_t *out, size_t len);
/* 0: success (mlkem-native's randombytes contract). */
static inline int mlk_randombytes(uint8_t *out, size_t len) {
  mcore_rng_fill(out, len);
  return 0;
}
#endif

#endif
