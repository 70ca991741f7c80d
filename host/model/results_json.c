/* SPDX-License-Identifier: Apache-2.0 */
/* results.json from the model: the writer (docs/results.md); the reader
 * is results_json_read.c. */
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
static json_t *impls_json(wctx *w, const mh_result *x) {
  json_t *a = json_array();
  for (size_t i = 0; a && i < x->n_impls; i++) {
    const mh_impl_rec *r = &x->impls[i];
    json_t *o = json_object();
#define IMPL_PUT(f, req)                                                       \
  if (r->f)                                                                    \
    put(w, o, #f, json_string(r->f));
    MH_RESULTS_IMPL_FIELDS(IMPL_PUT)
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
  put(&w, root, "schema", json_integer(MH_RESULTS_SCHEMA));
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
