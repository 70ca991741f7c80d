/* SPDX-License-Identifier: Apache-2.0 */
/* The site's history page: each operation's figure across the runs of its
 * part and build (merlin's revisions, the libraries' and the folders'),
 * in import order, with the samples' range as its noise band and every
 * change past the threshold flagged (the idea of mlkem-native's
 * per-commit dashboard, for every core). One chart per part, build and
 * algorithm; a table of every series. */
#include "site/site_int.h"

#include "model/cycles.h"
#include "report/format.h"
#include "report/html_charts.h"
#include "util/escape.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One point: an operation's figure in one run. */
typedef struct {
  double v, lo, hi;
  int flag;
} point;

/* The figure of o (estimated cycles where the group has a model), and the
 * samples' range. 0 when there is none. */
static int figure(const site_group *g, const mh_op *o, point *p) {
  const mh_cyc_op *cy = o->cyc;
  if (g->model && cy && cy->has_est) {
    *p = (point){cy->est.median, cy->est.min, cy->est.max, 0};
    return 1;
  }
  if (g->model || !o->n_samples)
    return 0;
  *p = (point){o->stats.median, o->stats.min, o->stats.max, 0};
  return 1;
}

static void series_name(mh_sb *b, const mh_op *o) {
  mh_sb_puts(b, o->op);
  if (o->bytes >= 0)
    mh_sb_printf(b, " %ld B", o->bytes);
  mh_sb_printf(b, " (%s%s%s)", o->backend, o->variant ? " " : "",
               o->variant ? o->variant : "");
}

/* "#ID SOURCE" (7 digits of the revision): a point's place on the x
 * axis. */
static void point_label(mh_sb *b, const site_ctx *c, size_t run) {
  const char *src = mh_run_prov(&c->db->runs[run].x->run, "source");
  mh_sb_printf(b, "#%ld %.7s", c->db->runs[run].id, src ? src : "?");
}

typedef struct {
  json_t *rows;   /* the chart's points */
  mh_sb *table;   /* the table of series */
  double lo, hi;  /* of every figure, for the log switch */
  size_t flagged; /* points past the threshold */
} hist_acc;

/* The points of one series (an operation of group g, named by h), into
 * the chart's rows and one row of the table. */
static void one_series(const site_ctx *c, const site_group *g, const mh_op *h,
                       hist_acc *acc) {
  mh_sb name = {0};
  series_name(&name, h);
  point prev = {0, 0, 0, 0};
  size_t n = 0, flags = 0;
  double first = 0, change = 0;
  for (size_t k = 0; k < g->n_runs; k++) {
    const mh_run *r = &c->db->runs[g->runs[k]].x->run;
    const mh_op *o = NULL;
    for (size_t i = 0; i < r->n_ops && !o; i++)
      if (strcmp(r->ops[i].alg, h->alg) == 0 &&
          strcmp(r->ops[i].op, h->op) == 0 && r->ops[i].bytes == h->bytes &&
          strcmp(r->ops[i].backend, h->backend) == 0 &&
          strcmp(r->ops[i].variant ? r->ops[i].variant : "",
                 h->variant ? h->variant : "") == 0)
        o = &r->ops[i];
    point p;
    if (!o || !figure(g, o, &p))
      continue;
    change = n ? p.v / prev.v - 1 : 0;
    p.flag = n && fabs(change) > c->o->threshold;
    flags += (size_t)p.flag;
    first = n ? first : p.v;
    mh_sb lab = {0}, prov = {0};
    point_label(&lab, c, g->runs[k]);
    mh_site_prov(&prov, c, g->runs[k], o);
    json_t *row =
        json_pack("{s:s, s:s, s:f, s:f, s:f, s:i, s:f, s:s}", "x",
                  lab.failed ? "" : lab.s, "series", name.failed ? "" : name.s,
                  "v", p.v, "lo", p.lo, "hi", p.hi, "flag", p.flag, "change",
                  100.0 * change, "prov", prov.failed ? "" : prov.s);
    if (!row || json_array_append_new(acc->rows, row) != 0)
      acc->table->failed = 1;
    mh_sb_free(&lab);
    mh_sb_free(&prov);
    acc->lo = p.lo > 0 && p.lo < acc->lo ? p.lo : acc->lo;
    acc->hi = p.hi > acc->hi ? p.hi : acc->hi;
    prev = p;
    n++;
  }
  acc->flagged += flags;
  mh_sb *t = acc->table;
  mh_sb_printf(t, "<tr%s><td>", flags ? " class='regressed'" : "");
  mh_esc_html(t, g->title);
  mh_sb_puts(t, "</td><td>");
  mh_esc_html(t, h->alg);
  mh_sb_puts(t, " ");
  mh_esc_html(t, name.failed ? "" : name.s);
  mh_sb_printf(t, "</td><td class='num'>%zu</td>", n);
  mh_html_num_cell(t, first);
  mh_html_num_cell(t, prev.v);
  mh_sb_printf(t,
               "<td class='num'>%+.2f %%</td><td class='num'>%zu</td></tr>\n",
               100.0 * change, flags);
  mh_sb_free(&name);
}

