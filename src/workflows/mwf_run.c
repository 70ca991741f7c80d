/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The workflow runner: every (workflow, variant, backend choice) of the
 * image is announced, gated and timed like an operation (docs/workflows.md,
 * docs/wire-format.md):
 *   wf (announce) ... wfcheck (gate + correctness run) -> wfplan ->
 *   wfsample per timed run (device steps only, one value per step) ->
 *   wfend (peak stack and heap of the device steps).
 * An instance runs only when the KATs of every primitive it uses passed in
 * this image; its correctness run must show both sides with the same key,
 * every signature verifying and every tag checking, or nothing is timed.
 */
#include "fresh.h"
#include "mwf.h"

#include "port.h"
#include "stackmeter.h"
#include "wire_out.h"

#include <stdlib.h>
#include <string.h>

#define MWF_SEED 0x4d65726c696e0002u
#define MWF_MIN_RUNS 5
#define MWF_BUDGET_DIV 32  /* a workflow gets 1/32 of an operation's budget */
#define MWF_CHECK_LIMIT 3u /* frames per key in the refresh check */
#define MWF_MAX_KATS 256

/* ---- KAT outcomes per implementation ------------------------------- */

typedef struct {
  const mcore_impl *impl;
  int failed;
} kat_entry;
static kat_entry kats[MWF_MAX_KATS];
static size_t n_kats;

void mwf_note_kat(const mcore_impl *impl, int rc) {
  for (size_t i = 0; i < n_kats; i++)
    if (kats[i].impl == impl) {
      kats[i].failed |= rc != MCORE_OK;
      return;
    }
  if (n_kats < MWF_MAX_KATS)
    kats[n_kats++] = (kat_entry){impl, rc != MCORE_OK};
}

/* 1: every KAT of impl passed; 0: one failed or none ran. */
static int kat_passed(const mcore_impl *impl) {
  for (size_t i = 0; i < n_kats; i++)
    if (kats[i].impl == impl)
      return !kats[i].failed;
  return 0;
}

/* ---- the --wf-corrupt test hook ------------------------------------- */

static char corrupt_wf[16], corrupt_msg[24];
static int corrupt_armed;
static uint32_t corrupt_hits; /* messages the hook flipped */

int mwf_set_corrupt(const char *spec) {
  const char *slash = strchr(spec, '/');
  if (!slash || slash == spec || !slash[1] ||
      (size_t)(slash - spec) >= sizeof corrupt_wf ||
      strlen(slash + 1) >= sizeof corrupt_msg)
    return -1;
  memcpy(corrupt_wf, spec, (size_t)(slash - spec));
  corrupt_wf[slash - spec] = '\0';
  strcpy(corrupt_msg, slash + 1);
  return 0;
}

void mwf_sent(mwf_ctx *c, size_t i, size_t len) {
  c->msg_len[i] = len;
  if (corrupt_armed && len && strcmp(c->def->workflow, corrupt_wf) == 0 &&
      strcmp(c->def->msgs[i].name, corrupt_msg) == 0) {
    c->msg[i][len - 1] ^= 0x01; /* the last byte, as received */
    corrupt_hits++;
  }
}

int mwf_fail(mwf_ctx *c, const char *kind, const char *detail) {
  if (!c->fail_step) {
    c->fail_step = kind;
    size_t n = strlen(detail);
    if (n >= sizeof c->detail)
      n = sizeof c->detail - 1;
    memcpy(c->detail, detail, n);
    c->detail[n] = '\0';
  }
  return MCORE_ERR;
}

int mwf_op(mwf_ctx *c, int rc, const char *what) {
  return rc == MCORE_OK ? MCORE_OK : mwf_fail(c, "operation", what);
}

/* ---- AEAD helpers ---------------------------------------------------- */

static uint64_t aead_ctx[MCORE_AEAD_CTX_MAX / 8];

int mwf_seal(const mcore_impl *aead, const uint8_t *key, const uint8_t *nonce,
             const uint8_t *aad, size_t aad_len, const uint8_t *pt, size_t len,
             uint8_t *ct, uint8_t *tag) {
  const mcore_aead_vt *vt = aead->vt.aead;
  if (vt->setup(aead_ctx, key) != MCORE_OK)
    return MCORE_ERR;
  int rc = vt->encrypt(aead_ctx, ct, tag, nonce, aad, aad_len, pt, len);
  if (vt->cleanup)
    vt->cleanup(aead_ctx);
  return rc;
}

