/* SPDX-License-Identifier: Apache-2.0 */
/*
 * wolfCrypt adapter: SHA-256, HMAC-SHA256, HKDF-SHA256, ECDH P-256,
 * ECDSA P-256 (RFC 6979) and ML-KEM-512 (FIPS 203) from wolfSSL, configured
 * by user_settings.h in this folder.
 *
 * Every entry converts between the byte encodings of mcore.h and wolfSSL's
 * objects inside the measured call (key import/export is part of the
 * operation), keeps its objects on the stack and frees them before it
 * returns. The only state shared between operations is the WC_RNG (a
 * Hash_DRBG seeded from the harness generator) that ECC key generation and
 * the blinding inside ECC draw from.
 */
#include "mcore.h"
#include "merlin_profile.h"

#include <wolfssl/wolfcrypt/settings.h>

#include <wolfssl/wolfcrypt/ecc.h>
#include <wolfssl/wolfcrypt/error-crypt.h>
#include <wolfssl/wolfcrypt/hmac.h>
#include <wolfssl/wolfcrypt/random.h>
#include <wolfssl/wolfcrypt/sha256.h>
#include <wolfssl/wolfcrypt/wc_mlkem.h>
#include <wolfssl/wolfcrypt/wc_port.h>
#include <wolfssl/wolfcrypt/wolfmath.h>

#include <stdint.h>
#include <string.h>

/* ---- routing assertions: a profile may only route to this backend what
 * the wolfSSL configuration (user_settings.h) compiles in. ---------------- */

#if MERLIN_ROUTE_SHA256_WOLFCRYPT && defined(NO_SHA256)
#error "profile routes sha256 to wolfcrypt but user_settings.h has NO_SHA256"
#endif
#if MERLIN_ROUTE_HMAC_SHA256_WOLFCRYPT &&                                      \
    (defined(NO_HMAC) || defined(NO_SHA256))
#error                                                                         \
    "profile routes hmac-sha256 to wolfcrypt but HMAC-SHA256 is not configured"
#endif
#if MERLIN_ROUTE_HKDF_SHA256_WOLFCRYPT && !defined(HAVE_HKDF)
#error                                                                         \
    "profile routes hkdf-sha256 to wolfcrypt but user_settings.h lacks HAVE_HKDF"
#endif
#if MERLIN_ROUTE_ECDH_P256_WOLFCRYPT &&                                        \
    (!defined(HAVE_ECC) || !defined(HAVE_ECC_DHE) || defined(NO_ECC256) ||     \
     !defined(HAVE_ECC_KEY_IMPORT) || !defined(HAVE_ECC_KEY_EXPORT))
#error                                                                         \
    "profile routes ecdh-p256 to wolfcrypt but ECDH on P-256 is not configured"
#endif
#if MERLIN_ROUTE_ECDSA_P256_WOLFCRYPT &&                                       \
    (!defined(HAVE_ECC_SIGN) || !defined(HAVE_ECC_VERIFY) ||                   \
     defined(NO_ECC256) || !defined(HAVE_ECC_KEY_IMPORT) ||                    \
     !defined(HAVE_ECC_KEY_EXPORT) || !defined(WOLFSSL_PUBLIC_MP))
#error                                                                         \
    "profile routes ecdsa-p256 to wolfcrypt but ECDSA on P-256 is not configured"
#endif
#if MERLIN_ROUTE_ECDSA_P256_WOLFCRYPT && !defined(WOLFSSL_ECDSA_DETERMINISTIC_K)
#error "ecdsa-p256 needs RFC 6979 signing: define WOLFSSL_ECDSA_DETERMINISTIC_K"
#endif
#if MERLIN_ROUTE_ML_KEM_512_WOLFCRYPT &&                                       \
    (!defined(WOLFSSL_HAVE_MLKEM) || !defined(WOLFSSL_WC_ML_KEM_512))
#error "profile routes ml-kem-512 to wolfcrypt but ML-KEM-512 is not configured"
#endif

#ifndef MERLIN_WOLFCRYPT_VARIANT
#define MERLIN_WOLFCRYPT_VARIANT "c"
#endif

/* The seed of the Hash_DRBG (CUSTOM_RAND_GENERATE_SEED in user_settings.h):
 * drawn from the harness generator, so every run draws the same keys. */
int merlin_wolfcrypt_seed(unsigned char *output, unsigned int sz) {
  mcore_rng_fill(output, sz);
  return 0;
}

