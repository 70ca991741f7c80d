/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libsodium adapter: SHA-256, HMAC-SHA-256, X25519, Ed25519 and ML-KEM-768
 * from libsodium's portable C implementations (variant "ref": ref10 for
 * Curve25519/Edwards25519, the "cp" SHA-2 code, the reference Keccak and
 * ML-KEM-768). backend.cmake compiles exactly the files of the routed
 * algorithms and tells this file which ones (MERLIN_SODIUM_<ALG>).
 *
 * sodium_init() is not called. In this build it would only probe CPU
 * features for assembly that is not compiled, stir the randombytes
 * implementation (ours has no state), prepare sodium_malloc's guard pages
 * (unused) and pick the X25519 implementation, which is already ref10 by
 * static initialisation; calling it would link Argon2, BLAKE2b, Poly1305,
 * ChaCha20, Salsa20 and AEGIS into every image for nothing.
 */
#include "mbe_route.h"
#include "mcore.h"
#include "merlin_profile.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "randombytes.h"
#include "utils.h"

#if MERLIN_ROUTE_SHA256_LIBSODIUM || MERLIN_ROUTE_HMAC_SHA256_LIBSODIUM
#include "crypto_hash_sha256.h"
#endif
#if MERLIN_ROUTE_HMAC_SHA256_LIBSODIUM
#include "crypto_auth_hmacsha256.h"
#endif
#if MERLIN_ROUTE_X25519_LIBSODIUM
#include "crypto_scalarmult_curve25519.h"
#endif
#if MERLIN_ROUTE_ED25519_LIBSODIUM
#include "crypto_sign_ed25519.h"
#endif
#if MERLIN_ROUTE_ML_KEM_768_LIBSODIUM
#include "crypto_kem_mlkem768.h"
#endif

/* The pairs this adapter serves, each written once: algorithm
 * (MCORE_ALG_<ALG>), interface and vtable. The "routes nothing" check and
 * impls[] are derived from it (src/backends/mbe_route.h); the per-pair
 * checks below also read the sizes of each header included above. */
#define LIBSODIUM_IMPLS(X)                                                     \
  X(SHA256, hash, sha256_vt)                                                   \
  X(HMAC_SHA256, mac, hmac_sha256_vt)                                          \
  X(X25519, ka, x25519_vt)                                                     \
  X(ED25519, sig, ed25519_vt)                                                  \
  X(ML_KEM_768, kem, mlkem768_vt)
#define LIBSODIUM_ROUTED(ALG) MBE_ROUTED(MERLIN_ROUTE_##ALG##_LIBSODIUM)
#define LIBSODIUM_ANY_ROUTED(ALG, IFACE, VT) LIBSODIUM_ROUTED(ALG) ||

/* ---- build-time routing assertions ---------------------------------------
 * Every algorithm the profile routes here must have its library sources
 * compiled into this image (backend.cmake, from the same profile) and be
 * declared by the library headers with the sizes the standards fix. */

#if MERLIN_ROUTE_SHA256_LIBSODIUM &&                                           \
    (!MERLIN_SODIUM_SHA256 || crypto_hash_sha256_BYTES != 32)
#error "profile routes sha256 to libsodium, which is not built with it"
#endif
#if MERLIN_ROUTE_HMAC_SHA256_LIBSODIUM &&                                      \
    (!MERLIN_SODIUM_HMAC_SHA256 || crypto_auth_hmacsha256_BYTES != 32)
#error "profile routes hmac-sha256 to libsodium, which is not built with it"
#endif
#if MERLIN_ROUTE_X25519_LIBSODIUM &&                                           \
    (!MERLIN_SODIUM_X25519 || crypto_scalarmult_curve25519_BYTES != 32 ||      \
     crypto_scalarmult_curve25519_SCALARBYTES != 32)
#error "profile routes x25519 to libsodium, which is not built with it"
#endif
#if MERLIN_ROUTE_ED25519_LIBSODIUM &&                                          \
    (!MERLIN_SODIUM_ED25519 || crypto_sign_ed25519_BYTES != 64 ||              \
     crypto_sign_ed25519_SEEDBYTES != 32 ||                                    \
     crypto_sign_ed25519_PUBLICKEYBYTES != 32 ||                               \
     crypto_sign_ed25519_SECRETKEYBYTES != 64)
