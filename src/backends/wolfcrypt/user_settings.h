/* SPDX-License-Identifier: Apache-2.0 */
/*
 * wolfSSL 5.9.2 configuration of the Merlin wolfCrypt backend
 * (WOLFSSL_USER_SETTINGS: wolfssl/wolfcrypt/settings.h includes this file
 * first, in the library sources and in adapter.c alike, so both see the same
 * structure layouts).
 *
 * Everything the adapter can serve is configured, in every image, whatever
 * the profile routes: an algorithm is then built the same way in every image
 * (the same structure sizes, hence the same stack and heap figures), and
 * only the choice of source files (backend.cmake) and of adapter entries
 * (adapter.c) follows the profile. Every macro says why it is here.
 *
 * Two profile options reach this file as compile definitions set by
 * backend.cmake:
 *   MERLIN_WOLFCRYPT_ASM        1 for the "thumb2-asm" variant (Cortex-M
 *                               Thumb-2 assembly), 0 for portable C;
 *   MERLIN_WOLFCRYPT_SMALL_MEM  1 for wolfcrypt.mem = small (the low-memory
 *                               ML-DSA and ML-KEM code paths).
 *
 * The same file serves the host (x86_64, 64-bit SP words) and the Cortex-M
 * targets (32-bit SP words). Everything here was checked to compile
 * warning-free with host gcc 12 and arm-none-eabi-gcc 12 (the library is
 * built without -W flags, but the image must build without any warning, and
 * wolfSSL emits #warning for some configurations, e.g. without the
 * timing-resistance options below).
 */
#ifndef MERLIN_WOLFCRYPT_USER_SETTINGS_H
#define MERLIN_WOLFCRYPT_USER_SETTINGS_H

#ifndef MERLIN_WOLFCRYPT_ASM
#define MERLIN_WOLFCRYPT_ASM 0
#endif
#ifndef MERLIN_WOLFCRYPT_SMALL_MEM
#define MERLIN_WOLFCRYPT_SMALL_MEM 0
#endif

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

/* sp_int.c for the generic mp_int code (ECC curve parameters, r and s, the
 * RFC 6979 nonce, RSA and DH key import, the DH public-key range check) ... */
#define WOLFSSL_SP_MATH_ALL
/* ... and the fixed-size single-precision code (sp_c32.c / sp_c64.c, or
 * sp_cortexm.c with the assembly) for the P-256 point operations, the
 * RSA-2048 private and public operations and the 2048-bit DH
 * exponentiations. */
#define WOLFSSL_HAVE_SP_ECC
#define WOLFSSL_HAVE_SP_RSA
#define WOLFSSL_HAVE_SP_DH
/* Only 2048-bit RSA/DH is served: no SP code for 3072 bits. */
#define WOLFSSL_SP_NO_3072
/* WOLFSSL_SP_SMALL is deliberately not defined: the small SP variants loop
 * where the default ones unroll. Measured on qemu-m4 (portable C, median
 * instructions), small -> default: ECDH P-256 shared 9.6 M -> 2.9 M,
 * keygen 9.6 M -> 1.4 M, ECDSA verify 19.3 M -> 3.1 M, RSA-2048 sign
 * 118 M -> 94 M, for 35.6 KB more flash in a classical image (28.7 KB with
 * the Thumb-2 assembly). wolfSSL's configure also uses the default SP code
 * unless --enable-sp=small is asked for, so this is what a deployment that
 * picked SP gets; the flash cost shows in every image's size. */
/* 64-bit SP digits where the compiler has a 128-bit integer type (the x86_64
 * host; wolfSSL's configure detects the same), so sp_c64.c serves there;
 * 32-bit digits and sp_c32.c on Cortex-M. backend.cmake picks the matching
 * file. */
#if defined(__SIZEOF_INT128__) && !defined(HAVE___UINT128_T)
#define HAVE___UINT128_T 1
#endif
/* Largest number: the 2048-bit RSA modulus and DH prime (an mp_int holds
 * twice this many bits for products). */
#define SP_INT_BITS 2048
/* The adapter converts ECDSA r and s with the mp_ functions. */
#define WOLFSSL_PUBLIC_MP
/* Constant-time code paths and RSA blinding (also silences wolfSSL's
 * "consider using harden options" #warning). */
