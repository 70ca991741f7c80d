/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin list`: targets, profiles, algorithms, backends. */
#include "cli/cli.h"
#include "cli/cli_parse.h"

#include "config/boards.h"
#include "config/catalog.h"
#include "config/targets.h"
#include "image/image_build.h"
#include "model/results_json.h"
#include "run/matrix.h"
#include "util/escape.h"
#include "util/fsutil.h"
#include "util/strbuf.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int list_targets(void) {
  char err[1024];
  if (mh_targets_init(err, sizeof err) != 0) {
    fprintf(stderr, "merlin: cannot read the target descriptors: %s\n", err);
    return 1;
  }
  for (size_t i = 0; i < mh_n_targets; i++) {
    char d[512];
    printf("  %-14s %s\n", mh_targets[i].id,
           mh_esc_term_buf(mh_targets[i].description, d, sizeof d));
  }
  return 0;
}

static int list_profiles(void) {
  char err[2048];
  char *root = mh_source_root(err, sizeof err);
  char **names = NULL;
  size_t n = 0;
  if (!root || mh_profile_names(root, &names, &n, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: %s\n", err);
    free(root);
    return 1;
  }
  for (size_t i = 0; i < n; i++) {
    char *path = NULL, *name = NULL;
    mh_profile p;
    if (mh_profile_locate(root, names[i], &path, &name, err, sizeof err) == 0 &&
        mh_profile_load(path, mh_path_display(root, path), &p, err,
                        sizeof err) == 0) {
      char d[512];
      printf("  %-20s %s\n", names[i],
             p.description ? mh_esc_term_buf(p.description, d, sizeof d)
                           : "(no description)");
      mh_profile_free(&p);
    } else {
      char e[2048];
      printf("  %-20s (invalid: %s)\n", names[i],
             mh_esc_term_buf(err, e, sizeof e));
    }
    free(path);
    free(name);
  }
  if (n == 0)
    printf("  (none in %s/profiles)\n", root);
  mh_profile_names_free(names, n);
  free(root);
  return 0;
}

static void list_algorithms(void) {
  for (size_t a = 0; a < MH_N_ALGS; a++) {
    char cls[16];
    size_t k = 0;
    for (; mh_algs[a].cls[k] && k + 1 < sizeof cls; k++)
      cls[k] = (char)tolower((unsigned char)mh_algs[a].cls[k]);
    cls[k] = '\0';
    printf("  %-16s %-6s backends:", mh_algs[a].id, cls);
    int any = 0;
    for (size_t b = 0; b < MH_N_BACKENDS; b++)
      if (mh_backend_offers(b, a)) {
        printf("%s %s", any ? "," : "", mh_backends[b].name);
        any = 1;
      }
    printf("%s\n", any ? "" : " none");
  }
}

static int list_boards(void) {
  char err[2048];
  char *root = mh_source_root(err, sizeof err);
  mh_board *bs = NULL;
  size_t n = 0;
  if (!root || mh_boards_load(root, &bs, &n, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: %s\n", err);
    free(root);
    return 1;
  }
  for (size_t i = 0; i < n; i++) {
    char id[128], core[128], name[256];
    printf("  %-14s %-14s %5.0f MHz %6.0f KB flash %6.0f KB RAM  %s%s\n",
           mh_esc_term_buf(bs[i].id, id, sizeof id),
           mh_esc_term_buf(bs[i].core, core, sizeof core),
           (double)bs[i].clock_hz / 1e6, (double)bs[i].flash_bytes / 1024.0,
           (double)bs[i].ram_bytes / 1024.0,
           mh_esc_term_buf(bs[i].name, name, sizeof name),
           strcmp(bs[i].target, "none") == 0 ? " (described, no port yet)"
                                             : "");
  }
  mh_boards_free(bs, n);
  free(root);
  return 0;
}

static void list_backends(void) {
  for (size_t b = 0; b < MH_N_BACKENDS; b++)
    printf("  %-12s %s\n", mh_backends[b].name, mh_backends[b].algs);
}

/* The coverage table of list_coverage; cell[a][b] is its state of
 * algorithm a and backend b (0 not offered, 1 offered, 2 pass, 3 fail). */
static void print_coverage(unsigned char cell[MH_N_ALGS][MH_N_BACKENDS],
                           const char *dir) {
  printf("| algorithm |");
  for (size_t b = 0; b < MH_N_BACKENDS; b++)
    printf(" %s |", mh_backends[b].name);
  printf("\n|---|");
  for (size_t b = 0; b < MH_N_BACKENDS; b++)
    printf(":---:|");
  printf("\n");
  static const char *const sym[] = {"—", "·", "✓", "✗"};
  for (size_t a = 0; a < MH_N_ALGS; a++) {
    printf("| %s |", mh_algs[a].id);
    for (size_t b = 0; b < MH_N_BACKENDS; b++)
      printf(" %s |", sym[cell[a][b]]);
    printf("\n");
  }
  printf("\n✓ served and KAT-passing in %s, ✗ KAT failed there, · offered "
         "but not measured there, — not offered by the library.\n",
         dir);
}

/* Algorithm x backend, as a Markdown table: "✓" offered and KAT-passing in
 * the results of dir (every target there), "✗" a KAT failed there, "·"
 * offered by the adapter but not measured in dir, "—" not offered by the
 * library. */
static int list_coverage(const char *dir) {
  enum { NOT_OFFERED, OFFERED, PASS, FAIL };
  static unsigned char cell_state[MH_N_ALGS][MH_N_BACKENDS];
  mh_results r;
  char err[1024];
  memset(&r, 0, sizeof r);
  for (size_t a = 0; a < MH_N_ALGS; a++)
    for (size_t b = 0; b < MH_N_BACKENDS; b++)
      cell_state[a][b] = mh_backend_offers(b, a) ? OFFERED : NOT_OFFERED;
  char *json = mh_path_join(dir, "results.json");
  struct stat st;
  int rc = 1;
  if (stat(dir, &st) != 0) {
    fprintf(stderr,
            "merlin: list coverage: %s: %s; give a results directory or "
            "its results.json (default: results/latest, written by merlin "
            "run)\n",
            dir, strerror(errno));
    goto out;
  }
  const char *file = S_ISDIR(st.st_mode) ? json : dir;
  /* a results.json found in a directory is read only when it is no link */
  if (!file ||
      (S_ISDIR(st.st_mode) ? mh_results_load_regular
                           : mh_results_load)(file, &r, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: list coverage: %s\n",
            file ? err : "out of memory");
    goto out;
  }
  for (size_t i = 0; i < r.n_runs; i++)
    for (size_t k = 0; k < r.runs[i].run.n_ops; k++) {
      const mh_op *op = &r.runs[i].run.ops[k];
      int a = op->alg ? mh_alg_find(op->alg) : -1;
      int b = op->backend ? mh_backend_find(op->backend) : -1;
      if (a < 0 || b < 0)
        continue;
      if (op->kat == MH_KAT_FAIL)
        cell_state[a][b] = FAIL;
      else if (op->kat == MH_KAT_PASS && cell_state[a][b] != FAIL)
        cell_state[a][b] = PASS;
    }
  print_coverage(cell_state, dir);
  rc = 0;
out:
  mh_results_free(&r);
  free(json);
  return rc;
}

int mh_cli_list_coverage(const char *dir) {
  return list_coverage(dir ? dir : "results/latest");
}

int mh_cli_list(const char *what) {
  int all = what == NULL;
  int rc = 0;
  if (all || strcmp(what, "targets") == 0) {
    if (all)
      printf("targets:\n");
    rc |= list_targets();
  }
  if (all || strcmp(what, "profiles") == 0) {
    if (all)
      printf("profiles:\n");
    rc |= list_profiles();
  }
  if (all || strcmp(what, "algorithms") == 0) {
    if (all)
      printf("algorithms:\n");
    list_algorithms();
  }
  if (all || strcmp(what, "backends") == 0) {
    if (all)
      printf("backends:\n");
    list_backends();
  }
  if (all || strcmp(what, "boards") == 0) {
    if (all)
      printf("boards:\n");
    rc |= list_boards();
  }
  return rc;
}

/* ---- `merlin list targets|boards --format md` --------------------------- */

/* "4 MB", "256 KB", "1,000 bytes". */
static void md_bytes(mh_sb *b, uint64_t v) {
  if (v && v % (1024 * 1024) == 0)
    mh_sb_printf(b, "%llu MB", (unsigned long long)(v / (1024 * 1024)));
  else if (v && v % 1024 == 0)
    mh_sb_printf(b, "%llu KB", (unsigned long long)(v / 1024));
  else
    mh_sb_printf(b, "%llu bytes", (unsigned long long)v);
}

/* " | " and a cell from a descriptor (escaped; "–" when absent). */
static void md_cell(mh_sb *b, const char *s) {
  mh_sb_puts(b, " | ");
  if (s && *s)
    mh_esc_md(b, s);
  else
    mh_sb_puts(b, "–");
}

/* " | `s`" (a code span: a flag, a command), "–" when absent. */
static void md_code(mh_sb *b, const char *s) {
  mh_sb_puts(b, " | ");
  if (!s || !*s) {
    mh_sb_puts(b, "–");
    return;
  }
  mh_sb_putc(b, '`');
  mh_esc_md(b, s);
  mh_sb_putc(b, '`');
}

