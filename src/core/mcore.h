/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Merlin target core: the contract between the runner, the operation
 * catalogue (src/ops) and the backend adapters (src/backends).
 *
 * Everything here is freestanding C11 and is compiled into every image, on
 * the host and on the microcontroller alike.
 *
 * Layering and prefixes (of every global symbol Merlin's own objects
 * define; tests/check_style.sh checks the images' and the CLI's objects
 * against this list):
 *   mcore_  registry, rng, allocator, markers (src/core); the wire writer
 *           (src/wire, records and fields from src/wire/wire.def)
 *   runner_ the runner's entry points (src/core/runner.c)
 *   mops_   operation catalogue and known-answer vectors (src/ops)
 *   mwf_    end-to-end workflows (src/workflows)
 *   mport_  the port contract of one target (src/ports)
 *   cortexm_ code shared by the Cortex-M ports (src/ports/cortexm)
 *   brd_    a real board's port (src/ports/boards)
 *   mbe_    backend adapters (src/backends/<name>)
 *   merlin_ hooks a library's configuration names (merlin_wolfcrypt_seed)
 *   mh_     the host CLI (host/)
 * Names fixed by others (a library's callback, CMSIS vector names, the C
 * runtime):
 *     fixed: PQCLEAN_randombytes mbedtls_psa_external_get_random
 *     fixed: mbedtls_hardware_poll *_Handler main _exit _sbrk
 *     fixed: _write _read _close _fstat _isatty _lseek _getpid _kill
 *     fixed: __assert_func
 */
#ifndef MERLIN_MCORE_H
#define MERLIN_MCORE_H

#include <stddef.h>
#include <stdint.h>

/* ---- algorithms ------------------------------------------------------ */

typedef enum {
#define X(e, id, cls) MCORE_ALG_##e,
#include "algs.def"
#undef X
  MCORE_ALG_COUNT
} mcore_alg;

/* Operation interface an algorithm is served through. */
typedef enum {
  MCORE_CLASS_HASH, /* message -> digest */
  MCORE_CLASS_XOF,  /* message -> output of any length (SHAKE) */
  MCORE_CLASS_AEAD, /* key setup, encrypt, decrypt, authenticate-only */
  MCORE_CLASS_MAC,  /* key, message -> tag */
  MCORE_CLASS_KDF,  /* salt, ikm, info -> okm */
  MCORE_CLASS_KA,   /* key agreement: keygen, shared */
  MCORE_CLASS_SIG,  /* signature: keygen, sign, verify */
  MCORE_CLASS_KEM,  /* key encapsulation: keygen, encaps, decaps */
} mcore_class;

const char *mcore_alg_id(mcore_alg alg);
mcore_class mcore_alg_class(mcore_alg alg);

/* ---- backends -------------------------------------------------------- */

typedef enum {
#define X(e, name, algs) MCORE_BACKEND_##e,
#include "backends.def"
#undef X
#ifdef MERLIN_TEST_CT_PLANT
  MCORE_BACKEND_CT_PLANT, /* test hook: tests/ct/plant, planted leaks */
#endif
  MCORE_BACKEND_COUNT
} mcore_backend_id;

const char *mcore_backend_name(mcore_backend_id id);

/* Return codes of every vtable function: 0 is success. */
#define MCORE_OK 0
#define MCORE_ERR (-1)
#define MCORE_BAD_SIGNATURE 1 /* verify: well-formed but not valid */

/* Byte-oriented operation interfaces, one per class. Every function works on
 * byte strings in the standard encodings named below, so that the same
 * known-answer vectors and the same workflows run on every backend. Any
 * import/export a library needs is part of the measured operation. */

typedef struct {
  size_t digest_len;
  int (*hash)(uint8_t *out, const uint8_t *msg, size_t len);
} mcore_hash_vt;

typedef struct {
  /* FIPS 202 SHAKE: out_len bytes of output for msg. */
  int (*xof)(uint8_t *out, size_t out_len, const uint8_t *msg, size_t len);
} mcore_xof_vt;

