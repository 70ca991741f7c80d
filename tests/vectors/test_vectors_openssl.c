/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Checks every known-answer vector of src/ops/vectors_*.c independently with
 * OpenSSL 3 (libcrypto), through the same lookup the target uses,
 * mops_vectors():
 *
 *   sha256       EVP_Digest
 *   hmac-sha256  EVP_Q_mac("HMAC", digest SHA256)
 *   hkdf-sha256  EVP_KDF "HKDF" (no salt parameter when salt is NULL)
 *   ecdh-p256    pk == sk * G (EC_POINT_mul) and EVP_PKEY_derive(sk, peer_pk)
 *                == ss
 *   ecdsa-p256   pk == sk * G, EVP_DigestVerify(SHA-256) accepts sig, and
 *                rejects it for a modified message
 *   sha3-256     EVP_Digest(EVP_sha3_256)
 *   shake128/256 EVP_DigestFinalXOF, out_len bytes
 *   aes-128-gcm, aes-256-gcm, aes-128-ccm
 *                EVP_EncryptInit (12-byte IV for GCM, 13-byte nonce and
 *                16-byte tag for CCM): ciphertext and tag; decryption
 *                recovers the plaintext; a flipped tag bit is rejected
 *   x25519       pk == X25519(sk, 9) (EVP_PKEY_get_raw_public_key) and
 *                EVP_PKEY_derive(sk, peer_pk) == ss
 *   ffdhe-2048   p and g of the RFC 7919 group from OpenSSL itself;
 *                1 < sk < q, pk and peer_pk in [2, p - 2], pk == g^sk mod p
 *                (BN_mod_exp), ss == peer_pk^sk mod p (BN_mod_exp) and
 *                EVP_PKEY_derive (padded to 256 bytes) == ss
 *   ed25519      pk from sk, EVP_DigestSign (deterministic) == sig,
 *                EVP_DigestVerify accepts it and rejects a modified message
 *   rsa-2048     the DER RSAPrivateKey parses, its modulus == pk and e ==
 *                65537, RSASSA-PKCS1-v1_5 SHA-256 signing gives sig byte for
 *                byte, EVP_DigestVerify accepts it and rejects a modified
 *                message
 *   ml-kem-*     OpenSSL 3.0 has no ML-KEM: only the seed rule of the coins
 *                is checked here; the outputs are checked against
 *                @noble/post-quantum by check_mlkem_vectors.sh.
 *   ml-dsa-*, slh-dsa-*, sphincs-*-r3
 *                OpenSSL 3.0 has no PQC: the seed and message rule and the
 *                signature lengths are checked here; the digests by
 *                check_pq_vectors.sh (noble; PQClean for the SPHINCS+ r3
 *                signatures).
 *   ascon-hash256, ascon-aead128
 *                OpenSSL 3.0 has no Ascon: the KAT input rule is checked
 *                here, the outputs by check_pq_vectors.sh ascon (a
 *                stand-alone SP 800-232 implementation).
 *
 * Prints one line per check and "N passed, N failed"; exits 1 on failure.
 */
#include "mcore.h"
#include "vectors.h"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include <stdio.h>
#include <string.h>

static unsigned n_passed, n_failed;

static void report(int ok, const char *alg, const char *name,
                   const char *what) {
  if (ok) {
    n_passed++;
    printf("PASS %s: %s: %s\n", alg, name, what);
  } else {
    n_failed++;
    printf("FAIL %s: %s: %s\n", alg, name, what);
    ERR_print_errors_fp(stdout);
  }
  ERR_clear_error();
}

static void print_hex(const char *label, const uint8_t *b, size_t n) {
  printf("     %s ", label);
  for (size_t i = 0; i < n; i++)
    printf("%02x", b[i]);
  printf("\n");
}

/* Reports a byte comparison, printing both values when they differ. */
static void check_bytes(const char *alg, const char *name, const char *what,
                        const uint8_t *got, size_t got_len, const uint8_t *want,
                        size_t want_len) {
  int ok = got_len == want_len && memcmp(got, want, want_len) == 0;
  report(ok, alg, name, what);
  if (!ok) {
    print_hex("openssl:", got, got_len);
    print_hex("vector: ", want, want_len);
  }
}

/* The table of alg; reports a failure when it is empty. */
static mops_kat_table table_of(mcore_alg alg, const char *id) {
  mops_kat_table t = mops_vectors((int)alg);
  if (t.n == 0 || t.vecs == NULL) {
    report(0, id, "table", "mops_vectors() returned no vectors");
    t.n = 0;
  }
  return t;
}

/* ---- SHA-256 --------------------------------------------------------- */

static void check_sha256(void) {
  mops_kat_table t = table_of(MCORE_ALG_SHA256, "sha256");
  const mops_hash_vec *v = t.vecs;
  for (size_t i = 0; i < t.n; i++) {
    uint8_t md[EVP_MAX_MD_SIZE];
    unsigned int md_len = 0;
    if (EVP_Digest(v[i].msg, v[i].msg_len, md, &md_len, EVP_sha256(), NULL) !=
        1) {
      report(0, "sha256", v[i].name, "EVP_Digest");
      continue;
    }
    check_bytes("sha256", v[i].name, "digest", md, md_len, v[i].digest, 32);
  }
}

/* ---- HMAC-SHA256 ----------------------------------------------------- */

