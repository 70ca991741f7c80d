/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mlkem-native adapter: ML-KEM-512, -768 and -1024 (FIPS 203) through
 * mlkem-native's derandomised API, which is exactly the interface of
 * mcore_kem_vt:
 *   keygen  <prefix>_keypair_derand(ek, dk, d || z)  ML-KEM.KeyGen_internal
 *                                                    (FIPS 203 Algorithm 16)
 *   encaps  <prefix>_enc_derand(c, K, ek, m)         ML-KEM.Encaps_internal
 *                                                    (Algorithm 17), after
 *                                                    the ek modulus check of
 *                                                    Section 7.2
 *   decaps  <prefix>_dec(K, c, dk)                   ML-KEM.Decaps_internal
 *                                                    (Algorithm 18), after
 *                                                    the dk hash check of
 *                                                    Section 7.3
 * with <prefix> = merlin_mlkem512 / 768 / 1024 (merlin_mlkem_config.h).
 * Keys and ciphertexts are the standard's byte encodings already; nothing is
 * converted. mlkem-native keeps no state: init is not needed.
 */
#include "mbe_route.h"
#include "mcore.h"
#include "merlin_profile.h"

#include <stdint.h>

/* The parameter sets this adapter serves, each written once here: level,
 * then FIPS 203 Table 3's ek (384k+32), dk (768k+96) and c (32(du k + dv))
 * sizes in bytes. The routing checks, the bodies and the impls[] entries are
 * derived from it (src/backends/mbe_route.h). */
#define MLKEM_NATIVE_LEVELS(X)                                                 \
  X(512, 800, 1632, 768)                                                       \
  X(768, 1184, 2400, 1088)                                                     \
  X(1024, 1568, 3168, 1568)
#define MLKEM_ROUTED(L) MBE_ROUTED(MERLIN_ROUTE_ML_KEM_##L##_MLKEM_NATIVE)
#define MLKEM_ANY_ROUTED(L, EK, DK, C) MLKEM_ROUTED(L) ||

/* The library's public header, once per parameter set (mlkem_native.h,
 * "Multi-level builds"): it reads the same configuration as the library
 * build and declares merlin_mlkem<level>_*, whether routed or not
 * (declarations only; the library compiles the routed levels). The API
 * macros derived from the level are dropped between inclusions so that each
 * inclusion derives them afresh. */
#define MLK_CONFIG_FILE "merlin_mlkem_config.h"

#define MLK_CONFIG_PARAMETER_SET 512
#include "mlkem_native.h"
#undef MLK_H
#undef MLK_CONFIG_API_PARAMETER_SET
#undef MLK_CONFIG_API_NAMESPACE_PREFIX
#undef MLK_CONFIG_PARAMETER_SET
#define MLK_CONFIG_PARAMETER_SET 768
#include "mlkem_native.h"
#undef MLK_H
#undef MLK_CONFIG_API_PARAMETER_SET
#undef MLK_CONFIG_API_NAMESPACE_PREFIX
#undef MLK_CONFIG_PARAMETER_SET
#define MLK_CONFIG_PARAMETER_SET 1024
#include "mlkem_native.h"
#undef MLK_H
#undef MLK_CONFIG_API_PARAMETER_SET
#undef MLK_CONFIG_API_NAMESPACE_PREFIX
#undef MLK_CONFIG_PARAMETER_SET

/* ---- routing assertions: the configuration must build what the profile
 * routes here, in the variant this adapter reports ("c"). ----------------- */

#if (MLKEM_NATIVE_LEVELS(MLKEM_ANY_ROUTED) 0) &&                               \
    (defined(MLK_CONFIG_USE_NATIVE_BACKEND_ARITH) ||                           \
     defined(MLK_CONFIG_USE_NATIVE_BACKEND_FIPS202))
#error "mlkem-native is reported as portable C but a native backend is enabled"
#endif
#if (MLKEM_NATIVE_LEVELS(MLKEM_ANY_ROUTED) 0) &&                               \
    (!defined(MLK_CONFIG_MULTILEVEL_BUILD) ||                                  \
     defined(MLK_CONFIG_CONTEXT_PARAMETER))
#error "mlkem-native: the adapter needs the multi-level API without context"
#endif

#define MLKEM_SIZES_OK(L, EK, DK, C)                                           \
  _Static_assert(MLKEM##L##_PUBLICKEYBYTES == (EK) &&                          \
                     MLKEM##L##_SECRETKEYBYTES == (DK) &&                      \
                     MLKEM##L##_CIPHERTEXTBYTES == (C) &&                      \
                     MLKEM##L##_BYTES == 32,                                   \
                 "ML-KEM-" #L " sizes differ from FIPS 203 Table 3");

/* One vtable per parameter set; the library returns 0 on success, and a
 * negative MLK_ERR_* otherwise (a malformed ek or dk, for one). */
#define KEM_ADAPTER(L)                                                         \
  static int mlkem##L##_keygen(uint8_t *pk, uint8_t *sk,                       \
                               const uint8_t *coins) {                         \
    return merlin_mlkem##L##_keypair_derand(pk, sk, coins) == 0 ? MCORE_OK     \
                                                                : MCORE_ERR;   \
  }                                                                            \
  static int mlkem##L##_encaps(uint8_t *ct, uint8_t *ss, const uint8_t *pk,    \
                               const uint8_t *coins) {                         \
    return merlin_mlkem##L##_enc_derand(ct, ss, pk, coins) == 0 ? MCORE_OK     \
                                                                : MCORE_ERR;   \
  }                                                                            \
  static int mlkem##L##_decaps(uint8_t *ss, const uint8_t *ct,                 \
                               const uint8_t *sk) {                            \
    return merlin_mlkem##L##_dec(ss, ct, sk) == 0 ? MCORE_OK : MCORE_ERR;      \
  }                                                                            \
  static const mcore_kem_vt mlkem##L##_vt = {                                  \
      .pk_len = MLKEM##L##_PUBLICKEYBYTES,                                     \
      .sk_len = MLKEM##L##_SECRETKEYBYTES,                                     \
      .ct_len = MLKEM##L##_CIPHERTEXTBYTES,                                    \
      .ss_len = MLKEM##L##_BYTES,                                              \
      .keygen = mlkem##L##_keygen,                                             \
      .encaps = mlkem##L##_encaps,                                             \
      .decaps = mlkem##L##_decaps,                                             \
  };

/* The bodies of the routed levels, then their entries. */
#define MLKEM_BODY(L, EK, DK, C)                                               \
  MBE_WHEN(MLKEM_ROUTED(L))(MLKEM_SIZES_OK(L, EK, DK, C) KEM_ADAPTER(L))
#define MLKEM_IMPL(L, EK, DK, C)                                               \
  MBE_WHEN(MLKEM_ROUTED(L))                                                    \
  (MCORE_IMPL(ML_KEM_##L, MLKEM_NATIVE, "c", kem, &mlkem##L##_vt), )

MLKEM_NATIVE_LEVELS(MLKEM_BODY)

static const mcore_impl impls[] = {MLKEM_NATIVE_LEVELS(MLKEM_IMPL)};

const mcore_backend mbe_mlkem_native_backend = {
    .id = MCORE_BACKEND_MLKEM_NATIVE,
    .library = "mlkem-native",
    .version = MERLIN_MLKEM_NATIVE_VERSION
    " (AWS-LC " MERLIN_AWSLC_VERSION ", aws-lc-sys " MERLIN_AWS_LC_SYS_VERSION
    ")",
    .init = NULL,
    .impls = impls,
    .n_impls = sizeof impls / sizeof impls[0],
};
