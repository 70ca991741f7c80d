/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The runner: for every operation of the image, known-answer test first,
 * then warm-up and timed samples, all reported on the wire
 * (docs/wire-format.md). The same code runs on the host and on the MCU.
 *
 * Order of a run: begin (provenance) -> op (announce all) -> overhead ->
 * per operation: kat, then plan + samples + opend (with its memory) when
 * the KAT passed -> end. No operation is timed unless its KAT passed in this
 * image.
 */
#include "runner.h"
#include "control.h"
#include "fresh.h"
#include "markers.h"
#include "mcore.h"
#include "merlin_build_info.h"
#include "mops.h"
#include "mwf.h"
#include "port.h"
#include "stackmeter.h"
#include "wire_out.h"
#include "xcheck.h"

#include <string.h>

#ifndef MERLIN_RUNS
#define MERLIN_RUNS 101
#endif
#ifndef MERLIN_WARMUP
#define MERLIN_WARMUP 5
#endif

/* Seed of the benchmark random streams. Every operation draws from streams
 * of its own, keyed by its name and payload and numbered below (a timed
 * sample's stream is its index), and starts from the same library state
 * (fresh.h), so an operation draws the same inputs and executes the same
 * instructions whatever runs before it and whatever else the image holds;
 * a sample's do not depend on the samples before it either. */
#define RUNNER_SEED 0x4d65726c696e0001u
#define STREAM_WARMUP 0x80000000u /* + the warm-up's index */
#define STREAM_KAT 0xFFFFFFF0u
#define STREAM_PREPARE 0xFFFFFFF1u
#define STREAM_FIRST 0xFFFFFFF2u
#define STREAM_MEMORY 0xFFFFFFF3u
#define STREAM_CT 0xFFFFFFF4u
#define MAX_BATCH (1u << 20)
#define SAMPLES_PER_LINE 16
#define CT_SECRETS 16 /* secrets per constant-time check */
#define NO_LIMIT UINT64_MAX

typedef struct {
  const mcore_impl *impl;
  const mops_opdef *def;
  uint32_t bytes;
} instance;

/* Visit every (impl, op, payload) of the image in a fixed order. */
typedef void (*visit_fn)(const instance *in, uint32_t id, void *arg);

static uint32_t for_each_instance(visit_fn fn, void *arg) {
  uint32_t id = 0;
  for (size_t b = 0; b < mcore_n_backends; b++) {
    const mcore_backend *be = mcore_backends[b];
    for (size_t i = 0; i < be->n_impls; i++) {
      size_t n_ops;
      const mops_opdef *ops =
          mops_class_ops(mcore_alg_class(be->impls[i].alg), &n_ops);
      for (size_t o = 0; o < n_ops; o++) {
        if (ops[o].applies && !ops[o].applies(&be->impls[i]))
          continue;
        size_t n_pay = ops[o].payload ? MOPS_N_PAYLOADS : 1;
        for (size_t p = 0; p < n_pay; p++) {
          instance in = {&be->impls[i], &ops[o],
                         ops[o].payload ? mops_payloads[p] : 0};
          if (fn)
            fn(&in, id, arg);
          id++;
        }
      }
    }
  }
  return id;
}

/* ---- provenance ------------------------------------------------------ */

