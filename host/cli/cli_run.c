/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin run`: build, execute, parse and check each target, and write one
 * results directory only when every target succeeded. */
#include "cli/cli.h"
#include "run/cycles.h"

#include "config/boards.h"
#include "config/targets.h"
#include "image/image_build.h"
#include "image/sizes.h"
#include "model/results.h"
#include "model/results_json.h"
#include "model/workflow.h"
#include "report/format.h"
#include "report/report_html.h"
#include "report/report_md.h"
#include "report/results_csv.h"
#include "run/board_model.h"
#include "run/ct.h"
#include "run/ct_pass.h"
#include "run/impl_culprit.h"
#include "run/impl_ref.h"
#include "run/jobs.h"
#include "run/matrix.h"
#include "run/progress.h"
#include "run/run_port.h"
#include "run/rundir.h"
#include "run/target_exec.h"
#include "util/fsutil.h"
#include "wire/wire.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#ifndef MERLIN_VERSION
#define MERLIN_VERSION "0.0.0"
#endif

/* Largest console stream accepted from a target or a --from file. */
#define MAX_CONSOLE_BYTES ((size_t)256 << 20)

typedef struct {
  const mh_run_opts *o;
  mh_ct_list ct_list; /* constant-time/expected-findings.txt */
  int ct_list_loaded;
  char *root; /* source root; NULL with --from until needed */
  char *profile_path, *profile_name;
  mh_profile profile;
  int profile_loaded;
  mh_impl_set impls;   /* the run's implementation folders */
  unsigned build_jobs; /* compile jobs per image build (0: online CPUs) */
} run_ctx;

typedef struct {
  const mh_target *t;
  const char *cc, *opt; /* matrix row (--cc/--opt), or NULL both */
  char label[160];      /* in messages: the target id, or with the row */
  run_ctx *ctx;         /* the profile it runs */
  char *console;        /* the raw captured stream */
  size_t console_len;
  char *console_copy; /* where execute() kept it for diagnosis, or NULL */
  mh_result res;
  char *side;          /* the cycle plugin's side file, or NULL (cycles.h) */
  const char *cyc_why; /* why the plugin runs without a model, or NULL */
  /* The run's implementation folders left out of this target's image
   * (impl_off[i]) and why (impl_why[i]): not built, does not fit. */
  unsigned char *impl_off;
  char **impl_why;
  char build_err[2048]; /* a failed build's message, when deferred */
  mh_board board;       /* --board: the part modelled (board_model.h) */
  int has_board;
  mh_rundir rd; /* this run's own files (run/rundir.h) */
} target_run;

/* The files a run keeps for diagnosis, published from its own directory
 * into the image's build directory when the target's run ends
 * (run/rundir.h): the last run's copies stay where docs/cli.md and
 * docs/constant-time.md say. */
static const char *const KEPT_FILES[] = {
    "console.log", "cycles.side", "ct.side", "ct-console.log", "valgrind.log"};

/* The run's own copy of the built image, in its own directory (opened
 * under bdir on first use): what it executes. NULL with err. */
static char *own_image(target_run *tr, const char *bdir, const char *image,
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
static void finish_files(target_run *tr) {
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

/* Everything a target_run holds. */
static void target_run_free(target_run *tr) {
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
static mh_build_spec run_build_spec(const run_ctx *c, const target_run *tr,
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

static void op_label(const mh_op *op, char *buf, size_t len) {
  if (op->bytes >= 0)
    snprintf(buf, len, "%s %s %ld B (%s)", op->alg ? op->alg : "?",
             op->op ? op->op : "?", op->bytes, op->backend ? op->backend : "?");
  else
    snprintf(buf, len, "%s %s (%s)", op->alg ? op->alg : "?",
             op->op ? op->op : "?", op->backend ? op->backend : "?");
}

/* First line of `qemu-system-arm --version`, malloc'd; NULL when QEMU
 * cannot be run. */
static char *qemu_version(void) {
  char *argv[] = {"qemu-system-arm", "--version", NULL};
  mh_exec_spec spec = {.argv = argv,
                       .timeout_s = 30,
                       .stdout_fd = -1,
                       .stderr_fd = -1,
                       .max_capture = 1 << 20};
  mh_exec_result res;
  char err[256];
  if (mh_exec(&spec, &res, err, sizeof err) != 0)
    return NULL;
  char *v = NULL;
  if (res.exited && res.exit_code == 0 && res.out_len)
    v = strndup(res.out, strcspn(res.out, "\r\n"));
  mh_exec_result_free(&res);
  return v;
}

static char *host_uname(void) {
  struct utsname u;
  char buf[3 * sizeof u.sysname + 4];
  if (uname(&u) != 0)
    return strdup("unknown");
  snprintf(buf, sizeof buf, "%s %s %s", u.sysname, u.release, u.machine);
  return strdup(buf);
}

static int need_root(run_ctx *c) {
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

/* QEMU timed runs: load the cycle plugin (docs/cycle-model.md), which
 * writes its side file next to the build. Returns 0, or 1 (reported). */
static int plugin_args(run_ctx *c, target_run *tr, const char *image,
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
    if (need_root(c) != 0 ||
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

/* After the side file: the --board part (clock, energy) and the
 * accelerator costs of the projection (--accel, or the defaults). */
static int cycles_extras(run_ctx *c, target_run *tr) {
  mh_cyc_run *cy = tr->res.run.cyc;
  char err[512];
  if (!cy)
    return 0;
  for (int g = 0; g < MH_ACC_GROUPS; g++)
    cy->accel[g] = mh_accel_default[g];
  if (c->o->accel &&
      mh_accel_parse(c->o->accel, cy->accel, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: %s\n", err); /* checked by main.c already */
    return 1;
  }
  cy->accel_source = strdup(c->o->accel ? "--accel (the user's figures)"
                                        : mh_accel_default_source);
  if (!cy->accel_source ||
      (tr->has_board && mh_board_model_attach(&tr->res.run, &tr->board))) {
    fprintf(stderr, "merlin: out of memory\n");
    return 1;
  }
  return 0;
}

/* The exit status of execute() for how the image ended, reported. */
static int exec_outcome(const mh_run_opts *o, const target_run *tr,
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
            tr->label, (size_t)MAX_CONSOLE_BYTES);
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

/* Leave folder k out of tr's image, for reason why. 0, or -1 (memory). */
static int leave_out(run_ctx *c, target_run *tr, size_t k, const char *why) {
  if (!tr->impl_off)
    tr->impl_off = calloc(c->impls.n, 1);
  if (!tr->impl_why)
    tr->impl_why = calloc(c->impls.n, sizeof *tr->impl_why);
  char *w = strdup(why);
  if (!tr->impl_off || !tr->impl_why || !w) {
    free(w);
    return -1;
  }
  tr->impl_off[k] = 1;
  tr->impl_why[k] = w;
  fprintf(stderr, "merlin: %s: %s left out: %s; building without it\n",
          tr->label, c->impls.v[k].backend, why);
  free(tr->console);
  free(tr->console_copy);
  tr->console = tr->console_copy = NULL;
  tr->console_len = 0;
  return 0;
}

/* "running (...)" with the bounds a hang is judged by. */
static void announce_run(const mh_run_opts *o, const target_run *tr) {
  char bounds[96];
  if (o->timeout_s)
    snprintf(bounds, sizeof bounds,
             "hung after %u s without a line, %u s in all", o->stall_s,
             o->timeout_s);
  else
    snprintf(bounds, sizeof bounds, "hung after %u s without a line",
             o->stall_s);
  if (!o->quiet && o->kat_only)
    fprintf(stderr, "merlin: %s: running known-answer tests only (%s)\n",
            tr->label, bounds);
  else if (!o->quiet)
    fprintf(stderr, "merlin: %s: running (%u runs, %u warm-up; %s)\n",
            tr->label, o->runs, o->warmup, bounds);
}

/* Build and execute the image once; fills tr->console. Returns 0 when the
 * image ran and exited 0, 2 when it exited non-zero (its stream may say
 * why), 3 when implementation folders would not fit its stack (left out,
 * not run: build again), 1 when it failed otherwise (reported; *built 0:
 * the build), 130 when interrupted. */
static int execute_once(run_ctx *c, target_run *tr, int *built) {
  const mh_run_opts *o = c->o;
  const mh_target *t = tr->t;
  char err[2048];
  mh_build_spec bs = run_build_spec(c, tr, o->quiet);
  char *image = NULL;
  *built = 0;
  bs.defer_log = c->impls.n > 0; /* execute() may blame a folder */
  if (mh_image_build(&bs, &image, err, sizeof err) != 0) {
    if (!bs.defer_log)
      fprintf(stderr, "merlin: %s: build failed: %s\n", tr->label, err);
    else
      snprintf(tr->build_err, sizeof tr->build_err, "%s", err);
    return mh_exec_signal_received() ? 130 : 1;
  }
  *built = 1;
  /* Every folder that cannot fit the image's stack, at once: one rebuild. */
  int too_big = 0;
  size_t k;
  char why[512];
  while (mh_impl_stack_culprit(image, &c->impls, tr->impl_off, &k, why,
                               sizeof why) == 0) {
    if (leave_out(c, tr, k, why) != 0) {
      free(image);
      fprintf(stderr, "merlin: out of memory\n");
      return 1;
    }
    too_big = 1;
  }
  if (too_big) {
    free(image);
    return 3; /* built again without them by execute() */
  }
  char *bdir = mh_build_dir(&bs), key[96];
  char *own = own_image(tr, bdir, image, err, sizeof err);
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
  if (pr && o->board)
    mh_progress_lines_only(pr);
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
                       .max_capture = MAX_CONSOLE_BYTES,
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
   * run's own directory until the run ends: finish_files). */
  char *clog = mh_rundir_file(&tr->rd, "console.log");
  if (clog && mh_write_atomic(clog, tr->console, tr->console_len, err,
                              sizeof err) == 0) {
    tr->console_copy = clog;
    clog = NULL;
  }
  rc = exec_outcome(o, tr, &res);
  free(bdir);
  free(clog);
  mh_exec_result_free(&res);
  return rc;
}

/* Build and execute, leaving out the run's implementation folders that do
 * not build for the target or do not fit it (docs/bring-your-own.md, "Not
 * built, does not fit"), one at a time, until the image builds and runs or
 * no folder is to blame. Returns as execute_once. */
static int execute(run_ctx *c, target_run *tr) {
  for (size_t tries = 0;; tries++) {
    int built, rc = execute_once(c, tr, &built);
    size_t k;
    char why[512];
    int blamed = -1;
    if (rc == 1 && !built && tries < c->impls.n) {
      mh_build_spec bs = run_build_spec(c, tr, 1);
      char *bdir = mh_build_dir(&bs);
      char *log = bdir ? mh_path_join(bdir, "build.log") : NULL;
      blamed = log ? mh_impl_build_culprit(log, &c->impls, tr->impl_off, &k,
                                           why, sizeof why)
                   : -1;
      free(log);
      free(bdir);
    } else if (rc == 3) {
      continue; /* folders left out already (execute_once) */
    } else if (rc == 2 && tries < c->impls.n) {
      blamed = mh_impl_run_culprit(tr->console, tr->console_len, &c->impls,
                                   tr->impl_off, &k, why, sizeof why);
    }
    if (blamed != 0 && rc == 1 && !built && tr->build_err[0]) {
      /* No folder to blame: the build's own failure, as without any. */
      mh_build_spec bs = run_build_spec(c, tr, 1);
      char *bdir = mh_build_dir(&bs);
      char *log = bdir ? mh_path_join(bdir, "build.log") : NULL;
      if (log && !mh_exec_signal_received())
        mh_build_log_tail(log);
      fprintf(stderr, "merlin: %s: build failed: %s\n", tr->label,
              tr->build_err);
      free(log);
      free(bdir);
    }
    if (blamed != 0)
      return rc;
    tr->build_err[0] = '\0';
    if (leave_out(c, tr, k, why) != 0) {
      fprintf(stderr, "merlin: out of memory\n");
      return 1;
    }
  }
}

/* The run's implementation folders into the result (results.json
 * "implementations"). 0, or -1 (memory). */
/* The compiler workaround applied to backend's folder in this image: the
 * rest of its line "BACKEND<TAB>FLAGS -- reason" in the build directory's
 * compiler-workarounds.txt (written by cmake/MerlinImage.cmake), copied to
 * out; 0 when none (no line, or no file: a build without folders). */
static int applied_workaround(const char *text, const char *backend, char *out,
                              size_t outlen) {
  size_t bl = strlen(backend);
  for (const char *l = text; l && *l;) {
    const char *nl = strchr(l, '\n');
    size_t len = nl ? (size_t)(nl - l) : strlen(l);
    if (len > bl && strncmp(l, backend, bl) == 0 && l[bl] == '\t') {
      snprintf(out, outlen, "%.*s", (int)(len - bl - 1), l + bl + 1);
      return 1;
    }
    l = nl ? nl + 1 : NULL;
  }
  return 0;
}

static int record_impls(const run_ctx *c, target_run *tr) {
  mh_build_spec bs = run_build_spec(c, tr, 1);
  char *bdir = mh_build_dir(&bs), *was = NULL, err[256];
  char *wpath = bdir ? mh_path_join(bdir, "compiler-workarounds.txt") : NULL;
  size_t wlen = 0;
  if (wpath && mh_read_file(wpath, 1 << 16, &was, &wlen, err, sizeof err) != 0)
    was = NULL; /* no file: nothing applied */
  free(wpath);
  free(bdir);
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < c->impls.n; i++) {
    const mh_impl *m = &c->impls.v[i];
    if (m->library)
      continue;
    char wa[512];
    mh_impl_rec r = {
        .backend = m->backend,
        .alg = m->alg,
        .path = m->dir,
        .sha256 = (char *)m->sha256,
        .hash = (char *)(c->impls.hash_thumb2 ? "thumb2-asm" : "c"),
        .kat_reference = c->impls.expect_from[i],
        .left_out = tr->impl_off && tr->impl_off[i] ? tr->impl_why[i] : NULL,
        .compiler_workaround =
            was && applied_workaround(was, m->backend, wa, sizeof wa) ? wa
                                                                      : NULL};
    if (mh_result_add_impl(&tr->res, &r) != 0)
      rc = -1;
  }
  free(was);
  return rc;
}

/* Every reason the parsed run must not count; prints each, returns the
 * number of failures. */
static int check_run(const run_ctx *c, const target_run *tr) {
  const mh_run *run = &tr->res.run;
  const char *id = tr->label;
  int fails = 0;
  char label[256];
  const char *v;
  if ((v = mh_run_prov(run, "target")) && strcmp(v, tr->t->id) != 0) {
    fprintf(stderr, "merlin: %s: the stream comes from target '%s'\n", id, v);
    fails++;
  }
  if ((v = mh_run_prov(run, "profile")) && strcmp(v, tr->res.profile) != 0) {
    fprintf(stderr,
            "merlin: %s: the image was built for profile '%s', not '%s'\n", id,
            v, tr->res.profile);
    fails++;
  }
  if (tr->cc) {
    /* A matrix row: the image says which compiler and -O built it. */
    char cc[64], opt[32], want_opt[32];
    mh_result_cc(&tr->res, cc, sizeof cc);
    mh_result_opt(&tr->res, opt, sizeof opt);
    snprintf(want_opt, sizeof want_opt, "-%s", tr->opt);
    if (strcmp(cc, tr->cc) != 0 || strcmp(opt, want_opt) != 0) {
      fprintf(stderr,
              "merlin: %s: the image was built by %s %s, not %s %s (stale "
              "build directory? remove %s)\n",
              id, cc, *opt ? opt : "(no -O)", tr->cc, want_opt,
              "build/img/<target>-<profile>-<cc>-<opt>");
      fails++;
    }
  }
  if (!c->o->from && !c->o->port) {
    char want[16];
    snprintf(want, sizeof want, "%u", c->o->runs);
    if ((v = mh_run_prov(run, "runs")) && strcmp(v, want) != 0) {
      fprintf(stderr, "merlin: %s: the image ran %s timed runs, not %s\n", id,
              v, want);
      fails++;
    }
  }
  if (run->kat_only != c->o->kat_only) {
    fprintf(stderr,
            run->kat_only
                ? "merlin: %s: the stream is KAT-only (runs=0): read it with "
                  "--kat-only\n"
                : "merlin: %s: --kat-only, but the stream has timed runs\n",
            id);
    fails++;
  }
  if (run->n_ops == 0) {
    fprintf(stderr, "merlin: %s: the image announced no operations\n", id);
    fails++;
  }
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *op = &run->ops[i];
    op_label(op, label, sizeof label);
    if (op->kat == MH_KAT_FAIL) {
      fprintf(stderr,
              "merlin: %s: KAT failed: %s: %s; no timing recorded "
              "for it\n",
              id, label, op->kat_detail ? op->kat_detail : "no detail");
      fails++;
    } else if (op->kat != MH_KAT_PASS) {
      fprintf(stderr,
              "merlin: %s: no KAT result for %s; no timing recorded "
              "for it\n",
              id, label);
      fails++;
    }
    if (op->has_error) {
      fprintf(stderr, "merlin: %s: error in %s: %s\n", id, label,
              op->error_msg ? op->error_msg : "no detail");
      fails++;
    }
  }
  fails += mh_wf_report_failures(run, id, stderr); /* host/model/workflow.c */
  if (run->error_msg) {
    fprintf(stderr, "merlin: %s: target error: %s\n", id, run->error_msg);
    fails++;
  }
  if (!run->status_ok) {
    fprintf(stderr, "merlin: %s: the image reported end status=fail\n", id);
    fails++;
  }
  return fails;
}

/* A board target with neither --port nor --from: build its image, then say
 * how to flash and read it. Returns 1 (build failed) or 2. */
static int board_without_port(run_ctx *c, target_run *tr) {
  char err[2048];
  mh_build_spec bs = run_build_spec(c, tr, c->o->quiet);
  char *image = NULL;
  if (mh_image_build(&bs, &image, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: %s: build failed: %s\n", tr->t->id, err);
    return 1;
  }
  mh_run_board_hint(tr->t, image);
  free(image);
  return 2;
}

/* Run (or read) one target and turn its stream into a checked result.
 * Returns 0, 1 (failed, reported) or 130 (interrupted). */
static int run_target_inner(run_ctx *c, target_run *tr) {
  const mh_run_opts *o = c->o;
  const char *id = tr->label;
  char err[1024];
  int exec_rc = 0;
  if (o->from) {
    if (mh_read_file(o->from, MAX_CONSOLE_BYTES, &tr->console, &tr->console_len,
                     err, sizeof err) != 0) {
      fprintf(stderr, "merlin: %s\n", err);
      return 1;
    }
  } else if (o->port) {
    exec_rc = mh_run_read_port(o, tr->t, &tr->console, &tr->console_len,
                               MAX_CONSOLE_BYTES);
    if (exec_rc != 0)
      return exec_rc;
    if (need_root(c) == 0)
      tr->console_copy =
          mh_run_keep_capture(c->root, tr->t, tr->console, tr->console_len);
  } else if (tr->t->kind == MH_EXEC_BOARD) {
    return board_without_port(c, tr);
  } else {
    exec_rc = execute(c, tr);
    if (exec_rc == 1 || exec_rc == 130)
      return exec_rc;
  }
  mh_wire_error werr;
  memset(&werr, 0, sizeof werr);
  if (mh_wire_parse(tr->console, tr->console_len, &tr->res.run, &werr) != 0) {
    /* The reader's message normally starts with "line N: " itself. */
    if (strncmp(werr.msg, "line ", 5) == 0)
      fprintf(stderr, "merlin: %s: console stream rejected: %s\n", id,
              werr.msg);
    else
      fprintf(stderr, "merlin: %s: console stream rejected: line %zu: %s\n", id,
              werr.line, werr.msg);
    return 1;
  }
  const char *pname = c->profile_name;
  if (!pname)
    pname = mh_run_prov(&tr->res.run, "profile");
  tr->res.target = strdup(tr->t->id);
  tr->res.profile = strdup(pname ? pname : MH_PROFILE_DEFAULT);
  tr->res.host = host_uname();
  if (tr->t->kind == MH_EXEC_QEMU) {
    tr->res.qemu_version = qemu_version();
    if (!tr->res.qemu_version)
      tr->res.qemu_version =
          strdup("unknown (qemu-system-arm --version failed)");
  }
  if (!tr->res.target || !tr->res.profile || !tr->res.host ||
      (tr->t->kind == MH_EXEC_QEMU && !tr->res.qemu_version) ||
      record_impls(c, tr) != 0) {
    fprintf(stderr, "merlin: out of memory\n");
    return 1;
  }
  if (check_run(c, tr) != 0 || exec_rc != 0)
    return 1;
  if (o->kat_only)
    return 0; /* nothing timed: no units to convert */
  if (mh_result_index_algs(&tr->res) != 0) {
    fprintf(stderr, "merlin: out of memory\n");
    return 1;
  }
  double t2u;
  if (mh_target_ticks_to_unit(tr->t, mh_run_prov(&tr->res.run, "unit"),
                              mh_run_prov(&tr->res.run, "counter_hz"), &t2u,
                              err, sizeof err) != 0 ||
      mh_run_finish(&tr->res.run, t2u, tr->t->unit, tr->t->icount_shift, err,
                    sizeof err) != 0) {
    fprintf(stderr, "merlin: %s: %s\n", id, err);
    return 1;
  }
  if (tr->side && mh_cycles_attach(&tr->res.run, tr->side, tr->cyc_why, err,
                                   sizeof err) != 0) {
    fprintf(stderr, "merlin: %s: %s\n", id, err);
    return 1;
  }
  return cycles_extras(c, tr);
}

/* The algorithm entry of res for (alg, backend), writable. */
static mh_alg_cost *alg_entry(mh_result *res, const char *alg,
                              const char *backend) {
  return (mh_alg_cost *)mh_result_alg(res, alg, backend);
}

/* Peak RAM an algorithm needs beyond its static RAM: the largest peak stack
 * plus the largest peak heap of its operations in this run. */
static uint64_t dynamic_ram(const mh_run *run, const char *alg,
                            const char *backend) {
  uint64_t stack = 0, heap = 0;
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *op = &run->ops[i];
    if (!op->has_mem || strcmp(op->alg, alg) != 0 ||
        strcmp(op->backend, backend) != 0)
      continue;
    if (op->stack_bytes > stack)
      stack = op->stack_bytes;
    if (op->heap_bytes > heap)
      heap = op->heap_bytes;
  }
  return stack + heap;
}

/* Flash and static RAM per algorithm (merlin sizes, the same build
 * configuration as the image), and whether each algorithm fits each
 * described board of the run's core (boards/, docs/boards.md). */
static int attach_costs(run_ctx *c, target_run *tr) {
  const mh_run_opts *o = c->o;
  char err[2048];
  mh_sizes sz;
  /* A matrix row: the size images of the image's own build tree (same
   * compiler and flags; configured with MERLIN_SIZES=ON). */
  mh_build_spec bs = run_build_spec(c, tr, c->o->quiet);
  char *bdir = tr->cc ? mh_build_dir(&bs) : NULL;
  int szrc = tr->cc ? (bdir ? mh_sizes_measure_tree(&bs, bdir, o->quiet, &sz,
                                                    err, sizeof err)
                            : -1)
                    : mh_sizes_measure(&bs, o->quiet, &sz, err, sizeof err);
  if (tr->cc && !bdir)
    snprintf(err, sizeof err, "out of memory");
  free(bdir);
  if (szrc != 0) {
    fprintf(stderr, "merlin: %s: code sizes: %s\n", tr->label, err);
    return 1;
  }
  mh_result *res = &tr->res;
  int rc = 0;
  res->has_baseline = 1;
  res->baseline_flash = (int64_t)sz.baseline.image_flash;
  res->baseline_ram = (int64_t)sz.baseline.image_ram;
  for (size_t i = 0; i < sz.n_algs && rc == 0; i++) {
    const mh_alg_size *s = &sz.algs[i];
    mh_alg_cost *a = alg_entry(res, s->alg, s->backend);
    if (!a)
      continue; /* routed but announced no operation (cannot happen) */
    a->has_size = 1;
    a->flash_bytes = s->flash_bytes;
    a->ram_bytes = s->ram_bytes;
    a->libs = calloc(s->n_libs ? s->n_libs : 1, sizeof *a->libs);
    for (size_t k = 0; a->libs && k < s->n_libs; k++) {
      if (!s->libs[k].flash_bytes)
        continue;
      mh_lib_bytes *l = &a->libs[a->n_libs];
      if (!(l->library = strdup(s->libs[k].library)))
        break;
      l->bytes = s->libs[k].flash_bytes;
      l->has_sections = 1;
      l->data = s->libs[k].data_bytes;
      l->text = s->libs[k].flash_bytes - l->data;
      l->bss = s->libs[k].ram_bytes - l->data;
      a->n_libs++;
    }
    if (!a->libs)
      rc = 1;
  }
  mh_sizes_free(&sz);
  if (rc != 0) {
    fprintf(stderr, "merlin: out of memory\n");
    return 1;
  }
  mh_board *boards = NULL;
  size_t nb = 0;
  if (mh_boards_load(c->root, &boards, &nb, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: %s\n", err);
    return 1;
  }
  const char *core = mh_run_prov(&res->run, "core");
  int any = 0;
  for (size_t b = 0; b < nb; b++)
    any |= core && strcmp(boards[b].core, core) == 0;
  for (size_t i = 0; any && i < res->n_algs && rc == 0; i++) {
    mh_alg_cost *a = &res->algs[i];
    if (!a->has_size)
      continue;
    int64_t stat = a->ram_bytes > 0 ? a->ram_bytes : 0;
    uint64_t ram = (uint64_t)stat + dynamic_ram(&res->run, a->alg, a->backend);
    uint64_t flash = a->flash_bytes > 0 ? (uint64_t)a->flash_bytes : 0;
    for (size_t b = 0; b < nb && rc == 0; b++) {
      char why[160];
      int fit = mh_board_fits(&boards[b], core, flash, ram, why, sizeof why);
      if (mh_alg_cost_add_fit(a, boards[b].id, fit, why) != 0)
        rc = 1;
    }
  }
  mh_boards_free(boards, nb);
  if (rc != 0)
    fprintf(stderr, "merlin: out of memory\n");
  return rc;
}

/* The memcheck pass of the constant-time check (--ct, host): the same
 * image again under valgrind with --ct-only; its ct records' error counts
 * join the timed run's operations (same image, same op ids). */
static int valgrind_pass(run_ctx *c, target_run *tr) {
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
  mh_build_spec bs = run_build_spec(c, tr, 1);
  char *built = NULL, *image = NULL, *bdir = mh_build_dir(&bs);
  char *log = NULL, *kept = bdir ? mh_path_join(bdir, "valgrind.log") : NULL;
  char logopt[4200];
  if (mh_image_build(&bs, &built, err, sizeof err) != 0 ||
      !(image = own_image(tr, bdir, built, err, sizeof err)) ||
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
                       .max_capture = MAX_CONSOLE_BYTES};
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
static int ct_pass_run(run_ctx *c, target_run *tr, const char *image,
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
  if (o->board)
    mh_progress_lines_only(pr);
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
static int qemu_ct_pass(run_ctx *c, target_run *tr) {
  char err[2048];
  mh_build_spec bs = run_build_spec(c, tr, 1);
  char *built = NULL, *image = NULL, *bdir = mh_build_dir(&bs);
  int rc = 1;
  if (!bdir)
    snprintf(err, sizeof err, "out of memory");
  else if (mh_image_build(&bs, &built, err, sizeof err) == 0 &&
           (image = own_image(tr, bdir, built, err, sizeof err)) != NULL) {
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

static int judge_ct(run_ctx *c, target_run *tr) {
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

/* --repeat K: K-1 more runs of the same image, each a fresh process (a
 * "power cycle" of the target); the spread of each operation's median
 * across the K runs goes into the first run's operations. */
static int repeat_runs(run_ctx *c, target_run *tr) {
  unsigned k = c->o->repeat;
  mh_run *run = &tr->res.run;
  for (size_t i = 0; i < run->n_ops; i++) {
    mh_op *op = &run->ops[i];
    op->n_repeat = 1;
    op->repeat_min = op->repeat_max = op->stats.median;
  }
  for (unsigned r = 1; r < k; r++) {
    target_run rep;
    memset(&rep, 0, sizeof rep);
    rep.t = tr->t;
    rep.cc = tr->cc;
    rep.opt = tr->opt;
    rep.ctx = tr->ctx;
    memcpy(rep.label, tr->label, sizeof rep.label);
    if (!c->o->quiet)
      fprintf(stderr, "merlin: %s: repeat %u of %u\n", tr->label, r + 1, k);
    int rc = run_target_inner(c, &rep);
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
    target_run_free(&rep);
    if (rc != 0)
      return rc;
  }
  return 0;
}

static int run_target(run_ctx *c, target_run *tr) {
  int rc = run_target_inner(c, tr);
  if (rc == 0 && c->o->repeat > 1 && !c->o->from && !c->o->kat_only)
    rc = repeat_runs(c, tr);
  if (rc == 0 && c->o->ct && tr->t->kind == MH_EXEC_NATIVE)
    rc = valgrind_pass(c, tr);
  if (rc == 0 && c->o->ct && tr->t->kind == MH_EXEC_QEMU && !c->o->from &&
      !c->o->kat_only)
    rc = qemu_ct_pass(c, tr);
  if (rc == 0 && !c->o->kat_only && need_root(c) == 0)
    rc = judge_ct(c, tr);
  if (rc == 0 && !c->o->from && !c->o->port && !c->o->kat_only)
    rc = attach_costs(c, tr);
  finish_files(tr);
  if (rc == 1 && tr->console_copy)
    fprintf(stderr, "merlin: %s: raw console kept in %s\n", tr->label,
            mh_path_display(c->root, tr->console_copy));
  return rc;
}

static void print_summary(const target_run *tr) {
  const mh_run *run = &tr->res.run;
  if (tr->cc)
    printf("%s (profile %s, %s -%s), per operation in %s:\n", tr->res.target,
           tr->res.profile, tr->cc, tr->opt, run->unit);
  else
    printf("%s (profile %s), per operation in %s:\n", tr->res.target,
           tr->res.profile, run->unit);
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *op = &run->ops[i];
    char label[256], med[64], p99[64];
    op_label(op, label, sizeof label);
    mh_format_number(op->stats.median, med, sizeof med);
    mh_format_number(op->stats.p99, p99, sizeof p99);
    printf("  %-44s median %14s   p99 %14s\n", label, med, p99);
  }
}

/* --kat-only: what passed, per target (check_run already named failures). */
static void print_kat_summary(const target_run *tr) {
  const mh_run *run = &tr->res.run;
  printf("%s (profile %s): known-answer tests\n", tr->res.target,
         tr->res.profile);
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *op = &run->ops[i];
    char label[256];
    op_label(op, label, sizeof label);
    printf("  %-52s %s\n", label, op->kat == MH_KAT_PASS ? "pass" : "FAIL");
  }
  printf("  %zu operations, every KAT passed\n", run->n_ops);
  if (run->n_wfs) /* docs/workflows.md: checked, not timed */
    printf("  %zu workflow instances checked end to end (same key on both "
           "sides, every signature and tag)\n",
           run->n_wfs);
}

static int write_file(const char *dir, const char *name, const char *data,
                      size_t len) {
  char err[1024];
  char *p = mh_path_join(dir, name);
  int rc = p ? mh_write_atomic(p, data, len, err, sizeof err) : -1;
  if (!p)
    snprintf(err, sizeof err, "out of memory");
  if (rc != 0)
    fprintf(stderr, "merlin: %s\n", err);
  free(p);
  return rc;
}

/* console-<target>-<profile>[-<cc>-<opt>].log; -1 (and a message) when it
 * does not fit in len, never a silently shortened name. */
static int console_name(const target_run *tr, char *buf, size_t len) {
  int n;
  if (tr->cc)
    n = snprintf(buf, len, "console-%s-%s-%s-%s.log", tr->t->id,
                 tr->res.profile, tr->cc, tr->opt);
  else
    n = snprintf(buf, len, "console-%s-%s.log", tr->t->id, tr->res.profile);
  if (n >= 0 && (size_t)n < len)
    return 0;
  fprintf(stderr, "merlin: %s: console log name longer than %zu bytes\n",
          tr->label, len - 1);
  return -1;
}

static void remove_tree(const char *dir, const target_run *trs, size_t n) {
  static const char *const files[] = {"results.json", "results.csv",
                                      "report.md", "report.html"};
  for (size_t i = 0; i < 4; i++) {
    char *p = mh_path_join(dir, files[i]);
    if (p)
      unlink(p);
    free(p);
  }
  for (size_t i = 0; i < n; i++) {
    char name[256];
    if (console_name(&trs[i], name, sizeof name) != 0)
      continue;
    char *p = mh_path_join(dir, name);
    if (p)
      unlink(p);
    free(p);
  }
  rmdir(dir);
}

/* The pid in a temporary name of write_results: ".tmp-<stamp>-<pid>"
 * (a results directory being written) or ".latest.tmp-<pid>" (the
 * symbolic link being swapped in); 0 for any other name. */
static long tmp_owner(const char *name) {
  const char *dash = strrchr(name, '-');
  int ours =
      strncmp(name, ".tmp-", 5) == 0 || strncmp(name, ".latest.tmp-", 12) == 0;
  if (!ours || !dash || !dash[1])
    return 0;
  char *end = NULL;
  errno = 0;
  long pid = strtol(dash + 1, &end, 10);
  return errno || *end || pid <= 1 ? 0 : pid;
}

/* Remove what a killed run (SIGKILL, SIGXFSZ, a power cut) left in OUT:
 * temporary entries whose owning process no longer exists. One of a live
 * run (another merlin writing into OUT right now) is never touched; inside
 * a directory only regular files are removed, and a directory holding
 * anything else stays. */
static void remove_stale_tmp(const char *out) {
  DIR *d = opendir(out);
  if (!d)
    return;
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    long pid = tmp_owner(de->d_name);
    if (pid == 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 ||
        errno != ESRCH)
      continue;
    char *p = mh_path_join(out, de->d_name);
    struct stat st;
    if (p && lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
      DIR *sub = opendir(p);
      struct dirent *se;
      while (sub && (se = readdir(sub)) != NULL) {
        char *f = mh_path_join(p, se->d_name);
        struct stat fst;
        if (f && lstat(f, &fst) == 0 && S_ISREG(fst.st_mode))
          unlink(f);
        free(f);
      }
      if (sub)
        closedir(sub);
      rmdir(p);
    } else if (p && lstat(p, &st) == 0 && S_ISLNK(st.st_mode)) {
      unlink(p);
    }
    free(p);
  }
  closedir(d);
}

/* Write everything into a hidden directory, then rename it into place as
 * OUT/<UTC timestamp>[-N] and repoint OUT/latest. */
static int write_results(const mh_run_opts *o, target_run *trs, size_t n) {
  char err[1024], stamp[32], created[32];
  time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &tm);
  mh_results r = {.merlin = MERLIN_VERSION, .created = created, .n_runs = n};
  mh_result *runs = calloc(n, sizeof *runs);
  if (!runs) {
    fprintf(stderr, "merlin: out of memory\n");
    return 1;
  }
  for (size_t i = 0; i < n; i++)
    runs[i] = trs[i].res;
  r.runs = runs;
  char *json = mh_results_to_json(&r, err, sizeof err);
  char *csv = mh_results_to_csv(&r);
  char *md = mh_report_md(&r);
  mh_html_assets assets; /* the charting library (host/cli/cli_assets.c) */
  char *html = NULL;
  if (mh_cli_html_assets(&assets, err, sizeof err) == 0) {
    html = mh_report_html(&r, &assets);
    mh_cli_html_assets_free(&assets);
  }
  free(runs);
  int rc = 1;
  char tmpname[64], final[64];
  char *tmp = NULL, *dst = NULL;
  if (!json || !csv || !md || !html) {
    fprintf(stderr, "merlin: cannot serialise the results: %s\n",
            json ? "out of memory" : err);
    goto out;
  }
  if (mh_mkdir_p(o->out, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: %s\n", err);
    goto out;
  }
  remove_stale_tmp(o->out);
  snprintf(tmpname, sizeof tmpname, ".tmp-%s-%ld", stamp, (long)getpid());
  tmp = mh_path_join(o->out, tmpname);
  char brief[MH_PATH_BRIEF];
  if (!tmp || mkdir(tmp, 0755) != 0) {
    int e = errno;
    fprintf(stderr, "merlin: cannot create %s: %s\n",
            tmp ? mh_path_brief(tmp, brief, sizeof brief) : tmpname,
            strerror(e));
    goto out;
  }
  int bad = write_file(tmp, "results.json", json, strlen(json)) ||
            write_file(tmp, "results.csv", csv, strlen(csv)) ||
            write_file(tmp, "report.md", md, strlen(md)) ||
            write_file(tmp, "report.html", html, strlen(html));
  for (size_t i = 0; i < n && !bad; i++) {
    char name[256];
    bad = console_name(&trs[i], name, sizeof name) != 0 ||
          write_file(tmp, name, trs[i].console, trs[i].console_len);
  }
  if (bad) {
    remove_tree(tmp, trs, n);
    goto out;
  }
  /* rename() fails on a non-empty directory of that name: next suffix. */
  for (int k = 0; k < 1000; k++) {
    if (k)
      snprintf(final, sizeof final, "%s-%d", stamp, k);
    else
      snprintf(final, sizeof final, "%s", stamp);
    free(dst);
    dst = mh_path_join(o->out, final);
    if (!dst)
      break;
    if (rename(tmp, dst) == 0) {
      rc = 0;
      break;
    }
    if (errno != EEXIST && errno != ENOTEMPTY && errno != ENOTDIR)
      break;
  }
  if (rc != 0) {
    int e = errno;
    fprintf(stderr, "merlin: cannot move results into %s: %s\n",
            mh_path_brief(o->out, brief, sizeof brief), strerror(e));
    remove_tree(tmp, trs, n);
    goto out;
  }
  /* OUT/latest -> <final>, replaced atomically. */
  char lname[64];
  snprintf(lname, sizeof lname, ".latest.tmp-%ld", (long)getpid());
  char *ltmp = mh_path_join(o->out, lname);
  char *latest = mh_path_join(o->out, "latest");
  if (ltmp && latest) {
    unlink(ltmp);
    if (symlink(final, ltmp) != 0 || rename(ltmp, latest) != 0) {
      fprintf(stderr, "merlin: warning: cannot point %s at %s: %s\n", latest,
              final, strerror(errno));
      unlink(ltmp);
    }
  }
  free(ltmp);
  free(latest);
  printf("merlin: results written to %s (results.json, results.csv, "
         "report.md, report.html)\n",
         dst);
out:
  free(json);
  free(csv);
  free(md);
  free(html);
  free(tmp);
  free(dst);
  return rc;
}

static int load_profile(run_ctx *c) {
  const mh_run_opts *o = c->o;
  char err[2048];
  if ((o->from || o->port) && !o->profile)
    return 0; /* taken from the stream */
  if (o->from || o->port) {
    /* Only the name matters: the stream is compared against it. A name
     * must still be one of profiles/ (as without --from), so that a typo
     * is a usage error naming the valid ones. */
    char *root = mh_source_root(err, sizeof err);
    int bad = mh_profile_locate(root ? root : "", o->profile, &c->profile_path,
                                &c->profile_name, err, sizeof err) != 0;
    free(root);
    if (bad) {
      fprintf(stderr, "merlin: %s\n", err);
      return 2;
    }
    return 0;
  }
  if (need_root(c) != 0)
    return 1;
  if (mh_profile_locate(c->root, o->profile ? o->profile : MH_PROFILE_DEFAULT,
                        &c->profile_path, &c->profile_name, err,
                        sizeof err) != 0 ||
      mh_profile_load(c->profile_path,
                      mh_path_display(c->root, c->profile_path), &c->profile,
                      err, sizeof err) != 0) {
    fprintf(stderr, "merlin: %s\n", err);
    return 2;
  }
  c->profile_loaded = 1;
  if (mh_cli_impls(c->root, c->profile_path, &c->profile, o, &c->impls, err,
                   sizeof err) != 0) {
    fprintf(stderr, "merlin: %s\n", err);
    return 2;
  }
  if (c->impls.n &&
      mh_impl_expectations(c->root, &c->impls, o->quiet, err, sizeof err)) {
    fprintf(stderr, "merlin: %s\n", err);
    return 1;
  }
  if (o->kat_corrupt &&
      mh_kat_corrupt_check(o->kat_corrupt, &c->profile, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: %s\n", err);
    return 2;
  }
  return 0;
}

/* Split "a,b,c" into malloc'd names (NULL list entry: the default). */
static char **split_profiles(const char *arg, size_t *n) {
  size_t count = 1;
  for (const char *s = arg; s && *s; s++)
    count += *s == ',';
  char **names = calloc(count, sizeof *names);
  if (!names)
    return NULL;
  *n = 0;
  if (!arg) {
    *n = 1; /* one entry, NULL: the default profile */
    return names;
  }
  const char *start = arg;
  for (;;) {
    const char *end = strchr(start, ',');
    size_t len = end ? (size_t)(end - start) : strlen(start);
    names[*n] = strndup(start, len);
    if (!names[*n]) {
      for (size_t i = 0; i < *n; i++)
        free(names[i]);
      free(names);
      return NULL;
    }
    (*n)++;
    if (!end)
      break;
    start = end + 1;
  }
  return names;
}

/* -j: the jobs of a run on threads (host/run/jobs.c). */
typedef struct {
  target_run *trs;
  mh_jobboard *board;
} pool_ctx;

static int build_job(void *arg, size_t i) {
  pool_ctx *pc = arg;
  target_run *tr = &pc->trs[i];
  run_ctx *c = tr->ctx;
  char err[2048];
  mh_jobboard_set(pc->board, i, MH_JOB_BUILDING);
  mh_build_spec bs = run_build_spec(c, tr, 1);
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
  target_run *tr = &pc->trs[i];
  mh_jobboard_set(pc->board, i, MH_JOB_RUNNING);
  int rc = run_target(tr->ctx, tr);
  mh_jobboard_set(pc->board, i, rc == 0 ? MH_JOB_DONE : MH_JOB_FAILED);
  return rc;
}

/* Every image built in parallel; then the QEMU runs in parallel (-icount
 * counts do not depend on the load); then the host runs one at a time with
 * nothing else running (their wall-clock timings do). */
static int run_parallel(target_run *trs, size_t n, unsigned workers,
                        int quiet) {
  char **labels = calloc(n, sizeof *labels);
  size_t *qemu = calloc(n, sizeof *qemu), *native = calloc(n, sizeof *native);
  size_t *all = calloc(n, sizeof *all), nq = 0, nn = 0;
  int rc = 1;
  mh_jobboard *board = NULL;
  for (size_t i = 0; labels && i < n; i++) {
    char buf[256];
    if (trs[i].cc)
      snprintf(buf, sizeof buf, "%s %s %s -%s", trs[i].t->id,
               trs[i].ctx->profile_name, trs[i].cc, trs[i].opt);
    else
      snprintf(buf, sizeof buf, "%s %s", trs[i].t->id,
               trs[i].ctx->profile_name);
    if (!(labels[i] = strdup(buf)))
      goto out;
  }
  if (!labels || !qemu || !native || !all ||
      !(board = mh_jobboard_new(n, (const char *const *)labels,
                                isatty(STDERR_FILENO), quiet)))
    goto out;
  for (size_t i = 0; i < n; i++) {
    all[i] = i;
    if (trs[i].t->kind == MH_EXEC_NATIVE)
      native[nn++] = i;
    else
      qemu[nq++] = i;
  }
  if (!quiet)
    fprintf(stderr,
            "merlin: %zu image(s) on %u parallel jobs; host images run "
            "one at a time, after the rest\n",
            n, workers);
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

/* Every target with every profile (--profile a,b), and with --cc/--opt
 * every compiler and optimisation level: one image per combination, all
 * written into one results directory, or none when any fails. */
/* Everything one `merlin run` holds: the matrix (--cc x --opt), the
 * profiles, one run context per profile and one target_run per (profile,
 * target, compiler, level). Freed in one place, plan_free. */
typedef struct {
  const mh_run_opts *o;
  char **ccs, **opts, **profs;
  size_t n_cc, n_opt, n_prof;
  int matrix;
  run_ctx *ctxs;
  mh_run_opts *popts; /* per profile: o with its profile */
  target_run *trs;
  size_t done; /* trs[0..done) are set up */
} run_plan;

static void plan_free(run_plan *pl) {
  for (size_t i = 0; pl->trs && i < pl->done; i++) {
    target_run_free(&pl->trs[i]);
    for (size_t k = 0; pl->trs[i].impl_why && k < pl->trs[i].ctx->impls.n; k++)
      free(pl->trs[i].impl_why[k]);
    free(pl->trs[i].impl_why);
    free(pl->trs[i].impl_off);
  }
  free(pl->trs);
  for (size_t p = 0; pl->ctxs && p < pl->n_prof; p++) {
    mh_ct_list_free(&pl->ctxs[p].ct_list);
    mh_profile_free(&pl->ctxs[p].profile);
    mh_impl_set_free(&pl->ctxs[p].impls);
    free(pl->ctxs[p].profile_path);
    free(pl->ctxs[p].profile_name);
    free(pl->ctxs[p].root);
  }
  for (size_t p = 0; pl->profs && p < pl->n_prof; p++)
    free(pl->profs[p]);
  free(pl->ctxs);
  free(pl->popts);
  free(pl->profs);
  mh_matrix_free(pl->ccs, pl->n_cc);
  mh_matrix_free(pl->opts, pl->n_opt);
}

/* Split --cc, --opt and --profile and allocate the runs. Returns 0, 1 or
 * 2 (reported). */
static int plan_init(run_plan *pl, const mh_run_opts *o) {
  char err[1024];
  pl->o = o;
  pl->n_cc = pl->n_opt = 1;
  pl->matrix = o->cc || o->opt;
  if (pl->matrix &&
      (mh_matrix_split("--cc", o->cc ? o->cc : MH_CC_DEFAULT, &pl->ccs,
                       &pl->n_cc, err, sizeof err) != 0 ||
       mh_matrix_split("--opt", o->opt ? o->opt : MH_OPT_DEFAULT, &pl->opts,
                       &pl->n_opt, err, sizeof err) != 0)) {
    fprintf(stderr, "merlin: %s\n", err);
    return 2;
  }
  for (size_t k = 0; pl->matrix && k < pl->n_cc; k++)
    if (mh_matrix_check_cc(pl->ccs[k], err, sizeof err) != 0) {
      fprintf(stderr, "merlin: %s\n", err);
      return 1;
    }
  pl->profs = split_profiles(o->profile, &pl->n_prof);
  if (!pl->profs) {
    fprintf(stderr, "merlin: out of memory\n");
    return 1;
  }
  if (o->from && pl->n_prof > 1) {
    fprintf(stderr, "merlin: --from reads one stream: give one --profile\n");
    return 2;
  }
  for (size_t p = 0; p < pl->n_prof; p++)
    for (size_t q = 0; q < p; q++)
      if (pl->profs[p] && pl->profs[q] &&
          strcmp(pl->profs[p], pl->profs[q]) == 0) {
        fprintf(stderr, "merlin: --profile lists '%s' twice\n", pl->profs[p]);
        return 2;
      }
  size_t per_prof = o->n_targets * pl->n_cc * pl->n_opt;
  pl->ctxs = calloc(pl->n_prof, sizeof *pl->ctxs);
  pl->trs = calloc(per_prof * pl->n_prof, sizeof *pl->trs);
  pl->popts = calloc(pl->n_prof, sizeof *pl->popts);
  if (!pl->trs || !pl->ctxs || !pl->popts) {
    fprintf(stderr, "merlin: out of memory\n");
    return 1;
  }
  return 0;
}

/* Load profile p and set up its target runs. */
static int plan_profile(run_plan *pl, size_t p, int parallel,
                        unsigned workers) {
  const mh_run_opts *o = pl->o;
  run_ctx *c = &pl->ctxs[p];
  char err[1024];
  pl->popts[p] = *o;
  pl->popts[p].profile = pl->profs[p];
  if (parallel) { /* the job board reports progress instead */
    pl->popts[p].board = !o->quiet;
    pl->popts[p].quiet = 1;
  }
  c->o = &pl->popts[p];
  int rc = load_profile(c);
  if (rc == 0 && parallel) {
    /* Loaded here, not lazily on the worker threads. */
    unsigned ncpu = mh_jobs_default();
    c->build_jobs = ncpu > workers ? ncpu / workers : 1;
    if (!o->kat_only && !c->ct_list_loaded) {
      if (mh_ct_list_load(c->root, &c->ct_list, err, sizeof err) != 0) {
        fprintf(stderr, "merlin: %s\n", err);
        rc = 1;
      }
      c->ct_list_loaded = rc == 0;
    }
  }
  size_t n_row = pl->n_cc * pl->n_opt;
  for (size_t i = 0; rc == 0 && i < o->n_targets; i++)
    for (size_t k = 0; k < n_row; k++) {
      target_run *tr = &pl->trs[pl->done++];
      tr->t = mh_target_find(o->targets[i]);
      tr->ctx = c;
      tr->cc = pl->matrix ? pl->ccs[k / pl->n_opt] : NULL;
      tr->opt = pl->matrix ? pl->opts[k % pl->n_opt] : NULL;
      if (pl->matrix && pl->n_prof > 1)
        snprintf(tr->label, sizeof tr->label, "%s (profile %s, %s -%s)",
                 tr->t->id, c->profile_name, tr->cc, tr->opt);
      else if (pl->matrix)
        snprintf(tr->label, sizeof tr->label, "%s (%s -%s)", tr->t->id, tr->cc,
                 tr->opt);
      else
        snprintf(tr->label, sizeof tr->label, "%s", tr->t->id);
    }
  return rc;
}

/* After the runs: summaries and results (rc 0), or why nothing was
 * written. Returns the exit status. */
static int plan_finish(const run_plan *pl, int rc) {
  const mh_run_opts *o = pl->o;
  target_run *trs = pl->trs;
  size_t done = pl->done;
  if (rc == 0 && o->kat_only) {
    if (!o->quiet)
      for (size_t i = 0; i < done; i++)
        print_kat_summary(&trs[i]);
    printf("merlin: known-answer tests passed on %zu image(s); nothing timed, "
           "no results written\n",
           done);
  } else if (rc == 0) {
    if (!o->quiet)
      for (size_t i = 0; i < done; i++)
        print_summary(&trs[i]);
    /* The summary must have reached stdout before anything is written. */
    if (fflush(stdout) != 0 || ferror(stdout)) {
      fprintf(stderr, "merlin: cannot write the summary to stdout: %s\n",
              strerror(errno));
      rc = 1;
    } else {
      rc = write_results(o, trs, done);
    }
    if (rc != 0)
      fprintf(stderr, "merlin: no results written\n");
  } else if (rc != 2) {
    /* Interrupted anywhere (a build, a target, a read): 130, as
     * documented, whatever the interrupted call returned. */
    if (mh_exec_signal_received())
      rc = 130;
    size_t kat_failed = 0;
    for (size_t i = 0; i < done; i++)
      for (size_t k = 0; k < trs[i].res.run.n_ops; k++)
        kat_failed += trs[i].res.run.ops[k].kat == MH_KAT_FAIL;
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

int mh_cli_run(const mh_run_opts *o) {
  run_plan pl = {0};
  int rc = plan_init(&pl, o);
  if (rc != 0)
    goto out;
  /* report.html inlines the charting library: a missing one is said now,
   * before anything is built or run. */
  mh_html_assets assets;
  char err[1024];
  if (!o->kat_only && mh_cli_html_assets(&assets, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: %s\n", err);
    rc = 1;
    goto out;
  }
  if (!o->kat_only)
    mh_cli_html_assets_free(&assets);
  mh_exec_install_signal_handlers();
  size_t total = o->n_targets * pl.n_cc * pl.n_opt * pl.n_prof;
  unsigned workers = o->jobs ? o->jobs : mh_jobs_default();
  int parallel = workers > 1 && total > 1 && !o->from;
  for (size_t p = 0; rc == 0 && p < pl.n_prof; p++)
    rc = plan_profile(&pl, p, parallel, workers);
  if (rc == 0 && parallel)
    rc = run_parallel(pl.trs, pl.done, workers, o->quiet);
  else
    for (size_t i = 0; rc == 0 && i < pl.done; i++)
      rc = run_target(pl.trs[i].ctx, &pl.trs[i]);
  rc = plan_finish(&pl, rc);
out:
  plan_free(&pl);
  return rc;
}
