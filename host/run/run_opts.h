/* SPDX-License-Identifier: Apache-2.0 */
/* The options of a run (`merlin run`, `merlin plan`), checked by the
 * command line (host/cli/cli_run.c) and read by the pipeline (host/run/):
 * below both, so that neither includes the other. */
#ifndef MERLIN_HOST_RUN_OPTS_H
#define MERLIN_HOST_RUN_OPTS_H

#include "impl/impls.h"

#include <stddef.h>

/* Defaults and limits of `merlin run` (docs/cli.md). */
#define MH_RUNS_DEFAULT 101u
#define MH_RUNS_MAX 100000u
#define MH_WARMUP_DEFAULT 5u
#define MH_WARMUP_MAX 10000u
#define MH_TIMEOUT_DEFAULT                                                     \
  0u /* no bound on the whole run: --stall finds hangs */
#define MH_TIMEOUT_MAX 604800u
/* No console line for this long is a hang (docs/cli.md, "Hangs"). */
#define MH_STALL_DEFAULT 600u
#define MH_PROFILE_DEFAULT "default"
#define MH_OUT_DEFAULT "results"
/* Largest N of --shard K/N. */
#define MH_SHARDS_MAX 10000u

/* The values of a repeatable option, in order (main.c MH_OPT_LIST). */
typedef struct {
  const char **v;
  size_t n;
} mh_strlist;

typedef struct {
  const char **targets; /* target ids, already checked */
  size_t n_targets;
  const char *profile; /* NULL: default (with --from: the stream's) */
  unsigned runs, warmup, timeout_s, stall_s;
  const char *out;
  const char *from;        /* parse this captured stream instead */
  const char *port;        /* or read it from this serial port (boards) */
  unsigned baud;           /* of port */
  const char *kat_corrupt; /* "alg/op" test hook, or NULL */
  int quiet;
  int no_ref_cache;         /* --no-ref-cache (impl/impl_ref_cache.h) */
  const char *inject_fault; /* test hook: fault kind, or NULL */
  int kat_only;    /* runs = warmup = 0: KATs only, no results written */
  int ct;          /* --ct: also the memcheck constant-time pass (host) */
  int no_sizes;    /* --no-sizes: no code sizes and fits (costs.c) */
  unsigned repeat; /* --repeat K: run each target K times (1: once) */
  /* Parallel runs: the job board shows progress, so a target prints only
   * its expected duration and the operations that run long. */
  int board;
  const char *cycle_model; /* --cycle-model: auto, off or a model */
  unsigned flash_ws;       /* --flash-ws: wait states of the cycle model */
  const char *part;        /* --board: model this part (board_model.h) */
  const char *accel;       /* --accel: accelerator costs (cycles.h) */
  /* --cc / --opt comma lists (checked by main.c); NULL both: no matrix,
   * the tree's compiler and optimisation (docs/cli.md). */
  const char *cc, *opt;
  unsigned jobs; /* -j N: parallel builds and QEMU runs; 0: online CPUs */
  /* Implementation folders (docs/bring-your-own.md): --impl values (comma
   * lists), --impl-tree roots, --impl-skip patterns, --impl-common and
   * --impl-host-common (the target's and the host reference build's common
   * code), --impl-hash (NULL: the profile's impl.hash). */
  mh_strlist impls, impl_trees, impl_skips, impl_common, impl_host_common;
  const char *impl_hash;
  /* --shard K/N: run only the K-th of N slices of the plan (shards 0: the
   * whole plan); --plan FILE: the plan `merlin plan` wrote (its costs
   * decide the slices; docs/scaling.md). */
  unsigned shard, shards;
  const char *plan_file;
  /* --plan-only FILE: write the plan there ("-": stdout) and run nothing;
   * --costs DIR: a previous run's results, each job's cost estimated from
   * them; plan_args: the command line the plan file records (the options
   * that decide what is measured). */
  const char *plan_only, *costs;
  const char *const *plan_args;
  size_t n_plan_args;
} mh_run_opts;

/* The folder options as the folder room reads them (impl/impls.h). */
static inline mh_impl_opts mh_run_impl_opts(const mh_run_opts *o) {
  mh_impl_opts f = {{o->impls.v, o->impls.n},
                    {o->impl_trees.v, o->impl_trees.n},
                    {o->impl_skips.v, o->impl_skips.n},
                    {o->impl_common.v, o->impl_common.n},
                    {o->impl_host_common.v, o->impl_host_common.n},
                    o->impl_hash,
                    o->targets,
                    o->n_targets,
                    o->quiet};
  return f;
}

#endif
