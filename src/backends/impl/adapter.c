/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The adapter of one implementation folder (docs/bring-your-own.md),
 * compiled once per folder by cmake/MerlinImpl.cmake with the folder's
 * facts on the command line (MBI_K, MBI_KEM or MBI_SIGN, MBI_DETACHED,
 * MBI_SIGN_OPEN, MBI_FAMILY, MBI_N, the sizes MBI_PK, MBI_SK, MBI_CT,
 * MBI_SS, and the expected NIST KAT records MBI_EXPECT with their source
 * MBI_EXPECT_FROM). It calls the folder through the entry points of
 * entry.c (mbe_impl<K>_keypair, ...), never through its api.h, so that no
 * header of the folder is compiled with Merlin's warnings.
 *
 * Every operation is the api.h function itself plus, where a standard
 * fixes the randomness (mbe_impl.h, MBI_FAMILY), the bytes scripted into
 * the harness generator that the folder's randombytes() then returns.
 */
#include "mbe_impl.h"
#include "mcore.h"
#include "mops.h"

#include <string.h>

#define MBI_CAT(a, b) MBI_CAT_(a, b)
#define MBI_CAT_(a, b) a##b
#define E(name) MBI_CAT(MBI_CAT(mbe_impl, MBI_K), MBI_CAT(_, name))
#define MBI_STR(x) MBI_STR_(x)
#define MBI_STR_(x) #x
/* The prefix of the folder's api.h names, as a string ("" for none). */
#define NS_STR MBI_STR(MBI_NS)

#if MBI_FAMILY != MBI_FAMILY_OTHER
#define SCRIPT(bytes, n) mcore_rng_script(bytes, n)
#define SCRIPT_END() mcore_rng_script(NULL, 0)
#else
#define SCRIPT(bytes, n) ((void)(bytes), (void)(n))
#define SCRIPT_END() ((void)0)
#endif

int E(keypair)(uint8_t *pk, uint8_t *sk);
int E(kat)(const mcore_impl *impl, char *record, size_t rlen, char *detail,
           size_t dn);

#ifdef MBI_KEM
int E(enc)(uint8_t *ct, uint8_t *ss, const uint8_t *pk);
int E(dec)(uint8_t *ss, const uint8_t *ct, const uint8_t *sk);
extern const mcore_kem_vt E(kem_vt);

/* FIPS 203: coins = d || z for key generation, m for encapsulation. */
static int keygen(uint8_t *pk, uint8_t *sk, const uint8_t *coins) {
  SCRIPT(coins, 64);
  int rc = E(keypair)(pk, sk);
  SCRIPT_END();
  return rc ? MCORE_ERR : MCORE_OK;
}

static int encaps(uint8_t *ct, uint8_t *ss, const uint8_t *pk,
                  const uint8_t *coins) {
  SCRIPT(coins, 32);
  int rc = E(enc)(ct, ss, pk);
  SCRIPT_END();
  return rc ? MCORE_ERR : MCORE_OK;
}

/* Decapsulation of a ciphertext the key does not match: FIPS 203 rejects
 * implicitly (a pseudo-random secret, return 0); some schemes also say so
 * (HQC's crypto_kem_dec returns -1 with its rejection secret). Either way
 * the call ran its whole path; mcore.h: MCORE_BAD_SIGNATURE. */
static int decaps(uint8_t *ss, const uint8_t *ct, const uint8_t *sk) {
  return E(dec)(ss, ct, sk) ? MCORE_BAD_SIGNATURE : MCORE_OK;
}

const mcore_kem_vt E(kem_vt) = {
    .pk_len = MBI_PK,
    .sk_len = MBI_SK,
    .ct_len = MBI_CT,
    .ss_len = MBI_SS,
    .keygen = keygen,
    .encaps = encaps,
    .decaps = decaps,
};

static const mbe_impl_api api = {
    .keypair = E(keypair),
    .enc = E(enc),
    .dec = E(dec),
    .pk_len = MBI_PK,
    .sk_len = MBI_SK,
    .ct_len = MBI_CT,
    .ss_len = MBI_SS,
    .expect = MBI_EXPECT,
    .expect_from = MBI_EXPECT_FROM,
    .ns = NS_STR,
};
#else
extern const mcore_sig_vt E(sig_vt);
#if MBI_DETACHED
int E(signature)(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen,
                 const uint8_t *sk);
int E(verify)(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen,
              const uint8_t *pk);
#define SIGNATURE E(signature)
#define VERIFY E(verify)
/* The signature is detached: at most CRYPTO_BYTES. */
#define SIG_MAX MBI_CT
#else
#define SIGNATURE NULL
#define VERIFY NULL
/* Only crypto_sign/crypto_sign_open: the "signature" is the signed
 * message, at most CRYPTO_BYTES beyond the message. */
