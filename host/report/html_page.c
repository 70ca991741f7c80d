/* SPDX-License-Identifier: Apache-2.0 */
/* The shared frame of merlin's HTML pages (see html_page.h). */
#include "report/html_page.h"

#include "digest.h"
#include "report/format.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The page's scripts, in order: the charting library, then the page's
 * own. Each is inlined as "<script>\n" TEXT "\n</script>". */
static size_t page_scripts(const mh_html_assets *a, const char *js[4]) {
  js[0] = a->vega;
  js[1] = a->vega_lite;
  js[2] = a->vega_embed;
  js[3] = a->script;
  return 4;
}

/* 'sha256-BASE64' of the inlined text of script js (CSP Level 3 section
 * 8.4, "hash-source"; base64 as RFC 4648 section 4). */
static void script_hash(mh_sb *b, const char *js) {
  static const char b64[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  mcore_sha256_ctx c;
  uint8_t d[33] = {0};
  mcore_sha256_init(&c);
  mcore_sha256_update(&c, (const uint8_t *)"\n", 1);
  mcore_sha256_update(&c, (const uint8_t *)(js ? js : ""), js ? strlen(js) : 0);
  mcore_sha256_update(&c, (const uint8_t *)"\n", 1);
  mcore_sha256_final(&c, d);
  mh_sb_puts(b, " 'sha256-");
  for (size_t i = 0; i < 32; i += 3) { /* 32 bytes: 10 groups and 2 bytes */
    uint32_t v = (uint32_t)d[i] << 16 | (uint32_t)d[i + 1] << 8 | d[i + 2];
    mh_sb_putc(b, b64[v >> 18 & 63]);
    mh_sb_putc(b, b64[v >> 12 & 63]);
    mh_sb_putc(b, b64[v >> 6 & 63]);
    mh_sb_putc(b, i + 2 < 32 ? b64[v & 63] : '=');
  }
  mh_sb_putc(b, '\'');
}

/* The page runs only its own inlined scripts: no inline event handler,
 * no javascript: URL, no other script, no eval (vega-embed's option
 * ast makes Vega evaluate its expressions with the interpreter
 * vega-embed bundles, vega-interpreter), nothing fetched, no form, no base
 * (docs/report-html.md, "Security"). Styles may be inline: Vega sets
 * them on the elements it draws. */
static void csp(mh_sb *b, const mh_html_assets *a) {
  const char *js[4];
  size_t n = page_scripts(a, js);
  mh_sb_puts(b, "<meta http-equiv='Content-Security-Policy' content=\"default-"
                "src 'none'; script-src");
  for (size_t i = 0; i < n; i++)
    script_hash(b, js[i]);
  mh_sb_puts(b, "; style-src 'unsafe-inline'; img-src data: blob:; font-src "
                "data:; base-uri 'none'; form-action 'none'\">");
}

void mh_html_open(mh_sb *b, const char *title, const mh_html_assets *a) {
  mh_sb_puts(b,
             "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>");
  csp(b, a);
  mh_sb_puts(b, "<meta name='viewport' content='width=device-width, "
                "initial-scale=1'><title>");
  mh_esc_html(b, title);
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
    mh_esc_html(b, json_string_value(json_object_get(c, "id")));
    mh_sb_puts(b, "' data-kind='");
    mh_esc_html(b, json_string_value(json_object_get(c, "kind")));
    mh_sb_puts(b, "'><div class='tools'></div><h3>");
    mh_esc_html(b, json_string_value(json_object_get(c, "title")));
    mh_sb_puts(b, "</h3><p class='note'>");
    mh_esc_html(b, json_string_value(json_object_get(c, "note")));
    mh_sb_puts(b, "</p><div class='vis'></div></div>\n");
  }
}

/* JSON inside <script>: every '<' as \u003c (it can only stand in a
 * string), so no "</script>" or "<!--" ends or bends the element; every
 * character beyond ASCII as \uXXXX, so none is written raw. */
static void script_json(mh_sb *b, const json_t *data) {
  char *s = json_dumps(data, JSON_COMPACT | JSON_ENSURE_ASCII |
                                 JSON_REAL_PRECISION(17));
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
  mh_esc_html(b, s);
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
  const char *js[4];
  size_t n = page_scripts(a, js);
  for (size_t i = 0; i < n; i++) {
    mh_sb_puts(b, "<script>\n");
    mh_sb_puts(b, js[i] ? js[i] : "");
    mh_sb_puts(b, "\n</script>\n");
  }
  mh_sb_puts(b, "</body></html>\n");
}
