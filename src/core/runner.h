/* SPDX-License-Identifier: Apache-2.0 */
/* The runner's entry points, called by each port's startup. */
#ifndef MERLIN_RUNNER_H
#define MERLIN_RUNNER_H

#include <stdint.h>

typedef struct {
  uint32_t runs;   /* timed samples per operation; 0: --kat-only */
  uint32_t warmup; /* discarded samples before them */
  int xcheck;      /* --xcheck: cross-check mode (src/core/xcheck.h) */
  int ct_only;     /* --ct-only: KATs and constant-time checks, no timing */
} runner_config;

/* --runs N --warmup W (defaults MERLIN_RUNS / MERLIN_WARMUP, set at build
 * time), --kat-only (every known-answer test, nothing timed: runs=0 in the
 * begin record), --ct-only (KATs, then only the constant-time check of each
 * operation with a secret: runs=0, for a run under valgrind), --xcheck; a
 * bad argument ends the run with status 2. */
int runner_parse_args(int argc, char **argv, runner_config *cfg);
/* Runs the whole image; returns the exit status (0 ok, 1 failed). */
int runner_main(const runner_config *cfg);

#endif
