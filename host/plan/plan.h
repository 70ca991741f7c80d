/* SPDX-License-Identifier: Apache-2.0 */
/* The plan of a run: every target with every profile (--profile a,b),
 * and with --cc/--opt every compiler and optimisation level: one job
 * (one image on one target, run/job.h) per combination. */
#ifndef MERLIN_HOST_PLAN_PLAN_H
#define MERLIN_HOST_PLAN_PLAN_H

#include "run/job.h"

#include <jansson.h>

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
  size_t done;        /* trs[0..done) are set up */
  mh_run_ctx **parts; /* the parts of split profiles ("Parts", below) */
  size_t n_parts;
  /* Its identity and slices (plan/shard.c): the SHA-256 of mh_plan_json,
   * the slice of every job, this process's slice, and each job's
   * estimated cost (< 0: unknown). */
  char hash[65];
  unsigned shards, shard;
  unsigned *slice;
  double *cost;
} mh_plan;

/* Split --cc, --opt and --profile and allocate the jobs. Returns 0, 1 or
 * 2 (reported). */
int mh_plan_init(mh_plan *pl, const mh_run_opts *o);

/* Load profile p (its context; the jobs come with mh_plan_jobs). */
int mh_plan_profile(mh_plan *pl, size_t p, int parallel, unsigned workers);

/* Parts: a profile whose implementation folders are split into several
 * images (docs/scaling.md, "Heavy folders"). group[i] is the part of
 * folder i of profile p's set (library backends' folders stay in part 0);
 * part 0 keeps the profile's own image, part k > 0 is a context of its
 * own (mh_run_ctx). 0, or -1 (memory). */
int mh_plan_split(mh_plan *pl, size_t p, const unsigned *group,
                  unsigned n_groups);

/* Every job: for each profile, then each of its parts, every target and
 * every compiler and level. 0, or 1 (memory). */
int mh_plan_jobs(mh_plan *pl);

/* What the jobs of this process's slice need before they run: the known
 * answers of their profiles' implementation folders, computed on the host
 * (impl/impl_ref.h). 0, or 1 (reported). */
int mh_plan_prepare(mh_plan *pl);

void mh_plan_free(mh_plan *pl);

/* plan_file.c: --plan-only: each job's cost (from --costs DIR), the plan
 * dealt into slices (--shard's N), the table on stdout and the plan file
 * (its JSON, its hash and the command line's measuring options). 0, or
 * an exit status (reported). */
int mh_plan_write(mh_plan *pl, const mh_run_opts *o);

/* The format of a plan file ("merlin_plan"). */
#define MH_PLAN_FORMAT 1

/* shard.c: the plan as JSON: the options that decide what is measured,
 * and every job (target, profile and its content's SHA-256, compiler and
 * level, its folders' SHA-256s, whether it is host-timed, its cost). No
 * path and nothing of this machine: the same run on any machine has the
 * same plan. Consumed by the caller; NULL when out of memory. */
json_t *mh_plan_json(const mh_plan *pl);

/* shard.c: job i of the plan as JSON (mh_plan_json's "jobs"), and the
 * options that decide what a job measures (not where it runs, how many at
 * a time, or where its results go; its "options"). Consumed by the
 * caller; NULL when out of memory. */
json_t *mh_plan_job_json(const mh_plan *pl, size_t i);
json_t *mh_plan_options_json(const mh_run_opts *o);

/* shard.c: the plan's hash, and its jobs dealt into shards slices (see
 * docs/scaling.md, "Slices"): every host-timed job in slice 0, so that no
 * merged result mixes host timings of two machines; the rest, heaviest
 * first where every cost is known (else in plan order), each to the slice
 * with the least work so far. 0, or -1 with err. */
int mh_plan_slice(mh_plan *pl, unsigned shards, unsigned shard, char *err,
                  size_t errlen);

/* shard.c: job tr is timed by this machine's clock (target host): its
 * cost is in nanoseconds, the others' in instructions. */
int mh_plan_host_timed(const mh_job *tr);

/* shard.c: job i is this process's (its slice is pl->shard). */
int mh_plan_mine(const mh_plan *pl, size_t i);

/* shard.c: the plan a results set of this process is part of. */
mh_plan_ref mh_plan_ref_of(const mh_plan *pl);

/* plan_file.c: the one reader of a plan file (merlin run --plan-only
 * writes it; --plan's options, parts and costs all come through here): its
 * JSON, a plan of this merlin's format (MH_PLAN_FORMAT, no key twice) with
 * an array of jobs. Consumed by the caller; NULL with err. */
json_t *mh_plan_file_read(const char *path, char *err, size_t errlen);

/* plan_file.c: the parts a plan file's jobs name ("<profile>.part<k>", their
 * folders by SHA-256), made again (mh_plan_split) before the jobs. 0, or
 * -1 with err. */
int mh_plan_parts_from_file(mh_plan *pl, const char *path, char *err,
                            size_t errlen);

/* plan_file.c: read a plan file (merlin plan --out): every job's cost into
 * pl (the jobs must be the same, in the same order: the file's hash must
 * then be pl's). 0, or -1 with err naming what differs. */
int mh_plan_adopt(mh_plan *pl, const char *path, char *err, size_t errlen);

#endif
