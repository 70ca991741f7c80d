/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Mbed TLS adapter: SHA-256, HMAC-SHA-256, HKDF-SHA-256, ECDH P-256 and
 * deterministic ECDSA P-256, all through the PSA Crypto API and served by
 * Mbed TLS's built-in software drivers (variant "psa-builtin").
 *
 * PSA works on key identifiers, the harness on byte strings: every function
 * that needs a key imports it (or generates it), uses it and destroys it
 * before returning, on success and on failure alike. The import and destroy
 * (and, for ECC, the parsing and validation they imply) are part of the
 * measured operation, as mcore.h specifies for any import/export a library
 * needs.
 */
#include "mcore.h"
#include "merlin_profile.h"

#include <mbedtls/platform.h>
#include <psa/crypto.h>

#include <stddef.h>
#include <stdint.h>

/* ---- build-time routing assertions ---------------------------------------
 * psa/crypto.h has pulled in the finalised configuration (mbedtls_config.h,
 * merlin_psa_config.h and the library's adjustments). Every algorithm the
 * profile routes here must be enabled in PSA and be served by the built-in
 * software implementation, never by an accelerator driver or p256-m. */

#if defined(MBEDTLS_PSA_CRYPTO_DRIVERS) || defined(PSA_CRYPTO_DRIVER_TEST)
/* PSA accelerator drivers are configured */
#error "profile expects the built-in software implementation"
#endif
#if defined(MBEDTLS_PSA_P256M_DRIVER_ENABLED)
/* the p256-m driver is configured */
#error "profile expects the built-in software implementation"
#endif
#if defined(MBEDTLS_PSA_CRYPTO_SPM) || defined(MBEDTLS_PSA_CRYPTO_SE_C)
#error "profile expects the in-process PSA core with built-in drivers"
#endif
#if !defined(MBEDTLS_PSA_CRYPTO_C) || !defined(MBEDTLS_PSA_CRYPTO_EXTERNAL_RNG)
#error "mbedtls backend: needs PSA_CRYPTO_C and PSA_CRYPTO_EXTERNAL_RNG"
#endif

#if MERLIN_ROUTE_SHA256_MBEDTLS || MERLIN_ROUTE_HMAC_SHA256_MBEDTLS ||         \
    MERLIN_ROUTE_HKDF_SHA256_MBEDTLS || MERLIN_ROUTE_ECDSA_P256_MBEDTLS
#if !defined(PSA_WANT_ALG_SHA_256)
#error "profile routes SHA-256 to mbedtls: PSA_WANT_ALG_SHA_256 is off"
#endif
#if defined(MBEDTLS_PSA_ACCEL_ALG_SHA_256) || defined(MBEDTLS_SHA256_ALT) ||   \
    defined(MBEDTLS_SHA256_PROCESS_ALT) ||                                     \
    !defined(MBEDTLS_PSA_BUILTIN_ALG_SHA_256)
#error "profile expects the built-in software implementation (SHA-256)"
#endif
#endif

#if MERLIN_ROUTE_HMAC_SHA256_MBEDTLS || MERLIN_ROUTE_HKDF_SHA256_MBEDTLS
#if !defined(PSA_WANT_ALG_HMAC) || !defined(PSA_WANT_KEY_TYPE_HMAC)
#error "profile routes HMAC to mbedtls: PSA_WANT_ALG_HMAC/KEY_TYPE_HMAC is off"
#endif
#if defined(MBEDTLS_PSA_ACCEL_ALG_HMAC) ||                                     \
    defined(MBEDTLS_PSA_ACCEL_KEY_TYPE_HMAC) ||                                \
    !defined(MBEDTLS_PSA_BUILTIN_ALG_HMAC)
#error "profile expects the built-in software implementation (HMAC)"
#endif
#endif

#if MERLIN_ROUTE_HKDF_SHA256_MBEDTLS
#if !defined(PSA_WANT_ALG_HKDF)
#error "profile routes hkdf-sha256 to mbedtls: PSA_WANT_ALG_HKDF is off"
#endif
#if defined(MBEDTLS_PSA_ACCEL_ALG_HKDF) ||                                     \
    !defined(MBEDTLS_PSA_BUILTIN_ALG_HKDF)
#error "profile expects the built-in software implementation (HKDF)"
#endif
#endif

