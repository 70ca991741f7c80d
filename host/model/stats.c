/* SPDX-License-Identifier: Apache-2.0 */
#include "model/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Type-7 percentile of already sorted values (see stats.h). */
static double percentile_sorted(const double *s, size_t n, double p) {
  if (p <= 0.0)
    return s[0];
  if (p >= 1.0)
    return s[n - 1];
  double h = (double)(n - 1) * p;
  double fl = floor(h);
  size_t lo = (size_t)fl;
  if (lo + 1 >= n)
    return s[n - 1];
  return s[lo] + (h - fl) * (s[lo + 1] - s[lo]);
}

/* A sorted private copy: the caller's samples keep their recorded order. NaN
 * and infinities are refused because they have no place in an ordering that
 * qsort can rely on. */
static double *sorted_copy(const double *x, size_t n) {
  if (!x || n == 0)
    return NULL;
  for (size_t i = 0; i < n; i++)
    if (!isfinite(x[i]))
      return NULL;
  double *s = malloc(n * sizeof *s);
  if (!s)
    return NULL;
  memcpy(s, x, n * sizeof *s);
  qsort(s, n, sizeof *s, cmp_double);
  return s;
}

double mh_percentile(const double *x, size_t n, double p) {
  if (isnan(p))
    return NAN;
  double *s = sorted_copy(x, n);
  if (!s)
    return NAN;
  double v = percentile_sorted(s, n, p);
  free(s);
  return v;
}

int mh_stats_compute(const double *x, size_t n, mh_stats *out) {
  double *s = sorted_copy(x, n);
  if (!s || !out) {
    free(s);
    return -1;
  }
  mh_stats st;
  st.min = s[0];
  st.max = s[n - 1];
  st.median = percentile_sorted(s, n, 0.5);
  st.p99 = percentile_sorted(s, n, 0.99);
  st.iqr = percentile_sorted(s, n, 0.75) - percentile_sorted(s, n, 0.25);
  /* Two passes (mean, then squared deviations) rather than the one-pass
   * sum-of-squares formula, which cancels badly when the spread is tiny
   * next to the mean, as it is for cycle counts. */
  double sum = 0.0;
  for (size_t i = 0; i < n; i++)
    sum += s[i];
  st.mean = sum / (double)n;
  double ss = 0.0;
  for (size_t i = 0; i < n; i++) {
    double d = s[i] - st.mean;
    ss += d * d;
  }
  st.stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0.0;
  st.cv = st.mean != 0.0 ? st.stddev / st.mean : 0.0;
  free(s);
  *out = st;
  return 0;
}

/* Equal up to the rounding of a reader on another machine (a fused
 * multiply-add, another libm): far below anything a measurement shows. */
static int close_to(double a, double b, double scale) {
  double tol = 1e-9 * fmax(fmax(fabs(a), fabs(b)), scale);
  return fabs(a - b) <= tol;
}

const char *mh_stats_mismatch(const double *x, size_t n, const mh_stats *st) {
  mh_stats want;
  if (mh_stats_compute(x, n, &want) != 0)
    return "samples";
  double scale = fmax(fabs(want.min), fabs(want.max));
  const struct {
    const char *name;
    double got, want, scale;
  } f[] = {{"median", st->median, want.median, scale},
           {"p99", st->p99, want.p99, scale},
           {"iqr", st->iqr, want.iqr, scale},
           {"min", st->min, want.min, scale},
           {"max", st->max, want.max, scale},
           {"mean", st->mean, want.mean, scale},
           {"stddev", st->stddev, want.stddev, scale},
           /* cv is a ratio: relative to itself, and to 1e-9 absolute */
           {"cv", st->cv, want.cv, 1.0}};
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
    if (!isfinite(f[i].got) || !close_to(f[i].got, f[i].want, f[i].scale))
      return f[i].name;
  return NULL;
}

const char *const mh_stats_names[MH_N_STATS] = {
    "median", "p99", "iqr", "min", "max", "mean", "stddev", "cv"};
static const size_t STAT_OFFSET[MH_N_STATS] = {
    offsetof(mh_stats, median), offsetof(mh_stats, p99),
    offsetof(mh_stats, iqr),    offsetof(mh_stats, min),
    offsetof(mh_stats, max),    offsetof(mh_stats, mean),
    offsetof(mh_stats, stddev), offsetof(mh_stats, cv)};

double *mh_stats_at(mh_stats *st, size_t k) {
  return (double *)(void *)((char *)st + STAT_OFFSET[k]);
}

double mh_stats_get(const mh_stats *st, size_t k) {
  return *(const double *)(const void *)((const char *)st + STAT_OFFSET[k]);
}

const char *mh_stats_insane(const mh_stats *st) {
  for (size_t i = 0; i < MH_N_STATS; i++)
    if (!isfinite(mh_stats_get(st, i)) || mh_stats_get(st, i) < 0)
      return mh_stats_names[i];
  if (st->min > st->max)
    return "min";
  /* Rounding may put a mean or an interpolated percentile an ulp outside. */
  double lo = st->min - 1e-9 * st->max, hi = st->max * (1 + 1e-9);
  if (st->median < lo || st->median > hi)
    return "median";
  if (st->p99 < lo || st->p99 > hi)
    return "p99";
  if (st->mean < lo || st->mean > hi)
    return "mean";
  if (st->iqr > hi - st->min)
    return "iqr";
  return NULL;
}

double mh_stats_field(const mh_stats *st, const char *name) {
  for (size_t i = 0; i < MH_N_STATS; i++)
    if (strcmp(mh_stats_names[i], name) == 0)
      return mh_stats_get(st, i);
  return NAN;
}
