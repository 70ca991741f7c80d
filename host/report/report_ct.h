/* SPDX-License-Identifier: Apache-2.0 */
/* report.md section "Constant time": per target, the verdict of every
 * operation with a secret input, method by method, the reasons of its
 * findings, and what the checks cannot see (docs/constant-time.md). */
#ifndef MERLIN_HOST_REPORT_CT_H
#define MERLIN_HOST_REPORT_CT_H

#include "model/results.h"
#include "util/strbuf.h"

/* Appends the section when any operation has a verdict (nothing
 * otherwise). */
void mh_report_ct_md(mh_sb *b, const mh_results *r);

#endif
