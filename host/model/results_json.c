/* SPDX-License-Identifier: Apache-2.0 */
#include "model/results_json.h"
#include "model/control_json.h"
#include "model/ct_json.h"
#include "model/cycles_json.h"

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

#define SCHEMA 1
/* Largest results.json the reader accepts. */
#define MAX_JSON_BYTES ((size_t)1 << 30)

/* ---- writer ---------------------------------------------------------- */

typedef struct {
  int bad;
  char *err;
  size_t errlen;
} wctx;

static void put(wctx *w, json_t *obj, const char *key, json_t *v) {
  if (!v) {
    if (!w->bad)
      snprintf(w->err, w->errlen, "%s: value cannot be written as JSON", key);
    w->bad = 1;
    return;
  }
  if (json_object_set_new(obj, key, v) != 0) {
    if (!w->bad)
      snprintf(w->err, w->errlen, "%s: cannot add to JSON object", key);
    w->bad = 1;
  }
}

/* A begin value that is a plain decimal number becomes one; else a
 * string (so "0x10", " 7" or "007" stay text). */
static json_t *number_or_string(const char *s) {
  if (!s)
    return json_null();
  size_t n = strlen(s), digits = strspn(s + (s[0] == '-'), "0123456789");
  int lead0 = s[s[0] == '-'] == '0' && digits > 1;
  if (n && digits && !lead0 && digits + (s[0] == '-') == n) {
    errno = 0;
    long long ll = strtoll(s, NULL, 10);
    if (!errno)
      return json_integer(ll);
  }
  if (n && digits && !lead0 && strspn(s, "0123456789-.eE+") == n) {
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (!errno && !*end && isfinite(d))
      return json_real(d);
  }
  return json_string(s);
}

/* Every unsigned count goes through here: a JSON integer of jansson
 * (json_int_t) or nothing. The wire reader caps counts at MH_COUNT_MAX, so
 * a larger one is a bug; it fails the write rather than wrapping. */
_Static_assert(sizeof(json_int_t) >= sizeof(int64_t),
               "results.json counts need a 64-bit json_int_t");
static json_t *count_json(wctx *w, const char *key, uint64_t v) {
  if (v <= (uint64_t)MH_COUNT_MAX)
    return json_integer((json_int_t)v);
  if (!w->bad)
    snprintf(w->err, w->errlen,
             "%s: %llu is larger than a results.json count can be", key,
             (unsigned long long)v);
  w->bad = 1;
  return NULL;
}

/* Begin keys the writer places itself (or drops: v is the wire version). */
static int begin_key_handled(const char *k) {
  static const char *const keys[] = {
      "v",       "target", "profile",    "core",     "clock_hz",
      "counter", "unit",   "counter_hz", "compiler", "cflags",
      "source",  "runs",   "warmup"};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
    if (strcmp(k, keys[i]) == 0)
      return 1;
  return strncmp(k, "lib.", 4) == 0 || strncmp(k, "route.", 6) == 0 ||
         strncmp(k, "nistkat.", 8) == 0;
}

/* The run's implementation folders (docs/bring-your-own.md). */
#define IMPL_FIELDS(X)                                                         \
  X(backend, 1)                                                                \
  X(alg, 1)                                                                    \
  X(path, 1)                                                                   \
  X(sha256, 1)                                                                 \
  X(hash, 1)                                                                   \
  X(kat_reference, 0)                                                          \
  X(left_out, 0)                                                               \
  X(compiler_workaround, 0)                                                    \
  X(common, 0)

