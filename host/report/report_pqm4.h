/* SPDX-License-Identifier: Apache-2.0 */
/* pqm4's benchmarks.md tables of a results set (docs/bring-your-own.md). */
#ifndef MERLIN_HOST_REPORT_PQM4_H
#define MERLIN_HOST_REPORT_PQM4_H

#include "model/results.h"

/* The Markdown text, malloc'd; NULL when out of memory. */
char *mh_report_pqm4(const mh_results *r);

#endif
