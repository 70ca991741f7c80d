/* SPDX-License-Identifier: Apache-2.0 */
#include "agree/rows.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* dst = src[0..len) with runs of blanks as one space, trimmed. */
static void collapse(char *dst, size_t cap, const char *src, size_t len) {
  size_t o = 0;
  int space = 0;
  for (size_t i = 0; i < len && o + 1 < cap; i++) {
    if (isspace((unsigned char)src[i])) {
      space = o > 0;
      continue;
    }
    if (space && o + 2 < cap)
      dst[o++] = ' ';
    space = 0;
    dst[o++] = src[i];
  }
  dst[o] = '\0';
}

static int push(mh_ag_row **rows, size_t *n, const char *key, size_t key_len,
                int rate, double value) {
  mh_ag_row *r = realloc(*rows, (*n + 1) * sizeof **rows);
  if (!r)
    return -1;
  *rows = r;
  collapse(r[*n].key, sizeof r[*n].key, key, key_len);
  r[*n].rate = rate;
  r[*n].value = value;
  (*n)++;
  return 0;
}

/* The start of the last blank-separated word of line[0..end). */
static size_t last_word(const char *line, size_t end) {
  while (end > 0 && line[end - 1] == ' ')
    end--;
  while (end > 0 && line[end - 1] != ' ')
    end--;
  return end;
}

static double unit_bytes(const char *u) {
  static const struct {
    const char *name;
    double bytes;
  } units[] = {{"bytes", 1},        {"KiB", 1024}, {"MiB", 1048576},
               {"GiB", 1073741824}, {"KB", 1e3},   {"MB", 1e6},
               {"GB", 1e9}};
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
    if (strncmp(u, units[i].name, strlen(units[i].name)) == 0 &&
        u[strlen(units[i].name)] == ' ')
      return units[i].bytes;
  return 0;
}

/* wolfCrypt's lines (benchmark.c bench_stats_asym_finish and
 * bench_stats_sym_finish, not CSV):
 *   "ECDSA [ SECP256R1] 256 sign 2 ops took 12.480 sec, avg 6239.964 ms, ..."
 *   "SHA-256 25 KiB took 3.249 seconds, 7.695 KiB/s"
 * Its clock is in seconds on the host and in 10^6 counter ticks in an
 * agree image on a bare-metal target (agree_wolfcrypt.c). */
static int wolf_line(const char *line, size_t len, int bare, mh_ag_row **rows,
                     size_t *n) {
  char buf[256];
  if (len >= sizeof buf)
    return 0;
  memcpy(buf, line, len);
  buf[len] = '\0';
  double scale = bare ? 1e6 : 1e9; /* per "second" */
  char *ops = strstr(buf, " ops took ");
  char *avg = strstr(buf, ", avg ");
  if (ops && avg) {
    /* Bare metal: "avg" to three decimals is an exact tick count. On the
     * host its microsecond is coarse; the count and the total are not. */
    size_t count = last_word(buf, (size_t)(ops - buf));
    double calls = strtod(buf + count, NULL), total = strtod(ops + 10, NULL);
    double per = bare        ? strtod(avg + 6, NULL) * scale / 1e3
                 : calls > 0 ? total * scale / calls
                             : 0;
    return per > 0 ? push(rows, n, buf, count, 0, per) : 0;
  }
  char *took = strstr(buf, " took ");
  char *secs = took ? strstr(took, " seconds,") : NULL;
  if (!took || !secs)
    return 0;
  size_t unit = last_word(buf, (size_t)(took - buf));
  size_t amount = last_word(buf, unit);
  double bytes = strtod(buf + amount, NULL) * unit_bytes(buf + unit);
  double s = strtod(took + 6, NULL);
  return bytes > 0 && s > 0 ? push(rows, n, buf, amount, 1, s * scale / bytes)
                            : 0;
}

/* Mbed TLS's lines (programs/test/benchmark.c TIME_PUBLIC, TIME_AND_TSC):
 *   "  ECDSA-secp256r1          :    1614 sign/s"
 *   "  SHA-256                  :      83818 KiB/s,          8 cycles/byte"
 * and, in an agree image on a bare-metal target, the hooks' exact line
 * after each (agree_mbedtls.c), which is what counts there:
 *   "merlin-agree: row=ECDSA-secp256r1 calls=1 ticks=15149258"
 *   "merlin-agree: row=SHA-256 calls=1024 bytes=1024 ticks=157673161" */
