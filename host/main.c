/* SPDX-License-Identifier: Apache-2.0 */
/* merlin: the host CLI. Parses the command line, checks every value (a
 * usage error exits 2 with the valid choices), and dispatches to the
 * subcommands (cli.h). Documented in docs/cli.md. */
#include "cli/cli.h"
#include "config/targets.h"
#include "run/cycles.h"
#include "run/matrix.h"
#include "run/serial.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef MERLIN_VERSION
#define MERLIN_VERSION "0.0.0"
#endif

#define USAGE_EXIT 2

static const char USAGE[] =
    "usage: merlin <command> [options]\n"
    "\n"
    "Benchmark classical and post-quantum crypto on Cortex-M (under QEMU) "
    "and the host.\n"
    "\n"
    "commands:\n"
    "  run      build, run and measure images; write results\n"
    "  build    build the image of a target for a profile\n"
    "  report   regenerate report.md of a results directory\n"
    "  compare  change per operation between two results; regression gate\n"
    "  sizes    flash and static RAM per algorithm and backend\n"
    "  list     list targets, profiles, algorithms, backends, boards or "
    "coverage\n"
    "\n"
    "  merlin <command> --help   options of one command\n"
    "  merlin --version          print the version\n";

static const char HELP_RUN[] =
    "usage: merlin run --target T[,T...] [options]\n"
    "\n"
    "Build the image of each target for the profile, run it, check the "
    "console\n"
    "stream and every known-answer test, and write OUT/<UTC time>/ with\n"
    "results.json, results.csv, report.md, report.html and\n"
    "console-<target>-<profile>.log; OUT/latest points at it. Any failure "
    "writes\n"
    "nothing and exits 1.\n"
    "\n"
    "options:\n"
    "  --target T[,T...]  targets to run (repeatable; see merlin list "
    "targets)\n"
    "  --profile P        profile name or path to a .profile file "
    "(default: default)\n"
    "  --runs N           timed runs per operation, 1..100000 (default: "
    "101)\n"
    "  --warmup W         warm-up runs per operation, 0..10000 (default: 5)\n"
    "  --out DIR          results directory (default: results)\n"
    "  --timeout SEC      kill a target after SEC seconds in all, 1..604800 "
    "(default:\n"
    "                     none)\n"
    "  --stall SEC        a target that prints no console line for SEC "
    "seconds is\n"
    "                     hung: kill it, 1..604800 (default: 600)\n"
    "  --from FILE        parse a captured console stream instead of "
    "building and\n"
    "                     running (exactly one --target; not with --runs,\n"
    "                     --warmup, --timeout)\n"
    "  --port DEV         read the stream of a real board from serial port "
    "DEV\n"
    "                     (e.g. /dev/ttyACM0) instead of running; reset "
    "the board\n"
    "                     once merlin listens (exactly one --target; the "
    "image's\n"
    "                     runs and warm-ups are built in)\n"
    "  --baud N           baud rate of --port (default: 115200; one of "
    "9600,\n"
    "                     19200, 38400, 57600, 115200, 230400, 460800, "
    "921600,\n"
    "                     1000000, 2000000)\n"
    "  --kat-corrupt ALG/OP  test hook: build an image whose ALG/OP "
    "known-answer\n"
    "                     test fails (separate build directory)\n"
    "  --inject-fault KIND  test hook: build an image that faults (busfault,\n"
    "                     usagefault, hang, stackoverflow, heap) after "
    "announcing\n"
    "                     its operations\n"
    "  --quiet            no progress or summary, only errors and the "
    "result path\n"
    "  --repeat K         run each target K times (fresh processes: power\n"
    "                     cycles) and report the spread of the medians, "
    "1..100\n"
    "  --ct               also the memcheck constant-time pass on the host\n"
    "                     (valgrind, secrets poisoned; docs/constant-time.md)\n"
    "  --kat-only         run every known-answer test on each target, time "
    "nothing,\n"
    "                     write no results; exit 1 if any fails\n"
    "  --cycle-model M    QEMU targets: estimated cycles from the TCG plugin\n"
    "                     (docs/cycle-model.md): auto (the target's core; "
    "none\n"
    "                     for M7, M33, M55), off (no plugin), m0plus,\n"
    "                     m0plus-smallmul, m3 or m4 (default: auto)\n"
    "  --flash-ws N       flash wait states the cycle model adds to every\n"
    "                     pipeline refill, 0..15 (default: 0)\n"
    "  --cc C[,C...]      compilers of the image and its libraries: gcc, "
    "clang\n"
    "                     (one image per compiler x --opt level; default: "
    "gcc)\n"
    "  --opt L[,L...]     optimisation levels: O0, O1, O2, O3, Os, Oz "
    "(default: O2)\n"
    "  -j, --jobs N       build images and run QEMU images N at a time, "
    "1..64\n"
    "                     (default: online CPUs); host images always run "
    "alone\n"
    "  -h, --help         this help\n";

