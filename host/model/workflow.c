/* SPDX-License-Identifier: Apache-2.0 */
/* Workflows in results: failure messages of a run, and the "workflows"
 * array of results.json (docs/results.md), written and read back. */
#include "model/workflow.h"

#include "model/stats.h"

#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const mh_wf_ctl_alg[2] = {"hkdf-sha256", "hmac-sha256"};

int mh_wf_report_failures(const mh_run *run, const char *target, FILE *out) {
  int fails = 0;
  for (size_t i = 0; i < run->n_wfs; i++) {
    const mh_wf *w = &run->wfs[i];
    if (w->check == 1 && !w->error_msg)
      continue;
    fprintf(out,
            "merlin: %s: workflow %s %s (%s) failed at %s: %s; no timing "
            "recorded for it\n",
            target, w->workflow, w->variant, w->backend,
            w->check == -1 ? w->fail_step
            : w->error_msg ? "a timed run"
                           : "its check (no wfcheck record)",
            w->check == -1 ? w->fail_detail
            : w->error_msg ? w->error_msg
                           : "the image never checked it");
    fails++;
  }
  return fails;
}

/* ---- writer ---------------------------------------------------------- */

static int set(json_t *o, const char *k, json_t *v) {
  return v ? json_object_set_new(o, k, v) : -1;
}

/* A count as a JSON integer, or NULL (a failed write) past MH_COUNT_MAX. */
static json_t *count_json(uint64_t v) {
  return v <= (uint64_t)MH_COUNT_MAX ? json_integer((json_int_t)v) : NULL;
}

static json_t *one_json(const mh_run *run, const mh_wf *w) {
  json_t *o = json_object(), *msgs = json_array(), *steps = json_array(),
         *samples = json_array();
  int bad = !o || !msgs || !steps || !samples;
  if (bad) {
    json_decref(o);
    json_decref(msgs);
    json_decref(steps);
    json_decref(samples);
    return NULL;
  }
  bad |= set(o, "workflow", json_string(w->workflow));
  bad |= set(o, "variant", json_string(w->variant));
  bad |= set(o, "backend", json_string(w->backend));
  bad |= set(o, "primitives", json_string(w->algs ? w->algs : ""));
  bad |= set(o, "check", json_string("pass"));
  bad |= set(o, "unit", json_string(run->unit ? run->unit : ""));
  bad |= set(o, "warmup", json_integer(w->warmup));
  bad |= set(o, "n", json_integer((json_int_t)w->n_samples));
  const mh_stats *st = &w->stats;
  for (size_t k = 0; k < MH_N_STATS; k++)
    bad |= set(o, mh_stats_names[k], json_real(mh_stats_get(st, k)));
  bad |= set(o, "wire_bytes", count_json(mh_wf_wire_bytes(w)));
  for (size_t k = 0; k < w->n_msgs; k++) {
    json_t *m = json_object();
    if (!m) {
      bad = 1;
      break;
    }
    bad |= set(m, "name", json_string(w->msgs[k].name));
    bad |=
        set(m, "direction", json_string(w->msgs[k].tx ? "sent" : "received"));
    bad |= set(m, "bytes", count_json(w->msgs[k].bytes));
    bad |= json_array_append_new(msgs, m);
  }
  bad |= set(o, "messages", msgs);
  bad |= set(o, "stored_bytes", count_json(w->stored));
  bad |= set(o, "stack_bytes", count_json(w->stack_bytes));
  bad |= set(o, "heap_bytes", count_json(w->heap_bytes));
  bad |= set(o, "heap_allocs", count_json(w->heap_allocs));
  for (size_t k = 0; k < w->n_steps; k++) {
    json_t *s = json_object();
    if (!s) {
      bad = 1;
      break;
    }
    bad |= set(s, "name", json_string(w->steps[k]));
    bad |= set(s, "median", json_real(w->step_median ? w->step_median[k] : 0));
    bad |= json_array_append_new(steps, s);
  }
  bad |= set(o, "steps", steps);
  if (w->has_ctl[0] || w->has_ctl[1]) {
    json_t *ctl = json_object();
    bad |= !ctl;
    for (int k = 0; ctl && k < 2; k++)
      if (w->has_ctl[k])
        bad |= set(ctl, mh_wf_ctl_alg[k], json_real(w->ctl[k]));
    bad |= set(o, "control", ctl);
  }
  for (size_t k = 0; k < w->n_samples; k++)
    bad |= json_array_append_new(samples, json_real(w->samples[k]));
  bad |= set(o, "samples", samples);
  if (bad) {
    json_decref(o);
    return NULL;
  }
  return o;
}

