/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The workflow records of the wire (docs/wire-format.md: wf, wfcheck,
 * wfplan, wfsample, wfend, wferror), as strict as the operation records:
 * fixed schemas, announced ids, samples in order and of the announced
 * width, message counts that match the announcement, and an end for every
 * workflow that passed its check. Fields arrive decoded from host/wire/wire.c.
 */
#include "model/workflow.h"

#include "model/stats.h"
#include "wire/wire_def.h"

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WF_MAX 10000u
#define WF_MAX_STEPS 32u
#define WF_MAX_SAMPLES 1000000u

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int
bad(char *msg, size_t len, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, len, fmt, ap);
  va_end(ap);
  return -1;
}

/* Fields of a record against wire.def: out[k] is the value of its field k
 * (MH_WIRE_K) or NULL; nothing undeclared, every required field there. */
static int schema(int rec, const mh_kv *f, size_t n, const char **out,
                  char *msg, size_t len) {
  const char *type = mh_wire_records[rec].name;
  const mh_wire_field *d = &mh_wire_fields[mh_wire_records[rec].first];
  size_t n_names = mh_wire_nfields(rec);
  for (size_t k = 0; k < n_names; k++)
    out[k] = NULL;
  for (size_t i = 0; i < n; i++) {
    size_t k = 0;
    while (k < n_names && strcmp(f[i].key, d[k].key) != 0)
      k++;
    if (k == n_names)
      return bad(msg, len, "unknown field '%s' in %s record", f[i].key, type);
    out[k] = f[i].value;
  }
  for (size_t k = 0; k < n_names; k++)
    if (d[k].required == MWIRE_REQ && !out[k])
      return bad(msg, len, "%s record is missing required field '%s'", type,
                 d[k].key);
  return 0;
}

/* The key of field k of record rec (for messages). */
static const char *key(int rec, int k) {
  return mh_wire_fields[mh_wire_records[rec].first + (size_t)k].key;
}

static int dec(const char *s, uint64_t max, uint64_t *out) {
  uint64_t v = 0;
  if (!*s)
    return -1;
  for (; *s; s++) {
    if (*s < '0' || *s > '9')
      return -1;
    unsigned d = (unsigned)(*s - '0');
    if (v > (max - d) / 10)
      return -1;
    v = v * 10 + d;
  }
  *out = v;
  return 0;
}

static int num(const char *type, const char *key, const char *s, uint64_t max,
               uint64_t *out, char *msg, size_t len) {
  if (dec(s, max, out) != 0)
    return bad(msg, len,
               "field '%s' of %s record is not a decimal number up to %" PRIu64
               ": '%.40s'",
               key, type, max, s);
  return 0;
}

/* A comma separated list of decimal numbers: exactly want of them. */
static int num_list(const char *type, const char *key, const char *s,
                    size_t want, uint64_t max, uint64_t *out, char *msg,
                    size_t len) {
  size_t n = 0;
  const char *p = s;
  for (;;) {
    const char *comma = strchr(p, ',');
    size_t l = comma ? (size_t)(comma - p) : strlen(p);
    char buf[24];
    if (l == 0 || l >= sizeof buf || n == want)
      return bad(msg, len,
                 "field '%s' of %s record: expected %zu comma separated "
                 "numbers, got '%.60s'",
                 key, type, want, s);
    memcpy(buf, p, l);
    buf[l] = '\0';
    if (num(type, key, buf, max, &out[n], msg, len) != 0)
      return -1;
    n++;
    if (!comma)
      break;
    p = comma + 1;
  }
  if (n != want)
    return bad(msg, len, "field '%s' of %s record has %zu values, expected %zu",
               key, type, n, want);
  return 0;
}

static char *dup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d)
    memcpy(d, s, n);
  return d;
}

/* A workflow or variant name; with backend set, a '+'-joined list of
 * backends, which may name implementation folders ("impl:<scheme>/<impl>",
 * docs/bring-your-own.md), so ':', '/' and '.' are allowed there too. */
static int valid_name(const char *s, int backend) {
  if (!*s)
    return 0;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_' ||
          *s == '-' || *s == '+' ||
          (backend && (*s == ':' || *s == '/' || *s == '.'))))
      return 0;
  return 1;
}

static mh_wf *find(mh_run *run, const char *id, const char *type, char *msg,
                   size_t len) {
  uint64_t v;
  if (dec(id, INT_MAX, &v) != 0) {
    bad(msg, len, "%s record has a malformed id '%.20s'", type, id);
    return NULL;
  }
  for (size_t i = 0; i < run->n_wfs; i++)
    if (run->wfs[i].id == (int)v)
      return &run->wfs[i];
  bad(msg, len, "%s record names workflow id %" PRIu64 ", never announced",
      type, v);
  return NULL;
}

