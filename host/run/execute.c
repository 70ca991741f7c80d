/* SPDX-License-Identifier: Apache-2.0 */
/* The execute stage (see stages.h): QEMU or the host image, with the
 * cycle plugin, hang and size bounds, and the folders to blame. */
#include "impl/impl_culprit.h"
#include "run/board_model.h"
#include "run/cycles.h"
#include "run/progress.h"
#include "run/stages.h"
#include "util/exec.h"
#include "util/fsutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* QEMU timed runs: load the cycle plugin (docs/cycle-model.md), which
 * writes its side file next to the build. Returns 0, or 1 (reported). */
static int plugin_args(mh_run_ctx *c, mh_job *tr, const char *image,
                       char ***argv) {
  const mh_run_opts *o = c->o;
  if (tr->t->kind != MH_EXEC_QEMU || o->kat_only || !o->cycle_model ||
      strcmp(o->cycle_model, "off") == 0)
    return 0;
  char err[1024];
  char *so = mh_cycles_plugin_path(err, sizeof err);
  free(tr->side);
  tr->side = so ? mh_rundir_file(&tr->rd, "cycles.side") : NULL;
  if (!so || !tr->side) {
    fprintf(stderr, "merlin: %s: %s\n", tr->t->id, so ? "out of memory" : err);
    free(so);
    return 1;
  }
  unlink(tr->side); /* never read a stale one */
  const char *model =
      mh_cycles_model_arg(tr->t->id, o->cycle_model, &tr->cyc_why);
  char *mem = NULL;
  if (o->part && !tr->has_board) {
    if (mh_run_ctx_root(c) != 0 ||
        mh_board_model_load(c->root, o->part, tr->t->id, &tr->board, err,
                            sizeof err) != 0) {
      fprintf(stderr, "merlin: %s: %s\n", tr->t->id, err);
      free(so);
      return 1;
    }
    tr->has_board = 1;
  }
  if (tr->has_board &&
      !(mem = mh_board_model_args(&tr->board, image, err, sizeof err))) {
    fprintf(stderr, "merlin: %s: --board %s: %s\n", tr->t->id, o->part, err);
    free(so);
    return 1;
  }
  char **with =
      mh_cycles_argv(*argv, so, image, tr->side, model, o->flash_ws, mem);
  free(mem);
  free(so);
  *argv = with; /* mh_cycles_argv freed the old one when it failed */
  if (!with) {
    fprintf(stderr, "merlin: out of memory\n");
    return 1;
  }
  return 0;
}

/* The exit status of mh_stage_execute() for how the image ended, reported. */
static int exec_outcome(const mh_run_opts *o, const mh_job *tr,
                        const mh_exec_result *r) {
  int rc = 0;
  if (r->cancelled) {
    fprintf(stderr, "merlin: %s: interrupted\n", tr->label);
    rc = 130;
  } else if (r->timed_out) {
    fprintf(stderr,
            "merlin: %s: target did not finish within %u s (--timeout)\n",
            tr->label, o->timeout_s);
    rc = 1;
  } else if (r->stalled) {
    fprintf(stderr,
            "merlin: %s: target hung: no console line for %u s (--stall; "
            "raise it for an operation whose single call runs longer)\n",
            tr->label, o->stall_s);
    rc = 1;
  } else if (r->overflow) {
    fprintf(stderr,
            "merlin: %s: console output exceeded %zu bytes; killed it\n",
            tr->label, (size_t)MH_MAX_CONSOLE_BYTES);
    rc = 1;
  } else if (!r->exited) {
    fprintf(stderr, "merlin: %s: image killed by signal %d (%s)\n", tr->label,
            r->term_signal, strsignal(r->term_signal));
    rc = 1;
  } else if (r->exit_code != 0) {
    /* Parse anyway (the caller does): the stream usually says why. */
    fprintf(stderr, "merlin: %s: image exited with status %d\n", tr->label,
            r->exit_code);
    rc = 2;
  } else if (!o->quiet) {
    fprintf(stderr, "merlin: %s: finished in %.1f s\n", tr->label, r->seconds);
  }
  return rc;
}

/* "running (...)" with the limits a hang is judged by, said once. */
static void announce_run(const mh_run_opts *o, const mh_job *tr) {
  char bounds[128];
  if (o->timeout_s)
    snprintf(bounds, sizeof bounds,
             "limits: %u s without a console line (--stall), %u s in all "
             "(--timeout)",
             o->stall_s, o->timeout_s);
  else
    snprintf(bounds, sizeof bounds,
             "limit: %u s without a console line (--stall)", o->stall_s);
  if (!o->quiet && o->kat_only)
    fprintf(stderr, "merlin: %s: running known-answer tests only (%s)\n",
            tr->label, bounds);
  else if (!o->quiet)
    fprintf(stderr, "merlin: %s: running (%u runs, %u warm-up; %s)\n",
            tr->label, o->runs, o->warmup, bounds);
}

