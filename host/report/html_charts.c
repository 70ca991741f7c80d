/* SPDX-License-Identifier: Apache-2.0 */
/* report.html's charts as Vega-Lite specifications (see html_charts.h).
 * Figures are the results' own: medians, p1 and p99 of the samples, the
 * ratios, fits and workflow steps host/analysis/ computes, and their text
 * as report.md writes it (mh_format_number). */
#include "report/html_charts.h"

#include "analysis/groups.h"
#include "analysis/pairs.h"
#include "model/build.h"
#include "model/cycles.h"
#include "model/stats.h"
#include "model/workflow.h"
#include "report/format.h"
#include "report/headline.h"
#include "util/strbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One target's charts under construction. */
typedef struct {
  const mh_results *r;
  const char *target;
  int multi_profile, multi_build; /* series names carry these */
  const char *unit;
  size_t ti; /* target number, for chart ids */
  int failed;
} tctx;

/* v as report.md writes it. */
static json_t *text(double v) {
  char buf[96];
  mh_format_number(v, buf, sizeof buf);
  return json_string(buf);
}

void mh_html_build(const mh_result *x, char *cc, size_t cc_len, char *opt,
                   size_t opt_len, char *label, size_t label_len) {
  if (mh_run_prov(&x->run, "compiler"))
    mh_result_cc(x, cc, cc_len);
  else
    snprintf(cc, cc_len, "%s", "");
  mh_result_opt(x, opt, opt_len);
  snprintf(label, label_len, "%s%s%s", cc, *cc && *opt ? " " : "", opt);
}

json_t *mh_html_filter(const mh_result *x, json_t *backends, json_t *algs) {
  char cc[64], opt[32], label[100];
  mh_html_build(x, cc, sizeof cc, opt, sizeof opt, label, sizeof label);
  return json_pack("{s:s, s:s, s:s, s:s, s:o, s:o}", "target", x->target,
                   "profile", x->profile ? x->profile : "", "cc", cc, "opt",
                   opt, "backend", backends, "alg", algs);
}

#define filt mh_html_filter

static json_t *filt1(const mh_result *x, const char *backend, const char *alg) {
  return filt(x, json_pack("[s]", backend ? backend : ""),
              json_pack("[s]", alg ? alg : ""));
}

/* Appends " · <profile>, <build>" to a series name when the target has
 * several profiles or builds. */
static void run_tag(mh_sb *b, const tctx *t, const mh_result *x) {
  char cc[64], opt[32], label[100];
  mh_html_build(x, cc, sizeof cc, opt, sizeof opt, label, sizeof label);
  if (t->multi_profile || t->multi_build)
    mh_sb_puts(b, " · ");
  if (t->multi_profile)
    mh_sb_puts(b, x->profile ? x->profile : "");
  if (t->multi_profile && t->multi_build)
    mh_sb_puts(b, ", ");
  if (t->multi_build)
    mh_sb_puts(b, label);
}

int mh_html_first_of_target(const mh_results *r, size_t i) {
  for (size_t k = 0; k < i; k++)
    if (strcmp(r->runs[k].target, r->runs[i].target) == 0)
      return 0;
  return 1;
}

/* Every operation of the target's runs in turn: start with *ri = *oi = 0;
 * NULL at the end, else the operation and its run in *x. */
static const mh_op *next_op(const tctx *t, size_t *ri, size_t *oi,
                            const mh_result **x) {
  for (; *ri < t->r->n_runs; (*ri)++, *oi = 0) {
    *x = &t->r->runs[*ri];
    if (strcmp((*x)->target, t->target) == 0 && *oi < (*x)->run.n_ops)
      return &(*x)->run.ops[(*oi)++];
  }
  return NULL;
}

/* The backend's variants differ within the target: name them. */
static int variants_differ(const tctx *t, const char *backend) {
  const char *first = NULL;
  const mh_result *x;
  const mh_op *o;
  for (size_t ri = 0, oi = 0; (o = next_op(t, &ri, &oi, &x)) != NULL;) {
    if (!mh_str_same(o->backend, backend) || !o->variant)
      continue;
    if (first && strcmp(first, o->variant) != 0)
      return 1;
    first = o->variant;
  }
  return 0;
}

/* "wolfcrypt", "wolfcrypt (thumb2-asm)", "wolfcrypt · clang -Os". */
static json_t *backend_series(const tctx *t, const mh_result *x, const mh_op *o,
                              const char *prefix) {
  mh_sb b = {0};
  mh_sb_puts(&b, prefix ? prefix : "");
  mh_sb_puts(&b, o->backend);
  if (o->variant && variants_differ(t, o->backend)) {
    mh_sb_printf(&b, " (%s)", o->variant);
  }
  run_tag(&b, t, x);
  json_t *j = b.failed ? NULL : json_string(b.s ? b.s : "");
  mh_sb_free(&b);
  return j;
}