/* The part's core, clock, flash and RAM: "cortex-m4, 25 MHz | 4 MB / 4
 * MB". */
static void md_part(mh_sb *b, const mh_board *d) {
  mh_sb_puts(b, " | ");
  if (!d->core) {
    mh_sb_puts(b, "this machine | –");
    return;
  }
  mh_esc_md(b, d->core);
  mh_sb_printf(b, ", %g MHz | ", (double)d->clock_hz / 1e6);
  md_bytes(b, d->flash_bytes);
  mh_sb_puts(b, " / ");
  md_bytes(b, d->ram_bytes);
}

/* How a target runs: "QEMU `mps2-an386`, `-cpu cortex-m4`, -icount shift=7";
 * a real board: flashed by the user. */
static void md_runs(mh_sb *b, const mh_board *d) {
  mh_sb_puts(b, " | ");
  if (strcmp(d->kind, "qemu") == 0) {
    mh_sb_puts(b, "QEMU `-M ");
    mh_esc_md(b, d->qemu_machine);
    mh_sb_puts(b, " -cpu ");
    mh_esc_md(b, d->qemu_cpu);
    mh_sb_printf(b, "`, `-icount shift=%llu`",
                 (unsigned long long)d->icount_shift);
  } else if (strcmp(d->kind, "board") == 0) {
    mh_sb_puts(b, "real board ");
    mh_esc_md(b, d->name);
    mh_sb_puts(b, " (");
    mh_esc_md(b, d->part);
    mh_sb_puts(b, "): built here, flashed and read (`--port`) by the user");
  } else {
    mh_esc_md(b, d->description);
  }
}

