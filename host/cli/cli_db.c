/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin db add|list|rm`: its command line (the database is
 * host/db/db.h). */
#include "cli/cli_parse.h"
#include "db/db.h"
#include "model/results_json.h"
#include "util/fsutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
  int quiet;
} db_args;

static const mh_opt_def DB_OPTS[] = {
    {"--quiet", NULL, NULL, "add: no line per directory",
     offsetof(db_args, quiet), 0, 0, 0, 0, NULL},
};

/* One directory's results.json (or a results.json file, or an --out
 * directory's latest): its text and its checked contents. */
typedef struct {
  const char *arg;
  char *path, *text;
  mh_results r;
} db_input;

static int read_input(db_input *in, char *err, size_t errlen) {
  struct stat sb;
  const char *a = in->arg;
  char *latest = mh_path_join(a, "latest/results.json");
  char *direct = mh_path_join(a, "results.json");
  if (!latest || !direct) {
    free(latest);
    free(direct);
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  if (stat(a, &sb) == 0 && S_ISDIR(sb.st_mode)) {
    int use_latest = stat(direct, &sb) != 0 && stat(latest, &sb) == 0;
    in->path = use_latest ? latest : direct;
    free(use_latest ? direct : latest);
  } else {
    in->path = strdup(a);
    free(latest);
    free(direct);
  }
  size_t n;
  char e[1536];
  if (!in->path ||
      mh_read_file(in->path, (size_t)1 << 30, &in->text, &n, e, sizeof e) !=
          0 ||
      mh_results_from_json(in->text, n, &in->r, e, sizeof e) != 0) {
    snprintf(err, errlen, "%s: refused: %s", a, in->path ? e : "out of memory");
    return -1;
  }
  return 0;
}

static int db_add(const char *path, const char **dirs, size_t n, int quiet) {
  char err[2048];
  db_input *in = calloc(n, sizeof *in);
  int rc = in ? 0 : 1;
  /* Every directory is read and checked before the database is opened:
   * one that fails is refused, and nothing is imported. */
  for (size_t i = 0; rc == 0 && i < n; i++) {
    in[i].arg = dirs[i];
    if (read_input(&in[i], err, sizeof err) != 0) {
      fprintf(stderr, "merlin db add: %s; nothing imported\n", err);
      rc = 1;
    }
  }
  mh_db *db = NULL;
  if (rc == 0 && mh_db_open(path, 1, &db, err, sizeof err) != 0) {
    fprintf(stderr, "merlin db add: %s\n", err);
    rc = 1;
  }
  for (size_t i = 0; rc == 0 && i < n; i++) {
    mh_db_added w;
    if (mh_db_add(db, in[i].arg, in[i].text, &in[i].r, &w, err, sizeof err)) {
      fprintf(stderr, "merlin db add: %s: %s\n", in[i].arg, err);
      rc = 1;
    } else if (!quiet) {
      printf("%s: %zu run%s added, %zu already in %s\n", in[i].arg, w.added,
             w.added == 1 ? "" : "s", w.present, path);
    }
  }
  mh_db_close(db);
  for (size_t i = 0; in && i < n; i++) {
    free(in[i].path);
    free(in[i].text);
    mh_results_free(&in[i].r);
  }
  free(in);
  return rc;
}

static int db_run(const char *sub, const char **pos, size_t n, int quiet) {
  char err[2048], what[256] = "";
  if (strcmp(sub, "add") == 0)
    return db_add(pos[0], pos + 1, n - 1, quiet);
  mh_db *db;
  if (mh_db_open(pos[0], 0, &db, err, sizeof err) != 0) {
    fprintf(stderr, "merlin db %s: %s\n", sub, err);
    return 1;
  }
  int rc;
  if (strcmp(sub, "list") == 0) {
    rc = mh_db_list(db, stdout, err, sizeof err) ? 1 : 0;
  } else {
    rc = mh_db_rm(db, pos[1], what, sizeof what, err, sizeof err) ? 1 : 0;
    if (rc == 0)
      printf("removed %s from %s\n", what, pos[0]);
  }
  if (rc)
    fprintf(stderr, "merlin db %s: %s\n", sub, err);
  mh_db_close(db);
  return rc;
}

static int cmd_db(const mh_cmd_def *cmd, int argc, char **argv) {
  db_args a = {0};
  mh_parse_state s = {.cmd = cmd, .args = &a};
  int rc = mh_cli_parse_cmd(&s, argc, argv, 1, NULL, NULL, NULL);
  const char *sub = rc == 0 && s.n_pos ? s.pos[0] : "";
  size_t n = s.n_pos ? s.n_pos - 1 : 0;
  if (rc == 0 && strcmp(sub, "add") != 0 && strcmp(sub, "list") != 0 &&
      strcmp(sub, "rm") != 0)
    rc = mh_cli_usage_error(&s, "expects add, list or rm, got '%s'", sub);
  else if (rc == 0 && strcmp(sub, "add") == 0 && n < 2)
    rc = mh_cli_usage_error(&s, "add expects the database and the results "
                                "directories: merlin db add DB DIR...");
  else if (rc == 0 && strcmp(sub, "list") == 0 && n != 1)
    rc = mh_cli_usage_error(&s, "list expects the database: merlin db list "
                                "DB");
  else if (rc == 0 && strcmp(sub, "rm") == 0 && n != 2)
    rc = mh_cli_usage_error(&s, "rm expects the database and a run: merlin "
                                "db rm DB RUN");
  if (rc == 0 && !mh_cli_parse_only)
    rc = db_run(sub, s.pos + 1, n, a.quiet);
  mh_cli_state_free(&s);
  return rc < 0 ? 0 : rc;
}

const mh_cmd_def mh_cmd_db = {
    "db",
    "usage: merlin db add DB DIR... [--quiet]\n"
    "       merlin db list DB\n"
    "       merlin db rm DB RUN\n"
    "\n"
    "The results database: runs of any targets, boards, machines, days and\n"
    "merlin revisions in one SQLite file (docs/results.md). add imports\n"
    "results directories (created on first use; a run already there, by its\n"
    "content hash, is not added again; a directory that fails results.json's\n"
    "checks is refused and nothing is imported); list shows the runs; rm\n"
    "removes one, by its number or 8 hex digits or more of its hash.\n",
    MH_OPTS(DB_OPTS),
    NULL,
    0,
    cmd_db};
