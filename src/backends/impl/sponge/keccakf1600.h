/* SPDX-License-Identifier: Apache-2.0 */
/* keccakf1600.h as mupq's common/ declares it: the permutation and its
 * byte access on a state of 25 little-endian lanes, for folders that run
 * their own sponge. Renamed, with fips202.h's functions, to Merlin's
 * heap-free sponge (sponge.c). */
#ifndef KECCAKF1600_H
#define KECCAKF1600_H

#include <stdint.h>

void KeccakF1600_StateExtractBytes(uint64_t *state, unsigned char *data,
                                   unsigned int offset, unsigned int length);
void KeccakF1600_StateXORBytes(uint64_t *state, const unsigned char *data,
                               unsigned int offset, unsigned int length);
void KeccakF1600_StatePermute(uint64_t *state);

#endif
