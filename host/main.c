/* SPDX-License-Identifier: Apache-2.0 */
/* merlin: the host CLI. Parses the command line, checks every value (a
 * usage error exits 2 with the valid choices), and dispatches to the
 * subcommands (cli.h). Documented in docs/cli.md.
 *
 * Every option is declared once, in its command's table (RUN_OPTS, ...):
 * name, argument, help lines, where its value goes and, for an integer,
 * its range; RUN_CONFLICTS, the options that cannot go together. The
 * parser, the range and conflict checks, `merlin CMD --help` and
 * `merlin help --options` (the list tests/check_cli_docs.sh compares with
 * docs/cli.md) all read the tables. */
#include "agree/agree.h"
#include "cli/cli.h"
#include "config/targets.h"
#include "run/board_model.h"
#include "run/cycles.h"
#include "run/matrix.h"
#include "run/serial.h"
#include "util/term.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
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
    "  agree    Merlin beside a library's own benchmark program\n"
    "  list     list targets, profiles, algorithms, backends, boards or "
    "coverage\n"
    "\n"
    "  merlin <command> --help   options of one command\n"
    "  merlin --version          print the version\n";

/* ---- option tables --------------------------------------------------- */

/* Options of the largest table (RUN_OPTS), with room. */
#define MAX_OPTS 40
/* opt_def.repeat: a list option (repeatable, every value kept in order in
 * an mh_strlist at `at`); 1 is --target's own accumulation. */
#define MH_OPT_LIST 2

/* One option of a command. Its value goes to the command's argument
 * struct (run_args, ...) at offset `at`: a const char * (the last value
 * given), an int set to 1 (a flag: arg NULL), or, for --target (repeat),
 * the accumulated list of the parse state. An integer option (hi > 0) is
 * also checked against lo..hi and stored as an unsigned at offset `num`;
 * "%R" in its help prints the range. An option with choices takes one of
 * them. */
