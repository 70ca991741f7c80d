/* SPDX-License-Identifier: Apache-2.0 */
/* pqm4's benchmarks.md tables of a results set (docs/bring-your-own.md). */
#ifndef MERLIN_HOST_REPORT_PQM4_H
#define MERLIN_HOST_REPORT_PQM4_H

#include "model/results.h"
#include "util/strbuf.h"

/* The Markdown text, malloc'd; NULL when out of memory. */
char *mh_report_pqm4(const mh_results *r);

/* The same tables of several runs as one set (`merlin site`, one per core
 * and build), headed "# TITLE": the compiler, flags, unit and cycle model
 * of runs[0] (the caller groups runs that share them), the rows of every
 * run in order, a scheme that several give from the last of them. What
 * mh_report_pqm4 writes for each run is this with the one run. */
void mh_report_pqm4_group(mh_sb *b, const char *title,
                          const mh_result *const *runs, size_t n_runs);

#endif