/* AEAD with a backend-owned context of ctx_size bytes (at most
 * MCORE_AEAD_CTX_MAX, 8-byte aligned, provided by the caller): setup is
 * the key schedule (and the GHASH table for GCM) and is timed on its own;
 * encrypt/decrypt then reuse the context. Nonce lengths: GCM 12, CCM 13,
 * Ascon-AEAD128 16; tags: 16 bytes. */
#define MCORE_AEAD_CTX_MAX 4096
typedef struct {
  size_t key_len, nonce_len, tag_len, ctx_size;
  int (*setup)(void *ctx, const uint8_t *key);
  int (*encrypt)(void *ctx, uint8_t *ct, uint8_t *tag, const uint8_t *nonce,
                 const uint8_t *aad, size_t aad_len, const uint8_t *pt,
                 size_t len);
  /* MCORE_OK, or MCORE_BAD_SIGNATURE when the tag does not verify (pt is
   * then not to be used). */
  int (*decrypt)(void *ctx, uint8_t *pt, const uint8_t *nonce,
                 const uint8_t *aad, size_t aad_len, const uint8_t *ct,
                 size_t len, const uint8_t *tag);
  void (*cleanup)(void *ctx); /* releases what setup allocated */
} mcore_aead_vt;

typedef struct {
  size_t tag_len;
  int (*mac)(uint8_t *tag, const uint8_t *key, size_t key_len,
             const uint8_t *msg, size_t len);
} mcore_mac_vt;

typedef struct {
  /* RFC 5869 extract-then-expand, okm_len <= 255 * hash length. */
  int (*derive)(uint8_t *okm, size_t okm_len, const uint8_t *salt,
                size_t salt_len, const uint8_t *ikm, size_t ikm_len,
                const uint8_t *info, size_t info_len);
} mcore_kdf_vt;

typedef struct {
  size_t pk_len, sk_len, ss_len;
  /* Randomness is drawn from the harness generator (mcore_rng_fill). */
  int (*keygen)(uint8_t *pk, uint8_t *sk);
  /* P-256: pk is the SEC1 uncompressed point (65 bytes), sk the 32-byte
   * big-endian scalar, ss the 32-byte x coordinate (SP 800-56A).
   * X25519: 32-byte strings as in RFC 7748. FFDHE-2048 (RFC 7919): pk and
   * ss are 256-byte big-endian integers, sk a 256-byte big-endian
   * exponent (leading zeros allowed). */
  int (*shared)(uint8_t *ss, const uint8_t *sk, const uint8_t *peer_pk);
} mcore_ka_vt;

typedef struct {
  size_t pk_len, sk_len, sig_len; /* sig_len: the maximum */
  /* Randomness is drawn from the harness generator (mcore_rng_fill).
   * NULL when key generation is not benchmarked (RSA-2048: the operations
   * use the key of the known-answer vectors). */
  int (*keygen)(uint8_t *pk, uint8_t *sk);
  /* Signs msg (the scheme hashes it), always deterministically, so known
   * answers can be checked:
   *   ECDSA P-256: SHA-256 and the RFC 6979 nonce; sig = r || s (64 bytes).
   *   Ed25519: RFC 8032 (pure). RSA-2048: RSASSA-PKCS1-v1_5 with SHA-256
   *   (RFC 8017 section 8.2); pk = n (256 bytes, big-endian; e = 65537),
   *   sk = the PKCS #1 DER RSAPrivateKey (up to MOPS_SK_MAX bytes).
   *   ML-DSA: FIPS 204 ML-DSA.Sign with an empty context and rnd = 0^32
   *   (the deterministic variant). SLH-DSA: FIPS 205 slh_sign with an
   *   empty context and opt_rand = PK.seed (deterministic).
   * Keys are the standards' byte encodings. */
  int (*sign)(uint8_t *sig, size_t *sig_len, const uint8_t *msg, size_t msg_len,
              const uint8_t *sk);
  /* MCORE_OK when valid, MCORE_BAD_SIGNATURE when not, MCORE_ERR on error. */
  int (*verify)(const uint8_t *sig, size_t sig_len, const uint8_t *msg,
                size_t msg_len, const uint8_t *pk);
  /* Optional (NULL when absent): key generation from a seed, for
   * known-answer tests. ML-DSA: FIPS 204 ML-DSA.KeyGen_internal(xi), 32
   * bytes. SLH-DSA: FIPS 205 slh_keygen_internal(SK.seed, SK.prf, PK.seed),
   * 3n bytes in that order. Ed25519: the 32-byte private key. */
  int (*keygen_seed)(uint8_t *pk, uint8_t *sk, const uint8_t *seed);
  size_t seed_len;
  /* Implementation folders (src/backends/impl) only, 0 and NULL otherwise.
   * signed_message: sig is a signed message (SUPERCOP's crypto_sign: the
   * signature and the message), so a check that corrupts it flips a bit of
   * the signature part, never of the message (mops_sig_flip_at).
   * verify_name: the folder's own function behind verify
   * ("PQCLEAN_X_crypto_sign_verify", "crypto_sign_open"), named in the
   * messages of the per-sample checks. */
  int signed_message;
  const char *verify_name;
} mcore_sig_vt;

