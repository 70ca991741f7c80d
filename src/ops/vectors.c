/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mops_vectors(): the known-answer table of each algorithm. The tables live
 * in src/ops/vectors_<class>.c: hash (SHA-256, SHA3-256, Ascon-Hash256), xof,
 * mac, kdf, aead, ka, sig (ECDSA, Ed25519, RSA), kem (ML-KEM) and pq (the
 * seeded ML-DSA, SLH-DSA and SPHINCS+ vectors).
 */
#include "vectors.h"

#include "mops.h"

#include "mcore.h"

/* Defined in vectors_<class>.c (one table per algorithm). */
extern const mops_kat_table mops_kat_sha256;                /* vectors_hash.c */
extern const mops_kat_table mops_kat_sha3_256;              /* vectors_hash.c */
extern const mops_kat_table mops_kat_shake128;              /* vectors_xof.c */
extern const mops_kat_table mops_kat_shake256;              /* vectors_xof.c */
extern const mops_kat_table mops_kat_ascon_hash256;         /* vectors_hash.c */
extern const mops_kat_table mops_kat_hmac_sha256;           /* vectors_mac.c */
extern const mops_kat_table mops_kat_hkdf_sha256;           /* vectors_kdf.c */
extern const mops_kat_table mops_kat_aes_128_gcm;           /* vectors_aead.c */
extern const mops_kat_table mops_kat_aes_256_gcm;           /* vectors_aead.c */
extern const mops_kat_table mops_kat_aes_128_ccm;           /* vectors_aead.c */
extern const mops_kat_table mops_kat_ascon_aead128;         /* vectors_aead.c */
extern const mops_kat_table mops_kat_ecdh_p256;             /* vectors_ka.c */
extern const mops_kat_table mops_kat_x25519;                /* vectors_ka.c */
extern const mops_kat_table mops_kat_ffdhe_2048;            /* vectors_ka.c */
extern const mops_kat_table mops_kat_ecdsa_p256;            /* vectors_sig.c */
extern const mops_kat_table mops_kat_ed25519;               /* vectors_sig.c */
extern const mops_kat_table mops_kat_rsa_2048;              /* vectors_sig.c */
extern const mops_kat_table mops_kat_ml_kem_512;            /* vectors_kem.c */
extern const mops_kat_table mops_kat_ml_kem_768;            /* vectors_kem.c */
extern const mops_kat_table mops_kat_ml_kem_1024;           /* vectors_kem.c */
extern const mops_kat_table mops_kat_ml_dsa_44;             /* vectors_pq.c */
extern const mops_kat_table mops_kat_ml_dsa_65;             /* vectors_pq.c */
extern const mops_kat_table mops_kat_ml_dsa_87;             /* vectors_pq.c */
extern const mops_kat_table mops_kat_slh_dsa_sha2_128s;     /* vectors_pq.c */
extern const mops_kat_table mops_kat_slh_dsa_sha2_128f;     /* vectors_pq.c */
extern const mops_kat_table mops_kat_slh_dsa_shake_128s;    /* vectors_pq.c */
extern const mops_kat_table mops_kat_slh_dsa_shake_128f;    /* vectors_pq.c */
extern const mops_kat_table mops_kat_sphincs_sha2_128s_r3;  /* vectors_pq.c */
extern const mops_kat_table mops_kat_sphincs_sha2_128f_r3;  /* vectors_pq.c */
extern const mops_kat_table mops_kat_sphincs_shake_128s_r3; /* vectors_pq.c */
extern const mops_kat_table mops_kat_sphincs_shake_128f_r3; /* vectors_pq.c */

mops_kat_table mops_vectors(int alg) {
  static const mops_kat_table none = {.vecs = NULL, .n = 0};

  if (alg < 0 || alg >= (int)MCORE_ALG_COUNT)
    return none;
  switch ((mcore_alg)alg) {
  case MCORE_ALG_SHA256:
    return mops_kat_sha256;
  case MCORE_ALG_SHA3_256:
    return mops_kat_sha3_256;
  case MCORE_ALG_SHAKE128:
    return mops_kat_shake128;
  case MCORE_ALG_SHAKE256:
    return mops_kat_shake256;
  case MCORE_ALG_ASCON_HASH256:
    return mops_kat_ascon_hash256;
  case MCORE_ALG_HMAC_SHA256:
    return mops_kat_hmac_sha256;
  case MCORE_ALG_HKDF_SHA256:
    return mops_kat_hkdf_sha256;
  case MCORE_ALG_AES_128_GCM:
    return mops_kat_aes_128_gcm;
  case MCORE_ALG_AES_256_GCM:
    return mops_kat_aes_256_gcm;
  case MCORE_ALG_AES_128_CCM:
    return mops_kat_aes_128_ccm;
  case MCORE_ALG_ASCON_AEAD128:
    return mops_kat_ascon_aead128;
  case MCORE_ALG_ECDH_P256:
    return mops_kat_ecdh_p256;
  case MCORE_ALG_X25519:
    return mops_kat_x25519;
  case MCORE_ALG_FFDHE_2048:
    return mops_kat_ffdhe_2048;
  case MCORE_ALG_ECDSA_P256:
    return mops_kat_ecdsa_p256;
  case MCORE_ALG_ED25519:
    return mops_kat_ed25519;
  case MCORE_ALG_RSA_2048:
    return mops_kat_rsa_2048;
  case MCORE_ALG_ML_KEM_512:
    return mops_kat_ml_kem_512;
  case MCORE_ALG_ML_KEM_768:
    return mops_kat_ml_kem_768;
  case MCORE_ALG_ML_KEM_1024:
    return mops_kat_ml_kem_1024;
  case MCORE_ALG_ML_DSA_44:
    return mops_kat_ml_dsa_44;
  case MCORE_ALG_ML_DSA_65:
    return mops_kat_ml_dsa_65;
  case MCORE_ALG_ML_DSA_87:
    return mops_kat_ml_dsa_87;
  case MCORE_ALG_SLH_DSA_SHA2_128S:
    return mops_kat_slh_dsa_sha2_128s;
  case MCORE_ALG_SLH_DSA_SHA2_128F:
    return mops_kat_slh_dsa_sha2_128f;
  case MCORE_ALG_SLH_DSA_SHAKE_128S:
    return mops_kat_slh_dsa_shake_128s;
  case MCORE_ALG_SLH_DSA_SHAKE_128F:
    return mops_kat_slh_dsa_shake_128f;
  case MCORE_ALG_SPHINCS_SHA2_128S_R3:
    return mops_kat_sphincs_sha2_128s_r3;
  case MCORE_ALG_SPHINCS_SHA2_128F_R3:
    return mops_kat_sphincs_sha2_128f_r3;
  case MCORE_ALG_SPHINCS_SHAKE_128S_R3:
    return mops_kat_sphincs_shake_128s_r3;
  case MCORE_ALG_SPHINCS_SHAKE_128F_R3:
    return mops_kat_sphincs_shake_128f_r3;
  default:
    /* An algorithm without vectors: n == 0 fails its KAT, so it is never
     * timed. */
    return none;
  }
}

int mops_has_vectors(mcore_alg alg) {
  mops_kat_table t = mops_vectors((int)alg);
  return t.n > 0 || t.n_seed > 0;
}
