/* SPDX-License-Identifier: Apache-2.0 */
/* One results set: what a `merlin run` invocation wrote (results.json,
 * docs/results.md), in memory. The writers (results_json, results_csv,
 * report_md) read it; the JSON reader fills it back. */
#ifndef MERLIN_HOST_RESULTS_H
#define MERLIN_HOST_RESULTS_H

#include "model/model.h"

#include <stddef.h>
#include <stdint.h>

/* Per (algorithm, backend) of a run: what does not depend on the
 * operation (results.json "algorithms", docs/results.md). */
typedef struct {
  char *library;
  uint64_t bytes; /* flash */
  /* `size`'s split of the library's part of the image (results.json
   * "sections"): text (code and read-only data), data, bss. has_sections
   * 0 in results written before it. */
  int has_sections;
  uint64_t text, data, bss;
} mh_lib_bytes;

typedef struct {
  char *alg, *backend, *variant;
  char *obj; /* object sizes "pk:800,..." (model.h mh_obj_get), or NULL */
  /* Flash and static RAM of an image with only this algorithm, minus an
   * empty image (merlin sizes); has_size 0 when not measured. */
  int has_size;
  int64_t flash_bytes, ram_bytes;
  mh_lib_bytes *libs; /* flash bytes per library of that image (link map) */
  size_t n_libs;
  /* Per described board (boards/): fits[i] 1, 0 (does not fit) or -1 (not
   * evaluated), with the reason; NULL when not evaluated at all. */
  char **fit_board, **fit_reason;
  int *fit;
  size_t n_fits;
} mh_alg_cost;

/* One implementation folder of a run (docs/bring-your-own.md; results.json
 * "implementations"): where it came from, and whether it was measured. */
typedef struct {
  char *backend, *alg, *path, *sha256, *hash, *kat_reference;
  /* NULL: measured; else why not ("not built: ...", "does not fit: ..."). */
  char *left_out;
  /* The compiler workaround its build applied ("FLAGS -- reason", from
   * src/backends/impl/compiler-workarounds.txt), or NULL. */
  char *compiler_workaround;
  /* The common code it was built against, when not the pinned PQClean
   * tree's: where it came from and its files ("the pqm4 checkout X:
   * X/common/keccakf1600.S, ..."), or NULL. */
  char *common;
  /* The preprocessor flags its config.mk gave its build ("-DMAYO_M4"), or
   * NULL. */
  char *flags;
} mh_impl_rec;

typedef struct {
  char *target;       /* target id, e.g. "qemu-m4" */
  char *profile;      /* profile name */
  char *qemu_version; /* `qemu-system-arm --version`; NULL unless QEMU */
  char *host;         /* uname -srm of the machine that ran merlin */
  /* What the image said (begin fields in run.prov: core, clock_hz, lib.X,
   * route.X, ...) plus unit, ticks_to_unit, icount_shift and the
   * per-operation samples and statistics. */
  mh_run run;
  mh_alg_cost *algs; /* mh_result_index_algs, or read from results.json */
  size_t n_algs;
  /* The empty image the per-algorithm sizes are relative to. */
  int has_baseline;
  int64_t baseline_flash, baseline_ram;
  mh_impl_rec *impls; /* the run's implementation folders, or NULL */
  size_t n_impls;
  /* The job of the run's plan it is (results.json "job"; docs/scaling.md),
   * -1 in results written without a plan. */
  long job;
} mh_result;

/* Add a folder record (copies every string; NULLs stay NULL). 0 or -1. */
int mh_result_add_impl(mh_result *x, const mh_impl_rec *r);

/* Fill x->algs from x->run.ops: one entry per (alg, backend), in first-seen
 * order, with its object sizes. Returns 0, or -1 when out of memory. */
int mh_result_index_algs(mh_result *x);
/* The entry for (alg, backend), or NULL. */
const mh_alg_cost *mh_result_alg(const mh_result *x, const char *alg,
                                 const char *backend);
void mh_result_free(mh_result *x);
/* Record a fits verdict for board on a; 0 or -1 (out of memory). */
int mh_alg_cost_add_fit(mh_alg_cost *a, const char *board, int fit,
                        const char *reason);

/* The plan a results set is (part of): results.json "plan"
 * (docs/scaling.md). hash NULL: written without one. */
typedef struct {
  char *hash;      /* SHA-256 of the plan, hex */
  size_t n_jobs;   /* jobs in the whole plan */
  unsigned shards; /* the plan's slices: 1 for a whole run */
  long shard;      /* this set's slice, 0..shards-1; -1: merged */
} mh_plan_ref;

typedef struct {
  char *merlin;  /* version of merlin that wrote it */
  char *created; /* ISO 8601 UTC, "2025-01-31T12:00:00Z" */
  mh_result *runs;
  size_t n_runs;
  mh_plan_ref plan;
} mh_results;

void mh_results_free(mh_results *r);

/* The bytes value of an op in text: "" when it has no payload. */
const char *mh_op_bytes_str(const mh_op *op, char buf[24]);

#endif