int mwf_open(const mcore_impl *aead, const uint8_t *key, const uint8_t *nonce,
             const uint8_t *aad, size_t aad_len, const uint8_t *ct, size_t len,
             const uint8_t *tag, uint8_t *pt) {
  const mcore_aead_vt *vt = aead->vt.aead;
  if (vt->setup(aead_ctx, key) != MCORE_OK)
    return MCORE_ERR;
  int rc = vt->decrypt(aead_ctx, pt, nonce, aad, aad_len, ct, len, tag);
  if (vt->cleanup)
    vt->cleanup(aead_ctx);
  return rc;
}

void mwf_frame_nonce(uint8_t nonce[MWF_NONCE_LEN], const uint8_t *iv,
                     uint32_t ctr) {
  memcpy(nonce, iv, MWF_NONCE_LEN);
  for (int k = 0; k < 4; k++)
    nonce[MWF_NONCE_LEN - 1 - k] ^= (uint8_t)(ctr >> (8 * k));
}

/* ---- instances ------------------------------------------------------- */

typedef struct {
  const mwf_def *def;
  const mcore_impl *impl[MWF_MAX_ALGS];
} instance;

typedef void (*visit_fn)(const instance *in, uint32_t id, void *arg);

static const mcore_impl *impl_on(mcore_alg alg, const mcore_backend *be) {
  for (size_t i = 0; i < be->n_impls; i++)
    if (be->impls[i].alg == alg)
      return &be->impls[i];
  return NULL;
}

static const mcore_impl *first_impl(mcore_alg alg) {
  for (size_t b = 0; b < mcore_n_backends; b++) {
    const mcore_impl *im = impl_on(alg, mcore_backends[b]);
    if (im)
      return im;
  }
  return NULL;
}

static int public_key(mcore_alg alg) {
  mcore_class k = mcore_alg_class(alg);
  return k == MCORE_CLASS_KA || k == MCORE_CLASS_SIG || k == MCORE_CLASS_KEM;
}

/* The backend choices of one variant: for each backend B of the image that
 * serves one of its public-key primitives (any of its primitives when it
 * has none), every primitive on B where B serves it, else on the first
 * backend that does; identical choices once. A variant with a primitive the
 * image lacks has none (it is not built). */
static uint32_t visit_def(const mwf_def *d, uint32_t id, visit_fn fn,
                          void *arg) {
  instance seen[8];
  size_t n_seen = 0;
  for (size_t a = 0; a < d->n_algs; a++)
    if (!first_impl(d->algs[a]))
      return id;
  int any_pk = 0;
  for (size_t a = 0; a < d->n_algs; a++)
    any_pk |= public_key(d->algs[a]);
  for (size_t b = 0; b < mcore_n_backends && n_seen < 8; b++) {
    int serves = 0;
    for (size_t a = 0; a < d->n_algs; a++)
      serves |= (!any_pk || public_key(d->algs[a])) &&
                impl_on(d->algs[a], mcore_backends[b]) != NULL;
    if (!serves)
      continue;
    instance in = {d, {0}};
    for (size_t a = 0; a < d->n_algs; a++) {
      in.impl[a] = impl_on(d->algs[a], mcore_backends[b]);
      if (!in.impl[a])
        in.impl[a] = first_impl(d->algs[a]);
    }
    int dup = 0;
    for (size_t k = 0; k < n_seen && !dup; k++)
      dup = memcmp(seen[k].impl, in.impl, sizeof in.impl) == 0;
    if (dup)
      continue;
    seen[n_seen++] = in;
    if (fn)
      fn(&in, id, arg);
    id++;
  }
  return id;
}

static uint32_t for_each(visit_fn fn, void *arg) {
  const struct {
    const mwf_def *defs;
    size_t n;
  } tables[] = {{mwf_provision_defs, mwf_n_provision_defs},
                {mwf_session_defs, mwf_n_session_defs},
                {mwf_constrained_defs, mwf_n_constrained_defs}};
  uint32_t id = 0;
  for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
    for (size_t i = 0; i < tables[t].n; i++)
      id = visit_def(&tables[t].defs[i], id, fn, arg);
  return id;
}

