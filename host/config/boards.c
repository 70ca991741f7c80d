/* SPDX-License-Identifier: Apache-2.0 */
#include "config/boards.h"

#include "util/fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  K_NAME,
  K_PART,
  K_CORE,
  K_TARGET,
  K_COUNTER,
  K_SOURCE,
  K_CLOCK,
  K_FLASH,
  K_RAM,
  K_COUNT
};
static const char *const keys[K_COUNT] = {
    "name",   "part",     "core",        "target",   "counter",
    "source", "clock_hz", "flash_bytes", "ram_bytes"};

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

static char *dup_span(const char *s, size_t n) {
  char *d = malloc(n + 1);
  if (d) {
    memcpy(d, s, n);
    d[n] = '\0';
  }
  return d;
}

static char **str_slot(mh_board *b, int k) {
  switch (k) {
  case K_NAME:
    return &b->name;
  case K_PART:
    return &b->part;
  case K_CORE:
    return &b->core;
  case K_TARGET:
    return &b->target;
  case K_COUNTER:
    return &b->counter;
  case K_SOURCE:
    return &b->source;
  default:
    return NULL;
  }
}

static uint64_t *num_slot(mh_board *b, int k) {
  return k == K_CLOCK   ? &b->clock_hz
         : k == K_FLASH ? &b->flash_bytes
         : k == K_RAM   ? &b->ram_bytes
                        : NULL;
}

int mh_board_parse(const char *file, const char *id, const char *buf,
                   size_t len, mh_board *b, char *err, size_t errlen) {
  memset(b, 0, sizeof *b);
  int seen[K_COUNT] = {0};
  size_t line = 0;
  const char *p = buf, *end = buf + len;
  if (!(b->id = strdup(id))) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *e = nl ? nl : end;
    line++;
    const char *s = p;
    p = nl ? nl + 1 : end;
    while (s < e && is_space(*s))
      s++;
    const char *t = e;
    while (t > s && is_space(t[-1]))
      t--;
    if (s == t || *s == '#')
      continue;
    const char *eq = memchr(s, '=', (size_t)(t - s));
    if (!eq) {
      snprintf(err, errlen, "%s:%zu: expected 'key = value'", file, line);
      goto fail;
    }
    const char *ke = eq, *v = eq + 1;
    while (ke > s && is_space(ke[-1]))
      ke--;
    while (v < t && is_space(*v))
      v++;
    int k = 0;
    while (k < K_COUNT && !(strlen(keys[k]) == (size_t)(ke - s) &&
                            memcmp(keys[k], s, (size_t)(ke - s)) == 0))
      k++;
    if (k == K_COUNT) {
      snprintf(err, errlen,
               "%s:%zu: unknown key '%.*s' (valid: name, part, core, target, "
               "counter, source, clock_hz, flash_bytes, ram_bytes)",
               file, line, (int)(ke - s), s);
      goto fail;
    }
    if (seen[k]) {
      snprintf(err, errlen, "%s:%zu: '%s' given twice (first on line %d)", file,
               line, keys[k], seen[k]);
      goto fail;
    }
    seen[k] = (int)line;
    if (v == t) {
      snprintf(err, errlen, "%s:%zu: '%s' has no value", file, line, keys[k]);
      goto fail;
    }
    uint64_t *num = num_slot(b, k);
    if (num) {
      uint64_t x = 0;
      for (const char *c = v; c < t; c++) {
        if (*c < '0' || *c > '9' || x > (UINT64_MAX - 9) / 10) {
          snprintf(err, errlen,
                   "%s:%zu: '%s' must be a whole number, not "
                   "'%.*s'",
                   file, line, keys[k], (int)(t - v), v);
          goto fail;
        }
        x = x * 10 + (uint64_t)(*c - '0');
      }
      if (x == 0) {
        snprintf(err, errlen, "%s:%zu: '%s' must not be 0", file, line,
                 keys[k]);
        goto fail;
      }
      *num = x;
    } else if (!(*str_slot(b, k) = dup_span(v, (size_t)(t - v)))) {
      snprintf(err, errlen, "out of memory");
      goto fail;
    }
  }
  for (int k = 0; k < K_COUNT; k++)
    if (!seen[k]) {
      snprintf(err, errlen, "%s: missing '%s'", file, keys[k]);
      goto fail;
    }
  return 0;
