/* SPDX-License-Identifier: Apache-2.0 */
#define _POSIX_C_SOURCE 200809L
#include "run/ct_pass.h"

#include "run/ct_trace.h"
#include "run/cycles.h"
#include "util/exec.h"
#include "util/fsutil.h"
#include "util/strbuf.h"
#include "wire/wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Largest console stream of the pass (as for a timed run). */
#define MAX_CONSOLE ((size_t)256 << 20)

char **mh_ct_only_argv(char **argv) {
  static const char from[] = "arg=--kat-only", to[] = "arg=--ct-only";
  for (size_t i = 0; argv && argv[i]; i++) {
    char *at = strstr(argv[i], from);
    if (!at)
      continue;
    mh_sb b = {0};
    mh_sb_printf(&b, "%.*s%s%s", (int)(at - argv[i]), argv[i], to,
                 at + sizeof from - 1);
    if (b.failed)
      break;
    free(argv[i]);
    argv[i] = b.s;
    return argv;
  }
  mh_argv_free(argv);
  return NULL;
}

/* The pass's command: QEMU with --ct-only, the plugin counting nothing
 * (model none, its cycle side file discarded) and tracing into side. */
static char **pass_argv(const mh_ct_pass *p, const char *side, char *err,
                        size_t errlen) {
  char *so = mh_cycles_plugin_path(err, errlen);
  if (!so)
    return NULL;
  char **argv = mh_ct_only_argv(mh_target_argv(p->t, p->image, 0, 0));
  if (argv)
    argv = mh_cycles_argv(argv, so, p->image, "/dev/null", "none", 0, NULL);
  if (argv)
    argv = mh_ct_trace_argv(argv, side);
  free(so);
  if (!argv)
    snprintf(err, errlen, "out of memory");
  return argv;
}

/* The pass's operations are the timed run's, one for one. */
static int same_ops(const mh_run *a, const mh_run *b) {
  if (a->n_ops != b->n_ops)
    return 0;
  for (size_t i = 0; i < a->n_ops; i++) {
    const mh_op *x = &a->ops[i], *y = &b->ops[i];
    if (x->id != y->id || !mh_str_same(x->alg, y->alg) ||
        !mh_str_same(x->op, y->op) || !mh_str_same(x->backend, y->backend) ||
        !mh_str_same(x->variant, y->variant) || x->bytes != y->bytes ||
        x->has_ct != y->has_ct)
      return 0;
  }
  return 1;
}

/* Run the pass; its parsed stream in *pr. */
static int pass_run(const mh_ct_pass *p, char **argv, const char *log,
                    mh_run *pr, char *err, size_t errlen) {
  mh_exec_spec spec = {.argv = argv,
                       .cwd = p->cwd,
                       .timeout_s = p->timeout_s,
                       .stall_s = p->stall_s,
                       .stdout_fd = -1,
                       .stderr_fd = -1,
                       .max_capture = MAX_CONSOLE,
                       .hooks = p->hooks};
  mh_exec_result res;
  char e2[512];
  if (mh_exec(&spec, &res, e2, sizeof e2) != 0) {
    snprintf(err, errlen, "cannot run QEMU: %s", e2);
    return -1;
  }
  int rc = -1;
  mh_wire_error werr;
  memset(&werr, 0, sizeof werr);
  if (log) /* for diagnosis; best effort */
    (void)mh_write_atomic(log, res.out ? res.out : "", res.out_len, e2,
                          sizeof e2);
  if (res.cancelled || res.timed_out || res.stalled || !res.exited ||
      res.exit_code != 0)
    snprintf(err, errlen, "QEMU with --ct-only %s (console in %s)",
             res.cancelled   ? "was interrupted"
             : res.timed_out ? "ran out of time (--timeout)"
             : res.stalled   ? "hung (--stall)"
                             : "failed",
             log ? log : "-");
  else if (mh_wire_parse(res.out, res.out_len, pr, &werr) != 0)
    snprintf(err, errlen, "stream rejected: line %zu: %s", werr.line, werr.msg);
  else
    rc = 0;
  mh_exec_result_free(&res);
  return rc;
}

int mh_ct_qemu_pass(const mh_ct_pass *p, mh_run *run, char *err,
                    size_t errlen) {
  char *side = mh_path_join(p->bdir, "ct.side");
  char *log = mh_path_join(p->bdir, "ct-console.log");
  char **argv = NULL;
  mh_run pr;
  memset(&pr, 0, sizeof pr);
  int rc = -1;
  if (!side || !log) {
    snprintf(err, errlen, "out of memory");
    goto out;
  }
  unlink(side); /* never read a stale one */
  argv = pass_argv(p, side, err, errlen);
  if (!argv || pass_run(p, argv, log, &pr, err, errlen) != 0 ||
      mh_ct_trace_attach(&pr, side, err, errlen) != 0)
    goto out;
  if (!same_ops(run, &pr)) {
    snprintf(err, errlen, "the --ct-only run announced other operations");
    goto out;
  }
  for (size_t i = 0; i < run->n_ops; i++) {
    mh_op *op = &run->ops[i];
    mh_ct_trace_free(op->ct_trace);
    free(op->ct_trace);
    op->ct_trace = pr.ops[i].ct_trace; /* the pass's, fresh secrets */
    pr.ops[i].ct_trace = NULL;
  }
  rc = 0;
out:
  mh_argv_free(argv);
  mh_run_free(&pr);
  free(side);
  free(log);
  return rc;
}
