/* SPDX-License-Identifier: Apache-2.0 */
#include "stats.h"

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
