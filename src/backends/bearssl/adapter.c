/* SPDX-License-Identifier: Apache-2.0 */
/*
 * BearSSL adapter: SHA-256, HMAC-SHA-256, HKDF-SHA-256, AES-GCM, AES-CCM,
 * ECDH and ECDSA on P-256, X25519 and RSA-2048 signatures, each through the
 * constant-time implementation BearSSL names (the variant strings below say
 * which: "ct" AES, "ctmul32" GHASH, "m31" curves, "i31" big integers).
 *
 * BearSSL works on caller-owned memory and never allocates, so nothing here
 * goes through mcore_malloc: the heap figures of this backend are zero by
 * construction, and every context lives on the stack (measured by stack
 * painting) or in the AEAD context the harness provides.
 *
 * BearSSL's key structures hold non-const pointers, and its EC
 * multiplications work in place: keys and points are copied into local
 * buffers rather than cast, and the copies are part of the measured call.
 */
#include "mbe_route.h"
#include "mcore.h"
#include "merlin_profile.h"

#include <bearssl.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- the pairs this adapter serves, each written once -------------------
 * algorithm (MCORE_ALG_<ALG>), variant label, interface and vtable (for
 * impls[]), the library source groups it needs, and what is missing when
 * they were not built. BearSSL has no feature macros: what exists is what
 * was compiled. backend.cmake defines MERLIN_BEARSSL_<GROUP> for every
 * group of library sources it built from the profile's route list
 * (merlin_profile.cmake); the routes come from merlin_profile.h. The two
 * must agree: one check per pair below. The bodies stay under
 * #if MERLIN_ROUTE_<ALG>_BEARSSL (src/backends/mbe_route.h says why). */
#define BR_HAS(group) MBE_ROUTED(MERLIN_BEARSSL_##group)
#define BEARSSL_IMPLS(X)                                                       \
  X(SHA256, "c", hash, sha256_vt, BR_HAS(SHA256), "BearSSL SHA-256")           \
  X(HMAC_SHA256, "c", mac, hmac_sha256_vt, BR_HAS(SHA256) && BR_HAS(HMAC),     \
    "BearSSL HMAC")                                                            \
  X(HKDF_SHA256, "c", kdf, hkdf_sha256_vt,                                     \
    BR_HAS(SHA256) && BR_HAS(HMAC) && BR_HAS(HKDF), "BearSSL br_hkdf")         \
  X(AES_128_GCM, "aes-ct-ghash-ctmul32", aead, aes128_gcm_vt,                  \
    BR_HAS(AES_CT) && BR_HAS(GCM), "aes_ct_ctr/ghash_ctmul32")                 \
  X(AES_256_GCM, "aes-ct-ghash-ctmul32", aead, aes256_gcm_vt,                  \
    BR_HAS(AES_CT) && BR_HAS(GCM), "aes_ct_ctr/ghash_ctmul32")                 \
  X(AES_128_CCM, "aes-ct-ctrcbc", aead, aes128_ccm_vt,                         \
    BR_HAS(AES_CT) && BR_HAS(CCM), "aes_ct_ctrcbc")                            \
  X(ECDH_P256, "p256-m31", ka, ecdh_p256_vt, BR_HAS(P256) && BR_HAS(EC_KEY),   \
    "ec_p256_m31")                                                             \
  X(X25519, "c25519-m31", ka, x25519_vt, BR_HAS(C25519), "ec_c25519_m31")      \
  X(ECDSA_P256, "i31-p256-m31", sig, ecdsa_p256_vt,                            \
    BR_HAS(P256) && BR_HAS(EC_KEY) && BR_HAS(ECDSA) && BR_HAS(I31) &&          \
        BR_HAS(I31_ECDSA),                                                     \
    "ecdsa_i31")                                                               \
  X(RSA_2048, "i31", sig, rsa2048_vt,                                          \
    BR_HAS(RSA) && BR_HAS(I31) && BR_HAS(I31_RSA), "rsa_i31")
#define BEARSSL_ROUTED(ALG) MBE_ROUTED(MERLIN_ROUTE_##ALG##_BEARSSL)

#define BEARSSL_BUILT(ALG, VARIANT, IFACE, VT, NEEDS, WHAT)                    \
  _Static_assert(!BEARSSL_ROUTED(ALG) || (NEEDS),                              \
                 "profile routes " #ALG " to bearssl: " WHAT                   \
                 " was not built");
