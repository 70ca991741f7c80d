/* SPDX-License-Identifier: Apache-2.0 */
#include "config/boards.h"

#include "util/fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Who needs a key: a part-only file (no kind), or a target of one kind.
 * A key is required of the kinds in need and allowed in those in may. */
enum { W_PART = 1, W_NATIVE = 2, W_QEMU = 4, W_BOARD = 8 };
#define W_TARGET (W_NATIVE | W_QEMU | W_BOARD)
#define W_CM (W_QEMU | W_BOARD) /* a Cortex-M image */
#define W_PARTS (W_PART | W_CM) /* a file that describes a part */
enum { T_STR, T_NUM };

static const struct field {
  const char *key;
  int type;
  size_t off;
  unsigned need, may;
} FIELDS[] = {
#define S(k, need, may)                                                        \
  { #k, T_STR, offsetof(mh_board, k), need, may }
#define N(k, need, may)                                                        \
  { #k, T_NUM, offsetof(mh_board, k), need, may }
    S(name, W_PART | W_TARGET, W_PART | W_TARGET),
    S(part, W_PARTS, W_PARTS),
    S(core, W_PARTS, W_PARTS),
    S(target, W_PARTS, W_PARTS | W_NATIVE),
    N(clock_hz, W_PARTS, W_PARTS),
    N(flash_bytes, W_PARTS, W_PARTS),
    N(ram_bytes, W_PARTS, W_PARTS),
    S(counter, W_PARTS, W_PARTS),
    S(source, W_PARTS, W_PARTS),
    S(kind, W_TARGET, W_TARGET),
    S(description, W_TARGET, W_TARGET),
    S(unit, W_TARGET, W_TARGET),
    S(cpu_flags, W_CM, W_CM),
    S(clang, 0, W_CM),
    S(clang_cpu_flags, 0, W_CM),
    S(toolchain, W_CM, W_CM),
    S(qemu_machine, W_QEMU, W_QEMU),
    S(qemu_cpu, W_QEMU, W_QEMU),
    N(icount_shift, W_QEMU, W_QEMU),
    S(port_sources, W_TARGET, W_TARGET),
    S(port_includes, 0, W_TARGET),
    S(port_defines, 0, W_TARGET),
    S(link_dirs, 0, W_TARGET),
    S(linker_script, W_CM, W_CM),
    S(cmake_include, 0, W_TARGET),
    S(cycle_model, W_TARGET, W_TARGET),
    S(flash_hint, W_BOARD, W_BOARD),
    S(memory, 0, W_CM),
    N(flash_wait_states, 0, W_PARTS),
    N(flash_miss_cycles, 0, W_PARTS),
    S(icache, 0, W_PARTS),
    S(dcache, 0, W_PARTS),
    S(prefetch, 0, W_PARTS),
    S(unified_cache, 0, W_PARTS),
    S(runs_from, 0, W_PARTS),
    S(zero_wait, 0, W_PARTS),
    S(memory_source, 0, W_PARTS),
    N(run_current_ua, 0, W_PARTS),
    N(supply_mv, 0, W_PARTS),
    S(power_source, 0, W_PARTS),
#undef S
#undef N
};
enum { K_COUNT = sizeof FIELDS / sizeof FIELDS[0] };

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* clang, or clang-N: the driver `--cc clang` runs for this target */
static int clang_name_ok(const char *v) {
  if (strncmp(v, "clang", 5) != 0)
    return 0;
  if (!v[5])
    return 1;
  if (v[5] != '-' || !v[6])
    return 0;
  for (const char *c = v + 6; *c; c++)
    if (*c < '0' || *c > '9')
      return 0;
  return 1;
}

static int clang_key(void) {
  for (int k = 0; k < K_COUNT; k++)
    if (FIELDS[k].off == offsetof(mh_board, clang))
      return k;
  return 0;
}

static char *dup_span(const char *s, size_t n) {
  char *d = malloc(n + 1);
  if (d) {
    memcpy(d, s, n);
    d[n] = '\0';
  }
  return d;
}

static char **str_slot(mh_board *b, int k) {
  return FIELDS[k].type == T_STR ? (char **)(void *)((char *)b + FIELDS[k].off)
                                 : NULL;
}

static uint64_t *num_slot(mh_board *b, int k) {
  return FIELDS[k].type == T_NUM
             ? (uint64_t *)(void *)((char *)b + FIELDS[k].off)
             : NULL;
}

/* The kind of a parsed file as a W_ bit, or 0 for an unknown kind. */
static unsigned who(const mh_board *b) {
  if (!b->kind)
    return W_PART;
  /* qemu-user: a native image run under QEMU user-mode emulation with the
   * instruction-count plugin (docs/host.md, "Exact host counts"). */
  return strcmp(b->kind, "native") == 0      ? W_NATIVE
         : strcmp(b->kind, "qemu-user") == 0 ? W_NATIVE
         : strcmp(b->kind, "qemu") == 0      ? W_QEMU
         : strcmp(b->kind, "board") == 0     ? W_BOARD
                                             : 0;
}

static const char *who_name(unsigned w) {
  return w == W_PART     ? "a part-only file (no kind)"
         : w == W_NATIVE ? "kind = native"
         : w == W_QEMU   ? "kind = qemu"
                         : "kind = board";
}

/* After the lines: the kind is known, so check which keys it needs and
 * allows. seen[k] is the line of key k, 0 when absent. */
static int check_kind(const char *file, const mh_board *b, const int *seen,
                      char *err, size_t errlen) {
  unsigned w = who(b);
  if (!w) {
    int line = 0;
    for (int k = 0; k < K_COUNT; k++)
      if (FIELDS[k].off == offsetof(mh_board, kind))
        line = seen[k];
    snprintf(err, errlen,
             "%s:%d: unknown kind '%s' (valid: native, qemu-user, qemu, board)",
             file, line, b->kind);
    return -1;
  }
  for (int k = 0; k < K_COUNT; k++) {
    if (seen[k] && !(FIELDS[k].may & w)) {
      snprintf(err, errlen, "%s:%d: '%s' does not belong in %s", file, seen[k],
               FIELDS[k].key, who_name(w));
      return -1;
    }
    if (!seen[k] && (FIELDS[k].need & w)) {
      snprintf(err, errlen, "%s: missing '%s'%s%s", file, FIELDS[k].key,
               w == W_PART ? "" : " (", w == W_PART ? "" : who_name(w));
      if (w != W_PART) {
        size_t used = strlen(err);
        snprintf(err + used, errlen - used, ")");
      }
      return -1;
    }
  }
  /* A target's file is named after it: boards/<id>.board. */
  if (w != W_PART && b->target && strcmp(b->target, b->id) != 0) {
    snprintf(err, errlen,
             "%s: target = %s, but a target's descriptor is "
             "named after it (boards/%s.board)",
             file, b->target, b->target);
    return -1;
  }
  return 0;
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
    while (k < K_COUNT && !(strlen(FIELDS[k].key) == (size_t)(ke - s) &&
                            memcmp(FIELDS[k].key, s, (size_t)(ke - s)) == 0))
      k++;
    if (k == K_COUNT) {
      char valid[1000] = "";
      size_t used = 0;
      for (int j = 0; j < K_COUNT && used < sizeof valid; j++)
        used += (size_t)snprintf(valid + used, sizeof valid - used, "%s%s",
                                 j ? ", " : "", FIELDS[j].key);
      snprintf(err, errlen, "%s:%zu: unknown key '%.*s' (valid: %s)", file,
               line, (int)(ke - s), s, valid);
      goto fail;
    }
    if (seen[k]) {
      snprintf(err, errlen, "%s:%zu: '%s' given twice (first on line %d)", file,
               line, FIELDS[k].key, seen[k]);
      goto fail;
    }
    seen[k] = (int)line;
    if (v == t) {
      snprintf(err, errlen, "%s:%zu: '%s' has no value", file, line,
               FIELDS[k].key);
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
                   file, line, FIELDS[k].key, (int)(t - v), v);
          goto fail;
        }
        x = x * 10 + (uint64_t)(*c - '0');
      }
      if (x == 0 && FIELDS[k].off != offsetof(mh_board, icount_shift)) {
        snprintf(err, errlen, "%s:%zu: '%s' must not be 0", file, line,
                 FIELDS[k].key);
        goto fail;
      }
      *num = x;
    } else if (!(*str_slot(b, k) = dup_span(v, (size_t)(t - v)))) {
      snprintf(err, errlen, "out of memory");
      goto fail;
    }
  }
  if (check_kind(file, b, seen, err, errlen) != 0)
    goto fail;
  if (b->clang && !clang_name_ok(b->clang)) {
    snprintf(err, errlen,
             "%s:%d: 'clang' must be clang or clang-N (a versioned Debian "
             "driver), not '%s'",
             file, seen[clang_key()], b->clang);
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
  return mh_boards_load_all(root, 0, boards, n, err, errlen);
}

int mh_boards_load_all(const char *root, int with_native, mh_board **boards,
                       size_t *n, char *err, size_t errlen) {
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
      else if (!with_native && who(&g[*n]) == W_NATIVE)
        mh_board_free(&g[*n]); /* a target, not a part */
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
  if (!b->core) { /* a native target's file describes no part */
    snprintf(reason, reason_len, "not evaluated: %s describes no part", b->id);
    return -1;
  }
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