/* Every descriptor with a kind, a row each: docs/targets.md's table. */
static void targets_md(mh_sb *b, const mh_board *bs, size_t n) {
  mh_sb_puts(b, "| target | runs | core, clock | flash / RAM | compiled for "
                "| counter | unit | cycle model (`auto`) |\n"
                "|---|---|---|---|---|---|---|---|\n");
  for (size_t i = 0; i < n; i++) {
    const mh_board *d = &bs[i];
    if (!d->kind)
      continue;
    mh_sb_puts(b, "| `");
    mh_esc_md(b, d->id);
    mh_sb_putc(b, '`');
    md_runs(b, d);
    md_part(b, d);
    md_code(b, d->cpu_flags);
    if (d->clang_cpu_flags) { /* --cc clang builds it with other flags */
      mh_sb_puts(b, "; `--cc clang`: ");
      mh_esc_md(b, d->clang ? d->clang : MH_CLANG);
      mh_sb_puts(b, " `");
      mh_esc_md(b, d->clang_cpu_flags);
      mh_sb_putc(b, '`');
    }
    md_cell(b, d->counter ? d->counter : "the image's clock");
    md_cell(b, d->unit);
    md_cell(b, d->cycle_model);
    mh_sb_puts(b, " |\n");
  }
}

/* Every described part, a row each: docs/boards.md's table. */
static void boards_md(mh_sb *b, const mh_board *bs, size_t n) {
  mh_sb_puts(b, "| file | board | part | core, clock | flash / RAM "
                "| target | memory system | power model |\n"
                "|---|---|---|---|---|---|---|---|\n");
  for (size_t i = 0; i < n; i++) {
    const mh_board *d = &bs[i];
    if (!d->core)
      continue; /* a native target describes no part */
    mh_sb_puts(b, "| `boards/");
    mh_esc_md(b, d->id);
    mh_sb_puts(b, ".board`");
    md_cell(b, d->name);
    md_cell(b, d->part);
    md_part(b, d);
    md_cell(b, strcmp(d->target, "none") == 0 ? "none (described, no port)"
                                              : d->target);
    mh_sb_puts(b, " | ");
    if (d->runs_from) {
      mh_sb_puts(b, "runs from ");
      mh_esc_md(b, d->runs_from);
      if (strcmp(d->runs_from, "flash") == 0)
        mh_sb_printf(b, ", %llu wait states",
                     (unsigned long long)d->flash_wait_states);
    } else {
      mh_sb_puts(b, "–");
    }
    mh_sb_puts(b, " | ");
    if (d->run_current_ua) {
      mh_sb_printf(b, "%g mA at %g V", (double)d->run_current_ua / 1e3,
                   (double)d->supply_mv / 1e3);
    } else {
      mh_sb_puts(b, "–");
    }
    mh_sb_puts(b, " |\n");
  }
}

