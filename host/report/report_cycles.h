/* SPDX-License-Identifier: Apache-2.0 */
/* report.md section "Cycles (estimate)": estimated cycles and time and the
 * hashing share of QEMU runs with the cycle plugin (docs/cycle-model.md). */
#ifndef MERLIN_HOST_REPORT_CYCLES_H
#define MERLIN_HOST_REPORT_CYCLES_H

#include "model/results.h"
#include "util/strbuf.h"

/* Appends the section when any run has a cycle model (nothing otherwise). */
void mh_report_cycles_md(mh_sb *b, const mh_results *r);

#endif
