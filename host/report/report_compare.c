/* SPDX-License-Identifier: Apache-2.0 */
/* The comparison in its three forms (see report_compare.h). */
#include "report/report_compare.h"

#include "report/format.h"
#include "report/html_charts.h"
#include "util/escape.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const mh_cmp_verdict_names[MH_CMP_N_VERDICTS] = {
    [MH_CMP_REGRESSED] = "REGRESSED",
    [MH_CMP_IMPROVED] = "improved",
    [MH_CMP_CHANGED] = "changed",
    [MH_CMP_NEW] = "new operation",
    [MH_CMP_REMOVED] = "removed",
    [MH_CMP_WITHIN_NOISE] = "within noise",
    [MH_CMP_WITHIN_SPREAD] = "within spread",
    [MH_CMP_SAME] = "same",
    [MH_CMP_OLD_ONLY] = "only in OLD",
    [MH_CMP_NEW_ONLY] = "only in NEW",
};

/* A row of one side only: nothing to compare it with. */
static int one_side(mh_cmp_verdict v) {
  return v == MH_CMP_NEW || v == MH_CMP_REMOVED || v >= MH_CMP_ONE_SIDE;
}

int mh_cmp_compared(const mh_cmp_page *p) {
  int n = 0;
  for (int v = 0; v < MH_CMP_N_VERDICTS; v++)
    n += one_side((mh_cmp_verdict)v) ? 0 : p->count[v];
  return n;
}

static const char *str(const json_t *row, const char *key) {
  const char *s = json_string_value(json_object_get(row, key));
  return s ? s : "";
}

static mh_cmp_verdict verdict_of(const json_t *row) {
  const char *s = str(row, "verdict");
  for (int v = 0; v < MH_CMP_N_VERDICTS; v++)
    if (strcmp(s, mh_cmp_verdict_names[v]) == 0)
      return (mh_cmp_verdict)v;
  return MH_CMP_SAME;
}

/* |change| for the order within a verdict: a change from 0 first. */
static double magnitude(const json_t *row) {
  const json_t *c = json_object_get(row, "change");
  return json_is_number(c) ? fabs(json_number_value(c))
         : json_is_null(c) ? INFINITY
                           : 0;
}

typedef struct {
  size_t i;
  mh_cmp_verdict v;
  double m;
} slot;

static int by_verdict(const void *a, const void *b) {
  const slot *x = a, *y = b;
  if (x->v != y->v)
    return x->v < y->v ? -1 : 1;
  if (x->m != y->m)
    return x->m > y->m ? -1 : 1;
  return x->i < y->i ? -1 : x->i > y->i;
}

/* The rows of group g in report order: verdict, then the largest change
 * first. *n of them; NULL when none (or out of memory: b->failed). */
static slot *group_rows(const mh_cmp_page *p, size_t g, size_t *n, mh_sb *b) {
  size_t cap = json_array_size(p->rows);
  slot *s = cap ? malloc(cap * sizeof *s) : NULL;
  *n = 0;
  if (cap && !s) {
    b->failed = 1;
    return NULL;
  }
  size_t i;
  const json_t *row;
  json_array_foreach(p->rows, i, row) {
    if ((size_t)json_integer_value(json_object_get(row, "group")) != g)
      continue;
    s[(*n)++] = (slot){i, verdict_of(row), magnitude(row)};
  }
  if (*n)
    qsort(s, *n, sizeof *s, by_verdict);
  return s;
}

/* "+4.12%" ("+4.12 %" in Markdown), or "from 0". */
static void change_text(mh_sb *b, const json_t *row, const char *key, int md) {
  const json_t *c = json_object_get(row, key);
  if (json_is_number(c))
    mh_sb_printf(b, md ? "%+.2f %%" : "%+.2f%%", json_number_value(c) * 100.0);
  else if (json_is_null(c))
    mh_sb_puts(b, "from 0");
}

