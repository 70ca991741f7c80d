/* SPDX-License-Identifier: Apache-2.0 */
/*
 * wolfSSL 5.9.2 configuration of the Merlin wolfCrypt backend
 * (WOLFSSL_USER_SETTINGS: wolfssl/wolfcrypt/settings.h includes this file
 * first, in the library sources and in adapter.c alike, so both see the same
 * structure layouts).
 *
 * Only what the adapter serves is compiled in: SHA-256, HMAC-SHA256,
 * HKDF-SHA256, ECDH and ECDSA on P-256, ML-KEM-512. Every macro says why it
 * is here. The same file serves the host (x86_64, 64-bit SP words) and the
 * Cortex-M targets (32-bit SP words); MERLIN_WOLFCRYPT_ASM (set by
 * backend.cmake, arm only) switches on the Thumb-2 assembly.
 *
 * Everything here was checked to compile warning-free with host gcc 12 and
 * arm-none-eabi-gcc 12 (the library is built without -W flags, but the image
 * must build without any warning, and wolfSSL emits #warning for some
 * configurations, e.g. without the timing-resistance options below).
 */
#ifndef MERLIN_WOLFCRYPT_USER_SETTINGS_H
#define MERLIN_WOLFCRYPT_USER_SETTINGS_H

/* ---- platform ---------------------------------------------------------- */

/* The crypto library only: no TLS layer (src/ssl.c, src/internal.c ...). */
#define WOLFCRYPT_ONLY
/* The harness runs one operation at a time: no mutexes, no threads. */
#define SINGLE_THREADED
/* No file system on the targets (and none wanted on the host): no fopen. */
#define NO_FILESYSTEM
/* No BSD sockets: I/O callbacks would be the user's (TLS only; kept so the
 * configuration stays valid if the TLS layer is ever added). */
#define WOLFSSL_USER_IO
#define WOLFSSL_NO_SOCK
#define NO_WRITEV
/* No /dev/urandom: the seed comes from the callback below. */
#define NO_DEV_RANDOM
/* No wall clock: nothing here needs time (no certificates, no ASN.1 dates). */
#define NO_ASN_TIME
/* Error strings cost flash and are never printed by the harness. */
#define NO_ERROR_STRINGS

/* ---- memory: every allocation goes through the harness allocator -------- */

/* XMALLOC_OVERRIDE: wolfSSL takes XMALLOC/XFREE/XREALLOC as defined here
 * (and does not define USE_WOLFSSL_MEMORY, so memory.c is not needed). The
 * harness allocator (src/core/alloc.c) counts current and peak bytes, so
 * the heap use of every operation is measured. mcore_free accepts NULL. */
#define XMALLOC_OVERRIDE
#include <stddef.h>
void *mcore_malloc(size_t n);
void *mcore_realloc(void *p, size_t n);
void mcore_free(void *p);
#define XMALLOC(s, h, t) ((void)(h), (void)(t), mcore_malloc((size_t)(s)))
#define XFREE(p, h, t)                                                         \
  do {                                                                         \
    (void)(h);                                                                 \
    (void)(t);                                                                 \
    mcore_free(p);                                                             \
  } while (0)
#define XREALLOC(p, n, h, t)                                                   \
  ((void)(h), (void)(t), mcore_realloc((p), (size_t)(n)))

/* ---- random numbers ---------------------------------------------------- */

/* SP 800-90A Hash_DRBG (SHA-256) behind WC_RNG: what a deployment uses. */
#define HAVE_HASHDRBG
/* Its seed (entropy and nonce) comes from the harness generator
 * (mcore_rng_fill, adapter.c), so a run draws the same keys every time. */
int merlin_wolfcrypt_seed(unsigned char *output, unsigned int sz);
#define CUSTOM_RAND_GENERATE_SEED merlin_wolfcrypt_seed

/* ---- big-number math --------------------------------------------------- */

/* sp_int.c for the generic mp_int code ECC still uses (curve parameters,
 * r and s, the RFC 6979 nonce) ... */
#define WOLFSSL_SP_MATH_ALL
/* ... and the single-precision P-256 code (sp_c32.c / sp_c64.c, or
 * sp_cortexm.c with the assembly) for every point operation. */
#define WOLFSSL_HAVE_SP_ECC
/* The small-code variants of the SP functions (the usual choice on a
 * microcontroller; also on the host so both run the same algorithm). */
