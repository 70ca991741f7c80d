/* SPDX-License-Identifier: Apache-2.0 */
/*
 * merlin agree (docs/operations.md, docs/cli.md): build a library's own
 * benchmark program as an agree image (tools/agree/) with the library
 * configured as in Merlin's images, run it and Merlin's image of the same
 * algorithms on one target, interleaved, and set the figures side by side
 * by the rows of tools/agree/rows.txt.
 */
#include "agree/agree.h"
#include "analysis/noise.h"
#include "config/profile.h"
#include "config/targets.h"
#include "image/image_build.h"
#include "model/results_json.h"
#include "model/stats.h"
#include "util/exec.h"
#include "util/fsutil.h"
#include "util/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define AG_REPEAT_MAX 20
#define AG_ARGS_MAX 48

typedef struct {
  const mh_agree_opts *o;
  const mh_target *t;
  char *root, *bdir, *image, *profile;
  char *args[AG_ARGS_MAX]; /* the program's arguments */
  size_t n_args;
  unsigned repeat, runs;
  int bare;
  mh_ag_map *map;
  size_t n_map;
  double *theirs, *merlin;     /* [row * repeat + k], NAN: no figure */
  double share[AG_REPEAT_MAX]; /* host: CPU share of their program, or 0 */
  double noise[AG_REPEAT_MAX]; /* Merlin's control spread per run, or NAN */
  char runner[200]; /* host: where the image says its runner ran, or "" */
} ag_ctx;

static char *ag_file(const ag_ctx *c, const char *name) {
  char rel[160];
  snprintf(rel, sizeof rel, "tools/agree/%s", name);
  return mh_path_join(c->root, rel);
}

/* The program's arguments (tools/agree/<library>.args) and the rows. */
static int ag_load(ag_ctx *c, char *err, size_t errlen) {
  char name[64], *path, *buf = NULL;
  size_t len;
  snprintf(name, sizeof name, "%s.args", c->o->backend);
  path = ag_file(c, name);
  int rc = path ? mh_read_file(path, 1 << 16, &buf, &len, err, errlen) : -1;
  free(path);
  if (rc != 0)
    return -1;
  char *save = NULL;
  for (char *line = strtok_r(buf, "\n", &save); line;
       line = strtok_r(NULL, "\n", &save)) {
    if (line[0] == '#')
      continue;
    for (char *s = line; *s && c->n_args + 1 < AG_ARGS_MAX;) {
      size_t w = strcspn(s, " \t");
      if (w)
        c->args[c->n_args++] = strndup(s, w);
      s += w + (s[w] ? 1 : 0);
    }
  }
  free(buf);
  path = ag_file(c, "rows.txt");
  rc = path ? mh_read_file(path, 1 << 20, &buf, &len, err, errlen) : -1;
  free(path);
  if (rc != 0)
    return -1;
  mh_ag_map *all = NULL;
  size_t n_all = 0;
  rc = mh_ag_map_parse(buf, &all, &n_all, err, errlen);
  free(buf);
  if (rc != 0)
    return -1;
  c->map = calloc(n_all ? n_all : 1, sizeof *c->map);
  for (size_t i = 0; c->map && i < n_all; i++)
    if (strcmp(all[i].library, c->o->backend) == 0)
      c->map[c->n_map++] = all[i];
  free(all);
  size_t cells = (c->n_map ? c->n_map : 1) * c->repeat;
  c->theirs = malloc(cells * sizeof *c->theirs);
  c->merlin = malloc(cells * sizeof *c->merlin);
  if (!c->map || !c->theirs || !c->merlin) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  for (size_t i = 0; i < cells; i++)
    c->theirs[i] = c->merlin[i] = NAN;
  return 0;
}

/* Configure and build the agree image in ROOT/build/agree/<target>-<lib>/
 * with the generated files of the library's agree profile. */