typedef struct {
  size_t pk_len, sk_len, ct_len, ss_len;
  /* FIPS 203 ML-KEM.KeyGen_internal(d, z): coins = d || z (64 bytes). */
  int (*keygen)(uint8_t *pk, uint8_t *sk, const uint8_t *coins);
  /* FIPS 203 ML-KEM.Encaps_internal(ek, m): coins = m (32 bytes). */
  int (*encaps)(uint8_t *ct, uint8_t *ss, const uint8_t *pk,
                const uint8_t *coins);
  /* MCORE_OK, or MCORE_BAD_SIGNATURE when the scheme reports that it
   * rejected the ciphertext (after computing its rejection secret, as
   * HQC's does; ML-KEM rejects implicitly and returns MCORE_OK). */
  int (*decaps)(uint8_t *ss, const uint8_t *ct, const uint8_t *sk);
} mcore_kem_vt;

/* One algorithm served by one backend. */
typedef struct mcore_impl mcore_impl;
struct mcore_impl {
  mcore_alg alg;
  mcore_backend_id backend;
  /* Optional (NULL: none): the implementation's own known-answer test,
   * run once before the catalogue's KATs of its first operation (an
   * implementation folder's NIST KAT records, src/backends/impl). record
   * receives what the image reports of it (the `nistkat` wire record).
   * The catalogue's KATs then run only where it has vectors for the
   * algorithm. MCORE_OK, or MCORE_ERR with the reason in detail. */
  int (*kat)(const mcore_impl *impl, char *record, size_t rlen, char *detail,
             size_t detail_len);
  /* variant and vt stay last: host/image/sizes.c reads variant from an
   * image's ELF by its place. */
  const char *variant; /* e.g. "c", "thumb2-asm", "psa-builtin" */
  union {
    const mcore_hash_vt *hash;
    const mcore_xof_vt *xof;
    const mcore_aead_vt *aead;
    const mcore_mac_vt *mac;
    const mcore_kdf_vt *kdf;
    const mcore_ka_vt *ka;
    const mcore_sig_vt *sig;
    const mcore_kem_vt *kem;
  } vt;
};

/* One entry of an adapter's table, with the routing assertion: the build
 * fails unless the generated profile header routes ALG to BACKEND
 * (MERLIN_ROUTE_<ALG>_<BACKEND> defined to 1). An undefined route is an
 * undeclared identifier, a route of 0 a negative array size: either way an
 * adapter cannot register an algorithm its profile gave to another backend.
 *   MCORE_IMPL(SHA256, WOLFCRYPT, "c", hash, &sha256_vt)  */