#define TFM_TIMING_RESISTANT
#define ECC_TIMING_RESISTANT
#define WC_RSA_BLINDING

/* ---- hashes, MAC, KDF -------------------------------------------------- */

/* SHA-256 and HMAC are on by default; HKDF (RFC 5869) in hmac.c. */
#define HAVE_HKDF
/* SHA-512 for Ed25519 (RFC 8032) and SLH-DSA; not SHA-512/224, /256. */
#define WOLFSSL_SHA512
#define WOLFSSL_NOSHA512_224
#define WOLFSSL_NOSHA512_256
/* SHA3-256 and SHAKE128/256 (FIPS 202): served on their own and used by
 * ML-KEM, ML-DSA and SLH-DSA-SHAKE. */
#define WOLFSSL_SHA3
#define WOLFSSL_SHAKE128
#define WOLFSSL_SHAKE256
/* Ascon-Hash256 and Ascon-AEAD128 (NIST SP 800-232); wolfSSL 5.9.2 still
 * files Ascon under experimental settings. */
#define HAVE_ASCON
#define WOLFSSL_EXPERIMENTAL_SETTINGS

/* ---- AES --------------------------------------------------------------- */

/* AES-GCM (SP 800-38D) and AES-CCM (SP 800-38C), 128 and 256-bit keys. */
#define HAVE_AESGCM
#define HAVE_AESCCM
#define NO_AES_192
/* GHASH with a 4-bit table per key (512 bytes in the Aes object): the
 * table size wolfSSL's configure uses by default, and the one its Arm
 * assembly requires (aes.h forces it with WOLFSSL_ARMASM), so both variants
 * run the same GHASH algorithm. */
#define GCM_TABLE_4BIT
/* No CBC, CTR, ECB, ... : only the two AEAD modes are served. */
#define NO_AES_CBC

/* ---- elliptic curves ---------------------------------------------------- */

/* ECC on P-256 only (ECC_USER_CURVES: only the curves named; P-256 is on
 * unless NO_ECC256). */
#define HAVE_ECC
#define ECC_USER_CURVES
/* ECDSA with the RFC 6979 nonce (wc_ecc_set_deterministic). */
#define WOLFSSL_ECDSA_DETERMINISTIC_K

/* X25519 (RFC 7748) and Ed25519 (RFC 8032). CURVE25519_SMALL and
 * ED25519_SMALL stay undefined: the Thumb-2 assembly needs the full field
 * code, and the C variant then runs the same algorithm (fe_operations.c,
 * ge_operations.c). */
#define HAVE_CURVE25519
#define HAVE_ED25519
/* Left to wolfSSL's default: settings.h turns WOLFSSL_CURVE25519_BLINDING on
 * for the portable C X25519 (scalar blinding, with an RNG on the private
 * key) but not with WOLFSSL_ARMASM, so the two variants differ by that too
 * (adapter.c sets the RNG when it is on). */

/* ---- RSA --------------------------------------------------------------- */

/* RSASSA-PKCS1-v1_5 signing and verification (RFC 8017 section 8.2) with
 * the key of the known-answer vectors: no key generation, no OAEP, no PSS. */
#define WC_NO_RSA_OAEP
#define RSA_MIN_SIZE 2048
#define RSA_MAX_SIZE 2048

/* ---- finite-field Diffie-Hellman --------------------------------------- */

/* The RFC 7919 ffdhe2048 group (wc_DhSetNamedKey). Without HAVE_FFDHE_Q
 * (a FIPS-build option of wolfSSL's configure) as in a default build: the
 * private exponent is 29 bytes from the DRBG, and a peer's public value
 * gets the range check [2, p - 2] without the y^q = 1 test, which would
 * cost a full 2048-bit exponentiation per agreement. */
#define HAVE_FFDHE_2048
/* No floating point: DiscreteLogWorkFactor would otherwise pull in libm's
 * pow/log (for groups outside wolfSSL's table of sizes). */
#define WOLFSSL_DH_CONST

/* ---- post-quantum ------------------------------------------------------ */