/* The verdict line: the first line of the terminal text and of --md. */
static void verdict_line(mh_sb *b, const mh_cmp_page *p, int md) {
  int n = mh_cmp_compared(p), r = p->count[MH_CMP_REGRESSED];
  double t = p->threshold * 100.0;
  if (r)
    mh_sb_printf(b,
                 "%s: REGRESSED: %d of %d operation(s) slower by more "
                 "than %.1f%s%%",
                 md ? "## Merlin compare" : "merlin compare", r, n, t,
                 md ? " " : "");
  else
    mh_sb_printf(b, "%s: no regression: %d operation(s) compared",
                 md ? "## Merlin compare" : "merlin compare", n);
  if (md)
    mh_sb_puts(b, "\n\n");
  static const mh_cmp_verdict rest[] = {
      MH_CMP_IMPROVED,      MH_CMP_CHANGED,  MH_CMP_WITHIN_NOISE,
      MH_CMP_WITHIN_SPREAD, MH_CMP_SAME,     MH_CMP_NEW,
      MH_CMP_REMOVED,       MH_CMP_OLD_ONLY, MH_CMP_NEW_ONLY};
  static const char *const what[] = {"improved beyond the threshold",
                                     "changed under the threshold",
                                     "within noise",
                                     "within spread",
                                     "the same",
                                     "new",
                                     "removed",
                                     "only in OLD",
                                     "only in NEW"};
  if (p->count[MH_CMP_SAME] == n && !p->count[MH_CMP_NEW] &&
      !p->count[MH_CMP_REMOVED] && !p->count[MH_CMP_OLD_ONLY] &&
      !p->count[MH_CMP_NEW_ONLY]) {
    mh_sb_puts(b, md ? "No change." : ": no change");
  } else {
    const char *sep = md ? "" : ": ";
    for (size_t k = 0; k < sizeof rest / sizeof rest[0]; k++)
      if (p->count[rest[k]]) {
        mh_sb_printf(b, "%s%d %s", sep, p->count[rest[k]], what[k]);
        sep = ", ";
      }
    mh_sb_puts(b, md ? "." : "");
  }
  mh_sb_putc(b, '\n');
}

/* What the verdicts mean, once. */
static void rules(mh_sb *b, const mh_cmp_page *p, int md) {
  mh_esc_fn esc = md ? mh_esc_md : mh_esc_term;
  mh_sb_puts(b, md ? "" : "\n");
  esc(b, p->old_name);
  mh_sb_puts(b, " -> ");
  esc(b, p->new_name);
  mh_sb_printf(b,
               ", threshold %.1f%s%%.%sA change counts outside both runs' "
               "spread (the sum of their IQRs) and beyond the machine's "
               "noise%s(p95/p5 of the control timed after every operation, "
               "the larger of the two runs').\n",
               p->threshold * 100.0, md ? " " : "", md ? " " : "\n",
               md ? " " : "\n");
}

/* "qemu-m4 (profile default, gcc -O2), in instructions; noise 12.0% (old),
 * 60.5% (new)". */
static void group_title(mh_sb *b, const json_t *g, mh_esc_fn esc) {
  esc(b, str(g, "name"));
  mh_sb_puts(b, ", in ");
  esc(b, str(g, "unit"));
  const json_t *o = json_object_get(g, "noise_old");
  const json_t *n = json_object_get(g, "noise_new");
  if (json_is_number(o) || json_is_number(n)) {
    mh_sb_puts(b, "; noise ");
    if (json_is_number(o))
      mh_sb_printf(b, "%.1f%% (old)", json_number_value(o) * 100.0);
    if (json_is_number(n))
      mh_sb_printf(b, "%s%.1f%% (new)", json_is_number(o) ? ", " : "",
                   json_number_value(n) * 100.0);
  }
}

/* The width of the terminal's operation column: the longest label of a
 * row shown, within [20, 46]. */
static int label_width(const mh_cmp_page *p) {
  size_t w = 20, i;
  const json_t *row;
  json_array_foreach(p->rows, i, row) {
    if (verdict_of(row) >= MH_CMP_FOLDED)
      continue;
    mh_sb l = {0};
    mh_esc_term(&l, str(row, "label"));
    w = l.len > w ? l.len : w;
    mh_sb_free(&l);
  }
  return (int)(w > 46 ? 46 : w);
}

