/* SPDX-License-Identifier: Apache-2.0 */
/* The check stage (see stages.h): the stream read, parsed and checked
 * into a result, its units and cycle estimates attached. */
#include "impl/impl_record.h"
#include "model/build.h"
#include "model/workflow.h"
#include "run/board_model.h"
#include "run/cycles.h"
#include "run/matrix.h"
#include "run/run_port.h"
#include "run/stages.h"
#include "util/exec.h"
#include "util/fsutil.h"
#include "wire/wire.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

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

/* After the side file: the --board part (clock, energy) and the
 * accelerator costs of the projection (--accel, or the defaults). */
static int cycles_extras(mh_run_ctx *c, mh_job *tr) {
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

/* The run's implementation folders into the result (results.json
 * "implementations", host/impl/impl_record.c). 0, or -1 (memory). */
static int record_impls(const mh_run_ctx *c, mh_job *tr) {
  mh_build_spec bs = mh_job_build_spec(c, tr, 1);
  char *bdir = mh_build_dir(&bs);
  int rc =
      mh_impl_record(&c->impls, bdir, tr->impl_off, tr->impl_why, &tr->res);
  free(bdir);
  return rc;
}

/* Every reason the parsed run must not count; prints each, returns the
 * number of failures. */
static int check_run(const mh_run_ctx *c, const mh_job *tr) {
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
    char cc[64], want_cc[64], opt[32], want_opt[32];
    mh_result_cc(&tr->res, cc, sizeof cc);
    mh_path_tag(tr->cc, want_cc, sizeof want_cc);
    mh_result_opt(&tr->res, opt, sizeof opt);
    snprintf(want_opt, sizeof want_opt, "-%s", tr->opt);
    if (strcmp(cc, want_cc) != 0 || strcmp(opt, want_opt) != 0) {
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
    mh_op_label(op, label, sizeof label);
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

/* Run (or read) one target and turn its stream into a checked result.
 * Returns 0, 1 (failed, reported) or 130 (interrupted). */
int mh_stage_check(mh_run_ctx *c, mh_job *tr) {
  const mh_run_opts *o = c->o;
  const char *id = tr->label;
  char err[1024];
  int exec_rc = 0;
  if (o->from) {
    if (mh_read_file(o->from, MH_MAX_CONSOLE_BYTES, &tr->console,
                     &tr->console_len, err, sizeof err) != 0) {
      fprintf(stderr, "merlin: %s\n", err);
      return 1;
    }
  } else if (o->port) {
    exec_rc = mh_run_read_port(o, tr->t, &tr->console, &tr->console_len,
                               MH_MAX_CONSOLE_BYTES);
    if (exec_rc != 0)
      return exec_rc;
    if (mh_run_ctx_root(c) == 0)
      tr->console_copy =
          mh_run_keep_capture(c->root, tr->t, tr->console, tr->console_len);
  } else if (tr->t->kind == MH_EXEC_BOARD) {
    return mh_stage_board_hint(c, tr);
  } else {
    exec_rc = mh_stage_execute(c, tr);
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