/* Build and execute the image once; fills tr->console. Returns 0 when the
 * image ran and exited 0, 2 when it exited non-zero (its stream may say
 * why), 1 when it failed otherwise (reported; *built 0:
 * the build), 130 when interrupted. */
static int execute_once(mh_run_ctx *c, mh_job *tr, int *built) {
  const mh_run_opts *o = c->o;
  const mh_target *t = tr->t;
  char err[2048];
  mh_build_spec bs = mh_job_build_spec(c, tr, o->quiet);
  char *image = NULL;
  *built = 0;
  bs.defer_log = c->impls.n > 0; /* mh_stage_execute() may blame a folder */
  if (mh_image_build(&bs, &image, err, sizeof err) != 0) {
    if (!bs.defer_log)
      fprintf(stderr, "merlin: %s: build failed: %s\n", tr->label, err);
    else
      snprintf(tr->build_err, sizeof tr->build_err, "%s", err);
    return mh_exec_signal_received() ? 130 : 1;
  }
  *built = 1;
  char *bdir = mh_build_dir(&bs), key[96];
  char *own = mh_job_own_image(tr, bdir, image, err, sizeof err);
  free(image);
  if (!own) {
    fprintf(stderr, "merlin: %s: %s\n", tr->label, err);
    free(bdir);
    return 1;
  }
  image = own;
  char **argv = mh_target_argv(t, image, o->runs, o->warmup);
  if (argv && plugin_args(c, tr, image, &argv) != 0) {
    mh_argv_free(argv); /* plugin_args leaves it to us when it fails */
    free(image);
    free(bdir);
    return 1;
  }
  int tty = isatty(STDERR_FILENO);
  mh_progress *pr = mh_progress_new(tr->label, tty, o->quiet && !o->board);
  if (pr && tr->jobs_board)
    mh_progress_under_board(pr, tr->jobs_board, tr->jobs_i);
  free(image);
  if (!argv || !pr) {
    mh_argv_free(argv);
    mh_progress_free(pr);
    free(bdir);
    fprintf(stderr, "merlin: out of memory\n");
    return 1;
  }
  announce_run(o, tr);
  /* The recorded durations of this image with these options (what to
   * expect next time; docs/cli.md, "Progress"). */
  char *rec = bdir ? mh_path_join(bdir, "durations.txt") : NULL;
  snprintf(key, sizeof key, "runs=%u warmup=%u kat-only=%d plugin=%d",
           o->kat_only ? 0 : o->runs, o->kat_only ? 0 : o->warmup, o->kat_only,
           tr->side != NULL);
  if (rec)
    mh_progress_record(pr, rec, key);
  free(rec);
  mh_exec_spec spec = {.argv = argv,
                       .cwd = c->root,
                       .timeout_s = o->timeout_s,
                       .stall_s = o->stall_s,
                       .stdout_fd = -1,
                       .stderr_fd = -1,
                       .max_capture = MH_MAX_CONSOLE_BYTES,
                       .hooks = {pr, mh_progress_console_hook,
                                 mh_progress_stderr_hook,
                                 mh_progress_tick_hook}};
  mh_exec_result res;
  int rc = mh_exec(&spec, &res, err, sizeof err);
  mh_progress_clear(pr);
  if (rc == 0 && res.exited && res.exit_code == 0)
    mh_progress_save(pr); /* best effort: only a guide for the next run */
  mh_progress_free(pr);
  mh_argv_free(argv);
  if (rc != 0) {
    fprintf(stderr, "merlin: %s: %s\n", tr->label, err);
    free(bdir);
    return 1;
  }
  tr->console = res.out;
  tr->console_len = res.out_len;
  res.out = NULL;
  /* Keep the last raw console next to the build, for diagnosis (in the
   * run's own directory until the run ends: mh_job_finish_files). */
  char *clog = mh_rundir_file(&tr->rd, "console.log");
  if (clog && mh_write_atomic(clog, tr->console, tr->console_len, err,
                              sizeof err) == 0) {
    tr->console_copy = clog;
    clog = NULL;
  }
  rc = exec_outcome(o, tr, &res);
  tr->exec_why[0] = '\0';
  if (res.stalled)
    snprintf(tr->exec_why, sizeof tr->exec_why,
             "hung on this target: no console line for %u s (--stall)",
             o->stall_s);
  else if (res.timed_out)
    snprintf(tr->exec_why, sizeof tr->exec_why,
             "did not finish on this target within %u s (--timeout)",
             o->timeout_s);
  free(bdir);
  free(clog);
  mh_exec_result_free(&res);
  return rc;
}

