/* SPDX-License-Identifier: Apache-2.0 */
/* report.md: the readable report of a results set (docs/results.md). */
#ifndef MERLIN_HOST_REPORT_MD_H
#define MERLIN_HOST_REPORT_MD_H

#include "model/results.h"

#include <stddef.h>

/* Returns a malloc'd Markdown document, or NULL on allocation failure. */
char *mh_report_md(const mh_results *r);

/* Cost versus payload of run->ops[i], when it is the first payload of a
 * payload-dependent operation with at least two: median = fixed + rate *
 * bytes by least squares, worst = the largest residual relative to its
 * median, n_points = the payloads used. Returns 1, or 0 for other ops. */
int mh_payload_fit(const mh_run *run, size_t i, double *fixed, double *rate,
                   double *worst, size_t *n_points);

/* v with thousands separators and a few decimals ("1,234,567", "12.5"). */
void mh_format_number(double v, char *buf, size_t len);

#endif
