/* SPDX-License-Identifier: Apache-2.0 */
#define _POSIX_C_SOURCE 200809L
#include "model/ct_json.h"

#include "model/ct.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int set(json_t *o, const char *k, json_t *v) {
  return v && json_object_set_new(o, k, v) == 0 ? 0 : -1;
}

static json_t *tristate(int v) { return v < 0 ? json_null() : json_boolean(v); }

int mh_ct_trace_json(json_t *ct, const mh_run *run, const mh_op *op) {
  const mh_ct_trace *t = op->ct_trace;
  if (!t || !op->ct_methods || !strstr(op->ct_methods, "path"))
    return 0; /* the verdict did not use the trace */
  const char *core = mh_run_prov(run, "core");
  int rc = set(ct, "core", json_string(core ? core : "?"));
  rc |= set(ct, "secrets", json_integer(t->runs));
  rc |= set(ct, "path_equal", json_boolean(t->path_equal));
  rc |= set(ct, "address_equal", tristate(t->addr_equal));
  rc |= set(ct, "layout_equal", json_boolean(t->layout_equal));
  json_t *vl = json_array();
  rc |= vl ? 0 : -1;
  for (size_t i = 0; vl && i < t->n_vl; i++) {
    const mh_ct_vl *v = &t->vl[i];
    if (!v->variable)
      continue;
    json_t *e = json_object();
    rc |= set(e, "function", json_string(v->function));
    rc |= set(e, "address", json_integer(v->addr));
    rc |= set(e, "insn", json_string(v->insn));
    rc |= set(e, "count_min", json_integer((json_int_t)v->count_min));
    rc |= set(e, "count_max", json_integer((json_int_t)v->count_max));
    rc |= set(e, "listed", json_string(v->listed ? v->listed : "new"));
    rc |= e && json_array_append_new(vl, e) == 0 ? 0 : -1;
  }
  rc |= set(ct, "variable_latency", vl);
  return rc ? -1 : 0;
}

static int read_vl(json_t *e, mh_ct_vl *v) {
  static const char *const listed[] = {"accepted", "known", "new"};
  json_t *fn = json_object_get(e, "function"), *in = json_object_get(e, "insn");
  json_t *a = json_object_get(e, "address"), *ls = json_object_get(e, "listed");
  json_t *lo = json_object_get(e, "count_min"),
         *hi = json_object_get(e, "count_max");
  if (!json_is_string(fn) || !json_is_string(in) || !json_is_integer(a) ||
      json_integer_value(a) < 0 || json_integer_value(a) > UINT32_MAX ||
      !json_is_integer(lo) || !json_is_integer(hi) ||
      json_integer_value(lo) < 0 ||
      json_integer_value(hi) < json_integer_value(lo) || !json_is_string(ls))
    return -1;
  for (size_t k = 0; k < 3; k++)
    if (strcmp(json_string_value(ls), listed[k]) == 0)
      v->listed = listed[k];
  v->variable = 1;
  v->addr = (uint32_t)json_integer_value(a);
  v->count_min = (uint64_t)json_integer_value(lo);
  v->count_max = (uint64_t)json_integer_value(hi);
  v->function = strdup(json_string_value(fn));
  v->insn = strdup(json_string_value(in));
  return v->listed && v->function && v->insn ? 0 : -1;
}

int mh_ct_trace_read(json_t *ct, mh_op *op, char *err, size_t errlen) {
  json_t *pe = json_object_get(ct, "path_equal");
  if (!pe)
    return 0;
  json_t *ae = json_object_get(ct, "address_equal");
  json_t *le = json_object_get(ct, "layout_equal");
  json_t *n = json_object_get(ct, "secrets");
  json_t *vl = json_object_get(ct, "variable_latency");
  if (!json_is_boolean(pe) || !(json_is_boolean(ae) || json_is_null(ae)) ||
      !json_is_boolean(le) || !json_is_integer(n) ||
      json_integer_value(n) < 0 || json_integer_value(n) > MH_CT_MAX ||
      !json_is_string(json_object_get(ct, "core")) || !json_is_array(vl)) {
    snprintf(err, errlen,
             "\"ct\": expected core, secrets, path_equal, address_equal, "
             "layout_equal and variable_latency together");
    return -1;
  }
  mh_ct_trace *t = calloc(1, sizeof *t);
  size_t nv = json_array_size(vl);
  if (t && nv)
    t->vl = calloc(nv, sizeof *t->vl);
  int rc = t && (t->vl || !nv) ? 0 : -1;
  for (size_t i = 0; rc == 0 && i < nv; i++) {
    rc = read_vl(json_array_get(vl, i), &t->vl[i]);
    t->n_vl = i + 1;
  }
  if (rc != 0) {
    snprintf(err, errlen, "\"ct\".\"variable_latency\": malformed");
    mh_ct_trace_free(t);
    free(t);
    return -1;
  }
  t->runs = (uint32_t)json_integer_value(n);
  t->path_equal = json_is_true(pe);
  t->addr_equal = json_is_null(ae) ? -1 : json_is_true(ae);
  t->layout_equal = json_is_true(le);
  mh_ct_trace_free(op->ct_trace);
  free(op->ct_trace);
  op->ct_trace = t;
  return 0;
}