static void emit_begin(const runner_config *cfg) {
  const mport_part *part = mport_describe();
  char key[64];
  mcore_wire_start(MWIRE_R(begin));
  mcore_wire_u64(MWIRE_K(begin, v), 1);
  mcore_wire_str(MWIRE_K(begin, target), part->target);
  mcore_wire_str(MWIRE_K(begin, core), part->core);
  mcore_wire_u64(MWIRE_K(begin, clock_hz), part->clock_hz);
  mcore_wire_str(MWIRE_K(begin, counter), part->counter);
  mcore_wire_str(MWIRE_K(begin, unit), part->unit);
  mcore_wire_u64(MWIRE_K(begin, counter_hz), part->counter_hz);
  mcore_wire_str(MWIRE_K(begin, cycle_counter), part->cycle_counter);
  if (part->clock_measured_hz)
    mcore_wire_u64(MWIRE_K(begin, clock_measured_hz), part->clock_measured_hz);
  if (part->wallclock)
    mcore_wire_str(MWIRE_K(begin, wallclock), part->wallclock);
  for (const char *const *n = part->notes; n && n[0] && n[1]; n += 2)
    mcore_wire_str(n[0], n[1]);
  mcore_wire_str(MWIRE_K(begin, compiler), MERLIN_BUILD_COMPILER);
  mcore_wire_str(MWIRE_K(begin, cflags), MERLIN_BUILD_CFLAGS);
  mcore_wire_str(MWIRE_K(begin, profile), MERLIN_PROFILE_NAME);
  mcore_wire_str(MWIRE_K(begin, source), MERLIN_BUILD_SOURCE);
  mcore_wire_u64(MWIRE_K(begin, runs), cfg->runs);
  mcore_wire_u64(MWIRE_K(begin, warmup), cfg->warmup);
  /* The meter checked against the compiler: the peak stack it measures for
   * mcore_stack_probe, which -fstack-usage also gives (tests compare). */
  mcore_stack_result probe = mcore_stack_measure(mcore_stack_probe, NULL);
  mcore_wire_u64(MWIRE_K(begin, stack_probe_bytes), probe.used);
  mcore_wire_u64(MWIRE_K(begin, stack_capacity), probe.capacity);
  for (size_t b = 0; b < mcore_n_backends; b++) {
    const mcore_backend *be = mcore_backends[b];
    size_t at = 0;
    for (const char *s = MWIRE_P(begin, lib); *s;)
      key[at++] = *s++;
    for (const char *s = be->library; *s && at + 1 < sizeof key;)
      key[at++] = *s++;
    key[at] = '\0';
    mcore_wire_str(key, be->version);
  }
  /* route.<alg>=backend:variant[,backend:variant...] */
  for (int a = 0; a < MCORE_ALG_COUNT; a++) {
    char val[160];
    size_t at = 0;
    for (size_t b = 0; b < mcore_n_backends; b++) {
      const mcore_backend *be = mcore_backends[b];
      for (size_t i = 0; i < be->n_impls; i++) {
        if ((int)be->impls[i].alg != a)
          continue;
        const char *parts[] = {at ? "," : "", mcore_backend_name(be->id), ":",
                               be->impls[i].variant};
        for (size_t k = 0; k < 4; k++)
          for (const char *s = parts[k]; *s && at + 1 < sizeof val;)
            val[at++] = *s++;
      }
    }
    if (!at)
      continue;
    val[at] = '\0';
    size_t k = 0;
    for (const char *s = MWIRE_P(begin, route); *s;)
      key[k++] = *s++;
    for (const char *s = mcore_alg_id((mcore_alg)a); *s && k + 1 < sizeof key;)
      key[k++] = *s++;
    key[k] = '\0';
    mcore_wire_str(key, val);
  }
  mcore_wire_end();
}

static void announce(const instance *in, uint32_t id, void *arg) {
  (void)arg;
  char obj[96];
  mops_object_sizes(in->impl, obj, sizeof obj);
  mcore_wire_start(MWIRE_R(op));
  mcore_wire_u64(MWIRE_K(op, id), id);
  mcore_wire_str(MWIRE_K(op, alg), mcore_alg_id(in->impl->alg));
  mcore_wire_str(MWIRE_K(op, op), in->def->name);
  mcore_wire_str(MWIRE_K(op, backend), mcore_backend_name(in->impl->backend));
  mcore_wire_str(MWIRE_K(op, variant), in->impl->variant);
  if (in->def->payload)
    mcore_wire_u64(MWIRE_K(op, bytes), in->bytes);
  else
    mcore_wire_str(MWIRE_K(op, bytes), "-");
  if (obj[0])
    mcore_wire_str(MWIRE_K(op, obj), obj);
  mcore_wire_end();
}

/* ---- timing ---------------------------------------------------------- */

/* The counter's own cost: the minimum of back-to-back reads. */
static uint64_t measure_overhead(void) {
  uint64_t best = UINT64_MAX;
  for (int i = 0; i < 64; i++) {
    uint64_t t0 = mport_counter_read();
    uint64_t t1 = mport_counter_read();
    if (t1 - t0 < best)
      best = t1 - t0;
  }
  return best;
}

/* The counter must move across some work. */
static int counter_advances(void) {
  volatile uint32_t sink = 0;
  uint64_t t0 = mport_counter_read();
  for (uint32_t i = 0; i < 10000u; i++)
    sink += i;
  uint64_t t1 = mport_counter_read();
  (void)sink; /* read: clang warns about a variable only ever set */
  return t1 > t0;
}

/* One sample: batch back-to-back runs between two counter reads. Never
 * inlined: the code between the reads is then this function's alone, and
 * no change elsewhere in the runner can move a count (inlined into
 * run_instance, its loop gained an instruction when the per-sample checks
 * were added there). */