int mh_cli_list_md(const char *what) {
  char err[2048];
  char *root = mh_source_root(err, sizeof err);
  mh_board *bs = NULL;
  size_t n = 0;
  if (!root || mh_boards_load_all(root, 1, &bs, &n, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: %s\n", err);
    free(root);
    return 1;
  }
  mh_sb b = {0};
  if (strcmp(what, "targets") == 0)
    targets_md(&b, bs, n);
  else
    boards_md(&b, bs, n);
  int rc = b.failed ? 1 : 0;
  if (rc)
    fprintf(stderr, "merlin: out of memory\n");
  else
    fputs(b.s, stdout);
  mh_sb_free(&b);
  mh_boards_free(bs, n);
  free(root);
  return rc;
}

/* ---- `merlin list`: its command line (cli_parse.h) ---- */

/* --coverage [DIR] takes an optional value: cmd_list reads it before the
 * table parser; the entry is for the help and the option list. */
typedef struct {
  int coverage;
  const char *format;
} list_args;

static const mh_opt_def LIST_OPTS[] = {
    {"--coverage", NULL, "[DIR]", "the same as coverage [DIR]",
     offsetof(list_args, coverage), 0, 0, 0, 0, NULL},
    {"--format", NULL, "md",
     "targets or boards as a Markdown table (docs/targets.md,\n"
     "docs/boards.md: scripts/gen-target-docs)",
     offsetof(list_args, format), 0, 0, 0, 0, "md"},
};

static const char *const LISTS[] = {"targets", "profiles", "algorithms",
                                    "backends", "boards"};

static int cmd_list(const mh_cmd_def *cmd, int argc, char **argv) {
  /* `list coverage [DIR]` and `list --coverage [DIR]`. */
  for (int i = 0; i < argc; i++)
    if (strcmp(argv[i], "coverage") == 0 ||
        strcmp(argv[i], "--coverage") == 0) {
      if (argc > i + 2 || (argc == i + 2 && argv[i + 1][0] == '-')) {
        fprintf(stderr, "merlin list: usage: merlin list coverage [DIR]\n");
        return 2;
      }
      return mh_cli_parse_only
                 ? 0
                 : mh_cli_list_coverage(argc == i + 2 ? argv[i + 1] : NULL);
    }
  list_args a = {0};
  mh_parse_state s = {.cmd = cmd, .args = &a};
  int rc = mh_cli_parse_cmd(&s, argc, argv, 1, NULL, NULL, NULL);
  if (rc == 0 && s.n_pos > 1)
    rc = mh_cli_usage_error(&s, "unexpected argument '%s'", s.pos[1]);
  if (rc == 0 && s.n_pos == 1) {
    int ok = 0;
    for (size_t i = 0; i < sizeof LISTS / sizeof LISTS[0]; i++)
      ok |= strcmp(s.pos[0], LISTS[i]) == 0;
    if (!ok)
      rc =
          mh_cli_usage_error(&s, "unknown list '%s'; valid: %s", s.pos[0],
                             "targets, profiles, algorithms, backends, boards, "
                             "coverage");
  }
  if (rc == 0 && a.format &&
      (s.n_pos != 1 ||
       (strcmp(s.pos[0], "targets") != 0 && strcmp(s.pos[0], "boards") != 0)))
    rc = mh_cli_usage_error(&s, "--format md lists targets or boards: merlin "
                                "list targets --format md");
  if (rc == 0)
    rc = mh_cli_parse_only ? 0
         : a.format        ? mh_cli_list_md(s.pos[0])
                           : mh_cli_list(s.n_pos ? s.pos[0] : NULL);
  mh_cli_state_free(&s);
  return rc < 0 ? 0 : rc;
}

const mh_cmd_def mh_cmd_list = {
    "list",
    "usage: merlin list [targets|profiles|algorithms|backends|boards]\n"
    "       merlin list targets|boards --format md\n"
    "       merlin list coverage [DIR]   (also: merlin list --coverage)\n"
    "\n"
    "List what merlin knows; without an argument, everything. coverage\n"
    "prints algorithm x backend: offered by the adapter, and KAT-passing "
    "in\n"
    "the results in DIR (default results/latest); a DIR that is missing "
    "or\n"
    "unreadable is an error (exit 1).\n",
    MH_OPTS(LIST_OPTS),
    NULL,
    0,
    cmd_list};
