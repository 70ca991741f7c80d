/* SPDX-License-Identifier: Apache-2.0 */
/* Statistics against values computed by hand (type-7 percentiles: h = (n-1)p,
 * x[floor h] + frac(h) (x[floor h + 1] - x[floor h]) on sorted x). */
#include "check.h"
#include "model/stats.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define TOL 1e-12

static void test_odd(void) {
  /* sorted 1 3 5: median x[1] = 3; p25 h = 0.5 -> 2; p75 h = 1.5 -> 4;
   * p99 h = 1.98 -> 3 + 0.98 * 2 = 4.96. mean 3, squared deviations
   * 4 + 0 + 4 = 8, variance 8 / 2 = 4, stddev 2, cv 2/3. */
  const double x[] = {5, 1, 3};
  mh_stats s;
  CHECK(mh_stats_compute(x, 3, &s) == 0);
  CHECK_EQ_DBL(s.median, 3, TOL);
  CHECK_EQ_DBL(s.iqr, 2, TOL);
  CHECK_EQ_DBL(s.p99, 4.96, TOL);
  CHECK_EQ_DBL(s.min, 1, TOL);
  CHECK_EQ_DBL(s.max, 5, TOL);
  CHECK_EQ_DBL(s.mean, 3, TOL);
  CHECK_EQ_DBL(s.stddev, 2, TOL);
  CHECK_EQ_DBL(s.cv, 2.0 / 3.0, TOL);
  /* The caller's order is untouched (stats sort a copy). */
  CHECK(x[0] == 5 && x[1] == 1 && x[2] == 3);
}

static void test_even(void) {
  /* sorted 1 2 3 4: median h = 1.5 -> 2.5; p25 h = 0.75 -> 1.75; p75
   * h = 2.25 -> 3.25, IQR 1.5. mean 2.5, squared deviations 2.25 + 0.25 +
   * 0.25 + 2.25 = 5, variance 5/3, stddev sqrt(5/3) = 1.2909944487358056,
   * cv = 1.2909944487358056 / 2.5. */
  const double x[] = {4, 1, 3, 2};
  mh_stats s;
  CHECK(mh_stats_compute(x, 4, &s) == 0);
  CHECK_EQ_DBL(s.median, 2.5, TOL);
  CHECK_EQ_DBL(s.iqr, 1.5, TOL);
  CHECK_EQ_DBL(mh_percentile(x, 4, 0.25), 1.75, TOL);
  CHECK_EQ_DBL(mh_percentile(x, 4, 0.75), 3.25, TOL);
  CHECK_EQ_DBL(s.mean, 2.5, TOL);
  CHECK_EQ_DBL(s.stddev, 1.2909944487358056, TOL);
  CHECK_EQ_DBL(s.cv, 0.5163977794943222, TOL);
}

static void test_ties(void) {
  const double same[] = {7, 7, 7, 7};
  mh_stats s;
  CHECK(mh_stats_compute(same, 4, &s) == 0);
  CHECK_EQ_DBL(s.median, 7, TOL);
  CHECK_EQ_DBL(s.iqr, 0, TOL);
  CHECK_EQ_DBL(s.p99, 7, TOL);
  CHECK_EQ_DBL(s.stddev, 0, TOL);
  CHECK_EQ_DBL(s.cv, 0, TOL);
  /* sorted 1 2 2 2 9: p25 h = 1 -> 2, median h = 2 -> 2, p75 h = 3 -> 2, so
   * IQR 0; p99 h = 3.96 -> 2 + 0.96 * 7 = 8.72. */
  const double x[] = {2, 9, 2, 1, 2};
  CHECK(mh_stats_compute(x, 5, &s) == 0);
  CHECK_EQ_DBL(s.median, 2, TOL);
  CHECK_EQ_DBL(s.iqr, 0, TOL);
  CHECK_EQ_DBL(s.p99, 8.72, TOL);
  CHECK_EQ_DBL(s.mean, 3.2, TOL);
}

static void test_one(void) {
  const double x[] = {42};
  mh_stats s;
  CHECK(mh_stats_compute(x, 1, &s) == 0);
  CHECK_EQ_DBL(s.median, 42, TOL);
  CHECK_EQ_DBL(s.p99, 42, TOL);
  CHECK_EQ_DBL(s.iqr, 0, TOL);
  CHECK_EQ_DBL(s.min, 42, TOL);
  CHECK_EQ_DBL(s.max, 42, TOL);
  CHECK_EQ_DBL(s.mean, 42, TOL);
  CHECK_EQ_DBL(s.stddev, 0, TOL); /* n - 1 = 0: defined as 0 */
  CHECK_EQ_DBL(s.cv, 0, TOL);
  CHECK_EQ_DBL(mh_percentile(x, 1, 0.37), 42, TOL);
}

static void test_101(void) {
  /* 1..101 in a scrambled order: p99 h = 99 -> x[99] = 100, median h = 50 ->
   * 51, p25 -> 26, p75 -> 76, IQR 50, mean 51; the sample variance of 1..N
   * is N (N + 1) / 12 = 858.5, stddev sqrt(858.5). */
  double x[101];
  for (int i = 0; i < 101; i++)
    x[i] = i + 1;
  uint32_t r = 12345;
  for (int i = 100; i > 0; i--) {
    r = r * 1103515245u + 12345u;
    int j = (int)((r >> 8) % (uint32_t)(i + 1));
    double t = x[i];
    x[i] = x[j];
    x[j] = t;
  }
  CHECK(x[0] != 1 || x[100] != 101); /* really shuffled */
  mh_stats s;
  CHECK(mh_stats_compute(x, 101, &s) == 0);
  CHECK_EQ_DBL(s.p99, 100, 1e-9);
  CHECK_EQ_DBL(s.median, 51, TOL);
  CHECK_EQ_DBL(s.iqr, 50, TOL);
  CHECK_EQ_DBL(s.min, 1, TOL);
  CHECK_EQ_DBL(s.max, 101, TOL);
  CHECK_EQ_DBL(s.mean, 51, TOL);
  CHECK_EQ_DBL(s.stddev, sqrt(858.5), 1e-9);
}