/* Lengths handed to wolfSSL are word32 (size_t may be wider on the host). */
static inline int fits_word32(size_t n) {
#if SIZE_MAX > 0xffffffffu
  return n <= 0xffffffffu;
#else
  (void)n;
  return 1;
#endif
}
#define FITS_WORD32(n) fits_word32(n)

#if MERLIN_ROUTE_ECDH_P256_WOLFCRYPT || MERLIN_ROUTE_ECDSA_P256_WOLFCRYPT
#define WC_NEED_RNG 1
static WC_RNG rng;
static int rng_ready;
#endif

static int wc_init(void) {
  if (wolfCrypt_Init() != 0)
    return MCORE_ERR;
#ifdef WC_NEED_RNG
  if (!rng_ready) {
    if (wc_InitRng(&rng) != 0)
      return MCORE_ERR;
    rng_ready = 1;
  }
#endif
  return MCORE_OK;
}

/* ---- SHA-256 ---------------------------------------------------------- */

#if MERLIN_ROUTE_SHA256_WOLFCRYPT
static int sha256_hash(uint8_t *out, const uint8_t *msg, size_t len) {
  wc_Sha256 sha;
  int ret;
  if (!FITS_WORD32(len))
    return MCORE_ERR;
  if (wc_InitSha256_ex(&sha, NULL, INVALID_DEVID) != 0)
    return MCORE_ERR;
  ret = wc_Sha256Update(&sha, msg, (word32)len);
  if (ret == 0)
    ret = wc_Sha256Final(&sha, out);
  wc_Sha256Free(&sha);
  return ret == 0 ? MCORE_OK : MCORE_ERR;
}

static const mcore_hash_vt sha256_vt = {WC_SHA256_DIGEST_SIZE, sha256_hash};
#endif

/* ---- HMAC-SHA256 ------------------------------------------------------ */

#if MERLIN_ROUTE_HMAC_SHA256_WOLFCRYPT
static int hmac_sha256_mac(uint8_t *tag, const uint8_t *key, size_t key_len,
                           const uint8_t *msg, size_t len) {
  Hmac hmac;
  int ret;
  if (!FITS_WORD32(key_len) || !FITS_WORD32(len))
    return MCORE_ERR;
  if (wc_HmacInit(&hmac, NULL, INVALID_DEVID) != 0)
    return MCORE_ERR;
  ret = wc_HmacSetKey(&hmac, WC_SHA256, key, (word32)key_len);
  if (ret == 0)
    ret = wc_HmacUpdate(&hmac, msg, (word32)len);
  if (ret == 0)
    ret = wc_HmacFinal(&hmac, tag);
  wc_HmacFree(&hmac);
  return ret == 0 ? MCORE_OK : MCORE_ERR;
}

static const mcore_mac_vt hmac_sha256_vt = {WC_SHA256_DIGEST_SIZE,
                                            hmac_sha256_mac};
#endif

/* ---- HKDF-SHA256 ------------------------------------------------------ */

#if MERLIN_ROUTE_HKDF_SHA256_WOLFCRYPT
/* wc_HKDF takes salt NULL (length 0) as RFC 5869's absent salt, i.e.
 * HashLen zero bytes, and info NULL as empty info. */
static int hkdf_sha256_derive(uint8_t *okm, size_t okm_len, const uint8_t *salt,
                              size_t salt_len, const uint8_t *ikm,
                              size_t ikm_len, const uint8_t *info,
                              size_t info_len) {
  if (!FITS_WORD32(okm_len) || !FITS_WORD32(salt_len) ||
      !FITS_WORD32(ikm_len) || !FITS_WORD32(info_len))
    return MCORE_ERR;
  if (salt_len == 0)
    salt = NULL;
  if (info_len == 0)
    info = NULL;
  return wc_HKDF(WC_SHA256, ikm, (word32)ikm_len, salt, (word32)salt_len, info,
                 (word32)info_len, okm, (word32)okm_len) == 0
             ? MCORE_OK
             : MCORE_ERR;
}

static const mcore_kdf_vt hkdf_sha256_vt = {hkdf_sha256_derive};
#endif

/* ---- P-256 helpers (ECDH and ECDSA) ----------------------------------- */

#define P256_BYTES 32
#define P256_PK_BYTES (1 + 2 * P256_BYTES) /* SEC1 uncompressed 04||X||Y */