static void check_hmac_sha256(void) {
  mops_kat_table t = table_of(MCORE_ALG_HMAC_SHA256, "hmac-sha256");
  const mops_mac_vec *v = t.vecs;
  for (size_t i = 0; i < t.n; i++) {
    uint8_t tag[32];
    size_t tag_len = 0;
    if (v[i].tag_len == 0 || v[i].tag_len > sizeof tag) {
      report(0, "hmac-sha256", v[i].name, "tag_len in 1..32");
      continue;
    }
    if (EVP_Q_mac(NULL, "HMAC", NULL, "SHA256", NULL, v[i].key, v[i].key_len,
                  v[i].msg, v[i].msg_len, tag, sizeof tag, &tag_len) == NULL) {
      report(0, "hmac-sha256", v[i].name, "EVP_Q_mac");
      continue;
    }
    check_bytes("hmac-sha256", v[i].name, "tag", tag,
                tag_len < v[i].tag_len ? tag_len : v[i].tag_len, v[i].tag,
                v[i].tag_len);
  }
}

/* ---- HKDF-SHA256 ----------------------------------------------------- */

static int hkdf_sha256(uint8_t *okm, size_t okm_len, const mops_kdf_vec *v) {
  EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
  EVP_KDF_CTX *ctx = kdf != NULL ? EVP_KDF_CTX_new(kdf) : NULL;
  OSSL_PARAM params[5], *p = params;
  char digest[] = "SHA256";
  int ok = 0;

  if (ctx != NULL) {
    *p++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, digest, 0);
    *p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)v->ikm,
                                             v->ikm_len);
    if (v->salt != NULL)
      *p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT,
                                               (void *)v->salt, v->salt_len);
    if (v->info_len > 0)
      *p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO,
                                               (void *)v->info, v->info_len);
    *p = OSSL_PARAM_construct_end();
    ok = EVP_KDF_derive(ctx, okm, okm_len, params) == 1;
  }
  EVP_KDF_CTX_free(ctx);
  EVP_KDF_free(kdf);
  return ok;
}

static void check_hkdf_sha256(void) {
  mops_kat_table t = table_of(MCORE_ALG_HKDF_SHA256, "hkdf-sha256");
  const mops_kdf_vec *v = t.vecs;
  for (size_t i = 0; i < t.n; i++) {
    uint8_t okm[255 * 32];
    if (v[i].okm_len == 0 || v[i].okm_len > sizeof okm ||
        (v[i].salt == NULL && v[i].salt_len != 0) ||
        (v[i].info == NULL && v[i].info_len != 0)) {
      report(0, "hkdf-sha256", v[i].name, "well-formed vector");
      continue;
    }
    if (!hkdf_sha256(okm, v[i].okm_len, &v[i])) {
      report(0, "hkdf-sha256", v[i].name, "EVP_KDF_derive");
      continue;
    }
    check_bytes("hkdf-sha256", v[i].name, "okm", okm, v[i].okm_len, v[i].okm,
                v[i].okm_len);
  }
}

/* ---- P-256 helpers --------------------------------------------------- */

#define P256_PK_LEN 65
#define P256_SCALAR_LEN 32

/* out = sk * G as a SEC1 uncompressed point. */
static int p256_public_from_secret(uint8_t out[P256_PK_LEN],
                                   const uint8_t sk[P256_SCALAR_LEN]) {
  EC_GROUP *group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
  EC_POINT *pt = group != NULL ? EC_POINT_new(group) : NULL;
  BIGNUM *d = BN_bin2bn(sk, P256_SCALAR_LEN, NULL);
  int ok = pt != NULL && d != NULL &&
           EC_POINT_mul(group, pt, d, NULL, NULL, NULL) == 1 &&
           EC_POINT_point2oct(group, pt, POINT_CONVERSION_UNCOMPRESSED, out,
                              P256_PK_LEN, NULL) == P256_PK_LEN;
  BN_clear_free(d);
  EC_POINT_free(pt);
  EC_GROUP_free(group);
  return ok;
}

/* A P-256 EVP_PKEY from a public point and, when sk is not NULL, a secret
 * scalar (the key pair then uses pk as its public half). */
static EVP_PKEY *p256_pkey(const uint8_t *pk, const uint8_t *sk) {
  OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
  OSSL_PARAM *params = NULL;
  BIGNUM *d = NULL;
  EVP_PKEY_CTX *ctx = NULL;
  EVP_PKEY *pkey = NULL;
  int selection = sk != NULL ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY;

  if (bld == NULL)
    goto done;
  if (OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME,
                                      "prime256v1", 0) != 1 ||
      OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, pk,
                                       P256_PK_LEN) != 1)
    goto done;
  if (sk != NULL) {
    d = BN_secure_new();
    if (d == NULL || BN_bin2bn(sk, P256_SCALAR_LEN, d) == NULL ||
        OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, d) != 1)
      goto done;
  }
  params = OSSL_PARAM_BLD_to_param(bld);
  ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
  if (params == NULL || ctx == NULL || EVP_PKEY_fromdata_init(ctx) != 1 ||
      EVP_PKEY_fromdata(ctx, &pkey, selection, params) != 1) {
    EVP_PKEY_free(pkey);
    pkey = NULL;
  }
done:
  EVP_PKEY_CTX_free(ctx);
  OSSL_PARAM_free(params);
  BN_clear_free(d);
  OSSL_PARAM_BLD_free(bld);
  return pkey;
}

/* ---- ECDH P-256 ------------------------------------------------------ */

static int p256_derive(uint8_t ss[32], EVP_PKEY *own, EVP_PKEY *peer) {
  EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, own, NULL);
  size_t len = 32;
  int ok = ctx != NULL && EVP_PKEY_derive_init(ctx) == 1 &&
           EVP_PKEY_derive_set_peer(ctx, peer) == 1 &&
           EVP_PKEY_derive(ctx, ss, &len) == 1 && len == 32;
  EVP_PKEY_CTX_free(ctx);
  return ok;
}