/* Append s to buf at *at (bounded). */
static void put(char *buf, size_t len, size_t *at, const char *s) {
  while (*s && *at + 1 < len)
    buf[(*at)++] = *s++;
  buf[*at] = '\0';
}

static void announce(const instance *in, uint32_t id, void *arg) {
  (void)arg;
  const mwf_def *d = in->def;
  char be[96], steps[160], msgs[160], algs[200];
  size_t at = 0;
  be[0] = '\0';
  /* The distinct backends, in the order of the primitives. */
  for (size_t a = 0; a < d->n_algs; a++) {
    int dup = 0;
    for (size_t k = 0; k < a; k++)
      dup |= in->impl[k]->backend == in->impl[a]->backend;
    if (dup)
      continue;
    put(be, sizeof be, &at, at ? "+" : "");
    put(be, sizeof be, &at, mcore_backend_name(in->impl[a]->backend));
  }
  at = 0;
  algs[0] = '\0';
  for (size_t a = 0; a < d->n_algs; a++) {
    put(algs, sizeof algs, &at, a ? "," : "");
    put(algs, sizeof algs, &at, mcore_alg_id(in->impl[a]->alg));
    put(algs, sizeof algs, &at, ":");
    put(algs, sizeof algs, &at, mcore_backend_name(in->impl[a]->backend));
  }
  at = 0;
  steps[0] = '\0';
  for (size_t s = 0; s < d->n_steps; s++)
    if (d->steps[s].side == MWF_DEVICE) {
      put(steps, sizeof steps, &at, at ? "," : "");
      put(steps, sizeof steps, &at, d->steps[s].name);
    }
  at = 0;
  msgs[0] = '\0';
  for (size_t m = 0; m < d->n_msgs; m++) {
    put(msgs, sizeof msgs, &at, m ? "," : "");
    put(msgs, sizeof msgs, &at, d->msgs[m].name);
    put(msgs, sizeof msgs, &at, d->msgs[m].device_sends ? ":tx" : ":rx");
  }
  mcore_wire_start(MWIRE_R(wf));
  mcore_wire_u64(MWIRE_K(wf, id), id);
  mcore_wire_str(MWIRE_K(wf, workflow), d->workflow);
  mcore_wire_str(MWIRE_K(wf, variant), d->variant);
  mcore_wire_str(MWIRE_K(wf, backend), be);
  mcore_wire_str(MWIRE_K(wf, algs), algs);
  mcore_wire_str(MWIRE_K(wf, steps), steps);
  mcore_wire_str(MWIRE_K(wf, msgs), msgs);
  mcore_wire_end();
}

void mwf_announce(void) { for_each(announce, NULL); }

/* ---- running --------------------------------------------------------- */

/* Message buffers: on the heap (outside the accounting), allocated once by
 * mwf_run_all, for the reason given in mwf_provision.c. */
static uint8_t (*msg_buf)[MWF_MSG_MAX];

static void ctx_init(mwf_ctx *c, const instance *in, uint32_t frame_limit) {
  memset(c, 0, sizeof *c);
  c->def = in->def;
  for (size_t a = 0; a < in->def->n_algs; a++)
    c->impl[a] = in->impl[a];
  for (size_t m = 0; m < MWF_MAX_MSGS; m++)
    c->msg[m] = msg_buf[m];
  c->frame_limit = frame_limit;
}

/* One device step on a painted stack, for the memory run. */
typedef struct {
  const mwf_step *step;
  mwf_ctx *c;
} mem_call;

static int mem_call_run(void *arg) {
  mem_call *m = arg;
  return m->step->fn(m->c);
}

typedef struct {
  uint64_t stack, heap;
  uint32_t allocs;
} mem_peak;

/* One whole run: ticks[k] the raw counter difference around the k-th device
 * step (NULL: untimed); mem: measure each device step's stack and heap. */