#ifdef WC_NEED_RNG
/* A fresh key pair from the DRBG: pk as 0x04 || X || Y, sk as the 32-byte
 * big-endian scalar. */
static int p256_keygen(uint8_t *pk, uint8_t *sk) {
  ecc_key key;
  word32 pk_len = P256_PK_BYTES, sk_len = P256_BYTES;
  int ret;
  if (wc_ecc_init_ex(&key, NULL, INVALID_DEVID) != 0)
    return MCORE_ERR;
  ret = wc_ecc_make_key_ex(&rng, P256_BYTES, &key, ECC_SECP256R1);
  if (ret == 0)
    ret = wc_ecc_export_x963(&key, pk, &pk_len);
  if (ret == 0)
    ret = wc_ecc_export_private_only(&key, sk, &sk_len);
  wc_ecc_free(&key);
  return ret == 0 && pk_len == P256_PK_BYTES && sk_len == P256_BYTES
             ? MCORE_OK
             : MCORE_ERR;
}

/* Load a private scalar (no public part) into an initialised key. */
static int p256_load_sk(ecc_key *key, const uint8_t *sk) {
  return wc_ecc_import_private_key_ex(sk, P256_BYTES, NULL, 0, key,
                                      ECC_SECP256R1);
}
#endif

/* ---- ECDH P-256 ------------------------------------------------------- */

#if MERLIN_ROUTE_ECDH_P256_WOLFCRYPT
/* ss = x coordinate of sk * peer_pk. The peer key is imported as untrusted
 * (wc_ecc_import_x963_ex checks that the point is on the curve). */
static int ecdh_p256_shared(uint8_t *ss, const uint8_t *sk,
                            const uint8_t *peer_pk) {
  ecc_key priv, peer;
  word32 ss_len = P256_BYTES;
  int ret;
  if (wc_ecc_init_ex(&priv, NULL, INVALID_DEVID) != 0)
    return MCORE_ERR;
  if (wc_ecc_init_ex(&peer, NULL, INVALID_DEVID) != 0) {
    wc_ecc_free(&priv);
    return MCORE_ERR;
  }
  ret = p256_load_sk(&priv, sk);
  if (ret == 0)
    ret = wc_ecc_import_x963_ex(peer_pk, P256_PK_BYTES, &peer, ECC_SECP256R1);
  /* With ECC_TIMING_RESISTANT wolfSSL blinds the private-key operation and
   * wants an RNG on the private key. */
  if (ret == 0)
    ret = wc_ecc_set_rng(&priv, &rng);
  if (ret == 0)
    ret = wc_ecc_shared_secret(&priv, &peer, ss, &ss_len);
  wc_ecc_free(&peer);
  wc_ecc_free(&priv);
  return ret == 0 && ss_len == P256_BYTES ? MCORE_OK : MCORE_ERR;
}

static const mcore_ka_vt ecdh_p256_vt = {P256_PK_BYTES, P256_BYTES, P256_BYTES,
                                         p256_keygen, ecdh_p256_shared};
#endif

/* ---- ECDSA P-256 with SHA-256 ----------------------------------------- */

#if MERLIN_ROUTE_ECDSA_P256_WOLFCRYPT
#define P256_SIG_BYTES (2 * P256_BYTES)

static int sha256_of(uint8_t digest[WC_SHA256_DIGEST_SIZE], const uint8_t *msg,
                     size_t len) {
  wc_Sha256 sha;
  int ret;
  if (!FITS_WORD32(len))
    return -1;
  if (wc_InitSha256_ex(&sha, NULL, INVALID_DEVID) != 0)
    return -1;
  ret = wc_Sha256Update(&sha, msg, (word32)len);
  if (ret == 0)
    ret = wc_Sha256Final(&sha, digest);
  wc_Sha256Free(&sha);
  return ret;
}