static void check_ecdh_p256(void) {
  mops_kat_table t = table_of(MCORE_ALG_ECDH_P256, "ecdh-p256");
  const mops_ka_vec *v = t.vecs;
  for (size_t i = 0; i < t.n; i++) {
    uint8_t pk[P256_PK_LEN], ss[32];
    EVP_PKEY *own, *peer;

    int have_pk = p256_public_from_secret(pk, v[i].sk);

    if (!have_pk)
      report(0, "ecdh-p256", v[i].name, "EC_POINT_mul");
    else
      check_bytes("ecdh-p256", v[i].name, "pk == sk * G", pk, sizeof pk,
                  v[i].pk, P256_PK_LEN);

    /* The shared secret is checked on its own: the key pair takes the
     * computed public key, not the vector's. */
    own = p256_pkey(have_pk ? pk : v[i].pk, v[i].sk);
    peer = p256_pkey(v[i].peer_pk, NULL);
    if (own == NULL || peer == NULL)
      report(0, "ecdh-p256", v[i].name, "import keys (EVP_PKEY_fromdata)");
    else if (!p256_derive(ss, own, peer))
      report(0, "ecdh-p256", v[i].name, "EVP_PKEY_derive");
    else
      check_bytes("ecdh-p256", v[i].name, "ss == x(sk * peer_pk)", ss,
                  sizeof ss, v[i].ss, 32);
    EVP_PKEY_free(peer);
    EVP_PKEY_free(own);
  }
}

/* ---- ECDSA P-256 ----------------------------------------------------- */

/* DER encoding of the signature r || s (64 bytes); returns its length or 0. */
static size_t ecdsa_sig_to_der(uint8_t *der, size_t der_cap,
                               const uint8_t *sig) {
  ECDSA_SIG *es = ECDSA_SIG_new();
  BIGNUM *r = BN_bin2bn(sig, 32, NULL);
  BIGNUM *s = BN_bin2bn(sig + 32, 32, NULL);
  size_t len = 0;

  if (es != NULL && r != NULL && s != NULL && ECDSA_SIG_set0(es, r, s) == 1) {
    int n;
    r = s = NULL; /* owned by es now */
    n = i2d_ECDSA_SIG(es, NULL);
    if (n > 0 && (size_t)n <= der_cap) {
      uint8_t *p = der;
      len = i2d_ECDSA_SIG(es, &p) == n ? (size_t)n : 0;
    }
  }
  BN_free(r);
  BN_free(s);
  ECDSA_SIG_free(es);
  return len;
}

/* 1 valid, 0 invalid, -1 error. */
static int ecdsa_verify_sha256(EVP_PKEY *pub, const uint8_t *der,
                               size_t der_len, const uint8_t *msg,
                               size_t msg_len) {
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  int rc = -1;
  if (ctx != NULL &&
      EVP_DigestVerifyInit(ctx, NULL, EVP_sha256(), NULL, pub) == 1) {
    int v = EVP_DigestVerify(ctx, der, der_len, msg, msg_len);
    rc = v == 1 ? 1 : v == 0 ? 0 : -1;
  }
  EVP_MD_CTX_free(ctx);
  return rc;
}

static void check_ecdsa_p256(void) {
  mops_kat_table t = table_of(MCORE_ALG_ECDSA_P256, "ecdsa-p256");
  const mops_sig_vec *v = t.vecs;
  for (size_t i = 0; i < t.n; i++) {
    uint8_t pk[P256_PK_LEN], der[80], msg2[256];
    size_t der_len;
    EVP_PKEY *pub;

    if (!p256_public_from_secret(pk, v[i].sk))
      report(0, "ecdsa-p256", v[i].name, "EC_POINT_mul");
    else
      check_bytes("ecdsa-p256", v[i].name, "pk == sk * G", pk, sizeof pk,
                  v[i].pk, P256_PK_LEN);

    if (v[i].sig_len != 64 || v[i].msg_len == 0 || v[i].msg_len > sizeof msg2) {
      report(0, "ecdsa-p256", v[i].name, "well-formed vector");
      continue;
    }
    der_len = ecdsa_sig_to_der(der, sizeof der, v[i].sig);
    pub = p256_pkey(v[i].pk, NULL);
    if (der_len == 0 || pub == NULL) {
      report(0, "ecdsa-p256", v[i].name, "import key and signature");
      EVP_PKEY_free(pub);
      continue;
    }
    report(ecdsa_verify_sha256(pub, der, der_len, v[i].msg, v[i].msg_len) == 1,
           "ecdsa-p256", v[i].name, "OpenSSL verifies the signature");
    /* The same signature must not verify for another message. */
    memcpy(msg2, v[i].msg, v[i].msg_len);
    msg2[0] ^= 0x01;
    report(ecdsa_verify_sha256(pub, der, der_len, msg2, v[i].msg_len) == 0,
           "ecdsa-p256", v[i].name,
           "OpenSSL rejects it for a modified message");
    EVP_PKEY_free(pub);
  }
}

/* ---- SHA3-256 -------------------------------------------------------- */

