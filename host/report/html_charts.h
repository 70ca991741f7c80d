/* SPDX-License-Identifier: Apache-2.0 */
/* The charts of report.html as data: per target, one Vega-Lite
 * specification per chart with its rows inlined (docs/report-html.md).
 * Nothing is drawn here; vega-embed renders the specifications in the
 * page. Every row carries "_f", the values the page's filters select on
 * (target, profile, cc, opt, backend, alg). */
#ifndef MERLIN_HOST_REPORT_HTML_CHARTS_H
#define MERLIN_HOST_REPORT_HTML_CHARTS_H

#include "model/results.h"

#include <jansson.h>

/* An array of charts {id, target, title, note, main, log, spec}, in target
 * order (first appearance in r): id unique in the page, main the dataset
 * whose rows make the marks, log {axis, on} when the value axis may be
 * switched between log and linear (on: log by default, the values span
 * more than two decades). NULL when out of memory. */
json_t *mh_html_charts(const mh_results *r);

/* "_f" of a row of run x: {target, profile, cc, opt, backend, alg}, the
 * values the page's filters select on; backends and algs are arrays,
 * consumed. NULL when out of memory. */
json_t *mh_html_filter(const mh_result *x, json_t *backends, json_t *algs);

/* mh_html_filter of workflow w of run x: the algorithms and backends of
 * its primitives. */
struct mh_wf;
json_t *mh_html_wf_filter(const mh_result *x, const struct mh_wf *w);

/* The encoding of a band axis of names (field, its title above them). */
json_t *mh_html_name_axis(const char *field, const char *title);

/* The colour scale of n series: as many distinguishable colours as
 * series up to 20 (past 20 a chart is faceted). */
json_t *mh_html_palette(size_t n);

/* r->runs[i] is the first run of its target. */
int mh_html_first_of_target(const mh_results *r, size_t i);

/* The build of run x for the page's filters: compiler family and -O level
 * ("" when the run does not say), and "gcc -O2". */
void mh_html_build(const mh_result *x, char *cc, size_t cc_len, char *opt,
                   size_t opt_len, char *label, size_t label_len);

#endif
