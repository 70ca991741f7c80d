/* SPDX-License-Identifier: Apache-2.0 */
/* Independent jobs of `merlin run -j N` (image builds, QEMU runs) on up to N
 * threads, and the board that shows their states: one line per state
 * change ("[ 3/12] qemu-m4 default clang -O2: running (built in 41.2 s)"),
 * plus, on a terminal, one updating summary line with what each running
 * job does (mh_jobboard_note). */
#ifndef MERLIN_HOST_JOBS_H
#define MERLIN_HOST_JOBS_H

#include <stddef.h>

typedef enum {
  MH_JOB_WAITING,
  MH_JOB_BUILDING,
  MH_JOB_BUILT,
  MH_JOB_RUNNING,
  MH_JOB_DONE,
  MH_JOB_FAILED
} mh_job_state;

typedef struct mh_jobboard mh_jobboard;

/* labels[i] names job i (copied). tty: also the updating summary line;
 * quiet: print nothing. NULL when out of memory. */
mh_jobboard *mh_jobboard_new(size_t n, const char *const *labels, int tty,
                             int quiet);
/* Job i enters state s (thread-safe). */
void mh_jobboard_set(mh_jobboard *b, size_t i, mh_job_state s);
/* What running job i is doing ("12/79 operations, now ..."), shown on the
 * updating summary line after its label until its state changes (copied;
 * thread-safe; NULL clears it). */
void mh_jobboard_note(mh_jobboard *b, size_t i, const char *text);
void mh_jobboard_free(mh_jobboard *b);

/* Call fn(ctx, i) for every i in idx[0..n) on up to workers threads, in
 * order of idx. Once a call returns non-zero no new call starts. Returns 0,
 * or the first non-zero result (130 in preference: interrupted). */
int mh_jobs_run(const size_t *idx, size_t n, unsigned workers,
                int (*fn)(void *ctx, size_t i), void *ctx);

/* Online CPUs (at least 1): the default of -j. */
unsigned mh_jobs_default(void);

#endif
