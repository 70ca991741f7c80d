/* SPDX-License-Identifier: Apache-2.0 */
/* The results database's file: opening it, its schema, its transactions
 * (db.h). Debian's libsqlite3 (docs/dependencies.md). */
#include "db/db_int.h"

#include "digest.h"
#include "model/results_json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A writer waits this long for another to finish (sqlite3_busy_timeout):
 * an import of a large tree takes seconds, not minutes. */
#define BUSY_MS 120000

/* The schema (docs/results.md, "The results database"). Every statement
 * is idempotent, so two processes creating one file at once agree. */
static const char SCHEMA[] =
    "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT "
    "NULL);"
    "CREATE TABLE IF NOT EXISTS imports("
    " id INTEGER PRIMARY KEY, source TEXT NOT NULL, imported_at TEXT NOT NULL,"
    " file_sha256 TEXT NOT NULL, merlin TEXT, created TEXT, plan_hash TEXT,"
    " plan_jobs INTEGER, plan_shards INTEGER, plan_shard INTEGER,"
    " results_json TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS runs("
    " id INTEGER PRIMARY KEY, sha256 TEXT NOT NULL UNIQUE,"
    " import_id INTEGER NOT NULL REFERENCES imports(id),"
    " run_index INTEGER NOT NULL, target TEXT NOT NULL, profile TEXT NOT NULL,"
    " job INTEGER, core TEXT, clock_hz INTEGER, board TEXT, board_hz REAL,"
    " unit TEXT, compiler TEXT, cflags TEXT, source TEXT, merlin TEXT,"
    " created TEXT, qemu TEXT, host TEXT, cycle_model TEXT);"
    "CREATE TABLE IF NOT EXISTS libraries("
    " run_id INTEGER NOT NULL REFERENCES runs(id), library TEXT NOT NULL,"
    " version TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS folders("
    " run_id INTEGER NOT NULL REFERENCES runs(id), backend TEXT NOT NULL,"
    " alg TEXT NOT NULL, path TEXT, sha256 TEXT, hash TEXT, left_out TEXT);"
    "CREATE TABLE IF NOT EXISTS cells("
    " run_id INTEGER NOT NULL REFERENCES runs(id), alg TEXT NOT NULL,"
    " op TEXT NOT NULL, bytes INTEGER, backend TEXT NOT NULL, variant TEXT,"
    " unit TEXT NOT NULL, n INTEGER NOT NULL, median REAL, p99 REAL,"
    " iqr REAL, min REAL, max REAL, mean REAL, stddev REAL, cv REAL,"
    " est_median REAL, est_min REAL, est_max REAL, est_mean REAL,"
    " hash_share REAL, stack_bytes INTEGER, heap_bytes INTEGER,"
    " flash_bytes INTEGER, ram_bytes INTEGER, samples TEXT NOT NULL);"
    "CREATE INDEX IF NOT EXISTS cells_run ON cells(run_id);"
    "CREATE INDEX IF NOT EXISTS cells_op ON cells(alg, op, backend);";

int mh_db_fail(mh_db *db, char *err, size_t errlen, const char *fmt, ...) {
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  snprintf(err, errlen, "%s: %s%s%s", db->path, what, db->h ? ": " : "",
           db->h ? sqlite3_errmsg(db->h) : "");
  return -1;
}

int mh_db_exec(mh_db *db, const char *sql, char *err, size_t errlen) {
  char *msg = NULL;
  if (sqlite3_exec(db->h, sql, NULL, NULL, &msg) == SQLITE_OK)
    return 0;
  snprintf(err, errlen, "%s: %s", db->path, msg ? msg : "SQLite error");
  sqlite3_free(msg);
  return -1;
}

/* meta.schema: written by the first to create the file, checked by
 * every later open. */