BEARSSL_IMPLS(BEARSSL_BUILT)

/* The portable C paths only (see backend.cmake). */
#if BR_AES_X86NI || BR_SSE2 || BR_POWER8 || BR_INT128 || BR_UMUL128
#error "bearssl backend: expects the portable C configuration"
#endif

#if MERLIN_ROUTE_SHA256_BEARSSL || MERLIN_ROUTE_HMAC_SHA256_BEARSSL ||         \
    MERLIN_ROUTE_HKDF_SHA256_BEARSSL || MERLIN_ROUTE_ECDSA_P256_BEARSSL ||     \
    MERLIN_ROUTE_RSA_2048_BEARSSL
/* An empty input may come as a NULL pointer; BearSSL would pass it on to
 * memcpy, where even a zero length is undefined behaviour (C11 7.24.1). */
static const uint8_t no_bytes[1] = {0};
#define NONNULL(p) ((p) != NULL ? (const void *)(p) : (const void *)no_bytes)
#endif

#if MERLIN_ROUTE_SHA256_BEARSSL || MERLIN_ROUTE_ECDSA_P256_BEARSSL ||          \
    MERLIN_ROUTE_RSA_2048_BEARSSL
MBE_SHARED static void sha256(uint8_t out[32], const uint8_t *msg, size_t len) {
  br_sha256_context h;
  br_sha256_init(&h);
  br_sha256_update(&h, NONNULL(msg), len);
  br_sha256_out(&h, out);
}
#endif

/* ---- SHA-256 (FIPS 180-4) ------------------------------------------------ */

#if MERLIN_ROUTE_SHA256_BEARSSL
static int sha256_hash(uint8_t *out, const uint8_t *msg, size_t len) {
  sha256(out, msg, len);
  return MCORE_OK;
}

static const mcore_hash_vt sha256_vt = {.digest_len = 32, .hash = sha256_hash};
#endif

/* ---- HMAC-SHA-256 (RFC 2104) --------------------------------------------- */

#if MERLIN_ROUTE_HMAC_SHA256_BEARSSL
/* The key schedule (br_hmac_key_init: the inner and outer padded-key
 * states) is part of the measured call. */
static int hmac_sha256_mac(uint8_t *tag, const uint8_t *key, size_t key_len,
                           const uint8_t *msg, size_t len) {
  br_hmac_key_context kc;
  br_hmac_context hc;
  br_hmac_key_init(&kc, &br_sha256_vtable, NONNULL(key), key_len);
  br_hmac_init(&hc, &kc, 0); /* 0: the full 32-byte output */
  br_hmac_update(&hc, NONNULL(msg), len);
  return br_hmac_out(&hc, tag) == 32 ? MCORE_OK : MCORE_ERR;
}

static const mcore_mac_vt hmac_sha256_vt = {.tag_len = 32,
                                            .mac = hmac_sha256_mac};
#endif

/* ---- HKDF-SHA-256 (RFC 5869) --------------------------------------------- */

#if MERLIN_ROUTE_HKDF_SHA256_BEARSSL
/* br_hkdf (new in BearSSL 0.6): init keys HMAC with the salt, inject feeds
 * the IKM (extract, RFC 5869 section 2.2), flip turns the result into the
 * PRK, produce runs expand (section 2.3). Without a salt, BR_HKDF_NO_SALT
 * selects HashLen zero bytes, the RFC's default; an empty salt is the same
 * HMAC key (HMAC pads keys with zeros to the block size). */
static int hkdf_sha256_derive(uint8_t *okm, size_t okm_len, const uint8_t *salt,
                              size_t salt_len, const uint8_t *ikm,
                              size_t ikm_len, const uint8_t *info,
                              size_t info_len) {
  br_hkdf_context hc;
  if (okm_len > 255u * 32u)
    return MCORE_ERR; /* L <= 255 * HashLen (RFC 5869 section 2.3) */
  br_hkdf_init(&hc, &br_sha256_vtable,
               salt_len != 0 ? (const void *)salt : BR_HKDF_NO_SALT, salt_len);
  br_hkdf_inject(&hc, NONNULL(ikm), ikm_len);
  br_hkdf_flip(&hc);
  return br_hkdf_produce(&hc, NONNULL(info), info_len, okm, okm_len) == okm_len
             ? MCORE_OK
             : MCORE_ERR;
}