/* ML-KEM-512/768/1024 (FIPS 203, wc_mlkem.c). */
#define WOLFSSL_HAVE_MLKEM
/* ML-DSA-44/65/87 (FIPS 204, wc_mldsa.c), without its ASN.1 key encodings
 * (keys are the raw FIPS 204 encodings). */
#define WOLFSSL_HAVE_MLDSA
#define WOLFSSL_MLDSA_NO_ASN1
/* SLH-DSA (FIPS 205, wc_slhdsa.c): the SHAKE and the SHA2 parameter sets,
 * category 1 (128s, 128f) only. */
#define WOLFSSL_HAVE_SLHDSA
#define WOLFSSL_WC_SLHDSA
#define WOLFSSL_SLHDSA_SHA2
#define WOLFSSL_SLHDSA_PARAM_NO_192
#define WOLFSSL_SLHDSA_PARAM_NO_256
#define WOLFSSL_SLHDSA_PARAM_NO_SHA2_192
#define WOLFSSL_SLHDSA_PARAM_NO_SHA2_256

#if MERLIN_WOLFCRYPT_SMALL_MEM
/* wolfcrypt.mem = small: the low-memory code paths of ML-DSA key
 * generation, signing and verification, and of ML-KEM key generation and
 * encapsulation (scratch cut from about 121 KB to 27 KB for ML-DSA-87
 * signing, and to about 8 KB for ML-KEM, at a cost in time). */
#define WOLFSSL_MLDSA_MAKE_KEY_SMALL_MEM
#define WOLFSSL_MLDSA_SIGN_SMALL_MEM
#define WOLFSSL_MLDSA_VERIFY_SMALL_MEM
#define WOLFSSL_MLKEM_MAKEKEY_SMALL_MEM
#define WOLFSSL_MLKEM_ENCAPSULATE_SMALL_MEM
#endif

/* ---- ASN.1 ------------------------------------------------------------- */

/* asn.c is built for one thing: wc_RsaPrivateKeyDecode of the PKCS #1
 * RSAPrivateKey DER (the sk encoding of mcore.h), plus the DigestInfo of
 * RSASSA-PKCS1-v1_5 (wc_EncodeSignature) and wc_RsaPublicKeyDecodeRaw.
 * Everything certificate-related stays out. */
#define NO_CERTS
#define NO_CODING
#define WOLFSSL_NO_PEM
#define NO_PKCS8
#define NO_PKCS12
#define NO_PWDBASED
#define NO_SIG_WRAPPER
#define IGNORE_NAME_CONSTRAINTS

/* ---- what is not needed ------------------------------------------------ */

#define NO_DSA
#define NO_DES3
#define NO_RC4
#define NO_MD4
#define NO_MD5
#define NO_SHA /* SHA-1 */
#define NO_OLD_TLS
#define NO_PSK
#define NO_KDF /* the TLS/SSH/SRTP KDFs of kdf.c; HKDF is in hmac.c */

/* ---- Thumb-2 assembly (the "thumb2-asm" variant, Cortex-M3/M4/M7/M33) --- */

#if MERLIN_WOLFCRYPT_ASM
/* The ARM assembly in wolfcrypt/src/port/arm, as inline asm in the *_c.c
 * files (WOLFSSL_ARMASM_INLINE), Thumb-2 flavour, without the ARMv8 crypto
 * instructions and NEON that Cortex-M lacks (without NO_NEON the SHA-256
 * transform is not defined at link time): SHA-256, SHA-512, SHA-3/Keccak,
 * AES, Curve25519/Ed25519 field arithmetic and the ML-KEM NTT. */
#define WOLFSSL_ARMASM
#define WOLFSSL_ARMASM_THUMB2
#define WOLFSSL_ARMASM_INLINE
#define WOLFSSL_ARMASM_NO_HW_CRYPTO
#define WOLFSSL_ARMASM_NO_NEON
#define WOLFSSL_ARM_ARCH 7
/* SP P-256, RSA-2048 and DH-2048 in Cortex-M assembly (sp_cortexm.c
 * replaces sp_c32.c). */
#define WOLFSSL_SP_ASM
#define WOLFSSL_SP_ARM_CORTEX_M_ASM
#endif

#endif
