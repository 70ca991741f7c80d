/* SPDX-License-Identifier: Apache-2.0 */
#include "run/progress.h"
#include "run/jobs.h"
#include "util/exec.h"
#include "util/fsutil.h"
#include "util/strbuf.h"
#include "util/term.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Seconds between progress lines when stderr is not a terminal. */
#define LOG_EVERY_S 10
/* An operation running this long is named while it runs. */
#define SLOW_S 15

typedef struct {
  char *id;
  char *label;    /* "sha256 hash 64 B (wolfcrypt)" */
  double seconds; /* wall time it took in this run (0: not finished) */
  double before;  /* wall time it took in the recorded run (0: unknown) */
} op_label;

struct mh_progress {
  char *target;
  int tty, quiet, drawn;
  op_label *ops;
  size_t n_ops, cap_ops, done;
  const char *current; /* label of the operation being timed */
  time_t last_line;    /* when the last non-terminal line was printed */
  /* The operation running now (ops run in announcement order): its index,
   * since when, and what it is doing, from the records seen so far. */
  size_t running;
  int started; /* the announcements are over: operations run */
  double since, start;
  char phase[64];
  char *rec_path, *rec_key; /* the recorded durations of this image */
  mh_jobboard *board;       /* under the job board (mh_progress_under_board) */
  char said[512];           /* the last status line printed (not a tty) */
  size_t board_i;
  int have_total; /* the recorded run is of these options: */
  double total;   /* its duration */
  int ct_pass;    /* the constant-time pass (mh_progress_ct_pass) */
};

static void announce(mh_progress *p);

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
  p->start = p->since = mh_now_s();
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
  free(p->rec_path);
  free(p->rec_key);
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

void mh_progress_ct_pass(mh_progress *p) { p->ct_pass = 1; }

void mh_progress_under_board(mh_progress *p, mh_jobboard *b, size_t i) {
  p->board = b;
  p->board_i = i;
}

/* Start of a plain line: under the job board on a terminal, erase the
 * board's summary line first. */
static void line_start(const mh_progress *p) {
  if (p->board && isatty(STDERR_FILENO))
    mh_term_clear_line();
}

/* The seconds the rest of the run should take: the recorded times of the
 * operations not yet finished less the current one's time so far, else
 * the recorded total less the time so far; < 0 when there is no record. */
static double left_s(const mh_progress *p, double now) {
  double left = 0;
  int all = p->running < p->n_ops;
  for (size_t i = p->running; all && i < p->n_ops; i++) {
    all = p->ops[i].before > 0;
    left += p->ops[i].before;
  }
  if (all)
    left -= now - p->since;
  else if (p->have_total)
    left = p->total - (now - p->start);
  else
    return -1;
  return left > 0 ? left : 0;
}

/* "12/79 operations, now ml-kem-768 keygen (wolfcrypt): samples, 41 s;
 * about 40 s left", or what follows the operations (see progress.h). */
void mh_progress_status(const mh_progress *p, char *buf, size_t len) {
  double now = mh_now_s(), on = now - p->since;
  int at =
      snprintf(buf, len, "%s%zu/%zu operations",
               p->ct_pass ? "constant-time pass, " : "", p->done, p->n_ops);
  if (p->running < p->n_ops && p->started && at > 0 && (size_t)at < len) {
    at += snprintf(buf + at, len - (size_t)at, ", now %s",
                   p->ops[p->running].label);
    if (on >= SLOW_S && at > 0 && (size_t)at < len)
      at += snprintf(buf + at, len - (size_t)at, ": %s, %.0f s", p->phase, on);
  } else if (p->current && at > 0 && (size_t)at < len) {
    at += snprintf(buf + at, len - (size_t)at, ", now %s", p->current);
  }
  double left = p->started ? left_s(p, now) : -1;
  if (left >= 0 && at > 0 && (size_t)at < len)
    snprintf(buf + at, len - (size_t)at, "; about %.0f s left", left);
}

