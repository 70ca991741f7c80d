/* SPDX-License-Identifier: Apache-2.0 */
/*
 * PSA Crypto configuration of the Merlin "mbedtls" backend
 * (MBEDTLS_PSA_CRYPTO_CONFIG_FILE, set by backend.cmake): exactly the
 * algorithms and key types the adapter uses for the algorithms the profile
 * routes to this backend, so an image carries only the code it measures
 * (psa_crypto.c dispatches to every enabled mechanism, so an enabled but
 * unused one would still be linked). One deliberate exception: the two
 * hashes come together (see below), so that the hash-based timings do not
 * depend on the rest of the profile.
 *
 * backend.cmake defines MERLIN_MBEDTLS_HAS_<ALG> for every algorithm of
 * MERLIN_PROFILE_ROUTES served here, for the library and the adapter alike;
 * adapter.c checks them against merlin_profile.h in both directions. With
 * MBEDTLS_PSA_CRYPTO_C and no MBEDTLS_PSA_ACCEL_xxx, Mbed TLS serves each
 * mechanism with its built-in software driver (MBEDTLS_PSA_BUILTIN_xxx);
 * adapter.c asserts that too. PSA_WANT_KEY_TYPE_DERIVE, _RAW_DATA,
 * _PASSWORD and _PASSWORD_HASH are always enabled by the library
 * (psa/crypto_adjust_auto_enabled.h).
 */
#ifndef MERLIN_PSA_CONFIG_H
#define MERLIN_PSA_CONFIG_H

/* ---- what the routed algorithms need ---------------------------------- */

/* SHA-256: the hash itself, the HMAC and HKDF controls, deterministic
 * ECDSA (message hash and RFC 6979 HMAC_DRBG) and RSASSA-PKCS1-v1_5 with
 * SHA-256. */
#if MERLIN_MBEDTLS_HAS_SHA256 || MERLIN_MBEDTLS_HAS_HMAC_SHA256 ||             \
    MERLIN_MBEDTLS_HAS_HKDF_SHA256 || MERLIN_MBEDTLS_HAS_ECDSA_P256 ||         \
    MERLIN_MBEDTLS_HAS_RSA_2048
#define MERLIN_MBEDTLS_NEED_SHA256 1
#endif

#if MERLIN_MBEDTLS_HAS_AES_128_GCM || MERLIN_MBEDTLS_HAS_AES_256_GCM
#define MERLIN_MBEDTLS_NEED_GCM 1
#endif

#if MERLIN_MBEDTLS_NEED_GCM || MERLIN_MBEDTLS_HAS_AES_128_CCM
#define MERLIN_MBEDTLS_NEED_AES 1
#endif

#if MERLIN_MBEDTLS_HAS_ECDH_P256 || MERLIN_MBEDTLS_HAS_ECDSA_P256
#define MERLIN_MBEDTLS_NEED_P256 1
#endif

#if MERLIN_MBEDTLS_NEED_P256 || MERLIN_MBEDTLS_HAS_X25519
#define MERLIN_MBEDTLS_NEED_ECC 1
#endif

/* ---- hashes, MAC, KDF ---------------------------------------------------- */

/* The hash set is the same in every image that routes anything hash-based
 * here: SHA-256 and SHA3-256 (FIPS 202; PSA hashes it with the built-in
 * driver on sha3.c since Mbed TLS 3.5) are enabled together. PSA sizes its
 * hash and HMAC operation structures for the largest enabled hash (SHA3-256:
 * a 200-byte state and a 136-byte block) and clears them at every setup, so
 * enabling SHA3-256 only where it is routed makes SHA-256, HMAC and HKDF
 * slower in those images alone (measured on qemu-m4: HKDF-SHA256 over 8
 * bytes 29787 against 30597 instructions, 2.7 %), which would blur the
 * cross-image agreement of the control primitives. The price is sha3.c,
 * about 2.5 KB of flash, in images that do not route sha3-256. */
#if MERLIN_MBEDTLS_NEED_SHA256 || MERLIN_MBEDTLS_HAS_SHA3_256
#define PSA_WANT_ALG_SHA_256 1
#define PSA_WANT_ALG_SHA3_256 1
#endif

/* hmac-sha256: psa_mac_compute with an imported HMAC key. HKDF uses the
 * same HMAC code (the library enables it for HKDF in any case,
 * psa/crypto_adjust_config_dependencies.h). */
#if MERLIN_MBEDTLS_HAS_HMAC_SHA256 || MERLIN_MBEDTLS_HAS_HKDF_SHA256
#define PSA_WANT_ALG_HMAC 1
#define PSA_WANT_KEY_TYPE_HMAC 1
#endif

