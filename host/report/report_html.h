/* SPDX-License-Identifier: Apache-2.0 */
/* report.html: one self-contained page with the headline, interactive
 * charts (Vega-Lite, inlined) and sortable tables (docs/report-html.md). */
#ifndef MERLIN_HOST_REPORT_HTML_H
#define MERLIN_HOST_REPORT_HTML_H

#include "model/results.h"
#include "report/html_page.h"

/* A malloc'd HTML document inlining a's libraries, script and style, or
 * NULL on allocation failure. */
char *mh_report_html(const mh_results *r, const mh_html_assets *a);

#endif