__attribute__((noinline)) static int
time_batch(const instance *in, mops_ctx *c, uint32_t batch, uint64_t *ticks) {
  int rc = MCORE_OK;
  uint64_t t0 = mport_counter_read();
  for (uint32_t k = 0; k < batch && rc == MCORE_OK; k++)
    rc = in->def->run(c);
  uint64_t t1 = mport_counter_read();
  *ticks = t1 - t0;
  return rc;
}

static void emit_error(uint32_t id, const char *msg) {
  mcore_wire_start(MWIRE_R(error));
  mcore_wire_u64(MWIRE_K(error, id), id);
  mcore_wire_str(MWIRE_K(error, msg), msg);
  mcore_wire_end();
}

/* An error of the run, not of one operation (id "-"). */
static void emit_run_error(const char *msg) {
  mcore_wire_start(MWIRE_R(error));
  mcore_wire_str(MWIRE_K(error, id), "-");
  mcore_wire_str(MWIRE_K(error, msg), msg);
  mcore_wire_end();
}

/* The check of one run's output (mops_opdef.check), outside the counter
 * reads: the guard bytes around its outputs, then the check itself (what it
 * draws from the generators does not reach the next sample, which seeds its
 * own stream), the guards again (for what the check ran), and the outputs
 * overwritten for the next run. On failure an error record names the
 * sample, and the run is invalid. */
static int check_sample(const instance *in, mops_ctx *c, uint32_t id,
                        uint32_t sample) {
  char detail[128], msg[192];
  detail[0] = '\0';
#ifdef MERLIN_TEST_NO_SAMPLE_CHECKS
  /* Test hook: the same image without the checks, whose samples must be
   * the same (tests/integration/sample_checks.sh). */
  (void)in, (void)c, (void)id, (void)sample, (void)msg;
  return MCORE_OK;
#endif
  int rc = mops_guard_check(c, in->def, detail, sizeof detail);
  if (rc == MCORE_OK && in->def->check) {
    rc = in->def->check(c, sample, detail, sizeof detail);
    if (rc == MCORE_OK)
      rc = mops_guard_check(c, in->def, detail, sizeof detail);
  }
  if (rc == MCORE_OK) {
    mops_outputs_reset(c, in->def);
    return MCORE_OK;
  }
  size_t at = 0;
  msg[0] = '\0';
  mops_put_str(msg, sizeof msg, &at, "output check failed: ");
  if (sample == MOPS_FIRST_CALL) {
    mops_put_str(msg, sizeof msg, &at, "first call");
  } else {
    mops_put_str(msg, sizeof msg, &at, "sample ");
    mops_put_num(msg, sizeof msg, &at, sample);
  }
  mops_put_str(msg, sizeof msg, &at, ": ");
  mops_put_str(msg, sizeof msg, &at, detail);
  emit_error(id, msg);
  return MCORE_ERR;
}

/* One untimed run after the samples, on a painted stack with the heap peak
 * reset: what the operation itself needs in its steady state. */
typedef struct {
  const instance *in;
  mops_ctx *c;
} mem_call;

static int mem_call_run(void *arg) {
  mem_call *m = arg;
  return m->in->def->run(m->c);
}

/* What is left of an operation's run budget (port.h: budget_ticks), which
 * its KAT, first call, warm-up, samples, memory run and constant-time runs
 * all spend, counted from the operation's start; at least a BUDGET_SHARE-th
 * of it for the warm-up and samples, and again for the constant-time runs,
 * so that a cheap operation behind an expensive KAT (SPHINCS+-128s verify,
 * whose inputs need a signature) keeps its samples while an expensive one
 * gets one sample. */
#define BUDGET_SHARE 8
static uint64_t budget_left(uint64_t op_start) {
  uint64_t budget = mport_describe()->budget_ticks;
  if (!budget)
    return NO_LIMIT;
  uint64_t spent = mport_counter_read() - op_start;
  uint64_t left = budget > spent ? budget - spent : 0;
  return left > budget / BUDGET_SHARE ? left : budget / BUDGET_SHARE;
}

/* Secrets of a constant-time check that fit in what is left of the budget:
 * CT_SECRETS, fewer, or 0 when fewer than 2 fit (nothing to compare).
 * once = 0: not known yet (decided after the first run). */
static uint32_t ct_secrets_fit(uint64_t once, uint64_t left) {
  if (left == NO_LIMIT || !once || once * CT_SECRETS <= left)
    return CT_SECRETS;
  uint64_t fit = left / once;
  return fit >= 2 ? (uint32_t)fit : 0;
}

