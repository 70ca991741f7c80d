/* SPDX-License-Identifier: Apache-2.0 */
/* The plan of a run: every target with every profile (--profile a,b),
 * and with --cc/--opt every compiler and optimisation level: one job
 * (one image on one target, run/job.h) per combination. */
#ifndef MERLIN_HOST_RUN_PLAN_H
#define MERLIN_HOST_RUN_PLAN_H

#include "run/job.h"

/* Everything one `merlin run` holds: the matrix (--cc x --opt), the
 * profiles, one run context per profile and one mh_job per (profile,
 * target, compiler, level). Freed in one place, plan_free. */
typedef struct {
  const mh_run_opts *o;
  char **ccs, **opts, **profs;
  size_t n_cc, n_opt, n_prof;
  int matrix;
  mh_run_ctx *ctxs;
  mh_run_opts *popts; /* per profile: o with its profile */
  mh_job *trs;
  size_t done; /* trs[0..done) are set up */
} mh_plan;

/* Split --cc, --opt and --profile and allocate the jobs. Returns 0, 1 or
 * 2 (reported). */
int mh_plan_init(mh_plan *pl, const mh_run_opts *o);

/* Load profile p and set up its jobs. */
int mh_plan_profile(mh_plan *pl, size_t p, int parallel, unsigned workers);

void mh_plan_free(mh_plan *pl);

#endif
