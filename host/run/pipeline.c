/* SPDX-License-Identifier: Apache-2.0 */
/* The run pipeline (see pipeline.h): every job of a plan's slice through
 * the stages of stages.def (mh_stages[]), on one thread or many. */
#include "run/pipeline.h"
#include "run/jobs.h"
#include "run/stages.h"
#include "util/exec.h"
#include "util/fsutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int mh_stage_repeat(mh_run_ctx *c, mh_job *tr) {
  unsigned k = c->o->repeat;
  mh_run *run = &tr->res.run;
  for (size_t i = 0; i < run->n_ops; i++) {
    mh_op *op = &run->ops[i];
    op->n_repeat = 1;
    op->repeat_min = op->repeat_max = op->stats.median;
  }
  for (unsigned r = 1; r < k; r++) {
    mh_job rep;
    memset(&rep, 0, sizeof rep);
    rep.t = tr->t;
    rep.cc = tr->cc;
    rep.opt = tr->opt;
    rep.ctx = tr->ctx;
    memcpy(rep.label, tr->label, sizeof rep.label);
    if (!c->o->quiet)
      fprintf(stderr, "merlin: %s: repeat %u of %u\n", tr->label, r + 1, k);
    int rc = mh_stage_check(c, &rep);
    if (rc == 0 && rep.res.run.n_ops != run->n_ops) {
      fprintf(stderr, "merlin: %s: repeat %u announced other operations\n",
              tr->label, r + 1);
      rc = 1;
    }
    for (size_t i = 0; rc == 0 && i < run->n_ops; i++) {
      mh_op *op = &run->ops[i];
      double m = rep.res.run.ops[i].stats.median;
      op->n_repeat++;
      op->repeat_min = m < op->repeat_min ? m : op->repeat_min;
      op->repeat_max = m > op->repeat_max ? m : op->repeat_max;
    }
    mh_job_free(&rep);
    if (rc != 0)
      return rc;
  }
  return 0;
}

/* Whether job tr runs each stage: stages.def's when column. */
#define MH_STAGE(id, fn, when, when_text, files, reads, writes)                \
  static int when_##id(mh_run_ctx *c, const mh_job *tr) {                      \
    (void)c;                                                                   \
    (void)tr;                                                                  \
    return when;                                                               \
  }
#include "run/stages.def"
#undef MH_STAGE

const mh_stage mh_stages[] = {
#define MH_STAGE(id, fn, when, when_text, files, reads, writes)                \
  {#id, fn, when_##id, when_text, files, reads, writes},
#include "run/stages.def"
#undef MH_STAGE
};
const size_t mh_n_stages = sizeof mh_stages / sizeof *mh_stages;

/* Job tr through the stages, in order, until one fails; its files then
 * published (job.h). */
static int run_target(mh_run_ctx *c, mh_job *tr) {
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < mh_n_stages; i++)
    if (mh_stages[i].when(c, tr))
      rc = mh_stages[i].run(c, tr);
  mh_job_finish_files(tr);
  if (rc == 1 && tr->console_copy)
    fprintf(stderr, "merlin: %s: raw console kept in %s\n", tr->label,
            mh_path_display(c->root, tr->console_copy));
  return rc;
}

/* -j: the jobs of a run on threads (host/run/jobs.c). */
typedef struct {
  mh_job *const *jobs;
  mh_jobboard *board;
} pool_ctx;

static int build_job(void *arg, size_t i) {
  pool_ctx *pc = arg;
  mh_job *tr = pc->jobs[i];
  mh_run_ctx *c = tr->ctx;
  char err[2048];
  mh_jobboard_set(pc->board, i, MH_JOB_BUILDING);
  mh_build_spec bs = mh_job_build_spec(c, tr, 1);
  char *image = NULL;
  if (mh_image_build(&bs, &image, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: %s: build failed: %s\n", tr->label, err);
    mh_jobboard_set(pc->board, i, MH_JOB_FAILED);
    return mh_exec_signal_received() ? 130 : 1;
  }
  free(image);
  mh_jobboard_set(pc->board, i, MH_JOB_BUILT);
  return 0;
}

static int run_job(void *arg, size_t i) {
  pool_ctx *pc = arg;
  mh_job *tr = pc->jobs[i];
  mh_jobboard_set(pc->board, i, MH_JOB_RUNNING);
  tr->jobs_board = pc->board;
  tr->jobs_i = i;
  int rc = run_target(tr->ctx, tr);
  tr->jobs_board = NULL;
  mh_jobboard_set(pc->board, i, rc == 0 ? MH_JOB_DONE : MH_JOB_FAILED);
  return rc;
}

/* Every image built in parallel; then the QEMU runs in parallel (-icount
 * counts do not depend on the load); then the host runs one at a time with
 * nothing else running (their wall-clock timings do). */
static int run_parallel(mh_job *const *trs, size_t n, unsigned workers,
                        unsigned stall_s, int quiet) {
  char **labels = calloc(n, sizeof *labels);
  size_t *qemu = calloc(n, sizeof *qemu), *native = calloc(n, sizeof *native);
  size_t *all = calloc(n, sizeof *all), nq = 0, nn = 0;
  int rc = 1;
  mh_jobboard *board = NULL;
  for (size_t i = 0; labels && i < n; i++) {
    char buf[256];
    if (trs[i]->cc)
      snprintf(buf, sizeof buf, "%s %s %s -%s", trs[i]->t->id,
               trs[i]->ctx->profile_name, trs[i]->cc, trs[i]->opt);
    else
      snprintf(buf, sizeof buf, "%s %s", trs[i]->t->id,
               trs[i]->ctx->profile_name);
    if (!(labels[i] = strdup(buf)))
      goto out;
  }
  if (!labels || !qemu || !native || !all ||
      !(board = mh_jobboard_new(n, (const char *const *)labels,
                                isatty(STDERR_FILENO), quiet)))
    goto out;
  for (size_t i = 0; i < n; i++) {
    all[i] = i;
    if (trs[i]->t->kind == MH_EXEC_NATIVE)
      native[nn++] = i;
    else
      qemu[nq++] = i;
  }
  if (!quiet)
    fprintf(stderr,
            "merlin: %zu image(s) on %u parallel jobs; host images run "
            "one at a time, after the rest; limit: %u s without a console "
            "line (--stall)\n",
            n, workers, stall_s);
  pool_ctx pc = {trs, board};
  rc = mh_jobs_run(all, n, workers, build_job, &pc);
  if (rc == 0)
    rc = mh_jobs_run(qemu, nq, workers, run_job, &pc);
  if (rc == 0)
    rc = mh_jobs_run(native, nn, 1, run_job, &pc);
  mh_jobboard_free(board);
  board = NULL;
out:
  if (rc == 1 && (!labels || !qemu || !native || !all))
    fprintf(stderr, "merlin: out of memory\n");
  mh_jobboard_free(board);
  for (size_t i = 0; labels && i < n; i++)
    free(labels[i]);
  free(labels);
  free(qemu);
  free(native);
  free(all);
  return rc;
}

int mh_pipeline_jobs(const mh_run_opts *o, mh_job *const *jobs, size_t n,
                     int parallel, unsigned workers) {
  int rc = 0;
  if (parallel && n > 0)
    return run_parallel(jobs, n, workers, o->stall_s, o->quiet);
  for (size_t i = 0; rc == 0 && i < n; i++)
    rc = run_target(jobs[i]->ctx, jobs[i]);
  return rc;
}
