/* SPDX-License-Identifier: Apache-2.0 */
/* What every HTML page of merlin shares (report.html, merlin compare
 * --html): one self-contained file with the charting library, the page's
 * script and style and the data inlined, so that it opens from file://
 * with no network (docs/report-html.md). */
#ifndef MERLIN_HOST_REPORT_HTML_PAGE_H
#define MERLIN_HOST_REPORT_HTML_PAGE_H

#include "util/strbuf.h"

#include <jansson.h>

/* The scripts and style a page inlines (mh_html_assets_load). */
typedef struct {
  char *vega, *vega_lite, *vega_embed; /* third_party/<name>/build/ */
  char *script, *style;                /* host/report/page/merlin.{js,css} */
  char *versions; /* "Vega 6.4.0, Vega-Lite 6.5.0, vega-embed 7.3.0" */
} mh_html_assets;

/* The library, script and style a page inlines, read from the source root
 * (host/report/html_assets.c). 0, or -1 with what is missing and how to
 * get it in err. */
int mh_html_assets_load(const char *root, mh_html_assets *a, char *err,
                        size_t errlen);
void mh_html_assets_free(mh_html_assets *a);

/* <!DOCTYPE html> to <body>, with the style. */
void mh_html_open(mh_sb *b, const char *title, const mh_html_assets *a);

/* The chart boxes of charts (mh_html_charts) whose target is target (NULL:
 * every chart): title, note, a place for the scale switch and the
 * chart. */
void mh_html_chart_boxes(mh_sb *b, const json_t *charts, const char *target);

/* " data-f='...'": the filter values of a table row (mh_html_filter),
 * consumed. */
void mh_html_data_f(mh_sb *b, json_t *f);

/* "<td class='num' data-v='exact'>1,234</td>": a number as report.md
 * writes it, with its exact value for sorting and tests. */
void mh_html_num_cell(mh_sb *b, double v);

/* A ratio cell x / ref as report.md's tables write it (%.2f; "–" when it
 * is not a number). */
void mh_html_ratio_cell(mh_sb *b, double x, double ref);

/* The data (as <script type="application/json" id="merlin-data">), the
 * libraries and the page's script, and the end of the document. data is
 * not consumed. */
void mh_html_close(mh_sb *b, const json_t *data, const mh_html_assets *a);

#endif
