/* SPDX-License-Identifier: Apache-2.0 */
/*
 * PSA Crypto configuration of the Merlin "mbedtls" backend
 * (MBEDTLS_PSA_CRYPTO_CONFIG_FILE, set by backend.cmake): exactly the
 * algorithms and key types the adapter uses. With MBEDTLS_PSA_CRYPTO_C and no
 * MBEDTLS_PSA_ACCEL_xxx, Mbed TLS serves each of them with its built-in
 * software driver (MBEDTLS_PSA_BUILTIN_xxx); adapter.c asserts that.
 * PSA_WANT_KEY_TYPE_DERIVE, _RAW_DATA, _PASSWORD and _PASSWORD_HASH are
 * always enabled by the library (psa/crypto_adjust_auto_enabled.h).
 */
#ifndef MERLIN_PSA_CONFIG_H
#define MERLIN_PSA_CONFIG_H

/* sha256: psa_hash_compute. */
#define PSA_WANT_ALG_SHA_256 1

/* hmac-sha256: psa_mac_compute with an imported HMAC key. */
#define PSA_WANT_ALG_HMAC 1
#define PSA_WANT_KEY_TYPE_HMAC 1

/* hkdf-sha256: psa_key_derivation_* (extract-then-expand; the separate
 * HKDF_EXTRACT / HKDF_EXPAND algorithms are not needed). */
#define PSA_WANT_ALG_HKDF 1

/* ecdh-p256 and ecdsa-p256: NIST P-256 only. */
#define PSA_WANT_ECC_SECP_R1_256 1
#define PSA_WANT_ALG_ECDH 1
/* Deterministic ECDSA (RFC 6979) only; randomised PSA_ALG_ECDSA is off. */
#define PSA_WANT_ALG_DETERMINISTIC_ECDSA 1

/* Key pairs are generated (keygen), imported (shared, sign) and exported
 * (keygen returns the 32-byte private scalar); public keys are imported
 * (verify) and exported (keygen). No key derivation into ECC keys. */
#define PSA_WANT_KEY_TYPE_ECC_PUBLIC_KEY 1
#define PSA_WANT_KEY_TYPE_ECC_KEY_PAIR_BASIC 1
#define PSA_WANT_KEY_TYPE_ECC_KEY_PAIR_IMPORT 1
#define PSA_WANT_KEY_TYPE_ECC_KEY_PAIR_EXPORT 1
#define PSA_WANT_KEY_TYPE_ECC_KEY_PAIR_GENERATE 1

#endif