static json_t *enc_x(json_t *order) {
  return json_pack("{s:s, s:s, s:s, s:o, s:{s:i, s:i, s:s}}", "field", "x",
                   "type", "ordinal", "title",
                   "run (import order) and source revision", "sort", order,
                   "axis", "labelAngle", -45, "labelLimit", 160, "labelOverlap",
                   "greedy");
}

/* The chart's layers: the band, the line with its points, the flagged
 * points. */
static json_t *layers(json_t *order, const char *unit) {
  json_t *tt = json_pack(
      "[{s:s, s:s}, {s:s, s:s}, {s:s, s:s, s:s}, {s:s, s:s}, {s:s, s:s}, "
      "{s:s, s:s, s:s}, {s:s, s:s}]",
      "field", "series", "title", "operation", "field", "x", "title", "run",
      "field", "v", "title", unit, "format", ",.0f", "field", "lo", "title",
      "min", "field", "hi", "title", "max", "field", "change", "title",
      "change %", "format", "+.2f", "field", "prov", "title", "provenance");
  json_t *y = json_pack("{s:s, s:s, s:s, s:{s:s, s:b}, s:{s:s}}", "field", "v",
                        "type", "quantitative", "title", unit, "scale", "type",
                        "linear", "zero", 0, "axis", "labelOverlap", "greedy");
  json_t *ylo = json_pack("{s:s, s:s, s:s, s:{s:s, s:b}}", "field", "lo",
                          "type", "quantitative", "title", unit, "scale",
                          "type", "linear", "zero", 0);
  json_t *color =
      json_pack("{s:s, s:s, s:s, s:{s:s}, s:{s:s}}", "field", "series", "type",
                "nominal", "title", "operation", "scale", "scheme", "tableau10",
                "legend", "orient", "bottom");
  /* color, y and tt go to two layers each: a reference is added for the
   * first, the second takes the one held here. */
  return json_pack(
      "[{s:{s:s, s:f}, s:{s:o, s:o, s:{s:s}, s:O}},"
      " {s:{s:s, s:b}, s:{s:o, s:O, s:o, s:O}},"
      " {s:[{s:s}], s:{s:s, s:s, s:i, s:b, s:s}, s:{s:o, s:o, s:o}}]",
      "mark", "type", "area", "opacity", 0.18, "encoding", "x",
      enc_x(json_deep_copy(order)), "y", ylo, "y2", "field", "hi", "color",
      color, "mark", "type", "line", "point", 1, "encoding", "x",
      enc_x(json_deep_copy(order)), "y", y, "color", color, "tooltip", tt,
      "transform", "filter", "datum.flag == 1", "mark", "type", "point",
      "shape", "diamond", "size", 140, "filled", 1, "color", "#b3261e",
      "encoding", "x", enc_x(order), "y", y, "tooltip", tt);
}

/* The x axis's order: every run of g. */
static json_t *x_order(const site_ctx *c, const site_group *g) {
  json_t *a = json_array();
  for (size_t k = 0; a && k < g->n_runs; k++) {
    mh_sb lab = {0};
    point_label(&lab, c, g->runs[k]);
    json_array_append_new(a, json_string(lab.failed ? "" : lab.s));
    mh_sb_free(&lab);
  }
  return a;
}

