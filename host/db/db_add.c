/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin db add`: a results set's runs into the database, each once (by
 * its content hash), in one transaction (db.h). */
#include "db/db_int.h"

#include "digest.h"
#include "model/cycles.h"
#include "util/strbuf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void bind_text(sqlite3_stmt *st, int i, const char *s) {
  if (s)
    sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
  else
    sqlite3_bind_null(st, i);
}

static void bind_real(sqlite3_stmt *st, int i, int has, double v) {
  if (has && isfinite(v))
    sqlite3_bind_double(st, i, v);
  else
    sqlite3_bind_null(st, i);
}

/* Step a statement that returns no row, then finalize it. */
static int step_done(mh_db *db, sqlite3_stmt *st, const char *what, char *err,
                     size_t errlen) {
  int rc = sqlite3_step(st);
  int ok = rc == SQLITE_DONE;
  if (!ok)
    mh_db_fail(db, err, errlen, "%s", what);
  sqlite3_finalize(st);
  return ok ? 0 : -1;
}

static int prepare(mh_db *db, const char *sql, sqlite3_stmt **st, char *err,
                   size_t errlen) {
  if (sqlite3_prepare_v2(db->h, sql, -1, st, NULL) == SQLITE_OK)
    return 0;
  return mh_db_fail(db, err, errlen, "cannot prepare a statement");
}

/* Whether a run of this content hash is in the database: 1, 0, or -1. */
static int have_run(mh_db *db, const char *sha, char *err, size_t errlen) {
  sqlite3_stmt *st;
  if (prepare(db, "SELECT 1 FROM runs WHERE sha256 = ?", &st, err, errlen))
    return -1;
  bind_text(st, 1, sha);
  int rc = sqlite3_step(st);
  sqlite3_finalize(st);
  if (rc == SQLITE_ROW)
    return 1;
  return rc == SQLITE_DONE ? 0
                           : mh_db_fail(db, err, errlen, "looking a run up");
}

static void hex_sha256(const char *text, char out[65]) {
  mcore_sha256_ctx c;
  uint8_t d[32];
  mcore_sha256_init(&c);
  mcore_sha256_update(&c, (const uint8_t *)text, strlen(text));
  mcore_sha256_final(&c, d);
  for (size_t k = 0; k < sizeof d; k++)
    snprintf(out + 2 * k, 3, "%02x", d[k]);
}

static long insert_import(mh_db *db, const char *source, const char *doc,
                          const mh_results *r, char *err, size_t errlen) {
  sqlite3_stmt *st;
  if (prepare(db,
              "INSERT INTO imports(source, imported_at, file_sha256, merlin,"
              " created, plan_hash, plan_jobs, plan_shards, plan_shard,"
              " results_json) VALUES(?,?,?,?,?,?,?,?,?,?)",
              &st, err, errlen))
    return -1;
  char now[32], sha[65];
  time_t t = time(NULL);
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", &tm);
  hex_sha256(doc, sha);
  bind_text(st, 1, source);
  bind_text(st, 2, now);
  bind_text(st, 3, sha);
  bind_text(st, 4, r->merlin);
  bind_text(st, 5, r->created);
  bind_text(st, 6, r->plan.hash);
  if (r->plan.hash) {
    sqlite3_bind_int64(st, 7, (sqlite3_int64)r->plan.n_jobs);
    sqlite3_bind_int64(st, 8, r->plan.shards);
    if (r->plan.shard >= 0)
      sqlite3_bind_int64(st, 9, r->plan.shard);
  }
  bind_text(st, 10, doc);
  if (step_done(db, st, "adding an import", err, errlen) != 0)
    return -1;
  return (long)sqlite3_last_insert_rowid(db->h);
}

static long insert_run(mh_db *db, long import_id, size_t idx, const char *sha,
                       const mh_results *r, const mh_result *x, char *err,
                       size_t errlen) {
  const mh_run *run = &x->run;
  const mh_cyc_run *cy = run->cyc;
  sqlite3_stmt *st;
  if (prepare(db,
              "INSERT INTO runs(sha256, import_id, run_index, target, profile,"
              " job, core, clock_hz, board, board_hz, unit, compiler, cflags,"
              " source, merlin, created, qemu, host, cycle_model)"
              " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
              &st, err, errlen))
    return -1;
  const char *clock = mh_run_prov(run, "clock_hz");
  bind_text(st, 1, sha);
  sqlite3_bind_int64(st, 2, import_id);
  sqlite3_bind_int64(st, 3, (sqlite3_int64)idx);
  bind_text(st, 4, x->target);
  bind_text(st, 5, x->profile);
  if (x->job >= 0)
    sqlite3_bind_int64(st, 6, x->job);
  bind_text(st, 7, mh_run_prov(run, "core"));
  if (clock)
    sqlite3_bind_int64(st, 8, strtoll(clock, NULL, 10));
  bind_text(st, 9, cy ? cy->board : NULL);
  bind_real(st, 10, cy && cy->board, cy ? cy->board_hz : 0);
  bind_text(st, 11, run->unit);
  bind_text(st, 12, mh_run_prov(run, "compiler"));
  bind_text(st, 13, mh_run_prov(run, "cflags"));
  bind_text(st, 14, mh_run_prov(run, "source"));
  bind_text(st, 15, r->merlin);
  bind_text(st, 16, r->created);
  bind_text(st, 17, x->qemu_version);
  bind_text(st, 18, x->host);
  mh_sb model = {0};
  if (cy && cy->model)
    mh_sb_printf(&model, "%s%s%s", cy->model, cy->version ? " " : "",
                 cy->version ? cy->version : "");
  bind_text(st, 19, model.failed ? NULL : model.s);
  mh_sb_free(&model);
  if (step_done(db, st, "adding a run", err, errlen) != 0)
    return -1;
  return (long)sqlite3_last_insert_rowid(db->h);
}

static int insert_libraries(mh_db *db, long run_id, const mh_run *run,
                            char *err, size_t errlen) {
  for (size_t i = 0; i < run->n_prov; i++) {
    if (strncmp(run->prov[i].key, "lib.", 4) != 0)
      continue;
    sqlite3_stmt *st;
    if (prepare(db,
                "INSERT INTO libraries(run_id, library, version) "
                "VALUES(?,?,?)",
                &st, err, errlen))
      return -1;
    sqlite3_bind_int64(st, 1, run_id);
    bind_text(st, 2, run->prov[i].key + 4);
    bind_text(st, 3, run->prov[i].value);
    if (step_done(db, st, "adding a library", err, errlen) != 0)
      return -1;
  }
  return 0;
}

static int insert_folders(mh_db *db, long run_id, const mh_result *x, char *err,
                          size_t errlen) {
  for (size_t i = 0; i < x->n_impls; i++) {
    const mh_impl_rec *f = &x->impls[i];
    sqlite3_stmt *st;
    if (prepare(db,
                "INSERT INTO folders(run_id, backend, alg, path, sha256, hash,"
                " left_out) VALUES(?,?,?,?,?,?,?)",
                &st, err, errlen))
      return -1;
    sqlite3_bind_int64(st, 1, run_id);
    bind_text(st, 2, f->backend);
    bind_text(st, 3, f->alg);
    bind_text(st, 4, f->path);
    bind_text(st, 5, f->sha256);
    bind_text(st, 6, f->hash);
    bind_text(st, 7, f->left_out);
    if (step_done(db, st, "adding a folder", err, errlen) != 0)
      return -1;
  }
  return 0;
}

/* The statistics of s into 8 consecutive parameters from i. */
static void bind_stats(sqlite3_stmt *st, int i, const mh_stats *s) {
  const double v[] = {s->median, s->p99,  s->iqr,    s->min,
                      s->max,    s->mean, s->stddev, s->cv};
  for (int k = 0; k < 8; k++)
    bind_real(st, i + k, 1, v[k]);
}

static int insert_cell(mh_db *db, long run_id, const mh_result *x,
                       const mh_op *o, char *err, size_t errlen) {
  sqlite3_stmt *st;
  if (prepare(db,
              "INSERT INTO cells(run_id, alg, op, bytes, backend, variant,"
              " unit, n, median, p99, iqr, min, max, mean, stddev, cv,"
              " est_median, est_min, est_max, est_mean, hash_share,"
              " stack_bytes, heap_bytes, flash_bytes, ram_bytes, samples)"
              " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
              &st, err, errlen))
    return -1;
  const mh_cyc_op *cy = o->cyc;
  const mh_alg_cost *a = mh_result_alg(x, o->alg, o->backend);
  int est = cy && cy->has_est;
  mh_sb s = {0};
  mh_sb_putc(&s, '[');
  for (size_t k = 0; k < o->n_samples; k++) {
    if (k)
      mh_sb_putc(&s, ',');
    mh_sb_double(&s, o->samples[k]);
  }
  mh_sb_putc(&s, ']');
  sqlite3_bind_int64(st, 1, run_id);
  bind_text(st, 2, o->alg);
  bind_text(st, 3, o->op);
  if (o->bytes >= 0)
    sqlite3_bind_int64(st, 4, o->bytes);
  bind_text(st, 5, o->backend);
  bind_text(st, 6, o->variant);
  bind_text(st, 7, x->run.unit);
  sqlite3_bind_int64(st, 8, (sqlite3_int64)o->n_samples);
  bind_stats(st, 9, &o->stats);
  bind_real(st, 17, est, est ? cy->est.median : 0);
  bind_real(st, 18, est, est ? cy->est.min : 0);
  bind_real(st, 19, est, est ? cy->est.max : 0);
  bind_real(st, 20, est, est ? cy->est.mean : 0);
  bind_real(st, 21, cy != NULL, cy ? cy->hash_share : 0);
  if (o->has_mem) {
    sqlite3_bind_int64(st, 22, (sqlite3_int64)o->stack_bytes);
    sqlite3_bind_int64(st, 23, (sqlite3_int64)o->heap_bytes);
  }
  if (a && a->has_size) {
    sqlite3_bind_int64(st, 24, a->flash_bytes);
    sqlite3_bind_int64(st, 25, a->ram_bytes);
  }
  bind_text(st, 26, s.failed ? NULL : s.s);
  mh_sb_free(&s);
  return step_done(db, st, "adding an operation", err, errlen);
}

static int insert_whole_run(mh_db *db, long import_id, size_t idx,
                            const char *sha, const mh_results *r, char *err,
                            size_t errlen) {
  const mh_result *x = &r->runs[idx];
  long id = insert_run(db, import_id, idx, sha, r, x, err, errlen);
  if (id < 0 || insert_libraries(db, id, &x->run, err, errlen) != 0 ||
      insert_folders(db, id, x, err, errlen) != 0)
    return -1;
  for (size_t k = 0; k < x->run.n_ops; k++)
    if (insert_cell(db, id, x, &x->run.ops[k], err, errlen) != 0)
      return -1;
  return 0;
}

int mh_db_add(mh_db *db, const char *source, const char *doc,
              const mh_results *r, mh_db_added *what, char *err,
              size_t errlen) {
  what->added = what->present = 0;
  char(*sha)[65] = calloc(r->n_runs + 1, sizeof *sha);
  int *fresh = calloc(r->n_runs + 1, sizeof *fresh);
  int rc = sha && fresh ? 0 : -1;
  if (rc)
    snprintf(err, errlen, "out of memory");
  for (size_t i = 0; rc == 0 && i < r->n_runs; i++)
    rc = mh_db_run_hash(r, i, sha[i], err, errlen);
  if (rc == 0)
    rc = mh_db_begin(db, err, errlen);
  if (rc == 0) {
    for (size_t i = 0; rc == 0 && i < r->n_runs; i++) {
      int have = have_run(db, sha[i], err, errlen);
      rc = have < 0 ? -1 : 0;
      fresh[i] = have == 0;
      /* the same run twice in one set: imported once */
      for (size_t k = 0; k < i; k++)
        if (fresh[k] && strcmp(sha[k], sha[i]) == 0)
          fresh[i] = 0;
      what->added += (size_t)fresh[i];
    }
    what->present = rc == 0 ? r->n_runs - what->added : 0;
    long import_id = 0;
    if (rc == 0 && what->added) {
      import_id = insert_import(db, source, doc, r, err, errlen);
      rc = import_id < 0 ? -1 : 0;
    }
    for (size_t i = 0; rc == 0 && i < r->n_runs; i++)
      if (fresh[i])
        rc = insert_whole_run(db, import_id, i, sha[i], r, err, errlen);
    if (rc == 0 && what->added)
      rc = mh_db_commit(db, err, errlen);
    else
      mh_db_rollback(db);
  }
  if (rc != 0)
    what->added = what->present = 0;
  free(sha);
  free(fresh);
  return rc;
}
