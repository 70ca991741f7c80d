/* SPDX-License-Identifier: Apache-2.0 */
/* report.html: the headline first, then per target the charts (Vega-Lite
 * specifications from html_charts.c, rendered in the page by vega-embed),
 * the ratio and workflow tables the headline links to, the fit table, and
 * the tables the page's script builds from the embedded results.json
 * (docs/report-html.md). One self-contained file: nothing is fetched when
 * it is viewed. */
#include "report/report_html.h"
#include "report/report_impl.h"

#include "analysis/pairs.h"
#include "model/cycles.h"
#include "model/results_json.h"
#include "report/format.h"
#include "report/headline.h"
#include "report/html_charts.h"
#include "report/report_matrix.h"
#include "report/report_wf.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void run_heading(mh_sb *b, const mh_result *x) {
  mh_sb_puts(b, "<h3>");
  mh_esc_html(b, x->target);
  mh_sb_puts(b, " (profile ");
  mh_esc_html(b, x->profile);
  mh_report_build_suffix(b, x, mh_esc_html);
  mh_sb_puts(b, "), ratios of medians</h3>");
}

/* Post-quantum against classical, the pairs of the headline (the same
 * backend where it has both), with the ids the headline links to. */
static void ratio_table(mh_sb *b, const mh_result *x, size_t ri) {
  int head = 0;
  for (int c = 0; c < MH_AN_N_CONTESTS; c++) {
    mh_an_ratio *v;
    size_t n;
    if (mh_an_ratios(&x->run, (mh_an_contest_id)c, MH_AN_SAME_BACKEND, &v,
                     &n) != 0) {
      b->failed = 1;
      return;
    }
    for (size_t i = 0; i < n; i++) {
      if (!head) {
        run_heading(b, x);
        /* Four columns whose names wrap: the ratios stay on a phone's
         * screen (merlin.css). */
        mh_sb_puts(b, "<table class='sortable filterable' data-table='ratios'>"
                      "<thead><tr><th>post-quantum (backend)</th><th>"
                      "classical (backend)</th><th>ratio of medians</th><th>"
                      "ratio of p99s</th></tr></thead><tbody>");
        head = 1;
      }
      mh_sb_printf(b, "<tr id='ratio-%zu-%d-%zu'", ri, c, i);
      mh_html_data_f(
          b, mh_html_filter(
                 x, json_pack("[s, s]", v[i].pq_backend, v[i].ref_backend),
                 json_pack("[s, s]", v[i].pq->alg, v[i].ref->alg)));
      mh_sb_printf(b, "><td class='name'>%s <span class='sub'>(",
                   v[i].pq->label);
      mh_esc_html(b, v[i].pq_backend);
      mh_sb_printf(b, ")</span></td><td class='name'>%s <span class='sub'>(",
                   v[i].ref->label);
      mh_esc_html(b, v[i].ref_backend);
      mh_sb_puts(b, ")</span></td>");
      mh_sb_printf(b, "<td class='num' data-v='%.17g'>%.2f</td>", v[i].median,
                   v[i].median);
      mh_sb_printf(b, "<td class='num' data-v='%.17g'>%.2f</td></tr>", v[i].p99,
                   v[i].p99);
    }
    free(v);
  }
  if (head)
    mh_sb_puts(b, "</tbody></table>");
}

