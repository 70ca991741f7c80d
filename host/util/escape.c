/* SPDX-License-Identifier: Apache-2.0 */
/* See escape.h. */
#include "util/escape.h"

#include <stdio.h>
#include <string.h>

typedef enum { ESC_HTML, ESC_MD, ESC_XML, ESC_TERM } esc_fmt;

/* The well-formed UTF-8 sequence (RFC 3629 section 4) at s, of at most
 * avail bytes: 1 with its length and code point, 0 when the bytes there
 * are not one, -1 when they begin one that avail cuts short. */
static int utf8_seq(const unsigned char *s, size_t avail, size_t *len,
                    unsigned long *cp) {
  unsigned char c = s[0];
  size_t n;
  unsigned long v, min;
  if (c >= 0xc2 && c <= 0xdf) {
    n = 2, v = c & 0x1fu, min = 0x80;
  } else if (c >= 0xe0 && c <= 0xef) {
    n = 3, v = c & 0x0fu, min = 0x800;
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4, v = c & 0x07u, min = 0x10000;
  } else {
    return 0;
  }
  for (size_t i = 1; i < n; i++) {
    if (i == avail)
      return -1;
    if ((s[i] & 0xc0) != 0x80)
      return 0;
    v = (v << 6) | (s[i] & 0x3fu);
  }
  if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
    return 0;
  *len = n;
  *cp = v;
  return 1;
}

/* Code points that act instead of showing: C1 controls and the
 * bidirectional embeddings, overrides and isolates (Unicode UAX #9). */
static int acts(unsigned long cp) {
  return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

/* The markup characters of format f, with their replacement; NULL: the
 * character is written as it is. */
static const char *markup(esc_fmt f, unsigned char c) {
  static char md[3] = {'\\', 0, 0};
  switch (f) {
  case ESC_HTML:
  case ESC_XML:
    return c == '<'    ? "&lt;"
           : c == '>'  ? "&gt;"
           : c == '&'  ? "&amp;"
           : c == '"'  ? "&quot;"
           : c == '\'' ? (f == ESC_HTML ? "&#39;" : "&apos;")
                       : NULL;
  case ESC_MD:
    if (!strchr("\\|<>&[]`", c) || c == '\0')
      return NULL;
    md[1] = (char)c;
    return md;
  case ESC_TERM:
    break;
  }
  return NULL;
}

/* Appends the n bytes at s in format f (escape.h); lines: tab and line
 * feed kept (a terminal stream), else one space each. Returns how many
 * bytes it took: all but a UTF-8 sequence cut short at the end unless
 * final. */
static size_t esc_n(mh_sb *b, esc_fmt f, const char *s, size_t n, int lines,
                    int final) {
  const unsigned char *p = (const unsigned char *)s, *end = p + n;
  while (p < end) {
    unsigned char c = *p;
    unsigned long cp = 0;
    size_t len = 1;
    const char *m;
    int u = c < 0x80 ? 1 : utf8_seq(p, (size_t)(end - p), &len, &cp);
    if (u < 0 && !final)
      break;
    if (lines && (c == '\t' || c == '\n'))
      mh_sb_putc(b, (char)c);
    else if (c == '\t' || c == '\n' || c == '\r')
      mh_sb_putc(b, ' ');
    else if (c < 0x20 || c == 0x7f || u <= 0)
      mh_sb_printf(b, "\\x%02x", c);
    else if (c < 0x80 && (m = markup(f, c)) != NULL)
      mh_sb_puts(b, m);
    else if (acts(cp))
      mh_sb_printf(b, "\\u%04lx", cp);
    else
      mh_sb_add(b, (const char *)p, len);
    p += u > 0 ? len : 1;
  }
  return (size_t)(p - (const unsigned char *)s);
}

static void esc(mh_sb *b, esc_fmt f, const char *s) {
  if (s)
    esc_n(b, f, s, strlen(s), 0, 1);
}

size_t mh_esc_term_stream(mh_sb *b, const char *s, size_t n, int final) {
  return esc_n(b, ESC_TERM, s, n, 1, final);
}

void mh_esc_html(mh_sb *b, const char *s) { esc(b, ESC_HTML, s); }
void mh_esc_md(mh_sb *b, const char *s) { esc(b, ESC_MD, s); }
void mh_esc_xml(mh_sb *b, const char *s) { esc(b, ESC_XML, s); }
void mh_esc_term(mh_sb *b, const char *s) { esc(b, ESC_TERM, s); }

const char *mh_esc_term_buf(const char *s, char *buf, size_t len) {
  mh_sb b = {0};
  esc(&b, ESC_TERM, s ? s : "");
  if (b.failed || !len) {
    mh_sb_free(&b);
    if (len)
      snprintf(buf, len, "?");
    return buf;
  }
  if (b.len < len) {
    memcpy(buf, b.s, b.len + 1);
  } else {
    size_t keep = len > 4 ? len - 4 : 0;
    /* Cut before a UTF-8 continuation byte, never inside a sequence. */
    while (keep > 0 && ((unsigned char)b.s[keep] & 0xc0) == 0x80)
      keep--;
    snprintf(buf, len, "%.*s...", (int)keep, b.s);
  }
  mh_sb_free(&b);
  return buf;
}