static void text_row(mh_sb *b, const json_t *row, int width) {
  mh_sb l = {0}, c = {0};
  mh_esc_term(&l, str(row, "label"));
  mh_cmp_verdict v = verdict_of(row);
  if (one_side(v)) {
    mh_sb_printf(b, "  %-*s %s\n", width, l.s ? l.s : "",
                 mh_cmp_verdict_names[v]);
  } else {
    change_text(&c, row, "change", 0);
    mh_sb_printf(b, "  %-*s %13s -> %13s %9s  %s\n", width, l.s ? l.s : "",
                 str(row, "old_t"), str(row, "new_t"), c.s ? c.s : "",
                 mh_cmp_verdict_names[v]);
  }
  b->failed |= l.failed | c.failed;
  mh_sb_free(&l);
  mh_sb_free(&c);
}

static void md_row(mh_sb *b, const json_t *row) {
  mh_cmp_verdict v = verdict_of(row);
  mh_sb_puts(b, "| ");
  mh_esc_md(b, str(row, "label"));
  if (one_side(v)) {
    mh_sb_printf(b, " | – | – | – | %s |\n", mh_cmp_verdict_names[v]);
    return;
  }
  mh_sb_printf(b, " | %s | %s | ", str(row, "old_t"), str(row, "new_t"));
  change_text(b, row, "change", 1);
  mh_sb_printf(b, " | %s |\n", mh_cmp_verdict_names[v]);
}

static const char MD_HEAD[] = "| operation | old median | new median | "
                              "change | verdict |\n|---|---:|---:|---:|---|\n";

/* "76 unchanged: 70 the same, 4 within spread, 2 within noise" of the
 * rows s[from..n). */
static void folded_count(mh_sb *b, const slot *s, size_t n, size_t from) {
  int k[MH_CMP_N_VERDICTS] = {0};
  for (size_t i = from; i < n; i++)
    k[s[i].v]++;
  mh_sb_printf(b, "%zu unchanged", n - from);
  const char *sep = ": ";
  for (int v = MH_CMP_ONE_SIDE - 1; v >= MH_CMP_FOLDED; v--)
    if (k[v]) {
      mh_sb_printf(b, "%s%d %s", sep, k[v],
                   v == MH_CMP_SAME ? "the same" : mh_cmp_verdict_names[v]);
      sep = ", ";
    }
}

static int by_index(const void *a, const void *b) {
  const slot *x = a, *y = b;
  return x->i < y->i ? -1 : x->i > y->i;
}

/* Whether row j groups with row i: the same algorithm (and backend, when
 * names). */
static int same_item(const json_t *ri, const json_t *rj, int names) {
  return strcmp(str(rj, "alg"), str(ri, "alg")) == 0 &&
         (!names || strcmp(str(rj, "backend"), str(ri, "backend")) == 0);
}

/* One item of op_list for row ri: "ml-kem-512 keygen, encaps (wolfcrypt)"
 * (names: the operations of that algorithm and backend) or "sha256 (6 on
 * wolfcrypt, mbedtls)" (the count of the algorithm's rows and their
 * backends), of the rows v[0..n). */
static void op_item(mh_sb *b, const mh_cmp_page *p, const slot *v, size_t n,
                    const json_t *ri, int names, mh_esc_fn esc) {
  esc(b, str(ri, "alg"));
  mh_sb_puts(b, names ? " " : " (");
  size_t k = 0;
  for (size_t j = 0; j < n; j++) {
    const json_t *rj = json_array_get(p->rows, v[j].i);
    if (!same_item(ri, rj, names))
      continue;
    if (names) {
      mh_sb_puts(b, k ? ", " : "");
      esc(b, str(rj, "what"));
    }
    k++;
  }
  if (names) {
    mh_sb_puts(b, " (");
    esc(b, str(ri, "backend"));
    mh_sb_putc(b, ')');
    return;
  }
  mh_sb_printf(b, "%zu on ", k);
  size_t m = 0;
  for (size_t j = 0; j < n; j++) { /* each backend once */
    const json_t *rj = json_array_get(p->rows, v[j].i);
    size_t e = 0;
    while (e < j && !(same_item(rj, json_array_get(p->rows, v[e].i), 0) &&
                      strcmp(str(json_array_get(p->rows, v[e].i), "backend"),
                             str(rj, "backend")) == 0))
      e++;
    if (e == j && same_item(ri, rj, 0)) {
      mh_sb_puts(b, m++ ? ", " : "");
      esc(b, str(rj, "backend"));
    }
  }
  mh_sb_putc(b, ')');
}

