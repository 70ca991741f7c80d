/* SPDX-License-Identifier: Apache-2.0 */
/* report.html: one self-contained page (no network) with the results
 * table and SVG plots drawn here: grouped bars with p1-p99 whiskers, the
 * post-quantum/classical ratio chart, cost versus payload lines and CDFs
 * of operations whose time spreads. Every plotted series is an SVG
 * <g class="series">, so a browser test can count them. */
#include "report/report_html.h"

#include "analysis/groups.h"
#include "analysis/pairs.h"
#include "model/stats.h"
#include "report/format.h"
#include "report/report_wf.h"
#include "run/matrix.h"
#include "util/strbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 900.0 /* plot size in SVG units */
#define H 320.0
#define ML 70.0 /* margins: left, right, top, bottom */
#define MR 20.0
#define MT 20.0
#define MB 90.0

static const char *const COLOURS[] = {"#1b6ca8", "#d1495b", "#edae49",
                                      "#66a182", "#8d96a3", "#6a4c93",
                                      "#f08a4b", "#2e4057"};
#define NCOL (sizeof COLOURS / sizeof *COLOURS)

/* "alg op (backend)": the name of a plotted operation. */
static void series_name(mh_sb *b, const mh_op *o) {
  mh_fmt_op_name(b, o->alg, o->op, -1, 0);
  mh_sb_puts(b, " (");
  mh_sb_html(b, o->backend);
  mh_sb_putc(b, ')');
}

/* y position of v on a log10 axis from lo to hi. */
static double ylog(double v, double lo, double hi) {
  double f = (log10(v) - log10(lo)) / (log10(hi) - log10(lo));
  return MT + (H - MT - MB) * (1.0 - f);
}

static void axis_log(mh_sb *b, double lo, double hi, const char *unit) {
  mh_sb_printf(b,
               "<line x1='%.0f' y1='%.0f' x2='%.0f' y2='%.0f' "
               "stroke='#444'/>",
               ML, MT, ML, H - MB);
  for (double d = pow(10, floor(log10(lo))); d <= hi * 1.0001; d *= 10) {
    if (d < lo)
      continue;
    double y = ylog(d, lo, hi);
    mh_sb_printf(b,
                 "<line x1='%.0f' y1='%.1f' x2='%.0f' y2='%.1f' "
                 "stroke='#ddd'/><text x='%.0f' y='%.1f' font-size='10' "
                 "text-anchor='end'>",
                 ML, y, W - MR, y, ML - 4, y + 3);
    mh_fmt_num(b, d);
    mh_sb_puts(b, "</text>");
  }
  mh_sb_printf(b,
               "<text x='12' y='%.0f' font-size='11' transform='rotate(-90 "
               "12 %.0f)'>",
               (H - MB) / 2, (H - MB) / 2);
  mh_sb_html(b, unit);
  mh_sb_puts(b, " (log scale)</text>");
}

/* Grouped bars with p1-p99 whiskers: operations without a payload, one
 * series per backend. */
