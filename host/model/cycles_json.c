/* SPDX-License-Identifier: Apache-2.0 */
#define _POSIX_C_SOURCE 200809L
#include "model/cycles_json.h"

#include "model/cycles.h"
#include "model/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int set(json_t *o, const char *k, json_t *v) {
  return v && json_object_set_new(o, k, v) == 0 ? 0 : -1;
}

/* The weakness written next to every energy figure (docs/cycle-model.md,
 * "Energy (estimate, datasheet model)"). */
const char *const mh_energy_weakness =
    "one datasheet run current for all code: average current differs by "
    "primitive (measured power traces of PQC on Cortex-M vary by more than "
    "50% between primitives)";

/* --board and --accel parts of provenance.cycle_model. */
static int board_json(json_t *m, const mh_cyc_run *c) {
  int rc = 0;
  json_t *a = json_object();
  rc |= a ? 0 : -1;
  for (int g = 0; a && g < MH_ACC_GROUPS; g++)
    rc |= set(a, mh_acc_names[g], json_real(c->accel[g]));
  if (c->accel_source)
    rc |= set(a, "source", json_string(c->accel_source));
  rc |= set(m, "accel", a);
  if (!c->board)
    return rc;
  json_t *b = json_object();
  rc |= b ? 0 : -1;
  rc |= set(b, "id", json_string(c->board));
  rc |= set(b, "name", json_string(c->board_name));
  rc |= set(b, "clock_hz", json_real(c->board_hz));
  rc |= set(b, "memsys", json_string(c->memsys ? c->memsys : ""));
  rc |= set(b, "memory_source", json_string(c->memory_source));
  if (c->run_current_ua > 0) {
    json_t *p = json_object();
    rc |= p ? 0 : -1;
    rc |= set(p, "label", json_string("energy (estimate, datasheet model)"));
    rc |= set(p, "run_current_ua", json_real(c->run_current_ua));
    rc |= set(p, "supply_mv", json_real(c->supply_mv));
    rc |= set(p, "source", json_string(c->power_source));
    rc |= set(p, "weakness", json_string(mh_energy_weakness));
    rc |= set(b, "power", p);
  }
  return rc | set(m, "board", b);
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
  rc |= board_json(m, c);
  if (rc) {
    json_decref(m);
    return -1;
  }
  return set(prov, "cycle_model", m);
}

/* est_cycles: the statistics and, when the run kept them, the samples
 * they are of (one estimate per timed sample, in order). */