static json_t *impls_json(wctx *w, const mh_result *x) {
  json_t *a = json_array();
  for (size_t i = 0; a && i < x->n_impls; i++) {
    const mh_impl_rec *r = &x->impls[i];
    json_t *o = json_object();
#define IMPL_PUT(f, req)                                                       \
  if (r->f)                                                                    \
    put(w, o, #f, json_string(r->f));
    IMPL_FIELDS(IMPL_PUT)
#undef IMPL_PUT
    if (!o || json_array_append_new(a, o) != 0)
      w->bad = 1;
  }
  if (!a)
    w->bad = 1;
  return a;
}

static json_t *provenance_json(wctx *w, const mh_result *x) {
  const mh_run *run = &x->run;
  json_t *p = json_object(), *libs = json_object(), *routes = json_object(),
         *kats = json_object();
  if (!p || !libs || !routes || !kats) {
    json_decref(p);
    json_decref(libs);
    json_decref(routes);
    json_decref(kats);
    w->bad = 1;
    snprintf(w->err, w->errlen, "out of memory");
    return NULL;
  }
  const char *s;
  put(w, p, "core", json_string((s = mh_run_prov(run, "core")) ? s : ""));
  put(w, p, "clock_hz", number_or_string(mh_run_prov(run, "clock_hz")));
  put(w, p, "counter", json_string((s = mh_run_prov(run, "counter")) ? s : ""));
  put(w, p, "unit", json_string(run->unit ? run->unit : ""));
  put(w, p, "counter_unit",
      json_string((s = mh_run_prov(run, "unit")) ? s : ""));
  put(w, p, "counter_hz", number_or_string(mh_run_prov(run, "counter_hz")));
  put(w, p, "compiler",
      json_string((s = mh_run_prov(run, "compiler")) ? s : ""));
  put(w, p, "cflags", json_string((s = mh_run_prov(run, "cflags")) ? s : ""));
  for (size_t i = 0; i < run->n_prov; i++) {
    const mh_kv *kv = &run->prov[i];
    if (strncmp(kv->key, "lib.", 4) == 0)
      put(w, libs, kv->key + 4, json_string(kv->value));
    else if (strncmp(kv->key, "route.", 6) == 0)
      put(w, routes, kv->key + 6, json_string(kv->value));
    else if (strncmp(kv->key, "nistkat.", 8) == 0)
      put(w, kats, kv->key + 8, json_string(kv->value));
  }
  put(w, p, "libraries", libs);
  put(w, p, "routes", routes);
  if (json_object_size(kats))
    put(w, p, "nist_kat", kats);
  else
    json_decref(kats);
  put(w, p, "source", json_string((s = mh_run_prov(run, "source")) ? s : ""));
  put(w, p, "runs", number_or_string(mh_run_prov(run, "runs")));
  put(w, p, "warmup", number_or_string(mh_run_prov(run, "warmup")));
  put(w, p, "overhead_ticks",
      count_json(w, "overhead_ticks", run->overhead_ticks));
  put(w, p, "icount_shift", json_integer(run->icount_shift));
  if (x->qemu_version)
    put(w, p, "qemu_version", json_string(x->qemu_version));
  put(w, p, "host", json_string(x->host ? x->host : ""));
  put(w, p, "ticks_to_unit", json_real(run->ticks_to_unit));
  /* Every other begin field, as a string; never over a field above. */
  for (size_t i = 0; i < run->n_prov; i++) {
    const mh_kv *kv = &run->prov[i];
    if (begin_key_handled(kv->key))
      continue;
    if (json_object_get(p, kv->key)) {
      mh_sb k = {0};
      mh_sb_printf(&k, "image.%s", kv->key);
      if (!k.failed && !json_object_get(p, k.s))
        put(w, p, k.s, json_string(kv->value));
      mh_sb_free(&k);
      continue;
    }
    put(w, p, kv->key, json_string(kv->value));
  }
  /* The image's own idea of target and profile, when it differs. */
  if ((s = mh_run_prov(run, "target")) && strcmp(s, x->target) != 0)
    put(w, p, "image_target", json_string(s));
  if ((s = mh_run_prov(run, "profile")) && strcmp(s, x->profile) != 0)
    put(w, p, "image_profile", json_string(s));
  if (!w->bad && mh_cycles_prov_json(p, run) != 0) {
    w->bad = 1;
    snprintf(w->err, w->errlen, "provenance: cycle model");
  }
  return p;
}

static const char *kat_str(mh_kat k) {
  return k == MH_KAT_PASS ? "pass" : k == MH_KAT_FAIL ? "fail" : "unknown";
}

static json_t *op_json(wctx *w, const mh_run *run, const mh_op *op) {
  json_t *o = json_object(), *samples = json_array();
  if (!o || !samples) {
    json_decref(o);
    json_decref(samples);
    w->bad = 1;
    snprintf(w->err, w->errlen, "out of memory");
    return NULL;
  }
  put(w, o, "alg", json_string(op->alg));
  put(w, o, "op", json_string(op->op));
  put(w, o, "bytes", op->bytes < 0 ? json_null() : json_integer(op->bytes));
  put(w, o, "backend", json_string(op->backend));
  put(w, o, "variant", json_string(op->variant ? op->variant : ""));
  put(w, o, "kat", json_string(kat_str(op->kat)));
  put(w, o, "warmup", json_integer(op->warmup));
  put(w, o, "n", json_integer(op->n));
  put(w, o, "batch", json_integer(op->batch));
  put(w, o, "unit", json_string(run->unit ? run->unit : ""));
  const mh_stats *st = &op->stats;
  for (size_t k = 0; k < MH_N_STATS; k++)
    put(w, o, mh_stats_names[k], json_real(mh_stats_get(st, k)));
  if (op->has_ct_verdict) {
    json_t *ct = json_object(), *methods = json_array();
    const char *m = op->ct_methods ? op->ct_methods : "";
    while (methods && *m) {
      size_t n = strcspn(m, ",");
      json_array_append_new(methods, json_stringn(m, n));
      m += n + (m[n] == ',');
    }
    put(w, ct, "status", json_string(mh_ct_status_name(op->ct_status)));
    put(w, ct, "method", methods);
    put(w, ct, "detail", json_string(op->ct_detail ? op->ct_detail : ""));
    put(w, ct, "listed", json_boolean(op->ct_listed));
    if (!w->bad && ct && mh_ct_trace_json(ct, run, op) != 0) {
      w->bad = 1;
      snprintf(w->err, w->errlen, "%s %s: constant-time trace", op->alg,
               op->op);
    }
    put(w, o, "ct", ct);
  }
  if (op->n_repeat) {
    json_t *rp = json_object();
    put(w, rp, "runs", json_integer(op->n_repeat));
    put(w, rp, "min_median", json_real(op->repeat_min));
    put(w, rp, "max_median", json_real(op->repeat_max));
    put(w, rp, "spread", json_real(op->repeat_max - op->repeat_min));
    put(w, o, "repeat", rp);
  }
  if (op->has_mem) {
    put(w, o, "stack_bytes", count_json(w, "stack_bytes", op->stack_bytes));
    put(w, o, "heap_bytes", count_json(w, "heap_bytes", op->heap_bytes));
    put(w, o, "heap_allocs", count_json(w, "heap_allocs", op->heap_allocs));
  }
  for (size_t i = 0; i < op->n_samples && !w->bad; i++) {
    json_t *v = json_real(op->samples[i]);
    if (!v || json_array_append_new(samples, v) != 0) {
      w->bad = 1;
      snprintf(w->err, w->errlen, "%s %s: sample %zu cannot be written",
               op->alg, op->op, i);
    }
  }
  put(w, o, "samples", samples);
  if (!w->bad && mh_cycles_op_json(o, run, op) != 0) {
    w->bad = 1;
    snprintf(w->err, w->errlen, "%s %s: cycle model fields", op->alg, op->op);
  }
  return o;
}

/* Per (algorithm, backend): object sizes, and code sizes when measured. */
static json_t *algorithms_json(wctx *w, const mh_result *x) {
  json_t *arr = json_array();
  if (!arr) {
    w->bad = 1;
    return NULL;
  }
  for (size_t i = 0; i < x->n_algs && !w->bad; i++) {
    const mh_alg_cost *a = &x->algs[i];
    json_t *o = json_object(), *objs = json_object();
    if (!o || !objs || json_array_append_new(arr, o) != 0) {
      json_decref(objs);
      w->bad = 1;
      break;
    }
    put(w, o, "alg", json_string(a->alg));
    put(w, o, "backend", json_string(a->backend));
    put(w, o, "variant", json_string(a->variant ? a->variant : ""));
    char name[16];
    unsigned long long v;
    for (size_t k = 0;
         a->obj && mh_obj_get(a->obj, k, name, sizeof name, &v) == 0; k++)
      put(w, objs, name, count_json(w, "object_bytes", v));
    put(w, o, "object_bytes", objs);
    if (a->has_size) {
      json_t *libs = json_object();
      put(w, o, "flash_bytes", json_integer((json_int_t)a->flash_bytes));
      put(w, o, "ram_bytes", json_integer((json_int_t)a->ram_bytes));
      json_t *secs = json_object();
      for (size_t k = 0; libs && k < a->n_libs; k++) {
        const mh_lib_bytes *l = &a->libs[k];
        put(w, libs, l->library, count_json(w, "libraries", l->bytes));
        if (!l->has_sections || !secs)
          continue;
        json_t *t = json_object();
        put(w, t, "text", count_json(w, "sections", l->text));
        put(w, t, "data", count_json(w, "sections", l->data));
        put(w, t, "bss", count_json(w, "sections", l->bss));
        put(w, secs, l->library, t);
      }
      put(w, o, "libraries", libs);
      if (secs && json_object_size(secs))
        put(w, o, "sections", secs);
      else
        json_decref(secs);
    }
    if (a->n_fits) {
      json_t *fits = json_object();
      for (size_t k = 0; fits && k < a->n_fits; k++)
        put(w, fits, a->fit_board[k],
            a->fit[k] == 1 ? json_true() : json_string(a->fit_reason[k]));
      put(w, o, "fits", fits);
    }
  }
  return arr;
}

/* "plan": {"hash", "jobs", "shards", "shard" (absent when merged)}. */
static json_t *plan_json(const mh_plan_ref *p) {
  json_t *o = json_pack("{s:s, s:I, s:I}", "hash", p->hash, "jobs",
                        (json_int_t)p->n_jobs, "shards", (json_int_t)p->shards);
  if (o && p->shard >= 0)
    json_object_set_new(o, "shard", json_integer((json_int_t)p->shard));
  return o;
}

char *mh_results_to_json(const mh_results *r, char *err, size_t errlen) {
  wctx w = {0, err, errlen};
  json_t *root = json_object(), *runs = json_array();
  if (!root || !runs) {
    json_decref(root);
    json_decref(runs);
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  put(&w, root, "schema", json_integer(SCHEMA));
  put(&w, root, "merlin", json_string(r->merlin ? r->merlin : ""));
  put(&w, root, "created", json_string(r->created ? r->created : ""));
  if (r->plan.hash)
    put(&w, root, "plan", plan_json(&r->plan));
  for (size_t i = 0; i < r->n_runs && !w.bad; i++) {
    const mh_result *x = &r->runs[i];
    json_t *run = json_object(), *ops = json_array();
    if (!run || !ops) {
      json_decref(run);
      json_decref(ops);
      w.bad = 1;
      snprintf(err, errlen, "out of memory");
      break;
    }
    put(&w, run, "target", json_string(x->target));
    put(&w, run, "profile", json_string(x->profile));
    if (x->job >= 0)
      put(&w, run, "job", json_integer((json_int_t)x->job));
    put(&w, run, "valid", json_true());
    put(&w, run, "provenance", provenance_json(&w, x));
    for (size_t k = 0; k < x->run.n_ops && !w.bad; k++) {
      json_t *o = op_json(&w, &x->run, &x->run.ops[k]);
      if (!o || json_array_append_new(ops, o) != 0)
        w.bad = 1;
    }
    put(&w, run, "ops", ops);
    put(&w, run, "workflows", mh_wf_json(&x->run)); /* host/model/workflow.c */
    json_t *ctl = mh_control_json(&x->run); /* host/model/control_json.c */
    if (ctl)
      put(&w, run, "control", ctl);
    put(&w, run, "algorithms", algorithms_json(&w, x));
    if (x->has_baseline) {
      json_t *b = json_object();
      put(&w, b, "flash_bytes", json_integer((json_int_t)x->baseline_flash));
      put(&w, b, "ram_bytes", json_integer((json_int_t)x->baseline_ram));
      put(&w, run, "sizes_baseline", b);
    }
    if (x->n_impls)
      put(&w, run, "implementations", impls_json(&w, x));
    if (json_array_append_new(runs, run) != 0)
      w.bad = 1;
  }
  put(&w, root, "runs", runs);
  char *out = NULL;
  if (!w.bad) {
    char *s = json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
    size_t n = s ? strlen(s) : 0;
    out = s ? malloc(n + 2) : NULL;
    if (out) {
      memcpy(out, s, n);
      out[n] = '\n';
      out[n + 1] = '\0';
    } else {
      snprintf(err, errlen, "out of memory");
    }
    free(s);
  } else if (!err[0]) {
    snprintf(err, errlen, "cannot build the JSON document");
  }
  json_decref(root);
  return out;
}

/* ---- reader ---------------------------------------------------------- */

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
    IMPL_FIELDS(IMPL_GET)
#undef IMPL_GET
    if (rc == 0 && mh_result_add_impl(x, &r) != 0)
      rc = rfail(c, "out of memory");
#define IMPL_FREE(f, req) free(r.f);
    IMPL_FIELDS(IMPL_FREE)
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
  if (schema != SCHEMA) {
    rfail(&c, "schema %lld is not supported (this merlin reads schema %d)",
          schema, SCHEMA);
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

int mh_results_load(const char *path, mh_results *r, char *err, size_t errlen) {
  char *buf;
  size_t len;
  memset(r, 0, sizeof *r);
  if (mh_read_file(path, MAX_JSON_BYTES, &buf, &len, err, errlen) != 0)
    return -1;
  char inner[768];
  int rc = mh_results_from_json(buf, len, r, inner, sizeof inner);
  if (rc != 0)
    snprintf(err, errlen, "%s: %s", path, inner);
  free(buf);
  return rc;
}

int mh_results_load_arg(const char *arg, mh_results *r, char *err,
                        size_t errlen) {
  static const char *const tries[] = {"results.json", "latest/results.json"};
  struct stat st;
  memset(r, 0, sizeof *r);
  if (stat(arg, &st) != 0 || !S_ISDIR(st.st_mode))
    return mh_results_load(arg, r, err, errlen);
  for (size_t i = 0; i < 2; i++) {
    char *p = mh_path_join(arg, tries[i]);
    int found = p && stat(p, &st) == 0;
    int rc = found ? mh_results_load(p, r, err, errlen) : 0;
    free(p);
    if (found)
      return rc;
  }
  snprintf(err, errlen,
           "%s holds no results.json (nor latest/results.json): give a "
           "results directory or a results.json file",
           arg);
  return -1;
}