static int rec_wf(mh_run *run, const mh_kv *f, size_t n, char *msg,
                  size_t len) {
  const char *v[MH_WIRE_MAX_FIELDS];
  uint64_t id;
  if (schema(MH_WIRE_R_wf, f, n, v, msg, len) != 0 ||
      num("wf", "id", v[MH_WIRE_K(wf, id)], INT_MAX, &id, msg, len) != 0)
    return -1;
  for (size_t i = 0; i < run->n_wfs; i++)
    if (run->wfs[i].id == (int)id)
      return bad(msg, len, "workflow id %" PRIu64 " announced twice", id);
  if (run->n_wfs >= WF_MAX)
    return bad(msg, len, "more than %u workflows", WF_MAX);
  for (int k = 1; k <= 3; k++)
    if (!valid_name(v[k], k == MH_WIRE_K(wf, backend)))
      return bad(msg, len, "wf record: malformed %s '%.40s'",
                 key(MH_WIRE_R_wf, k), v[k]);
  mh_wf *grown = realloc(run->wfs, (run->n_wfs + 1) * sizeof *grown);
  if (!grown)
    return bad(msg, len, "out of memory");
  run->wfs = grown;
  mh_wf *w = &run->wfs[run->n_wfs++];
  memset(w, 0, sizeof *w);
  w->id = (int)id;
  w->workflow = dup(v[MH_WIRE_K(wf, workflow)]);
  w->variant = dup(v[MH_WIRE_K(wf, variant)]);
  w->backend = dup(v[MH_WIRE_K(wf, backend)]);
  w->algs = dup(v[MH_WIRE_K(wf, algs)]);
  if (!w->workflow || !w->variant || !w->backend || !w->algs)
    return bad(msg, len, "out of memory");
  /* steps=a,b,c */
  for (const char *p = v[MH_WIRE_K(wf, steps)]; *p;) {
    const char *comma = strchr(p, ',');
    size_t l = comma ? (size_t)(comma - p) : strlen(p);
    if (w->n_steps >= WF_MAX_STEPS || l == 0 || l > 32)
      return bad(msg, len, "wf record %d: malformed steps '%.60s'", w->id,
                 v[MH_WIRE_K(wf, steps)]);
    char **s = realloc(w->steps, (w->n_steps + 1) * sizeof *s);
    if (!s)
      return bad(msg, len, "out of memory");
    w->steps = s;
    if (!(s[w->n_steps] = malloc(l + 1)))
      return bad(msg, len, "out of memory");
    memcpy(s[w->n_steps], p, l);
    s[w->n_steps++][l] = '\0';
    if (!valid_name(s[w->n_steps - 1], 0))
      return bad(msg, len, "wf record %d: malformed step name", w->id);
    p = comma ? comma + 1 : p + l;
  }
  /* msgs=name:tx,name:rx */
  for (const char *p = v[MH_WIRE_K(wf, msgs)]; *p;) {
    const char *comma = strchr(p, ',');
    size_t l = comma ? (size_t)(comma - p) : strlen(p);
    const char *colon = memchr(p, ':', l);
    if (w->n_msgs >= WF_MAX_STEPS || !colon || colon == p || l > 48 ||
        (l - (size_t)(colon - p) != 3) ||
        (memcmp(colon, ":tx", 3) != 0 && memcmp(colon, ":rx", 3) != 0))
      return bad(msg, len,
                 "wf record %d: malformed msgs '%.60s' (expected "
                 "name:tx|rx,...)",
                 w->id, v[MH_WIRE_K(wf, msgs)]);
    mh_wf_msg *m = realloc(w->msgs, (w->n_msgs + 1) * sizeof *m);
    if (!m)
      return bad(msg, len, "out of memory");
    w->msgs = m;
    mh_wf_msg *x = &m[w->n_msgs++];
    memset(x, 0, sizeof *x);
    size_t nl = (size_t)(colon - p);
    if (!(x->name = malloc(nl + 1)))
      return bad(msg, len, "out of memory");
    memcpy(x->name, p, nl);
    x->name[nl] = '\0';
    x->tx = colon[1] == 't';
    if (!valid_name(x->name, 0))
      return bad(msg, len, "wf record %d: malformed message name", w->id);
    p = comma ? comma + 1 : p + l;
  }
  if (!w->n_steps || !w->n_msgs)
    return bad(msg, len, "wf record %d announces no steps or no messages",
               w->id);
  return 0;
}

