/* SPDX-License-Identifier: Apache-2.0 */
/* report.md: the readable report of a results set (docs/results.md). */
#ifndef MERLIN_HOST_REPORT_MD_H
#define MERLIN_HOST_REPORT_MD_H

#include "model/results.h"

#include <stddef.h>

/* Returns a malloc'd Markdown document, or NULL on allocation failure. */
char *mh_report_md(const mh_results *r);

#endif
