/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin db list`, `merlin db rm` and the site's read of every run
 * (db.h). */
#include "db/db_int.h"

#include "model/results_json.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *col(sqlite3_stmt *st, int i) {
  const char *s = (const char *)sqlite3_column_text(st, i);
  return s ? s : "-";
}

int mh_db_list(mh_db *db, FILE *out, char *err, size_t errlen) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(
          db->h,
          "SELECT r.id, substr(r.sha256, 1, 12), r.target, r.profile,"
          " coalesce(r.board, r.core), r.unit, r.source, r.merlin, r.created,"
          " coalesce(r.cycle_model, '-'),"
          " (SELECT count(*) FROM cells c WHERE c.run_id = r.id), i.source"
          " FROM runs r JOIN imports i ON i.id = r.import_id ORDER BY r.id",
          -1, &st, NULL) != SQLITE_OK)
    return mh_db_fail(db, err, errlen, "cannot list the runs");
  size_t n = 0;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (!n)
      fprintf(out, "run  hash          target / profile  core or board  unit  "
                   "source rev  merlin  created  cycle model  operations  "
                   "from\n");
    fprintf(out, "%-4s %s  %s / %s  %s  %s  %s  %s  %s  %s  %s  %s\n",
            col(st, 0), col(st, 1), col(st, 2), col(st, 3), col(st, 4),
            col(st, 5), col(st, 6), col(st, 7), col(st, 8), col(st, 9),
            col(st, 10), col(st, 11));
    n++;
  }
  sqlite3_finalize(st);
  if (rc != SQLITE_DONE)
    return mh_db_fail(db, err, errlen, "cannot list the runs");
  fprintf(out, "%zu run%s in %s\n", n, n == 1 ? "" : "s", db->path);
  return 0;
}

/* The run which names (a number, or a hash prefix of 8 hex digits or
 * more): its id, 0 when none, -1 when several. */
static long find_run(mh_db *db, const char *which, int *dberr) {
  size_t len = strlen(which);
  int digits = len > 0, hex = len >= 8;
  for (size_t i = 0; i < len; i++) {
    digits &= isdigit((unsigned char)which[i]) != 0;
    hex &= isxdigit((unsigned char)which[i]) != 0;
  }
  *dberr = 0;
  if (!digits && !hex)
    return 0;
  sqlite3_stmt *st;
  const char *sql = digits && !hex ? "SELECT id FROM runs WHERE id = ?"
                                   : "SELECT id FROM runs WHERE id = ? OR "
                                     "substr(sha256, 1, length(?2)) = "
                                     "lower(?2)";
  if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK) {
    *dberr = 1;
    return 0;
  }
  sqlite3_bind_int64(st, 1, digits ? strtoll(which, NULL, 10) : -1);
  if (!(digits && !hex))
    sqlite3_bind_text(st, 2, which, -1, SQLITE_TRANSIENT);
  long id = 0;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW)
    id = id ? -1 : (long)sqlite3_column_int64(st, 0);
  *dberr = rc != SQLITE_DONE;
  sqlite3_finalize(st);
  return id;
}

static int delete_run(mh_db *db, long id, char *err, size_t errlen) {
  static const char *const sql[] = {
      "DELETE FROM cells WHERE run_id = ?",
      "DELETE FROM libraries WHERE run_id = ?",
      "DELETE FROM folders WHERE run_id = ?", "DELETE FROM runs WHERE id = ?",
      "DELETE FROM imports WHERE id NOT IN (SELECT import_id FROM runs)"};
  for (size_t i = 0; i < sizeof sql / sizeof sql[0]; i++) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h, sql[i], -1, &st, NULL) != SQLITE_OK)
      return mh_db_fail(db, err, errlen, "cannot remove run %ld", id);
    if (i < 4)
      sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
      return mh_db_fail(db, err, errlen, "cannot remove run %ld", id);
  }
  return 0;
}

int mh_db_rm(mh_db *db, const char *which, char *what, size_t whatlen,
             char *err, size_t errlen) {
  if (mh_db_begin(db, err, errlen) != 0)
    return -1;
  int dberr;
  long id = find_run(db, which, &dberr);
  if (dberr || id <= 0) {
    mh_db_rollback(db);
    if (dberr)
      return mh_db_fail(db, err, errlen, "cannot look run '%s' up", which);
    snprintf(err, errlen,
             id < 0 ? "%s: '%s' names more than one run: give more of the "
                      "hash (merlin db list)"
                    : "%s: no run '%s' (a number or 8 hex digits or more of "
                      "its hash, as merlin db list shows them)",
             db->path, which);
    return 1;
  }
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(db->h,
                         "SELECT sha256, target, profile FROM runs WHERE id=?",
                         -1, &st, NULL) == SQLITE_OK) {
    sqlite3_bind_int64(st, 1, id);
    if (sqlite3_step(st) == SQLITE_ROW)
      snprintf(what, whatlen, "run %ld (%.12s, %s / %s)", id, col(st, 0),
               col(st, 1), col(st, 2));
    sqlite3_finalize(st);
  }
  if (delete_run(db, id, err, errlen) != 0) {
    mh_db_rollback(db);
    return -1;
  }
  return mh_db_commit(db, err, errlen);
}

/* The results set of an import, parsed once for all its runs. */
static mh_results *load_doc(mh_db_runs *out, const char *text, char *err,
                            size_t errlen) {
  mh_results *r = calloc(1, sizeof *r);
  mh_results **docs = realloc(out->docs, (out->n_docs + 1) * sizeof *docs);
  if (!r || !docs) {
    free(r);
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  out->docs = docs;
  if (mh_results_from_json(text, strlen(text), r, err, errlen) != 0) {
    free(r);
    return NULL;
  }
  out->docs[out->n_docs++] = r;
  return r;
}

static int add_run(mh_db_runs *out, sqlite3_stmt *st, const mh_results *doc,
                   char *err, size_t errlen) {
  long idx = (long)sqlite3_column_int64(st, 2);
  if (idx < 0 || (size_t)idx >= doc->n_runs) {
    snprintf(err, errlen, "run %lld: its results.json has no run %ld",
             (long long)sqlite3_column_int64(st, 0), idx);
    return -1;
  }
  mh_db_run *v = realloc(out->runs, (out->n + 1) * sizeof *v);
  if (!v) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  out->runs = v;
  mh_db_run *x = &out->runs[out->n++];
  x->id = (long)sqlite3_column_int64(st, 0);
  x->sha256 = strdup(col(st, 1));
  x->source = strdup(col(st, 3));
  x->imported_at = strdup(col(st, 4));
  x->doc = doc;
  x->x = &doc->runs[idx];
  return x->sha256 && x->source && x->imported_at ? 0 : -1;
}

int mh_db_load(mh_db *db, mh_db_runs *out, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(db->h,
                         "SELECT r.id, r.sha256, r.run_index, i.source,"
                         " i.imported_at, i.id, i.results_json FROM runs r"
                         " JOIN imports i ON i.id = r.import_id"
                         " ORDER BY i.id, r.run_index",
                         -1, &st, NULL) != SQLITE_OK)
    return mh_db_fail(db, err, errlen, "cannot read the runs");
  long last_import = -1;
  const mh_results *doc = NULL;
  int rc, bad = 0;
  while (!bad && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    long import_id = (long)sqlite3_column_int64(st, 5);
    if (import_id != last_import) {
      char e[512];
      doc = load_doc(out, col(st, 6), e, sizeof e);
      if (!doc) {
        snprintf(err, errlen, "%s: import %ld: %s", db->path, import_id, e);
        bad = 1;
        break;
      }
      last_import = import_id;
    }
    bad = add_run(out, st, doc, err, errlen) != 0;
  }
  sqlite3_finalize(st);
  if (!bad && rc != SQLITE_DONE)
    bad = mh_db_fail(db, err, errlen, "cannot read the runs") != 0;
  if (bad) {
    mh_db_runs_free(out);
    return -1;
  }
  return 0;
}

void mh_db_runs_free(mh_db_runs *r) {
  for (size_t i = 0; i < r->n; i++) {
    free(r->runs[i].sha256);
    free(r->runs[i].source);
    free(r->runs[i].imported_at);
  }
  for (size_t i = 0; i < r->n_docs; i++) {
    mh_results_free(r->docs[i]);
    free(r->docs[i]);
  }
  free(r->runs);
  free(r->docs);
  memset(r, 0, sizeof *r);
}