static int rec_check(mh_run *run, const mh_kv *f, size_t n, char *msg,
                     size_t len) {
  const char *v[MH_WIRE_MAX_FIELDS];
  if (schema(MH_WIRE_R_wfcheck, f, n, v, msg, len) != 0)
    return -1;
  mh_wf *w = find(run, v[MH_WIRE_K(wfcheck, id)], "wfcheck", msg, len);
  if (!w)
    return -1;
  if (w->check)
    return bad(msg, len, "second wfcheck record for workflow %d", w->id);
  if (strcmp(v[MH_WIRE_K(wfcheck, result)], "pass") == 0) {
    if (!v[MH_WIRE_K(wfcheck, msgs)] || !v[MH_WIRE_K(wfcheck, stored)] ||
        v[MH_WIRE_K(wfcheck, step)] || v[MH_WIRE_K(wfcheck, detail)])
      return bad(msg, len,
                 "wfcheck record for workflow %d: a pass carries msgs and "
                 "stored, and no step or detail",
                 w->id);
    uint64_t b[WF_MAX_STEPS];
    if (num_list("wfcheck", "msgs", v[MH_WIRE_K(wfcheck, msgs)], w->n_msgs,
                 UINT32_MAX, b, msg, len) != 0 ||
        num("wfcheck", "stored", v[MH_WIRE_K(wfcheck, stored)], UINT32_MAX,
            &w->stored, msg, len) != 0)
      return -1;
    for (size_t k = 0; k < w->n_msgs; k++) {
      if (b[k] == 0)
        return bad(msg, len, "workflow %d: message %s has 0 bytes", w->id,
                   w->msgs[k].name);
      w->msgs[k].bytes = b[k];
    }
    w->check = 1;
  } else if (strcmp(v[MH_WIRE_K(wfcheck, result)], "fail") == 0) {
    if (!v[MH_WIRE_K(wfcheck, step)] || !v[MH_WIRE_K(wfcheck, detail)] ||
        v[MH_WIRE_K(wfcheck, msgs)] || v[MH_WIRE_K(wfcheck, stored)])
      return bad(msg, len,
                 "wfcheck record for workflow %d: a failure carries step "
                 "and detail only",
                 w->id);
    if (!(w->fail_step = dup(v[MH_WIRE_K(wfcheck, step)])) ||
        !(w->fail_detail = dup(v[MH_WIRE_K(wfcheck, detail)])))
      return bad(msg, len, "out of memory");
    w->check = -1;
  } else {
    return bad(msg, len,
               "wfcheck record says result=%.20s, expected pass or "
               "fail",
               v[MH_WIRE_K(wfcheck, result)]);
  }
  return 0;
}

static int rec_plan(mh_run *run, const mh_kv *f, size_t n, char *msg,
                    size_t len) {
  const char *v[MH_WIRE_MAX_FIELDS];
  uint64_t warmup, cnt;
  if (schema(MH_WIRE_R_wfplan, f, n, v, msg, len) != 0)
    return -1;
  mh_wf *w = find(run, v[MH_WIRE_K(wfplan, id)], "wfplan", msg, len);
  if (!w)
    return -1;
  if (w->check != 1 || w->has_plan || w->ended || run->kat_only)
    return bad(msg, len,
               "wfplan record for workflow %d out of place (needs a passed "
               "check, one plan, a timed run)",
               w->id);
  if (num("wfplan", "warmup", v[MH_WIRE_K(wfplan, warmup)], UINT32_MAX, &warmup,
          msg, len) != 0 ||
      num("wfplan", "n", v[MH_WIRE_K(wfplan, n)], WF_MAX_SAMPLES, &cnt, msg,
          len) != 0)
    return -1;
  if (cnt == 0)
    return bad(msg, len, "wfplan record for workflow %d says n=0", w->id);
  w->warmup = (uint32_t)warmup;
  w->n = (uint32_t)cnt;
  w->raw = calloc(cnt * w->n_steps, sizeof *w->raw);
  if (!w->raw)
    return bad(msg, len, "out of memory");
  w->has_plan = 1;
  return 0;
}

