/* SPDX-License-Identifier: Apache-2.0 */
/* See job.h. */
#include "run/job.h"
#include "util/fsutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The files a run keeps for diagnosis, published from its own directory
 * into the image's build directory when the target's run ends
 * (run/rundir.h): the last run's copies stay where docs/cli.md and
 * docs/constant-time.md say. */
static const char *const KEPT_FILES[] = {
    "console.log", "cycles.side", "ct.side", "ct-console.log", "valgrind.log"};

/* The run's own copy of the built image, in its own directory (opened
 * under bdir on first use): what it executes. NULL with err. */
char *mh_job_own_image(mh_job *tr, const char *bdir, const char *image,
                       char *err, size_t errlen) {
  if (!bdir) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  if (mh_rundir_open(&tr->rd, bdir, err, errlen) != 0)
    return NULL;
  return mh_rundir_image(&tr->rd, image, err, errlen);
}

/* What a target's run leaves behind: its kept files published, its own
 * directory removed; console_copy then names the published console. */
void mh_job_finish_files(mh_job *tr) {
  for (size_t i = 0; tr->rd.dir && i < sizeof KEPT_FILES / sizeof *KEPT_FILES;
       i++) {
    char *kept = mh_rundir_publish(&tr->rd, KEPT_FILES[i]);
    if (kept && i == 0) {
      free(tr->console_copy);
      tr->console_copy = kept;
    } else {
      free(kept);
    }
  }
  mh_rundir_close(&tr->rd);
}

/* Everything a mh_job holds. */
void mh_job_free(mh_job *tr) {
  free(tr->console);
  free(tr->console_copy);
  free(tr->side);
  mh_board_free(&tr->board);
  mh_result_free(&tr->res);
  mh_rundir_close(&tr->rd);
}

/* The build of target run tr: the one place a run turns its options into
 * an mh_build_spec, so that every image of a run (timed, board hint, size
 * tree, constant-time pass, parallel build) is the same build: same
 * compiler and level (matrix row), same test hooks (their own build
 * directory, mh_build_dir), same job count. quiet: no progress lines. */
mh_build_spec mh_job_build_spec(const mh_run_ctx *c, const mh_job *tr,
                                int quiet) {
  mh_build_spec bs = {.root = c->root,
                      .target = tr->t,
                      .profile_name = c->profile_name,
                      .profile = &c->profile,
                      .kat_corrupt = c->o->kat_corrupt,
                      .quiet = quiet,
                      .inject_fault = c->o->inject_fault,
                      .cc = tr->cc,
                      .opt = tr->opt,
                      .build_jobs = c->build_jobs,
                      .impls = &c->impls,
                      .impl_off = tr->impl_off};
  return bs;
}

void mh_op_label(const mh_op *op, char *buf, size_t len) {
  if (op->bytes >= 0)
    snprintf(buf, len, "%s %s %ld B (%s)", op->alg ? op->alg : "?",
             op->op ? op->op : "?", op->bytes, op->backend ? op->backend : "?");
  else
    snprintf(buf, len, "%s %s (%s)", op->alg ? op->alg : "?",
             op->op ? op->op : "?", op->backend ? op->backend : "?");
}

int mh_run_ctx_root(mh_run_ctx *c) {
  char err[1024];
  if (c->root)
    return 0;
  c->root = mh_source_root(err, sizeof err);
  if (!c->root) {
    fprintf(stderr, "merlin: %s\n", err);
    return -1;
  }
  return 0;
}

int mh_run_html_assets(mh_html_assets *a, char *err, size_t errlen) {
  char *root = mh_source_root(err, errlen);
  int rc = root ? mh_html_assets_load(root, a, err, errlen) : -1;
  free(root);
  return rc;
}