#error "profile routes ed25519 to libsodium, which is not built with it"
#endif
#if MERLIN_ROUTE_ML_KEM_768_LIBSODIUM &&                                       \
    (!MERLIN_SODIUM_ML_KEM_768 || crypto_kem_mlkem768_SEEDBYTES != 64 ||       \
     crypto_kem_mlkem768_PUBLICKEYBYTES != 1184 ||                             \
     crypto_kem_mlkem768_SECRETKEYBYTES != 2400 ||                             \
     crypto_kem_mlkem768_CIPHERTEXTBYTES != 1088 ||                            \
     crypto_kem_mlkem768_SHAREDSECRETBYTES != 32)
#error "profile routes ml-kem-768 to libsodium, which is not built with it"
#endif
#if MERLIN_ROUTE_AES_128_GCM_LIBSODIUM || MERLIN_ROUTE_AES_256_GCM_LIBSODIUM
/* crypto_aead_aes256gcm needs AES-NI/PCLMUL or the ARMv8 Crypto Extensions;
 * no Cortex-M has them, and there is no AES-128-GCM at all. */
#error "libsodium offers AES-GCM only with hardware AES: not on this backend"
#endif
#if !(LIBSODIUM_IMPLS(LIBSODIUM_ANY_ROUTED) 0)
#error "libsodium is in the image but the profile routes nothing to it"
#endif

/* ---- randomness ----------------------------------------------------------
 * randombytes_buf(), which libsodium's randomised key generation draws from
 * (crypto_sign_ed25519_keypair; X25519 keygen below does as
 * crypto_box_keypair does), is served by the harness stream, so runs are
 * repeatable. The library is built without its OS sources and without a
 * default implementation (RANDOMBYTES_CUSTOM_IMPLEMENTATION, backend.cmake):
 * init installs this one before any use. */

static const char *rng_name(void) { return "merlin"; }

static uint32_t rng_random(void) {
  uint8_t b[4];
  mcore_rng_fill(b, sizeof b);
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
         (uint32_t)b[3] << 24;
}

static void rng_buf(void *const buf, const size_t size) {
  mcore_rng_fill(buf, size);
}

static const randombytes_implementation rng_impl = {
    .implementation_name = rng_name,
    .random = rng_random,
    .stir = NULL,    /* no state to reseed */
    .uniform = NULL, /* libsodium's rejection sampling over random() */
    .buf = rng_buf,
    .close = NULL,
};

/* ---- abort -----------------------------------------------------------------
 * The library's abort() (sodium_misuse(): an API contract broken, which this
 * adapter never does) is renamed to this by sodium_platform.h, where the
 * reason is. _Exit ends the run without a closing record, so the host marks
 * it invalid; on Cortex-M the port's _exit also reports a fault record. */
_Noreturn void merlin_sodium_abort(void);
_Noreturn void merlin_sodium_abort(void) { _Exit(EXIT_FAILURE); }

/* ---- SHA-256 (FIPS 180-4) ----------------------------------------------- */

#if MERLIN_ROUTE_SHA256_LIBSODIUM
static int sha256_hash(uint8_t *out, const uint8_t *msg, size_t len) {
  return crypto_hash_sha256(out, msg, len) == 0 ? MCORE_OK : MCORE_ERR;
}

static const mcore_hash_vt sha256_vt = {
    .digest_len = crypto_hash_sha256_BYTES,
    .hash = sha256_hash,
};
#endif

/* ---- HMAC-SHA-256 (RFC 2104, FIPS 198-1) -------------------------------- */

#if MERLIN_ROUTE_HMAC_SHA256_LIBSODIUM
/* The init/update/final interface takes a key of any length (keys longer
 * than the 64-byte block are hashed first, RFC 2104 section 2); the
 * one-shot crypto_auth_hmacsha256() is fixed to 32-byte keys. */