typedef struct {
  const char *name;  /* "--runs" */
  const char *alias; /* a one-letter form ("-j"), or NULL */
  const char *arg;   /* "N" in the help; NULL: a flag */
  const char *help;  /* help lines, '\n' between them */
  size_t at;
  int repeat;
  unsigned lo, hi;
  size_t num;
  /* Valid values ("md, html, ..."; also the usage error's list), or
   * NULL: any. */
  const char *choices;
} opt_def;

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
static const opt_def RUN_OPTS[] = {
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
     "(docs/cycle-model.md): auto (the target's core), off\n"
     "(no plugin), m0plus, m0plus-smallmul, m3, m4,\nm33, m55, m7 or m85 "
     "(default: auto)",
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

typedef struct {
  mh_build_opts o;
  const char *profile, *kat, *fault;
  int quiet;
} build_args;

static const opt_def BUILD_OPTS[] = {
    {"--target", NULL, "T[,T...]", "targets to build (repeatable)", 0, 1, 0, 0,
     0, NULL},
    {"--profile", NULL, "P", "profile name or path (default: default)",
     offsetof(build_args, profile), 0, 0, 0, 0, NULL},
    {"--kat-corrupt", NULL, "ALG/OP",
     "test hook: make that known-answer test fail (build\ndirectory gets the "
     "suffix -katfail)",
     offsetof(build_args, kat), 0, 0, 0, 0, NULL},
    {"--inject-fault", NULL, "KIND",
     "test hook: an image that faults (busfault,\nusagefault, hang, "
     "stackoverflow, heap); suffix -fault-KIND",
     offsetof(build_args, fault), 0, 0, 0, 0, NULL},
    {"--quiet", NULL, NULL, "no progress lines", offsetof(build_args, quiet), 0,
     0, 0, 0, NULL},
};

typedef struct {
  mh_sizes_opts o;
  const char *profile, *json;
  int quiet;
} sizes_args;

static const opt_def SIZES_OPTS[] = {
    {"--target", NULL, "T[,T...]",
     "targets to measure (repeatable; see merlin list targets)", 0, 1, 0, 0, 0,
     NULL},
    {"--profile", NULL, "P",
     "profile name or path to a .profile file (default: default)",
     offsetof(sizes_args, profile), 0, 0, 0, 0, NULL},
    {"--json", NULL, "FILE", "also write the records, per library too, as JSON",
     offsetof(sizes_args, json), 0, 0, 0, 0, NULL},
    {"--quiet", NULL, NULL, "no progress lines", offsetof(sizes_args, quiet), 0,
     0, 0, 0, NULL},
};

typedef struct {
  const char *format;
} report_args;

/* The formats of `merlin report` (host/cli/report_formats.def): their
 * names for the check, "md, html, ..." (REPORT_FORMATS + 2), and a help
 * line each. */
#define MH_REPORT_FORMAT(name, file, fn, printed, help) ", " name
static const char REPORT_FORMATS[] = ""
#include "cli/report_formats.def"
    ;
#undef MH_REPORT_FORMAT
#define MH_REPORT_FORMAT(name, file, fn, printed, help) "\n" name ": " help
static const char REPORT_FORMAT_HELP[] = "the output (default: md):"
#include "cli/report_formats.def"
    ;
#undef MH_REPORT_FORMAT

static const opt_def REPORT_OPTS[] = {
    {"--format", NULL, "F", REPORT_FORMAT_HELP, offsetof(report_args, format),
     0, 0, 0, 0, REPORT_FORMATS + 2},
};

typedef struct {
  const char *threshold, *md, *html;
  int force;
} compare_args;

static const opt_def COMPARE_OPTS[] = {
    {"--threshold", NULL, "PCT", "regression threshold in percent (default: 2)",
     offsetof(compare_args, threshold), 0, 0, 0, 0, NULL},
    {"--force", NULL, NULL, "compare runs whose provenance differs",
     offsetof(compare_args, force), 0, 0, 0, 0, NULL},
    {"--md", NULL, "FILE",
     "also write a Markdown summary (pull-request comment)",
     offsetof(compare_args, md), 0, 0, 0, 0, NULL},
    {"--html", NULL, "FILE",
     "also write the comparison as one self-contained page\n(charts, "
     "regressions highlighted)",
     offsetof(compare_args, html), 0, 0, 0, 0, NULL},
};

typedef struct {
  mh_agree_opts o;
  const char *backend, *repeat, *runs, *md;
  int quiet;
} agree_args;

#define AA(f) offsetof(agree_args, f)
static const opt_def AGREE_OPTS[] = {
    {"--target", NULL, "T", "host or a QEMU target (exactly one)", 0, 1, 0, 0,
     0, NULL},
    {"--backend", NULL, "B",
     "the library whose own benchmark to run: wolfcrypt or\nmbedtls",
     AA(backend), 0, 0, 0, 0, "wolfcrypt, mbedtls"},
    {"--repeat", NULL, "K",
     "interleaved runs of both programs, %R (default: 3 on\nthe host, 1 "
     "under QEMU)",
     AA(repeat), 0, 1, 20, AA(o.repeat), NULL},
    {"--runs", NULL, "N",
     "Merlin's timed runs per operation, %R (default: 101 on\nthe host, 11 "
     "under QEMU)",
     AA(runs), 0, 1, MH_RUNS_MAX, AA(o.runs), NULL},
    {"--md", NULL, "FILE", "also write the table (Markdown) to FILE", AA(md), 0,
     0, 0, 0, NULL},
    {"--quiet", NULL, NULL, "no progress lines", AA(quiet), 0, 0, 0, 0, NULL},
};

/* --coverage [DIR] takes an optional value: cmd_list reads it before the
 * table parser; the entry is for the help and the option list. */
typedef struct {
  int coverage;
} list_args;

static const opt_def LIST_OPTS[] = {
    {"--coverage", NULL, "[DIR]", "the same as coverage [DIR]",
     offsetof(list_args, coverage), 0, 0, 0, 0, NULL},
};

/* Options that cannot go together: given opt, any of with[] is a usage
 * error with msg. (Conflicts whose message quotes a value, and what needs
 * a count of targets, are checked in code: check_run, check_port_opts.) */
typedef struct {
  const char *opt;
  const char *with[7]; /* NULL-terminated */
  const char *msg;
} conflict;

static const conflict RUN_CONFLICTS[] = {
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

static const char *const LISTS[] = {"targets", "profiles", "algorithms",
                                    "backends", "boards"};

/* Set by mh_main_parse (the option-parser fuzzer): parse and check the
 * command line, then return the exit status without running anything. */
static int parse_only;

/* ---- option parsing -------------------------------------------------- */

struct cmd_def;

typedef struct {
  const struct cmd_def *cmd;
  void *args;           /* the command's argument struct */
  const char **targets; /* accumulated --target values */
  size_t n_targets;
  const char **pos; /* positional arguments */
  size_t n_pos;
  unsigned char given[MAX_OPTS]; /* given[k]: option k was given */
  /* The values of each list option (repeat == MH_OPT_LIST), in order. */
  const char **multi[MAX_OPTS];
  size_t n_multi[MAX_OPTS];
} parse_state;

typedef struct cmd_def {
  const char *name;
  const char *head; /* the --help text above "options:" */
  const opt_def *opts;
  size_t n_opts;
  const conflict *conflicts;
  size_t n_conflicts;
  int (*fn)(const struct cmd_def *cmd, int argc, char **argv);
} cmd_def;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int
usage_error(const parse_state *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "merlin %s: ", s->cmd->name);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n(see merlin %s --help)\n", s->cmd->name);
  va_end(ap);
  return USAGE_EXIT;
}

/* "-j, --jobs N" */
static void opt_left(const opt_def *d, char *buf, size_t len) {
  snprintf(buf, len, "%s%s%s%s%s", d->alias ? d->alias : "",
           d->alias ? ", " : "", d->name, d->arg ? " " : "",
           d->arg ? d->arg : "");
}

/* `merlin CMD --help`: the head, then one entry per option of the table:
 * the option in a column of 18, its help lines indented past it. */
static void print_help(const cmd_def *c, FILE *f) {
  fputs(c->head, f);
  fputs("\noptions:\n", f);
  for (size_t i = 0; i < c->n_opts; i++) {
    const opt_def *d = &c->opts[i];
    char left[64];
    opt_left(d, left, sizeof left);
    fprintf(f, strlen(left) > 18 ? "  %s  " : "  %-18s ", left);
    for (const char *h = d->help; *h; h++) {
      if (h[0] == '%' && h[1] == 'R') {
        fprintf(f, "%u..%u", d->lo, d->hi);
        h++;
      } else if (*h == '\n') {
        fprintf(f, "\n%21s", "");
      } else {
        fputc(*h, f);
      }
    }
    fputc('\n', f);
  }
  fputs("  -h, --help         this help\n", f);
}

static void valid_options(const parse_state *s, char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < s->cmd->n_opts && used < len; i++) {
    const opt_def *d = &s->cmd->opts[i];
    used += (size_t)snprintf(buf + used, len - used, "%s%s%s%s", i ? ", " : "",
                             d->alias ? d->alias : "", d->alias ? ", " : "",
                             d->name);
  }
  if (used < len)
    snprintf(buf + used, len - used, "%s--help", s->cmd->n_opts ? ", " : "");
}