static int ag_build(ag_ctx *c, char *err, size_t errlen) {
  char name[96], *pname = NULL, *log = NULL, *pdir = NULL;
  mh_profile p = {0};
  int rc = -1, changed = 0, logfd = -1;
  snprintf(name, sizeof name, "build/agree/%s-%s", c->t->id, c->o->backend);
  c->bdir = mh_path_join(c->root, name);
  snprintf(name, sizeof name, "%s.profile", c->o->backend);
  c->profile = ag_file(c, name);
  if (!c->bdir || !c->profile ||
      mh_profile_load(c->profile, c->profile, &p, err, errlen) != 0)
    goto out;
  snprintf(name, sizeof name, "agree-%s", c->o->backend);
  pname = strdup(name);
  pdir = mh_path_join(c->bdir, "profile");
  log = mh_path_join(c->bdir, "build.log");
  char *files[2] = {mh_profile_header(pname, &p), mh_profile_cmake(pname, &p)};
  const char *fnames[2] = {"merlin_profile.h", "merlin_profile.cmake"};
  rc = pdir && log && files[0] && files[1] ? mh_mkdir_p(pdir, err, errlen) : -1;
  for (int i = 0; i < 2 && rc == 0; i++) {
    char *fp = mh_path_join(pdir, fnames[i]);
    int ch = 0;
    rc = fp ? mh_write_if_changed(fp, files[i], strlen(files[i]), &ch, err,
                                  errlen)
            : -1;
    changed |= ch;
    free(fp);
  }
  free(files[0]);
  free(files[1]);
  if (rc == 0)
    logfd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (rc == 0 && logfd < 0) {
    snprintf(err, errlen, "cannot create %s: %s", log, strerror(errno));
    rc = -1;
  }
  if (rc == 0 && (changed || !mh_file_in(c->bdir, "CMakeCache.txt"))) {
    char def_lib[64], def_dir[PATH_MAX + 32];
    snprintf(def_lib, sizeof def_lib, "-DMERLIN_AGREE=%s", c->o->backend);
    snprintf(def_dir, sizeof def_dir, "-DMERLIN_PROFILE_DIR=%s", pdir);
    char *extra[] = {"-DMERLIN_IMAGE=ON", "-DMERLIN_TOOLS=OFF", def_lib,
                     def_dir, NULL};
    rc = mh_cmake_configure(c->root, c->t, c->bdir, extra, logfd, err, errlen);
  }
  if (rc == 0) {
    char *bargv[] = {"cmake",        "--build",    c->bdir, "--target",
                     "merlin-agree", "--parallel", "2",     NULL};
    rc = mh_run_logged(bargv, c->root, logfd, err, errlen);
    if (rc != 0)
      mh_build_log_tail(log);
  }
  const char *suffix = strstr(c->t->image, ".elf") ? ".elf" : "";
  snprintf(name, sizeof name, "merlin-agree%s", suffix);
  c->image = rc == 0 ? mh_path_join(c->bdir, name) : NULL;
out:
  if (logfd >= 0)
    close(logfd);
  mh_profile_free(&p);
  free(pname);
  free(pdir);
  free(log);
  return rc == 0 && c->image ? 0 : -1;
}

/* The program's command: the image itself, or QEMU as merlin runs it
 * (-icount, console on stdio, the arguments by semihosting). */
