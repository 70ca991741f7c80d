/* SPDX-License-Identifier: Apache-2.0 */
/* results.json: writer (results_json.c) and reader (results_json_read.c);
 * the contract is docs/results.md. */
#ifndef MERLIN_HOST_RESULTS_JSON_H
#define MERLIN_HOST_RESULTS_JSON_H

/* The schema version both write and accept. */
#define MH_RESULTS_SCHEMA 1

/* A run's implementation folder record (docs/bring-your-own.md): its
 * fields, X(name, required), for the writer and the reader alike. */
#define MH_RESULTS_IMPL_FIELDS(X)                                              \
  X(backend, 1)                                                                \
  X(alg, 1)                                                                    \
  X(path, 1)                                                                   \
  X(sha256, 1)                                                                 \
  X(hash, 1)                                                                   \
  X(kat_reference, 0)                                                          \
  X(left_out, 0)                                                               \
  X(compiler_workaround, 0)                                                    \
  X(common, 0)                                                                 \
  X(flags, 0)

#include "model/results.h"

#include <stddef.h>

/* Serialise; returns a malloc'd, NUL-terminated document ending in '\n', or
 * NULL with err (a value JSON cannot hold, memory). */
char *mh_results_to_json(const mh_results *r, char *err, size_t errlen);

/* Parse a results.json held in buf (need not be NUL-terminated). Pure: no
 * I/O. Returns 0, or -1 with err naming the first problem and its place
 * ("runs[0].ops[3].median: expected a number"); *r is left empty then. */
int mh_results_from_json(const char *buf, size_t len, mh_results *r, char *err,
                         size_t errlen);

/* Read DIR/results.json (or a file path) into *r. */
int mh_results_load(const char *path, mh_results *r, char *err, size_t errlen);
/* As mh_results_load, but path must be no link (mh_read_regular): a
 * results.json found in a directory. */
int mh_results_load_regular(const char *path, mh_results *r, char *err,
                            size_t errlen);

/* As mh_results_load, from what a user names: a results.json file, a
 * results directory (DIR/results.json), or the --out directory of runs
 * (DIR/latest/results.json); a file found in a directory is read only
 * when it is no link, a latest only when merlin made it
 * (model/results_dir.h). */
int mh_results_load_arg(const char *arg, mh_results *r, char *err,
                        size_t errlen);
/* As mh_results_load_arg, and *dir (malloc'd) the directory the
 * results.json was found in (the one its console logs are in). */
int mh_results_load_from(const char *arg, mh_results *r, char **dir, char *err,
                         size_t errlen);

#endif
