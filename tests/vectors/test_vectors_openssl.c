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
 *   ml-kem-512   OpenSSL 3.0 has no ML-KEM: only the seed rule of the coins
 *                is checked here; the outputs are checked against
 *                @noble/post-quantum by check_mlkem_vectors.sh.
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

/* ---- ML-KEM-512 ------------------------------------------------------ */

static void check_ml_kem_512(void) {
  mops_kat_table t = table_of(MCORE_ALG_ML_KEM_512, "ml-kem-512");
  const mops_kem_vec *v = t.vecs;
  for (size_t i = 0; i < t.n; i++) {
    int ok = v[i].pk_sha256 != NULL && v[i].sk_sha256 != NULL &&
             v[i].ct_sha256 != NULL && v[i].ss != NULL;
    for (size_t j = 0; j < 64; j++)
      ok = ok && v[i].keygen_coins[j] == (uint8_t)(i * 101 + j);
    for (size_t j = 0; j < 32; j++)
      ok = ok && v[i].encaps_coins[j] == (uint8_t)(i * 101 + 64 + j);
    report(ok, "ml-kem-512", v[i].name,
           "coins follow the seed rule (outputs: check_mlkem_vectors.sh)");
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
    /* Algorithms without a check above are listed, not failed: their KAT
     * on the target fails on its own when the table is empty. */
    printf("note %s: %zu vector(s)%s\n", algs[i].id, t.n,
           t.n == 0 ? " (no table: its KAT fails, so it is never timed)" : "");
  }
  report(mops_vectors((int)MCORE_ALG_COUNT).n == 0, "lookup", "mops_vectors",
         "MCORE_ALG_COUNT has no table");
  report(mops_vectors(-1).n == 0, "lookup", "mops_vectors",
         "a negative id has no table");
}

int main(void) {
  check_lookup();
  check_sha256();
  check_hmac_sha256();
  check_hkdf_sha256();
  check_ecdh_p256();
  check_ecdsa_p256();
  check_ml_kem_512();
  printf("%u passed, %u failed\n", n_passed, n_failed);
  return n_failed == 0 ? 0 : 1;
}