static int mbed_line(const char *line, size_t len, const char *prev,
                     size_t prev_len, int bare, mh_ag_row **rows, size_t *n) {
  char buf[256], key[160];
  if (len >= sizeof buf || prev_len >= sizeof buf)
    return 0;
  memcpy(buf, line, len);
  buf[len] = '\0';
  if (bare) {
    char *row = strstr(buf, "merlin-agree: row=");
    char *calls = row ? strstr(row, " calls=") : NULL;
    char *ticks = calls ? strstr(calls, " ticks=") : NULL;
    if (!ticks)
      return 0;
    double t = strtod(ticks + 7, NULL);
    long c = strtol(calls + 7, NULL, 10);
    char *title = row + 18;
    *calls = '\0';
    if (strstr(calls + 1, "bytes="))
      return push(
          rows, n, title, strlen(title), 1,
          t / ((double)c * strtod(strstr(calls + 1, "bytes=") + 6, NULL)));
    /* The type of a public-key row is on the program's line before. */
    const char *colon = memchr(prev, ':', prev_len);
    const char *slash = colon ? strstr(colon, "/s") : NULL;
    if (!slash || slash - prev > (long)prev_len || c <= 0)
      return 0;
    const char *type = colon + 1;
    while (type < slash &&
           (isspace((unsigned char)*type) || isdigit((unsigned char)*type)))
      type++;
    snprintf(key, sizeof key, "%s %.*s", title, (int)(slash - type), type);
    return push(rows, n, key, strlen(key), 0, t / (double)c);
  }
  char *colon = strstr(buf, " :  ");
  if (!colon || strncmp(buf, "merlin-agree:", 13) == 0)
    return 0;
  char *num = colon + 4;
  double v = strtod(num, NULL);
  char *kib = strstr(num, " KiB/s,");
  if (kib)
    return v > 0 ? push(rows, n, buf, (size_t)(colon - buf), 1,
                        1e9 / (v * 1024.0))
                 : 0;
  char *slash = strstr(num, "/s");
  if (!slash || v <= 0)
    return 0;
  while (*num == ' ' || isdigit((unsigned char)*num))
    num++;
  snprintf(key, sizeof key, "%.*s %.*s", (int)(colon - buf), buf,
           (int)(slash - num), num);
  return push(rows, n, key, strlen(key), 0, 1e9 / v);
}

int mh_ag_parse(const char *library, const char *out, int bare,
                mh_ag_row **rows, size_t *n, char *err, size_t errlen) {
  int wolf = strcmp(library, "wolfcrypt") == 0;
  const char *prev = "";
  size_t prev_len = 0, before = *n;
  for (const char *p = out; *p;) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    int rc = wolf ? wolf_line(p, len, bare, rows, n)
                  : mbed_line(p, len, prev, prev_len, bare, rows, n);
    if (rc != 0) {
      snprintf(err, errlen, "out of memory");
      return -1;
    }
    if (len) {
      prev = p;
      prev_len = len;
    }
    p += len + (nl ? 1 : 0);
  }
  if (*n == before) {
    snprintf(err, errlen, "the %s benchmark printed no result row", library);
    return -1;
  }
  return 0;
}

const mh_ag_row *mh_ag_find(const mh_ag_row *rows, size_t n, const char *key) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(rows[i].key, key) == 0)
      return &rows[i];
  return NULL;
}

/* Field k (0-based) of a tab-separated line into dst; -1 when missing. */
static int field(const char *line, size_t len, int k, char *dst, size_t cap) {
  const char *s = line, *end = line + len;
  for (; k > 0 && s < end; k--) {
    const char *t = memchr(s, '\t', (size_t)(end - s));
    if (!t)
      return -1;
    s = t + 1;
  }
  const char *t = memchr(s, '\t', (size_t)(end - s));
  size_t fl = (size_t)((t ? t : end) - s);
  if (k > 0 || fl == 0 || fl >= cap)
    return -1;
  memcpy(dst, s, fl);
  dst[fl] = '\0';
  return 0;
}

int mh_ag_map_parse(const char *buf, mh_ag_map **map, size_t *n, char *err,
                    size_t errlen) {
  size_t lineno = 0;
  *map = NULL;
  *n = 0;
  for (const char *p = buf; *p;) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    lineno++;
    if (len && p[0] != '#') {
      mh_ag_map m;
      char kind[8];
      if (field(p, len, 0, m.library, sizeof m.library) ||
          field(p, len, 1, m.key, sizeof m.key) ||
          field(p, len, 2, m.alg, sizeof m.alg) ||
          field(p, len, 3, m.op, sizeof m.op) ||
          field(p, len, 4, kind, sizeof kind) ||
          field(p, len, 5, m.def, sizeof m.def) ||
          (strcmp(kind, "call") && strcmp(kind, "rate") &&
           strcmp(kind, "kib")) ||
          (strcmp(m.def, "same") != 0 && strncmp(m.def, "differs: ", 9))) {
        snprintf(
            err, errlen,
            "rows.txt line %zu: want library, row, alg, op, call|rate|kib, "
            "same|differs: why (tab-separated)",
            lineno);
        free(*map);
        *map = NULL;
        return -1;
      }
      m.kind = kind[0] == 'c'   ? MH_AG_CALL
               : kind[0] == 'r' ? MH_AG_RATE
                                : MH_AG_KIB;
      mh_ag_map *grown = realloc(*map, (*n + 1) * sizeof **map);
      if (!grown) {
        snprintf(err, errlen, "out of memory");
        free(*map);
        *map = NULL;
        return -1;
      }
      *map = grown;
      (*map)[(*n)++] = m;
    }
    p += len + (nl ? 1 : 0);
  }
  return 0;
}