static int rec_sample(mh_run *run, const mh_kv *f, size_t n, char *msg,
                      size_t len) {
  const char *v[MH_WIRE_MAX_FIELDS];
  uint64_t i;
  if (schema(MH_WIRE_R_wfsample, f, n, v, msg, len) != 0)
    return -1;
  mh_wf *w = find(run, v[MH_WIRE_K(wfsample, id)], "wfsample", msg, len);
  if (!w)
    return -1;
  if (!w->has_plan || w->ended)
    return bad(msg, len, "wfsample record for workflow %d outside its plan",
               w->id);
  if (num("wfsample", "i", v[MH_WIRE_K(wfsample, i)], UINT32_MAX, &i, msg,
          len) != 0)
    return -1;
  if (i != w->n_raw || i >= w->n)
    return bad(msg, len,
               "wfsample record for workflow %d: sample %" PRIu64
               ", expected %zu of %" PRIu32,
               w->id, i, w->n_raw, w->n);
  uint64_t *raw = &w->raw[w->n_raw * w->n_steps];
  if (num_list("wfsample", "v", v[MH_WIRE_K(wfsample, v)], w->n_steps,
               UINT64_MAX, raw, msg, len) != 0)
    return -1;
  /* As for op samples (overhead_ticks is 0 until the overhead record). */
  for (size_t k = 0; k < w->n_steps; k++)
    if (raw[k] < run->overhead_ticks)
      return bad(msg, len,
                 "wfsample record for workflow %d: step %zu (%" PRIu64
                 " ticks) is below the counter overhead %" PRIu64,
                 w->id, k, raw[k], run->overhead_ticks);
  w->n_raw++;
  return 0;
}

static int rec_end(mh_run *run, const mh_kv *f, size_t n, char *msg,
                   size_t len) {
  const char *v[MH_WIRE_MAX_FIELDS];
  uint64_t cnt;
  if (schema(MH_WIRE_R_wfend, f, n, v, msg, len) != 0)
    return -1;
  mh_wf *w = find(run, v[MH_WIRE_K(wfend, id)], "wfend", msg, len);
  if (!w)
    return -1;
  if (w->check != 1 || w->ended)
    return bad(msg, len,
               "wfend record for workflow %d without a passed check, or "
               "twice",
               w->id);
  if (num("wfend", "n", v[MH_WIRE_K(wfend, n)], WF_MAX_SAMPLES, &cnt, msg,
          len) != 0)
    return -1;
  if (cnt != w->n_raw || (w->has_plan && cnt != w->n))
    return bad(msg, len,
               "wfend record for workflow %d says n=%" PRIu64
               " but %zu sample(s) were received",
               w->id, cnt, w->n_raw);
  int any = v[MH_WIRE_K(wfend, stack)] || v[MH_WIRE_K(wfend, heap)] ||
            v[MH_WIRE_K(wfend, allocs)];
  if (any != w->has_plan ||
      (any && !(v[MH_WIRE_K(wfend, stack)] && v[MH_WIRE_K(wfend, heap)] &&
                v[MH_WIRE_K(wfend, allocs)])))
    return bad(msg, len,
               "wfend record for workflow %d: a timed workflow ends with "
               "stack, heap and allocs, an untimed one without",
               w->id);
  if (any && (num("wfend", "stack", v[MH_WIRE_K(wfend, stack)], MH_COUNT_MAX,
                  &w->stack_bytes, msg, len) ||
              num("wfend", "heap", v[MH_WIRE_K(wfend, heap)], MH_COUNT_MAX,
                  &w->heap_bytes, msg, len) ||
              num("wfend", "allocs", v[MH_WIRE_K(wfend, allocs)], MH_COUNT_MAX,
                  &w->heap_allocs, msg, len)))
    return -1;
  for (int k = 0; k < 2; k++) {
    /* ctl_hkdf, ctl_hkdf_batch, then the same for hmac (wire.def). */
    int c = MH_WIRE_K(wfend, ctl_hkdf) + 2 * k;
    const char *ck = key(MH_WIRE_R_wfend, c), *bk = key(MH_WIRE_R_wfend, c + 1);
    if (v[c] && !any)
      return bad(msg, len,
                 "wfend record for workflow %d: a control figure "
                 "without a timed run",
                 w->id);
    if (!v[c] != !v[c + 1])
      return bad(msg, len,
                 "wfend record for workflow %d: %s and %s come together", w->id,
                 ck, bk);
    uint64_t batch = 0;
    if (v[c] &&
        (num("wfend", ck, v[c], UINT64_MAX, &w->ctl_raw[k], msg, len) != 0 ||
         num("wfend", bk, v[c + 1], UINT32_MAX, &batch, msg, len) != 0))
      return -1;
    if (v[c] && w->ctl_raw[k] < run->overhead_ticks)
      return bad(msg, len,
                 "wfend record for workflow %d: %s=%" PRIu64
                 " is below the counter overhead %" PRIu64,
                 w->id, ck, w->ctl_raw[k], run->overhead_ticks);
    if (v[c] && batch == 0)
      return bad(msg, len, "wfend record for workflow %d: %s is 0", w->id, bk);
    w->ctl_batch[k] = (uint32_t)batch;
    w->has_ctl[k] = v[c] != NULL;
  }
  w->has_mem = any;
  w->ended = 1;
  return 0;
}

