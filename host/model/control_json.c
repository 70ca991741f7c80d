/* SPDX-License-Identifier: Apache-2.0 */
/* See control_json.h. */
#include "model/control_json.h"

#include <stdio.h>
#include <stdlib.h>

json_t *mh_control_json(const mh_run *run) {
  if (!run->n_ctl)
    return NULL;
  json_t *o = json_object(), *t = json_array(), *c = json_array();
  int any_cycles = 0;
  for (size_t i = 0; i < run->n_ctl; i++) {
    json_array_append_new(t, json_real(run->ctl[i]));
    json_array_append_new(c, json_real(run->ctl_cycles[i]));
    any_cycles |= run->ctl_cycles[i] > 0;
  }
  json_object_set_new(o, "primitive",
                      json_string("hmac-sha256 mac 64 B (wolfcrypt)"));
  json_object_set_new(o, "ticks_per_call", t);
  if (any_cycles)
    json_object_set_new(o, "cycles_per_call", c);
  else
    json_decref(c);
  return o;
}

static int read_array(json_t *a, size_t n, double *out) {
  if (!json_is_array(a) || json_array_size(a) != n)
    return -1;
  for (size_t i = 0; i < n; i++) {
    json_t *x = json_array_get(a, i);
    if (!json_is_number(x) || !(json_number_value(x) >= 0))
      return -1;
    out[i] = json_number_value(x);
  }
  return 0;
}

int mh_control_from_json(json_t *v, mh_run *run, char *err, size_t errlen) {
  if (!v)
    return 0; /* written before the control existed, or none */
  json_t *t = json_is_object(v) ? json_object_get(v, "ticks_per_call") : NULL;
  json_t *c = json_is_object(v) ? json_object_get(v, "cycles_per_call") : NULL;
  size_t n = json_is_array(t) ? json_array_size(t) : 0;
  run->ctl = calloc(n ? n : 1, sizeof *run->ctl);
  run->ctl_cycles = calloc(n ? n : 1, sizeof *run->ctl_cycles);
  if (!run->ctl || !run->ctl_cycles) {
    snprintf(err, errlen, ": out of memory");
    return -1;
  }
  if (!t || read_array(t, n, run->ctl) != 0 ||
      (c && read_array(c, n, run->ctl_cycles) != 0)) {
    snprintf(err, errlen,
             ": ticks_per_call (and cycles_per_call) must be "
             "arrays of the same length of numbers >= 0");
    return -1;
  }
  run->n_ctl = n;
  return 0;
}