static const mcore_kdf_vt hkdf_sha256_vt = {.derive = hkdf_sha256_derive};
#endif

/* ---- AES-GCM (SP 800-38D) ------------------------------------------------ */

#define AEAD_TAG_LEN 16

#if MERLIN_ROUTE_AES_128_GCM_BEARSSL || MERLIN_ROUTE_AES_256_GCM_BEARSSL
#define GCM_NONCE_LEN 12 /* 96-bit IV: J0 = IV || 0^31 || 1 */

/* The caller-provided context: the bitsliced AES key schedule and the GCM
 * state that points at it (so the context must not move between setup and
 * use, which the harness guarantees). */
typedef struct {
  br_aes_ct_ctr_keys aes;
  br_gcm_context gcm;
} gcm_ctx;

/* setup: the AES key schedule and H = AES_K(0^128), GHASH's key;
 * ghash_ctmul32 works from H directly and keeps no table. */
MBE_SHARED static int gcm_setup(void *ctx, const uint8_t *key, size_t key_len) {
  gcm_ctx *c = ctx;
  br_aes_ct_ctr_init(&c->aes, key, key_len);
  br_gcm_init(&c->gcm, &c->aes.vtable, br_ghash_ctmul32);
  return MCORE_OK;
}

/* Both directions: the nonce, the additional data, then the switch to the
 * message (BearSSL bearssl_aead.h, br_gcm_*). Inline, as written in each
 * before. */
MBE_INLINED static inline gcm_ctx *
gcm_start(void *ctx, const uint8_t *nonce, const uint8_t *aad, size_t aad_len) {
  gcm_ctx *c = ctx;
  br_gcm_reset(&c->gcm, nonce, GCM_NONCE_LEN);
  if (aad_len != 0)
    br_gcm_aad_inject(&c->gcm, aad, aad_len);
  br_gcm_flip(&c->gcm);
  return c;
}

/* BearSSL encrypts and decrypts in place: the input is copied to the
 * output buffer first (memmove: the harness may pass the same buffer). */
MBE_SHARED static int gcm_encrypt(void *ctx, uint8_t *ct, uint8_t *tag,
                                  const uint8_t *nonce, const uint8_t *aad,
                                  size_t aad_len, const uint8_t *pt,
                                  size_t len) {
  gcm_ctx *c = gcm_start(ctx, nonce, aad, aad_len);
  if (len != 0) {
    memmove(ct, pt, len);
    br_gcm_run(&c->gcm, 1, ct, len);
  }
  br_gcm_get_tag(&c->gcm, tag);
  return MCORE_OK;
}

/* The tag is checked in constant time (br_gcm_check_tag); on mismatch the
 * decrypted text is wiped. */
MBE_SHARED static int gcm_decrypt(void *ctx, uint8_t *pt, const uint8_t *nonce,
                                  const uint8_t *aad, size_t aad_len,
                                  const uint8_t *ct, size_t len,
                                  const uint8_t *tag) {
  gcm_ctx *c = gcm_start(ctx, nonce, aad, aad_len);
  if (len != 0) {
    memmove(pt, ct, len);
    br_gcm_run(&c->gcm, 0, pt, len);
  }
  if (!br_gcm_check_tag(&c->gcm, tag)) {
    if (len != 0)
      memset(pt, 0, len);
    return MCORE_BAD_SIGNATURE;
  }
  return MCORE_OK;
}
#endif

#if MERLIN_ROUTE_AES_128_GCM_BEARSSL
static int aes128_gcm_setup(void *ctx, const uint8_t *key) {
  return gcm_setup(ctx, key, 16);
}

static const mcore_aead_vt aes128_gcm_vt = {.key_len = 16,
                                            .nonce_len = GCM_NONCE_LEN,
                                            .tag_len = AEAD_TAG_LEN,
                                            .ctx_size = sizeof(gcm_ctx),
                                            .setup = aes128_gcm_setup,
                                            .encrypt = gcm_encrypt,
                                            .decrypt = gcm_decrypt,
                                            .cleanup = NULL};
#endif

#if MERLIN_ROUTE_AES_256_GCM_BEARSSL
static int aes256_gcm_setup(void *ctx, const uint8_t *key) {
  return gcm_setup(ctx, key, 32);
}

