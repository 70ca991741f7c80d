/* SPDX-License-Identifier: Apache-2.0 */
#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Seconds between progress lines when stderr is not a terminal. */
#define LOG_EVERY_S 10

typedef struct {
  char *id;
  char *label; /* "sha256 hash 64 B (wolfcrypt)" */
} op_label;

struct mh_progress {
  char *target;
  int tty, quiet, drawn;
  op_label *ops;
  size_t n_ops, cap_ops, done;
  const char *current; /* label of the operation being timed */
  time_t last_line;    /* when the last non-terminal line was printed */
};

mh_progress *mh_progress_new(const char *target, int tty, int quiet) {
  mh_progress *p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  p->target = strdup(target);
  if (!p->target) {
    free(p);
    return NULL;
  }
  p->tty = tty && !quiet;
  p->quiet = quiet;
  return p;
}

void mh_progress_free(mh_progress *p) {
  if (!p)
    return;
  for (size_t i = 0; i < p->n_ops; i++) {
    free(p->ops[i].id);
    free(p->ops[i].label);
  }
  free(p->ops);
  free(p->target);
  free(p);
}

/* The value of key=... among the fields of a wire line (raw, not decoded:
 * this is display only; the real parse happens on the whole stream). */
static const char *field(const char *s, size_t n, const char *key,
                         size_t *vlen) {
  size_t kl = strlen(key);
  for (size_t i = 0; i + kl + 1 <= n; i++) {
    if ((i == 0 || s[i - 1] == ' ') && memcmp(s + i, key, kl) == 0 &&
        s[i + kl] == '=') {
      size_t j = i + kl + 1, e = j;
      while (e < n && s[e] != ' ')
        e++;
      *vlen = e - j;
      return s + j;
    }
  }
  return NULL;
}

static const op_label *find_op(const mh_progress *p, const char *id, size_t n) {
  for (size_t i = 0; i < p->n_ops; i++)
    if (strlen(p->ops[i].id) == n && memcmp(p->ops[i].id, id, n) == 0)
      return &p->ops[i];
  return NULL;
}

static void draw(mh_progress *p, const char *label) {
  if (p->quiet)
    return;
  if (p->tty) {
    char line[256];
    snprintf(line, sizeof line, "%s: %zu/%zu ops%s%s", p->target, p->done,
             p->n_ops, label ? ", " : "", label ? label : "");
    fprintf(stderr, "\r\033[K%.78s", line);
    p->drawn = 1;
  } else if (label) {
    /* Logs get a line at most every LOG_EVERY_S seconds: enough to show
     * life, short enough to read. */
    time_t now = time(NULL);
    if (p->last_line && now - p->last_line < LOG_EVERY_S)
      return;
    p->last_line = now;
    fprintf(stderr, "merlin: %s: %zu/%zu ops done, last %s\n", p->target,
            p->done, p->n_ops, label);
  }
  fflush(stderr);
}

void mh_progress_clear(mh_progress *p) {
  if (p && p->drawn) {
    fputs("\r\033[K", stderr);
    fflush(stderr);
    p->drawn = 0;
  }
}

static void add_op(mh_progress *p, const char *s, size_t n) {
  size_t il, al, ol, bl, yl;
  const char *id = field(s, n, "id", &il), *alg = field(s, n, "alg", &al);
  const char *op = field(s, n, "op", &ol), *be = field(s, n, "backend", &bl);
  const char *by = field(s, n, "bytes", &yl);
  if (!id || !alg || !op || !be)
    return;
  if (p->n_ops == p->cap_ops) {
    size_t cap = p->cap_ops ? p->cap_ops * 2 : 32;
    op_label *no = realloc(p->ops, cap * sizeof *no);
    if (!no)
      return;
    p->ops = no;
    p->cap_ops = cap;
  }
  char label[200];
  if (by && !(yl == 1 && by[0] == '-'))
    snprintf(label, sizeof label, "%.*s %.*s %.*s B (%.*s)", (int)al, alg,
             (int)ol, op, (int)yl, by, (int)bl, be);
  else
    snprintf(label, sizeof label, "%.*s %.*s (%.*s)", (int)al, alg, (int)ol, op,
             (int)bl, be);
  op_label o = {strndup(id, il), strdup(label)};
  if (!o.id || !o.label) {
    free(o.id);
    free(o.label);
    return;
  }
  p->ops[p->n_ops++] = o;
}

void mh_progress_console(mh_progress *p, const char *s, size_t n) {
  if (n && s[n - 1] == '\r')
    n--;
  if (n < 5 || memcmp(s, "@M1 ", 4) != 0)
    return;
  /* "@M1 <seq> <type> ..." */
  const char *t = memchr(s + 4, ' ', n - 4);
  if (!t)
    return;
  t++;
  size_t rest = n - (size_t)(t - s);
  size_t tl = 0;
  while (tl < rest && t[tl] != ' ')
    tl++;
  size_t il;
  const char *id = field(t, rest, "id", &il);
  const op_label *o = id ? find_op(p, id, il) : NULL;
  if (tl == 2 && memcmp(t, "op", 2) == 0) {
    add_op(p, t, rest);
  } else if (tl == 4 && memcmp(t, "plan", 4) == 0 && o) {
    p->current = o->label;
    if (p->tty)
      draw(p, o->label);
  } else if (tl == 5 && memcmp(t, "opend", 5) == 0 && o) {
    p->done++;
    p->current = NULL;
    draw(p, o->label);
  } else if (tl == 7 && memcmp(t, "wfcheck", 7) == 0) {
    p->current = "end-to-end workflows"; /* after the ops (workflows.md) */
    draw(p, p->current);
  }
}

void mh_progress_stderr(mh_progress *p, const char *line, size_t len) {
  int redraw = p->drawn;
  mh_progress_clear(p);
  fprintf(stderr, "%s| %.*s\n", p->target, (int)len, line);
  if (redraw)
    draw(p, p->current);
  fflush(stderr);
}

void mh_progress_console_hook(void *ctx, const char *line, size_t len) {
  mh_progress_console(ctx, line, len);
}

void mh_progress_stderr_hook(void *ctx, const char *line, size_t len) {
  mh_progress_stderr(ctx, line, len);
}