#define MCORE_IMPL(ALG, BACKEND, VARIANT, FIELD, VT)                           \
  {                                                                            \
    .alg =                                                                     \
        (mcore_alg)(MCORE_ALG_##ALG +                                          \
                    0 * sizeof(                                                \
                            char[(MERLIN_ROUTE_##ALG##_##BACKEND) ? 1 : -1])), \
    .backend = MCORE_BACKEND_##BACKEND, .variant = VARIANT, .vt = {            \
      .FIELD = VT                                                              \
    }                                                                          \
  }

/* A backend adapter: name, version and the algorithms it serves in this
 * image. init runs once before anything else (library global state). */
typedef struct {
  mcore_backend_id id;
  const char *library; /* the library behind it, e.g. "wolfssl" */
  const char *version; /* the library version actually built */
  int (*init)(void);
  /* Optional (NULL: nothing to do). So that an operation's counts do not
   * depend on what else the image holds, the runner starts every
   * operation from the same state (src/core/fresh.c): reset puts the
   * library back as init left it (Mbed TLS: PSA's key store and its
   * state, freed and initialised again), and reseed, called after it and
   * before every sample, draws the library's own generator afresh from
   * the harness generator (wolfCrypt: its Hash_DRBG as init left it,
   * reseeded), so that a sample draws what its own seed gives whatever
   * the samples and operations before it drew. */
  int (*reset)(void);
  void (*reseed)(void);
  /* impls and n_impls stay last: host/image/sizes.c reads them from an
   * image's ELF by their place. */
  const mcore_impl *impls;
  size_t n_impls;
} mcore_backend;

/* The backends linked into this image (generated into the build's
 * generated/registry.c by cmake/MerlinImage.cmake from its MERLIN_BACKENDS
 * list). */
extern const mcore_backend *const mcore_backends[];
extern const size_t mcore_n_backends;

/* ---- harness services used by backends and ops ---------------------- */

/* Deterministic random bytes. Benchmarks use a fixed-seed xoshiro128**
 * stream (src/core/rng.c; not cryptographically secure, which
 * a benchmark does not need); known-answer tests script the exact bytes. */
void mcore_rng_seed(uint64_t seed);
void mcore_rng_fill(uint8_t *out, size_t len);
/* Make the next mcore_rng_fill calls return exactly these bytes (in order);
 * once they are used up the seeded stream continues. */
void mcore_rng_script(const uint8_t *bytes, size_t len);
/* One stream per operation and sample: mcore_rng_key names the
 * operation (base: a fixed seed; alg, op: its ids; bytes: its payload, 0
 * for none), mcore_rng_seed_stream seeds the generator with that key and a
 * stream number (a sample's index, or one of the runner's fixed streams).
 * The backend is not part of the key: every backend of an algorithm draws
 * the same inputs. */
uint64_t mcore_rng_key(uint64_t base, const char *alg, const char *op,
                       uint32_t bytes);
void mcore_rng_seed_stream(uint64_t key, uint32_t stream);

/* Allocation hook every backend's allocations go through, with accounting
 * of current and peak bytes and the number of allocations. */
void *mcore_malloc(size_t n);
void *mcore_calloc(size_t n, size_t size);
void *mcore_realloc(void *p, size_t n);
void mcore_free(void *p);
/* A buffer of the harness's own (the workflows' state and messages), from
 * the same arena but outside the accounting: no heap figure counts it.
 * Never freed. */
void *mcore_harness_malloc(size_t n);
typedef struct {
  size_t current, peak;
  uint32_t allocs, failures;
} mcore_heap_stats;
void mcore_heap_reset_peak(void);
mcore_heap_stats mcore_heap_get(void);
/* Fail every allocation that would take the bytes in use past limit (test
 * hook --inject-fault heap: 0). failures counts them, and real ones. */
void mcore_heap_set_limit(size_t bytes);
/* After a constant-time check: a library whose allocation sizes depended on
 * a poisoned secret has tainted the counters and the allocator's block
 * headers; mark them public again. */
void mcore_heap_ct_clean(void (*unpoison)(const void *p, size_t n));

#endif