static const mcore_aead_vt aes256_gcm_vt = {.key_len = 32,
                                            .nonce_len = GCM_NONCE_LEN,
                                            .tag_len = AEAD_TAG_LEN,
                                            .ctx_size = sizeof(gcm_ctx),
                                            .setup = aes256_gcm_setup,
                                            .encrypt = gcm_encrypt,
                                            .decrypt = gcm_decrypt,
                                            .cleanup = NULL};
#endif

/* ---- AES-128-CCM (SP 800-38C) -------------------------------------------- */

#if MERLIN_ROUTE_AES_128_CCM_BEARSSL
#define CCM_NONCE_LEN 13 /* n = 13: q = 2, messages below 64 KiB */

/* The CTR + CBC-MAC ("ctrcbc") AES key schedule and the CCM state that
 * points at it. */
typedef struct {
  br_aes_ct_ctrcbc_keys aes;
  br_ccm_context ccm;
} ccm_ctx;

static int aes128_ccm_setup(void *ctx, const uint8_t *key) {
  ccm_ctx *c = ctx;
  br_aes_ct_ctrcbc_init(&c->aes, key, 16);
  br_ccm_init(&c->ccm, &c->aes.vtable);
  return MCORE_OK;
}

/* CCM formats the lengths into B0 first (SP 800-38C A.2), so br_ccm_reset
 * takes them up front; it fails when they do not fit the nonce length. */
static int ccm_start(ccm_ctx *c, const uint8_t *nonce, const uint8_t *aad,
                     size_t aad_len, size_t len) {
  if (!br_ccm_reset(&c->ccm, nonce, CCM_NONCE_LEN, (uint64_t)aad_len,
                    (uint64_t)len, AEAD_TAG_LEN))
    return MCORE_ERR;
  if (aad_len != 0)
    br_ccm_aad_inject(&c->ccm, aad, aad_len);
  br_ccm_flip(&c->ccm);
  return MCORE_OK;
}

static int aes128_ccm_encrypt(void *ctx, uint8_t *ct, uint8_t *tag,
                              const uint8_t *nonce, const uint8_t *aad,
                              size_t aad_len, const uint8_t *pt, size_t len) {
  ccm_ctx *c = ctx;
  if (ccm_start(c, nonce, aad, aad_len, len) != MCORE_OK)
    return MCORE_ERR;
  if (len != 0) {
    memmove(ct, pt, len);
    br_ccm_run(&c->ccm, 1, ct, len);
  }
  return br_ccm_get_tag(&c->ccm, tag) == AEAD_TAG_LEN ? MCORE_OK : MCORE_ERR;
}

static int aes128_ccm_decrypt(void *ctx, uint8_t *pt, const uint8_t *nonce,
                              const uint8_t *aad, size_t aad_len,
                              const uint8_t *ct, size_t len,
                              const uint8_t *tag) {
  ccm_ctx *c = ctx;
  if (ccm_start(c, nonce, aad, aad_len, len) != MCORE_OK)
    return MCORE_ERR;
  if (len != 0) {
    memmove(pt, ct, len);
    br_ccm_run(&c->ccm, 0, pt, len);
  }
  if (!br_ccm_check_tag(&c->ccm, tag)) {
    if (len != 0)
      memset(pt, 0, len);
    return MCORE_BAD_SIGNATURE;
  }
  return MCORE_OK;
}

static const mcore_aead_vt aes128_ccm_vt = {.key_len = 16,
                                            .nonce_len = CCM_NONCE_LEN,
                                            .tag_len = AEAD_TAG_LEN,
                                            .ctx_size = sizeof(ccm_ctx),
                                            .setup = aes128_ccm_setup,
                                            .encrypt = aes128_ccm_encrypt,
                                            .decrypt = aes128_ccm_decrypt,
                                            .cleanup = NULL};
#endif

/* ---- P-256 helpers ------------------------------------------------------- */

#if MERLIN_ROUTE_ECDH_P256_BEARSSL || MERLIN_ROUTE_ECDSA_P256_BEARSSL
#define P256_PK_LEN 65 /* SEC1 uncompressed point 0x04 || x || y */
#define P256_SK_LEN 32 /* big-endian scalar in [1, n-1] */

/* The harness generator as a BearSSL PRNG: br_ec_keygen draws from any
 * br_prng_class, and this one hands out mcore_rng_fill's stream so keys are
 * repeatable. The context is just the vtable pointer. */
