/* SPDX-License-Identifier: Apache-2.0 */
/* pqm4's benchmarks.md tables of a results set (docs/bring-your-own.md). */
#ifndef MERLIN_HOST_REPORT_PQM4_H
#define MERLIN_HOST_REPORT_PQM4_H

#include "model/results.h"
#include "util/strbuf.h"

/* The Markdown text, malloc'd; NULL when out of memory. */
char *mh_report_pqm4(const mh_results *r);
/* The same of n results sets (dirs[i]: where sets[i] was read, named in
 * the text; NULL: none): one set of tables per target, compiler, flags
 * and cycle model, whichever set its runs are in; a row in two runs is the
 * later run's. */
char *mh_report_pqm4_sets(const mh_results *const *sets,
                          const char *const *dirs, size_t n);

/* The same tables of several runs as one set (`merlin site`, one per core
 * and build), headed "# TITLE": the compiler, flags, unit and cycle model
 * of runs[0] (the caller groups runs that share them), the rows of every
 * run in order, a scheme that several give from the last of them, and the
 * folders left out that no run measured. */
void mh_report_pqm4_group(mh_sb *b, const char *title,
                          const mh_result *const *runs, size_t n_runs);

#endif