/* The build log of tr's image (malloc'd), or NULL. */
static char *build_log(const mh_run_ctx *c, const mh_job *tr) {
  mh_build_spec bs = mh_job_build_spec(c, tr, 1);
  char *bdir = mh_build_dir(&bs);
  char *log = bdir ? mh_path_join(bdir, "build.log") : NULL;
  free(bdir);
  return log;
}

/* Leave folder k out for why, and with it every other folder the same
 * failure blames: a build goes on past a folder that fails (-k 0), so every
 * folder its log finds not built (not one blamed for a link that
 * overflowed: that is the largest left); and every folder of a tree run
 * whose checks failed in the image (its other operations ran on). One
 * build or run again then, not one per folder. 0, or -1 (memory). */
static int leave_out_all(mh_run_ctx *c, mh_job *tr, int rc, int built, size_t k,
                         const char *why) {
  size_t n = c->impls.n, cnt = 0;
  size_t *ks = malloc(n * sizeof *ks);
  char(*ws)[512] = malloc(n * sizeof *ws);
  unsigned char *off = calloc(n, 1);
  char *log = rc == 1 && !built ? build_log(c, tr) : NULL;
  int ok = ks && ws && off;
  const char *kind = log ? "not built" : "failed its";
  for (size_t i = 0; ok && tr->impl_off && i < n; i++)
    off[i] = tr->impl_off[i];
  if (ok) {
    ks[cnt] = k;
    snprintf(ws[cnt++], sizeof *ws, "%s", why);
  }
  while (ok && cnt < n && strncmp(ws[cnt - 1], kind, strlen(kind)) == 0) {
    off[ks[cnt - 1]] = 1;
    int more =
        log ? mh_impl_build_culprit(log, &c->impls, off, &ks[cnt], ws[cnt],
                                    sizeof *ws)
        : rc == 2 && tr->console
            ? mh_impl_run_culprit(tr->console, tr->console_len, &c->impls, off,
                                  &ks[cnt], ws[cnt], sizeof *ws)
            : -1;
    if (more != 0 || strncmp(ws[cnt], kind, strlen(kind)) != 0)
      break;
    cnt++;
  }
  for (size_t i = 0; ok && i < cnt; i++)
    ok = mh_stage_leave_out(c, tr, ks[i], ws[i]) == 0;
  free(log);
  free(ks);
  free(ws);
  free(off);
  return ok ? 0 : -1;
}

/* Build and execute, leaving out the run's implementation folders that do
 * not build for the target or do not fit it (docs/bring-your-own.md, "Not
 * built, does not fit, left out"), until the image builds and runs or no
 * folder is to blame. Returns as execute_once. */
int mh_stage_execute(mh_run_ctx *c, mh_job *tr) {
  for (size_t tries = 0;; tries++) {
    int built, rc = execute_once(c, tr, &built);
    size_t k;
    char why[512];
    int blamed = -1;
    if (rc == 1 && !built && tries < c->impls.n) {
      char *log = build_log(c, tr);
      blamed = log ? mh_impl_build_culprit(log, &c->impls, tr->impl_off, &k,
                                           why, sizeof why)
                   : -1;
      free(log);
    } else if (rc == 2 && tries < c->impls.n) {
      blamed = mh_impl_run_culprit(tr->console, tr->console_len, &c->impls,
                                   tr->impl_off, &k, why, sizeof why);
    } else if (rc == 1 && built && tr->exec_why[0] && tr->console &&
               tries < c->impls.n) {
      /* a folder of a tree run whose operation hung: left out, named */
      char op[160];
      blamed = mh_impl_running(tr->console, tr->console_len, &c->impls,
                               tr->impl_off, &k, op, sizeof op);
      if (blamed == 0 && !c->impls.v[k].from_tree)
        blamed = -1;
      if (blamed == 0)
        snprintf(why, sizeof why, "%s, during its %s", tr->exec_why, op);
    }
    if (blamed != 0 && rc == 1 && !built && tr->build_err[0]) {
      /* No folder to blame: the build's own failure, as without any. */
      char *log = build_log(c, tr);
      if (log && !mh_exec_signal_received())
        mh_build_log_tail(log);
      fprintf(stderr, "merlin: %s: build failed: %s\n", tr->label,
              tr->build_err);
      free(log);
    }
    if (blamed != 0)
      return rc;
    tr->build_err[0] = '\0';
    if (leave_out_all(c, tr, rc, built, k, why) != 0) {
      fprintf(stderr, "merlin: out of memory\n");
      return 1;
    }
  }
}
