/* SPDX-License-Identifier: Apache-2.0 */
#include "report/report_cycles.h"
#include "report/format.h"
#include "run/cycles.h"

#include <stdlib.h>
#include <string.h>

static void run_section(mh_sb *b, const mh_result *x) {
  const mh_run *run = &x->run;
  const mh_cyc_run *c = run->cyc;
  mh_sb_puts(b, "### ");
  mh_fmt_md_cell(b, x->target);
  mh_sb_puts(b, " / ");
  mh_fmt_md_cell(b, x->profile);
  mh_sb_puts(b, "\n\n");
  if (c->absent) {
    mh_sb_puts(b, "No estimated cycles: ");
    mh_fmt_md_cell(b, c->absent);
    mh_sb_puts(b, ". Instruction classes and the profile (by instructions) "
                  "are in results.json.\n\n");
    return;
  }
  const char *hz_s = mh_run_prov(run, "clock_hz");
  double hz = hz_s ? strtod(hz_s, NULL) : 0;
  mh_sb_puts(b, "Cycle model ");
  mh_fmt_md_cell(b, c->model);
  mh_sb_printf(b,
               " version %s, %u flash wait states: **estimate (model)** "
               "from the instruction timings of Arm's TRM, not a "
               "measurement (docs/cycle-model.md). Instructions are exact "
               "(QEMU).",
               c->version, c->wait_states);
  if (hz > 0) {
    mh_sb_puts(b, " Time is the estimate at the target's board clock, ");
    mh_fmt_num(b, hz / 1e6);
    mh_sb_puts(b, " MHz.");
  }
  mh_sb_puts(b, " Hash share: the part of the estimated cycles spent in the "
                "SHA-2 and Keccak-f cores.\n\n");
  mh_sb_puts(b, "| operation | backend | instructions | est. cycles "
                "(median) | est. cycles (p99) | cycles per instruction |");
  if (hz > 0)
    mh_sb_puts(b, " est. time (µs) |");
  mh_sb_puts(b, " hash share | top function (share) |\n|---|---|---:|---:|---:|"
                "---:|");
  if (hz > 0)
    mh_sb_puts(b, "---:|");
  mh_sb_puts(b, "---:|---|\n");
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *o = &run->ops[i];
    const mh_cyc_op *e = o->cyc;
    if (!e || !e->has_est)
      continue;
    mh_fmt_md_op_cells(b, o);
    const double v[] = {o->stats.median, e->est.median, e->est.p99,
                        o->stats.median > 0 ? e->est.median / o->stats.median
                                            : 0};
    mh_fmt_nums(b, " | ", v, sizeof v / sizeof v[0]);
    if (hz > 0) {
      mh_sb_puts(b, " | ");
      mh_fmt_num(b, e->est.median / hz * 1e6);
    }
    mh_sb_printf(b, " | %.1f%% | ", 100 * e->hash_share);
    if (e->n_top) {
      mh_fmt_md_cell(b, e->top[0].name);
      mh_sb_printf(b, " (%.1f%%)", 100 * e->top[0].share);
    }
    mh_sb_puts(b, " |\n");
  }
  mh_sb_puts(b, "\n");
}

void mh_report_cycles_md(mh_sb *b, const mh_results *r) {
  int any = 0;
  for (size_t i = 0; i < r->n_runs; i++)
    any |= r->runs[i].run.cyc != NULL;
  if (!any)
    return;
  mh_sb_puts(b, "## Cycles (estimate)\n\n");
  for (size_t i = 0; i < r->n_runs; i++)
    if (r->runs[i].run.cyc)
      run_section(b, &r->runs[i]);
}
