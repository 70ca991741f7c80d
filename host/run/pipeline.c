/* SPDX-License-Identifier: Apache-2.0 */
/* The run pipeline (see pipeline.h): every job of the plan through the
 * stages of stages.h, on one thread or many. */
#include "run/pipeline.h"
#include "impl/impl_record.h"
#include "model/results_dir.h"
#include "report/format.h"
#include "report/html_page.h"
#include "report/summary.h"
#include "run/jobs.h"
#include "run/plan.h"
#include "run/stages.h"
#include "util/exec.h"
#include "util/fsutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --repeat K: K-1 more runs of the same image, each a fresh process (a
 * "power cycle" of the target); the spread of each operation's median
 * across the K runs goes into the first run's operations. */
static int repeat_runs(mh_run_ctx *c, mh_job *tr) {
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

static int run_target(mh_run_ctx *c, mh_job *tr) {
  int rc = mh_stage_check(c, tr);
  if (rc == 0 && c->o->repeat > 1 && !c->o->from && !c->o->kat_only)
    rc = repeat_runs(c, tr);
  if (rc == 0 && c->o->ct && tr->t->kind == MH_EXEC_NATIVE)
    rc = mh_stage_memcheck(c, tr);
  if (rc == 0 && c->o->ct && tr->t->kind == MH_EXEC_QEMU && !c->o->from &&
      !c->o->kat_only)
    rc = mh_stage_qemu_ct(c, tr);
  if (rc == 0 && !c->o->kat_only && mh_run_ctx_root(c) == 0)
    rc = mh_stage_judge_ct(c, tr);
  if (rc == 0 && !c->o->from && !c->o->port && !c->o->kat_only &&
      !c->o->no_sizes) {
    mh_jobboard_note(tr->jobs_board, tr->jobs_i,
                     "code sizes, an image per algorithm");
    rc = mh_stage_costs(c, tr);
  }
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

/* The headline of the jobs' results on stdout (report/summary.h). */
static void print_headline(mh_job *const *jobs, size_t n) {
  mh_result *runs = calloc(n ? n : 1, sizeof *runs);
  for (size_t i = 0; runs && i < n; i++)
    runs[i] = jobs[i]->res;
  mh_results r = {.runs = runs, .n_runs = n};
  char *text = runs ? mh_report_summary(&r) : NULL;
  if (text)
    fputs(text, stdout);
  free(text);
  free(runs);
}

/* --kat-only: what passed, per target (check_run already named failures). */
static void print_kat_summary(const mh_job *tr) {
  const mh_run *run = &tr->res.run;
  printf("%s (profile %s): known-answer tests\n", tr->res.target,
         tr->res.profile);
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *op = &run->ops[i];
    char label[256];
    mh_op_label(op, label, sizeof label);
    printf("  %-52s %s\n", label, op->kat == MH_KAT_PASS ? "pass" : "FAIL");
  }
  printf("  %zu operations, every KAT passed\n", run->n_ops);
  if (run->n_wfs) /* docs/workflows.md: checked, not timed */
    printf("  %zu workflow instances checked end to end (same key on both "
           "sides, every signature and tag)\n",
           run->n_wfs);
}

/* The folders left out of an image, named on stderr: MH_EXIT_LEFT_OUT when
 * any, else 0 (docs/cli.md, "Exit status"). */
static int left_out_status(mh_job *const *jobs, size_t n) {
  size_t out = 0;
  for (size_t i = 0; i < n; i++)
    out += mh_impl_print_left_out(NULL, &jobs[i]->res, jobs[i]->label);
  if (!out)
    return 0;
  fprintf(stderr,
          "merlin: %zu implementation folder(s) left out (exit status %d; "
          "report.md, Implementation folders):\n",
          out, MH_EXIT_LEFT_OUT);
  for (size_t i = 0; i < n; i++)
    mh_impl_print_left_out(stderr, &jobs[i]->res, jobs[i]->label);
  return MH_EXIT_LEFT_OUT;
}

/* After the runs: summaries and results (rc 0), or why nothing was
 * written. Returns the exit status. */
static int plan_finish(const mh_plan *pl, mh_job *const *mine, size_t n,
                       int rc) {
  const mh_run_opts *o = pl->o;
  if (rc == 0 && o->kat_only) {
    if (!o->quiet)
      for (size_t i = 0; i < n; i++)
        print_kat_summary(mine[i]);
    printf("merlin: known-answer tests passed on %zu image(s); nothing timed, "
           "no results written\n",
           n);
    rc = left_out_status(mine, n);
  } else if (rc == 0) {
    if (!o->quiet)
      print_headline(mine, n);
    /* The summary must have reached stdout before anything is written. */
    mh_plan_ref ref = mh_plan_ref_of(pl);
    if (fflush(stdout) != 0 || ferror(stdout)) {
      fprintf(stderr, "merlin: cannot write the summary to stdout: %s\n",
              strerror(errno));
      rc = 1;
    } else {
      rc = mh_stage_write(o, mine, n, &ref);
    }
    if (rc != 0)
      fprintf(stderr, "merlin: no results written\n");
    else
      rc = left_out_status(mine, n);
  } else if (rc != 2) {
    /* Interrupted anywhere (a build, a target, a read): 130, as
     * documented, whatever the interrupted call returned. */
    if (mh_exec_signal_received())
      rc = 130;
    size_t kat_failed = 0;
    for (size_t i = 0; i < n; i++)
      for (size_t k = 0; k < mine[i]->res.run.n_ops; k++)
        kat_failed += mine[i]->res.run.ops[k].kat == MH_KAT_FAIL;
    if (rc == 130)
      fprintf(stderr, "merlin: interrupted; no results written\n");
    else if (o->kat_only && kat_failed)
      fprintf(stderr,
              "merlin: known-answer tests failed (%zu operation(s)); no "
              "results written\n",
              kat_failed);
    else
      fprintf(stderr, "merlin: %s failed; no results written\n",
              o->kat_only ? "known-answer run" : "run");
  }
  if (rc == 2 && mh_exec_signal_received())
    rc = 130;
  return rc;
}

/* The plan, its slice (--shard, --plan) and what the slice's jobs need;
 * *mine the jobs this process runs. 0, or an exit status (reported). */
static int plan_all(mh_plan *pl, const mh_run_opts *o, int parallel,
                    unsigned workers, mh_job ***mine, size_t *n) {
  char err[2048];
  int rc = 0;
  for (size_t p = 0; rc == 0 && p < pl->n_prof; p++)
    rc = mh_plan_profile(pl, p, parallel, workers);
  if (rc == 0 && o->plan_file &&
      mh_plan_parts_from_file(pl, o->plan_file, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: --plan %s\n", err);
    return 2;
  }
  if (rc == 0)
    rc = mh_plan_jobs(pl);
  if (rc == 0 && o->plan_file &&
      mh_plan_adopt(pl, o->plan_file, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: --plan %s\n", err);
    return 2;
  }
  if (rc == 0 && mh_plan_slice(pl, o->shards, o->shard, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: %s\n", err);
    return 2;
  }
  *mine = rc == 0 ? calloc(pl->done ? pl->done : 1, sizeof **mine) : NULL;
  if (rc == 0 && !*mine) {
    fprintf(stderr, "merlin: out of memory\n");
    return 1;
  }
  for (size_t i = 0; rc == 0 && i < pl->done; i++) {
    pl->trs[i].res.job = (long)i;
    if (mh_plan_mine(pl, i))
      (*mine)[(*n)++] = &pl->trs[i];
  }
  if (rc == 0 && o->shards && !o->quiet)
    fprintf(stderr,
            "merlin: plan %.12s: %zu job(s); shard %u/%u runs %zu of them\n",
            pl->hash, pl->done, o->shard, o->shards, *n);
  return rc == 0 ? mh_plan_prepare(pl) : rc;
}

int mh_pipeline_run(const mh_run_opts *o) {
  mh_plan pl = {0};
  mh_job **mine = NULL;
  size_t n = 0;
  int rc = mh_plan_init(&pl, o);
  if (rc != 0)
    goto out;
  /* report.html inlines the charting library: a missing one is said now,
   * before anything is built or run. */
  mh_html_assets assets;
  char err[1024];
  if (!o->kat_only && !o->plan_only &&
      mh_run_html_assets(&assets, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: %s\n", err);
    rc = 1;
    goto out;
  }
  if (!o->kat_only && !o->plan_only)
    mh_html_assets_free(&assets);
  /* an OUT/latest merlin would not replace: said before anything runs */
  char t[64];
  if (!o->kat_only && !o->plan_only &&
      mh_rdir_latest(o->out, t, sizeof t, err, sizeof err) < 0) {
    fprintf(stderr, "merlin: %s\n", err);
    rc = 1;
    goto out;
  }
  mh_exec_install_signal_handlers();
  size_t total = o->n_targets * pl.n_cc * pl.n_opt * pl.n_prof;
  unsigned workers = o->jobs ? o->jobs : mh_jobs_default();
  int parallel = workers > 1 && (total > 1 || o->plan_file) && !o->from;
  if (o->plan_only) {
    for (size_t p = 0; rc == 0 && p < pl.n_prof; p++)
      rc = mh_plan_profile(&pl, p, 0, workers);
    rc = rc == 0 ? mh_plan_write(&pl, o) : rc;
    goto out;
  }
  rc = plan_all(&pl, o, parallel, workers, &mine, &n);
  if (rc == 0 && parallel && n > 0)
    rc = run_parallel(mine, n, workers, o->stall_s, o->quiet);
  else
    for (size_t i = 0; rc == 0 && i < n; i++)
      rc = run_target(mine[i]->ctx, mine[i]);
  rc = plan_finish(&pl, mine, n, rc);
out:
  free(mine);
  mh_plan_free(&pl);
  return rc;
}