static json_t *stats_json(const mh_stats *s, const double *x, size_t n) {
  json_t *o = json_object();
  int rc = o ? 0 : -1;
  rc |= set(o, "unit", json_string("cycles (estimate)"));
  for (size_t k = 0; k < MH_N_STATS; k++)
    rc |= set(o, mh_stats_names[k], json_real(mh_stats_get(s, k)));
  json_t *v = n ? json_array() : NULL;
  for (size_t i = 0; v && i < n; i++)
    rc |= json_array_append_new(v, json_real(x[i]));
  if (n)
    rc |= set(o, "samples", v);
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
    rc |= set(o, "est_cycles", stats_json(&c->est, c->est_samples, c->n_est));
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
  if (c->has_acc) {
    json_t *acc = json_object();
    for (int g = 0; acc && g < MH_ACC_GROUPS; g++) {
      json_t *e = json_object();
      rc |= set(e, "cycles", json_real(c->acc[g].cycles));
      rc |= set(e, "calls", json_real(c->acc[g].calls));
      rc |= set(acc, mh_acc_names[g], e);
    }
    rc |= set(p, "accel", acc);
  }
  rc |= set(o, "profile", p);
  if (c->has_mem) {
    json_t *mm = json_object();
    rc |= set(mm, "ic_miss", json_real(c->ic_miss));
    rc |= set(mm, "dc_miss", json_real(c->dc_miss));
    rc |= set(mm, "mispredict", json_real(c->mispredict));
    rc |= set(o, "memsys_events", mm);
  }
  if (c->est_energy_uj > 0)
    rc |= set(o, "est_energy_uj", json_real(c->est_energy_uj));
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

static int dup_str(json_t *o, const char *k, char **out) {
  json_t *v = json_object_get(o, k);
  if (!v)
    return 0;
  if (!json_is_string(v) || !(*out = strdup(json_string_value(v))))
    return -1;
  return 0;
}

/* provenance.cycle_model.accel and .board (optional). */
static int read_board(json_t *m, mh_cyc_run *c, char *err, size_t errlen) {
  json_t *a = json_object_get(m, "accel"), *b = json_object_get(m, "board");
  int bad = 0;
  for (int g = 0; g < MH_ACC_GROUPS; g++) {
    c->accel[g] = -1;
    if (a && json_object_get(a, mh_acc_names[g]))
      bad |= num(a, mh_acc_names[g], &c->accel[g]);
  }
  if (a)
    bad |= dup_str(a, "source", &c->accel_source);
  if (b) {
    json_t *p = json_object_get(b, "power");
    bad |= dup_str(b, "id", &c->board) || dup_str(b, "name", &c->board_name) ||
           dup_str(b, "memsys", &c->memsys) ||
           dup_str(b, "memory_source", &c->memory_source) ||
           num(b, "clock_hz", &c->board_hz) || !c->board;
    if (p)
      bad |= num(p, "run_current_ua", &c->run_current_ua) ||
             num(p, "supply_mv", &c->supply_mv) ||
             dup_str(p, "source", &c->power_source);
  }
  if (bad)
    snprintf(err, errlen,
             "\"provenance\".\"cycle_model\": malformed board "
             "or accel");
  return bad ? -1 : 0;
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
  if (read_board(m, c, err, errlen) != 0) {
    mh_cyc_run_free(c);
    free(c);
    return -1;
  }
  c->wrap_samples = wrap ? (unsigned long)json_integer_value(wrap) : 0;
  c->wrap_insns = wrapi ? json_integer_value(wrapi) : -1;
  mh_cyc_run_free(run->cyc);
  free(run->cyc);
  run->cyc = c;
  return 0;
}

/* profile.accel, memsys_events, est_energy_uj (optional). Returns the
 * malformed field's name, or NULL. */
static const char *read_op_extras(json_t *o, json_t *prof, mh_cyc_op *c) {
  json_t *acc = prof ? json_object_get(prof, "accel") : NULL;
  json_t *mm = json_object_get(o, "memsys_events");
  for (int g = 0; acc && g < MH_ACC_GROUPS; g++) {
    json_t *e = json_object_get(acc, mh_acc_names[g]);
    if (!e || num(e, "cycles", &c->acc[g].cycles) ||
        num(e, "calls", &c->acc[g].calls))
      return "profile.accel";
    c->has_acc = 1;
  }
  if (mm) {
    if (num(mm, "ic_miss", &c->ic_miss) || num(mm, "dc_miss", &c->dc_miss) ||
        num(mm, "mispredict", &c->mispredict))
      return "memsys_events";
    c->has_mem = 1;
  }
  if (json_object_get(o, "est_energy_uj") &&
      (num(o, "est_energy_uj", &c->est_energy_uj) || c->est_energy_uj < 0))
    return "est_energy_uj";
  return NULL;
}

/* est_cycles.samples into c: numbers >= 0 of which c->est is what
 * mh_stats_compute gives (as an operation's samples and statistics).
 * NULL, or what is wrong. */
static const char *read_est_samples(json_t *v, mh_cyc_op *c) {
  size_t n = json_array_size(v);
  if (!json_is_array(v) || !n)
    return "est_cycles.samples";
  c->est_samples = malloc(n * sizeof *c->est_samples);
  if (!c->est_samples)
    return "est_cycles.samples (out of memory)";
  for (size_t i = 0; i < n; i++) {
    json_t *x = json_array_get(v, i);
    c->est_samples[i] = json_is_number(x) ? json_number_value(x) : -1;
    if (!(c->est_samples[i] >= 0))
      return "est_cycles.samples";
  }
  c->n_est = n;
  const char *bad = mh_stats_mismatch(c->est_samples, n, &c->est);
  return bad ? "est_cycles (not the statistics of its samples)" : NULL;
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
    json_t *v = json_object_get(est, "samples");
    if (missing)
      bad = "est_cycles";
    else if (v)
      bad = read_est_samples(v, c);
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
  if (!bad)
    bad = read_op_extras(o, prof, c);
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