static const br_prng_class harness_prng;

MBE_SHARED static void harness_prng_init(const br_prng_class **ctx,
                                         const void *params, const void *seed,
                                         size_t seed_len) {
  (void)params;
  (void)seed;
  (void)seed_len;
  *ctx = &harness_prng;
}

MBE_SHARED static void harness_prng_generate(const br_prng_class **ctx,
                                             void *out, size_t len) {
  (void)ctx;
  mcore_rng_fill(out, len);
}

MBE_SHARED static void harness_prng_update(const br_prng_class **ctx,
                                           const void *seed, size_t seed_len) {
  (void)ctx;
  (void)seed;
  (void)seed_len;
}

static const br_prng_class harness_prng = {.context_size =
                                               sizeof(const br_prng_class *),
                                           .init = harness_prng_init,
                                           .generate = harness_prng_generate,
                                           .update = harness_prng_update};

/* br_ec_keygen: random bytes masked to the bit length of n, redrawn until
 * the value is in [1, n-1] (FIPS 186-5 A.2.2, rejection sampling); then
 * Q = d*G with the m31 comb (br_ec_compute_pub -> mulgen). */
MBE_SHARED static int p256_keygen(uint8_t *pk, uint8_t *sk) {
  const br_prng_class *rng = &harness_prng;
  br_ec_private_key k;
  if (br_ec_keygen(&rng, &br_ec_p256_m31, &k, sk, BR_EC_secp256r1) !=
      P256_SK_LEN)
    return MCORE_ERR;
  if (br_ec_compute_pub(&br_ec_p256_m31, NULL, pk, &k) != P256_PK_LEN)
    return MCORE_ERR;
  return MCORE_OK;
}
#endif

/* ---- ECDH P-256 (SP 800-56A, raw x coordinate) --------------------------- */

#if MERLIN_ROUTE_ECDH_P256_BEARSSL
static int ecdh_p256_keygen(uint8_t *pk, uint8_t *sk) {
  return p256_keygen(pk, sk);
}

/* Z = x(d * Q_peer). The m31 mul decodes the peer's point and rejects it
 * unless it is an uncompressed point with coordinates below p on the curve
 * (SP 800-56A 5.6.2.3.4 partial validation), and works in place. P-256 has
 * cofactor 1, so with d in [1, n-1] the product is never the point at
 * infinity. */
static int ecdh_p256_shared(uint8_t *ss, const uint8_t *sk,
                            const uint8_t *peer_pk) {
  uint8_t point[P256_PK_LEN];
  size_t xlen = 0, xoff;
  memcpy(point, peer_pk, P256_PK_LEN);
  if (!br_ec_p256_m31.mul(point, P256_PK_LEN, sk, P256_SK_LEN, BR_EC_secp256r1))
    return MCORE_ERR;
  xoff = br_ec_p256_m31.xoff(BR_EC_secp256r1, &xlen);
  if (xlen != 32)
    return MCORE_ERR;
  memcpy(ss, point + xoff, 32);
  return MCORE_OK;
}

static const mcore_ka_vt ecdh_p256_vt = {.pk_len = P256_PK_LEN,
                                         .sk_len = P256_SK_LEN,
                                         .ss_len = 32,
                                         .keygen = ecdh_p256_keygen,
                                         .shared = ecdh_p256_shared};
#endif

/* ---- X25519 (RFC 7748) --------------------------------------------------- */

#if MERLIN_ROUTE_X25519_BEARSSL
/* RFC 7748 section 6.1: the private key is 32 random bytes, the public key
 * X25519(k, 9). br_ec_keygen is not used here: it treats Curve25519 keys as
 * big-endian integers below a pseudo-order 0x7F FF ... FF and so clears bit 7
 * of the first byte, which for the little-endian X25519 scalar is a real bit
 * (bits 3 to 254 survive clamping). */
static int x25519_keygen(uint8_t *pk, uint8_t *sk) {
  mcore_rng_fill(sk, 32);
  return br_ec_c25519_m31.mulgen(pk, sk, 32, BR_EC_curve25519) == 32
             ? MCORE_OK
             : MCORE_ERR;
}

/* X25519(k, u): the m31 ladder clamps k (decodeScalar25519, RFC 7748
 * section 5) and masks bit 255 of u itself, and works in place on u. It does
 * not reject the all-zero output of a small-order u (the check RFC 7748
 * section 6.1 leaves to the protocol). */
