/* SPDX-License-Identifier: Apache-2.0 */
/* The machine's noise during a run, from the interleaved control
 * (src/core/control.c; docs/results.md "control"). */
#ifndef MERLIN_HOST_NOISE_H
#define MERLIN_HOST_NOISE_H

#include "model/model.h"

#include <jansson.h>
#include <stddef.h>

/* The control measured after every operation is steady when its spread
 * stays within this fraction: the 3% the images' controls must agree
 * within (MH_AN_FAIR_LIMIT). */
#define MH_NOISE_STEADY 0.03

typedef struct {
  size_t probes;        /* control timings of the run */
  double spread;        /* p95 / p5 - 1 of the control's time per call */
  double drift;         /* median of the last quarter / first quarter - 1 */
  double cycles_per_ns; /* second counter per counter unit (host: TSC
                         * cycles per ns, the TSC's GHz); 0 when none */
  int steady;           /* spread <= MH_NOISE_STEADY */
} mh_noise;

/* 0 and *out for a run with at least 8 probes; -1 when it has fewer (no
 * noise figure: an old results file, or too few operations). */
int mh_noise_of(const mh_run *run, mh_noise *out);

/* The lower quartile of an operation's samples (report.md gives it and
 * the minimum beside the median for time units); NAN without samples. */
double mh_noise_p25(const mh_op *op);

/* One sentence for a report, after the numbers of a run: the noise figure
 * and, when not steady, that the figures are disturbed. buf is always
 * terminated; returns 0, or -1 when the run has no figure (buf empty). */
int mh_noise_sentence(const mh_run *run, char *buf, size_t cap);

#endif