fail:
  mh_board_free(b);
  return -1;
}

void mh_board_free(mh_board *b) {
  if (!b)
    return;
  free(b->id);
  for (int k = 0; k < K_COUNT; k++) {
    char **s = str_slot(b, k);
    if (s)
      free(*s);
  }
  memset(b, 0, sizeof *b);
}

void mh_boards_free(mh_board *boards, size_t n) {
  for (size_t i = 0; i < n; i++)
    mh_board_free(&boards[i]);
  free(boards);
}

static int by_id(const void *a, const void *b) {
  return strcmp(((const mh_board *)a)->id, ((const mh_board *)b)->id);
}

int mh_boards_load(const char *root, mh_board **boards, size_t *n, char *err,
                   size_t errlen) {
  static const char SUFFIX[] = ".board";
  *boards = NULL;
  *n = 0;
  char *dir = mh_path_join(root, "boards");
  DIR *d = dir ? opendir(dir) : NULL;
  if (!d) {
    snprintf(err, errlen, "cannot read %s: %s", dir ? dir : "boards",
             dir ? strerror(errno) : "out of memory");
    free(dir);
    return -1;
  }
  struct dirent *de;
  int rc = 0;
  while (rc == 0 && (de = readdir(d))) {
    size_t len = strlen(de->d_name), sl = sizeof SUFFIX - 1;
    if (len <= sl || de->d_name[0] == '.' ||
        strcmp(de->d_name + len - sl, SUFFIX) != 0)
      continue;
    char *path = mh_path_join(dir, de->d_name);
    char *id = strndup(de->d_name, len - sl);
    char *buf = NULL, display[300];
    size_t blen = 0;
    mh_board *g = realloc(*boards, (*n + 1) * sizeof *g);
    snprintf(display, sizeof display, "boards/%s", de->d_name);
    if (!path || !id || !g) {
      snprintf(err, errlen, "out of memory");
      rc = -1;
    } else {
      *boards = g;
      if (mh_read_file(path, 1 << 20, &buf, &blen, err, errlen) != 0 ||
          mh_board_parse(display, id, buf, blen, &g[*n], err, errlen) != 0)
        rc = -1;
      else
        (*n)++;
    }
    free(buf);
    free(path);
    free(id);
  }
  closedir(d);
  free(dir);
  if (rc != 0) {
    mh_boards_free(*boards, *n);
    *boards = NULL;
    *n = 0;
    return -1;
  }
  qsort(*boards, *n, sizeof **boards, by_id);
  return 0;
}

static void kb(char *buf, size_t len, uint64_t bytes) {
  snprintf(buf, len, "%.1f KB", (double)bytes / 1024.0);
}

int mh_board_fits(const mh_board *b, const char *run_core, uint64_t flash_need,
                  uint64_t ram_need, char *reason, size_t reason_len) {
  char need[32], has[32];
  if (!run_core || strcmp(run_core, b->core) != 0) {
    snprintf(reason, reason_len,
             "not evaluated: figures measured on %s, the part is %s",
             run_core ? run_core : "an unknown core", b->core);
    return -1;
  }
  if (ram_need > b->ram_bytes) {
    kb(need, sizeof need, ram_need);
    kb(has, sizeof has, b->ram_bytes);
    snprintf(reason, reason_len, "does not fit: needs %s RAM, part has %s",
             need, has);
    return 0;
  }
  if (flash_need > b->flash_bytes) {
    kb(need, sizeof need, flash_need);
    kb(has, sizeof has, b->flash_bytes);
    snprintf(reason, reason_len, "does not fit: needs %s flash, part has %s",
             need, has);
    return 0;
  }
  reason[0] = '\0';
  return 1;
}