static void check_sha3_256(void) {
  mops_kat_table t = table_of(MCORE_ALG_SHA3_256, "sha3-256");
  const mops_hash_vec *v = t.vecs;
  for (size_t i = 0; i < t.n; i++) {
    uint8_t md[EVP_MAX_MD_SIZE];
    unsigned int md_len = 0;
    if (EVP_Digest(v[i].msg, v[i].msg_len, md, &md_len, EVP_sha3_256(), NULL) !=
        1) {
      report(0, "sha3-256", v[i].name, "EVP_Digest");
      continue;
    }
    check_bytes("sha3-256", v[i].name, "digest", md, md_len, v[i].digest, 32);
  }
}

/* ---- SHAKE128 / SHAKE256 ----------------------------------------------- */

static void check_shake(mcore_alg alg, const char *id, const EVP_MD *md) {
  mops_kat_table t = table_of(alg, id);
  const mops_xof_vec *v = t.vecs;
  for (size_t i = 0; i < t.n; i++) {
    uint8_t out[512];
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int ok = v[i].out_len > 0 && v[i].out_len <= sizeof out && ctx != NULL &&
             EVP_DigestInit_ex(ctx, md, NULL) == 1 &&
             EVP_DigestUpdate(ctx, v[i].msg, v[i].msg_len) == 1 &&
             EVP_DigestFinalXOF(ctx, out, v[i].out_len) == 1;
    EVP_MD_CTX_free(ctx);
    if (!ok) {
      report(0, id, v[i].name, "EVP_DigestFinalXOF (out_len in 1..512)");
      continue;
    }
    check_bytes(id, v[i].name, "output", out, v[i].out_len, v[i].out,
                v[i].out_len);
  }
}

/* ---- AES-GCM / AES-CCM ------------------------------------------------- */

#define AEAD_TAG_LEN 16

/* One AEAD operation with OpenSSL: encrypt (tag out) or decrypt (tag in).
 * Returns 1 on success, 0 when decryption rejects the tag, -1 on error. */
static int aead_openssl(const EVP_CIPHER *cipher, int is_ccm, int enc,
                        const mops_aead_vec *v, size_t nonce_len, uint8_t *out,
                        uint8_t *tag) {
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  const uint8_t *in = enc ? v->pt : v->ct;
  int len = 0, rc = -1;

  if (ctx == NULL || EVP_CipherInit_ex(ctx, cipher, NULL, NULL, NULL, enc) != 1)
    goto done;
  if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, (int)nonce_len, NULL) !=
      1)
    goto done;
  /* CCM takes the tag (its length, for encryption) before the key. */
  if (is_ccm && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, AEAD_TAG_LEN,
                                    enc ? NULL : tag) != 1)
    goto done;
  if (EVP_CipherInit_ex(ctx, NULL, NULL, v->key, v->nonce, enc) != 1)
    goto done;
  /* CCM needs the total plaintext length first (SP 800-38C: it is in B0). */
  if (is_ccm && EVP_CipherUpdate(ctx, NULL, &len, NULL, (int)v->pt_len) != 1)
    goto done;
  if (v->aad_len > 0 &&
      EVP_CipherUpdate(ctx, NULL, &len, v->aad, (int)v->aad_len) != 1)
    goto done;
  if (!is_ccm && !enc &&
      EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, AEAD_TAG_LEN, tag) != 1)
    goto done;
  if (is_ccm || v->pt_len > 0) {
    int r = EVP_CipherUpdate(ctx, out, &len, in, (int)v->pt_len);
    if (r != 1) {
      rc = is_ccm && !enc ? 0 : -1; /* CCM verifies the tag here */
      goto done;
    }
  }
  if (!is_ccm) {
    if (EVP_CipherFinal_ex(ctx, out + v->pt_len, &len) != 1) {
      rc = enc ? -1 : 0;
      goto done;
    }
  }
  if (enc &&
      EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, AEAD_TAG_LEN, tag) != 1)
    goto done;
  rc = 1;
done:
  EVP_CIPHER_CTX_free(ctx);
  return rc;
}

static void check_aead(mcore_alg alg, const char *id, const EVP_CIPHER *cipher,
                       int is_ccm, size_t nonce_len) {
  mops_kat_table t = table_of(alg, id);
  const mops_aead_vec *v = t.vecs;
  for (size_t i = 0; i < t.n; i++) {
    uint8_t out[256], tag[AEAD_TAG_LEN], bad_tag[AEAD_TAG_LEN];
    if (v[i].pt_len > sizeof out || (v[i].aad == NULL && v[i].aad_len != 0) ||
        v[i].pt == NULL || v[i].ct == NULL || v[i].tag == NULL) {
      report(0, id, v[i].name, "well-formed vector");
      continue;
    }
    if (aead_openssl(cipher, is_ccm, 1, &v[i], nonce_len, out, tag) != 1) {
      report(0, id, v[i].name, "OpenSSL encryption");
      continue;
    }
    check_bytes(id, v[i].name, "ciphertext", out, v[i].pt_len, v[i].ct,
                v[i].pt_len);
    check_bytes(id, v[i].name, "tag", tag, sizeof tag, v[i].tag, AEAD_TAG_LEN);
    memcpy(tag, v[i].tag, sizeof tag);
    if (aead_openssl(cipher, is_ccm, 0, &v[i], nonce_len, out, tag) != 1)
      report(0, id, v[i].name, "OpenSSL decrypts and accepts the tag");
    else
      check_bytes(id, v[i].name, "decrypted text", out, v[i].pt_len, v[i].pt,
                  v[i].pt_len);
    memcpy(bad_tag, v[i].tag, sizeof bad_tag);
    bad_tag[0] ^= 0x01;
    report(aead_openssl(cipher, is_ccm, 0, &v[i], nonce_len, out, bad_tag) == 0,
           id, v[i].name, "OpenSSL rejects a flipped tag bit");
  }
}