static int check_schema(mh_db *db, char *err, size_t errlen) {
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(db->h, "SELECT value FROM meta WHERE key='schema'", -1,
                         &st, NULL) != SQLITE_OK)
    return mh_db_fail(db, err, errlen, "not a merlin results database");
  int rc = sqlite3_step(st);
  const char *v =
      rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
  char want[16];
  snprintf(want, sizeof want, "%d", MH_DB_SCHEMA);
  int ok = v && strcmp(v, want) == 0;
  if (!ok && v)
    snprintf(err, errlen,
             "%s: database schema %s; this merlin reads schema %d "
             "(docs/results.md)",
             db->path, v, MH_DB_SCHEMA);
  else if (!ok)
    snprintf(err, errlen, "%s: not a merlin results database (no schema)",
             db->path);
  sqlite3_finalize(st);
  return ok ? 0 : -1;
}

static int create_schema(mh_db *db, char *err, size_t errlen) {
  char sql[128];
  snprintf(sql, sizeof sql,
           "INSERT OR IGNORE INTO meta(key, value) VALUES('schema', '%d');",
           MH_DB_SCHEMA);
  if (mh_db_begin(db, err, errlen) != 0)
    return -1;
  if (mh_db_exec(db, SCHEMA, err, errlen) != 0 ||
      mh_db_exec(db, sql, err, errlen) != 0) {
    mh_db_rollback(db);
    return -1;
  }
  return mh_db_commit(db, err, errlen);
}

int mh_db_open(const char *path, int create, mh_db **out, char *err,
               size_t errlen) {
  struct stat sb;
  *out = NULL;
  if (!create && stat(path, &sb) != 0) {
    snprintf(err, errlen, "%s: no such database (merlin db add creates it)",
             path);
    return -1;
  }
  mh_db *db = calloc(1, sizeof *db);
  if (!db || !(db->path = strdup(path))) {
    free(db);
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
  if (sqlite3_open_v2(path, &db->h, flags, NULL) != SQLITE_OK) {
    mh_db_fail(db, err, errlen, "cannot open");
    mh_db_close(db);
    return -1;
  }
  sqlite3_busy_timeout(db->h, BUSY_MS);
  if ((create && create_schema(db, err, errlen) != 0) ||
      mh_db_exec(db, "PRAGMA foreign_keys = ON;", err, errlen) != 0 ||
      check_schema(db, err, errlen) != 0) {
    mh_db_close(db);
    return -1;
  }
  *out = db;
  return 0;
}

void mh_db_close(mh_db *db) {
  if (!db)
    return;
  sqlite3_close(db->h);
  free(db->path);
  free(db);
}

/* IMMEDIATE: the write lock is taken at once (waiting up to BUSY_MS for
 * another writer), so two imports never both read and then both fail to
 * write. */
int mh_db_begin(mh_db *db, char *err, size_t errlen) {
  return mh_db_exec(db, "BEGIN IMMEDIATE;", err, errlen);
}

int mh_db_commit(mh_db *db, char *err, size_t errlen) {
  if (mh_db_exec(db, "COMMIT;", err, errlen) == 0)
    return 0;
  mh_db_rollback(db);
  return -1;
}

void mh_db_rollback(mh_db *db) {
  sqlite3_exec(db->h, "ROLLBACK;", NULL, NULL, NULL);
}

int mh_db_run_hash(const mh_results *r, size_t i, char out[65], char *err,
                   size_t errlen) {
  mh_results one = {0};
  one.merlin = (char *)"";
  one.created = (char *)"";
  one.runs = (mh_result *)&r->runs[i];
  one.n_runs = 1;
  char *text = mh_results_to_json(&one, err, errlen);
  if (!text)
    return -1;
  mcore_sha256_ctx c;
  uint8_t d[32];
  mcore_sha256_init(&c);
  mcore_sha256_update(&c, (const uint8_t *)text, strlen(text));
  mcore_sha256_final(&c, d);
  free(text);
  for (size_t k = 0; k < sizeof d; k++)
    snprintf(out + 2 * k, 3, "%02x", d[k]);
  return 0;
}