static const char HELP_BUILD[] =
    "usage: merlin build --target T[,T...] [options]\n"
    "\n"
    "Generate the profile files and build the image of each target into\n"
    "build/img/<target>-<profile>/; prints the image path. The build output "
    "is\n"
    "kept in build.log there and shown only when the build fails.\n"
    "\n"
    "options:\n"
    "  --target T[,T...]  targets to build (repeatable)\n"
    "  --profile P        profile name or path (default: default)\n"
    "  --kat-corrupt ALG/OP  test hook: make that known-answer test fail "
    "(build\n"
    "                     directory gets the suffix -katfail)\n"
    "  --inject-fault KIND  test hook: an image that faults (busfault,\n"
    "                     usagefault, hang, stackoverflow, heap); suffix "
    "-fault-KIND\n"
    "  --quiet            no progress lines\n"
    "  -h, --help         this help\n";

static const char HELP_SIZES[] =
    "usage: merlin sizes --target T[,T...] [options]\n"
    "\n"
    "For each target, link one image per (algorithm, backend) the profile "
    "routes,\n"
    "holding only that pair, and one empty baseline image, all with\n"
    "--gc-sections, in build/img/<target>-<profile>-sizes/ (configured once,"
    "\n"
    "then only relinked). Print each pair's flash (.text + .rodata + .data) "
    "and\n"
    "static RAM (.data + .bss) minus the baseline's, and what each library "
    "adds,\n"
    "from the link map. Stack and heap reservations are not counted. See\n"
    "docs/sizes.md.\n"
    "\n"
    "options:\n"
    "  --target T[,T...]  targets to measure (repeatable; see merlin list "
    "targets)\n"
    "  --profile P        profile name or path to a .profile file "
    "(default: default)\n"
    "  --json FILE        also write the records, per library too, as JSON\n"
    "  --quiet            no progress lines\n"
    "  -h, --help         this help\n";

static const char HELP_COMPARE[] =
    "usage: merlin compare OLD NEW [--threshold PCT] [--force] [--md FILE]\n"
    "\n"
    "Compare two results (directories or results.json files) operation by\n"
    "operation: old and new median, the change, and whether it lies outside\n"
    "both runs' spread (the sum of their IQRs). Exits 1 when an operation\n"
    "got slower by more than the threshold outside the spread, 0 otherwise.\n"
    "Runs built differently (compiler, flags, libraries, routes, unit) are\n"
    "compared only with --force; the differences are printed first.\n"
    "\n"
    "options:\n"
    "  --threshold PCT    regression threshold in percent (default: 2)\n"
    "  --force            compare runs whose provenance differs\n"
    "  --md FILE          also write a Markdown summary (pull-request "
    "comment)\n"
    "  -h, --help         this help\n";

static const char HELP_REPORT[] =
    "usage: merlin report DIR [--format md|html|csv|json|latex]\n"
    "\n"
    "Read DIR/results.json and write a report of it again (for example "
    "after\n"
    "upgrading merlin): merlin report results/latest\n"
    "\n"
    "options:\n"
    "  --format F         md: report.md (default); html: report.html; csv:\n"
    "                     results.csv; json:\n"
    "                     results.json rewritten; latex: report.tex (tables "
    "for\n"
    "                     papers: booktabs, longtable)\n"
    "  -h, --help         this help\n";