static int rec_error(mh_run *run, const mh_kv *f, size_t n, char *msg,
                     size_t len) {
  const char *v[MH_WIRE_MAX_FIELDS];
  if (schema(MH_WIRE_R_wferror, f, n, v, msg, len) != 0)
    return -1;
  mh_wf *w = find(run, v[MH_WIRE_K(wferror, id)], "wferror", msg, len);
  if (!w)
    return -1;
  if (w->ended)
    return bad(msg, len, "wferror record for workflow %d after its end", w->id);
  if (!w->error_msg && !(w->error_msg = dup(v[MH_WIRE_K(wferror, msg)])))
    return bad(msg, len, "out of memory");
  return 0;
}

int mh_wire_wf_record(mh_run *run, const char *type, const mh_kv *f, size_t n,
                      char *msg, size_t len) {
  if (strcmp(type, "wf") == 0)
    return rec_wf(run, f, n, msg, len);
  if (strcmp(type, "wfcheck") == 0)
    return rec_check(run, f, n, msg, len);
  if (strcmp(type, "wfplan") == 0)
    return rec_plan(run, f, n, msg, len);
  if (strcmp(type, "wfsample") == 0)
    return rec_sample(run, f, n, msg, len);
  if (strcmp(type, "wfend") == 0)
    return rec_end(run, f, n, msg, len);
  if (strcmp(type, "wferror") == 0)
    return rec_error(run, f, n, msg, len);
  return bad(msg, len, "unknown workflow record type '%s'", type);
}

int mh_wire_wf_complete(const mh_run *run, char *msg, size_t len) {
  for (size_t i = 0; i < run->n_wfs; i++) {
    const mh_wf *w = &run->wfs[i];
    if (w->check == 1 && !w->ended && !w->error_msg)
      return bad(msg, len,
                 "end record, but workflow %d (%s %s) passed its check and "
                 "never ended",
                 w->id, w->workflow, w->variant);
  }
  return 0;
}

/* ---- totals and statistics ------------------------------------------- */

static int timed(const mh_wf *w) {
  return w->check == 1 && w->ended && !w->error_msg && w->n_raw > 0 && w->raw;
}

int mh_wf_finish(mh_run *run,
                 double (*value)(uint64_t raw, uint64_t overhead,
                                 double ticks_to_unit, int integer_unit),
                 double ticks_to_unit, int integer_unit, char *msg,
                 size_t len) {
  for (size_t i = 0; i < run->n_wfs; i++) {
    mh_wf *w = &run->wfs[i];
    if (!timed(w))
      continue;
    for (int k = 0; k < 2; k++)
      if (w->has_ctl[k]) {
        if (w->ctl_raw[k] < run->overhead_ticks)
          return bad(msg, len,
                     "workflow %d: a control figure is below the "
                     "counter overhead",
                     w->id);
        w->ctl[k] = value(w->ctl_raw[k], run->overhead_ticks, ticks_to_unit,
                          integer_unit) /
                    w->ctl_batch[k];
      }
    for (size_t k = 0; k < w->n_raw * w->n_steps; k++)
      if (w->raw[k] < run->overhead_ticks)
        return bad(msg, len,
                   "workflow %d (%s %s): a step of %" PRIu64
                   " ticks is below the counter overhead",
                   w->id, w->workflow, w->variant, w->raw[k]);
    free(w->samples);
    free(w->step_median);
    w->samples = calloc(w->n_raw, sizeof *w->samples);
    w->step_median = calloc(w->n_steps, sizeof *w->step_median);
    double *col = calloc(w->n_raw, sizeof *col);
    if (!w->samples || !w->step_median || !col) {
      free(col);
      return bad(msg, len, "out of memory");
    }
    for (size_t s = 0; s < w->n_steps; s++) {
      for (size_t k = 0; k < w->n_raw; k++) {
        col[k] = value(w->raw[k * w->n_steps + s], run->overhead_ticks,
                       ticks_to_unit, integer_unit);
        w->samples[k] += col[k];
      }
      w->step_median[s] = mh_percentile(col, w->n_raw, 0.5);
    }
    free(col);
    w->n_samples = w->n_raw;
    if (mh_stats_compute(w->samples, w->n_samples, &w->stats) != 0)
      return bad(msg, len, "workflow %d: statistics failed", w->id);
  }
  return 0;
}