/* "sha256 hash (wolfcrypt)": an operation with its backend. */
static json_t *op_series(const tctx *t, const mh_result *x, const mh_op *o) {
  char pre[160];
  snprintf(pre, sizeof pre, "%s %s (", o->alg, o->op);
  mh_sb b = {0};
  json_t *s = backend_series(t, x, o, pre);
  mh_sb_puts(&b, s ? json_string_value(s) : "");
  mh_sb_putc(&b, ')');
  json_decref(s);
  json_t *j = b.failed ? NULL : json_string(b.s);
  mh_sb_free(&b);
  return j;
}

/* {"field": f, "title": title} */
static json_t *tip(const char *f, const char *title) {
  return json_pack("{s:s, s:s}", "field", f, "title", title);
}

static json_t *tip_unit(const char *f, const char *what, const char *unit) {
  char t[160];
  snprintf(t, sizeof t, "%s (%s)", what, unit);
  return tip(f, t);
}

/* A quantitative axis: labels that would touch are left out (a log axis
 * on a phone's width). */
static json_t *qaxis(const char *field, const char *title, int scale) {
  json_t *e = json_pack("{s:s, s:s, s:s, s:{s:s, s:i}}", "field", field, "type",
                        "quantitative", "title", title, "axis", "labelOverlap",
                        "greedy", "labelSeparation", 10);
  if (e && scale)
    json_object_set_new(e, "scale", json_pack("{s:s}", "type", "linear"));
  return e;
}

/* A band axis of names: its title set horizontally above the names, where
 * it cannot run over them (the page's script sets labelLimit to the
 * width it has, merlin.js fit). */
json_t *mh_html_name_axis(const char *field, const char *title) {
  return json_pack("{s:s, s:s, s:n, s:s, s:{s:i, s:i, s:s, s:s, s:s, s:i, "
                   "s:i}}",
                   "field", field, "type", "nominal", "sort", "title",
                   title ? title : "", "axis", "labelLimit", 420, "titleAngle",
                   0, "titleAlign", "right", "titleAnchor", "end",
                   "titleBaseline", "bottom", "titleX", 0, "titleY", -6);
}
#define naxis mh_html_name_axis

json_t *mh_html_palette(size_t n) {
  /* Tableau's 10 colours, then its 20 (ten hues, dark and light): as many
   * colours as series up to 20; beyond that the chart is faceted. */
  return json_pack("{s:s}", "scheme", n <= 10 ? "tableau10" : "tableau20");
}

/* Adds a chart: log when the values lo..hi span more than two decades. */
static void add_chart(tctx *t, json_t *charts, const char *kind,
                      const char *title, const char *note, json_t *spec,
                      const char *log_axis, double lo, double hi) {
  char id[64];
  snprintf(id, sizeof id, "%s-%zu", kind, t->ti);
  json_t *c = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o}", "id", id, "kind",
                        kind, "target", t->target, "title", title, "note", note,
                        "main", "rows", "spec", spec);
  if (c && log_axis && lo > 0 && hi > 0 && isfinite(lo) && isfinite(hi))
    json_object_set_new(
        c, "log",
        json_pack("{s:s, s:b}", "axis", log_axis, "on", hi / lo > 100.0));
  if (!c || json_array_append_new(charts, c) != 0)
    t->failed = 1;
}

static json_t *base(json_t *rows) {
  return json_pack("{s:{s:s}, s:{s:o}, s:i, s:{s:{s:n}, s:{s:i, s:i}, s:{s:i, "
                   "s:i, s:i}}}",
                   "data", "name", "rows", "datasets", "rows", rows, "width",
                   720, "config", "view", "stroke", "axis", "labelFontSize", 11,
                   "titleFontSize", 12, "legend", "labelFontSize", 11,
                   "titleFontSize", 12, "labelLimit", 360, "titleLimit", 360);
}

/* The distinct values of field key in rows, as a set (an object). */
static json_t *distinct(const json_t *rows, const char *key) {
  json_t *set = json_object();
  size_t i;
  const json_t *row;
  json_array_foreach(rows, i, row) {
    const char *v = json_string_value(json_object_get(row, key));
    if (set && v)
      json_object_set_new(set, v, json_true());
  }
  return set;
}

/* Colours for the series of spec's rows: the palette of as many colours as
 * series; past the palette's 20, one view per backend (each row carries
 * "backend"), each with its own colours, stacked: no two series of a view
 * share a colour. The rows filtered per view are every dataset's (the
 * view's and its layers' "data"). */