/* ---- Ascon (no OpenSSL implementation: the input rule only) ------------ */

static int is_seq(const uint8_t *b, size_t n, unsigned start) {
  for (size_t j = 0; j < n; j++)
    if (b[j] != (uint8_t)(start + j))
      return 0;
  return 1;
}

static void check_ascon_inputs(void) {
  mops_kat_table t = table_of(MCORE_ALG_ASCON_HASH256, "ascon-hash256");
  const mops_hash_vec *h = t.vecs;
  for (size_t i = 0; i < t.n; i++)
    report(is_seq(h[i].msg, h[i].msg_len, 0x00), "ascon-hash256", h[i].name,
           "Msg = 00 01 02 ... (outputs: check_pq_vectors.sh ascon)");
  t = table_of(MCORE_ALG_ASCON_AEAD128, "ascon-aead128");
  const mops_aead_vec *a = t.vecs;
  for (size_t i = 0; i < t.n; i++)
    report(is_seq(a[i].key, 16, 0x00) && is_seq(a[i].nonce, 16, 0x10) &&
               is_seq(a[i].pt, a[i].pt_len, 0x20) &&
               (a[i].aad_len == 0 || is_seq(a[i].aad, a[i].aad_len, 0x30)),
           "ascon-aead128", a[i].name,
           "Key, Nonce, PT, AD follow the KAT file's rule (outputs: "
           "check_pq_vectors.sh ascon)");
}

/* ---- X25519 ------------------------------------------------------------ */

static void check_x25519(void) {
  mops_kat_table t = table_of(MCORE_ALG_X25519, "x25519");
  const mops_ka_vec *v = t.vecs;
  for (size_t i = 0; i < t.n; i++) {
    uint8_t pk[32], ss[32];
    size_t pk_len = sizeof pk, ss_len = sizeof ss;
    EVP_PKEY *own =
        EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, v[i].sk, 32);
    EVP_PKEY *peer =
        EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, v[i].peer_pk, 32);
    EVP_PKEY_CTX *ctx = own != NULL ? EVP_PKEY_CTX_new(own, NULL) : NULL;
    if (own == NULL || peer == NULL ||
        EVP_PKEY_get_raw_public_key(own, pk, &pk_len) != 1)
      report(0, "x25519", v[i].name, "import keys");
    else
      check_bytes("x25519", v[i].name, "pk == X25519(sk, 9)", pk, pk_len,
                  v[i].pk, 32);
    if (ctx == NULL || peer == NULL || EVP_PKEY_derive_init(ctx) != 1 ||
        EVP_PKEY_derive_set_peer(ctx, peer) != 1 ||
        EVP_PKEY_derive(ctx, ss, &ss_len) != 1)
      report(0, "x25519", v[i].name, "EVP_PKEY_derive");
    else
      check_bytes("x25519", v[i].name, "ss == X25519(sk, peer_pk)", ss, ss_len,
                  v[i].ss, 32);
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(peer);
    EVP_PKEY_free(own);
  }
}

/* ---- FFDHE-2048 -------------------------------------------------------- */

#define FFDHE_LEN 256

/* An FFDHE-2048 EVP_PKEY of OpenSSL's built-in RFC 7919 group: parameters
 * only (x == NULL && y == NULL), or a key with public y and optional x. */
static EVP_PKEY *ffdhe2048_pkey(const BIGNUM *x, const BIGNUM *y) {
  OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
  OSSL_PARAM *params = NULL;
  EVP_PKEY_CTX *ctx = NULL;
  EVP_PKEY *pkey = NULL;
  int selection = x != NULL   ? EVP_PKEY_KEYPAIR
                  : y != NULL ? EVP_PKEY_PUBLIC_KEY
                              : EVP_PKEY_KEY_PARAMETERS;

  if (bld == NULL ||
      OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME,
                                      "ffdhe2048", 0) != 1 ||
      (y != NULL &&
       OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PUB_KEY, y) != 1) ||
      (x != NULL &&
       OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, x) != 1))
    goto done;
  params = OSSL_PARAM_BLD_to_param(bld);
  ctx = EVP_PKEY_CTX_new_from_name(NULL, "DH", NULL);
  if (params == NULL || ctx == NULL || EVP_PKEY_fromdata_init(ctx) != 1 ||
      EVP_PKEY_fromdata(ctx, &pkey, selection, params) != 1) {
    EVP_PKEY_free(pkey);
    pkey = NULL;
  }
done:
  EVP_PKEY_CTX_free(ctx);
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(bld);
  return pkey;
}

/* 2 <= y <= p - 2 (SP 800-56A section 5.6.2.3.1, RFC 7919 section 5.1). */
static int ffdhe_in_range(const BIGNUM *y, const BIGNUM *p, BN_CTX *bn) {
  BIGNUM *pm2 = BN_CTX_get(bn);
  return pm2 != NULL && BN_copy(pm2, p) != NULL && BN_sub_word(pm2, 2) == 1 &&
         BN_cmp(y, BN_value_one()) > 0 && BN_cmp(y, pm2) <= 0;
}