static const char HELP_LIST[] =
    "usage: merlin list [targets|profiles|algorithms|backends|boards]\n"
    "       merlin list coverage [DIR]   (also: merlin list --coverage)\n"
    "\n"
    "List what merlin knows; without an argument, everything. coverage\n"
    "prints algorithm x backend: offered by the adapter, and KAT-passing in\n"
    "the results in DIR (default results/latest); a DIR that is missing or\n"
    "unreadable is an error (exit 1).\n"
    "\n"
    "options:\n"
    "  --coverage [DIR]   the same as coverage [DIR]\n"
    "  -h, --help         this help\n";

static const char *const LISTS[] = {"targets", "profiles", "algorithms",
                                    "backends", "boards"};

/* Set by mh_main_parse (the option-parser fuzzer): parse and check the
 * command line, then return the exit status without running anything. */
static int parse_only;

/* ---- option parsing -------------------------------------------------- */

typedef struct {
  const char *name; /* "--runs" */
  int has_arg;
  const char **value; /* last value given (has_arg) */
  int *flag;          /* set to 1 (!has_arg) */
  int repeat;         /* values accumulate in the targets list */
} opt_def;

typedef struct {
  const char *cmd;
  const char *help;
  const opt_def *opts;
  size_t n_opts;
  const char **targets; /* accumulated --target values */
  size_t n_targets;
  const char **pos; /* positional arguments */
  size_t n_pos;
} parse_state;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int
usage_error(const parse_state *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "merlin %s: ", s->cmd);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n(see merlin %s --help)\n", s->cmd);
  va_end(ap);
  return USAGE_EXIT;
}

static void valid_options(const parse_state *s, char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < s->n_opts && used < len; i++)
    used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
                             s->opts[i].name);
  if (used < len)
    snprintf(buf + used, len - used, "%s--help", s->n_opts ? ", " : "");
}

/* Returns -1 on --help (printed), 0 on success, or USAGE_EXIT. */
static int parse(parse_state *s, int argc, char **argv) {
  s->targets = calloc((size_t)argc + 1, sizeof *s->targets);
  s->pos = calloc((size_t)argc + 1, sizeof *s->pos);
  if (!s->targets || !s->pos) {
    fprintf(stderr, "merlin: out of memory\n");
    return 1;
  }
  int only_pos = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (only_pos || a[0] != '-' || a[1] == '\0') {
      s->pos[s->n_pos++] = a;
      continue;
    }
    if (strcmp(a, "--") == 0) {
      only_pos = 1;
      continue;
    }
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      fputs(s->help, stdout);
      return -1;
    }
    const char *eq = strchr(a, '=');
    size_t nl = eq ? (size_t)(eq - a) : strlen(a);
    const opt_def *d = NULL;
    for (size_t k = 0; k < s->n_opts; k++)
      if (strlen(s->opts[k].name) == nl && strncmp(s->opts[k].name, a, nl) == 0)
        d = &s->opts[k];
    /* A one-letter option with its value attached: -j2. */
    const char *attached = NULL;
    for (size_t k = 0; !d && a[1] != '-' && k < s->n_opts; k++)
      if (s->opts[k].has_arg && strlen(s->opts[k].name) == 2 &&
          strncmp(s->opts[k].name, a, 2) == 0) {
        d = &s->opts[k];
        attached = a + 2;
      }
    if (!d) {
      char valid[512];
      valid_options(s, valid, sizeof valid);
      return usage_error(s, "unknown option '%s'; valid: %s", a, valid);
    }
    if (!d->has_arg) {
      if (eq)
        return usage_error(s, "option %s takes no value", d->name);
      *d->flag = 1;
      continue;
    }
    const char *v = attached ? attached : eq ? eq + 1 : NULL;
    if (!v) {
      if (i + 1 >= argc)
        return usage_error(s, "option %s needs a value", d->name);
      v = argv[++i];
    }
    if (!*v)
      return usage_error(s, "option %s needs a non-empty value", d->name);
    if (d->repeat)
      s->targets[s->n_targets++] = v;
    else
      *d->value = v;
  }
  return 0;
}

