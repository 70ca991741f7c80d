/* SPDX-License-Identifier: Apache-2.0 */
/* Post-quantum against classical: the operations compared, the jobs they
 * make up (an exchange is keygen + shared, for instance) and the ratios of
 * their costs in one run. The one list of these pairs; report.md and
 * report.html format what these functions return. */
#ifndef MERLIN_HOST_ANALYSIS_PAIRS_H
#define MERLIN_HOST_ANALYSIS_PAIRS_H

#include "model/model.h"

#include <stddef.h>

/* An operation of the classical versus post-quantum comparison. */
typedef struct {
  const char *alg, *op, *label;
} mh_an_cmp_op;

extern const mh_an_cmp_op mh_an_cmp_ops[];
extern const size_t mh_an_n_cmp_ops;

/* The index of op in mh_an_cmp_ops, or -1 when it is not compared. */
int mh_an_cmp_index(const mh_op *op);

/* One device-side job: the sum of one or two operations of an algorithm
 * (op2 NULL: one). The sum of p99s bounds the job's p99 from above. */
typedef struct {
  const char *label, *alg, *op1, *op2;
} mh_an_job;

/* Post-quantum jobs against the classical jobs that do the same work. */
typedef enum {
  MH_AN_KE_INIT, /* key establishment, the side generating a key pair */
  MH_AN_KE_RESP, /* key establishment, the side answering */
  MH_AN_VERIFY,  /* authentication, verifying */
  MH_AN_SIGN,    /* authentication, signing */
  MH_AN_N_CONTESTS
} mh_an_contest_id;

typedef struct {
  const mh_an_job *ref; /* classical */
  size_t n_ref;
  const mh_an_job *pq; /* post-quantum */
  size_t n_pq;
} mh_an_contest;

extern const mh_an_contest mh_an_contests[MH_AN_N_CONTESTS];

/* The median and p99 of job j on backend in run (ops with samples only).
 * Returns 1, or 0 when an operation of the job is missing. */
int mh_an_job_cost(const mh_run *run, const mh_an_job *j, const char *backend,
                   double *median, double *p99);

/* One post-quantum job on one backend against one classical job. */
typedef struct {
  const mh_an_job *pq, *ref;
  const char *pq_backend, *ref_backend;
  double median, p99; /* pq / ref; p99 0 when the reference's is 0 */
} mh_an_ratio;

/* How the classical backends are chosen. */
typedef enum {
  MH_AN_EVERY,       /* every classical backend against every pq backend */
  MH_AN_SAME_BACKEND /* the same backend, failing that the first measured */
} mh_an_pairing;

/* The ratios of contest c in run, in table order (MH_AN_EVERY: classical
 * job, its backends, pq job, its backends; MH_AN_SAME_BACKEND: pq job,
 * classical job, pq backends). *out is malloc'd (NULL when *n is 0).
 * Returns 0, or -1 on allocation failure. */
int mh_an_ratios(const mh_run *run, mh_an_contest_id c, mh_an_pairing how,
                 mh_an_ratio **out, size_t *n);

/* The cost of job j on backend by some measure (the median, or a model's
 * estimate); < 0 when it has none. */
typedef double (*mh_an_cost_fn)(const mh_run *run, const mh_an_job *j,
                                const char *backend);

/* The cheapest post-quantum job of contest c (with its backend) against the
 * cheapest classical job, by cost: what a device pays with the best library
 * of each side. */
typedef struct {
  const mh_an_job *pq, *ref;
  const char *pq_backend, *ref_backend;
  double pq_cost, ref_cost;
} mh_an_best;

/* 1 and *out, or 0 when either side has no job with a cost in run. */
int mh_an_best_pair(const mh_run *run, mh_an_contest_id c, mh_an_cost_fn cost,
                    mh_an_best *out);

/* Job j's cost on backend by its median (the run's unit), by the cycle
 * model's estimated cycles (median), or its estimated energy in µJ (the
 * part's datasheet power model, --board): < 0 when an operation of the job
 * has none. */
double mh_an_cost_median(const mh_run *run, const mh_an_job *j,
                         const char *backend);
double mh_an_cost_est(const mh_run *run, const mh_an_job *j,
                      const char *backend);
double mh_an_energy(const mh_run *run, const mh_an_job *j, const char *backend);

/* The answer of contest c in run, as every report gives it (the terminal
 * summary, report.md and report.html): the cheapest post-quantum job
 * against the cheapest classical one (mh_an_best_pair), in estimated
 * cycles when use_est and the model gives both sides (est 1), else by
 * their medians; each side's estimated energy (µJ, < 0: none); and in how
 * many of the contest's pairings (MH_AN_SAME_BACKEND, the tables' list)
 * post-quantum is cheaper. */
typedef struct {
  mh_an_best best;
  int est;
  double pq_uj, ref_uj;
  size_t cheaper, n;
} mh_an_answer;

/* 1 and *out; 0 when run has no answer for c; -1 out of memory. */
int mh_an_answer_of(const mh_run *run, mh_an_contest_id c, int use_est,
                    mh_an_answer *out);

/* The run's figures come with the cycle model's estimates. */
int mh_an_run_has_est(const mh_run *run);

#endif