static void check_ffdhe_2048(void) {
  mops_kat_table t = table_of(MCORE_ALG_FFDHE_2048, "ffdhe-2048");
  const mops_ka_vec *v = t.vecs;
  EVP_PKEY *group = ffdhe2048_pkey(NULL, NULL);
  BIGNUM *p = NULL, *g = NULL;
  BN_CTX *bn = BN_CTX_new();

  if (group == NULL || bn == NULL ||
      EVP_PKEY_get_bn_param(group, OSSL_PKEY_PARAM_FFC_P, &p) != 1 ||
      EVP_PKEY_get_bn_param(group, OSSL_PKEY_PARAM_FFC_G, &g) != 1 ||
      BN_num_bytes(p) != FFDHE_LEN || !BN_is_word(g, 2)) {
    report(0, "ffdhe-2048", "group", "OpenSSL's ffdhe2048 p and g");
    t.n = 0;
  }
  for (size_t i = 0; i < t.n; i++) {
    uint8_t buf[FFDHE_LEN], ss[FFDHE_LEN];
    size_t ss_len = sizeof ss;
    EVP_PKEY *own = NULL, *peer = NULL;
    EVP_PKEY_CTX *ctx = NULL;
    BN_CTX_start(bn);
    BIGNUM *x = BN_CTX_get(bn), *y = BN_CTX_get(bn), *py = BN_CTX_get(bn);
    BIGNUM *r = BN_CTX_get(bn), *q = BN_CTX_get(bn);
    if (r == NULL || BN_bin2bn(v[i].sk, FFDHE_LEN, x) == NULL ||
        BN_bin2bn(v[i].pk, FFDHE_LEN, y) == NULL ||
        BN_bin2bn(v[i].peer_pk, FFDHE_LEN, py) == NULL ||
        BN_rshift1(q, p) != 1) {
      report(0, "ffdhe-2048", v[i].name, "BN_bin2bn");
      BN_CTX_end(bn);
      continue;
    }
    report(BN_cmp(x, BN_value_one()) > 0 && BN_cmp(x, q) < 0, "ffdhe-2048",
           v[i].name, "1 < sk < q = (p - 1) / 2");
    report(ffdhe_in_range(y, p, bn), "ffdhe-2048", v[i].name,
           "pk in [2, p - 2]");
    report(ffdhe_in_range(py, p, bn), "ffdhe-2048", v[i].name,
           "peer_pk in [2, p - 2]");
    if (BN_mod_exp(r, g, x, p, bn) != 1 ||
        BN_bn2binpad(r, buf, FFDHE_LEN) != FFDHE_LEN)
      report(0, "ffdhe-2048", v[i].name, "BN_mod_exp");
    else
      check_bytes("ffdhe-2048", v[i].name, "pk == g^sk mod p", buf, FFDHE_LEN,
                  v[i].pk, FFDHE_LEN);
    if (BN_mod_exp(r, py, x, p, bn) != 1 ||
        BN_bn2binpad(r, buf, FFDHE_LEN) != FFDHE_LEN)
      report(0, "ffdhe-2048", v[i].name, "BN_mod_exp");
    else
      check_bytes("ffdhe-2048", v[i].name, "ss == peer_pk^sk mod p", buf,
                  FFDHE_LEN, v[i].ss, FFDHE_LEN);
    /* The same agreement through OpenSSL's DH key exchange. */
    own = ffdhe2048_pkey(x, y);
    peer = ffdhe2048_pkey(NULL, py);
    ctx = own != NULL ? EVP_PKEY_CTX_new_from_pkey(NULL, own, NULL) : NULL;
    if (ctx == NULL || peer == NULL || EVP_PKEY_derive_init(ctx) != 1 ||
        EVP_PKEY_CTX_set_dh_pad(ctx, 1) != 1 ||
        EVP_PKEY_derive_set_peer(ctx, peer) != 1 ||
        EVP_PKEY_derive(ctx, ss, &ss_len) != 1)
      report(0, "ffdhe-2048", v[i].name, "EVP_PKEY_derive");
    else
      check_bytes("ffdhe-2048", v[i].name, "ss == EVP_PKEY_derive (padded)", ss,
                  ss_len, v[i].ss, FFDHE_LEN);
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(peer);
    EVP_PKEY_free(own);
    BN_CTX_end(bn);
  }
  BN_free(g);
  BN_free(p);
  BN_CTX_free(bn);
  EVP_PKEY_free(group);
}

/* ---- Ed25519 ----------------------------------------------------------- */

/* 1 valid, 0 invalid, -1 error; md NULL for Ed25519. */
static int verify_sig(EVP_PKEY *pub, const EVP_MD *md, const uint8_t *sig,
                      size_t sig_len, const uint8_t *msg, size_t msg_len) {
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  int rc = -1;
  if (ctx != NULL && EVP_DigestVerifyInit(ctx, NULL, md, NULL, pub) == 1) {
    int r = EVP_DigestVerify(ctx, sig, sig_len, msg, msg_len);
    rc = r == 1 ? 1 : r == 0 ? 0 : -1;
  }
  EVP_MD_CTX_free(ctx);
  return rc;
}

/* One-shot signature; returns its length or 0. */
static size_t sign_msg(EVP_PKEY *key, const EVP_MD *md, uint8_t *sig,
                       size_t cap, const uint8_t *msg, size_t msg_len) {
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  size_t len = cap;
  if (ctx == NULL || EVP_DigestSignInit(ctx, NULL, md, NULL, key) != 1 ||
      EVP_DigestSign(ctx, sig, &len, msg, msg_len) != 1)
    len = 0;
  EVP_MD_CTX_free(ctx);
  return len;
}