static int hmac_sha256_mac(uint8_t *tag, const uint8_t *key, size_t key_len,
                           const uint8_t *msg, size_t len) {
  crypto_auth_hmacsha256_state st;
  int rc = crypto_auth_hmacsha256_init(&st, key, key_len) |
           crypto_auth_hmacsha256_update(&st, msg, len) |
           crypto_auth_hmacsha256_final(&st, tag);
  sodium_memzero(&st, sizeof st);
  return rc == 0 ? MCORE_OK : MCORE_ERR;
}

static const mcore_mac_vt hmac_sha256_vt = {
    .tag_len = crypto_auth_hmacsha256_BYTES,
    .mac = hmac_sha256_mac,
};
#endif

/* ---- X25519 (RFC 7748) -------------------------------------------------- */

#if MERLIN_ROUTE_X25519_LIBSODIUM
/* sk: 32 random bytes, stored as drawn; the scalar multiplication clamps
 * them (RFC 7748 section 5, decodeScalar25519). pk = X25519(sk, 9). */
static int x25519_keygen(uint8_t *pk, uint8_t *sk) {
  randombytes_buf(sk, crypto_scalarmult_curve25519_SCALARBYTES);
  return crypto_scalarmult_curve25519_base(pk, sk) == 0 ? MCORE_OK : MCORE_ERR;
}

/* libsodium fails when the result is all zero (a small-order peer key),
 * the check RFC 7748 section 6.1 allows: reported as an error. */
static int x25519_shared(uint8_t *ss, const uint8_t *sk,
                         const uint8_t *peer_pk) {
  return crypto_scalarmult_curve25519(ss, sk, peer_pk) == 0 ? MCORE_OK
                                                            : MCORE_ERR;
}

static const mcore_ka_vt x25519_vt = {
    .pk_len = crypto_scalarmult_curve25519_BYTES,
    .sk_len = crypto_scalarmult_curve25519_SCALARBYTES,
    .ss_len = crypto_scalarmult_curve25519_BYTES,
    .keygen = x25519_keygen,
    .shared = x25519_shared,
};
#endif

/* ---- Ed25519 (RFC 8032, pure) ------------------------------------------- */

#if MERLIN_ROUTE_ED25519_LIBSODIUM
/* Our sk is libsodium's own secret key: the 32-byte RFC 8032 private key
 * (libsodium's seed) followed by the public key A (64 bytes,
 * docs/operations.md). crypto_sign_ed25519_seed_keypair derives it (SHA-512
 * of the seed, clamping, the base-point multiplication A = s.B: RFC 8032
 * section 5.1.5). */
static int ed25519_keygen_seed(uint8_t *pk, uint8_t *sk, const uint8_t *seed) {
  return crypto_sign_ed25519_seed_keypair(pk, sk, seed) == 0 ? MCORE_OK
                                                             : MCORE_ERR;
}

/* The library's key generation: 32 bytes from randombytes_buf as the seed,
 * then the same derivation. */
static int ed25519_keygen(uint8_t *pk, uint8_t *sk) {
  return crypto_sign_ed25519_keypair(pk, sk) == 0 ? MCORE_OK : MCORE_ERR;
}

/* RFC 8032 section 5.1.6 with the stored 64-byte key, as libsodium's API
 * signs. Deterministic: the library is built without
 * ED25519_NONDETERMINISTIC. */
static int ed25519_sign(uint8_t *sig, size_t *sig_len, const uint8_t *msg,
                        size_t msg_len, const uint8_t *sk) {
  unsigned long long len = 0;
  int rc = crypto_sign_ed25519_detached(sig, &len, msg, msg_len, sk);
  if (rc != 0 || len != crypto_sign_ed25519_BYTES)
    return MCORE_ERR;
  *sig_len = crypto_sign_ed25519_BYTES;
  return MCORE_OK;
}

/* RFC 8032 section 5.1.7, cofactorless, with libsodium's stricter checks:
 * S < L, R and A canonical and not of small order. Any failure is an
 * invalid signature. */
