/* SPDX-License-Identifier: Apache-2.0 */
/* results.json into the model: the reader (docs/results.md). The file may
 * be anything (it is fuzzed: tests/fuzz/fuzz_results.c), so every value is
 * checked before it is used. */
#include "model/control_json.h"
#include "model/ct_json.h"
#include "model/cycles_json.h"
#include "model/results_dir.h"
#include "model/results_json.h"

#include "model/ct.h"

#include "model/stats.h"
#include "model/workflow.h"
#include "util/fsutil.h"
#include "util/strbuf.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Largest results.json the reader accepts. */
#define MAX_JSON_BYTES ((size_t)1 << 30)

typedef struct {
  char *err;
  size_t errlen;
  char path[160]; /* where we are: "runs[0].ops[3]" */
} rctx;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int
rfail(rctx *c, const char *fmt, ...) {
  int w = snprintf(c->err, c->errlen, "%s%s", c->path, c->path[0] ? ": " : "");
  if (w >= 0 && (size_t)w < c->errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err + w, c->errlen - (size_t)w, fmt, ap);
    va_end(ap);
  }
  /* Quoted values come from the file: keep the message on one line. */
  for (char *p = c->err; *p; p++)
    if ((unsigned char)*p < 0x20)
      *p = '?';
  return -1;
}

static int get_string(rctx *c, json_t *obj, const char *key, int required,
                      char **out) {
  json_t *v = json_object_get(obj, key);
  *out = NULL;
  if (!v || json_is_null(v)) {
    if (required)
      return rfail(c, "missing \"%s\"", key);
    return 0;
  }
  if (!json_is_string(v))
    return rfail(c, "\"%s\": expected a string", key);
  *out = strdup(json_string_value(v));
  return *out ? 0 : rfail(c, "out of memory");
}

static int get_int(rctx *c, json_t *obj, const char *key, long long lo,
                   long long hi, long long *out) {
  json_t *v = json_object_get(obj, key);
  if (!v)
    return rfail(c, "missing \"%s\"", key);
  if (!json_is_integer(v))
    return rfail(c, "\"%s\": expected an integer", key);
  long long x = json_integer_value(v);
  if (x < lo || x > hi)
    return rfail(c, "\"%s\": %lld is out of range %lld..%lld", key, x, lo, hi);
  *out = x;
  return 0;
}

static int get_number(rctx *c, json_t *obj, const char *key, double *out) {
  json_t *v = json_object_get(obj, key);
  if (!v)
    return rfail(c, "missing \"%s\"", key);
  if (!json_is_number(v))
    return rfail(c, "\"%s\": expected a number", key);
  *out = json_number_value(v);
  if (!isfinite(*out))
    return rfail(c, "\"%s\": not a finite number", key);
  return 0;
}

static int add_prov(rctx *c, mh_run *run, const char *prefix, const char *key,
                    const char *value) {
  mh_kv *np = realloc(run->prov, (run->n_prov + 1) * sizeof *np);
  if (!np)
    return rfail(c, "out of memory");
  run->prov = np;
  size_t kl = strlen(prefix) + strlen(key) + 1;
  char *k = malloc(kl), *v = strdup(value);
  if (!k || !v) {
    free(k);
    free(v);
    return rfail(c, "out of memory");
  }
  snprintf(k, kl, "%s%s", prefix, key);
  run->prov[run->n_prov].key = k;
  run->prov[run->n_prov].value = v;
  run->n_prov++;
  return 0;
}

/* A provenance value of the JSON back into its text form. */
static int scalar_text(json_t *v, char *buf, size_t n, const char **out) {
  if (json_is_string(v)) {
    *out = json_string_value(v);
  } else if (json_is_integer(v)) {
    snprintf(buf, n, "%lld", (long long)json_integer_value(v));
    *out = buf;
  } else if (json_is_real(v)) {
    mh_sb b = {0};
    mh_sb_double(&b, json_real_value(v));
    snprintf(buf, n, "%s", b.s ? b.s : "");
    mh_sb_free(&b);
    *out = buf;
  } else if (json_is_boolean(v)) {
    *out = json_is_true(v) ? "true" : "false";
  } else {
    return -1;
  }
  return 0;
}

