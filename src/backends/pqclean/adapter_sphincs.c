/* SPDX-License-Identifier: Apache-2.0 */
/* PQClean SPHINCS+ round 3.1, "simple" thash, SHA2 and SHAKE 128s/128f
 * (crypto_sign/sphincs-{sha2,shake}-128{s,f}-simple/clean). Compiled only
 * when the profile routes one of them here.
 *
 * This is the pre-FIPS 205 baseline: the SPHINCS+ 3.1 submission, not
 * SLH-DSA. Its signing hashes the message directly (no FIPS 205
 * 0 || |ctx| || ctx prefix) and it is served under its own algorithm ids
 * (sphincs-*-simple-r3) with the variant "clean-r3.1-pre-fips205".
 *
 * Keys (SPHINCS+ 3.1 specification, spx_keygen): sk = SK.seed || SK.prf ||
 * PK.seed || PK.root, pk = PK.seed || PK.root, n = 16.
 *  - keygen_seed: crypto_sign_seed_keypair takes the 3n = 48-byte seed
 *    SK.seed || SK.prf || PK.seed, the order mcore_sig_vt uses.
 *  - sign: PQClean's crypto_sign_signature draws the n-byte OptRand with a
 *    single randombytes(optrand, SPX_N) and draws nothing else. The
 *    specification's deterministic variant (spx_sign: opt = PK.seed unless
 *    RANDOMIZE) is obtained by scripting PK.seed, which is sk[2n..3n), as
 *    those bytes. FIPS 205 makes the same choice (slh_sign, Algorithm 22:
 *    opt_rand = PK.seed), so R agrees with SLH-DSA's slh_sign_internal;
 *    the rest of the signature does not, because FIPS 205 reads the FORS
 *    indices from the digest most significant bit first (base_2b,
 *    Algorithm 4) where 3.1's message_to_indices reads them least
 *    significant bit first. Keys from a seed are identical in both. */
#include "pqclean_adapter.h"

#if MERLIN_ROUTE_SPHINCS_SHA2_128S_R3_PQCLEAN
#include "crypto_sign/sphincs-sha2-128s-simple/clean/api.h"
#endif
#if MERLIN_ROUTE_SPHINCS_SHA2_128F_R3_PQCLEAN
#include "crypto_sign/sphincs-sha2-128f-simple/clean/api.h"
#endif
#if MERLIN_ROUTE_SPHINCS_SHAKE_128S_R3_PQCLEAN
#include "crypto_sign/sphincs-shake-128s-simple/clean/api.h"
#endif
#if MERLIN_ROUTE_SPHINCS_SHAKE_128F_R3_PQCLEAN
#include "crypto_sign/sphincs-shake-128f-simple/clean/api.h"
#endif

#define SPX_ADAPTER_N 16 /* n of every 128-bit parameter set */

/* Sizes (SPHINCS+ 3.1 parameter table, n = 16): pk 32, sk 64, signature
 * 7856 bytes for 128s and 17088 for 128f. */
#define SPHINCS_ADAPTER(NS, lower, sig_bytes)                                  \
  _Static_assert(NS##_CRYPTO_PUBLICKEYBYTES == 2 * SPX_ADAPTER_N, "pk");       \
  _Static_assert(NS##_CRYPTO_SECRETKEYBYTES == 4 * SPX_ADAPTER_N, "sk");       \
  _Static_assert(NS##_CRYPTO_SEEDBYTES == 3 * SPX_ADAPTER_N, "seed");          \
  _Static_assert(NS##_CRYPTO_BYTES == (sig_bytes), "signature");               \
  static int lower##_keygen(uint8_t *pk, uint8_t *sk) {                        \
    return NS##_crypto_sign_keypair(pk, sk) ? MCORE_ERR : MCORE_OK;            \
  }                                                                            \
  static int lower##_keygen_seed(uint8_t *pk, uint8_t *sk,                     \
                                 const uint8_t *seed) {                        \
    return NS##_crypto_sign_seed_keypair(pk, sk, seed) ? MCORE_ERR : MCORE_OK; \
  }                                                                            \
  static int lower##_sign(uint8_t *sig, size_t *sig_len, const uint8_t *msg,   \
                          size_t msg_len, const uint8_t *sk) {                 \
    /* OptRand = PK.seed: the deterministic variant. */                        \
    mcore_rng_script(sk + 2 * SPX_ADAPTER_N, SPX_ADAPTER_N);                   \
    int rc = NS##_crypto_sign_signature(sig, sig_len, msg, msg_len, sk);       \
    mcore_rng_script(NULL, 0);                                                 \
    return rc ? MCORE_ERR : MCORE_OK;                                          \
  }                                                                            \
  /* -1 for a wrong length or a root mismatch: an invalid signature. */        \
  static int lower##_verify(const uint8_t *sig, size_t sig_len,                \
                            const uint8_t *msg, size_t msg_len,                \
                            const uint8_t *pk) {                               \
    return NS##_crypto_sign_verify(sig, sig_len, msg, msg_len, pk)             \
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
      .seed_len = NS##_CRYPTO_SEEDBYTES,                                       \
  };

#if MERLIN_ROUTE_SPHINCS_SHA2_128S_R3_PQCLEAN
SPHINCS_ADAPTER(PQCLEAN_SPHINCSSHA2128SSIMPLE_CLEAN, sphincs_sha2_128s, 7856)
#endif
#if MERLIN_ROUTE_SPHINCS_SHA2_128F_R3_PQCLEAN
SPHINCS_ADAPTER(PQCLEAN_SPHINCSSHA2128FSIMPLE_CLEAN, sphincs_sha2_128f, 17088)
#endif
#if MERLIN_ROUTE_SPHINCS_SHAKE_128S_R3_PQCLEAN
SPHINCS_ADAPTER(PQCLEAN_SPHINCSSHAKE128SSIMPLE_CLEAN, sphincs_shake_128s, 7856)
#endif
#if MERLIN_ROUTE_SPHINCS_SHAKE_128F_R3_PQCLEAN
SPHINCS_ADAPTER(PQCLEAN_SPHINCSSHAKE128FSIMPLE_CLEAN, sphincs_shake_128f, 17088)
#endif
