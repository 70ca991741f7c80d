/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mldsa-native adapter: ML-DSA-44, -65 and -87 (FIPS 204), pure (no
 * pre-hash), empty context:
 *   keygen       <prefix>_keypair(pk, sk)            ML-DSA.KeyGen
 *                                                    (FIPS 204 Algorithm 1):
 *                                                    xi from randombytes,
 *                                                    i.e. mcore_rng_fill
 *   keygen_seed  <prefix>_keypair_internal(pk, sk, xi)  ML-DSA.KeyGen_internal
 *                                                    (Algorithm 6)
 *   sign         <prefix>_signature_internal(..., M' prefix, rnd = 0^32, ...)
 *                                                    ML-DSA.Sign (Algorithm 2,
 *                                                    deterministic variant)
 *                                                    over Sign_internal
 *                                                    (Algorithm 7)
 *   verify       <prefix>_verify(..., ctx = empty, pk)  ML-DSA.Verify
 *                                                    (Algorithm 3)
 * with <prefix> = merlin_mldsa44 / 65 / 87 (merlin_mldsa_config.h). Keys and
 * signatures are the standard's byte encodings already; nothing is
 * converted. mldsa-native keeps no state: init is not needed.
 */
#include "mbe_route.h"
#include "mcore.h"
#include "merlin_profile.h"

#include <stddef.h>
#include <stdint.h>

/* The parameter sets this adapter serves, each written once here: level,
 * then FIPS 204 Table 2's pk, sk and signature sizes in bytes. The routing
 * checks, the bodies and the impls[] entries are derived from it
 * (src/backends/mbe_route.h). */
#define MLDSA_NATIVE_LEVELS(X)                                                 \
  X(44, 1312, 2560, 2420)                                                      \
  X(65, 1952, 4032, 3309)                                                      \
  X(87, 2592, 4896, 4627)
#define MLDSA_ROUTED_LEVEL(L) MBE_ROUTED(MERLIN_ROUTE_ML_DSA_##L##_MLDSA_NATIVE)
#define MLDSA_ANY_ROUTED(L, PK, SK, SIG) MLDSA_ROUTED_LEVEL(L) ||

/* The library's public header, once per parameter set (mldsa_native.h,
 * "Multi-level builds"): it reads the same configuration as the library
 * build and declares merlin_mldsa<level>_*, whether routed or not
 * (declarations only; the library compiles the routed levels). The API
 * macros derived from the level are dropped between inclusions so that each
 * inclusion derives them afresh. */
#define MLD_CONFIG_FILE "merlin_mldsa_config.h"

#define MLD_CONFIG_PARAMETER_SET 44
#include "mldsa_native.h"
#undef MLD_H
#undef MLD_CONFIG_API_PARAMETER_SET
#undef MLD_CONFIG_API_NAMESPACE_PREFIX
#undef MLD_CONFIG_PARAMETER_SET
#define MLD_CONFIG_PARAMETER_SET 65
#include "mldsa_native.h"
#undef MLD_H
#undef MLD_CONFIG_API_PARAMETER_SET
#undef MLD_CONFIG_API_NAMESPACE_PREFIX
#undef MLD_CONFIG_PARAMETER_SET
#define MLD_CONFIG_PARAMETER_SET 87
#include "mldsa_native.h"
#undef MLD_H
#undef MLD_CONFIG_API_PARAMETER_SET
#undef MLD_CONFIG_API_NAMESPACE_PREFIX
#undef MLD_CONFIG_PARAMETER_SET

/* ---- routing assertions: the configuration must build what the profile
 * routes here, in the variant this adapter reports ("c"). ----------------- */

#define MLDSA_ROUTED (MLDSA_NATIVE_LEVELS(MLDSA_ANY_ROUTED) 0)
#if MLDSA_ROUTED && (defined(MLD_CONFIG_USE_NATIVE_BACKEND_ARITH) ||           \
                     defined(MLD_CONFIG_USE_NATIVE_BACKEND_FIPS202))
#error "mldsa-native is reported as portable C but a native backend is enabled"
#endif
#if MLDSA_ROUTED &&                                                            \
    (defined(MLD_CONFIG_NO_KEYPAIR_API) || defined(MLD_CONFIG_NO_SIGN_API) ||  \
     defined(MLD_CONFIG_NO_VERIFY_API) || defined(MLD_CONFIG_CORE_API_ONLY) || \
     defined(MLD_CONFIG_NO_RANDOMIZED_API))
#error "mldsa-native: keygen, sign and verify must all be configured"
#endif
#if MLDSA_ROUTED && (!defined(MLD_CONFIG_MULTILEVEL_BUILD) ||                  \
                     defined(MLD_CONFIG_CONTEXT_PARAMETER))
#error "mldsa-native: the adapter needs the multi-level API without context"
#endif

