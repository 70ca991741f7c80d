/* SPDX-License-Identifier: Apache-2.0 */
/* The results database (`merlin db`, docs/results.md "The results
 * database"): runs of any targets, boards, profiles, machines, days and
 * merlin revisions in one SQLite file, each kept with the results.json it
 * came in (the contract) and its figures in tables for queries. A run is
 * imported once, by its content hash; a directory that fails results.json's
 * checks is refused whole and the file is left as it was; two imports at
 * once on one file both succeed (transactions and a busy timeout). */
#ifndef MERLIN_HOST_DB_H
#define MERLIN_HOST_DB_H

#include "model/results.h"

#include <stddef.h>
#include <stdio.h>

/* The schema version this merlin writes and reads (meta.schema). */
#define MH_DB_SCHEMA 1

typedef struct mh_db mh_db;

/* Open (create = 1: create it and its tables when missing) the database
 * at path. 0, or -1 with err naming the file and the reason (another
 * schema, not a merlin database, SQLite's message). */
int mh_db_open(const char *path, int create, mh_db **out, char *err,
               size_t errlen);
void mh_db_close(mh_db *db);

/* What one `db add` of a directory did. */
typedef struct {
  size_t added;   /* runs imported */
  size_t present; /* runs already in the database (same content hash) */
} mh_db_added;

/* Import the results set r, read from source (a results directory or
 * results.json, kept for provenance), whose results.json text is doc: its
 * runs not yet in the database, in one transaction. 0, or -1 with err
 * (the database is then as it was). */
int mh_db_add(mh_db *db, const char *source, const char *doc,
              const mh_results *r, mh_db_added *what, char *err, size_t errlen);

/* `db list`: one line per run, oldest import first. 0 or -1 with err. */
int mh_db_list(mh_db *db, FILE *out, char *err, size_t errlen);

/* Remove a run, named by its number (as db list shows it) or a prefix of
 * its content hash (8 hex digits or more, naming one run). *what receives
 * a line naming the run removed. 0; 1 when no run (or more than one) is
 * so named, with err; -1 on a database error. */
int mh_db_rm(mh_db *db, const char *which, char *what, size_t whatlen,
             char *err, size_t errlen);

/* One run of the database as the site reads it: the results set its
 * results.json holds (doc, owned by the mh_db_runs) and which of its runs
 * it is, with what the database knows of it. */
typedef struct {
  long id;           /* the run's number */
  char *sha256;      /* its content hash, hex */
  char *source;      /* the directory it was imported from */
  char *imported_at; /* ISO 8601 UTC */
  const mh_results *doc;
  const mh_result *x; /* &doc->runs[i] */
} mh_db_run;

typedef struct {
  mh_db_run *runs; /* in import order */
  size_t n;
  mh_results **docs; /* one per import with a run left */
  size_t n_docs;
} mh_db_runs;

/* Every run of the database. 0, or -1 with err. */
int mh_db_load(mh_db *db, mh_db_runs *out, char *err, size_t errlen);
void mh_db_runs_free(mh_db_runs *r);

/* The content hash of run i of r (hex, 65 bytes): SHA-256 of that run
 * alone as results.json writes it, so a run reads the same whatever set
 * it came in (a slice of a plan, or the merged result). 0, or -1 with err. */
int mh_db_run_hash(const mh_results *r, size_t i, char out[65], char *err,
                   size_t errlen);

#endif
