/* SPDX-License-Identifier: Apache-2.0 */
/* report.html: a self-contained page with the results and SVG plots. */
#ifndef MERLIN_HOST_REPORT_HTML_H
#define MERLIN_HOST_REPORT_HTML_H

#include "model/results.h"

/* A malloc'd HTML document, or NULL on allocation failure. */
char *mh_report_html(const mh_results *r);

#endif
