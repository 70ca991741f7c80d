/* SPDX-License-Identifier: Apache-2.0 */
/* The toy signature (api.h): sk = seed || pk, pk = SHAKE256(seed),
 * signature = SHAKE256(pk || m), sm = signature || m. Every call goes
 * through fips202.h, so the folder measures whichever Keccak-f[1600] the
 * run selects (--impl-hash). */
#include "api.h"
#include "fips202.h"
#include "randombytes.h"

#include <string.h>

static void tag(unsigned char *out, const unsigned char *pk,
                const unsigned char *m, unsigned long long mlen) {
  shake256incctx s;
  shake256_inc_init(&s);
  shake256_inc_absorb(&s, pk, CRYPTO_PUBLICKEYBYTES);
  shake256_inc_absorb(&s, m, (size_t)mlen);
  shake256_inc_finalize(&s);
  shake256_inc_squeeze(out, CRYPTO_BYTES, &s);
  shake256_inc_ctx_release(&s);
}

int crypto_sign_keypair(unsigned char *pk, unsigned char *sk) {
  randombytes(sk, 32);
  shake256(pk, CRYPTO_PUBLICKEYBYTES, sk, 32);
  memcpy(sk + 32, pk, CRYPTO_PUBLICKEYBYTES);
  return 0;
}

int crypto_sign(unsigned char *sm, unsigned long long *smlen,
                const unsigned char *m, unsigned long long mlen,
                const unsigned char *sk) {
  memmove(sm + CRYPTO_BYTES, m, (size_t)mlen);
  tag(sm, sk + 32, sm + CRYPTO_BYTES, mlen);
  *smlen = mlen + CRYPTO_BYTES;
  return 0;
}

int crypto_sign_open(unsigned char *m, unsigned long long *mlen,
                     const unsigned char *sm, unsigned long long smlen,
                     const unsigned char *pk) {
  unsigned char want[CRYPTO_BYTES];
  if (smlen < CRYPTO_BYTES)
    return -1;
  tag(want, pk, sm + CRYPTO_BYTES, smlen - CRYPTO_BYTES);
  unsigned char diff = 0;
  for (size_t i = 0; i < CRYPTO_BYTES; i++)
    diff |= (unsigned char)(want[i] ^ sm[i]);
  if (diff)
    return -1;
  memmove(m, sm + CRYPTO_BYTES, (size_t)(smlen - CRYPTO_BYTES));
  *mlen = smlen - CRYPTO_BYTES;
  return 0;
}
