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
#include "mcore.h"
#include "merlin_profile.h"

#include <stdint.h>

/* The library's public header, once per parameter set (mlkem_native.h,
 * "Multi-level builds"): it reads the same configuration as the library
 * build and declares merlin_mlkem<level>_*. The API macros derived from the
 * level are dropped between inclusions so that each inclusion derives them
 * afresh. */
#define MLK_CONFIG_FILE "merlin_mlkem_config.h"

#if MERLIN_ROUTE_ML_KEM_512_MLKEM_NATIVE
#define MLK_CONFIG_PARAMETER_SET 512
#include "mlkem_native.h"
#undef MLK_H
#undef MLK_CONFIG_API_PARAMETER_SET
#undef MLK_CONFIG_API_NAMESPACE_PREFIX
#undef MLK_CONFIG_PARAMETER_SET
#endif
#if MERLIN_ROUTE_ML_KEM_768_MLKEM_NATIVE
#define MLK_CONFIG_PARAMETER_SET 768
#include "mlkem_native.h"
#undef MLK_H
#undef MLK_CONFIG_API_PARAMETER_SET
#undef MLK_CONFIG_API_NAMESPACE_PREFIX
#undef MLK_CONFIG_PARAMETER_SET
#endif
#if MERLIN_ROUTE_ML_KEM_1024_MLKEM_NATIVE
#define MLK_CONFIG_PARAMETER_SET 1024
#include "mlkem_native.h"
#undef MLK_H
#undef MLK_CONFIG_API_PARAMETER_SET
#undef MLK_CONFIG_API_NAMESPACE_PREFIX
#undef MLK_CONFIG_PARAMETER_SET
#endif

/* ---- routing assertions: the configuration must build what the profile
 * routes here, in the variant this adapter reports ("c"). ----------------- */

#if (MERLIN_ROUTE_ML_KEM_512_MLKEM_NATIVE ||                                   \
     MERLIN_ROUTE_ML_KEM_768_MLKEM_NATIVE ||                                   \
     MERLIN_ROUTE_ML_KEM_1024_MLKEM_NATIVE) &&                                 \
    (defined(MLK_CONFIG_USE_NATIVE_BACKEND_ARITH) ||                           \
     defined(MLK_CONFIG_USE_NATIVE_BACKEND_FIPS202))
#error "mlkem-native is reported as portable C but a native backend is enabled"
#endif
#if (MERLIN_ROUTE_ML_KEM_512_MLKEM_NATIVE ||                                   \
     MERLIN_ROUTE_ML_KEM_768_MLKEM_NATIVE ||                                   \
     MERLIN_ROUTE_ML_KEM_1024_MLKEM_NATIVE) &&                                 \
    (!defined(MLK_CONFIG_MULTILEVEL_BUILD) ||                                  \
     defined(MLK_CONFIG_CONTEXT_PARAMETER))
#error "mlkem-native: the adapter needs the multi-level API without context"
#endif

/* FIPS 203 Table 3: ek 384k+32, dk 768k+96, c 32(du k + dv) bytes, K 32. */
#define MLKEM_SIZES_OK(L, EK, DK, C)                                           \
  _Static_assert(MLKEM##L##_PUBLICKEYBYTES == (EK) &&                          \
                     MLKEM##L##_SECRETKEYBYTES == (DK) &&                      \
                     MLKEM##L##_CIPHERTEXTBYTES == (C) &&                      \
                     MLKEM##L##_BYTES == 32,                                   \
                 "ML-KEM-" #L " sizes differ from FIPS 203 Table 3")

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

#if MERLIN_ROUTE_ML_KEM_512_MLKEM_NATIVE
MLKEM_SIZES_OK(512, 800, 1632, 768);
KEM_ADAPTER(512)
#endif
#if MERLIN_ROUTE_ML_KEM_768_MLKEM_NATIVE
MLKEM_SIZES_OK(768, 1184, 2400, 1088);
KEM_ADAPTER(768)
#endif
#if MERLIN_ROUTE_ML_KEM_1024_MLKEM_NATIVE
MLKEM_SIZES_OK(1024, 1568, 3168, 1568);
KEM_ADAPTER(1024)
#endif

static const mcore_impl impls[] = {
#if MERLIN_ROUTE_ML_KEM_512_MLKEM_NATIVE
    MCORE_IMPL(ML_KEM_512, MLKEM_NATIVE, "c", kem, &mlkem512_vt),
#endif
#if MERLIN_ROUTE_ML_KEM_768_MLKEM_NATIVE
    MCORE_IMPL(ML_KEM_768, MLKEM_NATIVE, "c", kem, &mlkem768_vt),
#endif
#if MERLIN_ROUTE_ML_KEM_1024_MLKEM_NATIVE
    MCORE_IMPL(ML_KEM_1024, MLKEM_NATIVE, "c", kem, &mlkem1024_vt),
#endif
};

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