static void check_ed25519(void) {
  mops_kat_table t = table_of(MCORE_ALG_ED25519, "ed25519");
  const mops_sig_vec *v = t.vecs;
  for (size_t i = 0; i < t.n; i++) {
    uint8_t pk[32], sig[64], msg2[256];
    size_t pk_len = sizeof pk, sig_len;
    EVP_PKEY *key;
    if ((v[i].sk_len != 0 && v[i].sk_len != 32) || v[i].sig_len != 64 ||
        v[i].msg_len > sizeof msg2) {
      report(0, "ed25519", v[i].name, "well-formed vector");
      continue;
    }
    key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, v[i].sk, 32);
    if (key == NULL || EVP_PKEY_get_raw_public_key(key, pk, &pk_len) != 1) {
      report(0, "ed25519", v[i].name, "import the private key");
      EVP_PKEY_free(key);
      continue;
    }
    check_bytes("ed25519", v[i].name, "pk from sk", pk, pk_len, v[i].pk, 32);
    sig_len = sign_msg(key, NULL, sig, sizeof sig, v[i].msg, v[i].msg_len);
    check_bytes("ed25519", v[i].name, "signature (deterministic)", sig, sig_len,
                v[i].sig, 64);
    EVP_PKEY_free(key);
    key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, v[i].pk, 32);
    report(key != NULL &&
               verify_sig(key, NULL, v[i].sig, 64, v[i].msg, v[i].msg_len) == 1,
           "ed25519", v[i].name, "OpenSSL verifies the signature");
    /* Another message: one more byte, or the first byte flipped. */
    memcpy(msg2, v[i].msg, v[i].msg_len);
    if (v[i].msg_len > 0)
      msg2[0] ^= 0x01;
    else
      msg2[0] = 0x00;
    report(key != NULL && verify_sig(key, NULL, v[i].sig, 64, msg2,
                                     v[i].msg_len > 0 ? v[i].msg_len : 1) == 0,
           "ed25519", v[i].name, "OpenSSL rejects it for a modified message");
    EVP_PKEY_free(key);
  }
}

/* ---- RSA-2048 ---------------------------------------------------------- */

#define RSA_N_LEN 256

static void check_rsa_2048(void) {
  mops_kat_table t = table_of(MCORE_ALG_RSA_2048, "rsa-2048");
  const mops_sig_vec *v = t.vecs;
  for (size_t i = 0; i < t.n; i++) {
    const unsigned char *der = v[i].sk;
    uint8_t n_bytes[RSA_N_LEN], sig[RSA_N_LEN], msg2[256];
    BIGNUM *n = NULL, *e = NULL;
    size_t sig_len;
    EVP_PKEY *key;
    EVP_PKEY_CTX *check_ctx;
    if (v[i].sk_len == 0 || v[i].sig_len != RSA_N_LEN || v[i].msg_len == 0 ||
        v[i].msg_len > sizeof msg2) {
      report(0, "rsa-2048", v[i].name, "well-formed vector");
      continue;
    }
    /* PKCS #1 RSAPrivateKey (not PKCS #8): the type is given. */
    key = d2i_PrivateKey(EVP_PKEY_RSA, NULL, &der, (long)v[i].sk_len);
    if (key == NULL || der != v[i].sk + v[i].sk_len) {
      report(0, "rsa-2048", v[i].name,
             "sk is exactly one DER RSAPrivateKey (d2i_PrivateKey)");
      EVP_PKEY_free(key);
      continue;
    }
    report(EVP_PKEY_get_bits(key) == 2048, "rsa-2048", v[i].name,
           "2048-bit modulus");
    if (EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_N, &n) != 1 ||
        EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_E, &e) != 1 ||
        BN_bn2binpad(n, n_bytes, RSA_N_LEN) != RSA_N_LEN)
      report(0, "rsa-2048", v[i].name, "read n and e");
    else {
      check_bytes("rsa-2048", v[i].name, "pk == n of the DER key", n_bytes,
                  RSA_N_LEN, v[i].pk, RSA_N_LEN);
      report(BN_is_word(e, 65537), "rsa-2048", v[i].name, "e == 65537");
    }
    check_ctx = EVP_PKEY_CTX_new(key, NULL);
    report(check_ctx != NULL && EVP_PKEY_private_check(check_ctx) == 1,
           "rsa-2048", v[i].name, "the private key is consistent");
    EVP_PKEY_CTX_free(check_ctx);
    /* PKCS #1 v1.5 is the default padding of EVP_DigestSign for RSA. */
    sig_len =
        sign_msg(key, EVP_sha256(), sig, sizeof sig, v[i].msg, v[i].msg_len);
    check_bytes("rsa-2048", v[i].name,
                "RSASSA-PKCS1-v1_5 SHA-256 signature (deterministic)", sig,
                sig_len, v[i].sig, RSA_N_LEN);
    report(verify_sig(key, EVP_sha256(), v[i].sig, RSA_N_LEN, v[i].msg,
                      v[i].msg_len) == 1,
           "rsa-2048", v[i].name, "OpenSSL verifies the signature");
    memcpy(msg2, v[i].msg, v[i].msg_len);
    msg2[0] ^= 0x01;
    report(verify_sig(key, EVP_sha256(), v[i].sig, RSA_N_LEN, msg2,
                      v[i].msg_len) == 0,
           "rsa-2048", v[i].name, "OpenSSL rejects it for a modified message");
    BN_free(e);
    BN_free(n);
    EVP_PKEY_free(key);
  }
}

/* ---- ML-KEM ------------------------------------------------------------ */