static json_t *colour_series(json_t *spec, const json_t *rows) {
  json_t *names = distinct(rows, "series");
  size_t n = json_object_size(names);
  json_decref(names);
  json_t *enc = json_object_get(spec, "encoding");
  json_object_set_new(json_object_get(enc, "color"), "scale",
                      mh_html_palette(n));
  if (n <= 20)
    return spec;
  json_t *backends = distinct(rows, "backend");
  json_t *out = json_pack("{s:O, s:O, s:[], s:{s:{s:s}}}", "datasets",
                          json_object_get(spec, "datasets"), "config",
                          json_object_get(spec, "config"), "vconcat", "resolve",
                          "scale", "color", "independent");
  json_object_del(spec, "datasets");
  json_object_del(spec, "config");
  const char *b;
  json_t *unused;
  json_object_foreach(backends, b, unused) {
    json_t *v = json_deep_copy(spec), *layer;
    json_object_set_new(v, "title", json_string(b));
    size_t k = 0;
    for (json_t *w = v; w; w = json_array_get(json_object_get(v, "layer"), k++))
      if (json_object_get(w, "data")) {
        json_t *tr = json_object_get(w, "transform");
        if (!tr)
          json_object_set_new(w, "transform", tr = json_array());
        json_array_insert_new(tr, 0,
                              json_pack("{s:{s:s, s:s}}", "filter", "field",
                                        "backend", "equal", b));
      }
    layer = json_object_get(out, "vconcat");
    json_array_append_new(layer, v);
  }
  json_decref(backends);
  json_decref(spec);
  return out;
}

/* ---- operations without a payload: bars with p1-p99 whiskers ---------- */

static void ops_chart(tctx *t, json_t *charts) {
  json_t *rows = json_array(), *series = json_object();
  double lo = INFINITY, hi = 0;
  const mh_result *x;
  const mh_op *o;
  for (size_t ri = 0, oi = 0; (o = next_op(t, &ri, &oi, &x)) != NULL;) {
    if (o->bytes >= 0 || !o->n_samples)
      continue;
    double p1 = mh_percentile(o->samples, o->n_samples, 0.01);
    char label[160];
    snprintf(label, sizeof label, "%s %s", o->alg, o->op);
    json_t *s = backend_series(t, x, o, NULL);
    json_object_set(series, s ? json_string_value(s) : "", json_true());
    json_array_append_new(
        rows, json_pack("{s:s, s:o, s:s, s:f, s:f, s:f, s:o, s:o, s:o, s:o, "
                        "s:I, s:o}",
                        "label", label, "series", s, "backend", o->backend,
                        "median", o->stats.median, "p1", p1, "p99",
                        o->stats.p99, "median_t", text(o->stats.median), "p1_t",
                        text(p1), "p99_t", text(o->stats.p99), "iqr_t",
                        text(o->stats.iqr), "n", (json_int_t)o->n_samples, "_f",
                        filt1(x, o->backend, o->alg)));
    lo = p1 > 0 && p1 < lo ? p1 : lo;
    hi = o->stats.p99 > hi ? o->stats.p99 : hi;
  }
  json_decref(series);
  if (!json_array_size(rows)) {
    json_decref(rows);
    return;
  }
  char xt[160];
  snprintf(xt, sizeof xt, "%s per operation", t->unit);
  json_t *tt = json_pack(
      "[o, o, o, o, o, o, o]", tip("label", "operation"),
      tip("series", "backend"), tip_unit("median_t", "median", t->unit),
      tip_unit("p1_t", "p1", t->unit), tip_unit("p99_t", "p99", t->unit),
      tip_unit("iqr_t", "IQR", t->unit), tip("n", "samples (n)"));
  json_t *spec = base(rows);
  json_object_set_new(spec, "height", json_pack("{s:i}", "step", 11));
  json_object_set_new(spec, "width", json_integer(880));
  json_object_set_new(
      spec, "encoding",
      json_pack("{s:o, s:{s:s, s:s}, s:{s:s, s:s, s:s, s:{s:s, s:i}}, s:o}",
                "y", naxis("label", "operation"), "yOffset", "field", "series",
                "type", "nominal", "color", "field", "series", "type",
                "nominal", "title", "backend", "legend", "orient", "top",
                "columns", 4, "x", qaxis("median", xt, 1)));
  /* bars start at the axis, not stacked from 0 (a log axis has none) */
  json_object_set_new(json_object_get(json_object_get(spec, "encoding"), "x"),
                      "stack", json_null());
  json_object_set_new(
      spec, "layer",
      json_pack("[{s:{s:s}, s:{s:O}}, {s:{s:s, s:s}, s:{s:o, s:{s:s}, "
                "s:{s:s}, s:O}}]",
                "mark", "type", "bar", "encoding", "tooltip", tt, "mark",
                "type", "rule", "color", "#222", "encoding", "x",
                qaxis("p1", xt, 1), "x2", "field", "p99", "color", "value",
                "#222", "tooltip", tt));
  json_decref(tt);
  spec = colour_series(spec, rows);
  add_chart(t, charts, "ops", "Operations without a payload",
            "Median per operation (bar) and the p1 to p99 range of the "
            "samples (whisker), one colour per backend.",
            spec, "x", lo, hi);
}

/* ---- post-quantum against classical ----------------------------------- */

static const char *const CONTEST[MH_AN_N_CONTESTS] = {
    [MH_AN_KE_INIT] = "key establishment, side generating the key pair",
    [MH_AN_KE_RESP] = "key establishment, answering side",
    [MH_AN_VERIFY] = "signature verify",
    [MH_AN_SIGN] = "signature sign",
};

