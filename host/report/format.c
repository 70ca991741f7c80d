/* SPDX-License-Identifier: Apache-2.0 */
#include "report/format.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mh_format_number(double v, char *buf, size_t len) {
  if (!isfinite(v)) {
    snprintf(buf, len, "%g", v);
    return;
  }
  double a = fabs(v);
  if (a >= 1e18) { /* beyond every count: its shortest exact form, whole */
    for (int p = 1; p <= 17; p++) {
      snprintf(buf, len, "%.*g", p, v);
      if (strtod(buf, NULL) == v)
        break;
    }
    return;
  }
  int dec = a == floor(a) || a >= 1000 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
  char raw[64];
  snprintf(raw, sizeof raw, "%.*f", dec, a);
  const char *dot = strchr(raw, '.');
  size_t ilen = dot ? (size_t)(dot - raw) : strlen(raw);
  char out[96];
  size_t o = 0;
  if (v < 0 && strspn(raw, "0.") != strlen(raw))
    out[o++] = '-';
  for (size_t i = 0; i < ilen; i++) {
    if (i && (ilen - i) % 3 == 0)
      out[o++] = ',';
    out[o++] = raw[i];
  }
  if (dot) {
    size_t rest = strlen(dot);
    memcpy(out + o, dot, rest);
    o += rest;
  }
  out[o] = '\0';
  snprintf(buf, len, "%s", out);
}

void mh_fmt_num(mh_sb *b, double v) {
  char t[96];
  mh_format_number(v, t, sizeof t);
  mh_sb_puts(b, t);
}

void mh_fmt_op_name(mh_sb *b, const char *alg, const char *op, long bytes,
                    int md) {
  void (*text)(mh_sb *, const char *) = md ? mh_esc_md : mh_esc_html;
  text(b, alg);
  mh_sb_putc(b, ' ');
  text(b, op);
  if (bytes >= 0)
    mh_sb_printf(b, " %ld B", bytes);
}

void mh_fmt_md_op_cells(mh_sb *b, const mh_op *o) {
  mh_sb_puts(b, "| ");
  mh_fmt_op_name(b, o->alg, o->op, o->bytes, 1);
  mh_sb_puts(b, " | ");
  mh_esc_md(b, o->backend);
}

void mh_fmt_nums(mh_sb *b, const char *sep, const double *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    mh_sb_puts(b, sep);
    mh_fmt_num(b, v[i]);
  }
}

void mh_fmt_md_ratio(mh_sb *b, double x, double ref) {
  if (ref > 0 && isfinite(x / ref))
    mh_sb_printf(b, " | %.2f", x / ref);
  else
    mh_sb_puts(b, " | –");
}
