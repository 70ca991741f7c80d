/* SPDX-License-Identifier: Apache-2.0 */
/* The constant-time stage (see stages.h; docs/constant-time.md). */
#include "run/ct_pass.h"
#include "run/progress.h"
#include "run/stages.h"
#include "util/exec.h"
#include "util/fsutil.h"
#include "wire/wire.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The memcheck pass of the constant-time check (--ct, host): the same
 * image again under valgrind with --ct-only; its ct records' error counts
 * join the timed run's operations (same image, same op ids). */
int mh_stage_memcheck(mh_run_ctx *c, mh_job *tr) {
  char err[2048];
#ifdef MERLIN_HOST_SANITIZE
  /* memcheck and ASan cannot share a process: the verdict says so. */
  (void)err;
  if (!c->o->quiet)
    fprintf(stderr, "merlin: %s: no memcheck pass on an ASan image\n",
            tr->label);
  for (size_t i = 0; i < tr->res.run.n_ops; i++)
    tr->res.run.ops[i].ct_asan = 1;
  return 0;
#endif
  mh_build_spec bs = mh_job_build_spec(c, tr, 1);
  char *built = NULL, *image = NULL, *bdir = mh_build_dir(&bs);
  char *log = NULL, *kept = bdir ? mh_path_join(bdir, "valgrind.log") : NULL;
  char logopt[4200];
  if (mh_image_build(&bs, &built, err, sizeof err) != 0 ||
      !(image = mh_job_own_image(tr, bdir, built, err, sizeof err)) ||
      !(log = mh_rundir_file(&tr->rd, "valgrind.log")) || !kept) {
    fprintf(stderr, "merlin: %s: constant-time pass: %s\n", tr->label,
            image && !log ? "out of memory" : err);
    free(built);
    free(image);
    free(bdir);
    free(log);
    free(kept);
    return 1;
  }
  free(built);
  snprintf(logopt, sizeof logopt, "--log-file=%s", log);
  char *argv[] = {"valgrind",
                  "--tool=memcheck",
                  "--error-limit=no",
                  "--error-exitcode=0",
                  "-q",
                  logopt,
                  image,
                  "--ct-only",
                  NULL};
  if (!c->o->quiet)
    fprintf(stderr, "merlin: %s: constant-time pass under valgrind\n",
            tr->label);
  mh_exec_spec spec = {.argv = argv,
                       .cwd = c->root,
                       .timeout_s = c->o->timeout_s,
                       .stall_s = c->o->stall_s,
                       .stdout_fd = -1,
                       .stderr_fd = -1,
                       .max_capture = MH_MAX_CONSOLE_BYTES};
  mh_exec_result res;
  int rc = 1;
  mh_run vr;
  memset(&vr, 0, sizeof vr);
  if (mh_exec(&spec, &res, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: %s: cannot run valgrind: %s\n", tr->label, err);
    goto out;
  }
  mh_wire_error werr;
  if (!res.exited || res.exit_code != 0 || res.timed_out) {
    fprintf(stderr,
            "merlin: %s: the image under valgrind failed (exit %d); see %s\n",
            tr->label, res.exited ? res.exit_code : -1, kept);
  } else if (mh_wire_parse(res.out, res.out_len, &vr, &werr) != 0) {
    fprintf(stderr, "merlin: %s: constant-time pass: stream rejected: %s\n",
            tr->label, werr.msg);
  } else {
    rc = 0;
    for (size_t i = 0; i < vr.n_ops && i < tr->res.run.n_ops; i++) {
      const mh_op *v = &vr.ops[i];
      mh_op *op = &tr->res.run.ops[i];
      if (v->id != op->id || strcmp(v->alg, op->alg) != 0 ||
          strcmp(v->op, op->op) != 0 || strcmp(v->backend, op->backend) != 0) {
        fprintf(stderr,
                "merlin: %s: the valgrind pass announced other "
                "operations\n",
                tr->label);
        rc = 1;
        break;
      }
      if (v->has_ct && v->ct_vg >= 0 && op->has_ct)
        op->ct_vg = v->ct_vg;
    }
  }
  mh_exec_result_free(&res);
out:
  mh_run_free(&vr);
  free(image);
  free(bdir);
  free(log);
  free(kept);
  return rc;
}

/* The pass itself, with progress as for the timed run (the pass of a slow
 * profile runs for many minutes: docs/cli.md, "Progress"); its durations
 * are recorded apart from the timed run's, so the next pass says what to
 * expect. */
static int ct_pass_run(mh_run_ctx *c, mh_job *tr, const char *image,
                       const char *bdir, char *err, size_t errlen) {
  const mh_run_opts *o = c->o;
  mh_progress *pr =
      mh_progress_new(tr->label, isatty(STDERR_FILENO), o->quiet && !o->board);
  char *rec = mh_path_join(bdir, "ct-durations.txt");
  if (!pr || !rec) {
    mh_progress_free(pr);
    free(rec);
    snprintf(err, errlen, "out of memory");
    return 1;
  }
  if (tr->jobs_board)
    mh_progress_under_board(pr, tr->jobs_board, tr->jobs_i);
  mh_progress_ct_pass(pr);
  mh_progress_record(pr, rec, "ct-only trace");
  free(rec);
  mh_ct_pass p = {tr->t,
                  image,
                  tr->rd.dir,
                  c->root,
                  o->timeout_s,
                  o->stall_s,
                  {pr, mh_progress_console_hook, mh_progress_stderr_hook,
                   mh_progress_tick_hook}};
  int rc = mh_ct_qemu_pass(&p, &tr->res.run, err, errlen) == 0 ? 0 : 1;
  mh_progress_clear(pr);
  if (rc == 0)
    mh_progress_save(pr); /* best effort: only a guide for the next pass */
  mh_progress_free(pr);
  return rc;
}

/* The constant-time pass of a QEMU target (--ct): the same image again
 * with --ct-only under the plugin's trace (run/ct_pass.h); the timed run is
 * left as it was. */
int mh_stage_qemu_ct(mh_run_ctx *c, mh_job *tr) {
  char err[2048];
  mh_build_spec bs = mh_job_build_spec(c, tr, 1);
  char *built = NULL, *image = NULL, *bdir = mh_build_dir(&bs);
  int rc = 1;
  if (!bdir)
    snprintf(err, sizeof err, "out of memory");
  else if (mh_image_build(&bs, &built, err, sizeof err) == 0 &&
           (image = mh_job_own_image(tr, bdir, built, err, sizeof err)) !=
               NULL) {
    if (!c->o->quiet)
      fprintf(stderr, "merlin: %s: constant-time pass under the QEMU plugin\n",
              tr->label);
    rc = ct_pass_run(c, tr, image, bdir, err, sizeof err);
  }
  if (rc)
    fprintf(stderr, "merlin: %s: constant-time pass: %s\n", tr->label, err);
  free(built);
  free(image);
  free(bdir);
  return rc;
}

int mh_stage_judge_ct(mh_run_ctx *c, mh_job *tr) {
  char err[1024];
  if (!c->ct_list_loaded) {
    if (mh_ct_list_load(c->root, &c->ct_list, err, sizeof err) != 0) {
      fprintf(stderr, "merlin: %s\n", err);
      return 1;
    }
    c->ct_list_loaded = 1;
  }
  for (size_t i = 0; i < tr->res.run.n_ops; i++)
    if (mh_ct_judge(&tr->res.run, &tr->res.run.ops[i], &c->ct_list) != 0) {
      fprintf(stderr, "merlin: out of memory\n");
      return 1;
    }
  return 0;
}