static int ed25519_verify(const uint8_t *sig, size_t sig_len,
                          const uint8_t *msg, size_t msg_len,
                          const uint8_t *pk) {
  if (sig_len != crypto_sign_ed25519_BYTES)
    return MCORE_BAD_SIGNATURE;
  return crypto_sign_ed25519_verify_detached(sig, msg, msg_len, pk) == 0
             ? MCORE_OK
             : MCORE_BAD_SIGNATURE;
}

static const mcore_sig_vt ed25519_vt = {
    .pk_len = crypto_sign_ed25519_PUBLICKEYBYTES,
    .sk_len = crypto_sign_ed25519_SECRETKEYBYTES,
    .sig_len = crypto_sign_ed25519_BYTES,
    .keygen = ed25519_keygen,
    .sign = ed25519_sign,
    .verify = ed25519_verify,
    .keygen_seed = ed25519_keygen_seed,
    .seed_len = crypto_sign_ed25519_SEEDBYTES,
};
#endif

/* ---- ML-KEM-768 (FIPS 203) ---------------------------------------------- */

#if MERLIN_ROUTE_ML_KEM_768_LIBSODIUM
/* crypto_kem_mlkem768_seed_keypair takes seed = d || z (64 bytes): d feeds
 * K-PKE.KeyGen (G(d || k), FIPS 203 Algorithm 13) and z is stored as the
 * implicit-rejection secret: ML-KEM.KeyGen_internal(d, z), Algorithm 16,
 * with our coins in the same order. */
static int mlkem768_keygen(uint8_t *pk, uint8_t *sk, const uint8_t *coins) {
  return crypto_kem_mlkem768_seed_keypair(pk, sk, coins) == 0 ? MCORE_OK
                                                              : MCORE_ERR;
}

/* crypto_kem_mlkem768_enc_deterministic takes m (32 bytes) as
 * ML-KEM.Encaps_internal(ek, m), Algorithm 17; it also performs the
 * encapsulation key modulus check of section 7.2 and fails when ek is not
 * canonical. */
static int mlkem768_encaps(uint8_t *ct, uint8_t *ss, const uint8_t *pk,
                           const uint8_t *coins) {
  return crypto_kem_mlkem768_enc_deterministic(ct, ss, pk, coins) == 0
             ? MCORE_OK
             : MCORE_ERR;
}

/* ML-KEM.Decaps_internal (Algorithm 18), implicit rejection included. */
static int mlkem768_decaps(uint8_t *ss, const uint8_t *ct, const uint8_t *sk) {
  return crypto_kem_mlkem768_dec(ss, ct, sk) == 0 ? MCORE_OK : MCORE_ERR;
}

static const mcore_kem_vt mlkem768_vt = {
    .pk_len = crypto_kem_mlkem768_PUBLICKEYBYTES,
    .sk_len = crypto_kem_mlkem768_SECRETKEYBYTES,
    .ct_len = crypto_kem_mlkem768_CIPHERTEXTBYTES,
    .ss_len = crypto_kem_mlkem768_SHAREDSECRETBYTES,
    .keygen = mlkem768_keygen,
    .encaps = mlkem768_encaps,
    .decaps = mlkem768_decaps,
};
#endif

/* ---- registration ------------------------------------------------------- */

static int libsodium_backend_init(void) {
  return randombytes_set_implementation(&rng_impl) == 0 ? MCORE_OK : MCORE_ERR;
}

#define VARIANT "ref"

/* Each entry asserts its route at compile time (MCORE_IMPL). */
#define LIBSODIUM_IMPL(ALG, IFACE, VT)                                         \
  MBE_WHEN(LIBSODIUM_ROUTED(ALG))                                              \
  (MCORE_IMPL(ALG, LIBSODIUM, VARIANT, IFACE, &VT), )
static const mcore_impl impls[] = {LIBSODIUM_IMPLS(LIBSODIUM_IMPL)};

const mcore_backend mbe_libsodium_backend = {
    .id = MCORE_BACKEND_LIBSODIUM,
    .library = "libsodium",
    .version = MERLIN_LIBSODIUM_VERSION,
    .init = libsodium_backend_init,
    .impls = impls,
    .n_impls = sizeof impls / sizeof impls[0],
};