static int x25519_shared(uint8_t *ss, const uint8_t *sk,
                         const uint8_t *peer_pk) {
  uint8_t u[32];
  memcpy(u, peer_pk, 32);
  if (!br_ec_c25519_m31.mul(u, 32, sk, 32, BR_EC_curve25519))
    return MCORE_ERR;
  memcpy(ss, u, 32);
  return MCORE_OK;
}

static const mcore_ka_vt x25519_vt = {.pk_len = 32,
                                      .sk_len = 32,
                                      .ss_len = 32,
                                      .keygen = x25519_keygen,
                                      .shared = x25519_shared};
#endif

/* ---- ECDSA P-256 with SHA-256 (FIPS 186-5, RFC 6979 nonces) -------------- */

#if MERLIN_ROUTE_ECDSA_P256_BEARSSL
#define ECDSA_SIG_LEN 64 /* r || s, 32 bytes each */

static int ecdsa_p256_keygen(uint8_t *pk, uint8_t *sk) {
  return p256_keygen(pk, sk);
}

/* br_ecdsa_i31_sign_raw derives k deterministically (RFC 6979 section 3.2:
 * HMAC_DRBG with SHA-256 seeded by int2octets(d) || bits2octets(h)), so the
 * signature is a known answer. k*G uses the m31 comb, the arithmetic
 * modulo n the i31 code. */
static int ecdsa_p256_sign(uint8_t *sig, size_t *sig_len, const uint8_t *msg,
                           size_t msg_len, const uint8_t *sk) {
  uint8_t h[32], d[P256_SK_LEN];
  br_ec_private_key k = {.curve = BR_EC_secp256r1, .x = d, .xlen = sizeof d};
  memcpy(d, sk, sizeof d);
  sha256(h, msg, msg_len);
  *sig_len =
      br_ecdsa_i31_sign_raw(&br_ec_p256_m31, &br_sha256_vtable, h, &k, sig);
  return *sig_len == ECDSA_SIG_LEN ? MCORE_OK : MCORE_ERR;
}

/* BearSSL answers valid or not: a malformed public key is reported like a
 * bad signature, which the harness never provokes (its keys are valid). */
static int ecdsa_p256_verify(const uint8_t *sig, size_t sig_len,
                             const uint8_t *msg, size_t msg_len,
                             const uint8_t *pk) {
  uint8_t h[32], q[P256_PK_LEN];
  br_ec_public_key key = {.curve = BR_EC_secp256r1, .q = q, .qlen = sizeof q};
  if (sig_len != ECDSA_SIG_LEN)
    return MCORE_BAD_SIGNATURE;
  memcpy(q, pk, sizeof q);
  sha256(h, msg, msg_len);
  return br_ecdsa_i31_vrfy_raw(&br_ec_p256_m31, h, sizeof h, &key, sig, sig_len)
             ? MCORE_OK
             : MCORE_BAD_SIGNATURE;
}

static const mcore_sig_vt ecdsa_p256_vt = {.pk_len = P256_PK_LEN,
                                           .sk_len = P256_SK_LEN,
                                           .sig_len = ECDSA_SIG_LEN,
                                           .keygen = ecdsa_p256_keygen,
                                           .sign = ecdsa_p256_sign,
                                           .verify = ecdsa_p256_verify,
                                           .keygen_seed = NULL,
                                           .seed_len = 0};
#endif

/* ---- RSA-2048, RSASSA-PKCS1-v1_5 with SHA-256 (RFC 8017 section 8.2) ----- */

#if MERLIN_ROUTE_RSA_2048_BEARSSL
#define RSA_N_LEN 256
#define RSA_DER_MAX 4096 /* a 2048-bit RSAPrivateKey is about 1.2 KB */

/* The sign vtable hands over the DER RSAPrivateKey without its length: it
 * is read from the outer SEQUENCE header (X.690 8.1.3, definite form; DER
 * uses the shortest length encoding). This header read is our code; the
 * key itself is decoded by BearSSL's br_skey_decoder. */
