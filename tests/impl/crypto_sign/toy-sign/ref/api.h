/* SPDX-License-Identifier: Apache-2.0 */
/* A toy signature scheme for Merlin's tests of implementation folders
 * (tests/impl/README.md): correct and deterministic, not secure (anyone
 * with the public key can sign). SUPERCOP/pqm4 style: signed messages
 * (crypto_sign/crypto_sign_open) with unsigned long long lengths, no
 * prefix. */
#ifndef TOY_SIGN_API_H
#define TOY_SIGN_API_H

#include <stdint.h>

#define CRYPTO_SECRETKEYBYTES 64
#define CRYPTO_PUBLICKEYBYTES 32
#define CRYPTO_BYTES 32
#define CRYPTO_ALGNAME "toy-sign"

int crypto_sign_keypair(unsigned char *pk, unsigned char *sk);
int crypto_sign(unsigned char *sm, unsigned long long *smlen,
                const unsigned char *m, unsigned long long mlen,
                const unsigned char *sk);
int crypto_sign_open(unsigned char *m, unsigned long long *mlen,
                     const unsigned char *sm, unsigned long long smlen,
                     const unsigned char *pk);

#endif
