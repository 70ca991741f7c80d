/* SPDX-License-Identifier: Apache-2.0 */
#include "analysis/noise.h"
#include "model/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIN_PROBES 8

int mh_noise_of(const mh_run *run, mh_noise *out) {
  memset(out, 0, sizeof *out);
  size_t n = run->n_ctl;
  if (n < MIN_PROBES)
    return -1;
  const double *v = run->ctl;
  double p5 = mh_percentile(v, n, 0.05), p95 = mh_percentile(v, n, 0.95);
  size_t q = n / 4;
  double first = mh_percentile(v, q, 0.5);
  double last = mh_percentile(v + n - q, q, 0.5);
  out->probes = n;
  out->spread = p5 > 0 ? p95 / p5 - 1.0 : 0;
  out->drift = first > 0 ? last / first - 1.0 : 0;
  out->steady = out->spread <= MH_NOISE_STEADY;
  double *r = malloc(n * sizeof *r);
  size_t m = 0;
  for (size_t i = 0; r && i < n; i++)
    if (run->ctl_cycles && run->ctl_cycles[i] > 0 && v[i] > 0)
      r[m++] = run->ctl_cycles[i] / (v[i] * run->ticks_to_unit);
  out->cycles_per_ns = m ? mh_percentile(r, m, 0.5) : 0;
  free(r);
  return 0;
}

double mh_noise_p25(const mh_op *op) {
  return op->n_samples ? mh_percentile(op->samples, op->n_samples, 0.25) : NAN;
}

int mh_noise_sentence(const mh_run *run, char *buf, size_t cap) {
  mh_noise z;
  buf[0] = '\0';
  if (mh_noise_of(run, &z) != 0)
    return -1;
  int k = snprintf(buf, cap,
                   "Machine noise: the control (HMAC-SHA256 of 64 B on "
                   "wolfCrypt) timed after every operation varied by %.1f%% "
                   "(p95/p5 over %zu probes), drift %+.1f%% from the first "
                   "to the last quarter of the run",
                   100.0 * z.spread, z.probes, 100.0 * z.drift);
  if (k > 0 && (size_t)k < cap && z.cycles_per_ns > 0)
    k += snprintf(buf + k, cap - (size_t)k,
                  "; TSC at %.3f GHz against the counter (TSC cycles, not core "
                  "cycles)",
                  z.cycles_per_ns);
  if (k > 0 && (size_t)k < cap)
    snprintf(buf + k, cap - (size_t)k, "%s",
             z.steady ? ": steady."
                      : ": **the machine was not steady during this run; its "
                        "time figures carry that noise** (other work on the "
                        "cores, frequency changes); rerun on a quiet machine "
                        "before comparing them.");
  return 0;
}