static int read_string_map(rctx *c, json_t *obj, const char *name,
                           const char *prefix, mh_run *run) {
  if (!json_is_object(obj))
    return rfail(c, "\"%s\": expected an object", name);
  const char *k;
  json_t *v;
  json_object_foreach(obj, k, v) {
    if (!json_is_string(v))
      return rfail(c, "\"%s\".\"%s\": expected a string", name, k);
    if (add_prov(c, run, prefix, k, json_string_value(v)) != 0)
      return -1;
  }
  return 0;
}

static int read_provenance(rctx *c, json_t *p, mh_result *x) {
  mh_run *run = &x->run;
  if (!json_is_object(p))
    return rfail(c, "\"provenance\": expected an object");
  double t2u = 0;
  long long shift = 0, overhead = 0;
  if (get_string(c, p, "unit", 1, &run->unit) != 0 ||
      get_number(c, p, "ticks_to_unit", &t2u) != 0 ||
      get_int(c, p, "icount_shift", -1, 63, &shift) != 0 ||
      get_int(c, p, "overhead_ticks", 0, LLONG_MAX, &overhead) != 0 ||
      get_string(c, p, "qemu_version", 0, &x->qemu_version) != 0 ||
      get_string(c, p, "host", 0, &x->host) != 0)
    return -1;
  if (!(t2u > 0))
    return rfail(c, "\"ticks_to_unit\": must be positive");
  char cerr[256];
  if (mh_cycles_read_prov(p, run, cerr, sizeof cerr) != 0)
    return rfail(c, "%s", cerr);
  run->ticks_to_unit = t2u;
  run->icount_shift = (int)shift;
  run->overhead_ticks = (uint64_t)overhead;
  const char *k;
  json_t *v;
  json_object_foreach(p, k, v) {
    if (strcmp(k, "libraries") == 0) {
      if (read_string_map(c, v, k, "lib.", run) != 0)
        return -1;
      continue;
    }
    if (strcmp(k, "routes") == 0) {
      if (read_string_map(c, v, k, "route.", run) != 0)
        return -1;
      continue;
    }
    if (strcmp(k, "nist_kat") == 0) {
      if (read_string_map(c, v, k, "nistkat.", run) != 0)
        return -1;
      continue;
    }
    static const char *const own[] = {
        "unit",         "ticks_to_unit", "icount_shift", "overhead_ticks",
        "qemu_version", "host",          "cycle_model"};
    int skip = 0;
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
      skip |= strcmp(k, own[i]) == 0;
    if (skip || json_is_null(v))
      continue;
    char buf[64];
    const char *text;
    if (scalar_text(v, buf, sizeof buf, &text) != 0)
      return rfail(c, "\"%s\": expected a string or a number", k);
    if (add_prov(c, run, "", strcmp(k, "counter_unit") == 0 ? "unit" : k,
                 text) != 0)
      return -1;
  }
  return 0;
}

/* The names, KAT verdict, unit, counts and payload of an operation. */
static int read_op_head(rctx *c, json_t *o, mh_op *op, const char *unit) {
  char *kat = NULL, *ounit = NULL;
  long long warmup = 0, n = 0, batch = 0;
  int rc = -1;
  if (get_string(c, o, "alg", 1, &op->alg) != 0 ||
      get_string(c, o, "op", 1, &op->op) != 0 ||
      get_string(c, o, "backend", 1, &op->backend) != 0 ||
      get_string(c, o, "variant", 0, &op->variant) != 0 ||
      get_string(c, o, "kat", 1, &kat) != 0 ||
      get_string(c, o, "unit", 1, &ounit) != 0 ||
      get_int(c, o, "warmup", 0, UINT32_MAX, &warmup) != 0 ||
      get_int(c, o, "n", 1, UINT32_MAX, &n) != 0 ||
      get_int(c, o, "batch", 1, UINT32_MAX, &batch) != 0)
    goto out;
  if (strcmp(kat, "pass") != 0) {
    rfail(c, "\"kat\": \"%s\": only operations that passed are recorded", kat);
    goto out;
  }
  if (strcmp(ounit, unit) != 0) {
    rfail(c, "\"unit\": \"%s\" differs from the run's unit \"%s\"", ounit,
          unit);
    goto out;
  }
  op->kat = MH_KAT_PASS;
  op->warmup = (uint32_t)warmup;
  op->n = (uint32_t)n;
  op->batch = (uint32_t)batch;
  json_t *b = json_object_get(o, "bytes");
  if (!b) {
    rfail(c, "missing \"bytes\"");
    goto out;
  } else if (json_is_null(b)) {
    op->bytes = -1;
  } else if (json_is_integer(b) && json_integer_value(b) >= 0 &&
             json_integer_value(b) <= LONG_MAX) {
    op->bytes = (long)json_integer_value(b);
  } else {
    rfail(c, "\"bytes\": expected null or a non-negative integer");
    goto out;
  }
  rc = 0;
out:
  free(kat);
  free(ounit);
  return rc;
}