static void plot_bars(mh_sb *b, const mh_result *x) {
  const mh_run *run = &x->run;
  const char *backends[16];
  size_t nb = 0, ng = 0;
  const mh_op *groups[256];
  double lo = INFINITY, hi = 0;
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *o = &run->ops[i];
    if (o->bytes >= 0 || !o->n_samples)
      continue;
    int seen = 0;
    for (size_t k = 0; k < nb; k++)
      seen |= mh_str_same(backends[k], o->backend);
    if (!seen && nb < 16)
      backends[nb++] = o->backend;
    seen = 0;
    for (size_t k = 0; k < ng; k++)
      seen |= mh_str_same(groups[k]->alg, o->alg) &&
              mh_str_same(groups[k]->op, o->op);
    if (!seen && ng < 256)
      groups[ng++] = o;
    double p1 = mh_percentile(o->samples, o->n_samples, 0.01);
    lo = p1 > 0 && p1 < lo ? p1 : lo;
    hi = o->stats.max > hi ? o->stats.max : hi;
  }
  if (!ng || !(lo > 0))
    return;
  lo = pow(10, floor(log10(lo)));
  hi = pow(10, ceil(log10(hi)));
  double gw = (W - ML - MR) / (double)ng, bw = gw * 0.8 / (double)nb;
  mh_sb_puts(b, "<h3>Public-key operations: median, whiskers p1 to p99</h3>"
                "<svg data-plot='bars' viewBox='0 0 900 320' width='900' "
                "height='320'>");
  axis_log(b, lo, hi, run->unit ? run->unit : "");
  for (size_t k = 0; k < nb; k++) {
    mh_sb_printf(b, "<g class='series' data-name='");
    mh_sb_html(b, backends[k]);
    mh_sb_printf(b, "' fill='%s' stroke='#222'>", COLOURS[k % NCOL]);
    for (size_t g = 0; g < ng; g++) {
      const mh_op *o = NULL;
      for (size_t i = 0; i < run->n_ops && !o; i++)
        if (mh_str_same(run->ops[i].alg, groups[g]->alg) &&
            mh_str_same(run->ops[i].op, groups[g]->op) &&
            mh_str_same(run->ops[i].backend, backends[k]) &&
            run->ops[i].n_samples && run->ops[i].bytes < 0)
          o = &run->ops[i];
      if (!o)
        continue;
      double x0 = ML + gw * (double)g + gw * 0.1 + bw * (double)k;
      double y = ylog(o->stats.median, lo, hi), yb = H - MB;
      double p1 = mh_percentile(o->samples, o->n_samples, 0.01);
      double y1 = ylog(p1 > 0 ? p1 : o->stats.median, lo, hi);
      double y99 = ylog(o->stats.p99, lo, hi);
      mh_sb_printf(b,
                   "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f'>"
                   "<title>",
                   x0, y, bw, yb - y);
      series_name(b, o);
      mh_sb_puts(b, ": ");
      mh_fmt_num(b, o->stats.median);
      mh_sb_printf(b,
                   "</title></rect><line x1='%.1f' y1='%.1f' x2='%.1f' "
                   "y2='%.1f'/>",
                   x0 + bw / 2, y1, x0 + bw / 2, y99);
    }
    mh_sb_puts(b, "</g>");
  }
  for (size_t g = 0; g < ng; g++) {
    double xc = ML + gw * ((double)g + 0.5);
    mh_sb_printf(b,
                 "<text x='%.1f' y='%.0f' font-size='9' "
                 "transform='rotate(40 %.1f %.0f)'>",
                 xc, H - MB + 12, xc, H - MB + 12);
    mh_sb_html(b, groups[g]->alg);
    mh_sb_putc(b, ' ');
    mh_sb_html(b, groups[g]->op);
    mh_sb_puts(b, "</text>");
  }
  for (size_t k = 0; k < nb; k++) {
    mh_sb_printf(b,
                 "<rect x='%.0f' y='6' width='10' height='10' fill='%s'/>"
                 "<text x='%.0f' y='15' font-size='11'>",
                 ML + 10 + 110.0 * (double)k, COLOURS[k % NCOL],
                 ML + 24 + 110.0 * (double)k);
    mh_sb_html(b, backends[k]);
    mh_sb_puts(b, "</text>");
  }
  mh_sb_puts(b, "</svg>");
}