/* lead, then the rows s[from..n) that keep(verdict) selects in run order,
 * an item per algorithm (op_item), separated by "; ", lines within 100
 * columns. */
static void op_list(mh_sb *b, const mh_cmp_page *p, const slot *s, size_t from,
                    size_t n, int (*keep)(mh_cmp_verdict), int names, int md,
                    const char *lead) {
  slot *v = n > from ? malloc((n - from) * sizeof *v) : NULL;
  size_t nv = 0;
  if (n > from && !v) {
    b->failed = 1;
    return;
  }
  for (size_t i = from; i < n; i++)
    if (keep(s[i].v))
      v[nv++] = s[i];
  if (nv)
    qsort(v, nv, sizeof *v, by_index);
  mh_sb line = {0};
  mh_sb_puts(&line, lead);
  for (size_t i = 0; i < nv; i++) {
    const json_t *ri = json_array_get(p->rows, v[i].i);
    size_t e = 0;
    while (e < i && !same_item(ri, json_array_get(p->rows, v[e].i), names))
      e++;
    if (e < i)
      continue; /* its algorithm's item is written */
    mh_sb item = {0};
    op_item(&item, p, v, nv, ri, names, md ? mh_esc_md : mh_esc_term);
    mh_sb_puts(&line, i ? ";" : "");
    if (!md && line.len + 1 + item.len > 100) {
      mh_sb_add(b, line.s, line.len);
      mh_sb_puts(b, "\n   ");
      line.len = 0;
    }
    mh_sb_putc(&line, ' ');
    mh_sb_add(&line, item.s ? item.s : "", item.len);
    line.failed |= item.failed;
    mh_sb_free(&item);
  }
  mh_sb_add(b, line.s ? line.s : "", line.len);
  mh_sb_puts(b, md ? ".\n" : "\n");
  b->failed |= line.failed;
  mh_sb_free(&line);
  free(v);
}

static int is_old_only(mh_cmp_verdict v) { return v == MH_CMP_OLD_ONLY; }
static int is_new_only(mh_cmp_verdict v) { return v == MH_CMP_NEW_ONLY; }
static int is_compared(mh_cmp_verdict v) { return !one_side(v); }

/* "  only in OLD, not compared: 75 operations:" and the list, for the
 * rows s[from..n) of verdict v (is_v), if any. */
static void one_side_list(mh_sb *b, const mh_cmp_page *p, const slot *s,
                          size_t from, size_t n, mh_cmp_verdict v,
                          int (*is_v)(mh_cmp_verdict), int md) {
  size_t count = 0;
  for (size_t i = from; i < n; i++)
    count += s[i].v == v;
  if (!count)
    return;
  char lead[96];
  snprintf(lead, sizeof lead,
           "%s%s, not compared: %zu operation%s:", md ? "\n" : "  ",
           mh_cmp_verdict_names[v], count, count == 1 ? "" : "s");
  op_list(b, p, s, from, n, is_v, 0, md, lead);
}

static void text_group(mh_sb *b, const mh_cmp_page *p, size_t g, int md,
                       int width) {
  const json_t *grp = json_array_get(p->groups, g);
  size_t n, shown = 0, folded;
  slot *s = group_rows(p, g, &n, b);
  while (shown < n && s[shown].v < MH_CMP_FOLDED)
    shown++;
  for (folded = shown; folded < n && s[folded].v < MH_CMP_ONE_SIDE;)
    folded++;
  mh_sb_puts(b, md ? "\n### " : "\n");
  group_title(b, grp, md ? mh_esc_md : mh_esc_term);
  mh_sb_puts(b, md ? "\n\n" : "\n");
  if (md && shown)
    mh_sb_puts(b, MD_HEAD);
  for (size_t i = 0; i < shown; i++) {
    const json_t *row = json_array_get(p->rows, s[i].i);
    if (md)
      md_row(b, row);
    else
      text_row(b, row, width);
  }
  if (folded > shown) {
    mh_sb_puts(b, md ? (shown ? "\n<details><summary>" : "<details><summary>")
                     : "  ");
    folded_count(b, s, folded, shown);
    mh_sb_puts(b, md ? "</summary>\n\n" : "\n");
    if (md) {
      mh_sb_puts(b, MD_HEAD);
      for (size_t i = shown; i < folded; i++)
        md_row(b, json_array_get(p->rows, s[i].i));
      mh_sb_puts(b, "\n</details>\n");
    }
  }
  if (json_is_true(json_object_get(grp, "cross")) && folded) {
    char lead[64];
    snprintf(lead, sizeof lead,
             "%scompared, in both: %zu operation%s:", md ? "\n" : "  ", folded,
             folded == 1 ? "" : "s");
    op_list(b, p, s, 0, folded, is_compared, 1, md, lead);
  }
  one_side_list(b, p, s, folded, n, MH_CMP_OLD_ONLY, is_old_only, md);
  one_side_list(b, p, s, folded, n, MH_CMP_NEW_ONLY, is_new_only, md);
  free(s);
}