/* The statistics, the memory figures and the repeat spread. */
static int read_op_figures(rctx *c, json_t *o, mh_op *op) {
  mh_stats *st = &op->stats;
  for (size_t k = 0; k < MH_N_STATS; k++)
    if (get_number(c, o, mh_stats_names[k], mh_stats_at(st, k)) != 0)
      return -1;
  /* Memory figures: written since they were measured; absent in results
   * of earlier versions. All three or none. */
  int nmem = !!json_object_get(o, "stack_bytes") +
             !!json_object_get(o, "heap_bytes") +
             !!json_object_get(o, "heap_allocs");
  if (nmem == 3) {
    long long sb, hb, ha;
    if (get_int(c, o, "stack_bytes", 0, LLONG_MAX, &sb) != 0 ||
        get_int(c, o, "heap_bytes", 0, LLONG_MAX, &hb) != 0 ||
        get_int(c, o, "heap_allocs", 0, LLONG_MAX, &ha) != 0)
      return -1;
    op->has_mem = 1;
    op->stack_bytes = (uint64_t)sb;
    op->heap_bytes = (uint64_t)hb;
    op->heap_allocs = (uint64_t)ha;
  } else if (nmem) {
    return rfail(c, "\"stack_bytes\", \"heap_bytes\" and \"heap_allocs\" "
                    "come together");
  }
  json_t *rp = json_object_get(o, "repeat");
  if (rp) {
    long long runs;
    if (!json_is_object(rp))
      return rfail(c, "\"repeat\": expected an object");
    if (get_int(c, rp, "runs", 1, 100, &runs) != 0 ||
        get_number(c, rp, "min_median", &op->repeat_min) != 0 ||
        get_number(c, rp, "max_median", &op->repeat_max) != 0)
      return -1;
    op->n_repeat = (uint32_t)runs;
  }
  return 0;
}

/* The constant-time verdict, when there is one. */
static int read_op_ct(rctx *c, json_t *o, mh_op *op) {
  json_t *ct = json_object_get(o, "ct");
  if (!ct)
    return 0;
  char *status = NULL;
  json_t *methods = json_object_get(ct, "method");
  if (!json_is_object(ct) || !json_is_array(methods))
    return rfail(c, "\"ct\": expected an object with a \"method\" array");
  if (get_string(c, ct, "status", 1, &status) != 0 ||
      get_string(c, ct, "detail", 1, &op->ct_detail) != 0) {
    free(status); /* read when only "detail" was wrong */
    return -1;
  }
  op->ct_status = -1;
  for (int k = MH_CT_UNCHECKED; k <= MH_CT_FINDING; k++)
    if (strcmp(status, mh_ct_status_name(k)) == 0)
      op->ct_status = k;
  free(status);
  if (op->ct_status < 0)
    return rfail(c, "\"ct\".\"status\": expected none, expected, finding or "
                    "unchecked");
  mh_sb m = {0};
  for (size_t k = 0; k < json_array_size(methods); k++) {
    const char *v = json_string_value(json_array_get(methods, k));
    if (!v) {
      mh_sb_free(&m);
      return rfail(c, "\"ct\".\"method\"[%zu]: expected a string", k);
    }
    if (k)
      mh_sb_putc(&m, ',');
    mh_sb_puts(&m, v);
  }
  op->ct_methods = m.s ? m.s : strdup("");
  op->ct_listed = json_is_true(json_object_get(ct, "listed"));
  op->has_ct_verdict = 1;
  char terr[256];
  if (mh_ct_trace_read(ct, op, terr, sizeof terr) != 0)
    return rfail(c, "%s", terr);
  return 0;
}