static int flow(mwf_ctx *c, uint64_t *ticks, mem_peak *mem) {
  const mwf_def *d = c->def;
  size_t k = 0;
  for (size_t s = 0; s < d->n_steps; s++) {
    const mwf_step *st = &d->steps[s];
    int rc;
    if (st->side == MWF_DEVICE && mem) {
      mem_call m = {st, c};
      mcore_heap_stats h0 = mcore_heap_get();
      mcore_heap_reset_peak();
      mcore_stack_result sr = mcore_stack_measure(mem_call_run, &m);
      mcore_heap_stats h1 = mcore_heap_get();
      rc = sr.rc;
      if (sr.capacity && sr.used >= sr.capacity)
        return mwf_fail(c, "operation", "stack overflow in a device step");
      if (sr.used > mem->stack)
        mem->stack = sr.used;
      if (h1.peak - h0.current > mem->heap)
        mem->heap = h1.peak - h0.current;
      mem->allocs += h1.allocs; /* reset_peak restarts the count */
    } else if (st->side == MWF_DEVICE && ticks) {
      uint64_t t0 = mport_counter_read();
      rc = st->fn(c);
      uint64_t t1 = mport_counter_read();
      ticks[k] = t1 - t0;
    } else {
      rc = st->fn(c);
    }
    if (st->side == MWF_DEVICE)
      k++;
    if (rc != MCORE_OK)
      return mwf_fail(c, "operation", st->name);
  }
  return MCORE_OK;
}

static void emit_check_fail(uint32_t id, const char *step, const char *detail) {
  mcore_wire_start(MWIRE_R(wfcheck));
  mcore_wire_u64(MWIRE_K(wfcheck, id), id);
  mcore_wire_str(MWIRE_K(wfcheck, result), "fail");
  mcore_wire_str(MWIRE_K(wfcheck, step), step);
  mcore_wire_str(MWIRE_K(wfcheck, detail), detail);
  mcore_wire_end();
}

typedef struct {
  uint32_t runs, warmup;
  int failed;
} run_state;

/* The fairness control (docs/workflows.md): after each workflow's samples,
 * the median raw ticks of CONTROL_RUNS samples of HKDF-SHA256 (32-byte key
 * material, 32-byte output) or HMAC-SHA256 (64-byte message) on the first
 * backend of the image that serves it, the same code and inputs for every
 * workflow, each sample a batch of back-to-back runs long enough for the
 * port's counter (min_sample_ticks), as for operations. *batch is 0 when
 * the image has no such primitive. */
#define CONTROL_RUNS 11
static int control_once(const mcore_impl *im, mcore_alg alg, uint32_t batch,
                        uint64_t *ticks) {
  static const uint8_t info[] = "merlin control";
  uint8_t key[32], msg[64], out[32];
  int rc = MCORE_OK;
  memset(key, 0x4b, sizeof key);
  memset(msg, 0x6d, sizeof msg);
  uint64_t t0 = mport_counter_read();
  for (uint32_t k = 0; k < batch && rc == MCORE_OK; k++)
    rc = alg == MCORE_ALG_HKDF_SHA256
             ? im->vt.kdf->derive(out, sizeof out, NULL, 0, key, sizeof key,
                                  info, sizeof info - 1)
             : im->vt.mac->mac(out, key, sizeof key, msg, sizeof msg);
  uint64_t t1 = mport_counter_read();
  *ticks = t1 - t0;
  return rc;
}

static uint64_t control(mcore_alg alg, uint32_t *batch) {
  const mcore_impl *im = first_impl(alg);
  uint64_t v[CONTROL_RUNS], once;
  *batch = 0;
  if (!im || control_once(im, alg, 1, &once) != MCORE_OK)
    return 0;
  uint32_t b = 1;
  while (once * b < mport_describe()->min_sample_ticks && b < (1u << 16))
    b *= 2;
  for (int i = 0; i < CONTROL_RUNS; i++)
    if (control_once(im, alg, b, &v[i]) != MCORE_OK)
      return 0;
  for (int i = 1; i < CONTROL_RUNS; i++) /* insertion sort, 11 values */
    for (int k = i; k > 0 && v[k] < v[k - 1]; k--) {
      uint64_t t = v[k];
      v[k] = v[k - 1];
      v[k - 1] = t;
    }
  *batch = b;
  return v[CONTROL_RUNS / 2];
}

/* The gate (every primitive's KATs passed in this image) and the
 * correctness runs: once with a small frame limit (the key refresh runs),
 * once as timed; the --wf-corrupt hook acts on the first. The wfcheck
 * record; *once the second run's ticks. 1, or 0 (st->failed set). */