#if MERLIN_ROUTE_ECDH_P256_MBEDTLS || MERLIN_ROUTE_ECDSA_P256_MBEDTLS
#if !defined(PSA_WANT_ECC_SECP_R1_256) ||                                      \
    !defined(PSA_WANT_KEY_TYPE_ECC_PUBLIC_KEY) ||                              \
    !defined(PSA_WANT_KEY_TYPE_ECC_KEY_PAIR_IMPORT) ||                         \
    !defined(PSA_WANT_KEY_TYPE_ECC_KEY_PAIR_EXPORT) ||                         \
    !defined(PSA_WANT_KEY_TYPE_ECC_KEY_PAIR_GENERATE)
#error "profile routes P-256 to mbedtls: a P-256 PSA_WANT_xxx is off"
#endif
#if defined(MBEDTLS_PSA_ACCEL_ECC_SECP_R1_256) ||                              \
    defined(MBEDTLS_PSA_ACCEL_KEY_TYPE_ECC_PUBLIC_KEY) ||                      \
    defined(MBEDTLS_PSA_ACCEL_KEY_TYPE_ECC_KEY_PAIR_BASIC) ||                  \
    defined(MBEDTLS_PSA_ACCEL_KEY_TYPE_ECC_KEY_PAIR_IMPORT) ||                 \
    defined(MBEDTLS_PSA_ACCEL_KEY_TYPE_ECC_KEY_PAIR_EXPORT) ||                 \
    defined(MBEDTLS_PSA_ACCEL_KEY_TYPE_ECC_KEY_PAIR_GENERATE) ||               \
    defined(MBEDTLS_ECP_ALT) || defined(MBEDTLS_ECP_INTERNAL_ALT) ||           \
    !defined(MBEDTLS_PSA_BUILTIN_ECC_SECP_R1_256) ||                           \
    !defined(MBEDTLS_PSA_BUILTIN_KEY_TYPE_ECC_KEY_PAIR_GENERATE)
#error "profile expects the built-in software implementation (P-256)"
#endif
#endif

#if MERLIN_ROUTE_ECDH_P256_MBEDTLS
#if !defined(PSA_WANT_ALG_ECDH)
#error "profile routes ecdh-p256 to mbedtls: PSA_WANT_ALG_ECDH is off"
#endif
#if defined(MBEDTLS_PSA_ACCEL_ALG_ECDH) ||                                     \
    defined(MBEDTLS_ECDH_COMPUTE_SHARED_ALT) ||                                \
    defined(MBEDTLS_ECDH_GEN_PUBLIC_ALT) ||                                    \
    !defined(MBEDTLS_PSA_BUILTIN_ALG_ECDH)
#error "profile expects the built-in software implementation (ECDH)"
#endif
#endif

#if MERLIN_ROUTE_ECDSA_P256_MBEDTLS
#if !defined(PSA_WANT_ALG_DETERMINISTIC_ECDSA)
#error "profile routes ecdsa-p256 to mbedtls: deterministic ECDSA is off"
#endif
#if defined(MBEDTLS_PSA_ACCEL_ALG_DETERMINISTIC_ECDSA) ||                      \
    defined(MBEDTLS_PSA_ACCEL_ALG_ECDSA) || defined(MBEDTLS_ECDSA_SIGN_ALT) || \
    defined(MBEDTLS_ECDSA_VERIFY_ALT) || defined(MBEDTLS_ECDSA_GENKEY_ALT) ||  \
    !defined(MBEDTLS_PSA_BUILTIN_ALG_DETERMINISTIC_ECDSA)
#error "profile expects the built-in software implementation (ECDSA)"
#endif
#endif

/* ---- harness hooks ------------------------------------------------------ */

/* PSA's random generator (MBEDTLS_PSA_CRYPTO_EXTERNAL_RNG): the harness
 * stream, so key generation and ECDSA blinding are repeatable. */
psa_status_t
mbedtls_psa_external_get_random(mbedtls_psa_external_random_context_t *context,
                                uint8_t *output, size_t output_size,
                                size_t *output_length) {
  (void)context;
  mcore_rng_fill(output, output_size);
  *output_length = output_size;
  return PSA_SUCCESS;
}

static int status_to_mcore(psa_status_t s) {
  return s == PSA_SUCCESS ? MCORE_OK : MCORE_ERR;
}

/* ---- SHA-256 ------------------------------------------------------------ */

#if MERLIN_ROUTE_SHA256_MBEDTLS
static int sha256_hash(uint8_t *out, const uint8_t *msg, size_t len) {
  size_t out_len = 0;
  psa_status_t s =
      psa_hash_compute(PSA_ALG_SHA_256, msg, len, out, 32, &out_len);
  return s == PSA_SUCCESS && out_len == 32 ? MCORE_OK : MCORE_ERR;
}