/* The samples: n of them, finite, none negative. */
static int read_op_samples(rctx *c, json_t *o, mh_op *op) {
  json_t *s = json_object_get(o, "samples");
  if (!json_is_array(s))
    return rfail(c, "\"samples\": expected an array");
  size_t ns = json_array_size(s);
  if (ns != op->n)
    return rfail(c, "\"samples\": %zu values but n is %u", ns, op->n);
  op->samples = malloc(ns * sizeof *op->samples);
  if (!op->samples)
    return rfail(c, "out of memory");
  for (size_t i = 0; i < ns; i++) {
    json_t *v = json_array_get(s, i);
    if (!json_is_number(v) || !isfinite(json_number_value(v)))
      return rfail(c, "\"samples\"[%zu]: expected a number", i);
    op->samples[i] = json_number_value(v);
    op->n_samples = i + 1;
    /* (raw - overhead) / batch with raw >= overhead (host/run/run.c). */
    if (op->samples[i] < 0)
      return rfail(c,
                   "\"samples\"[%zu]: %.17g is negative; a per-operation "
                   "value never is",
                   i, op->samples[i]);
  }
  return 0;
}

static int read_op(rctx *c, json_t *o, mh_op *op, const char *unit) {
  if (!json_is_object(o))
    return rfail(c, "expected an object");
  if (read_op_head(c, o, op, unit) != 0 || read_op_figures(c, o, op) != 0 ||
      read_op_ct(c, o, op) != 0 || read_op_samples(c, o, op) != 0)
    return -1;
  /* The statistics must be those the writer computed from these samples:
   * the same function (host/model/stats.c), up to another machine's rounding.
   */
  const mh_stats *st = &op->stats;
  size_t ns = op->n_samples;
  const char *bad = mh_stats_mismatch(op->samples, ns, st);
  if (bad) {
    mh_stats want = {0};
    mh_stats_compute(op->samples, ns, &want);
    return rfail(c,
                 "(%s %s) \"%s\": %.17g is not the %s of its %zu samples "
                 "(%.17g): the statistics were edited or the samples were",
                 op->alg, op->op, bad, mh_stats_field(st, bad), bad, ns,
                 mh_stats_field(&want, bad));
  }
  if (op->n_repeat && !(op->repeat_min >= 0 && op->repeat_min <= st->median &&
                        st->median <= op->repeat_max))
    return rfail(c,
                 "(%s %s) \"repeat\": min_median %.17g and max_median %.17g "
                 "must hold the median %.17g (0 <= min <= median <= max)",
                 op->alg, op->op, op->repeat_min, op->repeat_max, st->median);
  char cerr[256];
  if (mh_cycles_read_op(o, op, cerr, sizeof cerr) != 0)
    return rfail(c, "%s", cerr);
  return 0;
}

/* "sections" of an algorithm: library -> {text, data, bss}, each library
 * one of "libraries" (docs/results.md). Absent in older results. */
static int read_sections(rctx *c, json_t *secs, mh_alg_cost *a) {
  if (!secs)
    return 0;
  if (!json_is_object(secs))
    return rfail(c, "\"sections\": expected an object");
  const char *key;
  json_t *v;
  json_object_foreach(secs, key, v) {
    mh_lib_bytes *l = NULL;
    for (size_t k = 0; k < a->n_libs && !l; k++)
      if (strcmp(a->libs[k].library, key) == 0)
        l = &a->libs[k];
    if (!l)
      return rfail(c, "\"sections\".%s: not one of \"libraries\"", key);
    static const char *const part[] = {"text", "data", "bss"};
    uint64_t *to[] = {&l->text, &l->data, &l->bss};
    for (size_t p = 0; p < 3; p++) {
      json_t *x = json_is_object(v) ? json_object_get(v, part[p]) : NULL;
      if (!json_is_integer(x) || json_integer_value(x) < 0)
        return rfail(c, "\"sections\".%s.%s: expected a non-negative integer",
                     key, part[p]);
      *to[p] = (uint64_t)json_integer_value(x);
    }
    if (l->text + l->data != l->bytes)
      return rfail(c,
                   "\"sections\".%s: text + data must be the library's "
                   "flash bytes (%llu)",
                   key, (unsigned long long)l->bytes);
    l->has_sections = 1;
  }
  return 0;
}

