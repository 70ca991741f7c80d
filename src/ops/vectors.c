/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mops_vectors(): the known-answer table of each algorithm. The tables live
 * in src/ops/vectors_<class>.c, one file per operation class.
 */
#include "vectors.h"

#include "mcore.h"

/* Defined in vectors_<class>.c (one table per algorithm). */
extern const mops_kat_table mops_kat_sha256;      /* vectors_hash.c */
extern const mops_kat_table mops_kat_hmac_sha256; /* vectors_mac.c */
extern const mops_kat_table mops_kat_hkdf_sha256; /* vectors_kdf.c */
extern const mops_kat_table mops_kat_ecdh_p256;   /* vectors_ka.c */
extern const mops_kat_table mops_kat_ecdsa_p256;  /* vectors_sig.c */
extern const mops_kat_table mops_kat_ml_kem_512;  /* vectors_kem.c */

mops_kat_table mops_vectors(int alg) {
  static const mops_kat_table none = {.vecs = NULL, .n = 0};

  if (alg < 0 || alg >= (int)MCORE_ALG_COUNT)
    return none;
  switch ((mcore_alg)alg) {
  case MCORE_ALG_SHA256:
    return mops_kat_sha256;
  case MCORE_ALG_HMAC_SHA256:
    return mops_kat_hmac_sha256;
  case MCORE_ALG_HKDF_SHA256:
    return mops_kat_hkdf_sha256;
  case MCORE_ALG_ECDH_P256:
    return mops_kat_ecdh_p256;
  case MCORE_ALG_ECDSA_P256:
    return mops_kat_ecdsa_p256;
  case MCORE_ALG_ML_KEM_512:
    return mops_kat_ml_kem_512;
  default:
    /* An algorithm without vectors: n == 0 fails its KAT, so it is never
     * timed. */
    return none;
  }
}
