/* SPDX-License-Identifier: Apache-2.0 */
/* report.md: the machine's noise next to a run's numbers (the interleaved
 * control, host/analysis/noise.c) and, for time units, the lower quartile
 * and minimum beside the median. */
#ifndef MERLIN_HOST_REPORT_NOISE_H
#define MERLIN_HOST_REPORT_NOISE_H

#include "model/results.h"
#include "util/strbuf.h"

void mh_report_md_noise(mh_sb *b, const mh_result *x);

#endif