static const mcore_hash_vt sha256_vt = {32, sha256_hash};
#endif

/* ---- HMAC-SHA-256 ------------------------------------------------------- */

#if MERLIN_ROUTE_HMAC_SHA256_MBEDTLS
static int hmac_sha256_mac(uint8_t *tag, const uint8_t *key, size_t key_len,
                           const uint8_t *msg, size_t len) {
  static const uint8_t zero_key[1] = {0};
  psa_key_attributes_t attr = PSA_KEY_ATTRIBUTES_INIT;
  mbedtls_svc_key_id_t id = MBEDTLS_SVC_KEY_ID_INIT;
  size_t tag_len = 0;
  psa_status_t s;
  /* PSA refuses empty keys. HMAC pads the key with zeros to the block size,
   * so the empty key and the one-byte key 0x00 are the same key. */
  if (key_len == 0) {
    key = zero_key;
    key_len = 1;
  }
  psa_set_key_type(&attr, PSA_KEY_TYPE_HMAC);
  psa_set_key_usage_flags(&attr, PSA_KEY_USAGE_SIGN_MESSAGE);
  psa_set_key_algorithm(&attr, PSA_ALG_HMAC(PSA_ALG_SHA_256));
  /* Import and destroy are part of the measured operation. */
  s = psa_import_key(&attr, key, key_len, &id);
  if (s != PSA_SUCCESS)
    return MCORE_ERR;
  s = psa_mac_compute(id, PSA_ALG_HMAC(PSA_ALG_SHA_256), msg, len, tag, 32,
                      &tag_len);
  if (psa_destroy_key(id) != PSA_SUCCESS)
    s = PSA_ERROR_GENERIC_ERROR;
  return s == PSA_SUCCESS && tag_len == 32 ? MCORE_OK : MCORE_ERR;
}

static const mcore_mac_vt hmac_sha256_vt = {32, hmac_sha256_mac};
#endif

/* ---- HKDF-SHA-256 ------------------------------------------------------- */

#if MERLIN_ROUTE_HKDF_SHA256_MBEDTLS
/* RFC 5869 extract-then-expand. The IKM is passed as bytes (PSA allows the
 * secret step from a buffer), so no key object is involved. An absent or
 * empty salt skips the salt step: Mbed TLS then extracts with an empty HMAC
 * key, which HMAC pads to the same block of zeros as RFC 5869's default salt
 * of HashLen zero bytes. Mbed TLS requires the info step even when info is
 * empty. */
static int hkdf_sha256_derive(uint8_t *okm, size_t okm_len, const uint8_t *salt,
                              size_t salt_len, const uint8_t *ikm,
                              size_t ikm_len, const uint8_t *info,
                              size_t info_len) {
  psa_key_derivation_operation_t op = PSA_KEY_DERIVATION_OPERATION_INIT;
  psa_status_t s = psa_key_derivation_setup(&op, PSA_ALG_HKDF(PSA_ALG_SHA_256));
  if (s == PSA_SUCCESS && salt != NULL && salt_len != 0)
    s = psa_key_derivation_input_bytes(&op, PSA_KEY_DERIVATION_INPUT_SALT, salt,
                                       salt_len);
  if (s == PSA_SUCCESS)
    s = psa_key_derivation_input_bytes(&op, PSA_KEY_DERIVATION_INPUT_SECRET,
                                       ikm, ikm_len);
  if (s == PSA_SUCCESS)
    s = psa_key_derivation_input_bytes(&op, PSA_KEY_DERIVATION_INPUT_INFO, info,
                                       info_len);
  if (s == PSA_SUCCESS)
    s = psa_key_derivation_output_bytes(&op, okm, okm_len);
  if (psa_key_derivation_abort(&op) != PSA_SUCCESS)
    s = PSA_ERROR_GENERIC_ERROR;
  return status_to_mcore(s);
}

static const mcore_kdf_vt hkdf_sha256_vt = {hkdf_sha256_derive};
#endif

/* ---- P-256 helpers ------------------------------------------------------ */

#if MERLIN_ROUTE_ECDH_P256_MBEDTLS || MERLIN_ROUTE_ECDSA_P256_MBEDTLS
#define P256_PK_LEN 65 /* SEC1 uncompressed point 0x04 || x || y */
#define P256_SK_LEN 32 /* big-endian private scalar */

