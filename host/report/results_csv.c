/* SPDX-License-Identifier: Apache-2.0 */
#include "report/results_csv.h"

#include "model/build.h"
#include "model/ct.h"
#include "model/cycles.h"

#include "util/escape.h"
#include "util/strbuf.h"

#include <string.h>

/* A spreadsheet reads a cell that starts like a formula as one (OWASP,
 * "CSV Injection"): such a text gets a leading apostrophe, which shows
 * it as text. A minus starts a formula only before a digit or an
 * operator; "-O2" is text. */
static int formula_like(const char *s) {
  return (s[0] && strchr("=+@", s[0])) ||
         (s[0] == '-' && s[1] && strchr("0123456789=+-@(", s[1]));
}

/* One text field (RFC 4180): the visible forms of escape.h, quoted when
 * it holds a separator or a quote. */
static void field(mh_sb *b, const char *text, int first) {
  if (!first)
    mh_sb_putc(b, ',');
  mh_sb v = {0};
  if (text && formula_like(text))
    mh_sb_putc(&v, '\'');
  mh_esc_term(&v, text ? text : "");
  b->failed |= v.failed;
  const char *s = v.s ? v.s : "";
  if (!s[strcspn(s, ",\"")]) {
    mh_sb_puts(b, s);
  } else {
    mh_sb_putc(b, '"');
    for (; *s; s++) {
      if (*s == '"')
        mh_sb_putc(b, '"');
      mh_sb_putc(b, *s);
    }
    mh_sb_putc(b, '"');
  }
  mh_sb_free(&v);
}

static void num(mh_sb *b, double v) {
  mh_sb_putc(b, ',');
  mh_sb_double(b, v);
}

char *mh_results_to_csv(const mh_results *r) {
  mh_sb b = {0};
  mh_sb_puts(&b, "target,profile,alg,op,bytes,backend,variant,unit,n,batch,"
                 "median,p99,iqr,min,max,mean,stddev,cv,stack_bytes,heap_bytes,"
                 "heap_allocs,est_cycles,est_energy_uj,ct_status,cc,opt\n");
  for (size_t i = 0; i < r->n_runs; i++) {
    const mh_result *x = &r->runs[i];
    for (size_t k = 0; k < x->run.n_ops; k++) {
      const mh_op *op = &x->run.ops[k];
      char bytes[24];
      field(&b, x->target, 1);
      field(&b, x->profile, 0);
      field(&b, op->alg, 0);
      field(&b, op->op, 0);
      field(&b, mh_op_bytes_str(op, bytes), 0);
      field(&b, op->backend, 0);
      field(&b, op->variant, 0);
      field(&b, x->run.unit, 0);
      mh_sb_printf(&b, ",%u,%u", op->n, op->batch);
      num(&b, op->stats.median);
      num(&b, op->stats.p99);
      num(&b, op->stats.iqr);
      num(&b, op->stats.min);
      num(&b, op->stats.max);
      num(&b, op->stats.mean);
      num(&b, op->stats.stddev);
      num(&b, op->stats.cv);
      if (op->has_mem)
        mh_sb_printf(&b, ",%llu,%llu,%llu", (unsigned long long)op->stack_bytes,
                     (unsigned long long)op->heap_bytes,
                     (unsigned long long)op->heap_allocs);
      else
        mh_sb_puts(&b, ",,,");
      /* The cycle model's estimate and the board's energy estimate
       * (docs/cycle-model.md), empty when there is none. */
      const struct mh_cyc_op *e = op->cyc;
      if (e && e->has_est)
        num(&b, e->est.median);
      else
        mh_sb_putc(&b, ',');
      if (e && e->est_energy_uj > 0)
        num(&b, e->est_energy_uj);
      else
        mh_sb_putc(&b, ',');
      mh_sb_putc(&b, ',');
      if (op->has_ct_verdict)
        mh_sb_puts(&b, mh_ct_status_name(op->ct_status));
      /* The matrix row (merlin run --cc/--opt), from the provenance. */
      char cc[64], opt[32];
      mh_result_cc(x, cc, sizeof cc);
      mh_result_opt(x, opt, sizeof opt);
      field(&b, cc, 0);
      field(&b, opt, 0);
      mh_sb_putc(&b, '\n');
    }
  }
  if (b.failed) {
    mh_sb_free(&b);
    return NULL;
  }
  return b.s;
}
