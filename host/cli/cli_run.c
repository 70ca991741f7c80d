/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin run`: its command line (the pipeline is host/run/pipeline.h). */
#include "cli/cli.h"
#include "cli/cli_parse.h"
#include "config/hooks.h"
#include "config/targets.h"
#include "run/board_model.h"
#include "run/cycles.h"
#include "run/matrix.h"
#include "run/pipeline.h"
#include "run/serial.h"

#include <stdlib.h>
#include <string.h>

/* merlin run: the raw values, then the checked options. */
typedef struct {
  mh_run_opts o;
  const char *profile, *runs, *warmup, *out, *timeout, *from, *kat, *fault,
      *repeat, *port, *baud, *cmodel, *fws, *cc, *opt, *jobs, *stall, *board,
      *accel;
  int quiet, kat_only, ct;
} run_args;

#define RA(f) offsetof(run_args, f)
#define RN(f, lo, hi) lo, hi, offsetof(run_args, o.f)
static const mh_opt_def RUN_OPTS[] = {
    {"--target", NULL, "T[,T...]",
     "targets to run (repeatable; see merlin list targets)", 0, 1, 0, 0, 0,
     NULL},
    {"--profile", NULL, "P",
     "profile name or path to a .profile file (default: default)", RA(profile),
     0, 0, 0, 0, NULL},
    {"--runs", NULL, "N", "timed runs per operation, %R (default: 101)",
     RA(runs), 0, RN(runs, 1, MH_RUNS_MAX), NULL},
    {"--warmup", NULL, "W", "warm-up runs per operation, %R (default: 5)",
     RA(warmup), 0, RN(warmup, 0, MH_WARMUP_MAX), NULL},
    {"--out", NULL, "DIR", "results directory (default: results)", RA(out), 0,
     0, 0, 0, NULL},
    {"--timeout", NULL, "SEC",
     "kill a target after SEC seconds in all, %R (default:\nnone)", RA(timeout),
     0, RN(timeout_s, 1, MH_TIMEOUT_MAX), NULL},
    {"--stall", NULL, "SEC",
     "a target that prints no console line for SEC seconds is\nhung: kill "
     "it, %R (default: 600)",
     RA(stall), 0, RN(stall_s, 1, MH_TIMEOUT_MAX), NULL},
    {"--from", NULL, "FILE",
     "parse a captured console stream instead of building and\nrunning "
     "(exactly one --target; not with --runs,\n--warmup, --timeout)",
     RA(from), 0, 0, 0, 0, NULL},
    {"--port", NULL, "DEV",
     "read the stream of a real board from serial port DEV\n(e.g. "
     "/dev/ttyACM0) instead of running; reset the board\nonce merlin "
     "listens (exactly one --target; the image's\nruns and warm-ups are "
     "built in)",
     RA(port), 0, 0, 0, 0, NULL},
    {"--baud", NULL, "N",
     "baud rate of --port (default: 115200; one of 9600,\n19200, 38400, "
     "57600, 115200, 230400, 460800, 921600,\n1000000, 2000000)",
     RA(baud), 0, 0, 0, 0, NULL},
    {"--kat-corrupt", NULL, "ALG/OP",
     "test hook: build an image whose ALG/OP known-answer\ntest fails "
     "(separate build directory)",
     RA(kat), 0, 0, 0, 0, NULL},
    {"--inject-fault", NULL, "KIND",
     "test hook: build an image that faults (busfault,\nusagefault, hang, "
     "stackoverflow, heap) after announcing\nits operations",
     RA(fault), 0, 0, 0, 0, NULL},
    {"--quiet", NULL, NULL,
     "no progress or summary, only errors and the result path", RA(quiet), 0, 0,
     0, 0, NULL},
    {"--repeat", NULL, "K",
     "run each target K times (fresh processes: power\ncycles) and report "
     "the spread of the medians, %R",
     RA(repeat), 0, RN(repeat, 1, 100), NULL},
    {"--ct", NULL, NULL,
     "also the memcheck constant-time pass on the host\n(valgrind, secrets "
     "poisoned; docs/constant-time.md)",
     RA(ct), 0, 0, 0, 0, NULL},
    {"--kat-only", NULL, NULL,
     "run every known-answer test on each target, time nothing,\nwrite no "
     "results; exit 1 if any fails",
     RA(kat_only), 0, 0, 0, 0, NULL},
    {"--cycle-model", NULL, "M",
     "QEMU targets: estimated cycles from the TCG plugin\n"
     "(docs/cycle-model.md): auto (the target's core; none\nfor M55), off "
     "(no plugin), m0plus,\nm0plus-smallmul, m3, m4, m33 or m7 (default: "
     "auto)",
     RA(cmodel), 0, 0, 0, 0, MH_CYC_CHOICES},
    {"--flash-ws", NULL, "N",
     "flash wait states the cycle model adds to every\npipeline refill, %R "
     "(default: 0)",
     RA(fws), 0, RN(flash_ws, 0, 15), NULL},
    {"--board", NULL, "B",
     "QEMU targets: estimate for part B of boards/ (same\ncore): its flash, "
     "caches and clock, and its datasheet\nenergy (docs/cycle-model.md)",
     RA(board), 0, 0, 0, 0, NULL},
    {"--accel", NULL, "G=N[,...]",
     "accelerator projection: cycles per call of keccak,\nntt, sha256, aes "
     "(default: docs/cycle-model.md), or\nnone",
     RA(accel), 0, 0, 0, 0, NULL},
    {"--cc", NULL, "C[,C...]",
     "compilers of the image and its libraries: gcc, clang\n(one image per "
     "compiler x --opt level; default: gcc)",
     RA(cc), 0, 0, 0, 0, NULL},
    {"--opt", NULL, "L[,L...]",
     "optimisation levels: O0, O1, O2, O3, Os, Oz (default: O2)", RA(opt), 0, 0,
     0, 0, NULL},
    {"--jobs", "-j", "N",
     "build images and run QEMU images N at a time, %R\n(default: online "
     "CPUs); host images always run alone",
     RA(jobs), 0, RN(jobs, 1, 64), NULL},
    {"--impl", NULL, "DIR[,DIR...]",
     "also measure these implementation folders (api.h and\nits sources; "
     "repeatable; docs/bring-your-own.md)",
     RA(o.impls), MH_OPT_LIST, 0, 0, 0, NULL},
    {"--impl-tree", NULL, "ROOT",
     "also measure every crypto_kem/<scheme>/<impl>/ and\ncrypto_sign/"
     "<scheme>/<impl>/ folder under ROOT, but\nhost-only ones (avx2, "
     "aarch64, ...; repeatable)",
     RA(o.impl_trees), MH_OPT_LIST, 0, 0, 0, NULL},
    {"--impl-skip", NULL, "PATTERN",
     "leave out the --impl-tree folders whose <scheme>/<impl>,\n<scheme> "
     "or <impl> matches PATTERN (shell pattern;\nrepeatable)",
     RA(o.impl_skips), MH_OPT_LIST, 0, 0, 0, NULL},
    {"--impl-hash", NULL, "H",
     "the Keccak behind the folders' fips202.h: c (PQClean's\ncommon C) or "
     "thumb2-asm (wolfSSL's Thumb-2 assembly;\nnot on M0+ or the host) "
     "(default: the profile's impl.hash, else c)",
     RA(o.impl_hash), 0, 0, 0, 0, MH_IMPL_HASHES},
};

static const mh_conflict RUN_CONFLICTS[] = {
    {"--from",
     {"--runs", "--warmup", "--timeout", "--stall", NULL},
     "--from reads a captured stream, whose runs and warm-ups are already "
     "in it: --runs, --warmup, --timeout and --stall do not apply"},
    {"--from",
     {"--inject-fault", NULL},
     "--inject-fault has no effect with --from"},
    {"--kat-only",
     {"--runs", "--warmup", NULL},
     "--kat-only times nothing: drop --runs/--warmup"},
    {"--repeat",
     {"--from", "--kat-only", NULL},
     "--repeat reruns timed images: not with --from or --kat-only"},
    {"--kat-only", {"--ct", NULL}, "--ct checks timed runs: drop --kat-only"},
    {"--from", {"--ct", NULL}, "--ct has no effect with --from"},
    {"--kat-only", {"--out", NULL}, "--kat-only writes no results: drop --out"},
    {"--port",
     {"--from", NULL},
     "--port and --from both give the stream: pick one"},
    {"--port",
     {"--kat-corrupt", "--inject-fault", "--repeat", "--ct", "--runs",
      "--warmup", NULL},
     "--port reads a board running its flashed image: --kat-corrupt, "
     "--inject-fault, --repeat, --ct, --runs and --warmup do not apply"},
    {"--cycle-model",
     {"--from", "--kat-only", "--port", NULL},
     "--cycle-model/--flash-ws apply to timed QEMU runs: not with --from, "
     "--port or --kat-only"},
    {"--flash-ws",
     {"--from", "--kat-only", "--port", NULL},
     "--cycle-model/--flash-ws apply to timed QEMU runs: not with --from, "
     "--port or --kat-only"},
    {"--board",
     {"--from", "--kat-only", "--port", "--flash-ws", NULL},
     "--board models a part on timed QEMU runs: not with --from, --port or "
     "--kat-only, and its flash replaces --flash-ws"},
    {"--accel",
     {"--from", "--kat-only", "--port", NULL},
     "--accel projects from the cycle plugin's profile: not with --from, "
     "--port or --kat-only"},
    {"--cc",
     {"--from", "--port", NULL},
     "--cc/--opt build images: not with --from or --port (the stream names "
     "its compiler)"},
    {"--opt",
     {"--from", "--port", NULL},
     "--cc/--opt build images: not with --from or --port (the stream names "
     "its compiler)"},
};

/* --port and --baud of merlin run. */
static int check_port_opts(const mh_parse_state *s, const char *port,
                           const char *baud, size_t n_targets, unsigned *out) {
  if (baud && !port)
    return mh_cli_usage_error(s, "--baud %s needs --port", baud);
  if (!port)
    return 0;
  if (n_targets != 1)
    return mh_cli_usage_error(s,
                              "--port %s reads one board: give exactly one "
                              "--target",
                              port);
  if (baud) {
    int rc = mh_cli_parse_uint(s, "--baud", baud, 1, 4000000, out);
    if (rc != 0)
      return rc;
    if (!mh_serial_baud_ok(*out))
      return mh_cli_usage_error(s,
                                "--baud %s is not a supported rate; valid: %s",
                                baud, mh_serial_bauds());
  }
  return 0;
}

/* merlin run: the values, and the options that cannot go together. */
static int check_run_args(const mh_parse_state *s, run_args *a) {
  mh_run_opts *o = &a->o;
  char err[1024];
  if (a->from && o->n_targets != 1)
    return mh_cli_usage_error(s, "--from %s needs exactly one --target",
                              a->from);
  if (a->from && a->kat)
    return mh_cli_usage_error(
        s, "--kat-corrupt %s has no effect with --from %s", a->kat, a->from);
  if (a->kat && mh_kat_corrupt_check(a->kat, NULL, err, sizeof err) != 0)
    return mh_cli_usage_error(s, "%s", err);
  if (a->fault && mh_inject_fault_check(a->fault, err, sizeof err) != 0)
    return mh_cli_usage_error(s, "%s", err);
  int rc = check_port_opts(s, a->port, a->baud, o->n_targets, &o->baud);
  if (rc != 0)
    return rc;
  for (size_t i = 0;
       !a->port && !a->from && o->n_targets > 1 && i < o->n_targets; i++)
    if (mh_target_find(o->targets[i])->kind == MH_EXEC_BOARD)
      return mh_cli_usage_error(s,
                                "%s is a real board: read it on its own, with "
                                "--port DEV (or --from FILE)",
                                o->targets[i]);
  double costs[MH_ACC_GROUPS];
  if (a->accel && mh_accel_parse(a->accel, costs, err, sizeof err) != 0)
    return mh_cli_usage_error(s, "%s", err);
  /* --board, --cycle-model, --accel, --flash-ws: before any build */
  if (mh_board_model_check(a->board, a->cmodel, a->accel, a->fws, o->targets,
                           o->n_targets, err, sizeof err) != 0)
    return mh_cli_usage_error(s, "%s", err);
  const char *lists[2][2] = {{"--cc", a->cc}, {"--opt", a->opt}};
  for (size_t k = 0; k < 2; k++) {
    char **vals = NULL;
    size_t nvals = 0;
    rc = lists[k][1] && mh_matrix_split(lists[k][0], lists[k][1], &vals, &nvals,
                                        err, sizeof err) != 0;
    mh_matrix_free(vals, nvals);
    if (rc)
      return mh_cli_usage_error(s, "%s", err);
  }
  return 0;
}

static int cmd_run(const mh_cmd_def *cmd, int argc, char **argv) {
  run_args a = {.o = {.runs = MH_RUNS_DEFAULT,
                      .warmup = MH_WARMUP_DEFAULT,
                      .timeout_s = MH_TIMEOUT_DEFAULT,
                      .stall_s = MH_STALL_DEFAULT,
                      .out = MH_OUT_DEFAULT,
                      .repeat = 1,
                      .baud = MH_BAUD_DEFAULT}};
  mh_parse_state s = {.cmd = cmd, .args = &a};
  mh_run_opts *o = &a.o;
  char *store = NULL;
  int rc =
      mh_cli_parse_cmd(&s, argc, argv, 0, &o->targets, &o->n_targets, &store);
  if (rc == 0)
    rc = check_run_args(&s, &a);
  if (rc == 0) {
    o->cycle_model = a.cmodel ? a.cmodel : "auto";
    o->part = a.board;
    o->accel = a.accel;
    if (a.kat_only)
      o->runs = o->warmup = 0;
    o->kat_only = a.kat_only;
    o->ct = a.ct;
    o->inject_fault = a.fault;
    o->profile = a.profile;
    o->out = a.out ? a.out : MH_OUT_DEFAULT;
    o->from = a.from;
    o->port = a.port;
    o->kat_corrupt = a.kat;
    o->cc = a.cc;
    o->opt = a.opt;
    o->quiet = a.quiet;
    rc = mh_cli_parse_only ? 0 : mh_pipeline_run(o);
  }
  free(o->targets);
  free(store);
  mh_cli_state_free(&s);
  return rc < 0 ? 0 : rc;
}

const mh_cmd_def mh_cmd_run = {
    "run",
    "usage: merlin run --target T[,T...] [options]\n"
    "\n"
    "Build the image of each target for the profile, run it, check the "
    "console\n"
    "stream and every known-answer test, and write OUT/<UTC time>/ with\n"
    "results.json, results.csv, report.md, report.html and\n"
    "console-<target>-<profile>.log; OUT/latest points at it. Any failure "
    "writes\n"
    "nothing and exits 1.\n",
    MH_OPTS(RUN_OPTS), MH_OPTS(RUN_CONFLICTS), cmd_run};
