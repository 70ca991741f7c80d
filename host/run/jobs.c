/* SPDX-License-Identifier: Apache-2.0 */
#include "run/jobs.h"
#include "util/exec.h"
#include "util/term.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const STATE_NAMES[] = {"waiting", "building", "built",
                                          "running", "done",     "FAILED"};

struct mh_jobboard {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  pthread_t ticker;
  int ticking, stop;
  size_t n;
  char **labels;
  mh_job_state *state;
  double *since; /* when each job entered its state */
  char **note;   /* what each running job does now, or NULL */
  double t0;
  int tty, quiet;
  int drawn; /* the summary line is on the screen */
};

/* The summary line (tty only), within the terminal's width; mu held. */
static void draw(mh_jobboard *b) {
  size_t count[6] = {0};
  for (size_t i = 0; i < b->n; i++)
    count[b->state[i]]++;
  char line[512], fit[512] = "";
  int at = snprintf(line, sizeof line, "merlin:");
  static const mh_job_state shown[] = {MH_JOB_BUILDING, MH_JOB_RUNNING,
                                       MH_JOB_FAILED};
  for (size_t k = 0; k < 3 && at > 0 && (size_t)at < sizeof line; k++)
    if (count[shown[k]])
      at += snprintf(line + at, sizeof line - (size_t)at, " %zu %s,",
                     count[shown[k]], STATE_NAMES[shown[k]]);
  if (at > 0 && (size_t)at < sizeof line)
    at +=
        snprintf(line + at, sizeof line - (size_t)at, " %zu/%zu done (%.0f s)",
                 count[MH_JOB_DONE], b->n, mh_now_s() - b->t0);
  for (size_t i = 0; i < b->n && at > 0 && (size_t)at < sizeof line; i++)
    if (b->note[i] && b->state[i] == MH_JOB_RUNNING)
      at += snprintf(line + at, sizeof line - (size_t)at, " · %s: %s",
                     b->labels[i], b->note[i]);
  mh_term_fit(fit, sizeof fit, line, mh_term_columns() - 1);
  mh_term_clear_line();
  fputs(fit, stderr);
  fflush(stderr);
  b->drawn = 1;
}

static void *tick(void *arg) {
  mh_jobboard *b = arg;
  pthread_mutex_lock(&b->mu);
  while (!b->stop) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += 1;
    pthread_cond_timedwait(&b->cv, &b->mu, &ts);
    if (!b->stop)
      draw(b);
  }
  pthread_mutex_unlock(&b->mu);
  return NULL;
}

mh_jobboard *mh_jobboard_new(size_t n, const char *const *labels, int tty,
                             int quiet) {
  mh_jobboard *b = calloc(1, sizeof *b);
  if (!b)
    return NULL;
  b->n = n;
  b->labels = calloc(n ? n : 1, sizeof *b->labels);
  b->state = calloc(n ? n : 1, sizeof *b->state);
  b->since = calloc(n ? n : 1, sizeof *b->since);
  b->note = calloc(n ? n : 1, sizeof *b->note);
  b->tty = tty && !quiet;
  b->quiet = quiet;
  b->t0 = mh_now_s();
  int ok = b->labels && b->state && b->since && b->note;
  for (size_t i = 0; ok && i < n; i++) {
    ok = (b->labels[i] = strdup(labels[i])) != NULL;
    b->since[i] = b->t0;
  }
  pthread_mutex_init(&b->mu, NULL);
  pthread_cond_init(&b->cv, NULL);
  if (ok && b->tty)
    b->ticking = pthread_create(&b->ticker, NULL, tick, b) == 0;
  if (!ok) {
    mh_jobboard_free(b);
    return NULL;
  }
  return b;
}

void mh_jobboard_set(mh_jobboard *b, size_t i, mh_job_state s) {
  if (!b || i >= b->n)
    return;
  pthread_mutex_lock(&b->mu);
  double t = mh_now_s(), dt = t - b->since[i];
  mh_job_state old = b->state[i];
  b->state[i] = s;
  b->since[i] = t;
  free(b->note[i]);
  b->note[i] = NULL;
  if (!b->quiet && s != old) {
    if (b->drawn)
      mh_term_clear_line();
    fprintf(stderr, "merlin: [%*zu/%zu] %s: %s", b->n >= 10 ? 2 : 1, i + 1,
            b->n, b->labels[i], STATE_NAMES[s]);
    if (old == MH_JOB_BUILDING || old == MH_JOB_RUNNING)
      fprintf(stderr, " (%s %.1f s)",
              old == MH_JOB_BUILDING ? "built in" : "ran", dt);
    fputc('\n', stderr);
    b->drawn = 0;
    if (b->tty)
      draw(b);
  }
  pthread_mutex_unlock(&b->mu);
}

void mh_jobboard_note(mh_jobboard *b, size_t i, const char *text) {
  if (!b || i >= b->n)
    return;
  char *copy = text ? strdup(text) : NULL;
  pthread_mutex_lock(&b->mu);
  free(b->note[i]);
  b->note[i] = copy;
  pthread_mutex_unlock(&b->mu);
}

void mh_jobboard_free(mh_jobboard *b) {
  if (!b)
    return;
  if (b->ticking) {
    pthread_mutex_lock(&b->mu);
    b->stop = 1;
    pthread_cond_signal(&b->cv);
    pthread_mutex_unlock(&b->mu);
    pthread_join(b->ticker, NULL);
  }
  if (b->drawn)
    mh_term_clear_line();
  for (size_t i = 0; b->labels && i < b->n; i++)
    free(b->labels[i]);
  for (size_t i = 0; b->note && i < b->n; i++)
    free(b->note[i]);
  free(b->note);
  free(b->labels);
  free(b->state);
  free(b->since);
  pthread_mutex_destroy(&b->mu);
  pthread_cond_destroy(&b->cv);
  free(b);
}

typedef struct {
  pthread_mutex_t mu;
  const size_t *idx;
  size_t n, next;
  int rc;
  int (*fn)(void *ctx, size_t i);
  void *ctx;
} pool;

static void *worker(void *arg) {
  pool *p = arg;
  for (;;) {
    pthread_mutex_lock(&p->mu);
    if (p->rc != 0 || p->next >= p->n) {
      pthread_mutex_unlock(&p->mu);
      return NULL;
    }
    size_t i = p->idx[p->next++];
    pthread_mutex_unlock(&p->mu);
    int rc = p->fn(p->ctx, i);
    if (rc != 0) {
      pthread_mutex_lock(&p->mu);
      if (p->rc == 0 || rc == 130)
        p->rc = rc;
      pthread_mutex_unlock(&p->mu);
    }
  }
}

int mh_jobs_run(const size_t *idx, size_t n, unsigned workers,
                int (*fn)(void *ctx, size_t i), void *ctx) {
  pool p = {.idx = idx, .n = n, .fn = fn, .ctx = ctx};
  pthread_mutex_init(&p.mu, NULL);
  if (workers > n)
    workers = (unsigned)n;
  pthread_t *th = calloc(workers ? workers : 1, sizeof *th);
  unsigned started = 0;
  for (unsigned w = 0; th && w < workers; w++)
    if (pthread_create(&th[w], NULL, worker, &p) == 0)
      started++;
    else
      break;
  if (!started) /* no thread at all: run them here */
    worker(&p);
  for (unsigned w = 0; w < started; w++)
    pthread_join(th[w], NULL);
  free(th);
  pthread_mutex_destroy(&p.mu);
  return p.rc;
}

unsigned mh_jobs_default(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (unsigned)n : 1u;
}
