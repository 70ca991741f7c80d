/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin report DIR [--format F]`: regenerate a report of DIR/results.json
 * in one of the formats of host/cli/report_formats.def (one row per
 * format). */
#include "cli/cli.h"
#include "cli/cli_parse.h"
#include "report/summary.h"
#include "run/job.h"

#include "model/results_json.h"
#include "report/report_ci.h"
#include "report/report_html.h"
#include "report/report_md.h"
#include "report/report_pqm4.h"
#include "report/report_tex.h"
#include "report/results_csv.h"
#include "util/fsutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Why a renderer returned NULL, when not for lack of memory. */
static char report_err[2048];

static char *render_json(const mh_results *r) {
  return mh_results_to_json(r, report_err, sizeof report_err);
}

static char *render_html(const mh_results *r) {
  mh_html_assets a;
  if (mh_run_html_assets(&a, report_err, sizeof report_err) != 0)
    return NULL;
  char *s = mh_report_html(r, &a);
  mh_html_assets_free(&a);
  return s;
}

typedef struct {
  const char *name, *file;
  char *(*render)(const mh_results *r);
  int printed; /* the text to stdout too */
} report_format;

static const report_format FORMATS[] = {
#define MH_REPORT_FORMAT(name, file, fn, printed, help)                        \
  {name, file, fn, printed},
#include "cli/report_formats.def"
#undef MH_REPORT_FORMAT
};

int mh_cli_report(const char *dir, const char *format) {
  char err[2048];
  struct stat st;
  const report_format *f = NULL;
  for (size_t i = 0; i < sizeof FORMATS / sizeof *FORMATS; i++)
    if (strcmp(format, FORMATS[i].name) == 0)
      f = &FORMATS[i];
  if (!f) { /* main.c checks the name; this is for other callers */
    fprintf(stderr, "merlin: report: unknown format '%s'\n", format);
    return 2;
  }
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    fprintf(stderr, "merlin: report: %s is not a results directory\n", dir);
    return 1;
  }
  char *json = mh_path_join(dir, "results.json");
  char *out_path = mh_path_join(dir, f->file);
  mh_results r;
  memset(&r, 0, sizeof r);
  int rc = 1;
  if (!json || !out_path) {
    fprintf(stderr, "merlin: out of memory\n");
    goto out;
  }
  if (mh_results_load_regular(json, &r, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: report: %s\n", err);
    goto out;
  }
  report_err[0] = '\0';
  char *text = f->render(&r);
  if (!text) {
    fprintf(stderr, "merlin: report: %s\n",
            report_err[0] ? report_err : "out of memory");
    goto out;
  }
  /* a link planted in a results directory is replaced, never written
   * through */
  if (mh_write_replace(out_path, text, strlen(text), err, sizeof err) != 0)
    fprintf(stderr, "merlin: report: %s\n", err);
  else {
    if (f->printed)
      fputs(text, stdout);
    fprintf(f->printed ? stderr : stdout, "merlin: wrote %s\n", out_path);
    rc = 0;
    /* The reports people read end with their headline (report/summary.h). */
    char *head = strcmp(f->name, "md") == 0 || strcmp(f->name, "html") == 0
                     ? mh_report_summary(&r)
                     : NULL;
    if (head)
      fputs(head, stdout);
    free(head);
  }
  free(text);
out:
  mh_results_free(&r);
  free(json);
  free(out_path);
  return rc;
}

/* `merlin report DIR DIR... --format pqm4`: one set of pqm4 tables of
 * several results directories (docs/bring-your-own.md, "pqm4's tables"),
 * printed (and written to none of them). */
static int report_pqm4_many(const char *const *dirs, size_t n) {
  char err[2048];
  mh_results *sets = calloc(n, sizeof *sets);
  const mh_results **ptrs = calloc(n, sizeof *ptrs);
  int rc = sets && ptrs ? 0 : 1;
  if (rc)
    fprintf(stderr, "merlin: out of memory\n");
  for (size_t i = 0; rc == 0 && i < n; i++) {
    char *json = mh_path_join(dirs[i], "results.json");
    struct stat st;
    if (stat(dirs[i], &st) != 0 || !S_ISDIR(st.st_mode)) {
      fprintf(stderr, "merlin: report: %s is not a results directory\n",
              dirs[i]);
      rc = 1;
    } else if (!json || mh_results_load(json, &sets[i], err, sizeof err)) {
      fprintf(stderr, "merlin: report: %s\n", json ? err : "out of memory");
      rc = 1;
    }
    ptrs[i] = &sets[i];
    free(json);
  }
  char *text = rc == 0 ? mh_report_pqm4_sets(ptrs, dirs, n) : NULL;
  if (rc == 0 && !text) {
    fprintf(stderr, "merlin: out of memory\n");
    rc = 1;
  }
  if (text) {
    fputs(text, stdout);
    fprintf(stderr,
            "merlin: the pqm4 tables of %zu results directories, printed "
            "(not written into any of them)\n",
            n);
  }
  free(text);
  for (size_t i = 0; sets && i < n; i++)
    mh_results_free(&sets[i]);
  free(sets);
  free(ptrs);
  return rc;
}

/* ---- `merlin report`: its command line (cli_parse.h) ---- */

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

static const mh_opt_def REPORT_OPTS[] = {
    {"--format", NULL, "F", REPORT_FORMAT_HELP, offsetof(report_args, format),
     0, 0, 0, 0, REPORT_FORMATS + 2},
};

static int cmd_report(const mh_cmd_def *cmd, int argc, char **argv) {
  report_args a = {0};
  mh_parse_state s = {.cmd = cmd, .args = &a};
  int rc = mh_cli_parse_cmd(&s, argc, argv, 1, NULL, NULL, NULL);
  const char *format = a.format ? a.format : "md";
  int pqm4 = strcmp(format, "pqm4") == 0;
  if (rc == 0 && (s.n_pos == 0 || (s.n_pos > 1 && !pqm4)))
    rc = mh_cli_usage_error(
        &s, s.n_pos ? "takes several results directories with --format "
                      "pqm4 only (merlin merge joins runs of one plan for "
                      "the other formats)"
                    : "expects one results directory, for example "
                      "results/latest");
  if (rc == 0 && s.n_pos > 1)
    rc = mh_cli_parse_only ? 0 : report_pqm4_many(s.pos, s.n_pos);
  else if (rc == 0)
    rc = mh_cli_parse_only ? 0 : mh_cli_report(s.pos[0], format);
  mh_cli_state_free(&s);
  return rc < 0 ? 0 : rc;
}

const mh_cmd_def mh_cmd_report = {
    "report",
    "usage: merlin report DIR [DIR...] [--format F]\n"
    "\n"
    "Read DIR/results.json and write a report of it again (for example "
    "after\n"
    "upgrading merlin): merlin report results/latest. With --format pqm4,\n"
    "several directories make one set of tables (printed)\n",
    MH_OPTS(REPORT_OPTS),
    NULL,
    0,
    cmd_report};
