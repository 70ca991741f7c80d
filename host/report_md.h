/* SPDX-License-Identifier: Apache-2.0 */
/* report.md: the readable report of a results set (docs/results.md). */
#ifndef MERLIN_HOST_REPORT_MD_H
#define MERLIN_HOST_REPORT_MD_H

#include "results.h"

#include <stddef.h>

/* Returns a malloc'd Markdown document, or NULL on allocation failure. */
char *mh_report_md(const mh_results *r);

/* v with thousands separators and a few decimals ("1,234,567", "12.5"). */
void mh_format_number(double v, char *buf, size_t len);

#endif
