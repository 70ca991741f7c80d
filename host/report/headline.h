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

/* A run on an embedded target (a Cortex-M core, emulated or real), which
 * the reports put before the host's. */
int mh_report_is_device(const mh_result *x);

/* order[0..r->n_runs): the runs' indices, devices first, each group in
 * results order. */
void mh_report_device_order(const mh_results *r, size_t *order);

/* Appends the headline of r: Markdown (html 0), or HTML with every number
 * in a <data value="exact"> element and each sentence linked to its row of
 * the page's tables (ids "ratio-R-C-I", "wf-R-I"; see report_html.c). */
void mh_report_headline(mh_sb *b, const mh_results *r, int html);

/* The clock a run's time is given at: the part's under a board model
 * (--board), else the target's; 0 when none. */
double mh_report_clock_hz(const mh_result *x);

/* A time in seconds as "812 µs", "49.4 ms", "1.52 s". */
void mh_report_seconds(mh_sb *b, double s);

/* Core "cortex-m0plus" as "Cortex-M0+" (others as they are). */
void mh_report_core_name(const char *core, char *buf, size_t len);

#endif
