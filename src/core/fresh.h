/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An operation's fresh start: the state the runner puts the image in
 * before each operation, and before each of its samples, so that what an
 * operation executes does not depend on the operations before it, nor on
 * which other operations the image holds (docs/measurements.md,
 * "Independent cells").
 */
#ifndef MERLIN_FRESH_H
#define MERLIN_FRESH_H

#include <stddef.h>
#include <stdint.h>

/* Before an operation (after its known-answer test): every backend's
 * library back to its state after init (mcore_backend.reset), and the
 * free stack painted with the stack meter's pattern (so that the bytes
 * below the stack pointer are the same whatever ran before). MCORE_OK,
 * or MCORE_ERR naming the backend in msg. */
int mcore_fresh_reset(char *msg, size_t len);
/* Before every sample (and prepare, the first call, the memory run, the
 * constant-time runs): the harness generator seeded with the
 * operation's key and this stream, then every backend's own generator
 * drawn afresh from it (mcore_backend.reseed). */
void mcore_fresh_seed(uint64_t key, uint32_t stream);

#endif
