/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin run`: its command line (the pipeline is host/plan/plan_run.h). */
#include "cli/cli.h"
#include "cli/cli_parse.h"
#include "config/hooks.h"
#include "config/targets.h"
#include "impl/impls.h"
#include "plan/plan.h"
#include "plan/plan_run.h"
#include "run/adhoc.h"
#include "run/board_model.h"
#include "run/cycles.h"
#include "run/matrix.h"
#include "run/serial.h"
#include "util/fsutil.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* merlin run: the raw values, then the checked options. */
typedef struct {
  mh_run_opts o;
  const char *profile, *runs, *warmup, *out, *timeout, *from, *kat, *fault,
      *repeat, *port, *baud, *cmodel, *fws, *cc, *opt, *jobs, *stall, *board,
      *accel, *shard, *alg, *backend;
  int quiet, kat_only, ct, no_ref_cache;
} run_args;

#define RA(f) offsetof(run_args, f)
#define RN(f, lo, hi) lo, hi, offsetof(run_args, o.f)
static const mh_opt_def RUN_OPTS[] = {
    MH_OPT_GROUP("what to run"),
    {"--target", NULL, "T[,T...]",
     "targets to run (repeatable; see merlin list targets)", 0, 1, 0, 0, 0,
     NULL},
    {"--profile", NULL, "P",
     "profile name or path to a .profile file (default: default)", RA(profile),
     0, 0, 0, 0, NULL},
    {"--alg", NULL, "A[,A...]",
     "instead of a profile: these algorithms (merlin list\nalgorithms) on "
     "the --backend libraries that offer them",
     RA(alg), 0, 0, 0, 0, NULL},
    {"--backend", NULL, "B[,B...]",
     "with --alg: the libraries (merlin list backends)", RA(backend), 0, 0, 0,
     0, NULL},
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
    {"--impl-common", NULL, "DIR[,DIR...]",
     "build the folders against this common code (fips202,\nkeccakf1600, "
     "sha2, aes, ...; the first directory\nthat has a file wins), or none: "
     "the pinned PQClean\ncommon code (default: a pqm4 or mupq checkout's "
     "own\ncommon/ and mupq/common/; repeatable)",
     RA(o.impl_common), MH_OPT_LIST, 0, 0, 0, NULL},
    {"--impl-host-common", NULL, "DIR[,DIR...]",
     "the common code of the host builds that compute the\nfolders' known "
     "answers (default: a pqm4 or mupq\ncheckout's portable C, mupq/mk/"
     "host-crypto.mk; none:\nthe pinned PQClean common code; repeatable)",
     RA(o.impl_host_common), MH_OPT_LIST, 0, 0, 0, NULL},
    {"--impl-hash", NULL, "H",
     "the Keccak behind the folders' fips202.h: c (PQClean's\ncommon C) or "
     "thumb2-asm (wolfSSL's Thumb-2 assembly;\nnot on M0+ or the host) "
     "(default: the profile's impl.hash, else c)",
     RA(o.impl_hash), 0, 0, 0, 0, MH_IMPL_HASHES},
    {"--cc", NULL, "C[,C...]",
     "compilers of the image and its libraries: gcc, clang\n(clang-19) or a "
     "gcc or clang driver's path (one image\nper compiler x --opt level; "
     "default: gcc)",
     RA(cc), 0, 0, 0, 0, NULL},
    {"--opt", NULL, "L[,L...]",
     "optimisation levels: O0, O1, O2, O3, Os, Oz (default: O2)", RA(opt), 0, 0,
     0, 0, NULL},
    {"--kat-only", NULL, NULL,
     "run every known-answer test on each target, time nothing,\nwrite no "
     "results; exit 1 if any fails",
     RA(kat_only), 0, 0, 0, 0, NULL},
    {"--ct", NULL, NULL,
     "also the memcheck constant-time pass on the host\n(valgrind, secrets "
     "poisoned; docs/constant-time.md)",
     RA(ct), 0, 0, 0, 0, NULL},
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
    MH_OPT_GROUP("how long and how often"),
    {"--runs", NULL, "N", "timed runs per operation, %R (default: 101)",
     RA(runs), 0, RN(runs, 1, MH_RUNS_MAX), NULL},
    {"--warmup", NULL, "W", "warm-up runs per operation, %R (default: 5)",
     RA(warmup), 0, RN(warmup, 0, MH_WARMUP_MAX), NULL},
    {"--repeat", NULL, "K",
     "run each target K times (fresh processes: power\ncycles) and report "
     "the spread of the medians, %R",
     RA(repeat), 0, RN(repeat, 1, 100), NULL},
    {"--timeout", NULL, "SEC",
     "kill a target after SEC seconds in all, %R (default:\nnone)", RA(timeout),
     0, RN(timeout_s, 1, MH_TIMEOUT_MAX), NULL},
    {"--stall", NULL, "SEC",
     "a target that prints no console line for SEC seconds is\nhung: kill "
     "it, %R (default: 600)",
     RA(stall), 0, RN(stall_s, 1, MH_TIMEOUT_MAX), NULL},
    {"--jobs", "-j", "N",
     "build images and run QEMU images N at a time, %R\n(default: online "
     "CPUs); host images always run alone",
     RA(jobs), 0, RN(jobs, 1, 64), NULL},
    {"--no-ref-cache", NULL, NULL,
     "run the implementation folders' host references again,\nneither "
     "reading nor writing build/cache/nistkat",
     RA(no_ref_cache), 0, 0, 0, 0, NULL},
    MH_OPT_GROUP("estimates (QEMU targets)"),
    {"--cycle-model", NULL, "M",
     "QEMU targets: estimated cycles from the TCG plugin\n"
     "(docs/cycle-model.md): auto (the target's core), off\n"
     "(no plugin), m0plus, m0plus-smallmul, m3, m4,\nm33, m55, m7 or m85 "
     "(default: auto)",
     RA(cmodel), 0, 0, 0, 0, MH_CYC_CHOICES},
    {"--flash-ws", NULL, "N",
     "flash wait states the cycle model adds to every\npipeline refill, %R "
     "(default: 0)",
     RA(fws), 0, RN(flash_ws, 0, 15), NULL},
    {"--board", NULL, "B",
     "estimate for part B of boards/ (merlin list boards) on\nits core's "
     "QEMU target: its flash, caches, clock and\ndatasheet energy "
     "(docs/cycle-model.md); a real board\nis --target <board> with --port",
     RA(board), 0, 0, 0, 0, NULL},
    {"--accel", NULL, "G=N[,...]",
     "accelerator projection: cycles per call of keccak,\nntt, sha256, aes "
     "(default: docs/cycle-model.md), or\nnone",
     RA(accel), 0, 0, 0, 0, NULL},
    MH_OPT_GROUP("plans and slices (docs/scaling.md)"),
    {"--plan-only", NULL, "FILE",
     "write the run's plan (its jobs, their slices with\n--shard) to FILE "
     "or - and run nothing",
     RA(o.plan_only), 0, 0, 0, 0, NULL},
    {"--costs", NULL, "DIR",
     "with --plan-only: estimate each job's cost from the\nresults in DIR "
     "(slices then balance them)",
     RA(o.costs), 0, 0, 0, 0, NULL},
    {"--shard", NULL, "K/N",
     "run only slice K (0..N-1) of the plan's N slices into\nOUT, for "
     "merlin merge (docs/scaling.md)",
     RA(shard), 0, 0, 0, 0, NULL},
    {"--plan", NULL, "FILE",
     "run the plan --plan-only wrote (its options; give only\n--shard, "
     "--out, -j, --quiet, --stall, --timeout)",
     RA(o.plan_file), 0, 0, 0, 0, NULL},
    MH_OPT_GROUP("output"),
    {"--out", NULL, "DIR", "results directory (default: results)", RA(out), 0,
     0, 0, 0, NULL},
    {"--quiet", NULL, NULL,
     "no progress or summary, only errors and the result path", RA(quiet), 0, 0,
     0, 0, NULL},
    {"--no-sizes", NULL, NULL,
     "no code-size table (an image linked per algorithm) and\nno fit per "
     "part: for quick runs",
     RA(o.no_sizes), 0, 0, 0, 0, NULL},
    MH_OPT_GROUP("test hooks (merlin help --all)"),
    {"--kat-corrupt", NULL, "ALG/OP",
     "test hook: build an image whose ALG/OP known-answer\ntest fails "
     "(separate build directory)",
     RA(kat), 0, 0, 0, 0, NULL},
    {"--inject-fault", NULL, "KIND",
     "test hook: build an image that faults (busfault,\nusagefault, hang, "
     "stackoverflow, heap) after announcing\nits operations",
     RA(fault), 0, 0, 0, 0, NULL},
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
    {"--from",
     {"--impl", "--impl-tree", "--impl-skip", "--impl-common",
      "--impl-host-common", "--impl-hash", NULL},
     "--from reads a captured stream: --impl, --impl-tree, --impl-skip, "
     "--impl-common, --impl-host-common and --impl-hash build folders into "
     "an image, which --from does not"},
    {"--port",
     {"--impl", "--impl-tree", "--impl-skip", "--impl-common",
      "--impl-host-common", "--impl-hash", NULL},
     "--port reads a board running its flashed image: --impl, --impl-tree, "
     "--impl-skip, --impl-common, --impl-host-common and --impl-hash do not "
     "apply (give them when building its image)"},
    {"--cc",
     {"--from", "--port", NULL},
     "--cc/--opt build images: not with --from or --port (the stream names "
     "its compiler)"},
    {"--opt",
     {"--from", "--port", NULL},
     "--cc/--opt build images: not with --from or --port (the stream names "
     "its compiler)"},
    {"--alg",
     {"--profile", "--from", "--port", NULL},
     "--alg makes the profile: not with --profile, --from or --port"},
    {"--shard",
     {"--from", "--port", "--kat-only", NULL},
     "--shard runs a slice of a plan and writes it for merlin merge: not "
     "with --from, --port or --kat-only"},
    {"--plan-only",
     {"--from", "--port", "--plan", "--out", NULL},
     "--plan-only writes a plan and runs nothing: not with --from, --port, "
     "--plan or --out"},
    {"--costs",
     {"--from", "--port", NULL},
     "--costs estimates the jobs of a plan: give it with --plan-only"},
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
  mh_impl_opts fo = mh_run_impl_opts(o);
  if (mh_run_impl_usage(&fo, err, sizeof err) != 0)
    return mh_cli_usage_error(s, "%s", err);
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

/* A decimal number of at most 9 digits at *p (no sign, no space): its
 * value, *p past it; -1 when there is none. */
static long shard_number(const char **p) {
  long v = 0;
  size_t n = 0;
  for (; (*p)[n] >= '0' && (*p)[n] <= '9'; n++)
    if (n < 9)
      v = v * 10 + ((*p)[n] - '0');
  *p += n;
  return n && n <= 9 ? v : -1;
}

/* --shard K/N into o (N 1..MH_SHARDS_MAX, K below N): digits only, read
 * whole (never wrapped: 4294967297 is not 1). */
static int parse_shard(const mh_parse_state *s, const char *v, mh_run_opts *o) {
  if (!v)
    return 0;
  const char *p = v;
  long k = shard_number(&p), n = -1;
  if (k >= 0 && *p == '/') {
    p++;
    n = shard_number(&p);
  }
  if (k < 0 || n < 1 || *p || n > MH_SHARDS_MAX || k >= n)
    return mh_cli_usage_error(s,
                              "--shard takes K/N: N slices (1..%u), slice K "
                              "from 0 to N-1; got '%s'",
                              MH_SHARDS_MAX, v);
  o->shard = (unsigned)k;
  o->shards = (unsigned)n;
  return 0;
}

/* Options that say where and how a run executes, not what it measures: a
 * plan file leaves them out, and they are what may be added to --plan. */
static int execution_opt(const char *name) {
  static const char *const names[] = {
      "--out",   "--jobs",      "--quiet", "--stall", "--timeout",
      "--shard", "--plan-only", "--costs", "--plan",  "--no-ref-cache"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (strcmp(name, names[i]) == 0)
      return 1;
  return 0;
}

/* argv without its execution options (the plan file's "args"): a
 * malloc'd list of pointers into argv. */
static const char **measure_args(const mh_cmd_def *cmd, int argc, char **argv,
                                 size_t *n) {
  const char **v = calloc((size_t)argc + 1, sizeof *v);
  *n = 0;
  for (int i = 0; v && i < argc;) {
    int slots;
    const char *name = mh_cli_opt_at(cmd, argc, argv, i, &slots);
    for (int k = 0; k < slots; k++)
      if (!name || !execution_opt(name))
        v[(*n)++] = argv[i + k];
    i += slots;
  }
  return v;
}

static int run_line(const mh_cmd_def *cmd, int argc, char **argv, int depth);

/* The first execution option of argv (its name), or NULL. */
static const char *first_execution_opt(const mh_cmd_def *cmd, int argc,
                                       char **argv) {
  for (int i = 0; i < argc;) {
    int slots;
    const char *name = mh_cli_opt_at(cmd, argc, argv, i, &slots);
    if (name && execution_opt(name))
      return name;
    i += slots;
  }
  return NULL;
}

/* The first option of argv that is not an execution option, or NULL. */
static const char *first_measure_opt(const mh_cmd_def *cmd, int argc,
                                     char **argv) {
  for (int i = 0; i < argc;) {
    int slots;
    const char *name = mh_cli_opt_at(cmd, argc, argv, i, &slots);
    if (name && !execution_opt(name))
      return name;
    i += slots;
  }
  return NULL;
}

/* --plan FILE: the file's options, then the execution options given here
 * (and nothing else), parsed as one command line. The file says what to
 * run, the command line how: a file whose args carry an execution option
 * (where results go, how many at a time, ...) is refused. */
static int run_plan_file(const mh_cmd_def *cmd, int argc, char **argv,
                         const char *file, int depth) {
  char err[1024];
  mh_parse_state s = {.cmd = cmd};
  const char *name = first_measure_opt(cmd, argc, argv);
  if (name)
    return mh_cli_usage_error(&s,
                              "--plan %s gives the run's options: add only "
                              "--shard, --out, -j, --quiet, --stall, "
                              "--timeout or --no-ref-cache, not %s",
                              file, name);
  json_t *root = mh_plan_file_read(file, err, sizeof err), *args;
  if (!root)
    return mh_cli_usage_error(&s, "--plan %s", err);
  args = json_object_get(root, "args");
  size_t na = json_array_size(args), n = 0;
  char **v = calloc(na + (size_t)argc + 1, sizeof *v);
  int rc = v && json_is_array(args) ? 0 : -1;
  for (size_t i = 0; rc == 0 && i < na; i++)
    if (!json_is_string(json_array_get(args, i)))
      rc = -1;
    else
      v[n++] = (char *)json_string_value(json_array_get(args, i));
  const char *how = rc == 0 ? first_execution_opt(cmd, (int)n, v) : NULL;
  for (int i = 0; rc == 0 && i < argc; i++)
    v[n++] = argv[i];
  if (how)
    rc = mh_cli_usage_error(&s,
                            "--plan %s: its args carry %s, which says how to "
                            "run, not what: a plan file never does (merlin "
                            "run --plan-only writes none; give %s on the "
                            "command line)",
                            file, how, how);
  else
    rc = rc == 0 ? run_line(cmd, (int)n, v, depth + 1)
                 : mh_cli_usage_error(&s,
                                      "--plan %s: not a plan (merlin run "
                                      "--plan-only FILE writes one)",
                                      file);
  free(v);
  json_decref(root);
  return rc;
}

/* --alg/--backend: the profile they make (run/adhoc.h) as --profile. */
static int adhoc(const mh_parse_state *s, run_args *a, char **path) {
  char err[1024];
  int usage;
  if (!a->alg)
    return mh_cli_usage_error(s, "--backend %s goes with --alg", a->backend);
  if (!a->backend)
    return mh_cli_usage_error(s,
                              "--alg %s needs --backend B[,B...] (merlin "
                              "list backends)",
                              a->alg);
  if (mh_cli_parse_only)
    return 0;
  if (!(*path = mh_adhoc_profile(a->alg, a->backend, &usage, err, sizeof err)))
    return usage ? mh_cli_usage_error(s, "%s", err)
                 : (fprintf(stderr, "merlin: %s\n", err), 1);
  a->profile = *path;
  if (!a->quiet)
    fprintf(stderr,
            "merlin: --alg/--backend: profile %s (the same as --profile "
            "with that file)\n",
            *path);
  return 0;
}

static void set_opts(run_args *a) {
  mh_run_opts *o = &a->o;
  o->cycle_model = a->cmodel ? a->cmodel : "auto";
  o->part = a->board;
  o->accel = a->accel;
  if (a->kat_only)
    o->runs = o->warmup = 0;
  o->kat_only = a->kat_only;
  o->ct = a->ct;
  o->inject_fault = a->fault;
  o->profile = a->profile;
  o->out = a->out ? a->out : MH_OUT_DEFAULT;
  o->from = a->from;
  o->port = a->port;
  o->kat_corrupt = a->kat;
  o->cc = a->cc;
  o->opt = a->opt;
  o->quiet = a->quiet;
  o->no_ref_cache = a->no_ref_cache;
}

/* One command line of merlin run (depth 1: one read from --plan). */
static int run_line(const mh_cmd_def *cmd, int argc, char **argv, int depth) {
  run_args a = {.o = {.runs = MH_RUNS_DEFAULT,
                      .warmup = MH_WARMUP_DEFAULT,
                      .timeout_s = MH_TIMEOUT_DEFAULT,
                      .stall_s = MH_STALL_DEFAULT,
                      .out = MH_OUT_DEFAULT,
                      .repeat = 1,
                      .baud = MH_BAUD_DEFAULT}};
  mh_parse_state s = {.cmd = cmd, .args = &a};
  mh_run_opts *o = &a.o;
  char *store = NULL, *adhoc_path = NULL;
  const char **margs = NULL;
  for (int i = 0; depth == 0 && i < argc;) { /* --plan FILE: its options */
    int slots;
    const char *name = mh_cli_opt_at(cmd, argc, argv, i, &slots);
    if (name && strcmp(name, "--plan") == 0) {
      const char *eq = strchr(argv[i], '=');
      return run_plan_file(cmd, argc, argv,
                           slots == 2 ? argv[i + 1]
                           : eq       ? eq + 1
                                      : "",
                           depth);
    }
    i += slots;
  }
  int rc =
      mh_cli_parse_cmd(&s, argc, argv, 0, &o->targets, &o->n_targets, &store);
  if (rc == 0)
    rc = check_run_args(&s, &a);
  if (rc == 0)
    rc = parse_shard(&s, a.shard, o);
  if (rc == 0 && o->costs && !o->plan_only)
    rc = mh_cli_usage_error(&s, "--costs %s goes with --plan-only", o->costs);
  if (rc == 0 && (a.alg || a.backend))
    rc = adhoc(&s, &a, &adhoc_path);
  if (rc == 0) {
    set_opts(&a);
    if (o->plan_only &&
        !(margs = measure_args(cmd, argc, argv, &o->n_plan_args)))
      rc = 1;
    o->plan_args = margs;
  }
  if (rc == 0)
    rc = mh_cli_parse_only ? 0 : mh_plan_run(o);
  free(margs);
  free(adhoc_path);
  free(o->targets);
  free(store);
  mh_cli_state_free(&s);
  return rc;
}

static int cmd_run(const mh_cmd_def *cmd, int argc, char **argv) {
  int rc = run_line(cmd, argc, argv, 0);
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
    "nothing and exits 1. The run is a plan of jobs (one image on one "
    "target):\n"
    "--plan-only writes it, --shard K/N runs one slice of it, merlin merge "
    "joins\n"
    "the slices (docs/scaling.md).\n",
    MH_OPTS(RUN_OPTS), MH_OPTS(RUN_CONFLICTS), cmd_run};