/* Algorithm x described part of the run's core. */
static void fit_table(mh_sb *b, const mh_result *x) {
  size_t k0 = 0; /* the first algorithm with verdicts names the parts */
  while (k0 < x->n_algs && !x->algs[k0].n_fits)
    k0++;
  if (k0 == x->n_algs)
    return;
  const mh_alg_cost *first = &x->algs[k0];
  mh_sb_puts(b, "<h3>");
  mh_esc_html(b, x->target);
  mh_sb_puts(b, "</h3><table class='sortable filterable' data-table='fits'>"
                "<thead><tr><th>algorithm</th><th>backend</th>");
  for (size_t k = 0; k < first->n_fits; k++)
    if (first->fit[k] != -1) {
      mh_sb_puts(b, "<th>");
      mh_esc_html(b, first->fit_board[k]);
      mh_sb_puts(b, "</th>");
    }
  mh_sb_puts(b, "</tr></thead><tbody>");
  for (size_t i = 0; i < x->n_algs; i++) {
    const mh_alg_cost *a = &x->algs[i];
    mh_sb_puts(b, "<tr");
    mh_html_data_f(b, mh_html_filter(x, json_pack("[s]", a->backend),
                                     json_pack("[s]", a->alg)));
    mh_sb_puts(b, "><td>");
    mh_esc_html(b, a->alg);
    mh_sb_puts(b, "</td><td>");
    mh_esc_html(b, a->backend);
    mh_sb_puts(b, "</td>");
    for (size_t k = 0; k < a->n_fits; k++) {
      if (a->fit[k] == -1)
        continue;
      mh_sb_puts(b, a->fit[k] == 1 ? "<td>fits" : "<td class='dearer'>");
      if (a->fit[k] != 1)
        mh_esc_html(b, a->fit_reason[k]);
      mh_sb_puts(b, "</td>");
    }
    mh_sb_puts(b, "</tr>");
  }
  mh_sb_puts(b, "</tbody></table>");
}

/* The page's data: results.json as merlin writes it, the charts, and the
 * build of each run. */
static json_t *page_data(const mh_results *r, json_t *charts) {
  char err[256];
  char *text = mh_results_to_json(r, err, sizeof err);
  json_t *res = text ? json_loads(text, 0, NULL) : NULL;
  free(text);
  json_t *builds = json_array();
  for (size_t i = 0; i < r->n_runs; i++) {
    char cc[64], opt[32], label[100];
    mh_html_build(&r->runs[i], cc, sizeof cc, opt, sizeof opt, label,
                  sizeof label);
    json_array_append_new(builds, json_pack("{s:s, s:s, s:s}", "cc", cc, "opt",
                                            opt, "label", label));
  }
  if (!res || !builds) {
    json_decref(res);
    json_decref(builds);
    json_decref(charts);
    return NULL;
  }
  return json_pack("{s:s, s:o, s:o, s:o}", "page", "report", "results", res,
                   "charts", charts, "builds", builds);
}

static void intro(mh_sb *b, const mh_results *r) {
  mh_sb_puts(b, "<h1>Merlin benchmark report</h1><p class='meta'>Created ");
  mh_esc_html(b, r->created ? r->created : "?");
  mh_sb_puts(b, " by merlin ");
  mh_esc_html(b, r->merlin ? r->merlin : "?");
  mh_sb_puts(b, "; every operation passed its known-answer test on the "
                "target before it was timed.</p><nav class='toc'><a href='"
                "#headline'>Headline</a><a href='#charts'>Charts</a><a href="
                "'#ratios'>Ratios</a><a href='#workflows'>Workflows</a><a "
                "href='#fits'>Does it fit</a><a href='#devices'>Devices</a>"
                "<a href='#operations'>Every operation</a></nav>\n<section "
                "id='headline'><h2>Headline</h2>\n");
}

/* What the page holds, at its end. */
static void about(mh_sb *b, const mh_html_assets *a) {
  mh_sb_puts(b, "<p class='meta'>Numbers are rounded for reading as in "
                "report.md; results.json (embedded in this page) holds every "
                "exact value and sample. Charts: ");
  mh_esc_html(b, a->versions ? a->versions : "?");
  mh_sb_puts(b, ", inlined.</p>\n");
}