static void check_ml_kem(mcore_alg alg, const char *id) {
  mops_kat_table t = table_of(alg, id);
  const mops_kem_vec *v = t.vecs;
  for (size_t i = 0; i < t.n; i++) {
    int ok = v[i].pk_sha256 != NULL && v[i].sk_sha256 != NULL &&
             v[i].ct_sha256 != NULL && v[i].ss != NULL;
    for (size_t j = 0; j < 64; j++)
      ok = ok && v[i].keygen_coins[j] == (uint8_t)(i * 101 + j);
    for (size_t j = 0; j < 32; j++)
      ok = ok && v[i].encaps_coins[j] == (uint8_t)(i * 101 + 64 + j);
    report(ok, id, v[i].name,
           "coins follow the seed rule (outputs: check_mlkem_vectors.sh)");
  }
}

/* ---- seeded signatures (ML-DSA, SLH-DSA, SPHINCS+) --------------------- */

static void check_sig_seed(mcore_alg alg, const char *id, size_t seed_len,
                           size_t sig_len) {
  mops_kat_table t = mops_vectors((int)alg);
  if (t.n_seed == 0 || t.seed_vecs == NULL) {
    report(0, id, "table", "mops_vectors() returned no seeded vectors");
    return;
  }
  for (size_t i = 0; i < t.n_seed; i++) {
    const mops_sig_seed_vec *v = &t.seed_vecs[i];
    int ok = v->pk_sha256 != NULL && v->sk_sha256 != NULL &&
             v->sig_sha256 != NULL && v->msg_len == 32 && v->sig_len == sig_len;
    for (size_t j = 0; ok && j < seed_len; j++)
      ok = v->seed[j] == (uint8_t)(i * 101 + j);
    for (size_t j = 0; ok && j < v->msg_len; j++)
      ok = v->msg[j] == (uint8_t)(i * 101 + 200 + j);
    report(ok, id, v->name,
           "seed and message follow the seed rule, signature length "
           "(digests: check_pq_vectors.sh)");
  }
}

/* ---- the lookup ------------------------------------------------------ */

static void check_lookup(void) {
  static const struct {
    const char *id;
    mcore_alg alg;
  } algs[] = {
#define X(e, id, cls) {id, MCORE_ALG_##e},
#include "algs.def"
#undef X
  };
  for (size_t i = 0; i < sizeof algs / sizeof algs[0]; i++) {
    mops_kat_table t = mops_vectors((int)algs[i].alg);
    char what[64];
    /* Every algorithm of the catalogue has vectors: one without would fail
     * its KAT on every target and never be timed. */
    snprintf(what, sizeof what, "%zu vector(s), %zu seeded", t.n, t.n_seed);
    report(t.n + t.n_seed > 0, algs[i].id, "known-answer table", what);
  }
  report(mops_vectors((int)MCORE_ALG_COUNT).n == 0, "lookup", "mops_vectors",
         "MCORE_ALG_COUNT has no table");
  report(mops_vectors(-1).n == 0, "lookup", "mops_vectors",
         "a negative id has no table");
}

int main(void) {
  check_lookup();
  check_sha256();
  check_sha3_256();
  check_shake(MCORE_ALG_SHAKE128, "shake128", EVP_shake128());
  check_shake(MCORE_ALG_SHAKE256, "shake256", EVP_shake256());
  check_hmac_sha256();
  check_hkdf_sha256();
  check_aead(MCORE_ALG_AES_128_GCM, "aes-128-gcm", EVP_aes_128_gcm(), 0, 12);
  check_aead(MCORE_ALG_AES_256_GCM, "aes-256-gcm", EVP_aes_256_gcm(), 0, 12);
  check_aead(MCORE_ALG_AES_128_CCM, "aes-128-ccm", EVP_aes_128_ccm(), 1, 13);
  check_ascon_inputs();
  check_ecdh_p256();
  check_x25519();
  check_ffdhe_2048();
  check_ecdsa_p256();
  check_ed25519();
  check_rsa_2048();
  check_ml_kem(MCORE_ALG_ML_KEM_512, "ml-kem-512");
  check_ml_kem(MCORE_ALG_ML_KEM_768, "ml-kem-768");
  check_ml_kem(MCORE_ALG_ML_KEM_1024, "ml-kem-1024");
  check_sig_seed(MCORE_ALG_ML_DSA_44, "ml-dsa-44", 32, 2420);
  check_sig_seed(MCORE_ALG_ML_DSA_65, "ml-dsa-65", 32, 3309);
  check_sig_seed(MCORE_ALG_ML_DSA_87, "ml-dsa-87", 32, 4627);
  check_sig_seed(MCORE_ALG_SLH_DSA_SHA2_128S, "slh-dsa-sha2-128s", 48, 7856);
  check_sig_seed(MCORE_ALG_SLH_DSA_SHA2_128F, "slh-dsa-sha2-128f", 48, 17088);
  check_sig_seed(MCORE_ALG_SLH_DSA_SHAKE_128S, "slh-dsa-shake-128s", 48, 7856);
  check_sig_seed(MCORE_ALG_SLH_DSA_SHAKE_128F, "slh-dsa-shake-128f", 48, 17088);
  check_sig_seed(MCORE_ALG_SPHINCS_SHA2_128S_R3, "sphincs-sha2-128s-simple-r3",
                 48, 7856);
  check_sig_seed(MCORE_ALG_SPHINCS_SHA2_128F_R3, "sphincs-sha2-128f-simple-r3",
                 48, 17088);
  check_sig_seed(MCORE_ALG_SPHINCS_SHAKE_128S_R3,
                 "sphincs-shake-128s-simple-r3", 48, 7856);
  check_sig_seed(MCORE_ALG_SPHINCS_SHAKE_128F_R3,
                 "sphincs-shake-128f-simple-r3", 48, 17088);
  printf("%u passed, %u failed\n", n_passed, n_failed);
  return n_failed == 0 ? 0 : 1;
}
