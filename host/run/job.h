/* SPDX-License-Identifier: Apache-2.0 */
/* One job of a run's plan: one image on one target, with the profile
 * context it runs (its profile, its implementation folders, the
 * constant-time list), and what every stage of the pipeline shares about
 * it (docs/host.md, "The run pipeline"). */
#ifndef MERLIN_HOST_RUN_JOB_H
#define MERLIN_HOST_RUN_JOB_H

#include "config/boards.h"
#include "config/profile.h"
#include "config/targets.h"
#include "image/image_build.h"
#include "impl/impl.h"
#include "model/results.h"
#include "report/html_page.h"
#include "run/ct.h"
#include "run/run_opts.h"
#include "run/rundir.h"

#include <stddef.h>

/* Largest console stream accepted from a target or a --from file. */
#define MH_MAX_CONSOLE_BYTES ((size_t)256 << 20)

typedef struct mh_run_ctx {
  const mh_run_opts *o;
  mh_ct_list ct_list; /* constant-time/expected-findings.txt */
  int ct_list_loaded;
  char *root; /* source root; NULL with --from until needed */
  char *profile_path, *profile_name;
  mh_profile profile;
  int profile_loaded;
  mh_impl_set impls;   /* the run's implementation folders */
  unsigned build_jobs; /* compile jobs per image build (0: online CPUs) */
  /* A split plan (plan/plan.h, "Parts"): a profile's folders dealt into
   * images of their own. Part 0 is the profile's own context; part k > 0
   * a context whose image holds only the control primitives and its
   * folders, named "<profile>.part<k>", its parent's impls and profile
   * borrowed. elsewhere[i]: folder i is in another part's image (NULL:
   * none is). */
  const struct mh_run_ctx *parent;
  unsigned part;
  unsigned char *elsewhere;
} mh_run_ctx;

typedef struct {
  const mh_target *t;
  const char *cc, *opt; /* matrix row (--cc/--opt), or NULL both */
  char label[160];      /* in messages: the target id, or with the row */
  mh_run_ctx *ctx;      /* the profile it runs */
  char *console;        /* the raw captured stream */
  size_t console_len;
  char *console_copy; /* where mh_stage_execute() kept it for diagnosis, or NULL
                       */
  mh_result res;
  char *side;          /* the cycle plugin's side file, or NULL (cycles.h) */
  const char *cyc_why; /* why the plugin runs without a model, or NULL */
  /* The run's implementation folders left out of this target's image
   * (impl_off[i]) and why (impl_why[i]): not built, does not fit. */
  unsigned char *impl_off;
  char **impl_why;
  char build_err[2048]; /* a failed build's message, when deferred */
  char exec_why[160];   /* how the image's run ended, when it hung */
  mh_board board;       /* --board: the part modelled (board_model.h) */
  int has_board;
  mh_rundir rd; /* this run's own files (run/rundir.h) */
  /* -j: the job board it runs under and its place there (run/jobs.h), or
   * NULL: its progress goes on the board's line. */
  struct mh_jobboard *jobs_board;
  size_t jobs_i;
} mh_job;

/* The build of job tr: the one place a run turns its options into an
 * mh_build_spec, so that every image of a job (timed, board hint, size
 * tree, constant-time pass, parallel build) is the same build: same
 * compiler and level (matrix row), same test hooks (their own build
 * directory, mh_build_dir), same job count. quiet: no progress lines. */
mh_build_spec mh_job_build_spec(const mh_run_ctx *c, const mh_job *tr,
                                int quiet);

/* The source root into c->root (found once); 0, or -1 (reported). */
int mh_run_ctx_root(mh_run_ctx *c);

/* "alg op [N B] (backend)", an operation in messages and summaries. */
void mh_op_label(const mh_op *op, char *buf, size_t len);

/* The job's own copy of the built image, in its own directory (opened
 * under bdir on first use, run/rundir.h): what it executes. NULL with
 * err. */
char *mh_job_own_image(mh_job *tr, const char *bdir, const char *image,
                       char *err, size_t errlen);

/* What a job leaves behind: its kept files published into the build
 * directory, its own directory removed; console_copy then names the
 * published console. */
void mh_job_finish_files(mh_job *tr);

/* The charting library, script and style an HTML page inlines, from the
 * source root (report/html_page.h). 0, or -1 with err. */
int mh_run_html_assets(mh_html_assets *a, char *err, size_t errlen);

/* Everything a job holds (not the job itself). */
void mh_job_free(mh_job *tr);

#endif