/* The charts per target, devices first (as the headline). */
static void target_sections(mh_sb *b, const mh_results *r, json_t *charts,
                            const size_t *order) {
  mh_sb_puts(b, "<nav id='filters' aria-label='filters'></nav>\n<div "
                "id='charts'>");
  for (size_t k = 0; k < r->n_runs; k++) {
    size_t i = order[k];
    const mh_result *x = &r->runs[i];
    if (!mh_html_first_of_target(r, i))
      continue;
    mh_sb_puts(b, "<section class='target' data-target='");
    mh_esc_html(b, x->target);
    mh_sb_puts(b, "'><h2>");
    mh_esc_html(b, x->target);
    /* A run with a cycle model draws its operations' charts in estimated
     * cycles (instructions behind each chart's switch); its workflows
     * stay in the run's unit, as the model estimates operations only. */
    if (x->run.cyc && x->run.cyc->model) {
      mh_sb_puts(b, ": charts, in estimated cycles (");
      mh_esc_html(b, x->run.unit ? x->run.unit : "?");
      mh_sb_puts(b, " a switch away; workflows in ");
      mh_esc_html(b, x->run.unit ? x->run.unit : "?");
      mh_sb_puts(b, ")");
    } else {
      mh_sb_puts(b, ": charts, in ");
      mh_esc_html(b, x->run.unit ? x->run.unit : "?");
    }
    mh_sb_puts(b, "</h2>\n");
    mh_html_chart_boxes(b, charts, x->target);
    mh_sb_puts(b, "</section>\n");
  }
  mh_sb_puts(b, "</div>\n");
}

static void tables(mh_sb *b, const mh_results *r, const size_t *order) {
  mh_sb_puts(b, "<section id='ratios'><h2>Ratios</h2><p class='note'>Post-"
                "quantum against classical for the same job (report.md has "
                "every backend against every other).</p>");
  for (size_t k = 0; k < r->n_runs; k++)
    ratio_table(b, &r->runs[order[k]], order[k]);
  mh_sb_puts(b, "</section>\n<section id='workflows'><h2>Workflows</h2><p "
                "class='note'>End-to-end device workflows (docs/workflows.md): "
                "device time, bytes on the wire, bytes stored, peak stack; "
                "ratios against classical-p256 on the same target.</p>");
  for (size_t k = 0; k < r->n_runs; k++)
    mh_report_html_workflows(b, &r->runs[order[k]], order[k]);
  mh_sb_puts(b, "</section>\n<section id='fits'><h2>Does it fit</h2><p "
                "class='note'>Each algorithm's code, static RAM, peak stack "
                "and heap against each described part of the same core "
                "(boards/, docs/boards.md).</p>");
  for (size_t k = 0; k < r->n_runs; k++)
    fit_table(b, &r->runs[order[k]]);
  mh_sb_puts(b, "</section>\n<section id='devices'><h2>Code, stack and time "
                "per device</h2><p class='note'>Devices down, operations "
                "across; choose the figure.</p><div id='matrix'></div>"
                "</section>\n<section id='operations'><h2>Every operation"
                "</h2><p class='note'>Every field of every operation in "
                "results.json (a column per field; click a heading to sort; "
                "hover a constant-time verdict for its detail).</p><div "
                "id='ops-table' class='scroll'></div></section>\n");
}

char *mh_report_html(const mh_results *r, const mh_html_assets *a) {
  json_t *charts = mh_html_charts(r);
  json_t *data = charts ? page_data(r, json_incref(charts)) : NULL;
  if (!data) {
    json_decref(charts);
    return NULL;
  }
  mh_sb b = {0};
  size_t *order = calloc(r->n_runs ? r->n_runs : 1, sizeof *order);
  b.failed = !order;
  if (order)
    mh_report_device_order(r, order);
  mh_html_open(&b, "Merlin report", a);
  intro(&b, r);
  mh_report_headline(&b, r, 1);
  mh_sb_puts(&b, "</section>\n");
  mh_report_impl_html(&b, r); /* host/report/report_impl.c */
  if (order) {
    target_sections(&b, r, charts, order);
    tables(&b, r, order);
  }
  about(&b, a);
  mh_html_close(&b, data, a);
  free(order);
  json_decref(data);
  json_decref(charts);
  if (b.failed) {
    mh_sb_free(&b);
    return NULL;
  }
  return b.s;
}