static int check_step(run_state *st, const instance *in, uint32_t id,
                      mwf_ctx *c, uint64_t *once) {
  const mwf_def *d = in->def;
  for (size_t a = 0; a < d->n_algs; a++)
    if (!kat_passed(in->impl[a])) {
      char msg[96];
      size_t at = 0;
      put(msg, sizeof msg, &at, "known-answer test of ");
      put(msg, sizeof msg, &at, mcore_alg_id(in->impl[a]->alg));
      put(msg, sizeof msg, &at, " on ");
      put(msg, sizeof msg, &at, mcore_backend_name(in->impl[a]->backend));
      put(msg, sizeof msg, &at, " failed");
      emit_check_fail(id, "kat", msg);
      st->failed = 1;
      return 0;
    }
  mcore_fresh_seed(MWF_SEED, 0); /* and the libraries' own generators */
  uint64_t t0 = 0, t1 = 0;
  for (int pass = 0; pass < 2; pass++) {
    ctx_init(c, in, pass ? UINT32_MAX : MWF_CHECK_LIMIT);
    corrupt_armed = pass == 0;
    mport_counter_restart();
    t0 = mport_counter_read();
    int rc = d->setup(c, pass == 0);
    if (rc == MCORE_OK)
      rc = flow(c, NULL, NULL);
    t1 = mport_counter_read();
    corrupt_armed = 0;
    if (rc != MCORE_OK) {
      emit_check_fail(id, c->fail_step ? c->fail_step : "operation",
                      c->detail[0] ? c->detail : "failed");
      st->failed = 1;
      return 0;
    }
  }
  uint64_t msgs[MWF_MAX_MSGS];
  for (size_t m = 0; m < d->n_msgs; m++)
    msgs[m] = c->msg_len[m];
  mcore_wire_start(MWIRE_R(wfcheck));
  mcore_wire_u64(MWIRE_K(wfcheck, id), id);
  mcore_wire_str(MWIRE_K(wfcheck, result), "pass");
  mcore_wire_u64_list(MWIRE_K(wfcheck, msgs), msgs, d->n_msgs);
  mcore_wire_u64(MWIRE_K(wfcheck, stored), c->stored);
  mcore_wire_end();
  *once = t1 - t0 ? t1 - t0 : 1;
  return 1;
}

/* The warm-ups and timed runs, each run's device steps on the wire. 1, or
 * 0 (st->failed set). */
static int timed_runs(run_state *st, const instance *in, uint32_t id,
                      mwf_ctx *c, uint32_t warmup, uint32_t runs) {
  const mwf_def *d = in->def;
  uint64_t ticks[MWF_MAX_STEPS];
  size_t n_dev = 0;
  for (size_t s = 0; s < d->n_steps; s++)
    n_dev += d->steps[s].side == MWF_DEVICE;
  for (uint32_t s = 0; s < warmup + runs; s++) {
    ctx_init(c, in, UINT32_MAX);
    if (d->setup(c, 0) != MCORE_OK || flow(c, ticks, NULL) != MCORE_OK) {
      char msg[128];
      size_t at = 0;
      put(msg, sizeof msg, &at, "timed run failed: ");
      put(msg, sizeof msg, &at, c->fail_step ? c->fail_step : "operation");
      put(msg, sizeof msg, &at, ": ");
      put(msg, sizeof msg, &at, c->detail);
      mcore_wire_start(MWIRE_R(wferror));
      mcore_wire_u64(MWIRE_K(wferror, id), id);
      mcore_wire_str(MWIRE_K(wferror, msg), msg);
      mcore_wire_end();
      st->failed = 1;
      return 0;
    }
    if (s < warmup)
      continue;
    mcore_wire_start(MWIRE_R(wfsample));
    mcore_wire_u64(MWIRE_K(wfsample, id), id);
    mcore_wire_u64(MWIRE_K(wfsample, i), s - warmup);
    mcore_wire_u64_list(MWIRE_K(wfsample, v), ticks, n_dev);
    mcore_wire_end();
  }
  return 1;
}

/* After the runs: the controls, one run more for its memory, the wfend
 * record. */