static char **ag_their_argv(const ag_ctx *c) {
  char **argv = calloc(AG_ARGS_MAX + 24, sizeof *argv);
  size_t n = 0;
  if (!argv)
    return NULL;
  if (!c->bare) {
    argv[n++] = strdup(c->image);
    for (size_t i = 0; i < c->n_args; i++)
      argv[n++] = strdup(c->args[i]);
    return argv;
  }
  mh_sb semi = {0};
  mh_sb_puts(&semi, "enable=on,target=native,arg=merlin-agree");
  for (size_t i = 0; i < c->n_args; i++)
    mh_sb_printf(&semi, ",arg=%s", c->args[i]);
  char icount[64];
  snprintf(icount, sizeof icount, "shift=%d,align=off,sleep=off",
           c->t->icount_shift);
  const char *words[] = {"qemu-system-arm",
                         "-M",
                         c->t->qemu_machine,
                         "-cpu",
                         c->t->qemu_cpu,
                         "-display",
                         "none",
                         "-monitor",
                         "none",
                         "-serial",
                         "stdio",
                         "-semihosting-config",
                         semi.s ? semi.s : "",
                         "-icount",
                         icount,
                         "-kernel",
                         c->image};
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    argv[n++] = strdup(words[i]);
  mh_sb_free(&semi);
  return argv;
}

static void ag_argv_free(char **argv) {
  for (size_t i = 0; argv && argv[i]; i++)
    free(argv[i]);
  free(argv);
}

/* Run the library's program once (repeat k) and record its mapped rows in
 * Merlin's unit. */
static int ag_run_theirs(ag_ctx *c, unsigned k, char *err, size_t errlen) {
  char **argv = ag_their_argv(c);
  mh_exec_spec spec = {.argv = argv,
                       .stdout_fd = -1,
                       .stderr_fd = -1,
                       .stall_s = 1800,
                       .max_capture = 1 << 22};
  mh_exec_result res = {0};
  int rc = argv ? mh_exec(&spec, &res, err, errlen) : -1;
  ag_argv_free(argv);
  if (rc == 0 && !(res.exited && res.exit_code == 0)) {
    snprintf(err, errlen, "the %s benchmark program failed (%s %d)",
             c->o->backend, res.exited ? "exit status" : "signal",
             res.exited ? res.exit_code : res.term_signal);
    rc = -1;
  }
  char log[64];
  snprintf(log, sizeof log, "theirs-%u.log", k + 1);
  char *lp = rc == 0 ? mh_path_join(c->bdir, log) : NULL;
  int ch;
  if (lp)
    mh_write_if_changed(lp, res.out, res.out_len, &ch, err, errlen);
  free(lp);
  mh_ag_row *rows = NULL;
  size_t n = 0;
  const char *share =
      rc == 0 ? strstr(res.out, "merlin-agree: cpu_share=") : NULL;
  c->share[k] = share ? strtod(share + 24, NULL) : 0;
  if (rc == 0)
    rc = mh_ag_parse(c->o->backend, res.out, c->bare, &rows, &n, err, errlen);
  /* Bare metal: counter ticks to Merlin's unit, at the counter frequency
   * the image's begin line states (tools/agree/agree_main.c). */
  double f = 1.0;
  if (rc == 0 && c->bare) {
    const char *hz = strstr(res.out, " counter_hz=");
    char hzs[24] = "";
    if (hz)
      sscanf(hz + 12, "%23[0-9]", hzs);
    rc = mh_target_ticks_to_unit(c->t, "ticks", hzs, &f, err, errlen);
  }
  for (size_t i = 0; rc == 0 && i < c->n_map; i++) {
    const mh_ag_map *m = &c->map[i];
    const mh_ag_row *r = mh_ag_find(rows, n, m->key);
    if (r && r->rate == (m->kind != MH_AG_CALL))
      c->theirs[i * c->repeat + k] =
          r->value * f * (m->kind == MH_AG_KIB ? 1024.0 : 1.0);
  }
  free(rows);
  mh_exec_result_free(&res);
  return rc;
}

/* Merlin's image of the same algorithms (the library's agree profile), as
 * `merlin run` runs it: a fresh process of this merlin. */