static size_t der_sequence_len(const uint8_t *der) {
  size_t len, i, n;
  if (der[0] != 0x30) /* SEQUENCE, constructed */
    return 0;
  if (der[1] < 0x80)
    return 2u + der[1];
  n = der[1] & 0x7Fu;
  if (n == 0 || n > 2) /* indefinite form, or longer than RSA_DER_MAX */
    return 0;
  for (len = 0, i = 0; i < n; i++)
    len = (len << 8) | der[2 + i];
  len += 2u + n;
  return len <= RSA_DER_MAX ? len : 0;
}

/* The key is decoded (br_skey_decoder: PKCS #1 RSAPrivateKey, RFC 8017
 * A.1.2, into p, q, dP, dQ, qInv) within the measured call; the private
 * operation is the i31 CRT exponentiation. The decoder context (about
 * 2 KB) is on the stack. */
static int rsa2048_sign(uint8_t *sig, size_t *sig_len, const uint8_t *msg,
                        size_t msg_len, const uint8_t *sk) {
  br_skey_decoder_context dc;
  const br_rsa_private_key *k;
  uint8_t h[32];
  size_t der_len = der_sequence_len(sk);
  *sig_len = 0;
  if (der_len == 0)
    return MCORE_ERR;
  br_skey_decoder_init(&dc);
  br_skey_decoder_push(&dc, sk, der_len);
  k = br_skey_decoder_get_rsa(&dc);
  if (k == NULL || k->n_bitlen != 8 * RSA_N_LEN)
    return MCORE_ERR;
  sha256(h, msg, msg_len);
  if (!br_rsa_i31_pkcs1_sign(BR_HASH_OID_SHA256, h, sizeof h, k, sig))
    return MCORE_ERR;
  *sig_len = RSA_N_LEN;
  return MCORE_OK;
}

/* s^e mod n with e = 65537, then the EMSA-PKCS1-v1_5 check: BearSSL checks
 * the padding and the DigestInfo prefix for SHA-256 and returns the digest,
 * which is compared with SHA-256(msg) here. */
static int rsa2048_verify(const uint8_t *sig, size_t sig_len,
                          const uint8_t *msg, size_t msg_len,
                          const uint8_t *pk) {
  uint8_t n[RSA_N_LEN], e[3] = {0x01, 0x00, 0x01};
  uint8_t h[32], recovered[32];
  br_rsa_public_key key = {.n = n, .nlen = sizeof n, .e = e, .elen = sizeof e};
  uint8_t diff = 0;
  if (sig_len != RSA_N_LEN)
    return MCORE_BAD_SIGNATURE;
  memcpy(n, pk, sizeof n);
  if (!br_rsa_i31_pkcs1_vrfy(sig, sig_len, BR_HASH_OID_SHA256, sizeof h, &key,
                             recovered))
    return MCORE_BAD_SIGNATURE;
  sha256(h, msg, msg_len);
  for (size_t i = 0; i < sizeof h; i++)
    diff |= (uint8_t)(h[i] ^ recovered[i]);
  return diff == 0 ? MCORE_OK : MCORE_BAD_SIGNATURE;
}

static const mcore_sig_vt rsa2048_vt = {.pk_len = RSA_N_LEN,
                                        .sk_len = RSA_DER_MAX,
                                        .sig_len = RSA_N_LEN,
                                        .keygen = NULL,
                                        .sign = rsa2048_sign,
                                        .verify = rsa2048_verify,
                                        .keygen_seed = NULL,
                                        .seed_len = 0};
#endif

/* ---- registration -------------------------------------------------------- */

/* BearSSL has no global state to set up and never allocates. */
static int bearssl_backend_init(void) { return MCORE_OK; }

/* MCORE_IMPL also asserts, per entry, that the profile routes the algorithm
 * here (see mcore.h). */
#define BEARSSL_IMPL(ALG, VARIANT, IFACE, VT, NEEDS, WHAT)                     \
  MBE_WHEN(BEARSSL_ROUTED(ALG))(MCORE_IMPL(ALG, BEARSSL, VARIANT, IFACE, &VT), )
static const mcore_impl impls[] = {BEARSSL_IMPLS(BEARSSL_IMPL)};

const mcore_backend mbe_bearssl_backend = {.id = MCORE_BACKEND_BEARSSL,
                                           .library = "bearssl",
                                           .version = MERLIN_BEARSSL_VERSION,
                                           .init = bearssl_backend_init,
                                           .impls = impls,
                                           .n_impls =
                                               sizeof impls / sizeof impls[0]};
