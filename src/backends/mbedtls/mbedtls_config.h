/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Mbed TLS 3.6 configuration of the Merlin "mbedtls" backend
 * (MBEDTLS_CONFIG_FILE, set by backend.cmake for the library and the
 * adapter alike).
 *
 * Bare-metal and minimal: the PSA Crypto API with Mbed TLS's built-in
 * (software) drivers for SHA-256, HMAC-SHA-256, HKDF-SHA-256, ECDH P-256 and
 * deterministic ECDSA P-256, and nothing else. Which PSA algorithms exist is
 * chosen in merlin_psa_config.h (MBEDTLS_PSA_CRYPTO_CONFIG below); the
 * legacy modules behind the built-in drivers are listed here as well, so the
 * configuration reads as the set of library files that backend.cmake
 * compiles. Everything not listed is off: no TLS, no X.509, no PK layer, no
 * file system, no threading, no time source, no self-tests, no error
 * strings.
 */
#ifndef MERLIN_MBEDTLS_CONFIG_H
#define MERLIN_MBEDTLS_CONFIG_H

/* ---- PSA Crypto -------------------------------------------------------- */

/* The PSA Crypto API implementation (psa_crypto*.c): every operation of the
 * adapter goes through it. */
#define MBEDTLS_PSA_CRYPTO_C

/* PSA_WANT_xxx come from our own PSA config file (merlin_psa_config.h, its
 * path given by backend.cmake as MBEDTLS_PSA_CRYPTO_CONFIG_FILE) instead of
 * being inferred from the legacy modules below: inferring them would also
 * enable randomised ECDSA, HKDF-Extract/Expand, TLS 1.2 PRF, PBKDF2 ... and
 * link all of them through psa_crypto.c's dispatch. */
#define MBEDTLS_PSA_CRYPTO_CONFIG

/* Random numbers for PSA (key generation, ECDSA blinding) come from
 * mbedtls_psa_external_get_random() in adapter.c, which draws from the
 * harness generator mcore_rng_fill: runs are repeatable and no entropy
 * module / DRBG is linked for PSA's own generator. */
#define MBEDTLS_PSA_CRYPTO_EXTERNAL_RNG

/* Application and library are one trust domain in a bare-metal image, so
 * PSA need not copy every input and output buffer through the heap (its
 * defence against buffers shared with an untrusted caller). The adapter
 * never passes overlapping input and output buffers. */
#define MBEDTLS_PSA_ASSUME_EXCLUSIVE_BUFFERS

/* A fixed key store: MBEDTLS_PSA_KEY_STORE_DYNAMIC (on in the default
 * config) is left off, so no slot array is allocated or grown at run time.
 * The adapter holds at most one key at a time (each function imports or
 * generates its key and destroys it before returning); 4 leaves headroom.
 * Key material itself is still allocated per key through mbedtls_calloc,
 * i.e. the harness allocator, so it is counted. */
#define MBEDTLS_PSA_KEY_SLOT_COUNT 4

/* Not enabled: MBEDTLS_PSA_CRYPTO_STORAGE_C / MBEDTLS_PSA_ITS_FILE_C
 * (persistent keys need a file system), MBEDTLS_PSA_CRYPTO_SE_C,
 * MBEDTLS_PSA_CRYPTO_SPM, MBEDTLS_PSA_CRYPTO_DRIVERS (no accelerator
 * drivers), MBEDTLS_PSA_P256M_DRIVER_ENABLED (p256-m: the profile measures
 * the built-in ECP code) and MBEDTLS_USE_PSA_CRYPTO (only matters to TLS,
 * X.509 and PK, none of which is built). adapter.c makes accelerator
 * drivers, p256-m, SPM or secure elements a build error. */

/* ---- platform ---------------------------------------------------------- */

/* The platform layer, for the allocator hook below. */
#define MBEDTLS_PLATFORM_C

/* mbedtls_calloc/mbedtls_free are function pointers set at run time:
 * the backend init calls mbedtls_platform_set_calloc_free(mcore_calloc,
 * mcore_free), so every allocation of the library is counted by the
 * harness. */
#define MBEDTLS_PLATFORM_MEMORY

/* No operating-system entropy source exists on bare metal (and the entropy
 * module is not built at all: randomness comes from the external RNG). */
#define MBEDTLS_NO_PLATFORM_ENTROPY

/* Inline assembly for the bignum multiply-accumulate loops, as in the
 * library's default configuration: UMAAL on Cortex-M4 (Thumb-2 with the
 * DSP extension), x86-64 on the host. */
#define MBEDTLS_HAVE_ASM

/* No deprecated API, so none of it is compiled. */
#define MBEDTLS_DEPRECATED_REMOVED

/* Deliberately not defined: MBEDTLS_HAVE_TIME / MBEDTLS_HAVE_TIME_DATE (no
 * clock on the target), MBEDTLS_FS_IO (no file system), MBEDTLS_THREADING_C
 * (single-threaded), MBEDTLS_SELF_TEST (the harness's known-answer tests
 * gate every operation instead), MBEDTLS_ERROR_C (no error strings),
 * MBEDTLS_ENTROPY_C / MBEDTLS_CTR_DRBG_C (external RNG), MBEDTLS_SSL_* /
 * MBEDTLS_X509_* / MBEDTLS_PK_C (no TLS, no certificates), and every
 * MBEDTLS_*_ALT (the software implementations are what is measured). */

/* ---- hashes and MACs --------------------------------------------------- */

/* SHA-256: sha256.c, behind PSA_ALG_SHA_256. The default (unrolled) code;
 * MBEDTLS_SHA256_SMALLER is off, and there is no SHA extension on
 * Cortex-M. */
#define MBEDTLS_SHA256_C

/* The message-digest layer: HMAC_DRBG (deterministic ECDSA) hashes through
 * it. PSA's own HMAC and HKDF do not need it. */
#define MBEDTLS_MD_C

/* HMAC_DRBG: the RFC 6979 nonce generator of deterministic ECDSA. */
#define MBEDTLS_HMAC_DRBG_C

/* ---- elliptic curves --------------------------------------------------- */

/* Multi-precision integers under ECP (bignum*.c). */
#define MBEDTLS_BIGNUM_C

/* Elliptic-curve arithmetic, with one curve: NIST P-256 (secp256r1). Window
 * size and the fixed-point (comb) speed-up for the base point stay at the
 * library defaults (MBEDTLS_ECP_WINDOW_SIZE 4, FIXED_POINT_OPTIM 1). */
#define MBEDTLS_ECP_C
#define MBEDTLS_ECP_DP_SECP256R1_ENABLED

/* Fast modular reduction for the NIST primes, as in the default config. */
#define MBEDTLS_ECP_NIST_OPTIM

/* ECDH (ecdh.c), behind PSA_ALG_ECDH. */
#define MBEDTLS_ECDH_C

/* ECDSA (ecdsa.c), behind PSA_ALG_DETERMINISTIC_ECDSA, with the RFC 6979
 * deterministic nonce. */
#define MBEDTLS_ECDSA_C
#define MBEDTLS_ECDSA_DETERMINISTIC

/* ecdsa.c's DER signature helpers need ASN.1; PSA itself uses the raw
 * r || s form. */
#define MBEDTLS_ASN1_PARSE_C
#define MBEDTLS_ASN1_WRITE_C

#endif