/* hkdf-sha256: psa_key_derivation_* (extract-then-expand; the separate
 * HKDF_EXTRACT / HKDF_EXPAND algorithms are not needed). */
#if MERLIN_MBEDTLS_HAS_HKDF_SHA256
#define PSA_WANT_ALG_HKDF 1
#endif

/* ---- AEAD ---------------------------------------------------------------- */

/* AES keys for psa_aead_encrypt/decrypt only: no unauthenticated cipher
 * mode (CTR, CBC, ECB ...) is enabled, so neither is the generic cipher
 * layer. */
#if MERLIN_MBEDTLS_NEED_AES
#define PSA_WANT_KEY_TYPE_AES 1
#endif

/* aes-128-gcm, aes-256-gcm (SP 800-38D). */
#if MERLIN_MBEDTLS_NEED_GCM
#define PSA_WANT_ALG_GCM 1
#endif

/* aes-128-ccm (SP 800-38C). */
#if MERLIN_MBEDTLS_HAS_AES_128_CCM
#define PSA_WANT_ALG_CCM 1
#endif

/* ---- elliptic curves ---------------------------------------------------- */

/* ecdh-p256 and ecdsa-p256: NIST P-256 only. */
#if MERLIN_MBEDTLS_NEED_P256
#define PSA_WANT_ECC_SECP_R1_256 1
#endif

/* x25519 (RFC 7748): Curve25519 in the Montgomery family, 255 bits. */
#if MERLIN_MBEDTLS_HAS_X25519
#define PSA_WANT_ECC_MONTGOMERY_255 1
#endif

/* Raw ECDH (psa_raw_key_agreement), on either curve. */
#if MERLIN_MBEDTLS_HAS_ECDH_P256 || MERLIN_MBEDTLS_HAS_X25519
#define PSA_WANT_ALG_ECDH 1
#endif

/* Deterministic ECDSA (RFC 6979) only; randomised PSA_ALG_ECDSA is off. */
#if MERLIN_MBEDTLS_HAS_ECDSA_P256
#define PSA_WANT_ALG_DETERMINISTIC_ECDSA 1
#endif

/* Key pairs are generated (keygen), imported (shared, sign) and exported
 * (keygen returns the private key); public keys are imported (verify) and
 * exported (keygen). No key derivation into ECC keys. */
#if MERLIN_MBEDTLS_NEED_ECC
#define PSA_WANT_KEY_TYPE_ECC_PUBLIC_KEY 1
#define PSA_WANT_KEY_TYPE_ECC_KEY_PAIR_BASIC 1
#define PSA_WANT_KEY_TYPE_ECC_KEY_PAIR_IMPORT 1
#define PSA_WANT_KEY_TYPE_ECC_KEY_PAIR_EXPORT 1
#define PSA_WANT_KEY_TYPE_ECC_KEY_PAIR_GENERATE 1
#endif

/* ---- finite-field Diffie-Hellman ------------------------------------------
 */

/* ffdhe-2048 (RFC 7919 group ffdhe2048): key pairs generated (keygen),
 * imported (shared) and exported (keygen returns the exponent), the
 * public value exported. */
#if MERLIN_MBEDTLS_HAS_FFDHE_2048
#define PSA_WANT_DH_RFC7919_2048 1
#define PSA_WANT_ALG_FFDH 1
#define PSA_WANT_KEY_TYPE_DH_PUBLIC_KEY 1
#define PSA_WANT_KEY_TYPE_DH_KEY_PAIR_BASIC 1
#define PSA_WANT_KEY_TYPE_DH_KEY_PAIR_IMPORT 1
#define PSA_WANT_KEY_TYPE_DH_KEY_PAIR_EXPORT 1
#define PSA_WANT_KEY_TYPE_DH_KEY_PAIR_GENERATE 1
#endif

/* ---- RSA ----------------------------------------------------------------- */

/* rsa-2048: RSASSA-PKCS1-v1_5 (RFC 8017 section 8.2) signing with an
 * imported PKCS #1 RSAPrivateKey and verification with an imported
 * RSAPublicKey. Import of a key pair needs export as well (PSA stores the
 * re-encoded key). No RSA key generation (the harness does not time it), so
 * no prime generation code is built. */
#if MERLIN_MBEDTLS_HAS_RSA_2048
#define PSA_WANT_ALG_RSA_PKCS1V15_SIGN 1
#define PSA_WANT_KEY_TYPE_RSA_PUBLIC_KEY 1
#define PSA_WANT_KEY_TYPE_RSA_KEY_PAIR_BASIC 1
#define PSA_WANT_KEY_TYPE_RSA_KEY_PAIR_IMPORT 1
#define PSA_WANT_KEY_TYPE_RSA_KEY_PAIR_EXPORT 1
#endif

#endif