#define SIG_MAX (MBI_CT + MOPS_MSG_MAX)
#endif
#if MBI_SIGN_OPEN
int E(sign)(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen,
            const uint8_t *sk);
int E(open)(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen,
            const uint8_t *pk);
#define SIGN E(sign)
#define OPEN E(open)
#else
#define SIGN NULL
#define OPEN NULL
#endif

static int keygen(uint8_t *pk, uint8_t *sk) {
  return E(keypair)(pk, sk) ? MCORE_ERR : MCORE_OK;
}

#if MBI_FAMILY == MBI_FAMILY_MLDSA || MBI_FAMILY == MBI_FAMILY_SLHDSA
/* Key generation from the standard's seed: xi (ML-DSA), or SK.seed ||
 * SK.prf || PK.seed (SLH-DSA), drawn by the folder's randombytes(). */
#if MBI_FAMILY == MBI_FAMILY_MLDSA
#define SEED_LEN 32
#else
#define SEED_LEN (3 * MBI_N)
#endif
static int keygen_seed(uint8_t *pk, uint8_t *sk, const uint8_t *seed) {
  SCRIPT(seed, SEED_LEN);
  int rc = E(keypair)(pk, sk);
  SCRIPT_END();
  return rc ? MCORE_ERR : MCORE_OK;
}
#define KEYGEN_SEED keygen_seed
#else
#define SEED_LEN 0
#define KEYGEN_SEED NULL
#endif

static int sign(uint8_t *sig, size_t *sig_len, const uint8_t *msg,
                size_t msg_len, const uint8_t *sk) {
#if MBI_FAMILY == MBI_FAMILY_MLDSA
  static const uint8_t rnd[32]; /* FIPS 204: rnd = 0^32, deterministic */
  SCRIPT(rnd, sizeof rnd);
#elif MBI_FAMILY == MBI_FAMILY_SLHDSA
  SCRIPT(sk + 2 * MBI_N, MBI_N); /* FIPS 205: opt_rand = PK.seed */
#endif
#if MBI_DETACHED
  int rc = E(signature)(sig, sig_len, msg, msg_len, sk);
#else
  int rc = E(sign)(sig, sig_len, msg, msg_len, sk);
#endif
  SCRIPT_END();
  return rc ? MCORE_ERR : MCORE_OK;
}

static int verify(const uint8_t *sig, size_t sig_len, const uint8_t *msg,
                  size_t msg_len, const uint8_t *pk) {
#if MBI_DETACHED
  return E(verify)(sig, sig_len, msg, msg_len, pk) ? MCORE_BAD_SIGNATURE
                                                   : MCORE_OK;
#else
  /* crypto_sign_open writes the message it recovers: into a copy. */
  static uint8_t opened[SIG_MAX];
  size_t mlen = 0;
  if (sig_len > sizeof opened)
    return MCORE_BAD_SIGNATURE;
  if (E(open)(opened, &mlen, sig, sig_len, pk) != 0)
    return MCORE_BAD_SIGNATURE;
  return mlen == msg_len && memcmp(opened, msg, msg_len) == 0
             ? MCORE_OK
             : MCORE_BAD_SIGNATURE;
#endif
}

const mcore_sig_vt E(sig_vt) = {
    .pk_len = MBI_PK,
    .sk_len = MBI_SK,
    .sig_len = SIG_MAX,
    .keygen = keygen,
    .sign = sign,
    .verify = verify,
    .keygen_seed = KEYGEN_SEED,
    .seed_len = SEED_LEN,
#if MBI_DETACHED
    .signed_message = 0,
    .verify_name = NS_STR "crypto_sign_verify",
#else
    .signed_message = 1,
    .verify_name = NS_STR "crypto_sign_open",
#endif
};

static const mbe_impl_api api = {
    .keypair = E(keypair),
    .signature = SIGNATURE,
    .verify = VERIFY,
    .sign = SIGN,
    .open = OPEN,
    .pk_len = MBI_PK,
    .sk_len = MBI_SK,
    .ct_len = MBI_CT,
    .ss_len = 0,
    .expect = MBI_EXPECT,
    .expect_from = MBI_EXPECT_FROM,
    .ns = NS_STR,
};
#endif

/* The folder's own known-answer test (mcore_impl.kat): the NIST records. */
int E(kat)(const mcore_impl *impl, char *record, size_t rlen, char *detail,
           size_t dn) {
  (void)impl;
  return mbe_impl_nistkat(&api, record, rlen, detail, dn);
}
