/* SPDX-License-Identifier: Apache-2.0 */
/* Descriptive statistics of timing samples, in one tested module.
 *
 * Percentiles use linear interpolation between closest ranks (Hyndman & Fan
 * type 7, numpy's default): h = (n - 1) p, value = x[floor h] +
 * (h - floor h)(x[floor h + 1] - x[floor h]) on the sorted samples. So the
 * median of an even count is the mean of the two middle values, and p99 of
 * 101 samples is the 100th smallest (x[99], 0-based). IQR = p75 - p25.
 * stddev is the sample standard deviation (n - 1 denominator; 0 for n = 1),
 * cv = stddev / mean (0 when mean is 0). */
#ifndef MERLIN_HOST_STATS_H
#define MERLIN_HOST_STATS_H

#include "model/model.h"

#include <stddef.h>

/* Percentile p in [0, 1] of n >= 1 values (need not be sorted). */
double mh_percentile(const double *x, size_t n, double p);

/* All fields of mh_stats for n >= 1 values; returns -1 for n == 0. */
int mh_stats_compute(const double *x, size_t n, mh_stats *out);

/* The readers' check of statistics written next to their samples: NULL when
 * st is what mh_stats_compute gives for the n values x (up to a relative
 * 1e-9, the rounding of another machine), else the name of the first field
 * that is not ("median", ..., "cv"; "samples" when x cannot have any). */
const char *mh_stats_mismatch(const double *x, size_t n, const mh_stats *st);

/* For statistics without their samples: NULL when they can be those of
 * values >= 0 (every field finite and >= 0, min <= median, p99, mean <= max,
 * iqr <= max - min), else the name of the first field that cannot be. */
const char *mh_stats_insane(const mh_stats *st);

/* The fields of mh_stats by index, in the order results.json writes and
 * reads them: mh_stats_names[k] is the name of *mh_stats_at(st, k). */
#define MH_N_STATS 8
extern const char *const mh_stats_names[MH_N_STATS];
double *mh_stats_at(mh_stats *st, size_t k);
double mh_stats_get(const mh_stats *st, size_t k);

/* The field of st by name ("median", ..., "cv"); NAN for another name. */
double mh_stats_field(const mh_stats *st, const char *name);

#endif
