/* SPDX-License-Identifier: Apache-2.0 */
/* The implementation folders of a results set in report.md and
 * report.html: measured or left out and why, Keccak, common code, where
 * their known answers came from (host/report/report_impl.c). */
#ifndef MERLIN_HOST_REPORT_IMPL_H
#define MERLIN_HOST_REPORT_IMPL_H

#include "model/results.h"
#include "util/strbuf.h"

#include <stddef.h>

/* "## Implementation folders" (nothing when no run has folders). */
void mh_report_impl_md(mh_sb *b, const mh_results *r);
/* <section id='folders'> (nothing when no run has folders). */
void mh_report_impl_html(mh_sb *b, const mh_results *r);
/* How many folders of r's runs were left out of their image. */
size_t mh_report_impls_left_out(const mh_results *r);

#endif