void mh_report_compare_text(mh_sb *b, const mh_cmp_page *p, int md) {
  verdict_line(b, p, md);
  if (md)
    mh_sb_putc(b, '\n');
  rules(b, p, md);
  if (!md && p->notes && *p->notes)
    mh_sb_puts(b, p->notes);
  int width = label_width(p);
  for (size_t g = 0; g < json_array_size(p->groups); g++)
    text_group(b, p, g, md, width);
}

/* ---- the page ----------------------------------------------------------- */

static void num_or_dash(mh_sb *b, const json_t *v) {
  if (json_is_number(v))
    mh_html_num_cell(b, json_number_value(v));
  else
    mh_sb_puts(b, "<td class='num'>&#8211;</td>");
}

static void change_cell(mh_sb *b, const json_t *row, const char *key) {
  const json_t *v = json_object_get(row, key);
  if (json_is_number(v)) {
    double c = json_number_value(v);
    mh_sb_printf(b, "<td class='num' data-v='%.17g'>%+.2f %%</td>", c,
                 c * 100.0);
  } else if (json_is_null(v)) {
    mh_sb_puts(b, "<td class='num'>from 0</td>");
  } else {
    mh_sb_puts(b, "<td></td>");
  }
}

static const char *row_class(mh_cmp_verdict v) {
  return v == MH_CMP_REGRESSED  ? "regressed"
         : v == MH_CMP_IMPROVED ? "improved"
                                : "";
}

static void html_row(mh_sb *b, const json_t *row) {
  mh_cmp_verdict v = verdict_of(row);
  mh_sb_printf(b, "<tr class='%s' data-verdict='%s'", row_class(v),
               mh_cmp_verdict_names[v]);
  mh_html_data_f(b, json_incref(json_object_get(row, "_f")));
  mh_sb_puts(b, "><td>");
  mh_esc_html(b, str(row, "label"));
  mh_sb_puts(b, "</td>");
  num_or_dash(b, json_object_get(row, "old_median"));
  num_or_dash(b, json_object_get(row, "new_median"));
  change_cell(b, row, "change");
  num_or_dash(b, json_object_get(row, "old_p99"));
  num_or_dash(b, json_object_get(row, "new_p99"));
  change_cell(b, row, "p99_change");
  mh_sb_printf(b, "<td>%s</td></tr>", mh_cmp_verdict_names[v]);
}

/* One table per group, its rows in report order (every row: the page
 * folds nothing, it sorts). */
static void tables(mh_sb *b, const mh_cmp_page *p) {
  for (size_t g = 0; g < json_array_size(p->groups); g++) {
    const json_t *grp = json_array_get(p->groups, g);
    size_t n;
    slot *s = group_rows(p, g, &n, b);
    mh_sb_printf(b, "<h3 data-group='%zu'>", g);
    group_title(b, grp, mh_esc_html);
    mh_sb_puts(b, "</h3><table class='sortable filterable' data-table='"
                  "compare'><thead><tr><th>operation</th><th>old median"
                  "</th><th>new median</th><th>change</th><th>old p99</th>"
                  "<th>new p99</th><th>p99 change</th><th>verdict</th></tr>"
                  "</thead><tbody>");
    for (size_t i = 0; i < n; i++)
      html_row(b, json_array_get(p->rows, s[i].i));
    mh_sb_puts(b, "</tbody></table>");
    free(s);
  }
}

