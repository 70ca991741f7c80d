/* SPDX-License-Identifier: Apache-2.0 */
/* A small SHA-256 (FIPS 180-4) of the harness's own, used only to compare
 * long KAT outputs (keys, ciphertexts, signatures) against expected digests
 * independently of the backend under test. Never timed. */
#ifndef MERLIN_DIGEST_H
#define MERLIN_DIGEST_H

#include <stddef.h>
#include <stdint.h>

void mcore_sha256(uint8_t out[32], const uint8_t *msg, size_t len);

#endif
