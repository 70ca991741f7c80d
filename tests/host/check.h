/* SPDX-License-Identifier: Apache-2.0 */
/* A minimal test harness: checks count and report instead of aborting, so one
 * run shows every failure. Each test program ends with
 * `return check_report();`, which fails a program that ran no check. */
#ifndef MERLIN_TESTS_CHECK_H
#define MERLIN_TESTS_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_passed, check_failed;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (cond) {                                                                \
      check_passed++;                                                          \
    } else {                                                                   \
      check_failed++;                                                          \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

/* |a - b| <= tol; NaN never passes. */
#define CHECK_EQ_DBL(a, b, tol)                                                \
  do {                                                                         \
    double check_a_ = (a), check_b_ = (b);                                     \
    if (fabs(check_a_ - check_b_) <= (tol)) {                                  \
      check_passed++;                                                          \
    } else {                                                                   \
      check_failed++;                                                          \
      fprintf(stderr, "%s:%d: CHECK_EQ_DBL failed: %s = %.17g, %s = %.17g\n",  \
              __FILE__, __LINE__, #a, check_a_, #b, check_b_);                 \
    }                                                                          \
  } while (0)

/* haystack (a C string, may be NULL) contains needle. */
#define CHECK_CONTAINS(hay, needle)                                            \
  do {                                                                         \
    const char *check_h_ = (hay), *check_n_ = (needle);                        \
    if (check_h_ && strstr(check_h_, check_n_)) {                              \
      check_passed++;                                                          \
    } else {                                                                   \
      check_failed++;                                                          \
      fprintf(stderr, "%s:%d: CHECK_CONTAINS failed: \"%s\" lacks \"%s\"\n",   \
              __FILE__, __LINE__, check_h_ ? check_h_ : "(null)", check_n_);   \
    }                                                                          \
  } while (0)

/* The program's status: 1 when a check failed, or when none ran (a test
 * that checked nothing cannot fail, so it does not pass either). */
static inline int check_report(void) {
  printf("%d passed, %d failed\n", check_passed, check_failed);
  if (check_passed + check_failed == 0) {
    fprintf(stderr, "FAIL: no check ran: a test must check something\n");
    return 1;
  }
  return check_failed ? 1 : 0;
}

#endif
