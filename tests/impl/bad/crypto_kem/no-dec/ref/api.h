/* SPDX-License-Identifier: Apache-2.0 */
/* Bad folder (tests/impl/README.md): api.h declares no crypto_kem_dec.
 * A toy KEM for Merlin's tests of implementation folders
 * (tests/impl/README.md): correct and deterministic, not secure (anyone
 * with the public key can decapsulate). pqm4-style names: no prefix. */
#ifndef TOY_KEM_API_H
#define TOY_KEM_API_H

#include <stdint.h>

#define CRYPTO_SECRETKEYBYTES 64
#define CRYPTO_PUBLICKEYBYTES 32
#define CRYPTO_CIPHERTEXTBYTES 32
#define CRYPTO_BYTES 32
#define CRYPTO_ALGNAME "toy-kem"

int crypto_kem_keypair(uint8_t *pk, uint8_t *sk);
int crypto_kem_enc(uint8_t *ct, uint8_t *ss, const uint8_t *pk);

#endif