/* sig = r || s of the RFC 6979 signature of SHA-256(msg). */
static int ecdsa_p256_sign(uint8_t *sig, size_t *sig_len, const uint8_t *msg,
                           size_t msg_len, const uint8_t *sk) {
  uint8_t digest[WC_SHA256_DIGEST_SIZE];
  ecc_key key;
  mp_int r, s;
  int ret;
  if (sha256_of(digest, msg, msg_len) != 0)
    return MCORE_ERR;
  if (wc_ecc_init_ex(&key, NULL, INVALID_DEVID) != 0)
    return MCORE_ERR;
  if (mp_init_multi(&r, &s, NULL, NULL, NULL, NULL) != MP_OKAY) {
    wc_ecc_free(&key);
    return MCORE_ERR;
  }
  ret = p256_load_sk(&key, sk);
  if (ret == 0)
    ret = wc_ecc_set_deterministic_ex(&key, 1, WC_HASH_TYPE_SHA256);
  if (ret == 0)
    ret = wc_ecc_set_rng(&key, &rng);
  if (ret == 0)
    ret = wc_ecc_sign_hash_ex(digest, sizeof digest, &rng, &key, &r, &s);
  if (ret == 0)
    ret = mp_to_unsigned_bin_len(&r, sig, P256_BYTES);
  if (ret == 0)
    ret = mp_to_unsigned_bin_len(&s, sig + P256_BYTES, P256_BYTES);
  mp_forcezero(&r);
  mp_forcezero(&s);
  mp_free(&r);
  mp_free(&s);
  wc_ecc_free(&key);
  if (ret != 0)
    return MCORE_ERR;
  *sig_len = P256_SIG_BYTES;
  return MCORE_OK;
}

static int ecdsa_p256_verify(const uint8_t *sig, size_t sig_len,
                             const uint8_t *msg, size_t msg_len,
                             const uint8_t *pk) {
  uint8_t digest[WC_SHA256_DIGEST_SIZE];
  ecc_key key;
  mp_int r, s;
  int ret, valid = 0, rc;
  if (sig_len != P256_SIG_BYTES)
    return MCORE_BAD_SIGNATURE; /* not an r || s pair */
  if (sha256_of(digest, msg, msg_len) != 0)
    return MCORE_ERR;
  if (wc_ecc_init_ex(&key, NULL, INVALID_DEVID) != 0)
    return MCORE_ERR;
  if (mp_init_multi(&r, &s, NULL, NULL, NULL, NULL) != MP_OKAY) {
    wc_ecc_free(&key);
    return MCORE_ERR;
  }
  rc = MCORE_ERR;
  ret = wc_ecc_import_x963_ex(pk, P256_PK_BYTES, &key, ECC_SECP256R1);
  if (ret == 0)
    ret = mp_read_unsigned_bin(&r, sig, P256_BYTES);
  if (ret == 0)
    ret = mp_read_unsigned_bin(&s, sig + P256_BYTES, P256_BYTES);
  if (ret == 0) {
    ret = wc_ecc_verify_hash_ex(&r, &s, digest, sizeof digest, &valid, &key);
    if (ret == 0)
      rc = valid == 1 ? MCORE_OK : MCORE_BAD_SIGNATURE;
    /* r or s zero, or not below the group order: a malformed signature,
     * rejected by wc_ecc_check_r_s_range before any arithmetic. */
    else if (ret == WC_NO_ERR_TRACE(MP_ZERO_E) ||
             ret == WC_NO_ERR_TRACE(MP_VAL))
      rc = MCORE_BAD_SIGNATURE;
  }
  mp_free(&r);
  mp_free(&s);
  wc_ecc_free(&key);
  return rc;
}

static const mcore_sig_vt ecdsa_p256_vt = {
    P256_PK_BYTES,   P256_BYTES,        P256_SIG_BYTES, p256_keygen,
    ecdsa_p256_sign, ecdsa_p256_verify, NULL,           0};
#endif

/* ---- ML-KEM-512 ------------------------------------------------------- */

#if MERLIN_ROUTE_ML_KEM_512_WOLFCRYPT
/* Keys and ciphertexts in the FIPS 203 byte encodings (ek, dk, c). */
static int mlkem512_keygen(uint8_t *pk, uint8_t *sk, const uint8_t *coins) {
  MlKemKey key;
  int ret;
  if (wc_MlKemKey_Init(&key, WC_ML_KEM_512, NULL, INVALID_DEVID) != 0)
    return MCORE_ERR;
  ret = wc_MlKemKey_MakeKeyWithRandom(&key, coins, WC_ML_KEM_MAKEKEY_RAND_SZ);
  if (ret == 0)
    ret = wc_MlKemKey_EncodePublicKey(&key, pk, WC_ML_KEM_512_PUBLIC_KEY_SIZE);
  if (ret == 0)
    ret =
        wc_MlKemKey_EncodePrivateKey(&key, sk, WC_ML_KEM_512_PRIVATE_KEY_SIZE);
  wc_MlKemKey_Free(&key);
  return ret == 0 ? MCORE_OK : MCORE_ERR;
}

