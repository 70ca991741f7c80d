/* SPDX-License-Identifier: Apache-2.0 */
/* The shared frame of merlin's HTML pages (see html_page.h). */
#include "report/html_page.h"

#include "report/format.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void mh_html_open(mh_sb *b, const char *title, const mh_html_assets *a) {
  mh_sb_puts(b, "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
                "<meta name='viewport' content='width=device-width, "
                "initial-scale=1'><title>");
  mh_sb_html(b, title);
  mh_sb_puts(b, "</title>\n<style>\n");
  mh_sb_puts(b, a->style ? a->style : "");
  mh_sb_puts(b, "</style></head>\n<body>\n");
}

void mh_html_chart_boxes(mh_sb *b, const json_t *charts, const char *target) {
  size_t i;
  json_t *c;
  json_array_foreach(charts, i, c) {
    const char *t = json_string_value(json_object_get(c, "target"));
    if (target && (!t || strcmp(t, target) != 0))
      continue;
    mh_sb_puts(b, "<div class='chart' data-chart='");
    mh_sb_html(b, json_string_value(json_object_get(c, "id")));
    mh_sb_puts(b, "' data-kind='");
    mh_sb_html(b, json_string_value(json_object_get(c, "kind")));
    mh_sb_puts(b, "'><div class='tools'></div><h3>");
    mh_sb_html(b, json_string_value(json_object_get(c, "title")));
    mh_sb_puts(b, "</h3><p class='note'>");
    mh_sb_html(b, json_string_value(json_object_get(c, "note")));
    mh_sb_puts(b, "</p><div class='vis'></div></div>\n");
  }
}

/* JSON inside <script>: every '<' as \u003c (it can only stand in a
 * string), so no "</script>" or "<!--" ends or bends the element. */
static void script_json(mh_sb *b, const json_t *data) {
  char *s = json_dumps(data, JSON_COMPACT | JSON_REAL_PRECISION(17));
  if (!s) {
    b->failed = 1;
    return;
  }
  for (const char *p = s; *p;) {
    size_t n = strcspn(p, "<");
    mh_sb_add(b, p, n);
    p += n;
    if (*p == '<') {
      mh_sb_puts(b, "\\u003c");
      p++;
    }
  }
  free(s);
}

void mh_html_data_f(mh_sb *b, json_t *f) {
  char *s = f ? json_dumps(f, JSON_COMPACT) : NULL;
  json_decref(f);
  if (!s) {
    b->failed = 1;
    return;
  }
  mh_sb_puts(b, " data-f='");
  mh_sb_html(b, s);
  mh_sb_putc(b, '\'');
  free(s);
}

void mh_html_num_cell(mh_sb *b, double v) {
  mh_sb_puts(b, "<td class='num' data-v='");
  if (isfinite(v))
    mh_sb_double(b, v);
  mh_sb_puts(b, "'>");
  mh_fmt_num(b, v);
  mh_sb_puts(b, "</td>");
}

void mh_html_ratio_cell(mh_sb *b, double x, double ref) {
  if (ref > 0 && isfinite(x / ref)) {
    mh_sb_puts(b, "<td class='num' data-v='");
    mh_sb_double(b, x / ref);
    mh_sb_printf(b, "'>%.2f</td>", x / ref);
  } else {
    mh_sb_puts(b, "<td class='num'>&#8211;</td>");
  }
}

void mh_html_close(mh_sb *b, const json_t *data, const mh_html_assets *a) {
  mh_sb_puts(b, "<script type='application/json' id='merlin-data'>");
  script_json(b, data);
  mh_sb_puts(b, "</script>\n");
  const char *const js[] = {a->vega, a->vega_lite, a->vega_embed, a->script};
  for (size_t i = 0; i < sizeof js / sizeof *js; i++) {
    mh_sb_puts(b, "<script>\n");
    mh_sb_puts(b, js[i] ? js[i] : "");
    mh_sb_puts(b, "\n</script>\n");
  }
  mh_sb_puts(b, "</body></html>\n");
}
