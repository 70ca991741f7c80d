/* SPDX-License-Identifier: Apache-2.0 */
/* report.tex: the results as LaTeX tables for papers (booktabs,
 * longtable), one per target: operation, backend, median, p99, stack and
 * code. */
#ifndef MERLIN_HOST_REPORT_TEX_H
#define MERLIN_HOST_REPORT_TEX_H

#include "model/results.h"

/* A malloc'd LaTeX fragment, or NULL on allocation failure. */
char *mh_report_tex(const mh_results *r);

#endif