static int mlkem512_encaps(uint8_t *ct, uint8_t *ss, const uint8_t *pk,
                           const uint8_t *coins) {
  MlKemKey key;
  int ret;
  if (wc_MlKemKey_Init(&key, WC_ML_KEM_512, NULL, INVALID_DEVID) != 0)
    return MCORE_ERR;
  ret = wc_MlKemKey_DecodePublicKey(&key, pk, WC_ML_KEM_512_PUBLIC_KEY_SIZE);
  if (ret == 0)
    ret = wc_MlKemKey_EncapsulateWithRandom(&key, ct, ss, coins,
                                            WC_ML_KEM_ENC_RAND_SZ);
  wc_MlKemKey_Free(&key);
  return ret == 0 ? MCORE_OK : MCORE_ERR;
}

static int mlkem512_decaps(uint8_t *ss, const uint8_t *ct, const uint8_t *sk) {
  MlKemKey key;
  int ret;
  if (wc_MlKemKey_Init(&key, WC_ML_KEM_512, NULL, INVALID_DEVID) != 0)
    return MCORE_ERR;
  ret = wc_MlKemKey_DecodePrivateKey(&key, sk, WC_ML_KEM_512_PRIVATE_KEY_SIZE);
  if (ret == 0)
    ret = wc_MlKemKey_Decapsulate(&key, ss, ct, WC_ML_KEM_512_CIPHER_TEXT_SIZE);
  wc_MlKemKey_Free(&key);
  return ret == 0 ? MCORE_OK : MCORE_ERR;
}

static const mcore_kem_vt mlkem512_vt = {WC_ML_KEM_512_PUBLIC_KEY_SIZE,
                                         WC_ML_KEM_512_PRIVATE_KEY_SIZE,
                                         WC_ML_KEM_512_CIPHER_TEXT_SIZE,
                                         WC_ML_KEM_SS_SZ,
                                         mlkem512_keygen,
                                         mlkem512_encaps,
                                         mlkem512_decaps};
#endif

/* ---- registration ----------------------------------------------------- */

static const mcore_impl impls[] = {
#if MERLIN_ROUTE_SHA256_WOLFCRYPT
    {MCORE_ALG_SHA256,
     MCORE_BACKEND_WOLFCRYPT,
     MERLIN_WOLFCRYPT_VARIANT,
     {.hash = &sha256_vt}},
#endif
#if MERLIN_ROUTE_HMAC_SHA256_WOLFCRYPT
    {MCORE_ALG_HMAC_SHA256,
     MCORE_BACKEND_WOLFCRYPT,
     MERLIN_WOLFCRYPT_VARIANT,
     {.mac = &hmac_sha256_vt}},
#endif
#if MERLIN_ROUTE_HKDF_SHA256_WOLFCRYPT
    {MCORE_ALG_HKDF_SHA256,
     MCORE_BACKEND_WOLFCRYPT,
     MERLIN_WOLFCRYPT_VARIANT,
     {.kdf = &hkdf_sha256_vt}},
#endif
#if MERLIN_ROUTE_ECDH_P256_WOLFCRYPT
    {MCORE_ALG_ECDH_P256,
     MCORE_BACKEND_WOLFCRYPT,
     MERLIN_WOLFCRYPT_VARIANT,
     {.ka = &ecdh_p256_vt}},
#endif
#if MERLIN_ROUTE_ECDSA_P256_WOLFCRYPT
    {MCORE_ALG_ECDSA_P256,
     MCORE_BACKEND_WOLFCRYPT,
     MERLIN_WOLFCRYPT_VARIANT,
     {.sig = &ecdsa_p256_vt}},
#endif
#if MERLIN_ROUTE_ML_KEM_512_WOLFCRYPT
    {MCORE_ALG_ML_KEM_512,
     MCORE_BACKEND_WOLFCRYPT,
     MERLIN_WOLFCRYPT_VARIANT,
     {.kem = &mlkem512_vt}},
#endif
};

const mcore_backend mbe_wolfcrypt_backend = {MCORE_BACKEND_WOLFCRYPT,
                                             "wolfssl",
                                             MERLIN_WOLFSSL_VERSION,
                                             wc_init,
                                             impls,
                                             sizeof impls / sizeof impls[0]};
