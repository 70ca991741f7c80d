/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Host-side data model: one parsed run (what the wire said) and the
 * statistics derived from it. Shared by the wire reader, the statistics
 * module and the result writers.
 */
#ifndef MERLIN_HOST_MODEL_H
#define MERLIN_HOST_MODEL_H

#include <stddef.h>
#include <stdint.h>

/* A provenance field of the begin record, decoded. */
typedef struct {
  char *key;
  char *value;
} mh_kv;

typedef enum { MH_KAT_UNKNOWN = 0, MH_KAT_PASS = 1, MH_KAT_FAIL = -1 } mh_kat;

typedef struct {
  double median, p99, iqr, min, max, mean, stddev, cv;
} mh_stats;

/* One operation of a run. */
#define MH_CT_MAX 16 /* secrets per constant-time check (src/core/runner.c) */
/* Largest count (bytes, allocations, ticks) a run may carry: results.json
 * holds counts as JSON integers, which jansson reads as signed 64-bit
 * (json_int_t). The wire reader rejects larger ones, naming the line. */
#define MH_COUNT_MAX INT64_MAX

typedef struct {
  int id;
  char *alg, *op, *backend, *variant;
  long bytes; /* payload size, -1 when the operation has none */
  /* Object sizes the backend declares, "pk:800,sk:1632,ct:768,ss:32"
   * (mh_obj_valid); NULL when the algorithm has none (XOF, KDF). */
  char *obj;
  mh_kat kat;
  char *kat_detail; /* NULL unless the KAT failed */
  uint32_t batch, warmup, n;
  uint64_t *raw; /* n raw tick counts as sent */
  size_t n_raw;
  int has_error;
  char *error_msg;
  /* From the opend record: peak stack, peak heap and allocations of one
   * untimed run after the samples (docs/wire-format.md); has_mem 0 when
   * absent (KAT failed, error, --kat-only). */
  int has_mem;
  uint64_t stack_bytes, heap_bytes, heap_allocs;
  /* The ct record (constant-time check): ct_n raw tick counts of single
   * runs, each with a fresh secret (ct_fresh 0: the same secret every
   * time), and ct_vg memcheck errors (-1: not under valgrind). */
  int has_ct, ct_fresh;
  uint32_t ct_n;
  uint64_t ct_raw[MH_CT_MAX];
  long ct_vg;
  /* The verdict (host/run/ct.h): status, methods applied ("instruction-count",
   * "valgrind"), detail, and whether every finding is in the list. */
  int has_ct_verdict, ct_status, ct_listed;
  int ct_asan; /* memcheck skipped: the image is built with ASan */
  /* merlin run --repeat K: the median of each of the K runs (fresh
   * processes) of this operation; n_repeat 0 without --repeat. */
  uint32_t n_repeat;
  double repeat_min, repeat_max;
  char *ct_methods, *ct_detail;
  /* Filled by the caller after parsing (mh_run_finish): per-operation
   * values in the run's unit, and their statistics. */
  double *samples;
  size_t n_samples;
  mh_stats stats;
  /* QEMU plugin: est_cycles, classes, profile (cycles.h); NULL if none. */
  struct mh_cyc_op *cyc;
  /* QEMU plugin, --ct: path, addresses and variable-latency instructions
   * of the fresh-secret runs (run/ct_trace.h); NULL if none. */
  struct mh_ct_trace *ct_trace;
} mh_op;

/* One run: what one image printed, accepted only if the whole stream
 * validated (see docs/wire-format.md). */
typedef struct {
  mh_kv *prov;
  size_t n_prov;
  uint64_t overhead_ticks;
  mh_op *ops;
  size_t n_ops;
  int status_ok;      /* end record said status=ok */
  size_t records;     /* wire lines including end */
  size_t noise_lines; /* non-wire lines ignored */
  char *error_msg;    /* first error record with id=- (not tied to an op) */
  int kat_only;       /* begin said runs=0: KATs only, nothing timed */
  /* Set by the host, not the wire: */
  char *unit;           /* "instructions", "ns" */
  double ticks_to_unit; /* multiply (raw - overhead) / batch by this */
  int icount_shift;     /* -1 when not under QEMU */
  /* The QEMU plugin's model (cycles.h), or NULL. */
  struct mh_cyc_run *cyc;
  /* End-to-end workflows (host/model/workflow.h, docs/workflows.md). */
  struct mh_wf *wfs;
  size_t n_wfs;
  /* The interleaved control (ctl records, src/core/control.c): per probe,
   * raw counter ticks per call of the control (overhead not subtracted;
   * only ratios within the run are used) and, where the port has a second
   * counter, its cycles per call (0 when not). */
  double *ctl, *ctl_cycles;
  size_t n_ctl;
} mh_run;

/* The op of run matching like's (alg, op, backend, bytes), or NULL; of
 * several, the one of like's variant. */
const mh_op *mh_run_find_op(const mh_run *run, const mh_op *like);

/* 1 when two operations of run are the same (alg, op, backend, variant,
 * bytes): *first < *second are their indexes (the earliest such second); 0
 * when none, -1 when out of memory. A run measures each operation once, and
 * compare and the reports pair operations by that key. */
int mh_run_dup_op(const mh_run *run, size_t *first, size_t *second);

/* Whether s is "name:N[,name:N...]" with lower-case names and decimal N. */
int mh_obj_valid(const char *s);
/* The i-th entry of a valid obj string: name (copied, NUL-terminated, at
 * most namelen-1 chars) and value. Returns 0, or -1 past the end. */
int mh_obj_get(const char *s, size_t i, char *name, size_t namelen,
               unsigned long long *value);

/* Look up a provenance field; NULL when absent. */
const char *mh_run_prov(const mh_run *run, const char *key);

/* a and b hold the same text; two NULLs (a field absent from both) are the
 * same, NULL and a string are not. */
int mh_str_same(const char *a, const char *b);
void mh_run_free(mh_run *run);

/* Turn raw ticks into per-operation values (docs/wire-format.md): for every
 * op with kat == MH_KAT_PASS, no error and raw samples, samples[i] =
 * (raw[i] - overhead_ticks) / batch * ticks_to_unit, then stats. Records
 * unit (copied), ticks_to_unit and icount_shift in the run. Other ops get no
 * samples. Returns 0, or -1 with a message in msg (msg_len bytes, may be
 * NULL) when a raw value is below the overhead, ticks_to_unit is not a
 * positive finite number, or memory runs out; on failure no op has samples.
 * May be called again (earlier samples are replaced). */
int mh_run_finish(mh_run *run, double ticks_to_unit, const char *unit,
                  int icount_shift, char *msg, size_t msg_len);

#endif
