/* SPDX-License-Identifier: Apache-2.0 */
#include "report/report_noise.h"
#include "analysis/noise.h"
#include "report/format.h"

#include <string.h>

/* Time figures move with the machine; counts do not: only for time units
 * is the low end of the distribution worth its own columns. */
static int timed(const mh_run *run) {
  return run->unit &&
         (strcmp(run->unit, "ns") == 0 || strcmp(run->unit, "us") == 0);
}

void mh_report_md_noise(mh_sb *b, const mh_result *x) {
  const mh_run *run = &x->run;
  char s[512];
  if (mh_noise_sentence(run, s, sizeof s) == 0) {
    mh_esc_md(b, s);
    mh_sb_puts(b, "\n\n");
  }
  if (!timed(run))
    return;
  mh_sb_puts(b, "Low end of the distributions (");
  mh_esc_md(b, run->unit);
  mh_sb_puts(b, "): a machine's noise only ever adds time, so the lower "
                "quartile and the minimum move least.\n\n");
  mh_sb_puts(b, "| operation | payload | backend | median | p25 | min |\n"
                "|---|---:|---|---:|---:|---:|\n");
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *op = &run->ops[i];
    if (!op->n_samples)
      continue;
    char by[24];
    mh_sb_puts(b, "| ");
    mh_esc_md(b, op->alg);
    mh_sb_putc(b, ' ');
    mh_esc_md(b, op->op);
    mh_sb_printf(b, " | %s | ", mh_op_bytes_str(op, by));
    mh_esc_md(b, op->backend);
    mh_sb_puts(b, " | ");
    mh_fmt_num(b, op->stats.median);
    mh_sb_puts(b, " | ");
    mh_fmt_num(b, mh_noise_p25(op));
    mh_sb_puts(b, " | ");
    mh_fmt_num(b, op->stats.min);
    mh_sb_puts(b, " |\n");
  }
  mh_sb_putc(b, '\n');
}