static int ag_run_merlin(ag_ctx *c, unsigned k, char *err, size_t errlen) {
  char self[PATH_MAX], out[64], runs[16], warm[16];
  ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
  if (sl <= 0) {
    snprintf(err, errlen, "cannot find this merlin: %s", strerror(errno));
    return -1;
  }
  self[sl] = '\0';
  /* Rebuilt while running: the new merlin at the same path. */
  char *gone = strstr(self, " (deleted)");
  if (gone && gone[10] == '\0')
    *gone = '\0';
  snprintf(out, sizeof out, "merlin-%u", k + 1);
  snprintf(runs, sizeof runs, "%u", c->runs);
  snprintf(warm, sizeof warm, "%u", c->runs > 11 ? 5u : 1u);
  char *dir = mh_path_join(c->bdir, out);
  char *argv[] = {self,        "run",      "--target", (char *)c->t->id,
                  "--profile", c->profile, "--out",    dir,
                  "--quiet",   "--runs",   runs,       "--warmup",
                  warm,        NULL};
  mh_exec_spec spec = {
      .argv = argv, .stdout_fd = -1, .stderr_fd = -1, .max_capture = 1 << 20};
  mh_exec_result res = {0};
  int rc = dir ? mh_exec(&spec, &res, err, errlen) : -1;
  if (rc == 0 && !(res.exited && res.exit_code == 0)) {
    snprintf(err, errlen, "merlin run failed (see above)");
    rc = -1;
  }
  mh_exec_result_free(&res);
  mh_results r = {0};
  if (rc == 0)
    rc = dir ? mh_results_load_arg(dir, &r, err, errlen) : -1;
  free(dir);
  mh_noise z;
  c->noise[k] = rc == 0 && r.n_runs && mh_noise_of(&r.runs[0].run, &z) == 0
                    ? z.spread
                    : NAN;
  /* What the host image recorded of its pinning and priority (first run),
   * so that the summary says what was granted, not what was asked for. */
  const char *cpu =
      rc == 0 && r.n_runs ? mh_run_prov(&r.runs[0].run, "host_cpu") : NULL;
  const char *prio =
      rc == 0 && r.n_runs ? mh_run_prov(&r.runs[0].run, "host_priority") : NULL;
  if (!c->runner[0] && cpu && prio)
    snprintf(c->runner, sizeof c->runner, "%s, %s", cpu, prio);
  for (size_t i = 0; rc == 0 && i < c->n_map; i++) {
    const mh_ag_map *m = &c->map[i];
    double at[2] = {NAN, NAN}; /* call: -1 B; else 64 and 256 B */
    for (size_t x = 0; x < r.n_runs; x++)
      for (size_t o = 0; o < r.runs[x].run.n_ops; o++) {
        const mh_op *op = &r.runs[x].run.ops[o];
        if (strcmp(op->alg, m->alg) || strcmp(op->op, m->op) ||
            strcmp(op->backend, c->o->backend) || !op->n_samples)
          continue;
        if (m->kind == MH_AG_CALL && op->bytes < 0)
          at[0] = op->stats.median;
        else if (m->kind != MH_AG_CALL && (op->bytes == 64 || op->bytes == 256))
          at[op->bytes == 256] = op->stats.median;
      }
    double slope = (at[1] - at[0]) / 192.0;
    c->merlin[i * c->repeat + k] = m->kind == MH_AG_CALL ? at[0]
                                   : m->kind == MH_AG_RATE
                                       ? slope
                                       : at[0] + 960.0 * slope;
  }
  mh_results_free(&r);
  return rc;
}

/* Median and spread (max/min - 1) of the figures of row i that exist. */
static size_t ag_summarise(const double *v, unsigned n, double *median,
                           double *spread) {
  double x[AG_REPEAT_MAX];
  size_t m = 0;
  for (unsigned k = 0; k < n; k++)
    if (isfinite(v[k]) && v[k] > 0)
      x[m++] = v[k];
  *median = m ? mh_percentile(x, m, 0.5) : NAN;
  double lo = m ? x[0] : NAN, hi = lo;
  for (size_t j = 1; j < m; j++) {
    lo = x[j] < lo ? x[j] : lo;
    hi = x[j] > hi ? x[j] : hi;
  }
  *spread = m ? hi / lo - 1.0 : NAN;
  return m;
}