/* The constant-time check of an operation with a secret input: up to
 * CT_SECRETS runs, each with a fresh secret and the same public inputs, one
 * run per sample (no batching), and under valgrind the checker's errors
 * around the runs with the secret bytes poisoned. Under QEMU the counts are
 * exact instruction counts, so a constant-time operation gives one value.
 * What is left of the run budget may cut the number of secrets (n=0: not
 * checked); once = 0 (no samples were timed) takes it from the first run. */
static int ct_check(const instance *in, mops_ctx *c, uint32_t id, uint64_t once,
                    uint64_t overhead, uint64_t left) {
  uint64_t v[CT_SECRETS];
  uint32_t n = ct_secrets_fit(once, left);
  long errors = 0, before = mport_ct_errors();
  int fresh = 1, rc = MCORE_OK;
  uint32_t i = 0;
  for (; i < n && rc == MCORE_OK; i++) {
    int s = in->def->secret(c, mport_ct_poison);
    if (s < 0) {
      rc = MCORE_ERR;
      break;
    }
    fresh &= s == MOPS_SECRET_FRESH;
    long e0 = mport_ct_errors();
    mport_counter_restart();
    uint64_t t0 = mport_counter_read();
    mcore_mark_ct_begin(); /* the plugin's ct trace (markers.h) */
    rc = in->def->run(c);
    mcore_mark_ct_end();
    uint64_t t1 = mport_counter_read();
    /* A fresh secret with the old public inputs may be rejected (a KEM's
     * ciphertext for another key: mcore_kem_vt.decaps); the run still took
     * its whole path. */
    if (rc == MCORE_BAD_SIGNATURE)
      rc = MCORE_OK;
    long e1 = mport_ct_errors();
    if (e0 >= 0 && e1 >= e0)
      errors += e1 - e0;
    v[i] = t1 - t0 > overhead ? t1 - t0 : overhead;
    mops_ctx_unpoison(mport_ct_unpoison);
    mcore_heap_ct_clean(mport_ct_unpoison);
    if (i == 0 && !once) /* the first run tells what the rest would cost */
      n = ct_secrets_fit(v[0] - overhead ? v[0] - overhead : 1,
                         left > v[0] ? left - v[0] : 0);
  }
  mcore_mark_ct_done();
  if (rc != MCORE_OK)
    return rc;
  n = i; /* the runs made: one more than fit when the first told */
  mcore_wire_start(MWIRE_R(ct));
  mcore_wire_u64(MWIRE_K(ct, id), id);
  mcore_wire_u64(MWIRE_K(ct, n), n);
  mcore_wire_u64(MWIRE_K(ct, fresh), (uint64_t)fresh);
  if (n)
    mcore_wire_u64_list(MWIRE_K(ct, v), v, n);
  if (before >= 0)
    mcore_wire_u64(MWIRE_K(ct, vg), (uint64_t)errors);
  mcore_wire_end();
  return MCORE_OK;
}

/* An operation failed while an allocation had failed: say so, since the
 * library's own error code rarely does ("heap exhausted" is the cause). */
static void heap_exhausted(char *msg, size_t len) {
  static const char text[] = "heap exhausted: an allocation failed";
  size_t n = sizeof text < len ? sizeof text : len;
  memcpy(msg, text, n);
  msg[n - 1] = '\0';
}

typedef struct {
  const runner_config *cfg;
  uint64_t overhead;
  int failed;
  /* The KAT of an operation is run once and shared by its payload sizes. */
  const mcore_impl *kat_impl;
  const mops_opdef *kat_def;
  int kat_rc;
  char kat_detail[160];
  /* The implementation whose own KAT (mcore_impl.kat) ran last. */
  const mcore_impl *own_impl;
  int own_rc;
  char own_detail[160];
} run_state;

/* An implementation's own known-answer test (mcore_impl.kat), run once
 * for all its operations, which follow each other; its records go on the
 * wire before the kat record of the first. */
typedef struct {
  const mcore_impl *impl;
  char *record, *detail;
  size_t rlen, dn;
} own_call;

static int own_call_run(void *arg) {
  own_call *k = arg;
  return k->impl->kat(k->impl, k->record, k->rlen, k->detail, k->dn);
}

/* ",stack=N" after the records. */
static void append_stack(char *record, size_t cap, size_t used) {
  size_t at = strlen(record);
  mops_put_str(record, cap, &at, ",stack=");
  mops_put_num(record, cap, &at, used);
}