#define WOLFSSL_SP_SMALL
/* 64-bit SP digits where the compiler has a 128-bit integer type (the x86_64
 * host; wolfSSL's configure detects the same), so sp_c64.c serves P-256
 * there; 32-bit digits and sp_c32.c on Cortex-M. backend.cmake picks the
 * matching file. */
#if defined(__SIZEOF_INT128__) && !defined(HAVE___UINT128_T)
#define HAVE___UINT128_T 1
#endif
/* Largest number needed: P-256 (raise to 4096 when RSA/DH are added). */
#define SP_INT_BITS 256
/* The adapter converts r and s with the mp_ functions. */
#define WOLFSSL_PUBLIC_MP
/* Constant-time code paths (also silences wolfSSL's "consider using harden
 * options" #warning). */
#define TFM_TIMING_RESISTANT
#define ECC_TIMING_RESISTANT

/* ---- algorithms -------------------------------------------------------- */

/* SHA-256 and HMAC are on by default; HKDF (RFC 5869) in hmac.c. */
#define HAVE_HKDF

/* ECC on P-256 only (ECC_USER_CURVES: only the curves named; P-256 is on
 * unless NO_ECC256). */
#define HAVE_ECC
#define ECC_USER_CURVES
/* ECDSA with the RFC 6979 nonce (wc_ecc_set_deterministic). */
#define WOLFSSL_ECDSA_DETERMINISTIC_K

/* ML-KEM (FIPS 203, wc_mlkem.c). Only ML-KEM-512 is served: the other
 * parameter sets are left out, which also sizes MlKemKey for k = 2. ML-KEM
 * hashes with SHA3-256/512 and SHAKE128/256 (sha3.c), which are off unless
 * asked for. */
#define WOLFSSL_HAVE_MLKEM
#define WOLFSSL_NO_ML_KEM_768
#define WOLFSSL_NO_ML_KEM_1024
#define WOLFSSL_SHA3
#define WOLFSSL_SHAKE128
#define WOLFSSL_SHAKE256

/* ---- what is not needed ------------------------------------------------ */

/* No ASN.1/DER at all: keys are imported and exported raw
 * (wc_ecc_import_x963, wc_ecc_import_private_key_ex, wc_ecc_export_x963,
 * wc_ecc_export_private_only) and signatures as mp_int r, s
 * (wc_ecc_sign_hash_ex / wc_ecc_verify_hash_ex), so asn.c is not built. */
#define NO_ASN
#define NO_CERTS
#define NO_CODING
#define WOLFSSL_NO_PEM
#define NO_PKCS8
#define NO_PKCS12
#define NO_PWDBASED
#define NO_SIG_WRAPPER
/* Algorithms not (yet) in the catalogue. */
#define NO_RSA
#define NO_DH
#define NO_DSA
#define NO_AES
#define NO_AES_CBC
#define NO_DES3
#define NO_RC4
#define NO_MD4
#define NO_MD5
#define NO_SHA /* SHA-1 */
#define NO_OLD_TLS
#define NO_PSK
#define NO_KDF /* the TLS/SSH/SRTP KDFs of kdf.c; HKDF is in hmac.c */

/* ---- Thumb-2 assembly (the "thumb2-asm" variant, Cortex-M3/M4/M7/M33) --- */

#if defined(MERLIN_WOLFCRYPT_ASM) && MERLIN_WOLFCRYPT_ASM
/* The ARM assembly in wolfcrypt/src/port/arm, as inline asm in the *_c.c
 * files (WOLFSSL_ARMASM_INLINE), Thumb-2 flavour, without the ARMv8 crypto
 * instructions and NEON that Cortex-M lacks (without NO_NEON the SHA-256
 * transform is not defined at link time). */
#define WOLFSSL_ARMASM
#define WOLFSSL_ARMASM_THUMB2
#define WOLFSSL_ARMASM_INLINE
#define WOLFSSL_ARMASM_NO_HW_CRYPTO
#define WOLFSSL_ARMASM_NO_NEON
#define WOLFSSL_ARM_ARCH 7
/* SP P-256 in Cortex-M assembly (sp_cortexm.c replaces sp_c32.c). */
#define WOLFSSL_SP_ASM
#define WOLFSSL_SP_ARM_CORTEX_M_ASM
#endif

#endif
