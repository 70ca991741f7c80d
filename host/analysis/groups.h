/* SPDX-License-Identifier: Apache-2.0 */
/* How the reports group the operations of a run and of a results set: the
 * rows (algorithm, operation, payload), the column groups (backend, and
 * variant where one backend has several), the fastest backend of a row,
 * the operations whose samples spread, cost versus payload, and the
 * operations of one (algorithm, backend) across runs. */
#ifndef MERLIN_HOST_ANALYSIS_GROUPS_H
#define MERLIN_HOST_ANALYSIS_GROUPS_H

#include "model/results.h"

#include <stddef.h>

/* A column group: one backend, and its variant when the same backend
 * appears with several variants (variant NULL: any). */
typedef struct {
  const char *backend, *variant;
} mh_an_group;

/* The column groups of run in first-seen order into g (room for
 * run->n_ops). Returns how many. */
size_t mh_an_groups(const mh_run *run, mh_an_group *g);

/* a and b are one row: the same algorithm, operation and payload. */
int mh_an_same_row(const mh_op *a, const mh_op *b);

/* run->ops[i] is the first of its row. */
int mh_an_first_of_row(const mh_run *run, size_t i);

/* The operation of row run->ops[i] in column group g, or NULL. */
const mh_op *mh_an_row_cell(const mh_run *run, size_t i, const mh_an_group *g);

/* The fastest operation (lowest median, with samples) of the row of
 * run->ops[i] over its backends; *n_backends counts them. */
const mh_op *mh_an_fastest(const mh_run *run, size_t i, size_t *n_backends);

/* The coefficient of variation above which samples count as spread (ML-DSA
 * signing, for one): percentiles and the p99 / median ratio matter. */
#define MH_AN_WIDE_CV 0.05

/* o has at least two samples, a positive median and a CV above
 * MH_AN_WIDE_CV. */
int mh_an_spread(const mh_op *o);

/* Cost versus payload of one payload-dependent operation: median = fixed +
 * rate * bytes by least squares; worst = the largest residual relative to
 * its median; n_points = the payloads used. */
typedef struct {
  double fixed, rate, worst;
  size_t n_points;
} mh_an_fit;

/* p is a payload, with samples, of o's (algorithm, operation, backend). */
int mh_an_payload_of(const mh_op *p, const mh_op *o);

/* run->ops[i] is the first payload (with samples) of its (algorithm,
 * operation, backend). */
int mh_an_first_payload(const mh_run *run, size_t i);

/* The fit of run->ops[i] when it is the first payload of an operation with
 * at least two. Returns 1, or 0 for other ops. */
int mh_an_payload_fit(const mh_run *run, size_t i, mh_an_fit *fit);

/* run->ops[i] is the first occurrence, over every run of r up to run ri,
 * of its (algorithm, backend). */
int mh_an_first_alg(const mh_results *r, size_t ri, size_t oi);

/* The operations of (alg, backend) over every run of r, one per operation
 * and payload, in first-seen order: *cols malloc'd. Returns 0, or -1 on
 * allocation failure. */
int mh_an_alg_ops(const mh_results *r, const char *alg, const char *backend,
                  const mh_op ***cols, size_t *n);

/* Runs i and j of r count in the same unit and are not one target and
 * profile built twice (the matrix section compares those). */
int mh_an_comparable_runs(const mh_results *r, size_t i, size_t j);

#endif
