/* SPDX-License-Identifier: Apache-2.0 */
#include "util/strbuf.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int sb_reserve(mh_sb *b, size_t extra) {
  if (b->failed)
    return -1;
  if (extra > ((size_t)-1) / 2 - b->len) {
    b->failed = 1;
    return -1;
  }
  size_t need = b->len + extra + 1;
  if (need <= b->cap)
    return 0;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < need)
    cap *= 2;
  char *s = realloc(b->s, cap);
  if (!s) {
    b->failed = 1;
    return -1;
  }
  b->s = s;
  b->cap = cap;
  return 0;
}

void mh_sb_add(mh_sb *b, const char *s, size_t n) {
  if (sb_reserve(b, n) != 0)
    return;
  if (n)
    memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = '\0';
}

void mh_sb_puts(mh_sb *b, const char *s) { mh_sb_add(b, s, strlen(s)); }

void mh_sb_putc(mh_sb *b, char c) { mh_sb_add(b, &c, 1); }

void mh_sb_printf(mh_sb *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) {
    b->failed = 1;
    return;
  }
  if (sb_reserve(b, (size_t)n) != 0)
    return;
  va_start(ap, fmt);
  vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

void mh_sb_double(mh_sb *b, double v) {
  char tmp[40];
  /* %g would write 320 as "3.2e+02"; integers stay integers. */
  if (v == floor(v) && fabs(v) < 1e15) {
    snprintf(tmp, sizeof tmp, "%.0f", v);
    mh_sb_puts(b, tmp);
    return;
  }
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(tmp, sizeof tmp, "%.*g", prec, v);
    if (strtod(tmp, NULL) == v)
      break;
  }
  mh_sb_puts(b, tmp);
}

void mh_sb_free(mh_sb *b) {
  free(b->s);
  b->s = NULL;
  b->len = b->cap = 0;
  b->failed = 0;
}

void mh_sb_qemu_opt(mh_sb *b, const char *s) {
  for (; s && *s; s++) {
    if (*s == ',')
      mh_sb_putc(b, ',');
    mh_sb_putc(b, *s);
  }
}
