/* SPDX-License-Identifier: Apache-2.0 */
/* The headline that opens report.md and report.html: per run, the answers
 * the tool exists for, as sentences with their numbers (docs/results.md,
 * "Headline"): post-quantum against classical for key establishment (both
 * sides) and signatures (verify; sign with its p99), the provisioning
 * workflow against classical-p256 (device time, bytes on the wire, bytes
 * stored, peak stack), the fairness line of the target, and which
 * algorithms do not fit which described part. The numbers are those of
 * report.md's tables (the same functions compute and format them). */
#ifndef MERLIN_HOST_REPORT_HEADLINE_H
#define MERLIN_HOST_REPORT_HEADLINE_H

#include "model/results.h"
#include "util/strbuf.h"

/* Appends the headline of r: Markdown (html 0), or HTML with every number
 * in a <data value="exact"> element and each sentence linked to its row of
 * the page's tables (ids "ratio-R-C-I", "wf-R-I"; see report_html.c). */
void mh_report_headline(mh_sb *b, const mh_results *r, int html);

#endif
