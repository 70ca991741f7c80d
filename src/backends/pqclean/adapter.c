/* SPDX-License-Identifier: Apache-2.0 */
/* PQClean adapter: ML-KEM (FIPS 203) from the clean implementations. */
#include "mcore.h"
#include "merlin_profile.h"

#include "randombytes.h"

#if MERLIN_ROUTE_ML_KEM_512_PQCLEAN
#include "crypto_kem/ml-kem-512/clean/api.h"
#endif

/* PQClean's randomness hook, served by the harness generator. */
int PQCLEAN_randombytes(uint8_t *output, size_t n) {
  mcore_rng_fill(output, n);
  return 0;
}

/* The derandomised entry points are in each scheme's kem.h, which cannot be
 * included for several parameter sets in one file (params.h macros
 * collide); their prototypes are declared here from that header. */
#define KEM_ADAPTER(NS, lower)                                                 \
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
  static int lower##_decaps(uint8_t *ss, const uint8_t *ct,                    \
                            const uint8_t *sk) {                               \
    return NS##_crypto_kem_dec(ss, ct, sk) ? MCORE_ERR : MCORE_OK;             \
  }                                                                            \
  static const mcore_kem_vt lower##_vt = {NS##_CRYPTO_PUBLICKEYBYTES,          \
                                          NS##_CRYPTO_SECRETKEYBYTES,          \
                                          NS##_CRYPTO_CIPHERTEXTBYTES,         \
                                          NS##_CRYPTO_BYTES,                   \
                                          lower##_keygen,                      \
                                          lower##_encaps,                      \
                                          lower##_decaps};

#if MERLIN_ROUTE_ML_KEM_512_PQCLEAN
KEM_ADAPTER(PQCLEAN_MLKEM512_CLEAN, mlkem512)
#endif

static const mcore_impl impls[] = {
#if MERLIN_ROUTE_ML_KEM_512_PQCLEAN
    {MCORE_ALG_ML_KEM_512,
     MCORE_BACKEND_PQCLEAN,
     "clean",
     {.kem = &mlkem512_vt}},
#endif
};

const mcore_backend mbe_pqclean_backend = {MCORE_BACKEND_PQCLEAN,
                                           "pqclean",
                                           MERLIN_PQCLEAN_VERSION,
                                           NULL,
                                           impls,
                                           sizeof impls / sizeof impls[0]};