static int own_kat(run_state *st, const instance *in, uint32_t id) {
  if (st->own_impl != in->impl) {
    char record[256];
    st->own_impl = in->impl;
    st->own_detail[0] = '\0';
    /* On a painted stack: the peak goes with the records, which is what the
     * host reads from its reference build to tell whether an
     * implementation folder fits a target's stack before running it there
     * (host/impl/impl_ref.c). */
    own_call k = {in->impl, record, st->own_detail, sizeof record,
                  sizeof st->own_detail};
    mcore_stack_result sr = mcore_stack_measure(own_call_run, &k);
    st->own_rc = sr.rc;
    if (record[0])
      append_stack(record, sizeof record, sr.used);
    if (record[0]) {
      mcore_wire_start(MWIRE_R(nistkat));
      mcore_wire_u64(MWIRE_K(nistkat, id), id);
      mcore_wire_str(MWIRE_K(nistkat, records), record);
      mcore_wire_end();
    }
  }
  if (st->own_rc != MCORE_OK)
    memcpy(st->kat_detail, st->own_detail, sizeof st->kat_detail);
  return st->own_rc;
}

/* The operation's known-answer test (once per implementation and
 * operation: its payload sizes share it) and its kat record: 1 when it
 * passed, else 0 (st->failed set). */
static int kat_step(run_state *st, const instance *in, uint32_t id) {
  if (st->kat_impl != in->impl || st->kat_def != in->def) {
    mcore_fresh_seed(mcore_rng_key(RUNNER_SEED, mcore_alg_id(in->impl->alg),
                                   in->def->name, 0),
                     STREAM_KAT);
    st->kat_detail[0] = '\0';
    uint32_t failed_allocs = mcore_heap_get().failures;
    st->kat_rc =
        mops_check_sizes(in->impl, st->kat_detail, sizeof st->kat_detail);
    if (st->kat_rc == MCORE_OK && in->impl->kat)
      st->kat_rc = own_kat(st, in, id);
    if (st->kat_rc == MCORE_OK &&
        (!in->impl->kat || mops_has_vectors(in->impl->alg)))
      st->kat_rc = in->def->kat(in->impl, in->def->name, st->kat_detail,
                                sizeof st->kat_detail);
    if (st->kat_rc != MCORE_OK && mcore_heap_get().failures != failed_allocs)
      heap_exhausted(st->kat_detail, sizeof st->kat_detail);
    st->kat_impl = in->impl;
    st->kat_def = in->def;
    mwf_note_kat(in->impl, st->kat_rc); /* the workflows' gate */
  }
  mcore_wire_start(MWIRE_R(kat));
  mcore_wire_u64(MWIRE_K(kat, id), id);
  mcore_wire_str(MWIRE_K(kat, result),
                 st->kat_rc == MCORE_OK ? "pass" : "fail");
  if (st->kat_rc != MCORE_OK)
    mcore_wire_str(MWIRE_K(kat, detail),
                   st->kat_detail[0] ? st->kat_detail : "failed");
  mcore_wire_end();
  if (st->kat_rc != MCORE_OK) {
    st->failed = 1;
    return 0; /* no timing without a passing KAT */
  }
  return 1;
}

/* An operation's fresh start (fresh.h): what the operation before it left
 * live released (an AEAD context), every library reset, the stack painted.
 * MCORE_OK, or an error record (of operation id; of the run for
 * NO_OP) and MCORE_ERR. */
#define NO_OP UINT32_MAX
static int fresh_start(uint32_t id) {
  char msg[96];
  mops_release();
  if (mcore_fresh_reset(msg, sizeof msg) == MCORE_OK)
    return MCORE_OK;
  if (id == NO_OP)
    emit_run_error(msg);
  else
    emit_error(id, msg);
  return MCORE_ERR;
}

/* How one sample is timed: the first call (timed alone, its output
 * checked), then the batch of calls that puts a sample well above the
 * counter's resolution and overhead (the port's min_sample_ticks). 1,
 * or 0 (st->failed set). */
typedef struct {
  uint32_t batch;
  uint64_t once;        /* one call, less the counter's overhead */
  uint64_t check_ticks; /* what checking a sample's output costs */
} sample_plan;