/* The chart's rows: every compared operation whose median moved (every
 * one when none did) with its change, named by its group (the facet). */
static json_t *chart_rows(const mh_cmp_page *p) {
  json_t *rows = json_array();
  int moved = mh_cmp_compared(p) > p->count[MH_CMP_SAME];
  size_t i;
  const json_t *row;
  json_array_foreach(p->rows, i, row) {
    const json_t *c = json_object_get(row, "change");
    if (!json_is_number(c) || (moved && verdict_of(row) == MH_CMP_SAME))
      continue;
    const json_t *g = json_array_get(
        p->groups, (size_t)json_integer_value(json_object_get(row, "group")));
    mh_sb name = {0};
    mh_sb_printf(&name, "%s, in %s", str(g, "name"), str(g, "unit"));
    char pct[32];
    snprintf(pct, sizeof pct, "%+.2f %%", json_number_value(c) * 100.0);
    json_array_append_new(
        rows,
        json_pack("{s:s, s:O, s:f, s:s, s:O, s:O, s:O, s:O}", "group",
                  name.s ? name.s : "", "label", json_object_get(row, "label"),
                  "change", json_number_value(c) * 100.0, "change_t", pct,
                  "verdict", json_object_get(row, "verdict"), "old_t",
                  json_object_get(row, "old_t"), "new_t",
                  json_object_get(row, "new_t"), "_f",
                  json_object_get(row, "_f")));
    mh_sb_free(&name);
  }
  return rows;
}

/* The change of every compared operation as bars around 0, with the
 * threshold either side; one facet per group (host rows apart from QEMU
 * rows: their units and their noise differ). */
static json_t *chart(const mh_cmp_page *p) {
  double t = p->threshold * 100.0;
  json_t *tips = json_pack(
      "[{s:s, s:s}, {s:s, s:s}, {s:s, s:s}, {s:s, s:s}, {s:s, s:s}]", "field",
      "label", "title", "operation", "field", "change_t", "title", "change",
      "field", "old_t", "title", "old median", "field", "new_t", "title",
      "new median", "field", "verdict", "title", "verdict");
  json_t *colour = json_pack(
      "{s:s, s:s, s:s, s:{s:[s, s, s, s, s, s], s:[s, s, s, s, s, s]}, "
      "s:{s:s}}",
      "field", "verdict", "type", "nominal", "title", "verdict", "scale",
      "domain", "REGRESSED", "improved", "changed", "within noise",
      "within spread", "same", "range", "#b3261e", "#1e7b34", "#8d96a3",
      "#aab2bd", "#c5cbd3", "#e4e7eb", "legend", "orient", "top");
  json_t *y = mh_html_name_axis("label", NULL);
  json_object_set_new(y, "title", json_null());
  json_t *bars = json_pack(
      "{s:s, s:{s:O, s:{s:s, s:s, s:s}, s:o, s:o}}", "mark", "bar", "encoding",
      "y", y, "x", "field", "change", "type", "quantitative", "title",
      "change of the median (%)", "color", colour, "tooltip", tips);
  /* the threshold either side: a rule at each, over every row */
  json_t *rules = json_pack(
      "[{s:{s:s, s:s, s:[i, i]}, s:{s:{s:f}}}, {s:{s:s, s:s, s:[i, i]}, "
      "s:{s:{s:f}}}]",
      "mark", "type", "rule", "color", "#b3261e", "strokeDash", 4, 3,
      "encoding", "x", "datum", t, "mark", "type", "rule", "color", "#b3261e",
      "strokeDash", 4, 3, "encoding", "x", "datum", -t);
  json_decref(y);
  json_array_insert_new(rules, 0, bars);
  json_t *spec = json_pack(
      "{s:{s:s}, s:{s:o}, s:{s:{s:s, s:s, s:n, s:{s:n, s:i, s:s, s:s, s:s, "
      "s:i, s:s}}}, s:{s:i, s:{s:i}, s:o}, s:{s:{s:s}}, s:{s:{s:n}}}",
      "data", "name", "rows", "datasets", "rows", chart_rows(p), "facet", "row",
      "field", "group", "type", "nominal", "sort", "header", "title",
      "labelAngle", 0, "labelOrient", "top", "labelAnchor", "start",
      "labelAlign", "left", "labelFontSize", 12, "labelFontWeight", "bold",
      "spec", "width", 640, "height", "step", 14, "layer", rules, "resolve",
      "scale", "y", "independent", "config", "view", "stroke");
  return json_pack("[{s:s, s:s, s:s, s:s, s:s, s:s, s:o}]", "id", "change-0",
                   "kind", "change", "target", "", "title",
                   "Change of the median per operation", "note",
                   "One group per run (target, profile and build: one unit "
                   "and one noise figure each), the operations whose median "
                   "moved. Dashed: the threshold either side of 0. A change "
                   "counts only outside both runs' spread and beyond the "
                   "machine's noise.",
                   "main", "rows", "spec", spec);
}