/* The table entry of argument a, or NULL; *attached: a one-letter option
 * with its value attached (-j2). */
static const opt_def *find_opt(const cmd_def *c, const char *a,
                               const char **attached) {
  const char *eq = strchr(a, '=');
  size_t nl = eq ? (size_t)(eq - a) : strlen(a);
  *attached = NULL;
  for (size_t k = 0; k < c->n_opts; k++) {
    const opt_def *d = &c->opts[k];
    if ((strlen(d->name) == nl && strncmp(d->name, a, nl) == 0) ||
        (d->alias && strlen(d->alias) == nl && strncmp(d->alias, a, nl) == 0))
      return d;
  }
  for (size_t k = 0; a[1] != '-' && k < c->n_opts; k++) {
    const opt_def *d = &c->opts[k];
    if (d->arg && d->alias && strncmp(d->alias, a, 2) == 0) {
      *attached = a + 2;
      return d;
    }
  }
  return NULL;
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

/* Is v one of the comma-separated choices? */
static int is_choice(const char *choices, const char *v) {
  size_t n = strlen(v);
  for (const char *c = choices; *c;) {
    size_t len = strcspn(c, ",");
    if (len == n && strncmp(c, v, n) == 0)
      return 1;
    c += len;
    c += strspn(c, ", ");
  }
  return 0;
}

/* Store value v (NULL: a flag) of option d. */
static int store_opt(parse_state *s, const opt_def *d, const char *v) {
  char *base = s->args;
  s->given[d - s->cmd->opts] = 1;
  if (!d->arg) {
    *(int *)(void *)(base + d->at) = 1;
    return 0;
  }
  if (!*v)
    return usage_error(s, "option %s needs a non-empty value", d->name);
  size_t k = (size_t)(d - s->cmd->opts);
  if (d->repeat == MH_OPT_LIST)
    s->multi[k][s->n_multi[k]++] = v;
  else if (d->repeat)
    s->targets[s->n_targets++] = v;
  else
    *(const char **)(void *)(base + d->at) = v;
  return 0;
}

/* Parse argv into s->args by the command's table, then check the integer
 * options against their ranges. Returns -1 on --help (printed), 0 on
 * success, or USAGE_EXIT. */
static int parse(parse_state *s, int argc, char **argv) {
  s->targets = calloc((size_t)argc + 1, sizeof *s->targets);
  s->pos = calloc((size_t)argc + 1, sizeof *s->pos);
  int lists_ok = 1;
  for (size_t k = 0; k < s->cmd->n_opts; k++)
    if (s->cmd->opts[k].repeat == MH_OPT_LIST &&
        !(s->multi[k] = calloc((size_t)argc + 1, sizeof *s->multi[k])))
      lists_ok = 0;
  if (!s->targets || !s->pos || !lists_ok) {
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
      print_help(s->cmd, stdout);
      return -1;
    }
    const char *attached, *eq = strchr(a, '=');
    const opt_def *d = find_opt(s->cmd, a, &attached);
    if (!d) {
      char valid[512];
      valid_options(s, valid, sizeof valid);
      return usage_error(s, "unknown option '%s'; valid: %s", a, valid);
    }
    if (!d->arg && eq)
      return usage_error(s, "option %s takes no value", d->name);
    const char *v = !d->arg ? NULL : attached ? attached : eq ? eq + 1 : NULL;
    if (d->arg && !v) {
      if (i + 1 >= argc)
        return usage_error(s, "option %s needs a value", a);
      v = argv[++i];
    }
    int rc = store_opt(s, d, v);
    if (rc != 0)
      return rc;
  }
  char *base = s->args;
  for (size_t k = 0; k < s->cmd->n_opts; k++) {
    const opt_def *d = &s->cmd->opts[k];
    if (d->repeat == MH_OPT_LIST) {
      mh_strlist *l = (mh_strlist *)(void *)(base + d->at);
      l->v = s->multi[k];
      l->n = s->n_multi[k];
      continue;
    }
    const char *v = d->hi ? *(const char **)(void *)(base + d->at) : NULL;
    int rc = v ? parse_uint(s, d->name, v, d->lo, d->hi,
                            (unsigned *)(void *)(base + d->num))
               : 0;
    if (rc == 0 && d->choices && d->arg && !d->repeat) {
      v = *(const char **)(void *)(base + d->at);
      if (v && !is_choice(d->choices, v))
        rc = usage_error(s, "unknown %s '%s'; valid: %s", d->name, v,
                         d->choices);
    }
    if (rc != 0)
      return rc;
  }
  return 0;
}
/* Split the --target values on commas and check each. The returned list
 * points into a malloc'd copy kept in *store. */
