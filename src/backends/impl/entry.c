/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The entry points of one implementation folder (docs/bring-your-own.md),
 * compiled with the folder's own sources and include path, so that
 * whatever its api.h makes of the names (a namespace prefix such as
 * PQCLEAN_MLKEM512_CLEAN_, or macros onto the _ctx functions as in pqm4's
 * ML-DSA) resolves here. cmake/MerlinImpl.cmake then links the folder's
 * objects into one and makes every other global symbol of it local, so
 * that folders with the same internal names share one image.
 *
 * Defined on the command line: MBI_K (the folder's index in the image),
 * MBI_NS (the prefix of its api.h names, possibly empty), MBI_KEM or
 * MBI_SIGN, MBI_DETACHED (crypto_sign_signature/verify exist),
 * MBI_SIGN_OPEN (crypto_sign/crypto_sign_open exist), and the sizes the
 * host read from api.h (MBI_PK, MBI_SK, MBI_CT, MBI_SS), checked here
 * against the compiler's view of the same macros.
 */
#include "api.h"

#include <stddef.h>
#include <stdint.h>

#define MBI_CAT(a, b) MBI_CAT_(a, b)
#define MBI_CAT_(a, b) a##b
#define MBI_API(name) MBI_CAT(MBI_NS, name)
#define MBI_ENTRY(name) MBI_CAT(MBI_CAT(mbe_impl, MBI_K), MBI_CAT(_, name))

/* A length the scheme writes through a pointer: size_t in PQClean and
 * pqm4, unsigned long long in the NIST and SUPERCOP API. The function gets
 * a pointer to a zeroed 64-bit slot (void *: either prototype accepts it);
 * on these little-endian targets the value reads back right either way. */
typedef union {
  size_t s;
  unsigned long long u;
} mbi_len;

_Static_assert(MBI_API(CRYPTO_PUBLICKEYBYTES) == MBI_PK,
               "api.h: CRYPTO_PUBLICKEYBYTES differs between the host and "
               "this target");
_Static_assert(MBI_API(CRYPTO_SECRETKEYBYTES) == MBI_SK,
               "api.h: CRYPTO_SECRETKEYBYTES differs between the host and "
               "this target");

#ifdef MBI_KEM
_Static_assert(MBI_API(CRYPTO_CIPHERTEXTBYTES) == MBI_CT,
               "api.h: CRYPTO_CIPHERTEXTBYTES differs between the host and "
               "this target");
_Static_assert(MBI_API(CRYPTO_BYTES) == MBI_SS,
               "api.h: CRYPTO_BYTES differs between the host and this target");

int MBI_ENTRY(keypair)(uint8_t *pk, uint8_t *sk);
int MBI_ENTRY(enc)(uint8_t *ct, uint8_t *ss, const uint8_t *pk);
int MBI_ENTRY(dec)(uint8_t *ss, const uint8_t *ct, const uint8_t *sk);

int MBI_ENTRY(keypair)(uint8_t *pk, uint8_t *sk) {
  return MBI_API(crypto_kem_keypair)(pk, sk);
}
int MBI_ENTRY(enc)(uint8_t *ct, uint8_t *ss, const uint8_t *pk) {
  return MBI_API(crypto_kem_enc)(ct, ss, pk);
}
int MBI_ENTRY(dec)(uint8_t *ss, const uint8_t *ct, const uint8_t *sk) {
  return MBI_API(crypto_kem_dec)(ss, ct, sk);
}
#else
_Static_assert(MBI_API(CRYPTO_BYTES) == MBI_CT,
               "api.h: CRYPTO_BYTES differs between the host and this target");

int MBI_ENTRY(keypair)(uint8_t *pk, uint8_t *sk);
int MBI_ENTRY(keypair)(uint8_t *pk, uint8_t *sk) {
  return MBI_API(crypto_sign_keypair)(pk, sk);
}
#if MBI_DETACHED
int MBI_ENTRY(signature)(uint8_t *sig, size_t *siglen, const uint8_t *m,
                         size_t mlen, const uint8_t *sk);
int MBI_ENTRY(verify)(const uint8_t *sig, size_t siglen, const uint8_t *m,
                      size_t mlen, const uint8_t *pk);
int MBI_ENTRY(signature)(uint8_t *sig, size_t *siglen, const uint8_t *m,
                         size_t mlen, const uint8_t *sk) {
  mbi_len n = {.u = 0};
  int rc = MBI_API(crypto_sign_signature)(sig, (void *)&n, m, mlen, sk);
  *siglen = (size_t)n.u;
  return rc;
}
int MBI_ENTRY(verify)(const uint8_t *sig, size_t siglen, const uint8_t *m,
                      size_t mlen, const uint8_t *pk) {
  return MBI_API(crypto_sign_verify)(sig, siglen, m, mlen, pk);
}
#endif
#if MBI_SIGN_OPEN
int MBI_ENTRY(sign)(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen,
                    const uint8_t *sk);
int MBI_ENTRY(open)(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen,
                    const uint8_t *pk);
int MBI_ENTRY(sign)(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen,
                    const uint8_t *sk) {
  mbi_len n = {.u = 0};
  int rc = MBI_API(crypto_sign)(sm, (void *)&n, m, mlen, sk);
  *smlen = (size_t)n.u;
  return rc;
}
int MBI_ENTRY(open)(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen,
                    const uint8_t *pk) {
  mbi_len n = {.u = 0};
  int rc = MBI_API(crypto_sign_open)(m, (void *)&n, sm, smlen, pk);
  *mlen = (size_t)n.u;
  return rc;
}
#endif
#endif
