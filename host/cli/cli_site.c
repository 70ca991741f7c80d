/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin site DB --out DIR`: its command line (the site is
 * host/site/site.h). */
#include "cli/cli_parse.h"
#include "db/db.h"
#include "run/job.h"
#include "site/site.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
  const char *out, *threshold;
  unsigned threshold_pct;
} site_args;

static const mh_opt_def SITE_OPTS[] = {
    {"--out", NULL, "DIR", "where the site goes (default: site)",
     offsetof(site_args, out), 0, 0, 0, 0, NULL},
    {"--threshold", NULL, "PCT",
     "flag a change in an operation's history past PCT %\n(%R, default 3)",
     offsetof(site_args, threshold), 0, 1, 1000,
     offsetof(site_args, threshold_pct), NULL},
};

static int site_run(const char *db_path, const char *out, double threshold) {
  char err[2048];
  mh_db *db;
  mh_db_runs runs;
  mh_html_assets a;
  if (mh_db_open(db_path, 0, &db, err, sizeof err) != 0) {
    fprintf(stderr, "merlin site: %s\n", err);
    return 1;
  }
  int rc = mh_db_load(db, &runs, err, sizeof err);
  mh_db_close(db);
  if (rc != 0) {
    fprintf(stderr, "merlin site: %s\n", err);
    return 1;
  }
  if (mh_run_html_assets(&a, err, sizeof err) != 0) {
    fprintf(stderr, "merlin site: %s\n", err);
    mh_db_runs_free(&runs);
    return 1;
  }
  mh_site_opts o = {out, db_path, threshold};
  rc = mh_site_write(&runs, &a, &o, err, sizeof err);
  if (rc != 0)
    fprintf(stderr, "merlin site: %s\n", err);
  else
    printf("merlin: the site of %s (%zu run%s) written to %s (index.html)\n",
           db_path, runs.n, runs.n == 1 ? "" : "s", out);
  mh_html_assets_free(&a);
  mh_db_runs_free(&runs);
  return rc ? 1 : 0;
}

static int cmd_site(const mh_cmd_def *cmd, int argc, char **argv) {
  site_args a = {0};
  mh_parse_state s = {.cmd = cmd, .args = &a};
  int rc = mh_cli_parse_cmd(&s, argc, argv, 1, NULL, NULL, NULL);
  if (rc == 0 && s.n_pos != 1)
    rc = mh_cli_usage_error(&s, "expects one database: merlin site DB "
                                "--out DIR");
  if (rc == 0 && !mh_cli_parse_only)
    rc = site_run(s.pos[0], a.out ? a.out : "site",
                  a.threshold ? a.threshold_pct / 100.0 : 0.03);
  mh_cli_state_free(&s);
  return rc < 0 ? 0 : rc;
}

const mh_cmd_def mh_cmd_site = {
    "site",
    "usage: merlin site DB [--out DIR] [--threshold PCT]\n"
    "\n"
    "A static site of a results database (merlin db): per core and board\n"
    "the tables of every scheme and implementation (pqm4's, and its\n"
    "benchmarks.md), each operation's history across revisions with changes\n"
    "past the threshold flagged, one scheme across every core. Every page is\n"
    "one self-contained file that opens from file:// (docs/results.md).\n",
    MH_OPTS(SITE_OPTS),
    NULL,
    0,
    cmd_site};