static void p256_attributes(psa_key_attributes_t *attr, psa_key_type_t type,
                            psa_key_usage_t usage, psa_algorithm_t alg) {
  *attr = psa_key_attributes_init();
  psa_set_key_type(attr, type);
  psa_set_key_bits(attr, 256);
  psa_set_key_usage_flags(attr, usage);
  psa_set_key_algorithm(attr, alg);
}

/* A fresh key pair from the harness RNG, exported as the 65-byte public
 * point and the 32-byte private scalar, then destroyed. */
static int p256_keygen(uint8_t *pk, uint8_t *sk, psa_key_usage_t usage,
                       psa_algorithm_t alg) {
  psa_key_attributes_t attr;
  mbedtls_svc_key_id_t id = MBEDTLS_SVC_KEY_ID_INIT;
  size_t pk_len = 0, sk_len = 0;
  psa_status_t s;
  p256_attributes(&attr, PSA_KEY_TYPE_ECC_KEY_PAIR(PSA_ECC_FAMILY_SECP_R1),
                  usage | PSA_KEY_USAGE_EXPORT, alg);
  s = psa_generate_key(&attr, &id);
  if (s != PSA_SUCCESS)
    return MCORE_ERR;
  s = psa_export_public_key(id, pk, P256_PK_LEN, &pk_len);
  if (s == PSA_SUCCESS)
    s = psa_export_key(id, sk, P256_SK_LEN, &sk_len);
  if (psa_destroy_key(id) != PSA_SUCCESS)
    s = PSA_ERROR_GENERIC_ERROR;
  return s == PSA_SUCCESS && pk_len == P256_PK_LEN && sk_len == P256_SK_LEN
             ? MCORE_OK
             : MCORE_ERR;
}

/* Import a 32-byte private scalar as a P-256 key pair. */
static psa_status_t p256_import_sk(const uint8_t *sk, psa_key_usage_t usage,
                                   psa_algorithm_t alg,
                                   mbedtls_svc_key_id_t *id) {
  psa_key_attributes_t attr;
  p256_attributes(&attr, PSA_KEY_TYPE_ECC_KEY_PAIR(PSA_ECC_FAMILY_SECP_R1),
                  usage, alg);
  return psa_import_key(&attr, sk, P256_SK_LEN, id);
}
#endif

/* ---- ECDH P-256 --------------------------------------------------------- */

#if MERLIN_ROUTE_ECDH_P256_MBEDTLS
static int ecdh_p256_keygen(uint8_t *pk, uint8_t *sk) {
  return p256_keygen(pk, sk, PSA_KEY_USAGE_DERIVE, PSA_ALG_ECDH);
}

/* ss = x coordinate of sk * peer_pk (PSA's raw ECDH output, SP 800-56A).
 * The private key is imported and destroyed within the measured call; the
 * peer's point is validated by the library as part of the agreement. */
static int ecdh_p256_shared(uint8_t *ss, const uint8_t *sk,
                            const uint8_t *peer_pk) {
  mbedtls_svc_key_id_t id = MBEDTLS_SVC_KEY_ID_INIT;
  size_t ss_len = 0;
  psa_status_t s = p256_import_sk(sk, PSA_KEY_USAGE_DERIVE, PSA_ALG_ECDH, &id);
  if (s != PSA_SUCCESS)
    return MCORE_ERR;
  s = psa_raw_key_agreement(PSA_ALG_ECDH, id, peer_pk, P256_PK_LEN, ss, 32,
                            &ss_len);
  if (psa_destroy_key(id) != PSA_SUCCESS)
    s = PSA_ERROR_GENERIC_ERROR;
  return s == PSA_SUCCESS && ss_len == 32 ? MCORE_OK : MCORE_ERR;
}

static const mcore_ka_vt ecdh_p256_vt = {P256_PK_LEN, P256_SK_LEN, 32,
                                         ecdh_p256_keygen, ecdh_p256_shared};
#endif

/* ---- ECDSA P-256 (deterministic, RFC 6979, SHA-256) ------------------- */

#if MERLIN_ROUTE_ECDSA_P256_MBEDTLS
#define ECDSA_ALG PSA_ALG_DETERMINISTIC_ECDSA(PSA_ALG_SHA_256)
#define ECDSA_SIG_LEN PSA_ECDSA_SIGNATURE_SIZE(256) /* r || s, 64 bytes */

static int ecdsa_p256_keygen(uint8_t *pk, uint8_t *sk) {
  return p256_keygen(pk, sk,
                     PSA_KEY_USAGE_SIGN_MESSAGE | PSA_KEY_USAGE_VERIFY_MESSAGE,
                     ECDSA_ALG);
}

