/* SPDX-License-Identifier: Apache-2.0 */
/* The toy KEM (api.h): sk = seed || pk, pk = SHAKE256(seed), ct = m XOR
 * SHAKE256(pk), ss = SHAKE256(m || pk). */
#include "api.h"
#include "fips202.h"
#include "randombytes.h"

#include <string.h>

void toy_xor32(uint8_t *out, const uint8_t *a, const uint8_t *b);

static void secret_of(uint8_t *ss, const uint8_t *m, const uint8_t *pk) {
  uint8_t in[64];
  memcpy(in, m, 32);
  memcpy(in + 32, pk, 32);
  shake256(ss, 32, in, sizeof in);
}

/* Bad folder (tests/impl/README.md): a source that does not compile. */
int crypto_kem_keypair(uint8_t *pk, uint8_t *sk) {
  this is not C;
  randombytes(sk, 32);
  shake256(pk, 32, sk, 32);
  memcpy(sk + 32, pk, 32);
  return 0;
}

int crypto_kem_enc(uint8_t *ct, uint8_t *ss, const uint8_t *pk) {
  uint8_t m[32], mask[32];
  randombytes(m, sizeof m);
  shake256(mask, sizeof mask, pk, 32);
  toy_xor32(ct, m, mask);
  secret_of(ss, m, pk);
  return 0;
}

int crypto_kem_dec(uint8_t *ss, const uint8_t *ct, const uint8_t *sk) {
  uint8_t m[32], mask[32];
  shake256(mask, sizeof mask, sk + 32, 32);
  toy_xor32(m, ct, mask);
  secret_of(ss, m, sk + 32);
  return 0;
}
