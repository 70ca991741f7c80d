/* SPDX-License-Identifier: Apache-2.0 */
/* End-to-end workflows of a run (docs/workflows.md): what the wf* records
 * said (host/wire/wire_wf.c), their per-sample totals and statistics
 * (mh_wf_finish), and their place in results.json (docs/results.md). */
#ifndef MERLIN_HOST_WORKFLOW_H
#define MERLIN_HOST_WORKFLOW_H

#include "model/model.h"

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
  char *name;
  int tx; /* 1: the device sends it; 0: it receives it */
  uint64_t bytes;
} mh_wf_msg;

typedef struct mh_wf {
  int id;
  char *workflow, *variant, *backend;
  char *algs;   /* "alg:backend,..." of every primitive it uses */
  char **steps; /* the device steps, in order */
  size_t n_steps;
  mh_wf_msg *msgs;
  size_t n_msgs;
  int check; /* 1 passed, -1 failed, 0 not reported */
  char *fail_step, *fail_detail, *error_msg;
  uint64_t stored;
  int has_plan, ended, has_mem;
  uint32_t warmup, n;
  uint64_t *raw; /* n_raw samples of n_steps raw tick counts each */
  size_t n_raw;
  uint64_t stack_bytes, heap_bytes, heap_allocs;
  /* The fairness control measured after its samples: [0] HKDF-SHA256,
   * [1] HMAC-SHA256 (raw ticks; ctl in the run's unit after finishing). */
  int has_ctl[2];
  uint64_t ctl_raw[2]; /* a batch of ctl_batch runs */
  uint32_t ctl_batch[2];
  double ctl[2];
  /* mh_wf_finish: totals per sample (sum of the steps) in the run's unit,
   * their statistics, and the median of each step. Read back from
   * results.json, samples holds the totals and raw is NULL. */
  double *samples;
  size_t n_samples;
  mh_stats stats;
  double *step_median;
} mh_wf;

/* The control primitives, in the order of mh_wf.ctl. */
extern const char *const mh_wf_ctl_alg[2];

/* One wf* record, fields decoded (host/wire/wire.c calls it). Returns 0, or -1
 * with the reason in msg. */
int mh_wire_wf_record(mh_run *run, const char *type, const mh_kv *f, size_t n,
                      char *msg, size_t msg_len);
/* At the end record: every workflow announced was checked and, when it
 * passed in a timed run, ended with all its samples. */
int mh_wire_wf_complete(const mh_run *run, char *msg, size_t msg_len);

/* Per-sample totals and statistics of every timed workflow (run.c calls it
 * from mh_run_finish with its value function). */
int mh_wf_finish(mh_run *run,
                 double (*value)(uint64_t raw, uint64_t overhead,
                                 double ticks_to_unit, int integer_unit),
                 double ticks_to_unit, int integer_unit, char *msg,
                 size_t msg_len);
uint64_t mh_wf_wire_bytes(const mh_wf *w);

/* Name every workflow of run that failed (its step and why) on out, with
 * target as the prefix; returns how many (host/model/workflow.c). */
int mh_wf_report_failures(const mh_run *run, const char *target, FILE *out);
/* results.json "workflows" of a run: a new array (NULL when out of memory),
 * and read back (a NULL array is no workflows); 0 or -1 with err. */
json_t *mh_wf_json(const mh_run *run);
int mh_wf_from_json(json_t *a, mh_run *run, char *err, size_t errlen);
void mh_wf_free_all(mh_run *run);

#endif
