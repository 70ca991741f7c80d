/* SPDX-License-Identifier: Apache-2.0 */
/* The headline for a terminal: what `merlin run` and `merlin report DIR`
 * print last. Per run, for each kind of job (key establishment on either
 * side, verifying, signing), how many pairings of post-quantum against
 * classical favour post-quantum and the two extremes, as ratios of medians
 * in the run's unit, every line within 100 columns (report.md has the
 * tables). */
#ifndef MERLIN_HOST_REPORT_SUMMARY_H
#define MERLIN_HOST_REPORT_SUMMARY_H

#include "model/results.h"

/* malloc'd text, or NULL when out of memory. */
char *mh_report_summary(const mh_results *r);

#endif
