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
 * both directions, or the image does not build. */
#define PQCLEAN_ROUTES_DISAGREE(alg)                                           \
  ((MERLIN_ROUTE_##alg##_PQCLEAN + 0) != (MERLIN_PQCLEAN_HAS_##alg + 0))
#if PQCLEAN_ROUTES_DISAGREE(ML_KEM_512)
#error "pqclean: ml-kem-512 routing and the PQClean build disagree"
#endif
#if PQCLEAN_ROUTES_DISAGREE(ML_KEM_768)
#error "pqclean: ml-kem-768 routing and the PQClean build disagree"
#endif
#if PQCLEAN_ROUTES_DISAGREE(ML_KEM_1024)
#error "pqclean: ml-kem-1024 routing and the PQClean build disagree"
#endif
#if PQCLEAN_ROUTES_DISAGREE(ML_DSA_44)
#error "pqclean: ml-dsa-44 routing and the PQClean build disagree"
#endif
#if PQCLEAN_ROUTES_DISAGREE(ML_DSA_65)
#error "pqclean: ml-dsa-65 routing and the PQClean build disagree"
#endif
#if PQCLEAN_ROUTES_DISAGREE(ML_DSA_87)
#error "pqclean: ml-dsa-87 routing and the PQClean build disagree"
#endif
#if PQCLEAN_ROUTES_DISAGREE(SPHINCS_SHA2_128S_R3)
#error "pqclean: sphincs-sha2-128s-simple-r3 routing and the build disagree"
#endif
#if PQCLEAN_ROUTES_DISAGREE(SPHINCS_SHA2_128F_R3)
#error "pqclean: sphincs-sha2-128f-simple-r3 routing and the build disagree"
#endif
#if PQCLEAN_ROUTES_DISAGREE(SPHINCS_SHAKE_128S_R3)
#error "pqclean: sphincs-shake-128s-simple-r3 routing and the build disagree"
#endif
#if PQCLEAN_ROUTES_DISAGREE(SPHINCS_SHAKE_128F_R3)
#error "pqclean: sphincs-shake-128f-simple-r3 routing and the build disagree"
#endif

/* PQClean's randomness hook, served by the harness generator: seeded for
 * benchmarks, scripted by the adapters where the standards fix the bytes
 * (ML-DSA seed and rnd, SPHINCS+ OptRand). */
int PQCLEAN_randombytes(uint8_t *output, size_t n) {
  mcore_rng_fill(output, n);
  return 0;
}

/* Variant labels: ML-KEM and ML-DSA are the final standards; the SPHINCS+
 * label says plainly that it is not SLH-DSA. */
#define PQC_VARIANT "clean"
#define SPX_VARIANT "clean-r3.1-pre-fips205"

/* Each entry asserts its route at compile time (MCORE_IMPL). */
static const mcore_impl impls[] = {
#if MERLIN_ROUTE_ML_KEM_512_PQCLEAN
    MCORE_IMPL(ML_KEM_512, PQCLEAN, PQC_VARIANT, kem, &mbe_pqclean_mlkem512_vt),
#endif
#if MERLIN_ROUTE_ML_KEM_768_PQCLEAN
    MCORE_IMPL(ML_KEM_768, PQCLEAN, PQC_VARIANT, kem, &mbe_pqclean_mlkem768_vt),
#endif
#if MERLIN_ROUTE_ML_KEM_1024_PQCLEAN
    MCORE_IMPL(ML_KEM_1024, PQCLEAN, PQC_VARIANT, kem,
               &mbe_pqclean_mlkem1024_vt),
#endif
#if MERLIN_ROUTE_ML_DSA_44_PQCLEAN
    MCORE_IMPL(ML_DSA_44, PQCLEAN, PQC_VARIANT, sig, &mbe_pqclean_mldsa44_vt),
#endif
#if MERLIN_ROUTE_ML_DSA_65_PQCLEAN
    MCORE_IMPL(ML_DSA_65, PQCLEAN, PQC_VARIANT, sig, &mbe_pqclean_mldsa65_vt),
#endif
#if MERLIN_ROUTE_ML_DSA_87_PQCLEAN
    MCORE_IMPL(ML_DSA_87, PQCLEAN, PQC_VARIANT, sig, &mbe_pqclean_mldsa87_vt),
#endif
#if MERLIN_ROUTE_SPHINCS_SHA2_128S_R3_PQCLEAN
    MCORE_IMPL(SPHINCS_SHA2_128S_R3, PQCLEAN, SPX_VARIANT, sig,
               &mbe_pqclean_sphincs_sha2_128s_vt),
#endif
#if MERLIN_ROUTE_SPHINCS_SHA2_128F_R3_PQCLEAN
    MCORE_IMPL(SPHINCS_SHA2_128F_R3, PQCLEAN, SPX_VARIANT, sig,
               &mbe_pqclean_sphincs_sha2_128f_vt),
#endif
#if MERLIN_ROUTE_SPHINCS_SHAKE_128S_R3_PQCLEAN
    MCORE_IMPL(SPHINCS_SHAKE_128S_R3, PQCLEAN, SPX_VARIANT, sig,
               &mbe_pqclean_sphincs_shake_128s_vt),
#endif
#if MERLIN_ROUTE_SPHINCS_SHAKE_128F_R3_PQCLEAN
    MCORE_IMPL(SPHINCS_SHAKE_128F_R3, PQCLEAN, SPX_VARIANT, sig,
               &mbe_pqclean_sphincs_shake_128f_vt),
#endif
};

const mcore_backend mbe_pqclean_backend = {
    .id = MCORE_BACKEND_PQCLEAN,
    .library = "pqclean",
    .version = MERLIN_PQCLEAN_VERSION,
    .init = NULL,
    .impls = impls,
    .n_impls = sizeof impls / sizeof impls[0],
};
