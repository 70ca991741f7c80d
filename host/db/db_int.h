/* SPDX-License-Identifier: Apache-2.0 */
/* What the results database's files share (host/db/): the handle and
 * the statement helpers. */
#ifndef MERLIN_HOST_DB_INT_H
#define MERLIN_HOST_DB_INT_H

#include "db/db.h"

#include <sqlite3.h>

struct mh_db {
  sqlite3 *h;
  char *path;
};

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
/* "PATH: <what>: <SQLite's message>" into err; returns -1. */
int mh_db_fail(mh_db *db, char *err, size_t errlen, const char *fmt, ...);
int mh_db_exec(mh_db *db, const char *sql, char *err, size_t errlen);
/* BEGIN IMMEDIATE, COMMIT (rolled back when it fails), ROLLBACK. */
int mh_db_begin(mh_db *db, char *err, size_t errlen);
int mh_db_commit(mh_db *db, char *err, size_t errlen);
void mh_db_rollback(mh_db *db);

#endif