static int ag_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The table, its summary, and the Markdown file when asked. */
static int ag_report(const ag_ctx *c, char *err, size_t errlen) {
  double bound = c->bare ? 0.01 : 0.05;
  const char *unit = c->t->unit ? c->t->unit : "";
  if (!c->bare)
    unit = "ns";
  mh_sb b = {0};
  time_t now = time(NULL);
  char date[32];
  strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
  mh_sb_printf(&b,
               "`merlin agree --target %s --backend %s --repeat %u` (%s; "
               "%s; bound %.0f%%):\n\n",
               c->t->id, c->o->backend, c->repeat, date,
               c->bare ? "exact counts of the same counter, in instructions"
                       : "host nanoseconds, medians over interleaved repeats "
                         "on a machine shared with other work",
               bound * 100.0);
  /* The host: how much of a CPU their program got. It averages over wall
   * time, so a share below 1 is the machine's load in its figures. */
  double share, share_spread;
  char noise[160] = "";
  if (!c->bare && ag_summarise(c->share, c->repeat, &share, &share_spread) &&
      share < 0.9)
    snprintf(noise, sizeof noise,
             "outside the bound: the machine gave their program %.0f%% of a "
             "CPU (load, not definitions)",
             100.0 * share);
  mh_sb_puts(&b, mh_ag_table_header());
  size_t agree = 0, rows = 0, unexplained = 0, ns = 0;
  double st[256], sm[256];
  for (size_t i = 0; i < c->n_map; i++) {
    mh_ag_line l = {.map = &c->map[i]};
    double s1, s2;
    size_t a =
        ag_summarise(&c->theirs[i * c->repeat], c->repeat, &l.theirs, &s1);
    size_t m =
        ag_summarise(&c->merlin[i * c->repeat], c->repeat, &l.merlin, &s2);
    l.n = a < m ? a : m;
    l.theirs_spread = s1;
    l.merlin_spread = s2;
    char line[1024];
    mh_ag_format_line(line, sizeof line, &l, unit, bound,
                      noise[0] ? noise : NULL);
    mh_sb_puts(&b, line);
    if (!l.n)
      continue;
    rows++;
    agree += fabs(l.merlin / l.theirs - 1.0) <= bound;
    unexplained += mh_ag_unexplained(&l, bound) && !noise[0];
    if (ns < 256 && l.n > 1) {
      st[ns] = s1;
      sm[ns++] = s2;
    }
  }
  mh_sb_printf(&b,
               "\n%zu of %zu rows agree within %.0f%%; %zu outside it "
               "without a known reason.",
               agree, rows, bound * 100.0, unexplained);
  if (ns) {
    qsort(st, ns, sizeof st[0], ag_cmp_double);
    qsort(sm, ns, sizeof sm[0], ag_cmp_double);
    mh_sb_printf(&b,
                 " Median spread over the repeats (max/min - 1 of each "
                 "row's %u figures, median over %zu rows): theirs %.1f%%, "
                 "Merlin %.1f%%.",
                 c->repeat, ns, 100.0 * mh_percentile(st, ns, 0.5),
                 100.0 * mh_percentile(sm, ns, 0.5));
  }
  if (!c->bare && isfinite(share) && share > 0)
    mh_sb_printf(&b,
                 " Their program got a median %.0f%% of a CPU over its "
                 "runs (user and system time over wall time); it "
                 "averages over wall time, so a share below 100%% is in "
                 "its figures.",
                 100.0 * share);
  double nz, nz_spread;
  if (!c->bare && ag_summarise(c->noise, c->repeat, &nz, &nz_spread))
    mh_sb_printf(&b,
                 " Merlin's control, timed after every operation, varied "
                 "by a median %.1f%% within its runs (p95/p5; %s): its "
                 "medians of short samples (runner: %s) are less exposed to "
                 "the load, not immune.",
                 100.0 * nz, nz > MH_NOISE_STEADY ? "not steady" : "steady",
                 c->runner[0] ? c->runner
                              : "pinning and priority not recorded");
  mh_sb_puts(&b, "\n");
  int rc = b.failed ? -1 : 0;
  if (rc == 0)
    fputs(b.s, stdout);
  int ch;
  if (rc == 0 && c->o->md &&
      mh_write_if_changed(c->o->md, b.s, strlen(b.s), &ch, err, errlen) != 0)
    rc = -1;
  mh_sb_free(&b);
  if (rc == 0 && c->bare && unexplained)
    return 1;
  return rc;
}

