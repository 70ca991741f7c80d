/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin run` after its command line (see plan_run.h): the plan, this
 * process's slice of it, every job of the slice through the run pipeline
 * (run/pipeline.h), then the summaries and the results directory. */
#include "plan/plan_run.h"
#include "impl/impl_record.h"
#include "model/results_dir.h"
#include "plan/plan.h"
#include "report/html_page.h"
#include "report/summary.h"
#include "run/jobs.h"
#include "run/pipeline.h"
#include "run/stages.h"
#include "util/exec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int mh_plan_run(const mh_run_opts *o) {
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
  if (rc == 0)
    rc = mh_pipeline_jobs(o, mine, n, parallel, workers);
  rc = plan_finish(&pl, mine, n, rc);
out:
  free(mine);
  mh_plan_free(&pl);
  return rc;
}