/* "fits" of one algorithm: board -> true or the reason. */
static int read_fits(rctx *c, json_t *fits, mh_alg_cost *a) {
  if (!fits)
    return 0;
  if (!json_is_object(fits))
    return rfail(c, "\"fits\": expected an object");
  const char *key;
  json_t *v;
  json_object_foreach(fits, key, v) {
    int fit;
    const char *why = "";
    if (json_is_true(v)) {
      fit = 1;
    } else if (json_is_string(v)) {
      why = json_string_value(v);
      fit = strncmp(why, "not evaluated", 13) == 0 ? -1 : 0;
    } else {
      return rfail(c, "\"fits\".%s: expected true or a reason", key);
    }
    if (mh_alg_cost_add_fit(a, key, fit, why) != 0)
      return rfail(c, "out of memory");
  }
  return 0;
}

/* "implementations" (optional: runs with implementation folders). */
static int read_impls(rctx *c, json_t *arr, mh_result *x) {
  if (!arr)
    return 0;
  if (!json_is_array(arr))
    return rfail(c, "\"implementations\": expected an array");
  size_t base = strlen(c->path);
  for (size_t i = 0; i < json_array_size(arr); i++) {
    json_t *o = json_array_get(arr, i);
    mh_impl_rec r = {0};
    snprintf(c->path + base, sizeof c->path - base, ".implementations[%zu]", i);
    int rc = json_is_object(o) ? 0 : rfail(c, "expected an object");
#define IMPL_GET(f, req)                                                       \
  if (rc == 0)                                                                 \
    rc = get_string(c, o, #f, req, &r.f);
    MH_RESULTS_IMPL_FIELDS(IMPL_GET)
#undef IMPL_GET
    if (rc == 0 && mh_result_add_impl(x, &r) != 0)
      rc = rfail(c, "out of memory");
#define IMPL_FREE(f, req) free(r.f);
    MH_RESULTS_IMPL_FIELDS(IMPL_FREE)
#undef IMPL_FREE
    if (rc != 0)
      return -1;
  }
  c->path[base] = '\0';
  return 0;
}

/* "algorithms" (absent in results of earlier versions: rebuilt from the
 * ops, without object sizes). */
static int read_algorithms(rctx *c, json_t *arr, mh_result *x) {
  if (!arr)
    return mh_result_index_algs(x) == 0 ? 0 : rfail(c, "out of memory");
  if (!json_is_array(arr))
    return rfail(c, "\"algorithms\": expected an array");
  size_t n = json_array_size(arr), base = strlen(c->path);
  if (n && !(x->algs = calloc(n, sizeof *x->algs)))
    return rfail(c, "out of memory");
  for (size_t i = 0; i < n; i++) {
    mh_alg_cost *a = &x->algs[i];
    json_t *o = json_array_get(arr, i);
    x->n_algs = i + 1;
    snprintf(c->path + base, sizeof c->path - base, ".algorithms[%zu]", i);
    if (!json_is_object(o))
      return rfail(c, "expected an object");
    if (get_string(c, o, "alg", 1, &a->alg) != 0 ||
        get_string(c, o, "backend", 1, &a->backend) != 0 ||
        get_string(c, o, "variant", 0, &a->variant) != 0)
      return -1;
    json_t *objs = json_object_get(o, "object_bytes");
    if (objs && !json_is_object(objs))
      return rfail(c, "\"object_bytes\": expected an object");
    const char *key;
    json_t *v;
    char buf[256];
    size_t at = 0;
    buf[0] = '\0';
    json_object_foreach(objs, key, v) {
      if (!json_is_integer(v) || json_integer_value(v) < 0)
        return rfail(c,
                     "\"object_bytes\".%s: expected a non-negative "
                     "integer",
                     key);
      int k = snprintf(buf + at, sizeof buf - at, "%s%s:%lld", at ? "," : "",
                       key, (long long)json_integer_value(v));
      if (k < 0 || (size_t)k >= sizeof buf - at)
        return rfail(c, "\"object_bytes\": too many entries");
      at += (size_t)k;
    }
    if (at) {
      if (!mh_obj_valid(buf))
        return rfail(c, "\"object_bytes\": names must be lower-case letters");
      if (!(a->obj = strdup(buf)))
        return rfail(c, "out of memory");
    }
    if (read_fits(c, json_object_get(o, "fits"), a) != 0)
      return -1;
    json_t *fl = json_object_get(o, "flash_bytes");
    if (fl) {
      long long f, rm;
      if (get_int(c, o, "flash_bytes", LLONG_MIN, LLONG_MAX, &f) != 0 ||
          get_int(c, o, "ram_bytes", LLONG_MIN, LLONG_MAX, &rm) != 0)
        return -1;
      a->has_size = 1;
      a->flash_bytes = f;
      a->ram_bytes = rm;
      json_t *libs = json_object_get(o, "libraries");
      if (libs && !json_is_object(libs))
        return rfail(c, "\"libraries\": expected an object");
      size_t nl = libs ? json_object_size(libs) : 0;
      if (nl && !(a->libs = calloc(nl, sizeof *a->libs)))
        return rfail(c, "out of memory");
      json_object_foreach(libs, key, v) {
        if (!json_is_integer(v) || json_integer_value(v) < 0)
          return rfail(c, "\"libraries\".%s: expected a non-negative integer",
                       key);
        mh_lib_bytes *l = &a->libs[a->n_libs++];
        if (!(l->library = strdup(key)))
          return rfail(c, "out of memory");
        l->bytes = (uint64_t)json_integer_value(v);
      }
      if (read_sections(c, json_object_get(o, "sections"), a) != 0)
        return -1;
    }
  }
  c->path[base] = '\0';
  return 0;
}

/* "plan" (optional: results written before plans, or by --from). */
static int read_plan(rctx *c, json_t *v, mh_plan_ref *p) {
  long long jobs, shards, shard = -1;
  p->shard = -1;
  if (!v)
    return 0;
  if (!json_is_object(v))
    return rfail(c, "\"plan\": expected an object");
  if (get_string(c, v, "hash", 1, &p->hash) != 0 ||
      get_int(c, v, "jobs", 0, 1000000, &jobs) != 0 ||
      get_int(c, v, "shards", 1, 1000000, &shards) != 0 ||
      (json_object_get(v, "shard") &&
       get_int(c, v, "shard", 0, shards - 1, &shard) != 0))
    return -1;
  if (strlen(p->hash) != 64 || strspn(p->hash, "0123456789abcdef") != 64)
    return rfail(c, "\"plan\": \"hash\" is not a SHA-256 in hex");
  p->n_jobs = (size_t)jobs;
  p->shards = (unsigned)shards;
  p->shard = (long)shard;
  return 0;
}

static int read_run(rctx *c, json_t *r, mh_result *x) {
  if (!json_is_object(r))
    return rfail(c, "expected an object");
  long long job = -1;
  if (get_string(c, r, "target", 1, &x->target) != 0 ||
      get_string(c, r, "profile", 1, &x->profile) != 0 ||
      (json_object_get(r, "job") &&
       get_int(c, r, "job", 0, 1000000, &job) != 0))
    return -1;
  x->job = (long)job;
  if (!json_is_true(json_object_get(r, "valid")))
    return rfail(c, "\"valid\": the run is not marked valid");
  size_t base = strlen(c->path);
  if (read_provenance(c, json_object_get(r, "provenance"), x) != 0)
    return -1;
  json_t *ops = json_object_get(r, "ops");
  if (!json_is_array(ops))
    return rfail(c, "\"ops\": expected an array");
  size_t n = json_array_size(ops);
  if (n) {
    x->run.ops = calloc(n, sizeof *x->run.ops);
    if (!x->run.ops)
      return rfail(c, "out of memory");
  }
  for (size_t i = 0; i < n; i++) {
    mh_op *op = &x->run.ops[i];
    x->run.n_ops = i + 1;
    op->id = (int)(i < INT_MAX ? i : INT_MAX);
    snprintf(c->path + base, sizeof c->path - base, ".ops[%zu]", i);
    if (read_op(c, json_array_get(ops, i), op, x->run.unit) != 0)
      return -1;
  }
  size_t d0, d1;
  int dup = mh_run_dup_op(&x->run, &d0, &d1);
  if (dup < 0)
    return rfail(c, "out of memory");
  if (dup) {
    const mh_op *o = &x->run.ops[d1];
    char b[24] = "-";
    if (o->bytes >= 0)
      snprintf(b, sizeof b, "%ld", o->bytes);
    snprintf(c->path + base, sizeof c->path - base, ".ops[%zu]", d1);
    return rfail(c, "%s %s (%s %s, bytes %s) a second time (first in ops[%zu])",
                 o->alg, o->op, o->backend, o->variant ? o->variant : "", b,
                 d0);
  }
  c->path[base] = '\0';
  char wf_err[200];
  if (mh_wf_from_json(json_object_get(r, "workflows"), &x->run, wf_err,
                      sizeof wf_err) != 0)
    return rfail(c, "\"workflows\"%s", wf_err);
  if (mh_control_from_json(json_object_get(r, "control"), &x->run, wf_err,
                           sizeof wf_err) != 0)
    return rfail(c, "\"control\"%s", wf_err);
  x->run.status_ok = 1;
  json_t *sb = json_object_get(r, "sizes_baseline");
  if (sb) {
    long long f, rm;
    if (get_int(c, sb, "flash_bytes", 0, LLONG_MAX, &f) != 0 ||
        get_int(c, sb, "ram_bytes", 0, LLONG_MAX, &rm) != 0)
      return -1;
    x->has_baseline = 1;
    x->baseline_flash = f;
    x->baseline_ram = rm;
  }
  if (read_impls(c, json_object_get(r, "implementations"), x) != 0)
    return -1;
  return read_algorithms(c, json_object_get(r, "algorithms"), x);
}

int mh_results_from_json(const char *buf, size_t len, mh_results *r, char *err,
                         size_t errlen) {
  rctx c = {err, errlen, ""};
  memset(r, 0, sizeof *r);
  json_error_t je;
  json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
  if (!root) {
    snprintf(err, errlen, "not valid JSON: line %d column %d: %s", je.line,
             je.column, je.text);
    return -1;
  }
  int rc = -1;
  long long schema = 0;
  if (!json_is_object(root)) {
    rfail(&c, "expected a JSON object at the top");
    goto out;
  }
  if (get_int(&c, root, "schema", LLONG_MIN, LLONG_MAX, &schema) != 0)
    goto out;
  if (schema != MH_RESULTS_SCHEMA) {
    rfail(&c, "schema %lld is not supported (this merlin reads schema %d)",
          schema, MH_RESULTS_SCHEMA);
    goto out;
  }
  if (get_string(&c, root, "merlin", 0, &r->merlin) != 0 ||
      get_string(&c, root, "created", 0, &r->created) != 0 ||
      read_plan(&c, json_object_get(root, "plan"), &r->plan) != 0)
    goto out;
  json_t *runs = json_object_get(root, "runs");
  if (!json_is_array(runs)) {
    rfail(&c, "\"runs\": expected an array");
    goto out;
  }
  size_t n = json_array_size(runs);
  if (n) {
    r->runs = calloc(n, sizeof *r->runs);
    if (!r->runs) {
      rfail(&c, "out of memory");
      goto out;
    }
  }
  for (size_t i = 0; i < n; i++) {
    r->n_runs = i + 1;
    snprintf(c.path, sizeof c.path, "runs[%zu]", i);
    if (read_run(&c, json_array_get(runs, i), &r->runs[i]) != 0)
      goto out;
  }
  rc = 0;
out:
  json_decref(root);
  if (rc != 0)
    mh_results_free(r);
  return rc;
}

/* path into r: read with mh_read_regular when nofollow. */
static int load(const char *path, int nofollow, mh_results *r, char *err,
                size_t errlen) {
  char *buf;
  size_t len;
  memset(r, 0, sizeof *r);
  if ((nofollow ? mh_read_regular : mh_read_file)(path, MAX_JSON_BYTES, &buf,
                                                  &len, err, errlen) != 0)
    return -1;
  char inner[768];
  int rc = mh_results_from_json(buf, len, r, inner, sizeof inner);
  if (rc != 0)
    snprintf(err, errlen, "%s: %s", path, inner);
  free(buf);
  return rc;
}

int mh_results_load(const char *path, mh_results *r, char *err, size_t errlen) {
  return load(path, 0, r, err, errlen);
}

int mh_results_load_regular(const char *path, mh_results *r, char *err,
                            size_t errlen) {
  return load(path, 1, r, err, errlen);
}

int mh_results_load_from(const char *arg, mh_results *r, char **dir, char *err,
                         size_t errlen) {
  char *d, *json;
  int nofollow;
  memset(r, 0, sizeof *r);
  if (dir)
    *dir = NULL;
  if (mh_rdir_locate(arg, &d, &json, &nofollow, err, errlen) != 0)
    return -1;
  int rc = load(json, nofollow, r, err, errlen);
  if (rc == 0 && dir)
    *dir = d;
  else
    free(d);
  free(json);
  return rc;
}

int mh_results_load_arg(const char *arg, mh_results *r, char *err,
                        size_t errlen) {
  return mh_results_load_from(arg, r, NULL, err, errlen);
}