static int split_targets(const parse_state *s, const char ***out, size_t *n,
                         char **store) {
  /* A descriptor that does not parse is the tree's fault, not the command
   * line's: say which file and line (boards/<id>.board, docs/boards.md). */
  char derr[1024];
  *store = NULL;
  *out = NULL;
  *n = 0;
  if (mh_targets_init(derr, sizeof derr) != 0) {
    fprintf(stderr, "merlin: cannot read the target descriptors: %s\n", derr);
    return 1;
  }
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

/* --port and --baud of merlin run. */
static int check_port_opts(const parse_state *s, const char *port,
                           const char *baud, size_t n_targets, unsigned *out) {
  if (baud && !port)
    return usage_error(s, "--baud %s needs --port", baud);
  if (!port)
    return 0;
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

static void state_free(parse_state *s) {
  free(s->targets);
  free(s->pos);
  for (size_t k = 0; k < MAX_OPTS; k++)
    free(s->multi[k]);
}

/* Parse a command's line into args: the table, no positional argument
 * unless allow_pos, and the --target list when the table has one. */
static int given(const parse_state *s, const char *name) {
  for (size_t k = 0; k < s->cmd->n_opts; k++)
    if (strcmp(s->cmd->opts[k].name, name) == 0)
      return s->given[k];
  return 0;
}

static int check_conflicts(const parse_state *s) {
  for (size_t i = 0; i < s->cmd->n_conflicts; i++) {
    const conflict *c = &s->cmd->conflicts[i];
    for (size_t k = 0; given(s, c->opt) && c->with[k]; k++)
      if (given(s, c->with[k]))
        return usage_error(s, "%s", c->msg);
  }
  return 0;
}

static int parse_cmd(parse_state *s, int argc, char **argv, int allow_pos,
                     const char ***targets, size_t *n_targets, char **store) {
  int rc = parse(s, argc, argv);
  if (rc == 0 && !allow_pos && s->n_pos)
    rc = usage_error(s, "unexpected argument '%s'", s->pos[0]);
  if (rc == 0 && targets)
    rc = split_targets(s, targets, n_targets, store);
  if (rc == 0)
    rc = check_conflicts(s);
  return rc;
}

/* ---- commands -------------------------------------------------------- */

/* merlin run: the values, and the options that cannot go together. */
static int check_run(const parse_state *s, run_args *a) {
  mh_run_opts *o = &a->o;
  char err[1024];
  if (a->from && o->n_targets != 1)
    return usage_error(s, "--from %s needs exactly one --target", a->from);
  if (a->from && a->kat)
    return usage_error(s, "--kat-corrupt %s has no effect with --from %s",
                       a->kat, a->from);
  if (a->kat && mh_kat_corrupt_check(a->kat, NULL, err, sizeof err) != 0)
    return usage_error(s, "%s", err);
  if (a->fault && mh_inject_fault_check(a->fault, err, sizeof err) != 0)
    return usage_error(s, "%s", err);
  int rc = check_port_opts(s, a->port, a->baud, o->n_targets, &o->baud);
  if (rc != 0)
    return rc;
  for (size_t i = 0;
       !a->port && !a->from && o->n_targets > 1 && i < o->n_targets; i++)
    if (mh_target_find(o->targets[i])->kind == MH_EXEC_BOARD)
      return usage_error(s,
                         "%s is a real board: read it on its own, with "
                         "--port DEV (or --from FILE)",
                         o->targets[i]);
  double costs[MH_ACC_GROUPS];
  if (a->accel && mh_accel_parse(a->accel, costs, err, sizeof err) != 0)
    return usage_error(s, "%s", err);
  /* --board, --cycle-model, --accel, --flash-ws: before any build */
  if (mh_board_model_check(a->board, a->cmodel, a->accel, a->fws, o->targets,
                           o->n_targets, err, sizeof err) != 0)
    return usage_error(s, "%s", err);
  const char *lists[2][2] = {{"--cc", a->cc}, {"--opt", a->opt}};
  for (size_t k = 0; k < 2; k++) {
    char **vals = NULL;
    size_t nvals = 0;
    rc = lists[k][1] && mh_matrix_split(lists[k][0], lists[k][1], &vals, &nvals,
                                        err, sizeof err) != 0;
    mh_matrix_free(vals, nvals);
    if (rc)
      return usage_error(s, "%s", err);
  }
  return 0;
}

static int cmd_run(const cmd_def *cmd, int argc, char **argv) {
  run_args a = {.o = {.runs = MH_RUNS_DEFAULT,
                      .warmup = MH_WARMUP_DEFAULT,
                      .timeout_s = MH_TIMEOUT_DEFAULT,
                      .stall_s = MH_STALL_DEFAULT,
                      .out = MH_OUT_DEFAULT,
                      .repeat = 1,
                      .baud = MH_BAUD_DEFAULT}};
  parse_state s = {.cmd = cmd, .args = &a};
  mh_run_opts *o = &a.o;
  char *store = NULL;
  int rc = parse_cmd(&s, argc, argv, 0, &o->targets, &o->n_targets, &store);
  if (rc == 0)
    rc = check_run(&s, &a);
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
    rc = parse_only ? 0 : mh_cli_run(o);
  }
  free(o->targets);
  free(store);
  state_free(&s);
  return rc < 0 ? 0 : rc;
}

static int cmd_build(const cmd_def *cmd, int argc, char **argv) {
  build_args a = {0};
  parse_state s = {.cmd = cmd, .args = &a};
  mh_build_opts *o = &a.o;
  char *store = NULL;
  char err[1024];
  int rc = parse_cmd(&s, argc, argv, 0, &o->targets, &o->n_targets, &store);
  if (rc == 0 && a.kat && mh_kat_corrupt_check(a.kat, NULL, err, sizeof err))
    rc = usage_error(&s, "%s", err);
  if (rc == 0 && a.fault && mh_inject_fault_check(a.fault, err, sizeof err))
    rc = usage_error(&s, "%s", err);
  if (rc == 0) {
    o->inject_fault = a.fault;
    o->profile = a.profile;
    o->kat_corrupt = a.kat;
    o->quiet = a.quiet;
    rc = parse_only ? 0 : mh_cli_build(o);
  }
  free(o->targets);
  free(store);
  state_free(&s);
  return rc < 0 ? 0 : rc;
}

static int cmd_sizes(const cmd_def *cmd, int argc, char **argv) {
  sizes_args a = {0};
  parse_state s = {.cmd = cmd, .args = &a};
  mh_sizes_opts *o = &a.o;
  char *store = NULL;
  int rc = parse_cmd(&s, argc, argv, 0, &o->targets, &o->n_targets, &store);
  if (rc == 0) {
    o->profile = a.profile;
    o->json = a.json;
    o->quiet = a.quiet;
    rc = parse_only ? 0 : mh_cli_sizes(o);
  }
  free(o->targets);
  free(store);
  state_free(&s);
  return rc < 0 ? 0 : rc;
}

static int cmd_report(const cmd_def *cmd, int argc, char **argv) {
  report_args a = {0};
  parse_state s = {.cmd = cmd, .args = &a};
  int rc = parse_cmd(&s, argc, argv, 1, NULL, NULL, NULL);
  if (rc == 0 && s.n_pos != 1)
    rc = usage_error(&s, "expects one results directory, for example "
                         "results/latest");
  const char *format = a.format ? a.format : "md";
  if (rc == 0)
    rc = parse_only ? 0 : mh_cli_report(s.pos[0], format);
  state_free(&s);
  return rc < 0 ? 0 : rc;
}

static int cmd_compare(const cmd_def *cmd, int argc, char **argv) {
  compare_args a = {0};
  parse_state s = {.cmd = cmd, .args = &a};
  int rc = parse_cmd(&s, argc, argv, 1, NULL, NULL, NULL);
  double t = 0.02;
  if (rc == 0 && s.n_pos != 2)
    rc = usage_error(&s, "expects two results: OLD NEW");
  if (rc == 0 && a.threshold) {
    char *end = NULL;
    t = strtod(a.threshold, &end) / 100.0;
    if (!end || *end || end == a.threshold || !(t >= 0.0) || t > 10.0)
      rc = usage_error(&s,
                       "--threshold takes a percentage from 0 to 1000, "
                       "not '%s'",
                       a.threshold);
  }
  if (rc == 0)
    rc = parse_only
             ? 0
             : mh_cli_compare(s.pos[0], s.pos[1], t, a.force, a.md, a.html);
  state_free(&s);
  return rc < 0 ? 0 : rc;
}

static int cmd_agree(const cmd_def *cmd, int argc, char **argv) {
  agree_args a = {0};
  parse_state s = {.cmd = cmd, .args = &a};
  const char **targets = NULL;
  size_t n_targets = 0;
  char *store = NULL;
  int rc = parse_cmd(&s, argc, argv, 0, &targets, &n_targets, &store);
  if (rc == 0 && n_targets != 1)
    rc = usage_error(&s, "needs exactly one --target");
  if (rc == 0 && !a.backend)
    rc = usage_error(&s, "--backend is required: wolfcrypt or mbedtls");
  if (rc == 0 && !parse_only) {
    a.o.target = targets[0];
    a.o.backend = a.backend;
    a.o.md = a.md;
    a.o.quiet = a.quiet;
    rc = mh_cli_agree(&a.o);
  }
  free(targets);
  free(store);
  state_free(&s);
  return rc < 0 ? 0 : rc;
}

static int cmd_list(const cmd_def *cmd, int argc, char **argv) {
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
  list_args a = {0};
  parse_state s = {.cmd = cmd, .args = &a};
  int rc = parse_cmd(&s, argc, argv, 1, NULL, NULL, NULL);
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

_Static_assert(sizeof RUN_OPTS / sizeof RUN_OPTS[0] <= MAX_OPTS,
               "parse_state.given holds MAX_OPTS options");
#define OPTS(t) t, sizeof t / sizeof t[0]
static const cmd_def COMMANDS[] = {
    {"run",
     "usage: merlin run --target T[,T...] [options]\n"
     "\n"
     "Build the image of each target for the profile, run it, check the "
     "console\n"
     "stream and every known-answer test, and write OUT/<UTC time>/ with\n"
     "results.json, results.csv, report.md, report.html and\n"
     "console-<target>-<profile>.log; OUT/latest points at it. Any failure "
     "writes\n"
     "nothing and exits 1.\n",
     OPTS(RUN_OPTS), OPTS(RUN_CONFLICTS), cmd_run},
    {"build",
     "usage: merlin build --target T[,T...] [options]\n"
     "\n"
     "Generate the profile files and build the image of each target into\n"
     "build/img/<target>-<profile>/; prints the image path. The build "
     "output is\n"
     "kept in build.log there and shown only when the build fails.\n",
     OPTS(BUILD_OPTS), NULL, 0, cmd_build},
    {"report",
     "usage: merlin report DIR [--format F]\n"
     "\n"
     "Read DIR/results.json and write a report of it again (for example "
     "after\n"
     "upgrading merlin): merlin report results/latest\n",
     OPTS(REPORT_OPTS), NULL, 0, cmd_report},
    {"sizes",
     "usage: merlin sizes --target T[,T...] [options]\n"
     "\n"
     "For each target, link one image per (algorithm, backend) the profile "
     "routes,\n"
     "holding only that pair, and one empty baseline image, all with\n"
     "--gc-sections, in build/img/<target>-<profile>-sizes/ (configured "
     "once,\n"
     "then only relinked). Print each pair's flash (.text + .rodata + .data) "
     "and\n"
     "static RAM (.data + .bss) minus the baseline's, and what each library "
     "adds,\n"
     "from the link map. Stack and heap reservations are not counted. See\n"
     "docs/sizes.md.\n",
     OPTS(SIZES_OPTS), NULL, 0, cmd_sizes},
    {"compare",
     "usage: merlin compare OLD NEW [--threshold PCT] [--force] [--md FILE]\n"
     "                      [--html FILE]\n"
     "\n"
     "Compare two results (directories or results.json files) operation by\n"
     "operation: old and new median, the change, and whether it lies "
     "outside\n"
     "both runs' spread (the sum of their IQRs). Exits 1 when an operation\n"
     "got slower by more than the threshold outside the spread, 0 "
     "otherwise.\n"
     "Runs built differently (compiler, flags, libraries, routes, unit) are\n"
     "compared only with --force; the differences are printed first.\n",
     OPTS(COMPARE_OPTS), NULL, 0, cmd_compare},
    {"agree",
     "usage: merlin agree --target T --backend wolfcrypt|mbedtls [options]\n"
     "\n"
     "Build the library's own benchmark program (wolfCrypt's "
     "wolfcrypt/benchmark,\n"
     "Mbed TLS's programs/test/benchmark) from the pinned sources, with the\n"
     "library configured as in Merlin's images, run it and Merlin's image "
     "of the\n"
     "same algorithms on the target, interleaved, and print both figures "
     "per\n"
     "operation with their ratio (docs/operations.md). Exits 1 when, on an "
     "exact\n"
     "target, a row whose definitions match differs by more than 1%.\n",
     OPTS(AGREE_OPTS), NULL, 0, cmd_agree},
    {"list",
     "usage: merlin list [targets|profiles|algorithms|backends|boards]\n"
     "       merlin list coverage [DIR]   (also: merlin list --coverage)\n"
     "\n"
     "List what merlin knows; without an argument, everything. coverage\n"
     "prints algorithm x backend: offered by the adapter, and KAT-passing "
     "in\n"
     "the results in DIR (default results/latest); a DIR that is missing "
     "or\n"
     "unreadable is an error (exit 1).\n",
     OPTS(LIST_OPTS), NULL, 0, cmd_list},
};
#define N_COMMANDS (sizeof COMMANDS / sizeof COMMANDS[0])

/* `merlin help --options` (not in the help: for tests/check_cli_docs.sh):
 * one line per option of every command, "CMD OPTION", aliases too. */
static int print_option_list(void) {
  for (size_t i = 0; i < N_COMMANDS; i++)
    for (size_t k = 0; k < COMMANDS[i].n_opts; k++) {
      const opt_def *d = &COMMANDS[i].opts[k];
      printf("%s %s\n", COMMANDS[i].name, d->name);
      if (d->alias)
        printf("%s %s\n", COMMANDS[i].name, d->alias);
    }
  return 0;
}

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
    if (strcmp(argv[2], "--options") == 0)
      return print_option_list();
    for (size_t i = 0; i < N_COMMANDS; i++)
      if (strcmp(argv[2], COMMANDS[i].name) == 0) {
        print_help(&COMMANDS[i], stdout);
        return 0;
      }
    cmd = argv[2];
  } else {
    for (size_t i = 0; i < N_COMMANDS; i++)
      if (strcmp(cmd, COMMANDS[i].name) == 0)
        return COMMANDS[i].fn(&COMMANDS[i], argc - 2, argv + 2);
  }
  fprintf(stderr,
          "merlin: unknown command '%s'; valid: run, build, report, compare, "
          "sizes, agree, list, help (see merlin --help)\n",
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
  if (mh_term_guard() != 0) {
    fprintf(stderr, "merlin: cannot set up the terminal filter: %s\n",
            strerror(errno));
    return 1;
  }
  return close_stdout(dispatch(argc, argv));
}
#endif