static void end_step(run_state *st, const instance *in, uint32_t id, mwf_ctx *c,
                     uint32_t runs) {
  const mwf_def *d = in->def;
  uint32_t kdf_batch, mac_batch;
  uint64_t ctl_kdf = control(MCORE_ALG_HKDF_SHA256, &kdf_batch);
  uint64_t ctl_mac = control(MCORE_ALG_HMAC_SHA256, &mac_batch);
  mem_peak mem = {0, 0, 0};
  ctx_init(c, in, UINT32_MAX);
  if (d->setup(c, 0) != MCORE_OK || flow(c, NULL, &mem) != MCORE_OK) {
    mcore_wire_start(MWIRE_R(wferror));
    mcore_wire_u64(MWIRE_K(wferror, id), id);
    mcore_wire_str(MWIRE_K(wferror, msg), "the memory run failed");
    mcore_wire_end();
    st->failed = 1;
    return;
  }
  mcore_wire_start(MWIRE_R(wfend));
  mcore_wire_u64(MWIRE_K(wfend, id), id);
  mcore_wire_u64(MWIRE_K(wfend, n), runs);
  mcore_wire_u64(MWIRE_K(wfend, stack), mem.stack);
  mcore_wire_u64(MWIRE_K(wfend, heap), mem.heap);
  mcore_wire_u64(MWIRE_K(wfend, allocs), mem.allocs);
  if (kdf_batch) {
    mcore_wire_u64(MWIRE_K(wfend, ctl_hkdf), ctl_kdf);
    mcore_wire_u64(MWIRE_K(wfend, ctl_hkdf_batch), kdf_batch);
  }
  if (mac_batch) {
    mcore_wire_u64(MWIRE_K(wfend, ctl_hmac), ctl_mac);
    mcore_wire_u64(MWIRE_K(wfend, ctl_hmac_batch), mac_batch);
  }
  mcore_wire_end();
}

static void run_instance(const instance *in, uint32_t id, void *arg) {
  run_state *st = arg;
  mwf_ctx c;
  uint64_t once;
  if (!check_step(st, in, id, &c, &once))
    return;

  if (st->runs == 0) { /* --kat-only: correctness only */
    mcore_wire_start(MWIRE_R(wfend));
    mcore_wire_u64(MWIRE_K(wfend, id), id);
    mcore_wire_u64(MWIRE_K(wfend, n), 0);
    mcore_wire_end();
    return;
  }

  /* The budget counts the whole run, peer work included. */
  uint32_t warmup = st->warmup, runs = st->runs;
  uint64_t budget = mport_describe()->budget_ticks / MWF_BUDGET_DIV;
  if (budget && once * ((uint64_t)warmup + runs) > budget) {
    uint64_t fit = budget / once;
    warmup = warmup ? 1 : 0;
    runs =
        fit > warmup + MWF_MIN_RUNS ? (uint32_t)(fit - warmup) : MWF_MIN_RUNS;
    if (runs > st->runs)
      runs = st->runs;
  }
  mcore_wire_start(MWIRE_R(wfplan));
  mcore_wire_u64(MWIRE_K(wfplan, id), id);
  mcore_wire_u64(MWIRE_K(wfplan, warmup), warmup);
  mcore_wire_u64(MWIRE_K(wfplan, n), runs);
  mcore_wire_end();

  if (timed_runs(st, in, id, &c, warmup, runs))
    end_step(st, in, id, &c, runs);
}

int mwf_run_all(uint32_t runs, uint32_t warmup) {
  run_state st = {runs, warmup, 0};
  if (!msg_buf &&
      !(msg_buf = mcore_harness_malloc(MWF_MAX_MSGS * sizeof *msg_buf))) {
    mcore_wire_start(MWIRE_R(error));
    mcore_wire_str(MWIRE_K(error, id), "-");
    mcore_wire_str(MWIRE_K(error, msg),
                   "workflows: no heap for the message buffers");
    mcore_wire_end();
    return 1;
  }
  for_each(run_instance, &st);
  if (corrupt_wf[0] && !corrupt_hits) {
    mcore_wire_start(MWIRE_R(error));
    mcore_wire_str(MWIRE_K(error, id), "-");
    mcore_wire_str(MWIRE_K(error, msg),
                   "--wf-corrupt names no message a workflow of this "
                   "image sent (docs/workflows.md lists them)");
    mcore_wire_end();
    st.failed = 1;
  }
  return st.failed;
}