static int first_call(run_state *st, const instance *in, mops_ctx *c,
                      uint32_t id, uint64_t key, sample_plan *sp) {
  uint64_t ticks;
  sp->batch = 1;
  mcore_fresh_seed(key, STREAM_FIRST);
  if (in->def->vary)
    in->def->vary(c);
  uint32_t failed_allocs = mcore_heap_get().failures;
  mport_counter_restart(); /* the same wrap points in every sample */
  if (time_batch(in, c, 1, &ticks) != MCORE_OK) {
    char msg[64] = "operation returned an error";
    if (mcore_heap_get().failures != failed_allocs)
      heap_exhausted(msg, sizeof msg);
    emit_error(id, msg);
    st->failed = 1;
    return 0;
  }
  /* The first call's output is checked like every sample's; what the
   * check costs counts against the run budget below. */
  uint64_t c0 = mport_counter_read();
  if (check_sample(in, c, id, MOPS_FIRST_CALL) != MCORE_OK) {
    st->failed = 1;
    return 0;
  }
  sp->check_ticks = mport_counter_read() - c0;
  uint64_t floor_ticks = mport_describe()->min_sample_ticks;
  sp->once = ticks > st->overhead ? ticks - st->overhead : 1;
  while (sp->once * sp->batch < floor_ticks && sp->batch < MAX_BATCH)
    sp->batch *= 2;
  return 1;
}

/* The run budget: an operation whose warm-up and samples would take
 * longer than what its KAT and first call left of the port's budget
 * (SLH-DSA-128s signing, say) gets fewer samples, down to one, and one
 * warm-up or none. The plan says how many; results.json's n and warmup
 * are the truth, and the report marks the figure. */
static void plan_samples(const runner_config *cfg, uint64_t op_start,
                         const sample_plan *sp, uint32_t id, uint32_t *warmup,
                         uint32_t *runs) {
  *warmup = cfg->warmup;
  *runs = cfg->runs;
  uint64_t left = budget_left(op_start);
  uint64_t per_sample = sp->once * sp->batch + sp->check_ticks;
  if (left != NO_LIMIT && per_sample * ((uint64_t)*warmup + *runs) > left) {
    uint64_t fit = left / per_sample;
    *warmup = *warmup && fit >= 2 ? 1 : 0;
    *runs = fit > *warmup ? (uint32_t)(fit - *warmup) : 1;
    if (*runs > cfg->runs)
      *runs = cfg->runs;
  }

  mcore_wire_start(MWIRE_R(plan));
  mcore_wire_u64(MWIRE_K(plan, id), id);
  mcore_wire_u64(MWIRE_K(plan, batch), sp->batch);
  mcore_wire_u64(MWIRE_K(plan, warmup), *warmup);
  mcore_wire_u64(MWIRE_K(plan, n), *runs);
  mcore_wire_end();
}

/* The warm-ups and the timed samples, each checked after it, the samples
 * on the wire SAMPLES_PER_LINE at a time. 1, or 0 (st->failed set). */
static int sample_loop(run_state *st, const instance *in, mops_ctx *c,
                       uint32_t id, uint64_t key, uint32_t batch,
                       uint32_t warmup, uint32_t runs) {
  uint64_t line[SAMPLES_PER_LINE], ticks;
  uint32_t in_line = 0, first = 0;
  for (uint32_t s = 0; s < warmup + runs; s++) {
    mcore_fresh_seed(key, s < warmup ? STREAM_WARMUP + s : s - warmup);
    if (in->def->vary)
      in->def->vary(c);
    /* Outside the markers: the plugin's figures never count it. */
    mport_counter_restart();
    if (s >= warmup) /* timed samples only (QEMU plugin, markers.h) */
      mcore_mark_sample_begin();
    int trc = time_batch(in, c, batch, &ticks);
    if (s >= warmup)
      mcore_mark_sample_end();
    if (trc != MCORE_OK) {
      emit_error(id, "operation returned an error while timed");
      st->failed = 1;
      return 0;
    }
    if (s < warmup)
      continue;
    if (check_sample(in, c, id, s - warmup) != MCORE_OK) {
      st->failed = 1;
      return 0;
    }
    line[in_line++] = ticks;
    if (in_line == SAMPLES_PER_LINE || s + 1 == warmup + runs) {
      mcore_wire_start(MWIRE_R(samples));
      mcore_wire_u64(MWIRE_K(samples, id), id);
      mcore_wire_u64(MWIRE_K(samples, i), first);
      mcore_wire_u64_list(MWIRE_K(samples, v), line, in_line);
      mcore_wire_end();
      first += in_line;
      in_line = 0;
    }
  }
  return 1;
}

/* After the samples: one call more for its stack and heap, the
 * constant-time check of a secret-dependent operation, and the opend
 * record. */
