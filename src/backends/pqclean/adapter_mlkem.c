/* SPDX-License-Identifier: Apache-2.0 */
/* PQClean ML-KEM-512/768/1024 (FIPS 203), crypto_kem/ml-kem-N/clean.
 * Compiled only when the profile routes one of them here. */
#include "pqclean_adapter.h"

#if MERLIN_ROUTE_ML_KEM_512_PQCLEAN
#include "crypto_kem/ml-kem-512/clean/api.h"
#endif
#if MERLIN_ROUTE_ML_KEM_768_PQCLEAN
#include "crypto_kem/ml-kem-768/clean/api.h"
#endif
#if MERLIN_ROUTE_ML_KEM_1024_PQCLEAN
#include "crypto_kem/ml-kem-1024/clean/api.h"
#endif

/* The derandomised entry points (FIPS 203 Algorithms 16 and 17,
 * ML-KEM.KeyGen_internal(d, z) with coins = d || z, and
 * ML-KEM.Encaps_internal(ek, m) with coins = m) are declared in each set's
 * kem.h, which includes params.h; their prototypes are repeated here. The
 * sizes are checked against FIPS 203 Table 3 so that a wrong api.h cannot
 * slip through. */
#define KEM_ADAPTER(NS, lower, ek, dk, c)                                      \
  _Static_assert(NS##_CRYPTO_PUBLICKEYBYTES == (ek), "FIPS 203 ek size");      \
  _Static_assert(NS##_CRYPTO_SECRETKEYBYTES == (dk), "FIPS 203 dk size");      \
  _Static_assert(NS##_CRYPTO_CIPHERTEXTBYTES == (c), "FIPS 203 c size");       \
  _Static_assert(NS##_CRYPTO_BYTES == 32, "FIPS 203 K size");                  \
  int NS##_crypto_kem_keypair_derand(uint8_t *pk, uint8_t *sk,                 \
                                     const uint8_t *coins);                    \
  int NS##_crypto_kem_enc_derand(uint8_t *ct, uint8_t *ss, const uint8_t *pk,  \
                                 const uint8_t *coins);                        \
  static int lower##_keygen(uint8_t *pk, uint8_t *sk, const uint8_t *coins) {  \
    return NS##_crypto_kem_keypair_derand(pk, sk, coins) ? MCORE_ERR           \
                                                         : MCORE_OK;           \
  }                                                                            \
  static int lower##_encaps(uint8_t *ct, uint8_t *ss, const uint8_t *pk,       \
                            const uint8_t *coins) {                            \
    return NS##_crypto_kem_enc_derand(ct, ss, pk, coins) ? MCORE_ERR           \
                                                         : MCORE_OK;           \
  }                                                                            \
  /* Implicit rejection (FIPS 203 Algorithm 18): a bad ciphertext yields the   \
   * pseudo-random K, never an error. */                                       \
  static int lower##_decaps(uint8_t *ss, const uint8_t *ct,                    \
                            const uint8_t *sk) {                               \
    return NS##_crypto_kem_dec(ss, ct, sk) ? MCORE_ERR : MCORE_OK;             \
  }                                                                            \
  const mcore_kem_vt mbe_pqclean_##lower##_vt = {                              \
      .pk_len = NS##_CRYPTO_PUBLICKEYBYTES,                                    \
      .sk_len = NS##_CRYPTO_SECRETKEYBYTES,                                    \
      .ct_len = NS##_CRYPTO_CIPHERTEXTBYTES,                                   \
      .ss_len = NS##_CRYPTO_BYTES,                                             \
      .keygen = lower##_keygen,                                                \
      .encaps = lower##_encaps,                                                \
      .decaps = lower##_decaps,                                                \
  };

#if MERLIN_ROUTE_ML_KEM_512_PQCLEAN
KEM_ADAPTER(PQCLEAN_MLKEM512_CLEAN, mlkem512, 800, 1632, 768)
#endif
#if MERLIN_ROUTE_ML_KEM_768_PQCLEAN
KEM_ADAPTER(PQCLEAN_MLKEM768_CLEAN, mlkem768, 1184, 2400, 1088)
#endif
#if MERLIN_ROUTE_ML_KEM_1024_PQCLEAN
KEM_ADAPTER(PQCLEAN_MLKEM1024_CLEAN, mlkem1024, 1568, 3168, 1568)
#endif