static int ecdsa_p256_sign(uint8_t *sig, size_t *sig_len, const uint8_t *msg,
                           size_t msg_len, const uint8_t *sk) {
  mbedtls_svc_key_id_t id = MBEDTLS_SVC_KEY_ID_INIT;
  psa_status_t s =
      p256_import_sk(sk, PSA_KEY_USAGE_SIGN_MESSAGE, ECDSA_ALG, &id);
  if (s != PSA_SUCCESS)
    return MCORE_ERR;
  *sig_len = 0;
  s = psa_sign_message(id, ECDSA_ALG, msg, msg_len, sig, ECDSA_SIG_LEN,
                       sig_len);
  if (psa_destroy_key(id) != PSA_SUCCESS)
    s = PSA_ERROR_GENERIC_ERROR;
  return s == PSA_SUCCESS && *sig_len == ECDSA_SIG_LEN ? MCORE_OK : MCORE_ERR;
}

static int ecdsa_p256_verify(const uint8_t *sig, size_t sig_len,
                             const uint8_t *msg, size_t msg_len,
                             const uint8_t *pk) {
  psa_key_attributes_t attr;
  mbedtls_svc_key_id_t id = MBEDTLS_SVC_KEY_ID_INIT;
  psa_status_t s;
  /* Importing a public key checks that the point is on the curve. */
  p256_attributes(&attr, PSA_KEY_TYPE_ECC_PUBLIC_KEY(PSA_ECC_FAMILY_SECP_R1),
                  PSA_KEY_USAGE_VERIFY_MESSAGE, ECDSA_ALG);
  s = psa_import_key(&attr, pk, P256_PK_LEN, &id);
  if (s != PSA_SUCCESS)
    return MCORE_ERR;
  s = psa_verify_message(id, ECDSA_ALG, msg, msg_len, sig, sig_len);
  if (psa_destroy_key(id) != PSA_SUCCESS)
    return MCORE_ERR;
  if (s == PSA_SUCCESS)
    return MCORE_OK;
  return s == PSA_ERROR_INVALID_SIGNATURE ? MCORE_BAD_SIGNATURE : MCORE_ERR;
}

static const mcore_sig_vt ecdsa_p256_vt = {
    P256_PK_LEN,     P256_SK_LEN,       ECDSA_SIG_LEN, ecdsa_p256_keygen,
    ecdsa_p256_sign, ecdsa_p256_verify, NULL,          0};
#endif

/* ---- registration ------------------------------------------------------- */

static int mbedtls_backend_init(void) {
  /* Every allocation of the library goes through the harness allocator (so
   * heap use is measured); set before PSA allocates anything. */
  if (mbedtls_platform_set_calloc_free(mcore_calloc, mcore_free) != 0)
    return MCORE_ERR;
  return status_to_mcore(psa_crypto_init());
}

#define VARIANT "psa-builtin"

static const mcore_impl impls[] = {
#if MERLIN_ROUTE_SHA256_MBEDTLS
    {MCORE_ALG_SHA256, MCORE_BACKEND_MBEDTLS, VARIANT, {.hash = &sha256_vt}},
#endif
#if MERLIN_ROUTE_HMAC_SHA256_MBEDTLS
    {MCORE_ALG_HMAC_SHA256,
     MCORE_BACKEND_MBEDTLS,
     VARIANT,
     {.mac = &hmac_sha256_vt}},
#endif
#if MERLIN_ROUTE_HKDF_SHA256_MBEDTLS
    {MCORE_ALG_HKDF_SHA256,
     MCORE_BACKEND_MBEDTLS,
     VARIANT,
     {.kdf = &hkdf_sha256_vt}},
#endif
#if MERLIN_ROUTE_ECDH_P256_MBEDTLS
    {MCORE_ALG_ECDH_P256,
     MCORE_BACKEND_MBEDTLS,
     VARIANT,
     {.ka = &ecdh_p256_vt}},
#endif
#if MERLIN_ROUTE_ECDSA_P256_MBEDTLS
    {MCORE_ALG_ECDSA_P256,
     MCORE_BACKEND_MBEDTLS,
     VARIANT,
     {.sig = &ecdsa_p256_vt}},
#endif
};

const mcore_backend mbe_mbedtls_backend = {
    MCORE_BACKEND_MBEDTLS, "mbedtls", MERLIN_MBEDTLS_VERSION,
    mbedtls_backend_init,  impls,     sizeof impls / sizeof impls[0]};