static void finish_op(run_state *st, const instance *in, mops_ctx *c,
                      uint32_t id, uint64_t key, uint64_t op_start,
                      uint64_t once, uint32_t runs) {
  mcore_fresh_seed(key, STREAM_MEMORY);
  if (in->def->vary)
    in->def->vary(c);
  mem_call m = {in, c};
  mcore_heap_stats h0 = mcore_heap_get();
  mcore_heap_reset_peak();
  mcore_stack_result sr = mcore_stack_measure(mem_call_run, &m);
  mcore_heap_stats h1 = mcore_heap_get();
  if (sr.rc != MCORE_OK) {
    emit_error(id, "operation returned an error while measuring memory");
    st->failed = 1;
    return;
  }
  if (sr.capacity && sr.used >= sr.capacity) {
    emit_error(id, "stack overflow: the operation used the whole stack");
    st->failed = 1;
    return;
  }
  mcore_fresh_seed(key, STREAM_CT);
  if (in->def->secret && ct_check(in, c, id, once, st->overhead,
                                  budget_left(op_start)) != MCORE_OK) {
    emit_error(id, "constant-time check failed to run");
    st->failed = 1;
    return;
  }

  mcore_wire_start(MWIRE_R(opend));
  mcore_wire_u64(MWIRE_K(opend, id), id);
  mcore_wire_u64(MWIRE_K(opend, n), runs);
  mcore_wire_u64(MWIRE_K(opend, stack), sr.used);
  mcore_wire_u64(MWIRE_K(opend, heap), h1.peak - h0.current);
  mcore_wire_u64(MWIRE_K(opend, allocs), h1.allocs);
  mcore_wire_end();
}

static void run_instance(const instance *in, uint32_t id, void *arg) {
  run_state *st = arg;
  const runner_config *cfg = st->cfg;
  mops_ctx c;

  uint64_t op_start = mport_counter_read(); /* the run budget's start */
  uint64_t key = mcore_rng_key(RUNNER_SEED, mcore_alg_id(in->impl->alg),
                               in->def->name, in->bytes);
  if (!kat_step(st, in, id))
    return;
  if (fresh_start(id) != MCORE_OK) {
    st->failed = 1;
    return;
  }
  if (cfg->ct_only) {
    mops_ctx_init(&c, in->impl, in->bytes);
    mcore_fresh_seed(key, STREAM_PREPARE);
    int rc = in->def->secret ? in->def->prepare(&c) : MCORE_OK;
    mcore_fresh_seed(key, STREAM_CT);
    if (in->def->secret &&
        (rc != MCORE_OK || ct_check(in, &c, id, 0, st->overhead,
                                    budget_left(op_start)) != MCORE_OK)) {
      emit_error(id, "constant-time check failed to run");
      st->failed = 1;
      return;
    }
  }
  if (cfg->runs == 0) { /* --kat-only: the op ends with no samples */
    mcore_wire_start(MWIRE_R(opend));
    mcore_wire_u64(MWIRE_K(opend, id), id);
    mcore_wire_u64(MWIRE_K(opend, n), 0);
    mcore_wire_end();
    return;
  }

  mops_ctx_init(&c, in->impl, in->bytes);
  mcore_fresh_seed(key, STREAM_PREPARE);
  if (in->def->prepare(&c) != MCORE_OK) {
    emit_error(id, "preparing the inputs failed");
    st->failed = 1;
    return;
  }
  mops_outputs_reset(&c, in->def);

  sample_plan sp;
  uint32_t warmup, runs;
  if (!first_call(st, in, &c, id, key, &sp))
    return;
  plan_samples(cfg, op_start, &sp, id, &warmup, &runs);
  if (!sample_loop(st, in, &c, id, key, sp.batch, warmup, runs))
    return;
  mcore_control_probe(id); /* the machine's noise, interleaved */
  finish_op(st, in, &c, id, key, op_start, sp.once, runs);
}

/* ---- entry ----------------------------------------------------------- */

static int parse_u32(const char *s, uint32_t max, uint32_t *out) {
  uint64_t v = 0;
  if (!s || !*s)
    return -1;
  for (; *s; s++) {
    if (*s < '0' || *s > '9')
      return -1;
    v = v * 10u + (uint64_t)(*s - '0');
    if (v > max)
      return -1;
  }
  *out = (uint32_t)v;
  return 0;
}

static _Noreturn void usage_error(const char *msg) {
  mport_console_write("merlin-image: ", 14);
  mport_console_write(msg, strlen(msg));
  mport_console_write("\n", 1);
  mport_exit(2);
}