/* --md FILE can be written: not something other than a regular file, in a
 * directory where the atomic writer can create its temporary file (tried:
 * permission bits do not tell root about a read-only file system). Checked
 * before anything is built or run. 0, or -1 with err. */
static int md_writable(const char *path, char *err, size_t errlen) {
  struct stat st;
  char brief[MH_PATH_BRIEF];
  const char *b = mh_path_brief(path, brief, sizeof brief);
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    snprintf(err, errlen, "--md %s: not a regular file", b);
    return -1;
  }
  const char *slash = strrchr(path, '/');
  char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path))
                    : strdup(".");
  char *probe = dir ? mh_path_join(dir, ".merlin-md-XXXXXX") : NULL;
  int fd = probe ? mkstemp(probe) : -1;
  if (fd < 0)
    snprintf(err, errlen, "--md %s: cannot write in %s: %s", b, dir ? dir : "?",
             probe ? strerror(errno) : "out of memory");
  else {
    close(fd);
    unlink(probe);
  }
  free(probe);
  free(dir);
  return fd < 0 ? -1 : 0;
}

int mh_cli_agree(const mh_agree_opts *o) {
  char err[512] = "";
  ag_ctx c = {.o = o};
  int rc = 1;
  mh_exec_install_signal_handlers();
  if (mh_targets_init(err, sizeof err) != 0)
    goto out;
  c.t = mh_target_find(o->target);
  if (!c.t || c.t->user_qemu ||
      (c.t->kind != MH_EXEC_NATIVE && c.t->kind != MH_EXEC_QEMU)) {
    fprintf(stderr,
            "merlin agree: --target must be host or a QEMU target, "
            "not '%s'\n",
            o->target);
    return 2;
  }
  c.bare = c.t->kind == MH_EXEC_QEMU;
  c.repeat = o->repeat ? o->repeat : (c.bare ? 1u : 3u);
  c.runs = o->runs ? o->runs : (c.bare ? 11u : 101u);
  if (o->md && md_writable(o->md, err, sizeof err) != 0)
    goto out; /* before anything is built or run */
  c.root = mh_source_root(err, sizeof err);
  if (!c.root || ag_load(&c, err, sizeof err) != 0 ||
      ag_build(&c, err, sizeof err) != 0)
    goto out;
  for (unsigned k = 0; k < c.repeat; k++) {
    if (!o->quiet)
      fprintf(stderr,
              "merlin agree: %s: %s benchmark and Merlin, run %u of "
              "%u\n",
              c.t->id, o->backend, k + 1, c.repeat);
    if (ag_run_theirs(&c, k, err, sizeof err) != 0 ||
        ag_run_merlin(&c, k, err, sizeof err) != 0)
      goto out;
  }
  rc = ag_report(&c, err, sizeof err);
out:
  if (rc < 0 || (rc == 1 && err[0]))
    fprintf(stderr, "merlin agree: %s\n", err);
  for (size_t i = 0; i < c.n_args; i++)
    free(c.args[i]);
  free(c.root);
  free(c.bdir);
  free(c.image);
  free(c.profile);
  free(c.map);
  free(c.theirs);
  free(c.merlin);
  return rc < 0 ? 1 : rc;
}
