/* SPDX-License-Identifier: Apache-2.0 */
/* The comparison page (see report_compare.h). */
#include "report/report_compare.h"

#include "report/format.h"
#include "util/strbuf.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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

static const char *row_class(const char *verdict) {
  return strcmp(verdict, "REGRESSED") == 0  ? "regressed"
         : strcmp(verdict, "improved") == 0 ? "improved"
                                            : "";
}

static void table(mh_sb *b, const mh_cmp_page *p) {
  mh_sb_puts(b, "<table class='sortable filterable' data-table='compare'>"
                "<thead><tr><th>target</th><th>operation</th><th>unit</th>"
                "<th>old median</th><th>new median</th><th>change</th><th>"
                "old p99</th><th>new p99</th><th>p99 change</th><th>verdict"
                "</th></tr></thead><tbody>");
  size_t i;
  const json_t *row;
  json_array_foreach(p->rows, i, row) {
    const char *verdict = json_string_value(json_object_get(row, "verdict"));
    verdict = verdict ? verdict : "";
    mh_sb_printf(b, "<tr class='%s' data-verdict='", row_class(verdict));
    mh_esc_html(b, verdict);
    mh_sb_putc(b, '\'');
    mh_html_data_f(b, json_incref(json_object_get(row, "_f")));
    mh_sb_puts(b, ">");
    static const char *const text[] = {"target", "label", "unit"};
    for (size_t k = 0; k < 3; k++) {
      mh_sb_puts(b, "<td>");
      mh_esc_html(b, json_string_value(json_object_get(row, text[k])));
      mh_sb_puts(b, "</td>");
    }
    num_or_dash(b, json_object_get(row, "old_median"));
    num_or_dash(b, json_object_get(row, "new_median"));
    change_cell(b, row, "change");
    num_or_dash(b, json_object_get(row, "old_p99"));
    num_or_dash(b, json_object_get(row, "new_p99"));
    change_cell(b, row, "p99_change");
    mh_sb_puts(b, "<td>");
    mh_esc_html(b, verdict);
    mh_sb_puts(b, "</td></tr>");
  }
  mh_sb_puts(b, "</tbody></table>");
}

/* The change of every compared operation as bars around 0, with the
 * threshold either side. */
static json_t *chart(const mh_cmp_page *p) {
  json_t *rows = json_array();
  size_t i;
  const json_t *row;
  json_array_foreach(p->rows, i, row) {
    const json_t *c = json_object_get(row, "change");
    if (!json_is_number(c))
      continue;
    char pct[32];
    snprintf(pct, sizeof pct, "%+.2f %%", json_number_value(c) * 100.0);
    json_array_append_new(
        rows, json_pack("{s:O, s:O, s:f, s:s, s:O, s:O, s:O, s:O}", "target",
                        json_object_get(row, "target"), "label",
                        json_object_get(row, "label"), "change",
                        json_number_value(c) * 100.0, "change_t", pct,
                        "verdict", json_object_get(row, "verdict"), "old_t",
                        json_object_get(row, "old_t"), "new_t",
                        json_object_get(row, "new_t"), "_f",
                        json_object_get(row, "_f")));
  }
  double t = p->threshold * 100.0;
  json_t *tips = json_pack(
      "[{s:s, s:s}, {s:s, s:s}, {s:s, s:s}, {s:s, s:s}, {s:s, s:s}]", "field",
      "label", "title", "operation", "field", "change_t", "title", "change",
      "field", "old_t", "title", "old median", "field", "new_t", "title",
      "new median", "field", "verdict", "title", "verdict");
  json_t *colour = json_pack(
      "{s:s, s:s, s:s, s:{s:[s, s, s, s, s], s:[s, s, s, s, s]}, s:{s:s}}",
      "field", "verdict", "type", "nominal", "title", "verdict", "scale",
      "domain", "REGRESSED", "improved", "changed", "within spread", "same",
      "range", "#b3261e", "#1e7b34", "#8d96a3", "#c5cbd3", "#e4e7eb", "legend",
      "orient", "top");
  json_t *bars = json_pack(
      "{s:s, s:{s:{s:s, s:s, s:n, s:s, s:{s:i}}, s:{s:s, s:s, s:s}, s:o, "
      "s:o}}",
      "mark", "bar", "encoding", "y", "field", "label", "type", "nominal",
      "sort", "title", "operation", "axis", "labelLimit", 420, "x", "field",
      "change", "type", "quantitative", "title", "change of the median (%)",
      "color", colour, "tooltip", tips);
  json_t *rules = json_pack(
      "{s:{s:[{s:f}, {s:f}]}, s:{s:s, s:s, s:[i, i]}, s:{s:{s:s, s:s}}}",
      "data", "values", "x", t, "x", -t, "mark", "type", "rule", "color",
      "#b3261e", "strokeDash", 4, 3, "encoding", "x", "field", "x", "type",
      "quantitative");
  json_t *spec = json_pack(
      "{s:{s:s}, s:{s:o}, s:i, s:{s:i}, s:{s:{s:n}}, s:[o, o]}", "data", "name",
      "rows", "datasets", "rows", rows, "width", 640, "height", "step", 14,
      "config", "view", "stroke", "layer", bars, rules);
  return json_pack("[{s:s, s:s, s:s, s:s, s:s, s:s, s:o}]", "id", "change-0",
                   "kind", "change", "target", "", "title",
                   "Change of the median per operation", "note",
                   "Dashed: the threshold either side of 0. A change counts "
                   "only outside both runs' spread (the sum of their IQRs).",
                   "main", "rows", "spec", spec);
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
               "runs' spread (the sum of their IQRs).</p>\n",
               p->threshold * 100.0);
  mh_sb_puts(&b, "<section id='provenance'><h2>Provenance</h2>");
  if (p->prov && *p->prov) {
    mh_sb_printf(&b, "<p>The runs differ in provenance%s:</p><ul class='prov'>",
                 p->forced ? " (compared anyway: --force)" : "");
    for (const char *s = p->prov; *s;) {
      size_t n = strcspn(s, "\n");
      mh_sb_puts(&b, "<li>");
      char line[1024];
      snprintf(line, sizeof line, "%.*s", (int)n, s);
      mh_esc_html(&b, line + strspn(line, " "));
      mh_sb_puts(&b, "</li>");
      s += n + (s[n] == '\n');
    }
    mh_sb_puts(&b, "</ul>");
  } else {
    mh_sb_puts(&b, "<p>Built the same way: compiler, flags, libraries, routes "
                   "and unit agree.</p>");
  }
  mh_sb_printf(&b,
               "</section>\n<section id='summary'><h2>Summary</h2><p "
               "class='summary'><span class='dearer'>%d regressed</span>, "
               "<span class='cheaper'>%d improved</span> beyond %.1f %% "
               "of %d operation(s) compared.</p></section>\n",
               p->regressions, p->improvements, p->threshold * 100.0,
               p->compared);
  mh_sb_puts(&b, "<nav id='filters' aria-label='filters'></nav>\n");
  mh_html_chart_boxes(&b, charts, NULL);
  mh_sb_puts(&b, "<section id='operations'><h2>Every operation</h2>");
  table(&b, p);
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