/* Median against payload, one line per (algorithm, operation, backend). */
static void plot_payload(mh_sb *b, const mh_result *x) {
  const mh_run *run = &x->run;
  double xmax = 0, ymax = 0;
  size_t nseries = 0;
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *o = &run->ops[i];
    if (o->bytes < 0 || !o->n_samples)
      continue;
    xmax = (double)o->bytes > xmax ? (double)o->bytes : xmax;
    ymax = o->stats.median > ymax ? o->stats.median : ymax;
  }
  if (xmax <= 0 || ymax <= 0)
    return;
  mh_sb_puts(b, "<h3>Cost versus payload (median)</h3><svg data-plot='payload' "
                "viewBox='0 0 900 320' width='900' height='320'>");
  mh_sb_printf(b,
               "<line x1='%.0f' y1='%.0f' x2='%.0f' y2='%.0f' "
               "stroke='#444'/><text x='%.0f' y='%.0f' font-size='11'>"
               "bytes (0 to ",
               ML, H - MB, W - MR, H - MB, ML, H - MB + 16);
  mh_fmt_num(b, xmax);
  mh_sb_puts(b, "); up to ");
  mh_fmt_num(b, ymax);
  mh_sb_putc(b, ' ');
  mh_sb_html(b, run->unit ? run->unit : "");
  mh_sb_puts(b, "</text>");
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *o = &run->ops[i];
    if (!mh_an_first_payload(run, i))
      continue;
    mh_sb_puts(b, "<g class='series' data-name='");
    series_name(b, o);
    mh_sb_printf(b, "'><polyline fill='none' stroke='%s' points='",
                 COLOURS[nseries % NCOL]);
    for (size_t j = i; j < run->n_ops; j++) {
      const mh_op *p = &run->ops[j];
      if (!mh_an_payload_of(p, o))
        continue;
      mh_sb_printf(b, "%.1f,%.1f ",
                   ML + (W - ML - MR) * (double)p->bytes / xmax,
                   H - MB - (H - MT - MB) * p->stats.median / ymax);
    }
    mh_sb_puts(b, "'/><title>");
    series_name(b, o);
    mh_sb_puts(b, "</title></g>");
    nseries++;
  }
  mh_sb_puts(b, "</svg>");
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Empirical CDFs of the signing operations whose samples spread
 * (mh_an_spread). */
static void plot_cdf(mh_sb *b, const mh_result *x) {
  const mh_run *run = &x->run;
  double xmax = 0;
  size_t n = 0;
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *o = &run->ops[i];
    if (mh_an_spread(o) && mh_str_same(o->op, "sign")) {
      n++;
      xmax = o->stats.max > xmax ? o->stats.max : xmax;
    }
  }
  if (!n)
    return;
  mh_sb_puts(b, "<h3>Signing time, cumulative distribution (operations "
                "whose samples spread)</h3><svg data-plot='cdf' "
                "viewBox='0 0 900 320' width='900' height='320'>");
  mh_sb_printf(b, "<text x='%.0f' y='%.0f' font-size='11'>0 to ", ML,
               H - MB + 16);
  mh_fmt_num(b, xmax);
  mh_sb_putc(b, ' ');
  mh_sb_html(b, run->unit ? run->unit : "");
  mh_sb_puts(b, "; fraction of samples 0 to 1</text>");
  size_t s = 0;
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *o = &run->ops[i];
    if (!(mh_an_spread(o) && mh_str_same(o->op, "sign")))
      continue;
    double *v = malloc(o->n_samples * sizeof *v);
    if (!v) {
      b->failed = 1;
      return;
    }
    memcpy(v, o->samples, o->n_samples * sizeof *v);
    qsort(v, o->n_samples, sizeof *v, cmp_d);
    mh_sb_puts(b, "<g class='series' data-name='");
    mh_sb_html(b, o->alg);
    mh_sb_puts(b, " (");
    mh_sb_html(b, o->backend);
    mh_sb_printf(b, ")'><polyline fill='none' stroke='%s' points='",
                 COLOURS[s++ % NCOL]);
    for (size_t k = 0; k < o->n_samples; k++)
      mh_sb_printf(b, "%.1f,%.1f ", ML + (W - ML - MR) * v[k] / xmax,
                   H - MB -
                       (H - MT - MB) * (double)(k + 1) / (double)o->n_samples);
    free(v);
    mh_sb_puts(b, "'/><title>");
    mh_sb_html(b, o->alg);
    mh_sb_puts(b, " sign (");
    mh_sb_html(b, o->backend);
    mh_sb_puts(b, ")</title></g>");
  }
  mh_sb_puts(b, "</svg>");
}

/* Post-quantum against classical, key establishment on the side that
 * generates a key pair, same backend: one bar per pair (one series). */