json_t *mh_wf_json(const mh_run *run) {
  json_t *a = json_array();
  for (size_t i = 0; a && i < run->n_wfs; i++) {
    const mh_wf *w = &run->wfs[i];
    if (w->check != 1 || !w->n_samples)
      continue; /* only what was checked and timed */
    json_t *o = one_json(run, w);
    if (!o || json_array_append_new(a, o) != 0) {
      json_decref(a);
      return NULL;
    }
  }
  return a;
}

/* ---- reader ---------------------------------------------------------- */

static int str(json_t *o, const char *k, char **out) {
  const char *s = json_string_value(json_object_get(o, k));
  if (!s || !(*out = strdup(s)))
    return -1;
  return 0;
}

static int real(json_t *o, const char *k, double *out) {
  json_t *v = json_object_get(o, k);
  if (!json_is_number(v))
    return -1;
  *out = json_number_value(v);
  return 0;
}

static int count(json_t *o, const char *k, uint64_t *out) {
  json_t *v = json_object_get(o, k);
  if (!json_is_integer(v) || json_integer_value(v) < 0)
    return -1;
  *out = (uint64_t)json_integer_value(v);
  return 0;
}

static int read_one(json_t *o, mh_wf *w, char *err, size_t errlen) {
  const char *what = "workflow, variant, backend and primitives";
  if (!json_is_object(o))
    goto fail;
  if (str(o, "workflow", &w->workflow) || str(o, "variant", &w->variant) ||
      str(o, "backend", &w->backend) || str(o, "primitives", &w->algs))
    goto fail;
  what = "statistics (median, p99, iqr, min, max, mean, stddev, cv)";
  mh_stats *st = &w->stats;
  for (size_t k = 0; k < MH_N_STATS; k++)
    if (real(o, mh_stats_names[k], mh_stats_at(st, k)))
      goto fail;
  uint64_t warmup;
  what = "warmup, stored_bytes, stack_bytes, heap_bytes, heap_allocs";
  if (count(o, "warmup", &warmup) || warmup > UINT32_MAX ||
      count(o, "stored_bytes", &w->stored) ||
      count(o, "stack_bytes", &w->stack_bytes) ||
      count(o, "heap_bytes", &w->heap_bytes) ||
      count(o, "heap_allocs", &w->heap_allocs))
    goto fail;
  w->warmup = (uint32_t)warmup;
  what = "messages";
  json_t *msgs = json_object_get(o, "messages");
  if (!json_is_array(msgs) || !json_array_size(msgs))
    goto fail;
  w->msgs = calloc(json_array_size(msgs), sizeof *w->msgs);
  if (!w->msgs)
    goto fail;
  uint64_t total = 0, wire;
  for (size_t k = 0; k < json_array_size(msgs); k++) {
    json_t *m = json_array_get(msgs, k);
    const char *dir = json_string_value(json_object_get(m, "direction"));
    w->n_msgs = k + 1;
    if (str(m, "name", &w->msgs[k].name) ||
        count(m, "bytes", &w->msgs[k].bytes) || !dir ||
        (strcmp(dir, "sent") != 0 && strcmp(dir, "received") != 0))
      goto fail;
    w->msgs[k].tx = strcmp(dir, "sent") == 0;
    total += w->msgs[k].bytes;
  }
  what = "wire_bytes (the sum of the messages' bytes)";
  if (count(o, "wire_bytes", &wire) || wire != total)
    goto fail;
  what = "steps";
  json_t *steps = json_object_get(o, "steps");
  if (!json_is_array(steps) || !json_array_size(steps))
    goto fail;
  size_t ns = json_array_size(steps);
  w->steps = calloc(ns, sizeof *w->steps);
  w->step_median = calloc(ns, sizeof *w->step_median);
  if (!w->steps || !w->step_median)
    goto fail;
  for (size_t k = 0; k < ns; k++) {
    json_t *s = json_array_get(steps, k);
    w->n_steps = k + 1;
    if (str(s, "name", &w->steps[k]) || real(s, "median", &w->step_median[k]))
      goto fail;
  }
  what = "control (numbers, none negative)";
  json_t *ctl = json_object_get(o, "control");
  if (ctl && !json_is_object(ctl))
    goto fail;
  for (int k = 0; ctl && k < 2; k++)
    if (json_object_get(ctl, mh_wf_ctl_alg[k])) {
      if (real(ctl, mh_wf_ctl_alg[k], &w->ctl[k]) || w->ctl[k] < 0)
        goto fail;
      w->has_ctl[k] = 1;
    }
  what = "samples (n numbers, none negative)";
  json_t *samples = json_object_get(o, "samples");
  uint64_t n;
  if (!json_is_array(samples) || count(o, "n", &n) ||
      n != json_array_size(samples) || n == 0)
    goto fail;
  w->samples = calloc(n, sizeof *w->samples);
  if (!w->samples)
    goto fail;
  for (size_t k = 0; k < n; k++) {
    json_t *v = json_array_get(samples, k);
    if (!json_is_number(v) || json_number_value(v) < 0)
      goto fail;
    w->samples[k] = json_number_value(v);
  }
  w->n_samples = (size_t)n;
  /* The statistics are those of the samples (host/model/stats.c, as written).
   */
  const char *bad = mh_stats_mismatch(w->samples, w->n_samples, &w->stats);
  if (bad) {
    snprintf(err, errlen,
             "\"%s\": %.17g is not the %s of its samples (stats.h)", bad,
             json_number_value(json_object_get(o, bad)), bad);
    return -1;
  }
  for (size_t k = 0; k < w->n_steps; k++)
    if (!(w->step_median[k] >= 0)) {
      snprintf(err, errlen, "\"steps\"[%zu]: negative median", k);
      return -1;
    }
  w->n = (uint32_t)n;
  w->check = 1;
  w->ended = 1;
  w->has_mem = 1;
  return 0;
fail:
  snprintf(err, errlen, "missing or malformed %s", what);
  return -1;
}

