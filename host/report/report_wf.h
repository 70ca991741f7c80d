/* SPDX-License-Identifier: Apache-2.0 */
/* The workflow sections of report.md (docs/results.md, docs/workflows.md):
 * per target the workflow table with ratios against classical, the step
 * breakdown, and the fairness line of the control primitives. */
#ifndef MERLIN_HOST_REPORT_WF_H
#define MERLIN_HOST_REPORT_WF_H

#include "model/results.h"
#include "util/strbuf.h"

/* Appends "## Workflows" to b when any run has workflows. */
void mh_report_md_workflows(mh_sb *b, const mh_results *r);

/* The workflow table of one run for report.html (nothing when it has no
 * timed workflows). */
void mh_report_html_workflows(mh_sb *b, const mh_result *x);

/* The fairness check of one target (every run of r whose target is
 * target): the largest relative difference (max / min - 1) between the
 * medians of the control primitives, over the workflows of its images
 * (the control measured after each workflow) and over its images (the
 * hkdf-sha256 and hmac-sha256 operations of one backend and payload).
 * *what names the pair that differ most. Returns the number of values
 * compared (0: nothing to compare). */
size_t mh_wf_fairness(const mh_results *r, const char *target, double *largest,
                      char *what, size_t what_len);

#endif
