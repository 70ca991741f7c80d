/* SPDX-License-Identifier: Apache-2.0 */
#include "config/boards.h"

#include "config/board_keys.h"
#include "util/fsutil.h"
#include "util/strbuf.h"

#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

static char *dup_span(const char *s, size_t n) {
  char *d = malloc(n + 1);
  if (d) {
    memcpy(d, s, n);
    d[n] = '\0';
  }
  return d;
}

static char **str_slot(mh_board *b, size_t k) {
  return mh_board_keys[k].type != MH_BV_NUM
             ? (char **)(void *)((char *)b + mh_board_keys[k].off)
             : NULL;
}

static uint64_t *num_slot(mh_board *b, size_t k) {
  return mh_board_keys[k].type == MH_BV_NUM
             ? (uint64_t *)(void *)((char *)b + mh_board_keys[k].off)
             : NULL;
}

/* The kind of a parsed file as an MH_BW_ bit (the reader checked the
 * kind against its choices). */
static unsigned who(const mh_board *b) {
  if (!b->kind)
    return MH_BW_PART;
  /* qemu-user: a native image run under QEMU user-mode emulation with the
   * instruction-count plugin (docs/host.md, "Exact host counts"). */
  return strcmp(b->kind, "native") == 0 || strcmp(b->kind, "qemu-user") == 0
             ? MH_BW_NATIVE
         : strcmp(b->kind, "qemu") == 0 ? MH_BW_QEMU
                                        : MH_BW_BOARD;
}

static const char *who_name(unsigned w) {
  return w == MH_BW_PART     ? "a part-only file (no kind)"
         : w == MH_BW_NATIVE ? "kind = native"
         : w == MH_BW_QEMU   ? "kind = qemu"
                             : "kind = board";
}

/* After the lines: the kind is known, so check which keys it needs and
 * allows. seen[k] is the line of key k, 0 when absent. */
static int check_kind(const char *file, const mh_board *b, const int *seen,
                      char *err, size_t errlen) {
  unsigned w = who(b);
  for (size_t k = 0; k < mh_n_board_keys; k++) {
    const mh_board_key *f = &mh_board_keys[k];
    if (seen[k] && !(f->may & w)) {
      snprintf(err, errlen, "%s:%d: '%s' does not belong in %s", file, seen[k],
               f->key, who_name(w));
      return -1;
    }
    if (!seen[k] && (f->need & w)) {
      snprintf(err, errlen, "%s: missing '%s'%s%s%s", file, f->key,
               w == MH_BW_PART ? "" : " (", w == MH_BW_PART ? "" : who_name(w),
               w == MH_BW_PART ? "" : ")");
      return -1;
    }
  }
  /* A target's file is named after it: boards/<id>.board. */
  if (w != MH_BW_PART && b->target && strcmp(b->target, b->id) != 0) {
    snprintf(err, errlen,
             "%s: target = %s, but a target's descriptor is "
             "named after it (boards/%s.board)",
             file, b->target, b->target);
    return -1;
  }
  return 0;
}

/* The rules between keys (board_keys.h: a key that needs or excludes
 * another). */
static int check_rules(const char *file, mh_board *b, const int *seen,
                       char *err, size_t errlen) {
  for (size_t r = 0; r < mh_n_board_rules; r++) {
    const mh_board_rule *u = &mh_board_rules[r];
    int a = mh_board_key_find(u->key, strlen(u->key));
    int o = mh_board_key_find(u->other, strlen(u->other));
    char **v = a >= 0 ? str_slot(b, (size_t)a) : NULL; /* a value: text */
    if (a < 0 || o < 0 || !seen[a] ||
        (u->value && (!v || strcmp(*v, u->value) != 0)))
      continue;
    if (u->kind == MH_BR_NEEDS && !seen[o]) {
      snprintf(err, errlen, "%s:%d: %s%s%s needs '%s': %s", file, seen[a],
               u->key, u->value ? " = " : "", u->value ? u->value : "",
               u->other, u->why);
      return -1;
    }
    if (u->kind == MH_BR_EXCLUDES && seen[o]) {
      snprintf(err, errlen, "%s:%d: %s%s%s excludes '%s' (line %d): %s", file,
               seen[a], u->key, u->value ? " = " : "", u->value ? u->value : "",
               u->other, seen[o], u->why);
      return -1;
    }
  }
  return 0;
}

/* Line number line, the span [s, e) of a line that is not blank or a
 * comment: key k's value into b. Returns 0, or -1 with err. */
