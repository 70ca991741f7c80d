/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Known-answer vectors, one table per algorithm, shared by every backend that
 * serves the algorithm (BearSSL's approach: one table, every implementation).
 * Each vector names its source so a failure message can say which one broke.
 */
#ifndef MERLIN_VECTORS_H
#define MERLIN_VECTORS_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  const char *name; /* e.g. "FIPS 180-4 example 'abc'" */
  const uint8_t *msg;
  size_t msg_len;
  const uint8_t *digest; /* digest_len bytes of the algorithm */
} mops_hash_vec;

/* XOF: out_len bytes of output (FIPS 202 examples, NIST CAVP). */
typedef struct {
  const char *name;
  const uint8_t *msg;
  size_t msg_len;
  const uint8_t *out;
  size_t out_len;
} mops_xof_vec;

/* AEAD: key, nonce, associated data, plaintext -> ciphertext || tag
 * (NIST GCM test vectors, SP 800-38C examples, SP 800-232 Ascon). */
typedef struct {
  const char *name;
  const uint8_t *key;
  const uint8_t *nonce;
  const uint8_t *aad;
  size_t aad_len;
  const uint8_t *pt;
  size_t pt_len;
  const uint8_t *ct; /* pt_len bytes */
  const uint8_t *tag;
} mops_aead_vec;

typedef struct {
  const char *name; /* e.g. "RFC 4231 test case 2" */
  const uint8_t *key;
  size_t key_len;
  const uint8_t *msg;
  size_t msg_len;
  const uint8_t *tag;
  size_t tag_len; /* compare only the first tag_len bytes (RFC 4231 case 5) */
} mops_mac_vec;

typedef struct {
  const char *name; /* e.g. "RFC 5869 test case 1" */
  const uint8_t *ikm;
  size_t ikm_len;
  const uint8_t *salt; /* NULL with salt_len 0: no salt */
  size_t salt_len;
  const uint8_t *info;
  size_t info_len;
  const uint8_t *okm;
  size_t okm_len;
} mops_kdf_vec;

/* Key agreement: our secret, the peer's public key, the shared secret. */
typedef struct {
  const char *name; /* e.g. "NIST CAVS KAS ECC CDH P-256 COUNT=0" */
  const uint8_t *sk;
  const uint8_t *peer_pk;
  const uint8_t *pk; /* the public key belonging to sk */
  const uint8_t *ss;
} mops_ka_vec;

/* Signature: deterministic signatures (RFC 6979 for ECDSA) and their keys. */
typedef struct {
  const char *name; /* e.g. "RFC 6979 A.2.5 P-256 SHA-256 'sample'" */
  const uint8_t *sk;
  size_t sk_len; /* 0: the vtable's sk_len (RSA: the DER length) */
  const uint8_t *pk;
  const uint8_t *msg;
  size_t msg_len;
  const uint8_t *sig;
  size_t sig_len;
} mops_sig_vec;

/* Signature from a seed (ML-DSA, SLH-DSA): keys and signatures are long,
 * so the vector holds their SHA-256 digests. sign is deterministic (see
 * mcore_sig_vt). */
typedef struct {
  const char *name;
  const uint8_t *seed; /* seed_len of the vtable */
  const uint8_t *msg;
  size_t msg_len;
  const uint8_t *pk_sha256;
  const uint8_t *sk_sha256;
  const uint8_t *sig_sha256;
  size_t sig_len;
} mops_sig_seed_vec;

/* KEM: derandomised vectors. Outputs are long, so the vector holds their
 * SHA-256 digests (computed on target by src/core/digest.c). */
typedef struct {
  const char *name;            /* e.g. "ML-KEM-512 seed 0" */
  const uint8_t *keygen_coins; /* d || z, 64 bytes */
  const uint8_t *encaps_coins; /* m, 32 bytes */
  const uint8_t *pk_sha256;    /* SHA-256(ek) */
  const uint8_t *sk_sha256;    /* SHA-256(dk) */
  const uint8_t *ct_sha256;    /* SHA-256(c) */
  const uint8_t *ss;           /* K, 32 bytes, in full */
} mops_kem_vec;

typedef struct {
  const void *vecs; /* array of the class's vector type */
  size_t n;
  /* SIG class only: vectors from seeds (mops_sig_seed_vec), run when the
   * backend offers keygen_seed; may be used alone (n == 0). */
  const mops_sig_seed_vec *seed_vecs;
  size_t n_seed;
} mops_kat_table;

/* The table for an algorithm (defined in src/ops/vectors_<class>.c), or a
 * table with n == 0 when none exists (which fails the KAT: no vectors, no
 * timing). alg is an mcore_alg. */
mops_kat_table mops_vectors(int alg);

#endif
