/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Cross-check mode (merlin-image --xcheck): every algorithm of every linked
 * backend is run on inputs derived from fixed seeds, and the inputs and
 * outputs are printed as plain text lines, so that host tools can check that
 * all backends agree with each other and with independent implementations
 * (tests/xcheck: OpenSSL and @noble). Nothing is timed. The line format is
 * documented in src/core/xcheck.c and tests/xcheck/README.md.
 */
#ifndef MERLIN_XCHECK_H
#define MERLIN_XCHECK_H

/* Number of seeds (0 .. XCHECK_SEEDS-1) and the harness RNG seed of seed n:
 * mcore_rng_seed(XCHECK_RNG_BASE + n). */
#define XCHECK_SEEDS 10u
#define XCHECK_RNG_BASE 0x78636b00u /* "xck\0" */
/* SLH-DSA / SPHINCS+ "s" (small signature) sets sign slowly: only this many
 * seeds; the others print skipped=slow. */
#define XCHECK_SLOW_SEEDS 2u

/* Runs the cross-check over all backends of the image; returns the exit
 * status (0: every operation succeeded and was self-consistent, 1: not). */
int mcore_xcheck_main(void);

#endif