/* The colour of a pairing's bar: which side is cheaper. */
static const char *const SIDE[2] = {"post-quantum cheaper",
                                    "post-quantum costlier"};

/* The algorithm's name in a job label: "ML-KEM-512" of "ML-KEM-512
 * keygen + decaps", "ECDH P-256" of "ECDH P-256 keygen + shared". */
static size_t name_len(const char *label) {
  static const char *const verbs[] = {" keygen", " encaps", " decaps",
                                      " sign",   " verify", " shared"};
  size_t n = strlen(label);
  for (size_t k = 0; k < sizeof verbs / sizeof *verbs; k++) {
    const char *p = strstr(label, verbs[k]);
    if (p && (size_t)(p - label) < n)
      n = (size_t)(p - label);
  }
  return n;
}

static void ratio_rows(tctx *t, const mh_result *x, json_t *rows, double *lo,
                       double *hi) {
  for (int c = 0; c < MH_AN_N_CONTESTS; c++) {
    mh_an_ratio *v;
    size_t n;
    if (mh_an_ratios(&x->run, (mh_an_contest_id)c, MH_AN_SAME_BACKEND, &v,
                     &n) != 0) {
      t->failed = 1;
      return;
    }
    for (size_t i = 0; i < n; i++) {
      mh_sb b = {0};
      /* "ML-KEM-512 (pqclean) / ECDH P-256 (wolfcrypt)": the job is the
       * colour */
      const char *pl = v[i].pq->label, *rl = v[i].ref->label;
      mh_sb_printf(&b, "%.*s (%s) / %.*s (%s)", (int)name_len(pl), pl,
                   v[i].pq_backend, (int)name_len(rl), rl, v[i].ref_backend);
      run_tag(&b, t, x);
      char rt[32], pt[32];
      snprintf(rt, sizeof rt, "%.2f×", v[i].median);
      snprintf(pt, sizeof pt, "%.2f", v[i].p99);
      json_t *row = json_pack(
          "{s:s, s:s, s:s, s:f, s:f, s:s, s:s, s:o}", "pair", b.s ? b.s : "",
          "contest", CONTEST[c], "side", SIDE[v[i].median > 1], "ratio",
          v[i].median, "label_at", v[i].median > 1 ? v[i].median : 1.0,
          "ratio_t", rt, "p99_t", pt, "_f",
          filt(x, json_pack("[s, s]", v[i].pq_backend, v[i].ref_backend),
               json_pack("[s, s]", v[i].pq->alg, v[i].ref->alg)));
      if (b.failed || !row || json_array_append_new(rows, row) != 0)
        t->failed = 1;
      mh_sb_free(&b);
      *lo = v[i].median < *lo ? v[i].median : *lo;
      *hi = v[i].median > *hi ? v[i].median : *hi;
    }
    free(v);
  }
}

/* One row of bars per job (a facet each, so that no two pairings share a
 * row), one bar per pairing from 1 to its ratio, coloured by the side that
 * is cheaper, labelled with the ratio. */
