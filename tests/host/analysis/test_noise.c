/* SPDX-License-Identifier: Apache-2.0 */
/* The machine's noise figure (host/analysis/noise.c): the spread and drift
 * of the interleaved control, the steady/not steady sentence a report
 * prints beside the numbers, the TSC rate, and results.json's "control"
 * object both ways, with its error paths. */
#include "analysis/noise.h"
#include "check.h"
#include "model/control_json.h"

#include <stdlib.h>

#define PROBES 40

static double ctl[PROBES], cyc[PROBES];

/* A run whose control took `base` ticks per call, and `late` in the last
 * quarter of the probes (the machine slowed down). */
static mh_run run_of(double base, double late, size_t n) {
  for (size_t i = 0; i < n; i++) {
    ctl[i] = i >= n - n / 4 ? late : base + (double)(i % 2);
    cyc[i] = 0;
  }
  mh_run r = {.ctl = ctl, .ctl_cycles = cyc, .n_ctl = n, .ticks_to_unit = 1};
  return r;
}

static void test_too_few_probes(void) {
  mh_run r = run_of(1000, 1000, 7);
  mh_noise z;
  char s[512];
  CHECK(mh_noise_of(&r, &z) == -1);
  CHECK(mh_noise_sentence(&r, s, sizeof s) == -1);
  CHECK(s[0] == '\0');
}

static void test_steady(void) {
  mh_run r = run_of(1000, 1000, PROBES);
  mh_noise z;
  char s[512];
  CHECK(mh_noise_of(&r, &z) == 0);
  CHECK(z.probes == PROBES && z.steady);
  CHECK(z.spread <= MH_NOISE_STEADY);
  CHECK_EQ_DBL(z.cycles_per_ns, 0, 0);
  CHECK(mh_noise_sentence(&r, s, sizeof s) == 0);
  CHECK_CONTAINS(s, "over 40 probes");
  CHECK_CONTAINS(s, ": steady.");
  CHECK(strstr(s, "TSC") == NULL);
}

static void test_not_steady(void) {
  mh_run r = run_of(1000, 1500, PROBES); /* last quarter 50% slower */
  mh_noise z;
  char s[1024];
  CHECK(mh_noise_of(&r, &z) == 0);
  CHECK(!z.steady);
  CHECK_EQ_DBL(z.spread, 0.5, 1e-9);
  CHECK_EQ_DBL(z.drift, 1500.0 / 1000.5 - 1.0, 1e-9);
  CHECK(mh_noise_sentence(&r, s, sizeof s) == 0);
  CHECK_CONTAINS(s, "varied by 50.0%");
  CHECK_CONTAINS(s, "the machine was not steady during this run");
  /* A buffer too short for the whole sentence is still terminated. */
  char tiny[16];
  CHECK(mh_noise_sentence(&r, tiny, sizeof tiny) == 0);
  CHECK(strlen(tiny) == sizeof tiny - 1);
}

static void test_tsc_rate(void) {
  mh_run r = run_of(1000, 1000, PROBES);
  for (size_t i = 0; i < PROBES; i++)
    cyc[i] = 3.0 * ctl[i]; /* 3 TSC cycles per counter nanosecond */
  mh_noise z;
  char s[512];
  CHECK(mh_noise_of(&r, &z) == 0);
  CHECK_EQ_DBL(z.cycles_per_ns, 3.0, 1e-12);
  CHECK(mh_noise_sentence(&r, s, sizeof s) == 0);
  CHECK_CONTAINS(s, "TSC at 3.000 GHz");
  CHECK_CONTAINS(s, "TSC cycles, not core cycles");
}

static void test_json_both_ways(void) {
  mh_run none = {0};
  CHECK(mh_control_json(&none) == NULL);
  CHECK(mh_control_from_json(NULL, &none, NULL, 0) == 0 && none.n_ctl == 0);

  mh_run r = run_of(1000, 1500, PROBES);
  json_t *o = mh_control_json(&r);
  CHECK(o != NULL);
  CHECK(json_object_get(o, "cycles_per_call") == NULL); /* no second counter */
  mh_run back = {0};
  char err[200] = "";
  CHECK(mh_control_from_json(o, &back, err, sizeof err) == 0);
  CHECK(back.n_ctl == PROBES);
  int same = back.n_ctl == PROBES;
  for (size_t i = 0; same && i < PROBES; i++)
    same = back.ctl[i] == ctl[i] && back.ctl_cycles[i] == 0;
  CHECK(same);
  free(back.ctl);
  free(back.ctl_cycles);
  json_decref(o);

  /* Errors: cycles of another length, a negative tick count, no array. */
  const char *bad[] = {"{\"ticks_per_call\": [1, 2], \"cycles_per_call\": [1]}",
                       "{\"ticks_per_call\": [1, -2]}",
                       "{\"ticks_per_call\": 3}", "[]"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    json_t *v = json_loads(bad[i], 0, NULL);
    mh_run x = {0};
    err[0] = '\0';
    CHECK(v && mh_control_from_json(v, &x, err, sizeof err) == -1);
    CHECK_CONTAINS(err, "ticks_per_call");
    CHECK(x.n_ctl == 0);
    free(x.ctl);
    free(x.ctl_cycles);
    json_decref(v);
  }
}

static void test_lower_quartile(void) {
  double v[] = {5, 1, 4, 2, 3};
  mh_op op = {.samples = v, .n_samples = 5};
  CHECK_EQ_DBL(mh_noise_p25(&op), 2.0, 1e-12);
  mh_op empty = {0};
  CHECK(isnan(mh_noise_p25(&empty)));
}

int main(void) {
  test_too_few_probes();
  test_steady();
  test_not_steady();
  test_tsc_rate();
  test_json_both_ways();
  test_lower_quartile();
  return check_report();
}