int runner_parse_args(int argc, char **argv, runner_config *cfg) {
  cfg->runs = MERLIN_RUNS;
  cfg->warmup = MERLIN_WARMUP;
  cfg->xcheck = 0;
  cfg->ct_only = 0;
  int kat_only = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      if (parse_u32(argv[++i], 1000000, &cfg->runs) || cfg->runs == 0)
        usage_error("--runs takes a number from 1 to 1000000");
    } else if (strcmp(argv[i], "--warmup") == 0 && i + 1 < argc) {
      if (parse_u32(argv[++i], 100000, &cfg->warmup))
        usage_error("--warmup takes a number from 0 to 100000");
    } else if (strcmp(argv[i], "--kat-only") == 0) {
      kat_only = 1;
    } else if (strcmp(argv[i], "--ct-only") == 0) {
      kat_only = 1;
      cfg->ct_only = 1;
    } else if (strcmp(argv[i], "--wf-corrupt") == 0 && i + 1 < argc) {
      if (mwf_set_corrupt(argv[++i]) != 0)
        usage_error("--wf-corrupt takes WORKFLOW/MESSAGE (docs/workflows.md)");
    } else if (strcmp(argv[i], "--xcheck") == 0) {
      cfg->xcheck = 1;
    } else {
      usage_error("usage: merlin-image [--runs N] [--warmup W] [--kat-only] "
                  "[--ct-only] [--xcheck] [--wf-corrupt WORKFLOW/MESSAGE]");
    }
  }
  if (kat_only) {
    cfg->runs = 0;
    cfg->warmup = 0;
  }
  return 0;
}

int runner_main(const runner_config *cfg) {
  if (cfg->xcheck)
    return mcore_xcheck_main();
  run_state st = {0};
  st.cfg = cfg;

  emit_begin(cfg);
  for_each_instance(announce, NULL);
  mwf_announce(); /* src/workflows: announced like operations */
#ifdef MERLIN_TEST_FAULT
  /* An over-deep call through the stack meter, as an operation would be:
   * the port's guard must catch it (fault kind=stackoverflow). */
  if (strcmp(MERLIN_TEST_FAULT, "stackoverflow") == 0)
    (void)mcore_stack_measure(mcore_stack_exhaust, NULL);
  else if (strcmp(MERLIN_TEST_FAULT, "heap") != 0)
    mport_test_fault(MERLIN_TEST_FAULT);
#endif
  /* Backends may draw randomness while initialising (wolfCrypt seeds its
   * DRBG): the stream must be seeded before, never all zeros. */
  mcore_rng_seed(RUNNER_SEED);
  /* A backend whose initialisation fails: the error names it, and nothing
   * is timed. */
  for (size_t b = 0; b < mcore_n_backends; b++) {
    if (mcore_backends[b]->init && mcore_backends[b]->init() != MCORE_OK) {
      char msg[64] = "backend initialisation failed: ";
      size_t at = strlen(msg);
      for (const char *n = mcore_backend_name(mcore_backends[b]->id);
           *n && at + 1 < sizeof msg;)
        msg[at++] = *n++;
      msg[at] = '\0';
      emit_run_error(msg);
      st.failed = 1;
    }
  }
  if (!counter_advances()) {
    /* A counter that stands still (DWT CYCCNT under QEMU reads 0) would turn
     * every time into zero: refuse to time anything. */
    emit_run_error("the counter does not advance");
    st.failed = 1;
  }
#ifdef MERLIN_TEST_FAULT
  /* After the backends' own start-up: every operation's allocations fail. */
  if (strcmp(MERLIN_TEST_FAULT, "heap") == 0)
    mcore_heap_set_limit(0);
#endif
  st.overhead = measure_overhead();
  mcore_mark_calibrate();
  mcore_wire_start(MWIRE_R(overhead));
  mcore_wire_u64(MWIRE_K(overhead, ticks), st.overhead);
  mcore_wire_end();
  if (!st.failed) {
    for_each_instance(run_instance, &st);
    if (fresh_start(NO_OP) != MCORE_OK)
      st.failed = 1;
    /* Workflows gate on their primitives' KATs themselves (src/workflows). */
    st.failed |= mwf_run_all(cfg->runs, cfg->warmup);
  }
  mcore_wire_start(MWIRE_R(end));
  mcore_wire_u64(MWIRE_K(end, records), mcore_wire_count());
  mcore_wire_str(MWIRE_K(end, status), st.failed ? "fail" : "ok");
  mcore_wire_end();
  return st.failed ? 1 : 0;
}