static void plot_ratios(mh_sb *b, const mh_result *x) {
  mh_an_ratio *v;
  size_t nv;
  if (mh_an_ratios(&x->run, MH_AN_KE_INIT, MH_AN_SAME_BACKEND, &v, &nv) != 0) {
    b->failed = 1;
    return;
  }
  double val[64];
  char lab[64][96];
  size_t n = 0;
  for (; n < nv && n < 64; n++) {
    val[n] = v[n].median;
    snprintf(lab[n], sizeof lab[n], "%s (%s) / %s (%s)", v[n].pq->alg,
             v[n].pq_backend, v[n].ref->alg, v[n].ref_backend);
  }
  free(v);
  if (!n)
    return;
  double vmax = 0;
  for (size_t i = 0; i < n; i++)
    vmax = val[i] > vmax ? val[i] : vmax;
  vmax = vmax < 1 ? 1 : vmax;
  double bh = (H - MT - 10) / (double)n;
  mh_sb_puts(b, "<h3>Key establishment, post-quantum / classical (keygen + "
                "decaps against keygen + shared; 1 = equal cost)</h3>"
                "<svg data-plot='ratios' viewBox='0 0 900 320' width='900' "
                "height='320'><g class='series' data-name='ratio' "
                "fill='#1b6ca8'>");
  for (size_t i = 0; i < n; i++) {
    double w = (W - 320 - MR) * val[i] / vmax;
    mh_sb_printf(b,
                 "<rect x='320' y='%.1f' width='%.1f' height='%.1f'/>"
                 "<text x='315' y='%.1f' font-size='10' text-anchor='end'>",
                 MT + bh * (double)i, w, bh * 0.7,
                 MT + bh * (double)i + bh * 0.5);
    mh_sb_html(b, lab[i]);
    mh_sb_printf(b,
                 "</text><text x='%.1f' y='%.1f' font-size='10'>%.2f"
                 "</text>",
                 325 + w, MT + bh * (double)i + bh * 0.5, val[i]);
  }
  double x1 = 320 + (W - 320 - MR) / vmax;
  mh_sb_printf(b,
               "</g><line x1='%.1f' y1='%.0f' x2='%.1f' y2='%.0f' "
               "stroke='#d1495b' stroke-dasharray='4'/></svg>",
               x1, MT, x1, H - 10);
  mh_sb_puts(b, "<table data-table='ratios'><tr><th>post-quantum / "
                "classical</th><th>ratio of medians</th></tr>");
  for (size_t i = 0; i < n; i++) {
    mh_sb_puts(b, "<tr><td>");
    mh_sb_html(b, lab[i]);
    mh_sb_printf(b, "</td><td>%.2f</td></tr>", val[i]);
  }
  mh_sb_puts(b, "</table>");
}

/* The fitted lines of plot_payload, as numbers. */
static void fit_table(mh_sb *b, const mh_result *x) {
  const mh_run *run = &x->run;
  int header = 0;
  for (size_t i = 0; i < run->n_ops; i++) {
    mh_an_fit f;
    if (!mh_an_payload_fit(run, i, &f))
      continue;
    if (!header) {
      mh_sb_puts(b, "<table data-table='fits'><tr><th>operation</th><th>"
                    "backend</th><th>fixed</th><th>per byte</th><th>max "
                    "residual</th></tr>");
      header = 1;
    }
    const mh_op *o = &run->ops[i];
    mh_sb_puts(b, "<tr><td>");
    mh_fmt_op_name(b, o->alg, o->op, -1, 0);
    mh_sb_puts(b, "</td><td>");
    mh_sb_html(b, o->backend);
    const double v[] = {f.fixed, f.rate};
    mh_fmt_nums(b, "</td><td>", v, 2);
    mh_sb_printf(b, "</td><td>%.1f %%</td></tr>", f.worst * 100.0);
  }
  if (header)
    mh_sb_puts(b, "</table>");
}