static void test_interpolation(void) {
  /* 10 20 ... 100: p99 h = 9 * 0.99 = 8.91 -> 90 + 0.91 * 10 = 99.1; p90
   * h = 8.1 -> 91; the ends are min and max. */
  const double x[] = {100, 30, 10, 90, 50, 20, 70, 40, 80, 60};
  CHECK_EQ_DBL(mh_percentile(x, 10, 0.99), 99.1, 1e-9);
  CHECK_EQ_DBL(mh_percentile(x, 10, 0.90), 91, 1e-9);
  CHECK_EQ_DBL(mh_percentile(x, 10, 0.0), 10, TOL);
  CHECK_EQ_DBL(mh_percentile(x, 10, 1.0), 100, TOL);
  mh_stats s;
  CHECK(mh_stats_compute(x, 10, &s) == 0);
  CHECK_EQ_DBL(s.p99, 99.1, 1e-9);
  CHECK_EQ_DBL(s.median, 55, TOL);
}

static void test_moments(void) {
  /* 2 4 4 4 5 5 7 9: mean 40 / 8 = 5; squared deviations 9 1 1 1 0 0 4 16,
   * sum 32; sample variance 32 / 7 = 4.571428571428571, stddev
   * 2.138089935299395, cv = 2.138089935299395 / 5 = 0.427617987059879. */
  const double x[] = {9, 4, 2, 5, 4, 7, 4, 5};
  mh_stats s;
  CHECK(mh_stats_compute(x, 8, &s) == 0);
  CHECK_EQ_DBL(s.mean, 5, TOL);
  CHECK_EQ_DBL(s.stddev, 2.138089935299395, 1e-12);
  CHECK_EQ_DBL(s.cv, 0.427617987059879, 1e-12);
  /* Large offset, tiny spread: the two-pass variance stays exact. */
  const double big[] = {1e9 + 1, 1e9 + 2, 1e9 + 3};
  CHECK(mh_stats_compute(big, 3, &s) == 0);
  CHECK_EQ_DBL(s.stddev, 1, 1e-9);
}

static void test_edges(void) {
  mh_stats s;
  const double x[] = {1, 2};
  CHECK(mh_stats_compute(x, 0, &s) == -1);
  CHECK(mh_stats_compute(NULL, 0, &s) == -1);
  CHECK(isnan(mh_percentile(x, 0, 0.5)));
  const double bad[] = {1, NAN, 3};
  CHECK(mh_stats_compute(bad, 3, &s) == -1);
  /* mean 0: cv is defined as 0 rather than a division by zero. */
  const double zero[] = {-1, 1};
  CHECK(mh_stats_compute(zero, 2, &s) == 0);
  CHECK_EQ_DBL(s.cv, 0, TOL);
}

/* The readers' checks (results.json, workflows, est_cycles). */
static void test_checks(void) {
  const double x[] = {9636, 9637, 9637, 10100.5, 0};
  mh_stats s;
  CHECK(mh_stats_compute(x, 5, &s) == 0);
  CHECK(mh_stats_mismatch(x, 5, &s) == NULL);
  CHECK(mh_stats_insane(&s) == NULL);
  CHECK_EQ_DBL(mh_stats_field(&s, "max"), 10100.5, 0);
  CHECK(isnan(mh_stats_field(&s, "p50")));
  /* another machine's last-bit rounding passes; an edit does not */
  mh_stats t = s;
  t.mean = nextafter(t.mean, INFINITY);
  CHECK(mh_stats_mismatch(x, 5, &t) == NULL);
  static const char *const names[] = {"median", "p99",  "iqr",    "min",
                                      "max",    "mean", "stddev", "cv"};
  for (size_t k = 0; k < 8; k++) {
    t = s;
    double *f[] = {&t.median, &t.p99,  &t.iqr,    &t.min,
                   &t.max,    &t.mean, &t.stddev, &t.cv};
    *f[k] = *f[k] * 1.001 + 0.5;
    const char *b = mh_stats_mismatch(x, 5, &t);
    CHECK(b && strcmp(b, names[k]) == 0);
    *f[k] = NAN;
    b = mh_stats_mismatch(x, 5, &t);
    CHECK(b && strcmp(b, names[k]) == 0);
  }
  CHECK(strcmp(mh_stats_mismatch(NULL, 0, &s), "samples") == 0);
  /* without samples: negative, min > max, median or mean outside */
  t = s;
  t.median = -318.2;
  CHECK(strcmp(mh_stats_insane(&t), "median") == 0);
  t = s;
  t.min = t.max + 1;
  CHECK(strcmp(mh_stats_insane(&t), "min") == 0);
  t = s;
  t.mean = t.max * 2;
  CHECK(strcmp(mh_stats_insane(&t), "mean") == 0);
  t = s;
  t.iqr = t.max - t.min + 1;
  CHECK(strcmp(mh_stats_insane(&t), "iqr") == 0);
  const double same[] = {0.1, 0.1, 0.1};
  CHECK(mh_stats_compute(same, 3, &t) == 0);
  CHECK(mh_stats_insane(&t) == NULL); /* a mean an ulp above max is fine */
}

int main(void) {
  test_checks();
  test_odd();
  test_even();
  test_ties();
  test_one();
  test_101();
  test_interpolation();
  test_moments();
  test_edges();
  return check_report();
}