static void ratio_chart(tctx *t, json_t *charts) {
  json_t *rows = json_array();
  double lo = 1, hi = 1;
  for (size_t i = 0; i < t->r->n_runs; i++)
    if (strcmp(t->r->runs[i].target, t->target) == 0)
      ratio_rows(t, &t->r->runs[i], rows, &lo, &hi);
  if (!json_array_size(rows)) {
    json_decref(rows);
    return;
  }
  json_t *spec = base(rows);
  json_t *tt =
      json_pack("[o, o, o, o]", tip("pair", "post-quantum / classical"),
                tip("contest", "job"), tip("ratio_t", "ratio of medians"),
                tip("p99_t", "ratio of p99s"));
  /* Each facet's header names its job: the names need no axis title. */
  json_t *y = naxis("pair", NULL);
  json_object_set_new(y, "title", json_null());
  json_t *inner = json_pack(
      "{s:i, s:{s:i}, s:{s:o}, s:[{s:s, s:{s:O, s:{s:i}, s:{s:s, s:s, s:s, "
      "s:{s:[s, s], s:[s, s]}, s:{s:s}}, s:o}}, "
      "{s:{s:s, s:s, s:i, s:i}, s:{s:O, s:{s:s, s:s}, s:{s:s}}}, "
      "{s:{s:s, s:s, s:[i, i]}, s:{s:{s:i}}}]}",
      "width", 720, "height", "step", 20, "encoding", "x",
      qaxis("ratio", "ratio of medians, post-quantum / classical", 1), "layer",
      "mark", "bar", "encoding", "y", y, "x2", "datum", 1, "color", "field",
      "side", "type", "nominal", "title", "pairing", "scale", "domain", SIDE[0],
      SIDE[1], "range", "#1b6ca8", "#e08a1e", "legend", "orient", "top",
      "tooltip", tt, "mark", "type", "text", "align", "left", "dx", 4,
      "fontSize", 11, "encoding", "y", y, "x", "field", "label_at", "type",
      "quantitative", "text", "field", "ratio_t", "mark", "type", "rule",
      "color", "#b3261e", "strokeDash", 4, 3, "encoding", "x", "datum", 1);
  json_decref(y);
  json_object_del(spec, "width");
  json_object_set_new(
      spec, "facet",
      json_pack("{s:{s:s, s:s, s:[s, s, s, s], s:{s:n, s:i, s:s, s:s, s:s, "
                "s:i, s:s, s:i}}}",
                "row", "field", "contest", "type", "nominal", "sort",
                CONTEST[0], CONTEST[1], CONTEST[2], CONTEST[3], "header",
                "title", "labelAngle", 0, "labelOrient", "top", "labelAnchor",
                "start", "labelAlign", "left", "labelFontSize", 12,
                "labelFontWeight", "bold", "labelPadding", 4));
  json_object_set_new(spec, "spec", inner);
  json_object_set_new(spec, "resolve",
                      json_pack("{s:{s:s}}", "scale", "y", "independent"));
  char note[600];
  snprintf(note, sizeof note,
           "One group of bars per job, one bar per pairing: the same job done "
           "both ways on the same backend where it has both (key "
           "establishment: keygen + decaps against keygen + shared; encaps "
           "against a full exchange; verify; sign). Left of the dashed line "
           "at 1 post-quantum is cheaper; the label is the ratio of %s",
           strcmp(t->unit, "est. cycles") == 0
               ? "the medians of the estimated cycles, as report.md's ratio "
                 "tables give it after \"est. cycles\"."
               : "medians, as in report.md's ratio tables.");
  add_chart(t, charts, "ratios", "Post-quantum against classical", note, spec,
            "x", lo, hi);
}

/* ---- cost versus payload ------------------------------------------------ */

/* The measured payloads of x's operation k and its fitted line from 0 (or
 * the smallest payload when the fixed cost is not positive) to the
 * largest payload. */
static void payload_rows(tctx *t, const mh_result *x, size_t k, json_t *rows,
                         json_t *fit, double *lo, double *hi) {
  const mh_run *run = &x->run;
  const mh_op *o = &run->ops[k];
  mh_an_fit f = {0};
  int has_fit = mh_an_payload_fit(run, k, &f);
  char worst[32];
  snprintf(worst, sizeof worst, "%.1f%%", f.worst * 100.0);
  long bmin = o->bytes, bmax = o->bytes;
  json_t *s = op_series(t, x, o);
  for (size_t j = k; j < run->n_ops; j++) {
    const mh_op *p = &run->ops[j];
    if (!mh_an_payload_of(p, o))
      continue;
    bmin = p->bytes < bmin ? p->bytes : bmin;
    bmax = p->bytes > bmax ? p->bytes : bmax;
    *lo = p->stats.median > 0 && p->stats.median < *lo ? p->stats.median : *lo;
    *hi = p->stats.median > *hi ? p->stats.median : *hi;
    json_t *row =
        json_pack("{s:O, s:s, s:I, s:f, s:o, s:o, s:o, s:I, s:o, s:o, s:o}",
                  "series", s, "backend", p->backend, "bytes",
                  (json_int_t)p->bytes, "median", p->stats.median, "median_t",
                  text(p->stats.median), "p99_t", text(p->stats.p99), "iqr_t",
                  text(p->stats.iqr), "n", (json_int_t)p->n_samples, "fixed_t",
                  has_fit ? text(f.fixed) : json_string("-"), "rate_t",
                  has_fit ? text(f.rate) : json_string("-"), "_f",
                  filt1(x, p->backend, p->alg));
    if (!row || json_array_append_new(rows, row) != 0)
      t->failed = 1;
  }
  double x0 = f.fixed > 0 ? 0 : (double)bmin;
  for (int e = 0; has_fit && e < 2; e++) {
    double xb = e ? (double)bmax : x0;
    json_t *row = json_pack("{s:O, s:s, s:f, s:f, s:o, s:o, s:s, s:o}",
                            "series", s, "backend", o->backend, "bytes", xb,
                            "fitted", f.fixed + f.rate * xb, "fixed_t",
                            text(f.fixed), "rate_t", text(f.rate), "worst_t",
                            worst, "_f", filt1(x, o->backend, o->alg));
    if (!row || json_array_append_new(fit, row) != 0)
      t->failed = 1;
  }
  json_decref(s);
}

