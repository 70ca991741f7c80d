/* SPDX-License-Identifier: Apache-2.0 */
/* One results set: what a `merlin run` invocation wrote (results.json,
 * docs/results.md), in memory. The writers (results_json, results_csv,
 * report_md) read it; the JSON reader fills it back. */
#ifndef MERLIN_HOST_RESULTS_H
#define MERLIN_HOST_RESULTS_H

#include "model.h"

#include <stddef.h>

typedef struct {
  char *target;       /* target id, e.g. "qemu-m4" */
  char *profile;      /* profile name */
  char *qemu_version; /* `qemu-system-arm --version`; NULL unless QEMU */
  char *host;         /* uname -srm of the machine that ran merlin */
  /* What the image said (begin fields in run.prov: core, clock_hz, lib.X,
   * route.X, ...) plus unit, ticks_to_unit, icount_shift and the
   * per-operation samples and statistics. */
  mh_run run;
} mh_result;

typedef struct {
  char *merlin;  /* version of merlin that wrote it */
  char *created; /* ISO 8601 UTC, "2025-01-31T12:00:00Z" */
  mh_result *runs;
  size_t n_runs;
} mh_results;

void mh_results_free(mh_results *r);

/* The bytes value of an op in text: "" when it has no payload. */
const char *mh_op_bytes_str(const mh_op *op, char buf[24]);

#endif