/* Show the status: the updating line on a terminal (the board's under
 * it), else a line when it changed, at most every LOG_EVERY_S seconds. */
static void draw(mh_progress *p) {
  if (p->quiet)
    return;
  char line[512];
  mh_progress_status(p, line, sizeof line);
  if (p->board && isatty(STDERR_FILENO)) {
    mh_jobboard_note(p->board, p->board_i, line);
    return;
  }
  time_t now = time(NULL);
  if (p->tty) {
    if (p->drawn && now == p->last_line)
      return; /* redraw once a second at most */
    char fit[512] = "";
    char full[600];
    snprintf(full, sizeof full, "%s: %s", p->target, line);
    mh_term_fit(fit, sizeof fit, full, mh_term_columns() - 1);
    mh_term_clear_line();
    fputs(fit, stderr);
    p->drawn = 1;
  } else {
    /* a line when something changed, every LOG_EVERY_S at most */
    if ((p->last_line && now - p->last_line < LOG_EVERY_S) ||
        strcmp(line, p->said) == 0)
      return;
    snprintf(p->said, sizeof p->said, "%s", line);
    fprintf(stderr, "merlin: %s: %s\n", p->target, line);
  }
  p->last_line = now;
  fflush(stderr);
}

void mh_progress_clear(mh_progress *p) {
  if (p && p->drawn) {
    mh_term_clear_line();
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
  op_label o = {strndup(id, il), strdup(label), 0, 0};
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
  double now = mh_now_s();
#define IS(w) (tl == sizeof w - 1 && memcmp(t, w, sizeof w - 1) == 0)
  if (IS("op")) {
    add_op(p, t, rest);
  } else if (IS("overhead")) { /* the first operation starts */
    p->started = 1;
    p->since = now;
    snprintf(p->phase, sizeof p->phase, "known-answer test");
    announce(p);
  } else if (IS("kat") && o) {
    snprintf(p->phase, sizeof p->phase, "%s",
             p->ct_pass ? "runs with fresh secrets, traced"
                        : "inputs and first call");
  } else if (IS("plan") && o) {
    size_t nl;
    const char *nv = field(t, rest, "n", &nl);
    int one = nv && nl == 1 && nv[0] == '1';
    snprintf(p->phase, sizeof p->phase, "%.*s sample%s planned", (int)nl,
             nv ? nv : "?", one ? "" : "s");
    p->current = o->label;
    draw(p);
  } else if (IS("samples") && o) {
    snprintf(p->phase, sizeof p->phase, "samples, memory and constant time");
  } else if ((IS("opend") || IS("error")) && o) {
    size_t k = (size_t)(o - p->ops);
    p->ops[k].seconds = now - p->since;
    p->running = k + 1;
    p->since = now;
    snprintf(p->phase, sizeof p->phase, "known-answer test");
    if (IS("opend")) {
      p->done++;
      p->current = NULL;
      draw(p);
    }
  } else if (IS("wfcheck")) {
    p->running = p->n_ops;
    p->current = "end-to-end workflows"; /* after the ops (workflows.md) */
    draw(p);
  }
#undef IS
}

void mh_progress_tick(mh_progress *p) {
  if (p && !p->quiet && p->started)
    draw(p);
}

/* ---- recorded durations ------------------------------------------------ */

int mh_progress_record(mh_progress *p, const char *path, const char *key) {
  free(p->rec_path);
  free(p->rec_key);
  p->rec_path = strdup(path);
  p->rec_key = strdup(key);
  return p->rec_path && p->rec_key ? 0 : -1;
}

int mh_progress_save(const mh_progress *p) {
  if (!p->rec_path || !p->rec_key)
    return -1;
  /* Milliseconds: a short run (a few ms under QEMU) is still a recorded
   * run, and must not read back as 0 s, which means none. Written whole
   * and renamed: two runs of one image may save at once. */
  mh_sb b = {0};
  char err[512];
  mh_sb_printf(&b, "merlin-durations 1\nkey %s\ntotal %.3f\n", p->rec_key,
               mh_now_s() - p->start);
  for (size_t i = 0; i < p->n_ops; i++)
    mh_sb_printf(&b, "op %.3f %s\n", p->ops[i].seconds, p->ops[i].label);
  int rc =
      b.failed ? -1 : mh_write_atomic(p->rec_path, b.s, b.len, err, sizeof err);
  mh_sb_free(&b);
  return rc;
}

/* The recorded total and the options it holds for (held); per-operation
 * times only when those are the options of this run. -1: no record. */
static double load(mh_progress *p, const char *path, const char *key,
                   char *held, size_t held_len) {
  FILE *f = fopen(path, "r");
  if (!f)
    return -1;
  char line[512];
  double total = -1;
  int ok = fgets(line, sizeof line, f) &&
           strcmp(line, "merlin-durations 1\n") == 0 &&
           fgets(line, sizeof line, f) && strncmp(line, "key ", 4) == 0;
  if (ok) {
    line[strcspn(line, "\n")] = '\0';
    snprintf(held, held_len, "%s", line + 4);
  }
  ok = ok && fgets(line, sizeof line, f) &&
       sscanf(line, "total %lf", &total) == 1 && total >= 0;
  while (ok && strcmp(held, key) == 0 && fgets(line, sizeof line, f)) {
    double sec;
    int at = 0;
    if (sscanf(line, "op %lf %n", &sec, &at) != 1 || !at)
      continue;
    line[strcspn(line, "\n")] = '\0';
    for (size_t i = 0; i < p->n_ops; i++)
      if (strcmp(p->ops[i].label, line + at) == 0)
        p->ops[i].before = sec;
  }
  fclose(f);
  return ok ? total : -1;
}

void mh_progress_stderr(mh_progress *p, const char *line, size_t len) {
  int redraw = p->drawn;
  mh_progress_clear(p);
  fprintf(stderr, "%s| %.*s\n", p->target, (int)len, line);
  if (redraw)
    draw(p);
  fflush(stderr);
}

void mh_progress_console_hook(void *ctx, const char *line, size_t len) {
  mh_progress_console(ctx, line, len);
}

void mh_progress_stderr_hook(void *ctx, const char *line, size_t len) {
  mh_progress_stderr(ctx, line, len);
}

void mh_progress_tick_hook(void *ctx) { mh_progress_tick(ctx); }

/* Once the operations are announced: what to expect (docs/cli.md,
 * "Progress"). */
static void announce(mh_progress *p) {
  char held[128] = "";
  double total =
      p->rec_path ? load(p, p->rec_path, p->rec_key, held, sizeof held) : -1;
  p->have_total = total >= 0 && strcmp(held, p->rec_key) == 0;
  p->total = total;
  if (p->quiet)
    return;
  mh_progress_clear(p);
  line_start(p);
  int prec = total < 1 ? 2 : total < 10 ? 1 : 0;
  const char *what = p->ct_pass ? "the constant-time pass: " : "";
  if (p->have_total)
    fprintf(stderr,
            "merlin: %s: %s%zu operations; expected about %.*f s (the "
            "recorded run of this image with these options)\n",
            p->target, what, p->n_ops, prec, total);
  else if (total >= 0)
    fprintf(stderr,
            "merlin: %s: %s%zu operations; the recorded run of this image "
            "took %.*f s with other options (%s), so no expectation for "
            "these (%s)\n",
            p->target, what, p->n_ops, prec, total, held, p->rec_key);
  else
    fprintf(stderr,
            "merlin: %s: %s%zu operations; no recorded run of this image "
            "yet, so no expected time\n",
            p->target, what, p->n_ops);
  fflush(stderr);
}