static int parse_uint(const parse_state *s, const char *name, const char *v,
                      unsigned lo, unsigned hi, unsigned *out) {
  char *end;
  errno = 0;
  unsigned long x = v[0] >= '0' && v[0] <= '9' ? strtoul(v, &end, 10) : 0;
  if (v[0] < '0' || v[0] > '9' || errno || *end || x < lo || x > hi) {
    return usage_error(s, "%s must be an integer in %u..%u, got '%s'", name, lo,
                       hi, v);
  }
  *out = (unsigned)x;
  return 0;
}

/* Split the --target values on commas and check each. The returned list
 * points into a malloc'd copy kept in *store. */
static int split_targets(const parse_state *s, const char ***out, size_t *n,
                         char **store) {
  size_t total = 1;
  for (size_t i = 0; i < s->n_targets; i++)
    total += strlen(s->targets[i]) + 1;
  char *buf = malloc(total);
  const char **list = calloc(total, sizeof *list);
  *store = buf;
  *out = list;
  *n = 0;
  if (!buf || !list) {
    fprintf(stderr, "merlin: out of memory\n");
    return 1;
  }
  char valid[256];
  mh_target_list(valid, sizeof valid);
  if (s->n_targets == 0)
    return usage_error(s, "--target is required; valid: %s", valid);
  char *p = buf;
  for (size_t i = 0; i < s->n_targets; i++) {
    strcpy(p, s->targets[i]);
    char *save = NULL;
    for (char *t = strtok_r(p, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
      if (!mh_target_find(t))
        return usage_error(s, "unknown target '%s'; valid: %s", t, valid);
      for (size_t k = 0; k < *n; k++)
        if (strcmp(list[k], t) == 0)
          return usage_error(s, "target '%s' given twice", t);
      list[(*n)++] = t;
    }
    /* Past this value's copy: strtok_r cut it at its first comma. */
    p += strlen(s->targets[i]) + 1;
  }
  if (*n == 0)
    return usage_error(s, "--target is empty; valid: %s", valid);
  return 0;
}

static void state_free(parse_state *s) {
  free(s->targets);
  free(s->pos);
}

/* --port and --baud of merlin run. */
static int check_port_opts(const parse_state *s, const char *port,
                           const char *baud, const char *from, size_t n_targets,
                           unsigned *out) {
  if (baud && !port)
    return usage_error(s, "--baud %s needs --port", baud);
  if (!port)
    return 0;
  if (from)
    return usage_error(s, "--port and --from both give the stream: pick one");
  if (n_targets != 1)
    return usage_error(s,
                       "--port %s reads one board: give exactly one "
                       "--target",
                       port);
  if (baud) {
    int rc = parse_uint(s, "--baud", baud, 1, 4000000, out);
    if (rc != 0)
      return rc;
    if (!mh_serial_baud_ok(*out))
      return usage_error(s, "--baud %s is not a supported rate; valid: %s",
                         baud, mh_serial_bauds());
  }
  return 0;
}

/* ---- commands -------------------------------------------------------- */

static int cmd_run(int argc, char **argv) {
  const char *profile = NULL, *runs = NULL, *warmup = NULL, *out = NULL,
             *timeout = NULL, *from = NULL, *kat = NULL, *fault = NULL,
             *repeat = NULL, *port = NULL, *baud = NULL, *cmodel = NULL,
             *fws = NULL, *cc = NULL, *opt = NULL, *jobs = NULL, *stall = NULL;
  int quiet = 0, kat_only = 0, ct = 0;
  const opt_def opts[] = {
      {"--kat-only", 0, NULL, &kat_only, 0},
      {"--ct", 0, NULL, &ct, 0},
      {"--repeat", 1, &repeat, NULL, 0},
      {"--target", 1, NULL, NULL, 1},
      {"--profile", 1, &profile, NULL, 0},
      {"--runs", 1, &runs, NULL, 0},
      {"--warmup", 1, &warmup, NULL, 0},
      {"--out", 1, &out, NULL, 0},
      {"--timeout", 1, &timeout, NULL, 0},
      {"--stall", 1, &stall, NULL, 0},
      {"--from", 1, &from, NULL, 0},
      {"--kat-corrupt", 1, &kat, NULL, 0},
      {"--quiet", 0, NULL, &quiet, 0},
      {"--inject-fault", 1, &fault, NULL, 0},
      {"--port", 1, &port, NULL, 0},
      {"--baud", 1, &baud, NULL, 0},
      {"--flash-ws", 1, &fws, NULL, 0},
      {"--cycle-model", 1, &cmodel, NULL, 0},
      {"--cc", 1, &cc, NULL, 0},
      {"--opt", 1, &opt, NULL, 0},
      {"-j", 1, &jobs, NULL, 0},
      {"--jobs", 1, &jobs, NULL, 0},
  };
  parse_state s = {"run", HELP_RUN, opts, sizeof opts / sizeof opts[0],
                   NULL,  0,        NULL, 0};
  mh_run_opts o = {.profile = NULL,
                   .runs = MH_RUNS_DEFAULT,
                   .warmup = MH_WARMUP_DEFAULT,
                   .timeout_s = MH_TIMEOUT_DEFAULT,
                   .stall_s = MH_STALL_DEFAULT,
                   .out = MH_OUT_DEFAULT};
  char *store = NULL;
  int rc = parse(&s, argc, argv);
  if (rc == 0 && s.n_pos)
    rc = usage_error(&s, "unexpected argument '%s'", s.pos[0]);
  if (rc == 0)
    rc = split_targets(&s, &o.targets, &o.n_targets, &store);
  if (rc == 0 && runs)
    rc = parse_uint(&s, "--runs", runs, 1, MH_RUNS_MAX, &o.runs);
  if (rc == 0 && warmup)
    rc = parse_uint(&s, "--warmup", warmup, 0, MH_WARMUP_MAX, &o.warmup);
  if (rc == 0 && timeout)
    rc = parse_uint(&s, "--timeout", timeout, 1, MH_TIMEOUT_MAX, &o.timeout_s);
  if (rc == 0 && stall)
    rc = parse_uint(&s, "--stall", stall, 1, MH_TIMEOUT_MAX, &o.stall_s);
  if (rc == 0 && from && o.n_targets != 1)
    rc = usage_error(&s, "--from %s needs exactly one --target", from);
  if (rc == 0 && from && kat)
    rc = usage_error(&s, "--kat-corrupt %s has no effect with --from %s", kat,
                     from);
  if (rc == 0 && from && (runs || warmup || timeout || stall))
    rc = usage_error(&s, "--from reads a captured stream, whose runs and "
                         "warm-ups are already in it: --runs, --warmup, "
                         "--timeout and --stall do not apply");
  char err[1024];
  if (rc == 0 && kat && mh_kat_corrupt_check(kat, NULL, err, sizeof err) != 0)
    rc = usage_error(&s, "%s", err);
  if (rc == 0 && fault && mh_inject_fault_check(fault, err, sizeof err) != 0)
    rc = usage_error(&s, "%s", err);
  if (rc == 0 && from && fault)
    rc = usage_error(&s, "--inject-fault has no effect with --from");
  if (rc == 0 && kat_only && (runs || warmup))
    rc = usage_error(&s, "--kat-only times nothing: drop --runs/--warmup");
  o.repeat = 1;
  if (rc == 0 && repeat)
    rc = parse_uint(&s, "--repeat", repeat, 1, 100, &o.repeat);
  if (rc == 0 && repeat && (from || kat_only))
    rc = usage_error(&s, "--repeat reruns timed images: not with --from or "
                         "--kat-only");
  if (rc == 0 && kat_only && ct)
    rc = usage_error(&s, "--ct checks timed runs: drop --kat-only");
  if (rc == 0 && from && ct)
    rc = usage_error(&s, "--ct has no effect with --from");
  if (rc == 0 && kat_only && out)
    rc = usage_error(&s, "--kat-only writes no results: drop --out");
  o.baud = MH_BAUD_DEFAULT;
  if (rc == 0)
    rc = check_port_opts(&s, port, baud, from, o.n_targets, &o.baud);
  for (size_t i = 0;
       rc == 0 && !port && !from && o.n_targets > 1 && i < o.n_targets; i++)
    if (mh_target_find(o.targets[i])->kind == MH_EXEC_BOARD)
      rc = usage_error(&s,
                       "%s is a real board: read it on its own, with "
                       "--port DEV (or --from FILE)",
                       o.targets[i]);
  if (rc == 0 && port && (kat || fault || repeat || ct || runs || warmup))
    rc = usage_error(&s, "--port reads a board running its flashed image: "
                         "--kat-corrupt, --inject-fault, --repeat, --ct, "
                         "--runs and --warmup do not apply");
  if (rc == 0 && cmodel && !mh_cycles_choice_valid(cmodel))
    rc = usage_error(&s, "--cycle-model %s: expected one of %s", cmodel,
                     MH_CYC_CHOICES);
  if (rc == 0 && fws)
    rc = parse_uint(&s, "--flash-ws", fws, 0, 15, &o.flash_ws);
  if (rc == 0 && (cmodel || fws) && (from || kat_only || port))
    rc = usage_error(&s, "--cycle-model/--flash-ws apply to timed QEMU runs: "
                         "not with --from, --port or --kat-only");
  if (rc == 0 && jobs)
    rc = parse_uint(&s, "--jobs", jobs, 1, 64, &o.jobs);
  if (rc == 0 && (from || port) && (cc || opt))
    rc = usage_error(&s, "--cc/--opt build images: not with --from or --port "
                         "(the stream names its compiler)");
  char **vals = NULL;
  size_t nvals = 0;
  if (rc == 0 && cc &&
      mh_matrix_split("--cc", cc, &vals, &nvals, err, sizeof err) != 0)
    rc = usage_error(&s, "%s", err);
  mh_matrix_free(vals, nvals);
  vals = NULL;
  nvals = 0;
  if (rc == 0 && opt &&
      mh_matrix_split("--opt", opt, &vals, &nvals, err, sizeof err) != 0)
    rc = usage_error(&s, "%s", err);
  mh_matrix_free(vals, nvals);
  if (rc == 0) {
    o.cycle_model = cmodel ? cmodel : "auto";
    if (kat_only)
      o.runs = o.warmup = 0;
    o.kat_only = kat_only;
    o.ct = ct;
    o.inject_fault = fault;
    o.profile = profile;
    o.out = out ? out : MH_OUT_DEFAULT;
    o.from = from;
    o.port = port;
    o.kat_corrupt = kat;
    o.cc = cc;
    o.opt = opt;
    o.quiet = quiet;
    rc = parse_only ? 0 : mh_cli_run(&o);
  }
  free(o.targets);
  free(store);
  state_free(&s);
  return rc < 0 ? 0 : rc;
}

static int cmd_build(int argc, char **argv) {
  const char *profile = NULL, *kat = NULL, *fault = NULL;
  int quiet = 0;
  const opt_def opts[] = {
      {"--target", 1, NULL, NULL, 1},
      {"--profile", 1, &profile, NULL, 0},
      {"--kat-corrupt", 1, &kat, NULL, 0},
      {"--inject-fault", 1, &fault, NULL, 0},
      {"--quiet", 0, NULL, &quiet, 0},
  };
  parse_state s = {"build", HELP_BUILD, opts, sizeof opts / sizeof opts[0],
                   NULL,    0,          NULL, 0};
  mh_build_opts o = {0};
  char *store = NULL;
  char err[1024];
  int rc = parse(&s, argc, argv);
  if (rc == 0 && s.n_pos)
    rc = usage_error(&s, "unexpected argument '%s'", s.pos[0]);
  if (rc == 0)
    rc = split_targets(&s, &o.targets, &o.n_targets, &store);
  if (rc == 0 && kat && mh_kat_corrupt_check(kat, NULL, err, sizeof err) != 0)
    rc = usage_error(&s, "%s", err);
  if (rc == 0 && fault && mh_inject_fault_check(fault, err, sizeof err) != 0)
    rc = usage_error(&s, "%s", err);
  if (rc == 0) {
    o.inject_fault = fault;
    o.profile = profile;
    o.kat_corrupt = kat;
    o.quiet = quiet;
    rc = parse_only ? 0 : mh_cli_build(&o);
  }
  free(o.targets);
  free(store);
  state_free(&s);
  return rc < 0 ? 0 : rc;
}

static int cmd_sizes(int argc, char **argv) {
  const char *profile = NULL, *json = NULL;
  int quiet = 0;
  const opt_def opts[] = {
      {"--target", 1, NULL, NULL, 1},
      {"--profile", 1, &profile, NULL, 0},
      {"--json", 1, &json, NULL, 0},
      {"--quiet", 0, NULL, &quiet, 0},
  };
  parse_state s = {"sizes", HELP_SIZES, opts, sizeof opts / sizeof opts[0],
                   NULL,    0,          NULL, 0};
  mh_sizes_opts o = {0};
  char *store = NULL;
  int rc = parse(&s, argc, argv);
  if (rc == 0 && s.n_pos)
    rc = usage_error(&s, "unexpected argument '%s'", s.pos[0]);
  if (rc == 0)
    rc = split_targets(&s, &o.targets, &o.n_targets, &store);
  if (rc == 0) {
    o.profile = profile;
    o.json = json;
    o.quiet = quiet;
    rc = parse_only ? 0 : mh_cli_sizes(&o);
  }
  free(o.targets);
  free(store);
  state_free(&s);
  return rc < 0 ? 0 : rc;
}

static int cmd_report(int argc, char **argv) {
  const char *format = NULL;
  const opt_def opts[] = {{"--format", 1, &format, NULL, 0}};
  parse_state s = {"report", HELP_REPORT, opts, 1, NULL, 0, NULL, 0};
  int rc = parse(&s, argc, argv);
  if (rc == 0 && s.n_pos != 1)
    rc = usage_error(&s, "expects one results directory, for example "
                         "results/latest");
  if (rc == 0 && !format)
    format = "md";
  if (rc == 0 && strcmp(format, "md") != 0 && strcmp(format, "csv") != 0 &&
      strcmp(format, "json") != 0 && strcmp(format, "latex") != 0 &&
      strcmp(format, "html") != 0)
    rc = usage_error(&s,
                     "unknown --format '%s'; valid: md, html, csv, json, "
                     "latex",
                     format);
  if (rc == 0)
    rc = parse_only ? 0 : mh_cli_report(s.pos[0], format);
  state_free(&s);
  return rc < 0 ? 0 : rc;
}

static int cmd_compare(int argc, char **argv) {
  const char *threshold = NULL, *md = NULL;
  int force = 0;
  const opt_def opts[] = {
      {"--threshold", 1, &threshold, NULL, 0},
      {"--md", 1, &md, NULL, 0},
      {"--force", 0, NULL, &force, 0},
  };
  parse_state s = {
      "compare", HELP_COMPARE, opts, sizeof opts / sizeof *opts, NULL,
      0,         NULL,         0};
  int rc = parse(&s, argc, argv);
  double t = 0.02;
  if (rc == 0 && s.n_pos != 2)
    rc = usage_error(&s, "expects two results: OLD NEW");
  if (rc == 0 && threshold) {
    char *end = NULL;
    t = strtod(threshold, &end) / 100.0;
    if (!end || *end || end == threshold || !(t >= 0.0) || t > 10.0)
      rc = usage_error(&s,
                       "--threshold takes a percentage from 0 to 1000, "
                       "not '%s'",
                       threshold);
  }
  if (rc == 0)
    rc = parse_only ? 0 : mh_cli_compare(s.pos[0], s.pos[1], t, force, md);
  state_free(&s);
  return rc < 0 ? 0 : rc;
}

static int cmd_list(int argc, char **argv) {
  /* `list coverage [DIR]` and `list --coverage [DIR]`. */
  for (int i = 0; i < argc; i++)
    if (strcmp(argv[i], "coverage") == 0 ||
        strcmp(argv[i], "--coverage") == 0) {
      if (argc > i + 2 || (argc == i + 2 && argv[i + 1][0] == '-')) {
        fprintf(stderr, "merlin list: usage: merlin list coverage [DIR]\n");
        return 2;
      }
      return parse_only
                 ? 0
                 : mh_cli_list_coverage(argc == i + 2 ? argv[i + 1] : NULL);
    }
  parse_state s = {"list", HELP_LIST, NULL, 0, NULL, 0, NULL, 0};
  int rc = parse(&s, argc, argv);
  if (rc == 0 && s.n_pos > 1)
    rc = usage_error(&s, "unexpected argument '%s'", s.pos[1]);
  if (rc == 0 && s.n_pos == 1) {
    int ok = 0;
    for (size_t i = 0; i < sizeof LISTS / sizeof LISTS[0]; i++)
      ok |= strcmp(s.pos[0], LISTS[i]) == 0;
    if (!ok)
      rc = usage_error(&s, "unknown list '%s'; valid: %s", s.pos[0],
                       "targets, profiles, algorithms, backends, boards, "
                       "coverage");
  }
  if (rc == 0)
    rc = parse_only ? 0 : mh_cli_list(s.n_pos ? s.pos[0] : NULL);
  state_free(&s);
  return rc < 0 ? 0 : rc;
}

static const struct {
  const char *name;
  int (*fn)(int argc, char **argv);
  const char *help;
} COMMANDS[] = {
    {"run", cmd_run, HELP_RUN},
    {"build", cmd_build, HELP_BUILD},
    {"report", cmd_report, HELP_REPORT},
    {"sizes", cmd_sizes, HELP_SIZES},
    {"compare", cmd_compare, HELP_COMPARE},
    {"list", cmd_list, HELP_LIST},
};

static int dispatch(int argc, char **argv) {
  if (argc < 2) {
    fputs(USAGE, stderr);
    return USAGE_EXIT;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0 ||
      strcmp(cmd, "version") == 0) {
    printf("merlin %s\n", MERLIN_VERSION);
    return 0;
  }
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
    fputs(USAGE, stdout);
    return 0;
  }
  if (strcmp(cmd, "help") == 0) {
    if (argc < 3) {
      fputs(USAGE, stdout);
      return 0;
    }
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
      if (strcmp(argv[2], COMMANDS[i].name) == 0) {
        fputs(COMMANDS[i].help, stdout);
        return 0;
      }
    cmd = argv[2];
  } else {
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
      if (strcmp(cmd, COMMANDS[i].name) == 0)
        return COMMANDS[i].fn(argc - 2, argv + 2);
  }
  fprintf(stderr,
          "merlin: unknown command '%s'; valid: run, build, report, compare, "
          "sizes, list, help (see merlin --help)\n",
          cmd);
  return USAGE_EXIT;
}