static void payload_chart(tctx *t, json_t *charts) {
  json_t *rows = json_array(), *fit = json_array();
  double lo = INFINITY, hi = 0;
  for (size_t i = 0; i < t->r->n_runs; i++) {
    const mh_result *x = &t->r->runs[i];
    if (strcmp(x->target, t->target) != 0)
      continue;
    for (size_t k = 0; k < x->run.n_ops; k++)
      if (mh_an_first_payload(&x->run, k))
        payload_rows(t, x, k, rows, fit, &lo, &hi);
  }
  if (!json_array_size(rows)) {
    json_decref(rows);
    json_decref(fit);
    return;
  }
  json_t *spec = base(rows);
  json_object_set_new(json_object_get(spec, "datasets"), "fit", fit);
  json_object_del(spec, "data");
  char yt[160];
  snprintf(yt, sizeof yt, "%s per operation (median)", t->unit);
  json_t *tt = json_pack(
      "[o, o, o, o, o, o, o, o]", tip("series", "operation (backend)"),
      tip("bytes", "payload (bytes)"), tip_unit("median_t", "median", t->unit),
      tip_unit("p99_t", "p99", t->unit), tip_unit("iqr_t", "IQR", t->unit),
      tip("n", "samples (n)"), tip_unit("fixed_t", "fitted fixed", t->unit),
      tip_unit("rate_t", "fitted rate per byte", t->unit));
  json_t *ft = json_pack("[o, o, o, o]", tip("series", "operation (backend)"),
                         tip_unit("fixed_t", "fitted fixed", t->unit),
                         tip_unit("rate_t", "fitted rate per byte", t->unit),
                         tip("worst_t", "largest residual"));
  json_object_set_new(spec, "height", json_integer(360));
  json_object_set_new(spec, "encoding",
                      json_pack("{s:o, s:{s:s, s:s, s:s, s:{s:s}}}", "x",
                                qaxis("bytes", "payload (bytes)", 0), "color",
                                "field", "series", "type", "nominal", "title",
                                "operation (backend)", "legend", "orient",
                                "right"));
  json_object_set_new(
      spec, "layer",
      json_pack("[{s:{s:s}, s:{s:s, s:[i, i], s:f}, s:{s:o, s:o}}, "
                "{s:{s:s}, s:{s:s, s:b, s:i}, s:{s:o, s:o}}]",
                "data", "name", "fit", "mark", "type", "line", "strokeDash", 5,
                4, "strokeWidth", 1.5, "encoding", "y", qaxis("fitted", yt, 1),
                "tooltip", ft, "data", "name", "rows", "mark", "type", "point",
                "filled", 1, "size", 60, "encoding", "y",
                qaxis("median", yt, 1), "tooltip", tt));
  spec = colour_series(spec, rows);
  add_chart(t, charts, "payload", "Cost versus payload",
            "Points: the median at each measured payload. Dashed: the least "
            "squares line median = fixed + rate × bytes (report.md, \"Cost "
            "versus payload\"); where it meets 0 bytes is the fixed cost.",
            spec, "y", lo, hi);
}

/* ---- signing time, cumulative distributions ---------------------------- */