/* FIPS 204 Algorithm 2 (pure ML-DSA) with ctx empty: M' = IntegerToBytes(0,
 * 1) || IntegerToBytes(|ctx| = 0, 1) || M. mldsa-native prepends this
 * prefix to M in Sign_internal. */
static const uint8_t pure_empty_ctx_prefix[2] = {0x00, 0x00};
/* FIPS 204 Algorithm 2 and Section 3.4: the deterministic variant signs
 * with rnd = {0}^32, so the signatures are known answers. */
static const uint8_t zero_rnd[MLDSA_RNDBYTES] = {0};

/* Library results: 0 success; MLD_ERR_FAIL (-1) from verify means the
 * signature does not verify; anything else is an error. */
static int verify_result(int r) {
  if (r == 0)
    return MCORE_OK;
  return r == MLD_ERR_FAIL ? MCORE_BAD_SIGNATURE : MCORE_ERR;
}

/* FIPS 204 Table 2: pk, sk and signature sizes in bytes. */
#define MLDSA_SIZES_OK(L, PK, SK, SIG)                                         \
  _Static_assert(MLDSA##L##_PUBLICKEYBYTES == (PK) &&                          \
                     MLDSA##L##_SECRETKEYBYTES == (SK) &&                      \
                     MLDSA##L##_BYTES == (SIG) && MLDSA##L##_SEEDBYTES == 32,  \
                 "ML-DSA-" #L " sizes differ from FIPS 204 Table 2");

#define SIG_ADAPTER(L)                                                         \
  static int mldsa##L##_keygen(uint8_t *pk, uint8_t *sk) {                     \
    return merlin_mldsa##L##_keypair(pk, sk) == 0 ? MCORE_OK : MCORE_ERR;      \
  }                                                                            \
  static int mldsa##L##_keygen_seed(uint8_t *pk, uint8_t *sk,                  \
                                    const uint8_t *seed) {                     \
    return merlin_mldsa##L##_keypair_internal(pk, sk, seed) == 0 ? MCORE_OK    \
                                                                 : MCORE_ERR;  \
  }                                                                            \
  static int mldsa##L##_sign(uint8_t *sig, size_t *sig_len,                    \
                             const uint8_t *msg, size_t msg_len,               \
                             const uint8_t *sk) {                              \
    return merlin_mldsa##L##_signature_internal(                               \
               sig, sig_len, msg, msg_len, pure_empty_ctx_prefix,              \
               sizeof pure_empty_ctx_prefix, zero_rnd, sk, 0) == 0             \
               ? MCORE_OK                                                      \
               : MCORE_ERR;                                                    \
  }                                                                            \
  static int mldsa##L##_verify(const uint8_t *sig, size_t sig_len,             \
                               const uint8_t *msg, size_t msg_len,             \
                               const uint8_t *pk) {                            \
    return verify_result(                                                      \
        merlin_mldsa##L##_verify(sig, sig_len, msg, msg_len, NULL, 0, pk));    \
  }                                                                            \
  static const mcore_sig_vt mldsa##L##_vt = {                                  \
      .pk_len = MLDSA##L##_PUBLICKEYBYTES,                                     \
      .sk_len = MLDSA##L##_SECRETKEYBYTES,                                     \
      .sig_len = MLDSA##L##_BYTES,                                             \
      .keygen = mldsa##L##_keygen,                                             \
      .sign = mldsa##L##_sign,                                                 \
      .verify = mldsa##L##_verify,                                             \
      .keygen_seed = mldsa##L##_keygen_seed,                                   \
      .seed_len = MLDSA##L##_SEEDBYTES,                                        \
  };

/* The bodies of the routed levels, then their entries. */
#define MLDSA_BODY(L, PK, SK, SIG)                                             \
  MBE_WHEN(MLDSA_ROUTED_LEVEL(L))(MLDSA_SIZES_OK(L, PK, SK, SIG) SIG_ADAPTER(L))
#define MLDSA_IMPL(L, PK, SK, SIG)                                             \
  MBE_WHEN(MLDSA_ROUTED_LEVEL(L))                                              \
  (MCORE_IMPL(ML_DSA_##L, MLDSA_NATIVE, "c", sig, &mldsa##L##_vt), )

MLDSA_NATIVE_LEVELS(MLDSA_BODY)

static const mcore_impl impls[] = {MLDSA_NATIVE_LEVELS(MLDSA_IMPL)};

const mcore_backend mbe_mldsa_native_backend = {
    .id = MCORE_BACKEND_MLDSA_NATIVE,
    .library = "mldsa-native",
    .version = MERLIN_MLDSA_NATIVE_VERSION
    " (AWS-LC " MERLIN_AWSLC_VERSION ", aws-lc-sys " MERLIN_AWS_LC_SYS_VERSION
    ")",
    .init = NULL,
    .impls = impls,
    .n_impls = sizeof impls / sizeof impls[0],
};
