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

/* The fairness line of target (its paragraph, in Markdown or HTML text;
 * the headline quotes it). */
void mh_report_fairness(mh_sb *b, const mh_results *r, const char *target,
                        int html);

/* The workflow table of run ri for report.html (nothing when it has no
 * timed workflows); row ids "wf-RI-I" (I: the workflow's index in the
 * run), which the headline links to. */
void mh_report_html_workflows(mh_sb *b, const mh_result *x, size_t ri);

#endif