/* One chart: the operations of algorithm alg in group g (index gi). */
static void alg_chart(const site_ctx *c, size_t gi, const char *alg,
                      json_t *charts, mh_sb *table, size_t *flagged) {
  const site_group *g = &c->g[gi];
  hist_acc acc = {json_array(), table, INFINITY, 0, 0};
  const mh_op **seen = NULL;
  size_t n_seen = 0;
  for (size_t k = 0; k < g->n_runs; k++) {
    const mh_run *r = &c->db->runs[g->runs[k]].x->run;
    for (size_t i = 0; i < r->n_ops; i++) {
      const mh_op *o = &r->ops[i];
      size_t s = 0;
      while (s < n_seen &&
             !(strcmp(seen[s]->op, o->op) == 0 && seen[s]->bytes == o->bytes &&
               strcmp(seen[s]->backend, o->backend) == 0 &&
               strcmp(seen[s]->variant ? seen[s]->variant : "",
                      o->variant ? o->variant : "") == 0))
        s++;
      if (strcmp(o->alg, alg) != 0 || s < n_seen || !o->n_samples)
        continue;
      const mh_op **v = realloc(seen, (n_seen + 1) * sizeof *v);
      if (!v)
        break;
      seen = v;
      seen[n_seen++] = o;
      one_series(c, g, o, &acc);
    }
  }
  free(seen);
  *flagged += acc.flagged;
  char id[64], title[512], note[256];
  snprintf(id, sizeof id, "history-%zu-%s", gi, alg);
  snprintf(title, sizeof title, "%s on %s", alg, g->title);
  snprintf(note, sizeof note,
           "The median in %s per operation, as a band the samples' min to "
           "max; a diamond: a change of more than %.1f %% from the run before.",
           g->model ? "estimated cycles" : g->unit, 100.0 * c->o->threshold);
  json_t *order = x_order(c, g);
  json_t *spec = json_pack(
      "{s:{s:s}, s:{s:o}, s:i, s:o, s:{s:{s:n}, s:{s:i, s:i}, s:{s:i, s:i, "
      "s:i, s:i}}}",
      "data", "name", "rows", "datasets", "rows", acc.rows, "width", 720,
      "layer", layers(order, g->model ? "est. cycles" : g->unit), "config",
      "view", "stroke", "axis", "labelFontSize", 11, "titleFontSize", 12,
      "legend", "labelFontSize", 11, "titleFontSize", 12, "labelLimit", 360,
      "titleLimit", 360);
  json_t *chart = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o}", "id", id,
                            "kind", "history", "target", g->place, "title",
                            title, "note", note, "main", "rows", "spec", spec);
  if (chart && acc.lo > 0 && isfinite(acc.lo) && acc.hi > 0)
    json_object_set_new(
        chart, "log",
        json_pack("{s:s, s:b}", "axis", "y", "on", acc.hi / acc.lo > 100.0));
  if (!chart || json_array_append_new(charts, chart) != 0)
    table->failed = 1;
}

/* The algorithms of group g, first seen first. */
static size_t algs_of(const site_ctx *c, const site_group *g,
                      const char ***out) {
  const char **v = NULL;
  size_t n = 0;
  for (size_t k = 0; k < g->n_runs; k++) {
    const mh_run *r = &c->db->runs[g->runs[k]].x->run;
    for (size_t i = 0; i < r->n_ops; i++) {
      size_t s = 0;
      while (s < n && strcmp(v[s], r->ops[i].alg) != 0)
        s++;
      const char **w = s < n ? v : realloc(v, (n + 1) * sizeof *w);
      if (!w)
        break;
      v = w;
      if (s == n)
        v[n++] = r->ops[i].alg;
    }
  }
  *out = v;
  return n;
}

int mh_site_history(const site_ctx *c, char *err, size_t errlen) {
  mh_sb b = {0}, table = {0};
  json_t *charts = json_array();
  size_t flagged = 0;
  mh_site_page_open(&b, c, "History across revisions");
  for (size_t gi = 0; gi < c->n_g; gi++) {
    const char **algs;
    size_t n = algs_of(c, &c->g[gi], &algs);
    mh_sb_puts(&b, "<section><h2>");
    mh_esc_html(&b, c->g[gi].title);
    mh_sb_puts(&b, "</h2><p class='note'>");
    mh_esc_html(&b, c->g[gi].label);
    mh_sb_puts(&b, "</p>\n");
    size_t first = json_array_size(charts);
    for (size_t a = 0; a < n; a++)
      alg_chart(c, gi, algs[a], charts, &table, &flagged);
    json_t *mine = json_array();
    for (size_t i = first; mine && i < json_array_size(charts); i++)
      json_array_append(mine, json_array_get(charts, i));
    if (mine)
      mh_html_chart_boxes(&b, mine, NULL);
    b.failed |= !mine;
    json_decref(mine);
    mh_sb_puts(&b, "</section>\n");
    free(algs);
  }
  mh_sb_printf(&b,
               "<section><h2>Every series</h2><p class='note'>%zu change%s "
               "past %.1f %% (rows marked).</p>\n<div class='scroll'><table "
               "class='sortable site'><thead><tr><th>part</th><th>operation"
               "</th><th>runs</th><th>first</th><th>last</th><th>last "
               "change</th><th>flagged</th></tr></thead><tbody>\n",
               flagged, flagged == 1 ? "" : "s", 100.0 * c->o->threshold);
  mh_sb_add(&b, table.s ? table.s : "", table.len);
  mh_sb_puts(&b, "</tbody></table></div></section>\n");
  b.failed |= table.failed;
  mh_site_page_close(&b, c, charts);
  int rc = mh_site_write_file(c, "history.html", &b, err, errlen);
  mh_sb_free(&b);
  mh_sb_free(&table);
  return rc;
}
