/* SPDX-License-Identifier: Apache-2.0 */
#define _POSIX_C_SOURCE 200809L
#include "model/cycles_json.h"

#include "model/stats.h"
#include "run/cycles.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int set(json_t *o, const char *k, json_t *v) {
  return v && json_object_set_new(o, k, v) == 0 ? 0 : -1;
}

int mh_cycles_prov_json(json_t *prov, const mh_run *run) {
  const mh_cyc_run *c = run->cyc;
  if (!c)
    return 0;
  json_t *m = json_object();
  int rc = m ? 0 : -1;
  rc |= set(m, "name", json_string(c->model));
  rc |= set(m, "version", json_string(c->version));
  rc |= set(m, "flash_wait_states", json_integer(c->wait_states));
  rc |= set(m, "plugin_offset_insns", json_integer(c->offset));
  rc |= set(m, "wrap_samples", json_integer((json_int_t)c->wrap_samples));
  if (c->wrap_insns >= 0)
    rc |= set(m, "plugin_wrap_insns", json_integer(c->wrap_insns));
  if (c->absent)
    rc |= set(m, "reason", json_string(c->absent));
  if (rc) {
    json_decref(m);
    return -1;
  }
  return set(prov, "cycle_model", m);
}

static json_t *stats_json(const mh_stats *s) {
  json_t *o = json_object();
  int rc = o ? 0 : -1;
  rc |= set(o, "unit", json_string("cycles (estimate)"));
  for (size_t k = 0; k < MH_N_STATS; k++)
    rc |= set(o, mh_stats_names[k], json_real(mh_stats_get(s, k)));
  if (rc) {
    json_decref(o);
    return NULL;
  }
  return o;
}

int mh_cycles_op_json(json_t *o, const mh_run *run, const mh_op *op) {
  const mh_cyc_op *c = op->cyc;
  const mh_cyc_run *r = run->cyc;
  if (!c || !r)
    return 0;
  int rc = 0;
  if (c->has_est) {
    char name[160];
    snprintf(name, sizeof name, "%s %s", r->model, r->version);
    rc |= set(o, "est_cycles", stats_json(&c->est));
    rc |= set(o, "cycle_model", json_string(name));
  } else {
    rc |= set(o, "cycle_model", json_null());
  }
  json_t *cls = json_object();
  for (int k = 0; cls && k < MH_CYC_CLASSES; k++)
    rc |= set(cls, mh_cyc_class_names[k], json_real(c->classes[k]));
  rc |= set(o, "insn_classes", cls);
  json_t *p = json_object(), *top = json_array();
  rc |= p && top ? 0 : -1;
  rc |= set(p, "unit", json_string(c->has_est ? "est_cycles" : "instructions"));
  rc |= set(p, "hash_share", json_real(c->hash_share));
  for (size_t i = 0; top && i < c->n_top; i++) {
    json_t *f = json_object();
    rc |= set(f, "function", json_string(c->top[i].name));
    rc |= set(f, "share", json_real(c->top[i].share));
    rc |= f && json_array_append_new(top, f) == 0 ? 0 : -1;
  }
  rc |= set(p, "top", top);
  rc |= set(o, "profile", p);
  return rc ? -1 : 0;
}

/* ---- reader ------------------------------------------------------------ */

static int num(json_t *o, const char *k, double *out) {
  json_t *v = json_object_get(o, k);
  if (!json_is_number(v) || !isfinite(json_number_value(v)))
    return -1;
  *out = json_number_value(v);
  return 0;
}

int mh_cycles_read_prov(json_t *prov, mh_run *run, char *err, size_t errlen) {
  json_t *m = json_object_get(prov, "cycle_model");
  if (!m)
    return 0;
  json_t *name = json_object_get(m, "name"),
         *ver = json_object_get(m, "version");
  json_t *ws = json_object_get(m, "flash_wait_states");
  json_t *off = json_object_get(m, "plugin_offset_insns");
  json_t *why = json_object_get(m, "reason");
  json_t *wrap = json_object_get(m, "wrap_samples");
  json_t *wrapi = json_object_get(m, "plugin_wrap_insns");
  if (!json_is_string(name) || !json_is_string(ver) || !json_is_integer(ws) ||
      json_integer_value(ws) < 0 || json_integer_value(ws) > 100 ||
      !json_is_integer(off) || (why && !json_is_string(why)) ||
      (wrap && (!json_is_integer(wrap) || json_integer_value(wrap) < 0)) ||
      (wrapi && (!json_is_integer(wrapi) || json_integer_value(wrapi) < 0 ||
                 json_integer_value(wrapi) > MH_CYC_WRAP_SLACK))) {
    snprintf(err, errlen,
             "\"provenance\".\"cycle_model\": expected name, version, "
             "flash_wait_states and plugin_offset_insns");
    return -1;
  }
  mh_cyc_run *c = calloc(1, sizeof *c);
  if (!c || !(c->model = strdup(json_string_value(name))) ||
      !(c->version = strdup(json_string_value(ver))) ||
      (why && !(c->absent = strdup(json_string_value(why))))) {
    mh_cyc_run_free(c);
    free(c);
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  c->wait_states = (unsigned)json_integer_value(ws);
  c->offset = json_integer_value(off);
  c->wrap_samples = wrap ? (unsigned long)json_integer_value(wrap) : 0;
  c->wrap_insns = wrapi ? json_integer_value(wrapi) : -1;
  mh_cyc_run_free(run->cyc);
  free(run->cyc);
  run->cyc = c;
  return 0;
}

int mh_cycles_read_op(json_t *o, mh_op *op, char *err, size_t errlen) {
  json_t *cls = json_object_get(o, "insn_classes");
  json_t *prof = json_object_get(o, "profile");
  json_t *est = json_object_get(o, "est_cycles");
  if (!cls && !prof && !est)
    return 0;
  mh_cyc_op *c = calloc(1, sizeof *c);
  if (!c) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  const char *bad = NULL;
  if (est) {
    mh_stats *s = &c->est;
    int missing = !json_is_object(est);
    for (size_t k = 0; k < MH_N_STATS && !missing; k++)
      missing = num(est, mh_stats_names[k], mh_stats_at(s, k)) != 0;
    if (missing)
      bad = "est_cycles";
    else if (mh_stats_insane(s)) /* no samples of its own to check against */
      bad = "est_cycles";
    c->has_est = 1;
  }
  for (int k = 0; !bad && cls && k < MH_CYC_CLASSES; k++)
    if (!json_is_object(cls) ||
        num(cls, mh_cyc_class_names[k], &c->classes[k]) != 0)
      bad = "insn_classes";
  if (!bad && prof) {
    json_t *top = json_object_get(prof, "top");
    if (!json_is_object(prof) || num(prof, "hash_share", &c->hash_share) ||
        !json_is_array(top) || json_array_size(top) > MH_CYC_TOP)
      bad = "profile";
    for (size_t i = 0; !bad && i < json_array_size(top); i++) {
      json_t *f = json_array_get(top, i);
      json_t *fn = json_object_get(f, "function");
      if (!json_is_string(fn) || num(f, "share", &c->top[i].share) ||
          !(c->top[i].name = strdup(json_string_value(fn))))
        bad = "profile.top";
      else
        c->n_top = i + 1;
    }
  }
  if (bad) {
    snprintf(err, errlen, "\"%s\": malformed", bad);
    mh_cyc_op_free(c);
    free(c);
    return -1;
  }
  mh_cyc_op_free(op->cyc);
  free(op->cyc);
  op->cyc = c;
  return 0;
}