static void table(mh_sb *b, const mh_result *x) {
  const mh_run *run = &x->run;
  mh_sb_puts(b, "<table><tr><th>operation</th><th>backend</th><th>median"
                "</th><th>p99</th><th>stack (B)</th><th>heap (B)</th>"
                "<th>constant time</th></tr>");
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *o = &run->ops[i];
    mh_sb_puts(b, "<tr><td>");
    mh_fmt_op_name(b, o->alg, o->op, o->bytes, 0);
    mh_sb_puts(b, "</td><td>");
    mh_sb_html(b, o->backend);
    const double v[] = {o->stats.median, o->stats.p99};
    mh_fmt_nums(b, "</td><td>", v, 2);
    mh_sb_puts(b, "</td><td>");
    if (o->has_mem)
      mh_fmt_num(b, (double)o->stack_bytes);
    mh_sb_puts(b, "</td><td>");
    if (o->has_mem)
      mh_fmt_num(b, (double)o->heap_bytes);
    mh_sb_puts(b, "</td><td>");
    if (o->has_ct_verdict)
      mh_sb_html(b, o->ct_status == 1   ? "no finding"
                    : o->ct_status == 2 ? "expected finding"
                    : o->ct_status == 3 ? "FINDING"
                                        : "not checked");
    mh_sb_puts(b, "</td></tr>");
  }
  mh_sb_puts(b, "</table>");
}

char *mh_report_html(const mh_results *r) {
  mh_sb b = {0};
  mh_sb_puts(&b, "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
                 "<title>Merlin report</title><style>body{font-family:sans-"
                 "serif;margin:2em;max-width:960px}table{border-collapse:"
                 "collapse;font-size:12px}td,th{border:1px solid #ccc;"
                 "padding:2px 6px;text-align:right}td:first-child,td:nth-"
                 "child(2){text-align:left}svg{background:#fff;border:1px "
                 "solid #eee}</style></head><body><h1>Merlin benchmark "
                 "report</h1><p>Created ");
  mh_sb_html(&b, r->created ? r->created : "?");
  mh_sb_puts(&b, " by merlin ");
  mh_sb_html(&b, r->merlin ? r->merlin : "?");
  mh_sb_puts(&b, ". Every operation passed its known-answer test before it "
                 "was timed. QEMU figures are instruction counts, not cycles. "
                 "report.md has every table; results.json every sample.</p>");
  for (size_t i = 0; i < r->n_runs; i++) {
    const mh_result *x = &r->runs[i];
    mh_sb_puts(&b, "<section><h2>");
    mh_sb_html(&b, x->target);
    mh_sb_puts(&b, " (profile ");
    mh_sb_html(&b, x->profile);
    if (mh_run_prov(&x->run, "compiler")) { /* the matrix row */
      char cc[64], opt[32];
      mh_result_cc(x, cc, sizeof cc);
      mh_result_opt(x, opt, sizeof opt);
      mh_sb_puts(&b, ", ");
      mh_sb_html(&b, cc);
      mh_sb_puts(&b, " ");
      mh_sb_html(&b, opt);
    }
    mh_sb_puts(&b, "), in ");
    mh_sb_html(&b, x->run.unit ? x->run.unit : "?");
    mh_sb_puts(&b, "</h2>");
    plot_bars(&b, x);
    plot_ratios(&b, x);
    plot_payload(&b, x);
    fit_table(&b, x);
    plot_cdf(&b, x);
    table(&b, x);
    mh_report_html_workflows(&b, x); /* host/report/report_wf.c */
    mh_sb_puts(&b, "</section>");
  }
  /* For the browser test: the number of series of each plot, in the
   * title once the page has loaded. */
  mh_sb_puts(&b, "<script>window.addEventListener('load',function(){var "
                 "c={};document.querySelectorAll('svg[data-plot]').forEach("
                 "function(s){var k=s.getAttribute('data-plot');c[k]=(c[k]||"
                 "0)+s.querySelectorAll('g.series').length;});document.title="
                 "'series:'+JSON.stringify(c);});</script></body></html>\n");
  if (b.failed) {
    mh_sb_free(&b);
    return NULL;
  }
  return b.s;
}