static void prov_section(mh_sb *b, const mh_cmp_page *p) {
  mh_sb_puts(b, "<section id='provenance'><h2>Provenance</h2>");
  if (!p->prov || !*p->prov) {
    mh_sb_puts(b, "<p>Built the same way: compiler, flags, libraries, routes "
                  "and unit agree.</p></section>\n");
    return;
  }
  mh_sb_printf(b, "<p>The runs differ in provenance%s:</p><ul class='prov'>",
               p->forced ? " (compared anyway: --force)" : "");
  for (const char *s = p->prov; *s;) {
    size_t n = strcspn(s, "\n");
    mh_sb_puts(b, "<li>");
    char line[1024];
    snprintf(line, sizeof line, "%.*s", (int)n, s);
    mh_esc_html(b, line + strspn(line, " "));
    mh_sb_puts(b, "</li>");
    s += n + (s[n] == '\n');
  }
  mh_sb_puts(b, "</ul></section>\n");
}

char *mh_report_compare_html(const mh_cmp_page *p, const mh_html_assets *a) {
  json_t *charts = chart(p);
  json_t *data =
      charts ? json_pack("{s:s, s:O}", "page", "compare", "charts", charts)
             : NULL;
  mh_sb b = {0};
  mh_html_open(&b, "Merlin comparison", a);
  mh_sb_puts(&b, "<h1>Merlin comparison</h1><p class='meta'>");
  mh_esc_html(&b, p->old_name);
  mh_sb_puts(&b, " &#8594; ");
  mh_esc_html(&b, p->new_name);
  mh_sb_printf(&b,
               ". Threshold %.1f %%; a change counts only outside both "
               "runs' spread (the sum of their IQRs) and beyond the "
               "machine's noise (the control's p95/p5).</p>\n",
               p->threshold * 100.0);
  prov_section(&b, p);
  mh_sb_printf(&b,
               "<section id='summary'><h2>Summary</h2><p class='summary'>"
               "<span class='dearer'>%d regressed</span>, <span class='"
               "cheaper'>%d improved</span> beyond %.1f %%, %d within noise "
               "of %d operation(s) compared",
               p->count[MH_CMP_REGRESSED], p->count[MH_CMP_IMPROVED],
               p->threshold * 100.0, p->count[MH_CMP_WITHIN_NOISE],
               mh_cmp_compared(p));
  int only[2] = {p->count[MH_CMP_OLD_ONLY] + p->count[MH_CMP_REMOVED],
                 p->count[MH_CMP_NEW_ONLY] + p->count[MH_CMP_NEW]};
  if (only[0] || only[1])
    mh_sb_printf(&b,
                 "; on one side only, not compared: %d in OLD, %d in NEW "
                 "(in the tables below)",
                 only[0], only[1]);
  mh_sb_puts(&b, ".</p></section>\n");
  mh_sb_puts(&b, "<nav id='filters' aria-label='filters'></nav>\n");
  mh_html_chart_boxes(&b, charts, NULL);
  mh_sb_puts(&b, "<section id='operations'><h2>Every operation</h2>");
  tables(&b, p);
  mh_sb_puts(&b, "</section>\n");
  if (data)
    mh_html_close(&b, data, a);
  json_decref(data);
  json_decref(charts);
  if (!data || b.failed) {
    mh_sb_free(&b);
    return NULL;
  }
  return b.s;
}
