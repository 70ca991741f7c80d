/* SPDX-License-Identifier: Apache-2.0 */
/* PQClean ML-DSA-44/65/87 (FIPS 204 final, with the context API),
 * crypto_sign/ml-dsa-N/clean. Compiled only when the profile routes one of
 * them here.
 *
 * PQClean has no derandomised entry points and no compile-time
 * deterministic option for ML-DSA (its sign.c always calls
 * randombytes(rnd, RNDBYTES)), so the adapter makes the library draw exactly
 * the bytes the standard asks for, through the harness generator that
 * serves PQCLEAN_randombytes (adapter.c):
 *
 *  - keygen_seed: crypto_sign_keypair draws one 32-byte string, xi, with
 *    randombytes(seedbuf, SEEDBYTES) before anything else, and then
 *    computes H(xi || k || l, 128) exactly as FIPS 204 Algorithm 6
 *    (ML-DSA.KeyGen_internal); it draws nothing more. Scripting the seed
 *    turns it into ML-DSA.KeyGen_internal(xi).
 *  - sign: crypto_sign_signature_ctx computes M' = 0 || |ctx| || ctx || M
 *    (FIPS 204 Algorithm 2) and then draws rnd with a single
 *    randombytes(rnd, 32) (Algorithm 2: rnd <- B^32). Scripting 32 zero bytes
 *    with an empty context gives the deterministic variant (FIPS 204
 *    section 3.4: rnd = {0}^32) that mcore_sig_vt asks for.
 *
 * Scripting costs one pointer store per call, which is inside the timed
 * operation but negligible. */
#include "pqclean_adapter.h"

#if MERLIN_ROUTE_ML_DSA_44_PQCLEAN
#include "crypto_sign/ml-dsa-44/clean/api.h"
#endif
#if MERLIN_ROUTE_ML_DSA_65_PQCLEAN
#include "crypto_sign/ml-dsa-65/clean/api.h"
#endif
#if MERLIN_ROUTE_ML_DSA_87_PQCLEAN
#include "crypto_sign/ml-dsa-87/clean/api.h"
#endif

#define MLDSA_SEED_BYTES 32 /* xi, FIPS 204 Algorithm 1 */
#define MLDSA_RND_BYTES 32  /* rnd, FIPS 204 Algorithm 2 */

/* rnd for the deterministic variant; its first byte doubles as the
 * (non-NULL) empty context string. */
static const uint8_t mldsa_zero_rnd[MLDSA_RND_BYTES];

/* Whatever a call did not consume (an early error return) must not leak
 * into the next draw. */
static void mldsa_unscript(void) { mcore_rng_script(NULL, 0); }

/* Sizes: FIPS 204 Table 2 (public key, private key, signature). */
#define MLDSA_ADAPTER(NS, lower, pk_bytes, sk_bytes, sig_bytes)                \
  _Static_assert(NS##_CRYPTO_PUBLICKEYBYTES == (pk_bytes), "FIPS 204 pk");     \
  _Static_assert(NS##_CRYPTO_SECRETKEYBYTES == (sk_bytes), "FIPS 204 sk");     \
  _Static_assert(NS##_CRYPTO_BYTES == (sig_bytes), "FIPS 204 signature");      \
  static int lower##_keygen(uint8_t *pk, uint8_t *sk) {                        \
    return NS##_crypto_sign_keypair(pk, sk) ? MCORE_ERR : MCORE_OK;            \
  }                                                                            \
  static int lower##_keygen_seed(uint8_t *pk, uint8_t *sk,                     \
                                 const uint8_t *seed) {                        \
    mcore_rng_script(seed, MLDSA_SEED_BYTES);                                  \
    int rc = NS##_crypto_sign_keypair(pk, sk);                                 \
    mldsa_unscript();                                                          \
    return rc ? MCORE_ERR : MCORE_OK;                                          \
  }                                                                            \
  static int lower##_sign(uint8_t *sig, size_t *sig_len, const uint8_t *msg,   \
                          size_t msg_len, const uint8_t *sk) {                 \
    mcore_rng_script(mldsa_zero_rnd, MLDSA_RND_BYTES);                         \
    int rc = NS##_crypto_sign_signature_ctx(sig, sig_len, msg, msg_len,        \
                                            mldsa_zero_rnd, 0, sk);            \
    mldsa_unscript();                                                          \
    return rc ? MCORE_ERR : MCORE_OK;                                          \
  }                                                                            \
  /* PQClean returns -1 for every rejection (wrong length, malformed hint,     \
   * norm check, challenge mismatch): all of them are an invalid signature     \
   * (FIPS 204 Algorithm 8 returns false). */                                  \
  static int lower##_verify(const uint8_t *sig, size_t sig_len,                \
                            const uint8_t *msg, size_t msg_len,                \
                            const uint8_t *pk) {                               \
    return NS##_crypto_sign_verify_ctx(sig, sig_len, msg, msg_len,             \
                                       mldsa_zero_rnd, 0, pk)                  \
               ? MCORE_BAD_SIGNATURE                                           \
               : MCORE_OK;                                                     \
  }                                                                            \
  const mcore_sig_vt mbe_pqclean_##lower##_vt = {                              \
      .pk_len = NS##_CRYPTO_PUBLICKEYBYTES,                                    \
      .sk_len = NS##_CRYPTO_SECRETKEYBYTES,                                    \
      .sig_len = NS##_CRYPTO_BYTES,                                            \
      .keygen = lower##_keygen,                                                \
      .sign = lower##_sign,                                                    \
      .verify = lower##_verify,                                                \
      .keygen_seed = lower##_keygen_seed,                                      \
      .seed_len = MLDSA_SEED_BYTES,                                            \
  };

#if MERLIN_ROUTE_ML_DSA_44_PQCLEAN
MLDSA_ADAPTER(PQCLEAN_MLDSA44_CLEAN, mldsa44, 1312, 2560, 2420)
#endif
#if MERLIN_ROUTE_ML_DSA_65_PQCLEAN
MLDSA_ADAPTER(PQCLEAN_MLDSA65_CLEAN, mldsa65, 1952, 4032, 3309)
#endif
#if MERLIN_ROUTE_ML_DSA_87_PQCLEAN
MLDSA_ADAPTER(PQCLEAN_MLDSA87_CLEAN, mldsa87, 2592, 4896, 4627)
#endif
