/* SPDX-License-Identifier: Apache-2.0 */
/* The headline for a terminal: what `merlin run` and `merlin report DIR`
 * print last. Per run, the devices first (as report.md and report.html),
 * what its figures are, then for each kind of job (key establishment on
 * either side, verifying, signing) the answer of report.md's headline
 * (analysis/pairs.h, mh_an_answer_of): the cheapest post-quantum choice
 * against the cheapest classical one, the ratio as "N× cheaper" or "N×
 * more costly", each side's figure (estimated cycles and time where the
 * cycle model gives them, energy with --board; else the run's unit), and
 * in how many pairings post-quantum is cheaper; every line within 100
 * columns. */
#ifndef MERLIN_HOST_REPORT_SUMMARY_H
#define MERLIN_HOST_REPORT_SUMMARY_H

#include "model/results.h"

/* malloc'd text, or NULL when out of memory. */
char *mh_report_summary(const mh_results *r);

#endif
