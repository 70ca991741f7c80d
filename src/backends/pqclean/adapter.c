/* SPDX-License-Identifier: Apache-2.0 */
/* PQClean adapter: the backend table and PQClean's randomness hook.
 *
 * The "clean" portable C implementations of ML-KEM (FIPS 203), ML-DSA
 * (FIPS 204) and the SPHINCS+ round 3.1 baseline. Each scheme family has its
 * own adapter file (adapter_mlkem.c, adapter_mldsa.c, adapter_sphincs.c):
 * see pqclean_adapter.h for why. */
#include "pqclean_adapter.h"

#include "randombytes.h"

/* Build-time routing assertions. backend.cmake compiles a parameter set
 * into the library, and defines MERLIN_PQCLEAN_HAS_<ALG>, only when
 * MERLIN_PROFILE_ROUTES routes it here; merlin_profile.h must agree, in
 * both directions, or the image does not build (one check per pair of
 * PQCLEAN_IMPLS, pqclean_adapter.h). */
#define PQCLEAN_AGREE(ALG, VARIANT, IFACE, STEM)                               \
  _Static_assert(PQCLEAN_ROUTED(ALG) == MBE_ROUTED(MERLIN_PQCLEAN_HAS_##ALG),  \
                 "pqclean: " #ALG " routing and the PQClean build disagree");
PQCLEAN_IMPLS(PQCLEAN_AGREE)

/* PQClean's randomness hook, served by the harness generator: seeded for
 * benchmarks, scripted by the adapters where the standards fix the bytes
 * (ML-DSA seed and rnd, SPHINCS+ OptRand). */
int PQCLEAN_randombytes(uint8_t *output, size_t n) {
  mcore_rng_fill(output, n);
  return 0;
}

/* Each entry asserts its route at compile time (MCORE_IMPL). */
#define PQCLEAN_IMPL(ALG, VARIANT, IFACE, STEM)                                \
  MBE_WHEN(PQCLEAN_ROUTED(ALG))                                                \
  (MCORE_IMPL(ALG, PQCLEAN, VARIANT, IFACE, &mbe_pqclean_##STEM##_vt), )
static const mcore_impl impls[] = {PQCLEAN_IMPLS(PQCLEAN_IMPL)};

const mcore_backend mbe_pqclean_backend = {
    .id = MCORE_BACKEND_PQCLEAN,
    .library = "pqclean",
    .version = MERLIN_PQCLEAN_VERSION,
    .init = NULL,
    .impls = impls,
    .n_impls = sizeof impls / sizeof impls[0],
};
