/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Mbed TLS 3.6 configuration of the Merlin "mbedtls" backend
 * (MBEDTLS_CONFIG_FILE, set by backend.cmake for the library and the
 * adapter alike).
 *
 * Bare-metal and minimal: the PSA Crypto API with Mbed TLS's built-in
 * (software) drivers and nothing else. This file holds the platform and the
 * tuning options, which do not depend on the profile. Which PSA algorithms
 * exist is chosen per image in merlin_psa_config.h, from what the profile
 * routes to this backend (MERLIN_MBEDTLS_HAS_<ALG>, defined by
 * backend.cmake). The library then enables the legacy modules behind the
 * built-in drivers by itself (mbedtls/config_adjust_legacy_from_psa.h, the
 * documented behaviour of MBEDTLS_PSA_CRYPTO_CONFIG), and backend.cmake
 * compiles exactly their files:
 *
 *   routed algorithm   PSA_WANT_xxx                 legacy modules
 *   sha256, sha3-256   ALG_SHA_256, ALG_SHA3_256    SHA256_C, SHA3_C
 *   (both hashes whenever any hash-based algorithm is routed here, see
 *   merlin_psa_config.h)
 *   hmac-sha256        ALG_HMAC, KEY_TYPE_HMAC      (PSA's own HMAC)
 *   hkdf-sha256        ALG_HKDF (+ HMAC)            (PSA's own HKDF)
 *   aes-128/256-gcm    KEY_TYPE_AES, ALG_GCM        AES_C, GCM_C
 *   aes-128-ccm        KEY_TYPE_AES, ALG_CCM        AES_C, CCM_C
 *   ecdh-p256          ECC_SECP_R1_256, ALG_ECDH    ECP_C, ECDH_C, BIGNUM_C
 *   x25519             ECC_MONTGOMERY_255, ECDH     ECP_C, ECDH_C, BIGNUM_C
 *   ffdhe-2048         DH_RFC7919_2048, ALG_FFDH    BIGNUM_C
 *   ecdsa-p256         ALG_DETERMINISTIC_ECDSA      ECDSA_C, HMAC_DRBG_C,
 *                                                   MD_C, ASN1_*_C
 *   rsa-2048           ALG_RSA_PKCS1V15_SIGN        RSA_C, PKCS1_V15, OID_C,
 *                                                   ASN1_*_C, BIGNUM_C
 *
 * (GCM and CCM run on the block-cipher layer, MBEDTLS_BLOCK_CIPHER_C, which
 * the library enables when no unauthenticated cipher mode, hence no
 * MBEDTLS_CIPHER_C, is configured.)
 *
 * Everything not listed is off: no TLS, no X.509, no PK layer, no file
 * system, no threading, no time source, no self-tests, no error strings.
 */
#ifndef MERLIN_MBEDTLS_CONFIG_H
#define MERLIN_MBEDTLS_CONFIG_H

/* ---- PSA Crypto -------------------------------------------------------- */

/* The PSA Crypto API implementation (psa_crypto*.c): every operation of the
 * adapter goes through it. */
#define MBEDTLS_PSA_CRYPTO_C

/* PSA_WANT_xxx come from our own PSA config file (merlin_psa_config.h, its
 * path given by backend.cmake as MBEDTLS_PSA_CRYPTO_CONFIG_FILE) instead of
 * being inferred from legacy modules: inferring them would also enable
 * randomised ECDSA, HKDF-Extract/Expand, TLS 1.2 PRF, PBKDF2 ... and link all
 * of them through psa_crypto.c's dispatch. */
#define MBEDTLS_PSA_CRYPTO_CONFIG

/* Random numbers for PSA (key generation, ECDSA and RSA blinding) come from
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
 * The adapter holds at most two keys at a time: one AEAD key that lives
 * from setup to cleanup, and the key of a public-key operation, which
 * imports or generates it and destroys it before returning; 4 leaves
 * headroom. Key material itself is still allocated per key through
 * mbedtls_calloc, i.e. the harness allocator, so it is counted. */
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
 * MBEDTLS_X509_* / MBEDTLS_PK_C (no TLS, no certificates), MBEDTLS_DHM_C
 * (PSA's FFDH is self-contained), and every MBEDTLS_*_ALT (the software
 * implementations are what is measured). */

/* ---- tuning ------------------------------------------------------------
 * These only take effect when the module they tune is built (see the table
 * above); otherwise they are inert. Values not set here are the library
 * defaults. */

/* SHA-256 (sha256.c): the default, unrolled code (MBEDTLS_SHA256_SMALLER
 * off); no SHA extension exists on Cortex-M, and the Armv8-A crypto paths
 * (MBEDTLS_SHA256_USE_ARMV8_A_CRYPTO_*) stay off on every target so the
 * host runs the same C code. SHA-3 (sha3.c) has no options. */

/* AES (aes.c): the table-driven C implementation, four 1 KB tables per
 * direction (MBEDTLS_AES_FEWER_TABLES off). Where the tables live is a
 * profile option (mbedtls.aes_tables = ram | rom, passed by backend.cmake as
 * MERLIN_MBEDTLS_AES_ROM_TABLES): "ram" (the library default) computes them
 * into RAM on first use, "rom" (MBEDTLS_AES_ROM_TABLES) keeps them as
 * constants in flash, which costs flash instead of 8 KB of RAM and on parts
 * with flash wait states changes the speed. No AES-NI, Armv8-A AESCE or
 * VIA Padlock (MBEDTLS_AESNI_C, MBEDTLS_AESCE_C, MBEDTLS_PADLOCK_C): those
 * would replace the table code on the host. */
#if defined(MERLIN_MBEDTLS_AES_ROM_TABLES) && MERLIN_MBEDTLS_AES_ROM_TABLES
#define MBEDTLS_AES_ROM_TABLES
#endif

/* GCM (gcm.c): the library default 4-bit GHASH tables (16 entries per key,
 * 256 bytes in the context); MBEDTLS_GCM_LARGE_TABLE (8-bit tables, +3840
 * bytes per context) stays off, as in the default configuration. */

/* Multi-precision integers (bignum*.c): the largest numbers are the
 * 2048-bit RSA modulus and FFDHE-2048 prime, so MBEDTLS_MPI_MAX_SIZE is
 * 256 bytes rather than the default 1024; it sizes a few stack buffers of
 * the RSA code (rsa.c) and caps mbedtls_mpi_exp_mod at 2048-bit moduli
 * and exponents. Internal products may still be larger (the library sizes
 * those by MBEDTLS_MPI_MAX_LIMBS). Exponentiation window: the library
 * default, MBEDTLS_MPI_WINDOW_SIZE 3. */
#define MBEDTLS_MPI_MAX_SIZE 256

/* Elliptic curves (ecp*.c): fast modular reduction for the NIST primes, as
 * in the default config. Window size and the fixed-point (comb) speed-up
 * for the base point stay at the library defaults
 * (MBEDTLS_ECP_WINDOW_SIZE 4, MBEDTLS_ECP_FIXED_POINT_OPTIM 1).
 * Curve25519 uses the library's Montgomery ladder; the Everest (HACL*)
 * X25519 variant, MBEDTLS_ECDH_VARIANT_EVEREST_ENABLED, is off (PSA does
 * not use it anyway). */
#define MBEDTLS_ECP_NIST_OPTIM

/* RSA (rsa.c): the CRT private operation (MBEDTLS_RSA_NO_CRT off, the
 * default), with base blinding drawn from the external RNG. */

#endif
