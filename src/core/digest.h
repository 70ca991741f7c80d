/* SPDX-License-Identifier: Apache-2.0 */
/* A small SHA-256 (FIPS 180-4) of the harness's own, used only to compare
 * long KAT outputs (keys, ciphertexts, signatures) against expected digests
 * independently of the backend under test. Never timed. */
#ifndef MERLIN_DIGEST_H
#define MERLIN_DIGEST_H

#include <stddef.h>
#include <stdint.h>

void mcore_sha256(uint8_t out[32], const uint8_t *msg, size_t len);

/* The same, incrementally (the NIST KAT records of implementation folders
 * are hashed as they are produced, never held whole). */
typedef struct {
  uint32_t h[8];
  uint8_t buf[64];
  size_t fill;
  uint64_t total;
} mcore_sha256_ctx;
void mcore_sha256_init(mcore_sha256_ctx *c);
void mcore_sha256_update(mcore_sha256_ctx *c, const uint8_t *msg, size_t len);
void mcore_sha256_final(mcore_sha256_ctx *c, uint8_t out[32]);

#endif