static int parse_line(const char *file, size_t line, const char *s,
                      const char *t, mh_board *b, int *seen, char *err,
                      size_t errlen) {
  char shown[400];
  const char *eq = memchr(s, '=', (size_t)(t - s));
  if (!eq) {
    snprintf(err, errlen, "%s:%zu: expected 'key = value'", file, line);
    return -1;
  }
  const char *ke = eq, *v = eq + 1;
  while (ke > s && is_space(ke[-1]))
    ke--;
  while (v < t && is_space(*v))
    v++;
  int k = mh_board_key_find(s, (size_t)(ke - s));
  if (k < 0) {
    mh_sb valid = {0};
    for (size_t j = 0; j < mh_n_board_keys; j++)
      mh_sb_printf(&valid, "%s%s", j ? ", " : "", mh_board_keys[j].key);
    mh_board_show(s, (size_t)(ke - s), shown, sizeof shown);
    snprintf(err, errlen, "%s:%zu: unknown key '%s' (valid: %s)", file, line,
             shown, valid.failed ? "see docs/boards.md" : valid.s);
    mh_sb_free(&valid);
    return -1;
  }
  const mh_board_key *f = &mh_board_keys[k];
  if (seen[k]) {
    snprintf(err, errlen, "%s:%zu: '%s' given twice (first on line %d)", file,
             line, f->key, seen[k]);
    return -1;
  }
  seen[k] = (int)line;
  if (v == t) {
    snprintf(err, errlen, "%s:%zu: '%s' has no value", file, line, f->key);
    return -1;
  }
  uint64_t x = 0;
  char why[1024];
  if (mh_board_value_check(f, v, (size_t)(t - v), &x, why, sizeof why) != 0) {
    snprintf(err, errlen, "%s:%zu: %s", file, line, why);
    return -1;
  }
  uint64_t *num = num_slot(b, (size_t)k);
  if (num)
    *num = x;
  else if (!(*str_slot(b, (size_t)k) = dup_span(v, (size_t)(t - v)))) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  return 0;
}

int mh_board_parse(const char *file, const char *id, const char *buf,
                   size_t len, mh_board *b, char *err, size_t errlen) {
  memset(b, 0, sizeof *b);
  int *seen = calloc(mh_n_board_keys, sizeof *seen);
  size_t line = 0;
  const char *p = buf, *end = buf + len;
  if (!seen || !(b->id = strdup(id))) {
    snprintf(err, errlen, "out of memory");
    goto fail;
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
    if (parse_line(file, line, s, t, b, seen, err, errlen) != 0)
      goto fail;
  }
  if (check_kind(file, b, seen, err, errlen) != 0 ||
      check_rules(file, b, seen, err, errlen) != 0)
    goto fail;
  free(seen);
  return 0;
fail:
  free(seen);
  mh_board_free(b);
  return -1;
}

void mh_board_free(mh_board *b) {
  if (!b)
    return;
  free(b->id);
  for (size_t k = 0; k < mh_n_board_keys; k++) {
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

/* A part-only file's target is none or a target of boards/ (docs/boards.md):
 * what merlin runs there. */
static int check_part_targets(const mh_board *bs, size_t n, char *err,
                              size_t errlen) {
  for (size_t i = 0; i < n; i++) {
    if (bs[i].kind || strcmp(bs[i].target, "none") == 0)
      continue;
    size_t j = 0;
    while (j < n && !(bs[j].kind && strcmp(bs[j].id, bs[i].target) == 0))
      j++;
    if (j == n) {
      snprintf(err, errlen,
               "boards/%s.board: target = %s is no target of boards/ (a file "
               "with a kind, a port that runs there; none: no port yet)",
               bs[i].id, bs[i].target);
      return -1;
    }
  }
  return 0;
}

/* A board file's name is its id: a word, as a target's id. */
static int check_file_name(const char *name, size_t len, char *err,
                           size_t errlen) {
  char shown[400];
  size_t i = 0;
  while (i < len &&
         ((name[i] >= 'a' && name[i] <= 'z') ||
          (name[i] >= 'A' && name[i] <= 'Z') ||
          (name[i] >= '0' && name[i] <= '9') || (i && strchr("._+-", name[i]))))
    i++;
  if (i == len)
    return 0;
  mh_board_show(name, strlen(name), shown, sizeof shown);
  snprintf(err, errlen,
           "boards/%s: a board file is named ID.board, ID a word (letters, "
           "digits, '.', '_', '+', '-', starting with a letter or digit)",
           shown);
  return -1;
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
    if (check_file_name(de->d_name, len - sl, err, errlen) != 0) {
      rc = -1;
      break;
    }
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
      else if (!with_native && who(&g[*n]) == MH_BW_NATIVE)
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
  if (rc == 0)
    rc = check_part_targets(*boards, *n, err, errlen);
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
