/* SPDX-License-Identifier: Apache-2.0 */
/* A toy KEM for Merlin's tests of implementation folders
 * (tests/impl/README.md): correct and deterministic, not secure (anyone
 * with the public key can decapsulate). PQClean-style names: every one prefixed
 * (TOY_FLAKY_). */
#ifndef TOY_FLAKY_API_H
#define TOY_FLAKY_API_H

#include <stdint.h>

#define TOY_FLAKY_CRYPTO_SECRETKEYBYTES 64
#define TOY_FLAKY_CRYPTO_PUBLICKEYBYTES 32
#define TOY_FLAKY_CRYPTO_CIPHERTEXTBYTES 32
#define TOY_FLAKY_CRYPTO_BYTES 32
#define TOY_FLAKY_CRYPTO_ALGNAME "toy-flaky"

int TOY_FLAKY_crypto_kem_keypair(uint8_t *pk, uint8_t *sk);
int TOY_FLAKY_crypto_kem_enc(uint8_t *ct, uint8_t *ss, const uint8_t *pk);
int TOY_FLAKY_crypto_kem_dec(uint8_t *ss, const uint8_t *ct, const uint8_t *sk);

#endif
