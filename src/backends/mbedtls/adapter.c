/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Mbed TLS adapter: SHA-256, SHA3-256, HMAC-SHA-256, HKDF-SHA-256,
 * AES-128/256-GCM, AES-128-CCM, ECDH P-256, X25519, FFDHE-2048,
 * deterministic ECDSA P-256 and RSA-2048 PKCS #1 v1.5 signatures, all
 * through the PSA Crypto API and served by Mbed TLS's built-in software
 * drivers (variant "psa-builtin"; "psa-builtin-aesrom" for the AES-based
 * entries when the profile puts the AES tables in flash).
 *
 * PSA works on key identifiers, the harness on byte strings: every
 * public-key function imports (or generates) its key, uses it and destroys
 * it before returning, on success and on failure alike. The import and
 * destroy (and the parsing and validation they imply) are part of the
 * measured operation, as mcore.h specifies for any import/export a library
 * needs. AEAD keys are the exception: setup imports the key into the
 * caller's context and cleanup destroys it.
 */
#include "mbe_route.h"
#include "mcore.h"
#include "merlin_profile.h"

#include <mbedtls/platform.h>
#include <psa/crypto.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- build-time routing assertions ---------------------------------------
 * psa/crypto.h has pulled in the finalised configuration (mbedtls_config.h,
 * merlin_psa_config.h and the library's adjustments). backend.cmake
 * configures the library (MERLIN_MBEDTLS_HAS_<ALG>): a size image for
 * exactly what MERLIN_PROFILE_ROUTES gives here (MERLIN_MBEDTLS_EXACT),
 * which must agree with merlin_profile.h in both directions; an ordinary
 * image for every algorithm offered, which must include what is routed. Every
 * algorithm the profile routes here must then be enabled in PSA and be served
 * by the built-in software implementation, never by an accelerator driver, an
 * _ALT replacement or p256-m. */

/* The pairs this adapter serves, each written once: algorithm
 * (MCORE_ALG_<ALG>), variant label, interface and vtable. The agreement
 * check just below and impls[] are derived from it (src/backends/mbe_route.h);
 * the PSA checks that follow are per feature, not per pair. */
#define MBEDTLS_IMPLS(X)                                                       \
  X(SHA256, VARIANT, hash, sha256_vt)                                          \
  X(SHA3_256, VARIANT, hash, sha3_256_vt)                                      \
  X(HMAC_SHA256, VARIANT, mac, hmac_sha256_vt)                                 \
  X(HKDF_SHA256, VARIANT, kdf, hkdf_sha256_vt)                                 \
  X(AES_128_GCM, AES_VARIANT, aead, aes_128_gcm_vt)                            \
  X(AES_256_GCM, AES_VARIANT, aead, aes_256_gcm_vt)                            \
  X(AES_128_CCM, AES_VARIANT, aead, aes_128_ccm_vt)                            \
  X(ECDH_P256, VARIANT, ka, ecdh_p256_vt)                                      \
  X(X25519, VARIANT, ka, x25519_vt)                                            \
  X(FFDHE_2048, VARIANT, ka, ffdhe_2048_vt)                                    \
  X(ECDSA_P256, VARIANT, sig, ecdsa_p256_vt)                                   \
  X(RSA_2048, VARIANT, sig, rsa_2048_vt)
#define MBEDTLS_ROUTED(ALG) MBE_ROUTED(MERLIN_ROUTE_##ALG##_MBEDTLS)

#define MBEDTLS_AGREE(ALG, VARIANT_, IFACE, VT)                                \
  _Static_assert(                                                              \
      MBE_ROUTED(MERLIN_MBEDTLS_HAS_##ALG) ==                                  \
          (MBEDTLS_ROUTED(ALG) || !MBE_ROUTED(MERLIN_MBEDTLS_EXACT)),          \
      "mbedtls: " #ALG " routing and the Mbed TLS build disagree");
MBEDTLS_IMPLS(MBEDTLS_AGREE)

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
    MERLIN_ROUTE_HKDF_SHA256_MBEDTLS || MERLIN_ROUTE_ECDSA_P256_MBEDTLS ||     \
    MERLIN_ROUTE_RSA_2048_MBEDTLS
#if !defined(PSA_WANT_ALG_SHA_256)
#error "profile routes SHA-256 to mbedtls: PSA_WANT_ALG_SHA_256 is off"
#endif
#if defined(MBEDTLS_PSA_ACCEL_ALG_SHA_256) || defined(MBEDTLS_SHA256_ALT) ||   \
    defined(MBEDTLS_SHA256_PROCESS_ALT) ||                                     \
    defined(MBEDTLS_SHA256_USE_ARMV8_A_CRYPTO_IF_PRESENT) ||                   \
    defined(MBEDTLS_SHA256_USE_ARMV8_A_CRYPTO_ONLY) ||                         \
    !defined(MBEDTLS_PSA_BUILTIN_ALG_SHA_256)
#error "profile expects the built-in software implementation (SHA-256)"
#endif
#endif

#if MERLIN_ROUTE_SHA3_256_MBEDTLS
#if !defined(PSA_WANT_ALG_SHA3_256)
#error "profile routes sha3-256 to mbedtls: PSA_WANT_ALG_SHA3_256 is off"
#endif
#if defined(MBEDTLS_PSA_ACCEL_ALG_SHA3_256) ||                                 \
    !defined(MBEDTLS_PSA_BUILTIN_ALG_SHA3_256) || !defined(MBEDTLS_SHA3_C)
#error "profile expects the built-in software implementation (SHA3-256)"
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

#if MERLIN_ROUTE_AES_128_GCM_MBEDTLS || MERLIN_ROUTE_AES_256_GCM_MBEDTLS ||    \
    MERLIN_ROUTE_AES_128_CCM_MBEDTLS
#if !defined(PSA_WANT_KEY_TYPE_AES)
#error "profile routes AES to mbedtls: PSA_WANT_KEY_TYPE_AES is off"
#endif
/* The table-driven C AES: no driver, no _ALT, no AES-NI / AESCE / Padlock
 * instructions (which would replace it on the host). */
#if defined(MBEDTLS_PSA_ACCEL_KEY_TYPE_AES) ||                                 \
    !defined(MBEDTLS_PSA_BUILTIN_KEY_TYPE_AES) || defined(MBEDTLS_AES_ALT) ||  \
    defined(MBEDTLS_AES_SETKEY_ENC_ALT) ||                                     \
    defined(MBEDTLS_AES_SETKEY_DEC_ALT) || defined(MBEDTLS_AES_ENCRYPT_ALT) || \
    defined(MBEDTLS_AES_DECRYPT_ALT) || defined(MBEDTLS_AESNI_C) ||            \
    defined(MBEDTLS_AESCE_C) || defined(MBEDTLS_PADLOCK_C) ||                  \
    defined(MBEDTLS_AES_USE_HARDWARE_ONLY)
#error "profile expects the built-in software implementation (AES)"
#endif
/* The table placement the profile asked for (mbedtls.aes_tables). */
#if (MERLIN_MBEDTLS_AES_ROM_TABLES + 0) != defined(MBEDTLS_AES_ROM_TABLES)
#error "mbedtls.aes_tables and MBEDTLS_AES_ROM_TABLES disagree"
#endif
#endif

#if MERLIN_ROUTE_AES_128_GCM_MBEDTLS || MERLIN_ROUTE_AES_256_GCM_MBEDTLS
#if !defined(PSA_WANT_ALG_GCM)
#error "profile routes AES-GCM to mbedtls: PSA_WANT_ALG_GCM is off"
#endif
#if defined(MBEDTLS_PSA_ACCEL_ALG_GCM) || defined(MBEDTLS_GCM_ALT) ||          \
    !defined(MBEDTLS_PSA_BUILTIN_ALG_GCM)
#error "profile expects the built-in software implementation (GCM)"
#endif
#endif

#if MERLIN_ROUTE_AES_128_CCM_MBEDTLS
#if !defined(PSA_WANT_ALG_CCM)
#error "profile routes aes-128-ccm to mbedtls: PSA_WANT_ALG_CCM is off"
#endif
#if defined(MBEDTLS_PSA_ACCEL_ALG_CCM) || defined(MBEDTLS_CCM_ALT) ||          \
    !defined(MBEDTLS_PSA_BUILTIN_ALG_CCM)
#error "profile expects the built-in software implementation (CCM)"
#endif
#endif

#if MERLIN_ROUTE_ECDH_P256_MBEDTLS || MERLIN_ROUTE_ECDSA_P256_MBEDTLS ||       \
    MERLIN_ROUTE_X25519_MBEDTLS
#if !defined(PSA_WANT_KEY_TYPE_ECC_PUBLIC_KEY) ||                              \
    !defined(PSA_WANT_KEY_TYPE_ECC_KEY_PAIR_IMPORT) ||                         \
    !defined(PSA_WANT_KEY_TYPE_ECC_KEY_PAIR_EXPORT) ||                         \
    !defined(PSA_WANT_KEY_TYPE_ECC_KEY_PAIR_GENERATE)
#error "profile routes ECC to mbedtls: an ECC key type PSA_WANT_xxx is off"
#endif
#if defined(MBEDTLS_PSA_ACCEL_KEY_TYPE_ECC_PUBLIC_KEY) ||                      \
    defined(MBEDTLS_PSA_ACCEL_KEY_TYPE_ECC_KEY_PAIR_BASIC) ||                  \
    defined(MBEDTLS_PSA_ACCEL_KEY_TYPE_ECC_KEY_PAIR_IMPORT) ||                 \
    defined(MBEDTLS_PSA_ACCEL_KEY_TYPE_ECC_KEY_PAIR_EXPORT) ||                 \
    defined(MBEDTLS_PSA_ACCEL_KEY_TYPE_ECC_KEY_PAIR_GENERATE) ||               \
    defined(MBEDTLS_ECP_ALT) || defined(MBEDTLS_ECP_INTERNAL_ALT) ||           \
    !defined(MBEDTLS_PSA_BUILTIN_KEY_TYPE_ECC_KEY_PAIR_GENERATE)
#error "profile expects the built-in software implementation (ECC keys)"
#endif
#endif

#if MERLIN_ROUTE_ECDH_P256_MBEDTLS || MERLIN_ROUTE_ECDSA_P256_MBEDTLS
#if !defined(PSA_WANT_ECC_SECP_R1_256)
#error "profile routes P-256 to mbedtls: PSA_WANT_ECC_SECP_R1_256 is off"
#endif
#if defined(MBEDTLS_PSA_ACCEL_ECC_SECP_R1_256) ||                              \
    !defined(MBEDTLS_PSA_BUILTIN_ECC_SECP_R1_256)
#error "profile expects the built-in software implementation (P-256)"
#endif
#endif

#if MERLIN_ROUTE_X25519_MBEDTLS
#if !defined(PSA_WANT_ECC_MONTGOMERY_255)
#error "profile routes x25519 to mbedtls: PSA_WANT_ECC_MONTGOMERY_255 is off"
#endif
/* The library's own Montgomery ladder (ecp.c), not Everest/HACL*. */
#if defined(MBEDTLS_PSA_ACCEL_ECC_MONTGOMERY_255) ||                           \
    defined(MBEDTLS_ECDH_VARIANT_EVEREST_ENABLED) ||                           \
    !defined(MBEDTLS_PSA_BUILTIN_ECC_MONTGOMERY_255)
#error "profile expects the built-in software implementation (Curve25519)"
#endif
#endif

#if MERLIN_ROUTE_ECDH_P256_MBEDTLS || MERLIN_ROUTE_X25519_MBEDTLS
#if !defined(PSA_WANT_ALG_ECDH)
#error "profile routes ECDH to mbedtls: PSA_WANT_ALG_ECDH is off"
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

#if MERLIN_ROUTE_FFDHE_2048_MBEDTLS
#if !defined(PSA_WANT_ALG_FFDH) || !defined(PSA_WANT_DH_RFC7919_2048) ||       \
    !defined(PSA_WANT_KEY_TYPE_DH_KEY_PAIR_IMPORT) ||                          \
    !defined(PSA_WANT_KEY_TYPE_DH_KEY_PAIR_EXPORT) ||                          \
    !defined(PSA_WANT_KEY_TYPE_DH_KEY_PAIR_GENERATE)
#error "profile routes ffdhe-2048 to mbedtls: an FFDH PSA_WANT_xxx is off"
#endif
#if defined(MBEDTLS_PSA_ACCEL_ALG_FFDH) ||                                     \
    defined(MBEDTLS_PSA_ACCEL_DH_RFC7919_2048) ||                              \
    defined(MBEDTLS_PSA_ACCEL_KEY_TYPE_DH_KEY_PAIR_IMPORT) ||                  \
    defined(MBEDTLS_PSA_ACCEL_KEY_TYPE_DH_KEY_PAIR_EXPORT) ||                  \
    defined(MBEDTLS_PSA_ACCEL_KEY_TYPE_DH_KEY_PAIR_GENERATE) ||                \
    !defined(MBEDTLS_PSA_BUILTIN_ALG_FFDH) ||                                  \
    !defined(MBEDTLS_PSA_BUILTIN_DH_RFC7919_2048) ||                           \
    !defined(MBEDTLS_PSA_BUILTIN_KEY_TYPE_DH_KEY_PAIR_GENERATE)
#error "profile expects the built-in software implementation (FFDH)"
#endif
#endif

#if MERLIN_ROUTE_RSA_2048_MBEDTLS
#if !defined(PSA_WANT_ALG_RSA_PKCS1V15_SIGN) ||                                \
    !defined(PSA_WANT_KEY_TYPE_RSA_PUBLIC_KEY) ||                              \
    !defined(PSA_WANT_KEY_TYPE_RSA_KEY_PAIR_IMPORT)
#error "profile routes rsa-2048 to mbedtls: an RSA PSA_WANT_xxx is off"
#endif
#if defined(MBEDTLS_PSA_ACCEL_ALG_RSA_PKCS1V15_SIGN) ||                        \
    defined(MBEDTLS_PSA_ACCEL_KEY_TYPE_RSA_PUBLIC_KEY) ||                      \
    defined(MBEDTLS_PSA_ACCEL_KEY_TYPE_RSA_KEY_PAIR_IMPORT) ||                 \
    defined(MBEDTLS_RSA_ALT) ||                                                \
    !defined(MBEDTLS_PSA_BUILTIN_ALG_RSA_PKCS1V15_SIGN) ||                     \
    !defined(MBEDTLS_PSA_BUILTIN_KEY_TYPE_RSA_KEY_PAIR_IMPORT) ||              \
    !defined(MBEDTLS_PSA_BUILTIN_KEY_TYPE_RSA_PUBLIC_KEY)
#error "profile expects the built-in software implementation (RSA)"
#endif
#endif

#if MERLIN_ROUTE_RSA_2048_MBEDTLS || MERLIN_ROUTE_FFDHE_2048_MBEDTLS
#if MBEDTLS_MPI_MAX_SIZE < 256
#error "RSA-2048 and FFDHE-2048 need MBEDTLS_MPI_MAX_SIZE >= 256 bytes"
#endif
#endif

/* ---- harness hooks ------------------------------------------------------ */

/* PSA's random generator (MBEDTLS_PSA_CRYPTO_EXTERNAL_RNG): the harness
 * stream, so key generation and ECDSA/RSA blinding are repeatable. */
psa_status_t
mbedtls_psa_external_get_random(mbedtls_psa_external_random_context_t *context,
                                uint8_t *output, size_t output_size,
                                size_t *output_length) {
  (void)context;
  mcore_rng_fill(output, output_size);
  *output_length = output_size;
  return PSA_SUCCESS;
}

/* unused in some profiles: clang warns about an unused static inline */
__attribute__((unused)) static inline int status_to_mcore(psa_status_t s) {
  return s == PSA_SUCCESS ? MCORE_OK : MCORE_ERR;
}

/* Attributes of a volatile key (unused in some profiles: clang warns about
 * an unused static inline). */
__attribute__((unused)) static inline void
key_attributes(psa_key_attributes_t *attr, psa_key_type_t type, size_t bits,
               psa_key_usage_t usage, psa_algorithm_t alg) {
  *attr = psa_key_attributes_init();
  psa_set_key_type(attr, type);
  psa_set_key_bits(attr, bits);
  psa_set_key_usage_flags(attr, usage);
  psa_set_key_algorithm(attr, alg);
}

/* ---- SHA-256, SHA3-256 -------------------------------------------------- */

#if MERLIN_ROUTE_SHA256_MBEDTLS
static int sha256_hash(uint8_t *out, const uint8_t *msg, size_t len) {
  size_t out_len = 0;
  psa_status_t s =
      psa_hash_compute(PSA_ALG_SHA_256, msg, len, out, 32, &out_len);
  return s == PSA_SUCCESS && out_len == 32 ? MCORE_OK : MCORE_ERR;
}

static const mcore_hash_vt sha256_vt = {.digest_len = 32, .hash = sha256_hash};
#endif

#if MERLIN_ROUTE_SHA3_256_MBEDTLS
/* FIPS 202 SHA3-256, PSA's built-in driver on sha3.c (Keccak-f[1600] in
 * C). */
static int sha3_256_hash(uint8_t *out, const uint8_t *msg, size_t len) {
  size_t out_len = 0;
  psa_status_t s =
      psa_hash_compute(PSA_ALG_SHA3_256, msg, len, out, 32, &out_len);
  return s == PSA_SUCCESS && out_len == 32 ? MCORE_OK : MCORE_ERR;
}

static const mcore_hash_vt sha3_256_vt = {.digest_len = 32,
                                          .hash = sha3_256_hash};
#endif

/* ---- HMAC-SHA-256 ------------------------------------------------------- */

#if MERLIN_ROUTE_HMAC_SHA256_MBEDTLS
static int hmac_sha256_mac(uint8_t *tag, const uint8_t *key, size_t key_len,
                           const uint8_t *msg, size_t len) {
  static const uint8_t zero_key[1] = {0};
  psa_key_attributes_t attr;
  mbedtls_svc_key_id_t id = MBEDTLS_SVC_KEY_ID_INIT;
  size_t tag_len = 0;
  psa_status_t s;
  /* PSA refuses empty keys. HMAC pads the key with zeros to the block size
   * (RFC 2104 section 2), so the empty key and the one-byte key 0x00 are the
   * same key. */
  if (key_len == 0) {
    key = zero_key;
    key_len = 1;
  }
  /* bits 0: PSA takes the size from the data. */
  key_attributes(&attr, PSA_KEY_TYPE_HMAC, 0, PSA_KEY_USAGE_SIGN_MESSAGE,
                 PSA_ALG_HMAC(PSA_ALG_SHA_256));
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

static const mcore_mac_vt hmac_sha256_vt = {.tag_len = 32,
                                            .mac = hmac_sha256_mac};
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

static const mcore_kdf_vt hkdf_sha256_vt = {.derive = hkdf_sha256_derive};
#endif

/* ---- AEAD: AES-GCM (SP 800-38D), AES-CCM (SP 800-38C) ------------------- */

#if MERLIN_ROUTE_AES_128_GCM_MBEDTLS || MERLIN_ROUTE_AES_256_GCM_MBEDTLS ||    \
    MERLIN_ROUTE_AES_128_CCM_MBEDTLS
#define AEAD_TAG_LEN 16
/* Longest message the adapter encrypts or decrypts (the harness uses at
 * most MOPS_MSG_MAX = 256 bytes; known-answer vectors are shorter). */
#define AEAD_MAX_LEN 1024
/* Marks a context that holds a live key (see aead_setup). */
#define AEAD_LIVE 0x4d424541u /* "MBEA" */

/* The caller-provided context: the key lives in the PSA key store from
 * setup to cleanup; the context holds its identifier. PSA keeps no key
 * schedule between calls: every psa_aead_encrypt/decrypt runs the AES key
 * expansion (and for GCM the GHASH table) on the stored key bytes, which is
 * how the built-in driver works (psa_crypto_aead.c, psa_aead_setup). So
 * "setup" here times the key import only, and encrypt/decrypt include the
 * key schedule: the cost a PSA application actually pays. */
typedef struct {
  uint32_t live; /* AEAD_LIVE between setup and cleanup */
  mbedtls_svc_key_id_t id;
  psa_algorithm_t alg; /* PSA_ALG_GCM or PSA_ALG_CCM (16-byte tags) */
  size_t nonce_len;    /* GCM 12, CCM 13 */
} aead_ctx;

/* PSA's one-shot AEAD works on ciphertext || tag in one buffer, the harness
 * on separate ciphertext and tag: both directions go through this buffer
 * (static, so the adapter adds nothing to the measured stack or heap; the
 * split and join copies are part of the measured operation). */
static uint8_t aead_joined[AEAD_MAX_LEN + AEAD_TAG_LEN];

MBE_SHARED static void aead_cleanup(void *vctx) {
  aead_ctx *c = vctx;
  if (c->live == AEAD_LIVE)
    (void)psa_destroy_key(c->id);
  c->live = 0;
  c->id = MBEDTLS_SVC_KEY_ID_INIT;
}

MBE_SHARED static int aead_setup(void *vctx, const uint8_t *key,
                                 size_t key_bits, psa_algorithm_t alg,
                                 size_t nonce_len) {
  aead_ctx *c = vctx;
  psa_key_attributes_t attr;
  psa_status_t s;
  /* A context set up again without cleanup still holds its key: release it
   * rather than leak a slot of the fixed key store (MBEDTLS_PSA_KEY_SLOT_
   * COUNT). src/ops/ops_aead.c prepares encrypt/decrypt/auth with setup and
   * never calls cleanup. A fresh context (zeroed, or cleaned up) does not
   * carry the AEAD_LIVE mark. */
  if (c->live == AEAD_LIVE)
    aead_cleanup(c);
  c->live = 0;
  c->alg = alg;
  c->nonce_len = nonce_len;
  key_attributes(&attr, PSA_KEY_TYPE_AES, key_bits,
                 PSA_KEY_USAGE_ENCRYPT | PSA_KEY_USAGE_DECRYPT, alg);
  s = psa_import_key(&attr, key, key_bits / 8, &c->id);
  if (s != PSA_SUCCESS)
    return MCORE_ERR;
  c->live = AEAD_LIVE;
  return MCORE_OK;
}

MBE_SHARED static int aead_encrypt(void *vctx, uint8_t *ct, uint8_t *tag,
                                   const uint8_t *nonce, const uint8_t *aad,
                                   size_t aad_len, const uint8_t *pt,
                                   size_t len) {
  const aead_ctx *c = vctx;
  size_t out_len = 0;
  psa_status_t s;
  if (c->live != AEAD_LIVE || len > AEAD_MAX_LEN)
    return MCORE_ERR;
  s = psa_aead_encrypt(c->id, c->alg, nonce, c->nonce_len, aad, aad_len, pt,
                       len, aead_joined, len + AEAD_TAG_LEN, &out_len);
  if (s != PSA_SUCCESS || out_len != len + AEAD_TAG_LEN)
    return MCORE_ERR;
  /* Split: PSA appends the tag to the ciphertext. */
  if (len != 0)
    memcpy(ct, aead_joined, len);
  memcpy(tag, aead_joined + len, AEAD_TAG_LEN);
  return MCORE_OK;
}

MBE_SHARED static int aead_decrypt(void *vctx, uint8_t *pt,
                                   const uint8_t *nonce, const uint8_t *aad,
                                   size_t aad_len, const uint8_t *ct,
                                   size_t len, const uint8_t *tag) {
  const aead_ctx *c = vctx;
  size_t out_len = 0;
  psa_status_t s;
  if (c->live != AEAD_LIVE || len > AEAD_MAX_LEN)
    return MCORE_ERR;
  /* Join: PSA expects ciphertext || tag. */
  if (len != 0)
    memcpy(aead_joined, ct, len);
  memcpy(aead_joined + len, tag, AEAD_TAG_LEN);
  s = psa_aead_decrypt(c->id, c->alg, nonce, c->nonce_len, aad, aad_len,
                       aead_joined, len + AEAD_TAG_LEN, pt, len, &out_len);
  if (s == PSA_ERROR_INVALID_SIGNATURE)
    return MCORE_BAD_SIGNATURE;
  return s == PSA_SUCCESS && out_len == len ? MCORE_OK : MCORE_ERR;
}
#endif

#if MERLIN_ROUTE_AES_128_GCM_MBEDTLS
static int aes_128_gcm_setup(void *ctx, const uint8_t *key) {
  return aead_setup(ctx, key, 128, PSA_ALG_GCM, 12);
}

static const mcore_aead_vt aes_128_gcm_vt = {.key_len = 16,
                                             .nonce_len = 12,
                                             .tag_len = AEAD_TAG_LEN,
                                             .ctx_size = sizeof(aead_ctx),
                                             .setup = aes_128_gcm_setup,
                                             .encrypt = aead_encrypt,
                                             .decrypt = aead_decrypt,
                                             .cleanup = aead_cleanup};
#endif

#if MERLIN_ROUTE_AES_256_GCM_MBEDTLS
static int aes_256_gcm_setup(void *ctx, const uint8_t *key) {
  return aead_setup(ctx, key, 256, PSA_ALG_GCM, 12);
}

static const mcore_aead_vt aes_256_gcm_vt = {.key_len = 32,
                                             .nonce_len = 12,
                                             .tag_len = AEAD_TAG_LEN,
                                             .ctx_size = sizeof(aead_ctx),
                                             .setup = aes_256_gcm_setup,
                                             .encrypt = aead_encrypt,
                                             .decrypt = aead_decrypt,
                                             .cleanup = aead_cleanup};
#endif

#if MERLIN_ROUTE_AES_128_CCM_MBEDTLS
/* PSA_ALG_CCM: 16-byte tag; a 13-byte nonce leaves a 2-byte length field
 * (SP 800-38C A.2: q = 15 - n = 2, messages below 64 KB). */
static int aes_128_ccm_setup(void *ctx, const uint8_t *key) {
  return aead_setup(ctx, key, 128, PSA_ALG_CCM, 13);
}

static const mcore_aead_vt aes_128_ccm_vt = {.key_len = 16,
                                             .nonce_len = 13,
                                             .tag_len = AEAD_TAG_LEN,
                                             .ctx_size = sizeof(aead_ctx),
                                             .setup = aes_128_ccm_setup,
                                             .encrypt = aead_encrypt,
                                             .decrypt = aead_decrypt,
                                             .cleanup = aead_cleanup};
#endif

/* ---- key pairs (ECC, DH) ------------------------------------------------- */

#if MERLIN_ROUTE_ECDH_P256_MBEDTLS || MERLIN_ROUTE_ECDSA_P256_MBEDTLS ||       \
    MERLIN_ROUTE_X25519_MBEDTLS || MERLIN_ROUTE_FFDHE_2048_MBEDTLS
/* A fresh key pair from the harness RNG, exported as the public key
 * (pk_len bytes) and the private key (sk_len bytes), then destroyed.
 * With pad_sk, a shorter private key export is a big-endian integer and is
 * left-padded with zeros to sk_len (FFDHE); otherwise it must be exactly
 * sk_len bytes. */
MBE_SHARED static int keypair_generate(uint8_t *pk, size_t pk_len, uint8_t *sk,
                                       size_t sk_len, int pad_sk,
                                       psa_key_type_t type, size_t bits,
                                       psa_key_usage_t usage,
                                       psa_algorithm_t alg) {
  psa_key_attributes_t attr;
  mbedtls_svc_key_id_t id = MBEDTLS_SVC_KEY_ID_INIT;
  size_t got_pk = 0, got_sk = 0;
  psa_status_t s;
  key_attributes(&attr, type, bits, usage | PSA_KEY_USAGE_EXPORT, alg);
  s = psa_generate_key(&attr, &id);
  if (s != PSA_SUCCESS)
    return MCORE_ERR;
  s = psa_export_public_key(id, pk, pk_len, &got_pk);
  if (s == PSA_SUCCESS)
    s = psa_export_key(id, sk, sk_len, &got_sk);
  if (psa_destroy_key(id) != PSA_SUCCESS)
    s = PSA_ERROR_GENERIC_ERROR;
  if (s != PSA_SUCCESS || got_pk != pk_len || got_sk == 0 || got_sk > sk_len)
    return MCORE_ERR;
  if (got_sk != sk_len) {
    if (!pad_sk)
      return MCORE_ERR;
    memmove(sk + (sk_len - got_sk), sk, got_sk);
    memset(sk, 0, sk_len - got_sk);
  }
  return MCORE_OK;
}
#endif

/* ECDSA alone needs no agreement (the function would be unused). */
#if MERLIN_ROUTE_ECDH_P256_MBEDTLS || MERLIN_ROUTE_X25519_MBEDTLS ||           \
    MERLIN_ROUTE_FFDHE_2048_MBEDTLS
/* Raw key agreement (psa_raw_key_agreement) with our private key sk, imported
 * for the call, and the peer's public key as bytes (validated by the
 * library as part of the agreement). The secret is ss_len bytes; with
 * pad_ss a shorter one is a big-endian integer, left-padded (FFDHE). */
MBE_SHARED static int keypair_agree(uint8_t *ss, size_t ss_len, int pad_ss,
                                    const uint8_t *sk, size_t sk_len,
                                    const uint8_t *peer_pk, size_t pk_len,
                                    psa_key_type_t type, size_t bits,
                                    psa_algorithm_t alg) {
  psa_key_attributes_t attr;
  mbedtls_svc_key_id_t id = MBEDTLS_SVC_KEY_ID_INIT;
  size_t got = 0;
  psa_status_t s;
  key_attributes(&attr, type, bits, PSA_KEY_USAGE_DERIVE, alg);
  s = psa_import_key(&attr, sk, sk_len, &id);
  if (s != PSA_SUCCESS)
    return MCORE_ERR;
  s = psa_raw_key_agreement(alg, id, peer_pk, pk_len, ss, ss_len, &got);
  if (psa_destroy_key(id) != PSA_SUCCESS)
    s = PSA_ERROR_GENERIC_ERROR;
  if (s != PSA_SUCCESS || got == 0 || got > ss_len)
    return MCORE_ERR;
  if (got != ss_len) {
    if (!pad_ss)
      return MCORE_ERR;
    memmove(ss + (ss_len - got), ss, got);
    memset(ss, 0, ss_len - got);
  }
  return MCORE_OK;
}
#endif

/* ---- ECDH P-256 --------------------------------------------------------- */

#define P256_PK_LEN 65 /* SEC1 uncompressed point 0x04 || x || y */
#define P256_SK_LEN 32 /* big-endian private scalar */
#define P256_PAIR PSA_KEY_TYPE_ECC_KEY_PAIR(PSA_ECC_FAMILY_SECP_R1)

#if MERLIN_ROUTE_ECDH_P256_MBEDTLS
static int ecdh_p256_keygen(uint8_t *pk, uint8_t *sk) {
  return keypair_generate(pk, P256_PK_LEN, sk, P256_SK_LEN, 0, P256_PAIR, 256,
                          PSA_KEY_USAGE_DERIVE, PSA_ALG_ECDH);
}

/* ss = x coordinate of sk * peer_pk (PSA's raw ECDH output, SP 800-56A
 * section 5.7.1.2). */
static int ecdh_p256_shared(uint8_t *ss, const uint8_t *sk,
                            const uint8_t *peer_pk) {
  return keypair_agree(ss, 32, 0, sk, P256_SK_LEN, peer_pk, P256_PK_LEN,
                       P256_PAIR, 256, PSA_ALG_ECDH);
}

static const mcore_ka_vt ecdh_p256_vt = {.pk_len = P256_PK_LEN,
                                         .sk_len = P256_SK_LEN,
                                         .ss_len = 32,
                                         .keygen = ecdh_p256_keygen,
                                         .shared = ecdh_p256_shared};
#endif

/* ---- X25519 (RFC 7748) ----------------------------------------------------
 */

#if MERLIN_ROUTE_X25519_MBEDTLS
/* PSA's Montgomery keys are exactly RFC 7748's strings: the private key
 * is the 32-byte little-endian scalar (imported as given; the library
 * applies the decodeScalar25519 clamping of section 5 when it reads it,
 * and exports generated keys already clamped), the public key and the
 * shared secret the 32-byte little-endian u-coordinate. The library rejects
 * low-order peer points, whose shared secret would be all zeros (section
 * 6.1). */
#define X25519_PAIR PSA_KEY_TYPE_ECC_KEY_PAIR(PSA_ECC_FAMILY_MONTGOMERY)

static int x25519_keygen(uint8_t *pk, uint8_t *sk) {
  return keypair_generate(pk, 32, sk, 32, 0, X25519_PAIR, 255,
                          PSA_KEY_USAGE_DERIVE, PSA_ALG_ECDH);
}

static int x25519_shared(uint8_t *ss, const uint8_t *sk,
                         const uint8_t *peer_pk) {
  return keypair_agree(ss, 32, 0, sk, 32, peer_pk, 32, X25519_PAIR, 255,
                       PSA_ALG_ECDH);
}

static const mcore_ka_vt x25519_vt = {.pk_len = 32,
                                      .sk_len = 32,
                                      .ss_len = 32,
                                      .keygen = x25519_keygen,
                                      .shared = x25519_shared};
#endif

/* ---- FFDHE-2048 (RFC 7919) ------------------------------------------------
 */

#if MERLIN_ROUTE_FFDHE_2048_MBEDTLS
/* Group ffdhe2048 (RFC 7919 appendix A.1), PSA_DH_FAMILY_RFC7919 at 2048
 * bits. pk and ss are 256-byte big-endian integers; sk is the exponent as a
 * 256-byte big-endian integer (PSA's key-pair format, and its import needs
 * exactly 256 bytes to select the 2048-bit group). Mbed TLS draws the
 * exponent uniformly from [2, p-2] (full length, not the short exponents
 * RFC 7919 section 5.2 permits) and checks 1 < peer < p-1 (section 5.1). */
#define FFDHE_LEN 256
#define FFDHE_PAIR PSA_KEY_TYPE_DH_KEY_PAIR(PSA_DH_FAMILY_RFC7919)

static int ffdhe_2048_keygen(uint8_t *pk, uint8_t *sk) {
  return keypair_generate(pk, FFDHE_LEN, sk, FFDHE_LEN, 1, FFDHE_PAIR, 2048,
                          PSA_KEY_USAGE_DERIVE, PSA_ALG_FFDH);
}

static int ffdhe_2048_shared(uint8_t *ss, const uint8_t *sk,
                             const uint8_t *peer_pk) {
  return keypair_agree(ss, FFDHE_LEN, 1, sk, FFDHE_LEN, peer_pk, FFDHE_LEN,
                       FFDHE_PAIR, 2048, PSA_ALG_FFDH);
}

static const mcore_ka_vt ffdhe_2048_vt = {.pk_len = FFDHE_LEN,
                                          .sk_len = FFDHE_LEN,
                                          .ss_len = FFDHE_LEN,
                                          .keygen = ffdhe_2048_keygen,
                                          .shared = ffdhe_2048_shared};
#endif

/* ---- ECDSA P-256 (deterministic, RFC 6979, SHA-256) ------------------- */

#if MERLIN_ROUTE_ECDSA_P256_MBEDTLS
#define ECDSA_ALG PSA_ALG_DETERMINISTIC_ECDSA(PSA_ALG_SHA_256)
#define ECDSA_SIG_LEN PSA_ECDSA_SIGNATURE_SIZE(256) /* r || s, 64 bytes */

static int ecdsa_p256_keygen(uint8_t *pk, uint8_t *sk) {
  return keypair_generate(
      pk, P256_PK_LEN, sk, P256_SK_LEN, 0, P256_PAIR, 256,
      PSA_KEY_USAGE_SIGN_MESSAGE | PSA_KEY_USAGE_VERIFY_MESSAGE, ECDSA_ALG);
}

static int ecdsa_p256_sign(uint8_t *sig, size_t *sig_len, const uint8_t *msg,
                           size_t msg_len, const uint8_t *sk) {
  psa_key_attributes_t attr;
  mbedtls_svc_key_id_t id = MBEDTLS_SVC_KEY_ID_INIT;
  psa_status_t s;
  key_attributes(&attr, P256_PAIR, 256, PSA_KEY_USAGE_SIGN_MESSAGE, ECDSA_ALG);
  s = psa_import_key(&attr, sk, P256_SK_LEN, &id);
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
  key_attributes(&attr, PSA_KEY_TYPE_ECC_PUBLIC_KEY(PSA_ECC_FAMILY_SECP_R1),
                 256, PSA_KEY_USAGE_VERIFY_MESSAGE, ECDSA_ALG);
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

static const mcore_sig_vt ecdsa_p256_vt = {.pk_len = P256_PK_LEN,
                                           .sk_len = P256_SK_LEN,
                                           .sig_len = ECDSA_SIG_LEN,
                                           .keygen = ecdsa_p256_keygen,
                                           .sign = ecdsa_p256_sign,
                                           .verify = ecdsa_p256_verify};
#endif

/* ---- RSA-2048, RSASSA-PKCS1-v1_5 with SHA-256 (RFC 8017 section 8.2) ---- */

#if MERLIN_ROUTE_RSA_2048_MBEDTLS
#define RSA_ALG PSA_ALG_RSA_PKCS1V15_SIGN(PSA_ALG_SHA_256)
#define RSA_N_LEN 256 /* modulus, big-endian; also the signature length */
/* The longest PKCS #1 RSAPrivateKey DER of a 2048-bit key (PSA's bound). */
#define RSA_SK_MAX PSA_KEY_EXPORT_RSA_KEY_PAIR_MAX_SIZE(2048)
/* RSAPublicKey: SEQUENCE (4) { INTEGER n (4 + 1 + 256), INTEGER e (5) }. */
#define RSA_PK_DER_MAX (4 + 4 + 1 + RSA_N_LEN + 5)

/* Total length of the DER SEQUENCE at der (the PKCS #1 RSAPrivateKey the
 * harness passes without its length), or 0 if it does not start with a
 * SEQUENCE header in definite form of at most two length octets (X.690
 * section 8.1.3). */
static size_t der_sequence_len(const uint8_t *der) {
  if (der[0] != 0x30)
    return 0;
  if (der[1] < 0x80)
    return 2 + (size_t)der[1];
  if (der[1] == 0x81)
    return 3 + (size_t)der[2];
  if (der[1] == 0x82)
    return 4 + ((size_t)der[2] << 8 | der[3]);
  return 0;
}

/* A DER length field (X.690 section 8.1.3.3 short form, 8.1.3.5 long form
 * with the fewest octets); returns its size. */
static size_t der_put_len(uint8_t *p, size_t len) {
  if (len < 0x80) {
    p[0] = (uint8_t)len;
    return 1;
  }
  if (len <= 0xff) {
    p[0] = 0x81;
    p[1] = (uint8_t)len;
    return 2;
  }
  p[0] = 0x82;
  p[1] = (uint8_t)(len >> 8);
  p[2] = (uint8_t)len;
  return 3;
}

/* The DER RSAPublicKey (RFC 8017 appendix A.1.1, PSA's import format for
 * RSA public keys) of modulus n (RSA_N_LEN bytes, big-endian) and
 * e = 65537: INTEGERs are minimal two's complement (X.690 section 8.3), so
 * leading zero octets of n are dropped and a 0x00 is prepended when its top
 * bit is set. Returns the length, or 0 for n = 0. */
static size_t rsa_public_der(uint8_t *der, const uint8_t *n) {
  static const uint8_t e_tlv[] = {0x02, 0x03, 0x01, 0x00, 0x01};
  uint8_t hdr[4];
  size_t skip = 0, n_len, int_len, hdr_len, seq_len, off = 0;
  while (skip < RSA_N_LEN && n[skip] == 0)
    skip++;
  if (skip == RSA_N_LEN)
    return 0;
  n_len = RSA_N_LEN - skip;
  int_len = n_len + ((n[skip] & 0x80u) != 0);
  hdr[0] = 0x02; /* INTEGER */
  hdr_len = 1 + der_put_len(hdr + 1, int_len);
  seq_len = hdr_len + int_len + sizeof e_tlv;
  der[off++] = 0x30; /* SEQUENCE */
  off += der_put_len(der + off, seq_len);
  memcpy(der + off, hdr, hdr_len);
  off += hdr_len;
  if (int_len != n_len)
    der[off++] = 0x00;
  memcpy(der + off, n + skip, n_len);
  off += n_len;
  memcpy(der + off, e_tlv, sizeof e_tlv);
  return off + sizeof e_tlv;
}

/* sk: the PKCS #1 DER RSAPrivateKey, PSA's import format for RSA key pairs
 * (parsed, checked and re-encoded by the import, then parsed again by the
 * signature: both are part of the measured operation). */
static int rsa_2048_sign(uint8_t *sig, size_t *sig_len, const uint8_t *msg,
                         size_t msg_len, const uint8_t *sk) {
  psa_key_attributes_t attr;
  mbedtls_svc_key_id_t id = MBEDTLS_SVC_KEY_ID_INIT;
  size_t sk_len = der_sequence_len(sk);
  psa_status_t s;
  if (sk_len == 0 || sk_len > RSA_SK_MAX)
    return MCORE_ERR;
  key_attributes(&attr, PSA_KEY_TYPE_RSA_KEY_PAIR, 2048,
                 PSA_KEY_USAGE_SIGN_MESSAGE, RSA_ALG);
  s = psa_import_key(&attr, sk, sk_len, &id);
  if (s != PSA_SUCCESS)
    return MCORE_ERR;
  *sig_len = 0;
  s = psa_sign_message(id, RSA_ALG, msg, msg_len, sig, RSA_N_LEN, sig_len);
  if (psa_destroy_key(id) != PSA_SUCCESS)
    s = PSA_ERROR_GENERIC_ERROR;
  return s == PSA_SUCCESS && *sig_len == RSA_N_LEN ? MCORE_OK : MCORE_ERR;
}

/* pk: the 256-byte modulus; the DER RSAPublicKey is built here (a few
 * header bytes and copies, part of the measured operation). */
static int rsa_2048_verify(const uint8_t *sig, size_t sig_len,
                           const uint8_t *msg, size_t msg_len,
                           const uint8_t *pk) {
  uint8_t der[RSA_PK_DER_MAX];
  psa_key_attributes_t attr;
  mbedtls_svc_key_id_t id = MBEDTLS_SVC_KEY_ID_INIT;
  size_t der_len = rsa_public_der(der, pk);
  psa_status_t s;
  if (der_len == 0)
    return MCORE_ERR;
  key_attributes(&attr, PSA_KEY_TYPE_RSA_PUBLIC_KEY, 2048,
                 PSA_KEY_USAGE_VERIFY_MESSAGE, RSA_ALG);
  s = psa_import_key(&attr, der, der_len, &id);
  if (s != PSA_SUCCESS)
    return MCORE_ERR;
  s = psa_verify_message(id, RSA_ALG, msg, msg_len, sig, sig_len);
  if (psa_destroy_key(id) != PSA_SUCCESS)
    return MCORE_ERR;
  if (s == PSA_SUCCESS)
    return MCORE_OK;
  return s == PSA_ERROR_INVALID_SIGNATURE ? MCORE_BAD_SIGNATURE : MCORE_ERR;
}

/* No keygen: RSA key generation is not benchmarked (mcore.h); the
 * operations use the key of the known-answer vectors. */
static const mcore_sig_vt rsa_2048_vt = {.pk_len = RSA_N_LEN,
                                         .sk_len = RSA_SK_MAX,
                                         .sig_len = RSA_N_LEN,
                                         .keygen = NULL,
                                         .sign = rsa_2048_sign,
                                         .verify = rsa_2048_verify};
#endif

/* ---- registration ------------------------------------------------------- */

static int mbedtls_backend_init(void) {
  /* Every allocation of the library goes through the harness allocator (so
   * heap use is measured); set before PSA allocates anything. */
  if (mbedtls_platform_set_calloc_free(mcore_calloc, mcore_free) != 0)
    return MCORE_ERR;
  return status_to_mcore(psa_crypto_init());
}

/* Before every operation (mcore_backend.reset): PSA's key store and state
 * freed and initialised again, as init left them. */
static int mbedtls_backend_reset(void) {
  mbedtls_psa_crypto_free();
  return status_to_mcore(psa_crypto_init());
}

#define VARIANT "psa-builtin"
/* The AES-based entries name the table placement (mbedtls.aes_tables). */
#define AES_VARIANT MERLIN_MBEDTLS_AES_VARIANT

/* Each entry asserts its route at compile time (MCORE_IMPL). */
#define MBEDTLS_IMPL(ALG, VARIANT_, IFACE, VT)                                 \
  MBE_WHEN(MBEDTLS_ROUTED(ALG))                                                \
  (MCORE_IMPL(ALG, MBEDTLS, VARIANT_, IFACE, &VT), )
static const mcore_impl impls[] = {MBEDTLS_IMPLS(MBEDTLS_IMPL)};

const mcore_backend mbe_mbedtls_backend = {.id = MCORE_BACKEND_MBEDTLS,
                                           .library = "mbedtls",
                                           .version = MERLIN_MBEDTLS_VERSION,
                                           .init = mbedtls_backend_init,
                                           .reset = mbedtls_backend_reset,
                                           .impls = impls,
                                           .n_impls =
                                               sizeof impls / sizeof impls[0]};
