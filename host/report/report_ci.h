/* SPDX-License-Identifier: Apache-2.0 */
/* Results in the formats CI dashboards read (docs/results.md, "For CI"):
 * github-action-benchmark's customSmallerIsBetter JSON, and JUnit XML of
 * the known-answer tests. */
#ifndef MERLIN_HOST_REPORT_CI_H
#define MERLIN_HOST_REPORT_CI_H

#include "model/results.h"

/* A JSON array, one entry per timed operation and run: name ("<target>
 * <profile> <cc> <-O>: <alg> <op>[ <N> B] (<backend> <variant>)"), unit,
 * value (the median, exact), extra ("p99: ...\nn: ...\niqr: ...\nmin:
 * ...\nmax: ..."). Malloc'd; NULL when out of memory. */
char *mh_report_benchmark_action(const mh_results *r);

/* JUnit XML: a <testsuite> per run, a <testcase> per (algorithm,
 * operation, backend, variant) whose known-answer test passed on that
 * target (every operation results.json holds; payload sizes share one
 * KAT), and one per checked workflow. Malloc'd; NULL when out of memory. */
char *mh_report_junit(const mh_results *r);

#endif