int mh_main_parse(int argc, char **argv) {
  parse_only = 1;
  int rc = dispatch(argc, argv);
  parse_only = 0;
  return rc;
}

#ifndef MERLIN_CLI_NO_MAIN
/* A standard descriptor closed by the caller (`merlin list >&-`) would be
 * reused by the next open(), and output meant for it would land in a
 * results file: point it at a device instead. A closed stdout gets
 * /dev/full, so that what is printed to it fails, as it should. */
static int stdout_was_closed;

static void guard_std_fds(void) {
  static const char *const dev[] = {"/dev/null", "/dev/full", "/dev/null"};
  for (int fd = 0; fd <= 2; fd++) {
    if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
      continue;
    int nfd = open(dev[fd], fd ? O_WRONLY : O_RDONLY);
    if (nfd < 0 && fd == 1)
      nfd = open("/dev/null", O_WRONLY);
    if (nfd >= 0 && nfd != fd) {
      dup2(nfd, fd);
      close(nfd);
    }
    if (fd == 1)
      stdout_was_closed = 1;
  }
}

/* What went to stdout (a listing, a summary, the results path) must have
 * reached it: a full disk or a closed stdout is a failure (exit 1). */
static int close_stdout(int rc) {
  errno = 0;
  int bad = fflush(stdout) != 0 || ferror(stdout);
  int e = errno;
  if (fclose(stdout) != 0 && !bad) {
    bad = 1;
    e = errno;
  }
  /* A failed command has said why already; its status stands. */
  if (!bad || rc != 0)
    return rc;
  if (stdout_was_closed)
    fprintf(stderr, "merlin: cannot write to stdout: it is closed\n");
  else
    fprintf(stderr, "merlin: cannot write to stdout: %s\n",
            e ? strerror(e) : "write error");
  return 1;
}

int main(int argc, char **argv) {
  guard_std_fds();
  return close_stdout(dispatch(argc, argv));
}
#endif