int mh_wf_from_json(json_t *a, mh_run *run, char *err, size_t errlen) {
  if (!a)
    return 0; /* results written before workflows existed */
  if (!json_is_array(a)) {
    snprintf(err, errlen, "expected an array");
    return -1;
  }
  size_t n = json_array_size(a);
  if (!n)
    return 0;
  run->wfs = calloc(n, sizeof *run->wfs);
  if (!run->wfs) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  for (size_t i = 0; i < n; i++) {
    run->n_wfs = i + 1;
    run->wfs[i].id = (int)(i < INT_MAX ? i : INT_MAX);
    char e[160];
    if (read_one(json_array_get(a, i), &run->wfs[i], e, sizeof e) != 0) {
      snprintf(err, errlen, "[%zu]: %s", i, e);
      return -1;
    }
  }
  return 0;
}

uint64_t mh_wf_wire_bytes(const mh_wf *w) {
  uint64_t t = 0;
  for (size_t k = 0; k < w->n_msgs; k++)
    t += w->msgs[k].bytes;
  return t;
}

void mh_wf_free_all(mh_run *run) {
  for (size_t i = 0; i < run->n_wfs; i++) {
    mh_wf *w = &run->wfs[i];
    free(w->workflow);
    free(w->variant);
    free(w->backend);
    free(w->algs);
    for (size_t k = 0; k < w->n_steps; k++)
      free(w->steps[k]);
    free(w->steps);
    for (size_t k = 0; k < w->n_msgs; k++)
      free(w->msgs[k].name);
    free(w->msgs);
    free(w->fail_step);
    free(w->fail_detail);
    free(w->error_msg);
    free(w->raw);
    free(w->samples);
    free(w->step_median);
  }
  free(run->wfs);
  run->wfs = NULL;
  run->n_wfs = 0;
}
