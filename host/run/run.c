/* SPDX-License-Identifier: Apache-2.0 */
/* From raw ticks to per-operation values: kept apart from the wire reader so
 * that the parser only ever reports what the target said. */
#include "model/model.h"
#include "model/stats.h"
#include "model/workflow.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void drop_samples(mh_run *run) {
  for (size_t i = 0; i < run->n_ops; i++) {
    free(run->ops[i].samples);
    run->ops[i].samples = NULL;
    run->ops[i].n_samples = 0;
    memset(&run->ops[i].stats, 0, sizeof run->ops[i].stats);
  }
}

/* One sample as a per-operation value in the run's unit.
 *
 * Under QEMU -icount (integer_unit), one instruction is 2^shift ns of
 * virtual time and the counter ticks every 1e9/counter_hz ns; with the
 * shift chosen so that an instruction spans more than two ticks, a reading
 * off by less than one tick still rounds to the exact instruction count.
 * So each reading is rounded to whole instructions before the overhead is
 * subtracted: the difference is then an exact count (docs/wire-format.md).
 * Elsewhere (ns) the raw difference is scaled without rounding. */
static double per_op_value(uint64_t raw, uint64_t overhead, uint32_t batch,
                           double ticks_to_unit, int integer_unit) {
  if (integer_unit) {
    double total = nearbyint((double)raw * ticks_to_unit);
    double ovh = nearbyint((double)overhead * ticks_to_unit);
    return (total - ovh) / (double)batch;
  }
  return (double)(raw - overhead) / (double)batch * ticks_to_unit;
}

/* The same for one workflow step (no batching). */
static double step_value(uint64_t raw, uint64_t overhead, double ticks_to_unit,
                         int integer_unit) {
  return per_op_value(raw, overhead, 1, ticks_to_unit, integer_unit);
}

static int timed(const mh_op *op) {
  return op->kat == MH_KAT_PASS && !op->has_error && op->n_raw > 0;
}

int mh_run_finish(mh_run *run, double ticks_to_unit, const char *unit,
                  int icount_shift, char *msg, size_t msg_len) {
  char dummy[1];
  if (!msg || msg_len == 0) {
    msg = dummy;
    msg_len = sizeof dummy;
  }
  msg[0] = '\0';
  if (!run || !unit) {
    snprintf(msg, msg_len, "no run or no unit");
    if (run)
      drop_samples(run);
    return -1;
  }
  drop_samples(run);
  if (!isfinite(ticks_to_unit) || ticks_to_unit <= 0.0) {
    snprintf(msg, msg_len, "ticks_to_unit %g is not a positive number",
             ticks_to_unit);
    return -1;
  }
  /* Check every op before computing any, so a failure leaves no half-finished
   * run behind. */
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *op = &run->ops[i];
    if (!timed(op))
      continue;
    if (op->batch == 0) {
      snprintf(msg, msg_len, "op %d (%s %s): batch is 0", op->id,
               op->alg ? op->alg : "?", op->op ? op->op : "?");
      return -1;
    }
    for (size_t k = 0; k < op->n_raw; k++)
      if (op->raw[k] < run->overhead_ticks) {
        /* The overhead is the minimum of back-to-back counter reads, so a
         * sample below it means a broken counter, not a fast operation. */
        snprintf(msg, msg_len,
                 "op %d (%s %s) sample %zu: raw %" PRIu64
                 " ticks is below the counter overhead %" PRIu64,
                 op->id, op->alg ? op->alg : "?", op->op ? op->op : "?", k,
                 op->raw[k], run->overhead_ticks);
        return -1;
      }
  }
  char *u = malloc(strlen(unit) + 1);
  if (!u) {
    snprintf(msg, msg_len, "out of memory");
    return -1;
  }
  strcpy(u, unit);
  for (size_t i = 0; i < run->n_ops; i++) {
    mh_op *op = &run->ops[i];
    if (!timed(op))
      continue;
    double *s = malloc(op->n_raw * sizeof *s);
    if (!s) {
      free(u);
      drop_samples(run);
      snprintf(msg, msg_len, "out of memory");
      return -1;
    }
    for (size_t k = 0; k < op->n_raw; k++)
      s[k] = per_op_value(op->raw[k], run->overhead_ticks, op->batch,
                          ticks_to_unit, icount_shift >= 0);
    op->samples = s;
    op->n_samples = op->n_raw;
    if (mh_stats_compute(s, op->n_raw, &op->stats) != 0) {
      free(u);
      drop_samples(run);
      snprintf(msg, msg_len, "op %d: statistics failed", op->id);
      return -1;
    }
  }
  if (mh_wf_finish(run, step_value, ticks_to_unit, icount_shift >= 0, msg,
                   msg_len) != 0) {
    free(u);
    drop_samples(run);
    return -1;
  }
  free(run->unit);
  run->unit = u;
  run->ticks_to_unit = ticks_to_unit;
  run->icount_shift = icount_shift;
  return 0;
}