static void cdf_chart(tctx *t, json_t *charts) {
  json_t *rows = json_array();
  double lo = INFINITY, hi = 0;
  const mh_result *x;
  const mh_op *o;
  for (size_t ri = 0, oi = 0; (o = next_op(t, &ri, &oi, &x)) != NULL;) {
    if (!mh_str_same(o->op, "sign") || o->n_samples < 2)
      continue;
    json_t *s = op_series(t, x, o);
    for (size_t j = 0; j < o->n_samples; j++) {
      double v = o->samples[j];
      json_t *row = json_pack("{s:O, s:s, s:f, s:o, s:I, s:o}", "series", s,
                              "backend", o->backend, "v", v, "v_t", text(v),
                              "n", (json_int_t)o->n_samples, "_f",
                              filt1(x, o->backend, o->alg));
      if (!row || json_array_append_new(rows, row) != 0)
        t->failed = 1;
      lo = v > 0 && v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    json_decref(s);
  }
  if (!json_array_size(rows)) {
    json_decref(rows);
    return;
  }
  json_t *spec = base(rows);
  char xt[160];
  snprintf(xt, sizeof xt, "%s per signature", t->unit);
  json_object_set_new(spec, "height", json_integer(320));
  json_object_set_new(spec, "transform",
                      json_pack("[{s:[{s:s, s:s}], s:[{s:s}], s:[s]}]",
                                "window", "op", "cume_dist", "as", "F", "sort",
                                "field", "v", "groupby", "series"));
  json_object_set_new(
      spec, "encoding",
      json_pack("{s:o, s:{s:s, s:s, s:s, s:{s:[i, i]}}, s:{s:s, s:s, s:s, "
                "s:{s:s}}}",
                "x", qaxis("v", xt, 1), "y", "field", "F", "type",
                "quantitative", "title", "fraction of samples at or below",
                "scale", "domain", 0, 1, "color", "field", "series", "type",
                "nominal", "title", "signing operation (backend)", "legend",
                "orient", "right"));
  json_object_set_new(
      spec, "layer",
      json_pack("[{s:{s:s, s:s}}, {s:{s:s, s:b, s:i}, s:{s:[o, o, {s:s, "
                "s:s, s:s}, o]}}]",
                "mark", "type", "line", "interpolate", "step-after", "mark",
                "type", "point", "filled", 1, "size", 16, "encoding", "tooltip",
                tip("series", "operation (backend)"),
                tip_unit("v_t", "sample", t->unit), "field", "F", "title",
                "fraction at or below", "format", ".2f",
                tip("n", "samples (n)")));
  spec = colour_series(spec, rows);
  add_chart(t, charts, "cdf", "Signing time, cumulative distribution",
            "Every timed sample of every signing operation: how often a "
            "signature took at most that long. ML-DSA signing varies run to "
            "run (rejection sampling); a vertical line means every sample "
            "took the same time.",
            spec, "x", lo, hi);
}

/* ---- workflows: device time by step ----------------------------------- */

json_t *mh_html_wf_filter(const mh_result *x, const mh_wf *w) {
  json_t *algs = json_array(), *backs = json_array();
  /* "alg:backend,..." of its primitives */
  for (const char *p = w->algs; p && *p;) {
    size_t n = strcspn(p, ","), c = strcspn(p, ":");
    if (c < n) {
      json_array_append_new(algs, json_stringn(p, c));
      json_array_append_new(backs, json_stringn(p + c + 1, n - c - 1));
    }
    p += n + (p[n] == ',');
  }
  return filt(x, backs, algs);
}

static void wf_rows(tctx *t, const mh_result *x, json_t *rows) {
  for (size_t i = 0; i < x->run.n_wfs; i++) {
    const mh_wf *w = &x->run.wfs[i];
    if (!w->n_samples || !w->step_median)
      continue;
    double sum = 0;
    for (size_t k = 0; k < w->n_steps; k++)
      sum += w->step_median[k];
    mh_sb b = {0};
    mh_sb_printf(&b, "%s %s (%s)", w->workflow, w->variant, w->backend);
    run_tag(&b, t, x);
    json_t *f = mh_html_wf_filter(x, w);
    for (size_t k = 0; k < w->n_steps; k++) {
      char share[32];
      snprintf(share, sizeof share, "%.0f%%",
               sum > 0 ? 100.0 * w->step_median[k] / sum : 0.0);
      json_t *row =
          json_pack("{s:s, s:s, s:I, s:f, s:o, s:s, s:o}", "wf", b.s ? b.s : "",
                    "step", w->steps[k], "k", (json_int_t)k, "median",
                    w->step_median[k], "median_t", text(w->step_median[k]),
                    "share_t", share, "_f", json_deep_copy(f));
      if (!row || json_array_append_new(rows, row) != 0)
        t->failed = 1;
    }
    json_decref(f);
    t->failed |= b.failed;
    mh_sb_free(&b);
  }
}

static void wf_chart(tctx *t, json_t *charts) {
  json_t *rows = json_array();
  for (size_t i = 0; i < t->r->n_runs; i++)
    if (strcmp(t->r->runs[i].target, t->target) == 0)
      wf_rows(t, &t->r->runs[i], rows);
  if (!json_array_size(rows)) {
    json_decref(rows);
    return;
  }
  json_t *spec = base(rows);
  char xt[160];
  snprintf(xt, sizeof xt, "device time, %s (median of each step, stacked)",
           t->unit);
  json_object_set_new(spec, "height", json_pack("{s:i}", "step", 20));
  json_object_set_new(spec, "mark", json_string("bar"));
  json_object_set_new(
      spec, "encoding",
      json_pack("{s:o, s:{s:s, s:s, s:s, s:s}, s:{s:s, s:s, s:s, s:{s:s}, "
                "s:{s:s}}, s:{s:s, s:s}, s:[o, o, o, o]}",
                "y", naxis("wf", "workflow variant (backends)"), "x", "field",
                "median", "type", "quantitative", "stack", "zero", "title", xt,
                "color", "field", "step", "type", "nominal", "title",
                "device step", "scale", "scheme", "tableau20", "legend",
                "orient", "top", "order", "field", "k", "type", "quantitative",
                "tooltip", tip("wf", "workflow (backend)"), tip("step", "step"),
                tip_unit("median_t", "median", t->unit),
                tip("share_t", "share of the device time")));
  add_chart(t, charts, "workflows", "Workflows, device time by step",
            "The device's steps of each end-to-end workflow (docs/"
            "workflows.md), stacked: the median of each step alone.",
            spec, NULL, 0, 0);
}

/* The charts of target t (runs from r), appended to out; workflows 0: all
 * but the workflow chart. */
static int target_charts(const mh_results *r, const mh_result *x, size_t ti,
                         const char *unit, int workflows, json_t *out) {
  tctx t = {r, x->target, 0, 0, unit, ti, 0};
  for (size_t k = 0; k < r->n_runs; k++) {
    const mh_result *y = &r->runs[k];
    if (y == x || strcmp(y->target, x->target) != 0)
      continue;
    t.multi_profile |= !mh_str_same(y->profile, x->profile);
    char c1[64], o1[32], l1[100], c2[64], o2[32], l2[100];
    mh_html_build(x, c1, sizeof c1, o1, sizeof o1, l1, sizeof l1);
    mh_html_build(y, c2, sizeof c2, o2, sizeof o2, l2, sizeof l2);
    t.multi_build |= strcmp(l1, l2) != 0;
  }
  ops_chart(&t, out);
  ratio_chart(&t, out);
  payload_chart(&t, out);
  cdf_chart(&t, out);
  if (workflows)
    wf_chart(&t, out);
  return t.failed ? -1 : 0;
}

/* The runs of r in the cycle model's estimated cycles: each operation's
 * samples and statistics those of its estimate (none: no samples), the
 * workflows left out (the model estimates operations only). *view shares
 * everything else with r; free with view_free. 1, 0 when no run of target
 * has an estimate, -1 out of memory. */
static int est_view(const mh_results *r, const char *target, mh_results *view) {
  int any = 0;
  for (size_t i = 0; i < r->n_runs; i++)
    any |= strcmp(r->runs[i].target, target) == 0 &&
           mh_an_run_has_est(&r->runs[i].run);
  if (!any)
    return 0;
  *view = *r;
  view->runs = calloc(r->n_runs, sizeof *view->runs);
  if (!view->runs)
    return -1;
  for (size_t i = 0; i < r->n_runs; i++) {
    mh_result *y = &view->runs[i];
    *y = r->runs[i];
    y->run.n_wfs = 0;
    y->run.ops = calloc(y->run.n_ops ? y->run.n_ops : 1, sizeof *y->run.ops);
    if (!y->run.ops) {
      for (size_t k = 0; k < i; k++)
        free(view->runs[k].run.ops);
      free(view->runs);
      return -1;
    }
    for (size_t k = 0; k < y->run.n_ops; k++) {
      mh_op *o = &y->run.ops[k];
      *o = r->runs[i].run.ops[k];
      int est = o->cyc && o->cyc->has_est && o->cyc->n_est;
      o->samples = est ? o->cyc->est_samples : NULL;
      o->n_samples = est ? o->cyc->n_est : 0;
      if (est)
        o->stats = o->cyc->est;
    }
  }
  return 1;
}

static void view_free(mh_results *view) {
  for (size_t i = 0; i < view->n_runs; i++)
    free(view->runs[i].run.ops);
  free(view->runs);
}

/* A device with the cycle model: its charts in estimated cycles, each with
 * the same chart in instructions as "alt" (the page's switch), and the
 * workflow chart in instructions (no estimate for workflows). */
static int est_charts(const mh_results *r, const mh_results *view, size_t i,
                      size_t ti, json_t *charts) {
  const mh_result *x = &r->runs[i];
  json_t *est = json_array(), *ins = json_array();
  int rc = est && ins ? 0 : -1;
  if (rc == 0)
    rc = target_charts(view, &view->runs[i], ti, "est. cycles", 0, est);
  if (rc == 0)
    rc = target_charts(r, x, ti, x->run.unit ? x->run.unit : "?", 1, ins);
  size_t k;
  json_t *c;
  json_array_foreach(est, k, c) {
    const char *kind = json_string_value(json_object_get(c, "kind"));
    size_t j;
    json_t *d;
    json_array_foreach(ins, j, d) {
      if (strcmp(json_string_value(json_object_get(d, "kind")), kind) != 0)
        continue;
      json_t *alt =
          json_pack("{s:s, s:O}", "label", x->run.unit ? x->run.unit : "?",
                    "spec", json_object_get(d, "spec"));
      if (alt && json_object_get(d, "log"))
        json_object_set(alt, "log", json_object_get(d, "log"));
      json_object_set_new(c, "label", json_string("estimated cycles"));
      if (!alt || json_object_set_new(c, "alt", alt) != 0)
        rc = -1;
      json_array_remove(ins, j);
      break;
    }
    if (json_array_append(charts, c) != 0)
      rc = -1;
  }
  json_array_foreach(ins, k, c) /* the workflows: no estimate */
      if (json_array_append(charts, c) != 0) rc = -1;
  json_decref(est);
  json_decref(ins);
  return rc;
}

json_t *mh_html_charts(const mh_results *r) {
  json_t *charts = json_array();
  int failed = !charts;
  size_t ti = 0;
  for (size_t i = 0; i < r->n_runs && !failed; i++) {
    const mh_result *x = &r->runs[i];
    if (!mh_html_first_of_target(r, i))
      continue;
    mh_results view;
    int est = mh_report_is_device(x) ? est_view(r, x->target, &view) : 0;
    if (est < 0)
      failed = 1;
    else if (est) {
      failed = est_charts(r, &view, i, ti, charts) != 0;
      view_free(&view);
    } else {
      failed = target_charts(r, x, ti, x->run.unit ? x->run.unit : "?", 1,
                             charts) != 0;
    }
    ti++;
  }
  if (failed) {
    json_decref(charts);
    return NULL;
  }
  return charts;
}
