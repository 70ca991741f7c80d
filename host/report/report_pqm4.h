/* SPDX-License-Identifier: Apache-2.0 */
/* pqm4's benchmarks.md tables of a results set (docs/bring-your-own.md). */
#ifndef MERLIN_HOST_REPORT_PQM4_H
#define MERLIN_HOST_REPORT_PQM4_H

#include "model/results.h"

/* The Markdown text, malloc'd; NULL when out of memory. */
char *mh_report_pqm4(const mh_results *r);
/* The same of n results sets (dirs[i]: where sets[i] was read, named in
 * the text; NULL: none): one set of tables per target, compiler, flags
 * and cycle model, whichever set its runs are in; a row in two runs is the
 * later run's. */
char *mh_report_pqm4_sets(const mh_results *const *sets,
                          const char *const *dirs, size_t n);

#endif
