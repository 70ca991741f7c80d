/* SPDX-License-Identifier: Apache-2.0 */
#include "report/report_cycles.h"
#include "model/cycles.h"
#include "model/cycles_json.h"
#include "report/format.h"

#include <stdlib.h>
#include <string.h>

/* "energy (estimate, datasheet model)": estimated time x supply x run
 * current, with the source and the model's weakness next to it. */
static void energy_section(mh_sb *b, const mh_run *run, double hz) {
  const mh_cyc_run *c = run->cyc;
  if (!c->board || c->run_current_ua <= 0)
    return;
  mh_sb_puts(b, "#### energy (estimate, datasheet model)\n\nEstimated "
                "time at ");
  mh_fmt_num(b, hz / 1e6);
  mh_sb_puts(b, " MHz x ");
  mh_fmt_num(b, c->supply_mv / 1e3);
  mh_sb_puts(b, " V x ");
  mh_fmt_num(b, c->run_current_ua / 1e3);
  mh_sb_puts(b, " mA. Source: ");
  mh_esc_md(b, c->power_source);
  mh_sb_puts(b, ". Weakness: ");
  mh_esc_md(b, mh_energy_weakness);
  mh_sb_puts(b, ".\n\n| operation | backend | est. cycles (median) | "
                "est. time (µs) | energy (µJ, estimate) |\n|---|---|---:|---:|"
                "---:|\n");
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *o = &run->ops[i];
    const mh_cyc_op *e = o->cyc;
    if (!e || !e->has_est || e->est_energy_uj <= 0)
      continue;
    mh_fmt_md_op_cells(b, o);
    const double v[] = {e->est.median, e->est.median / hz * 1e6,
                        e->est_energy_uj};
    mh_fmt_nums(b, " | ", v, sizeof v / sizeof v[0]);
    mh_sb_puts(b, " |\n");
  }
  mh_sb_puts(b, "\n");
}

/* "What an accelerator would take away (projection)": Amdahl on the
 * per-function profile, calls counted by the plugin. A group (Keccak-f,
 * NTT, SHA-256, AES) has columns when some operation spends cycles in it
 * and it has a cost per call; every such group is replaced at once. */
static void accel_section(mh_sb *b, const mh_run *run) {
  static const char *const label[MH_ACC_GROUPS] = {[MH_ACC_KECCAK] = "Keccak",
                                                   [MH_ACC_NTT] = "NTT",
                                                   [MH_ACC_SHA256] = "SHA-256",
                                                   [MH_ACC_AES] = "AES"};
  static const char *const unit[MH_ACC_GROUPS] = {
      [MH_ACC_KECCAK] = "permutation",
      [MH_ACC_NTT] = "call",
      [MH_ACC_SHA256] = "compression",
      [MH_ACC_AES] = "block"};
  const mh_cyc_run *c = run->cyc;
  double cost[MH_ACC_GROUPS];
  int any = 0;
  for (int g = 0; g < MH_ACC_GROUPS; g++) {
    int used = 0;
    for (size_t i = 0; i < run->n_ops && c->accel[g] >= 0; i++) {
      const mh_cyc_op *e = run->ops[i].cyc;
      used |= e && e->has_est && e->has_acc && e->acc[g].cycles > 0;
    }
    cost[g] = used ? c->accel[g] : -1;
    any |= used;
  }
  if (!any)
    return;
  mh_sb_puts(b, "#### What an accelerator would take away (projection)\n\n"
                "A projection, not a measurement: the estimated cycles in "
                "each group of functions below are replaced by calls x "
                "cycles per call (");
  const char *sep = "";
  for (int g = 0; g < MH_ACC_GROUPS; g++)
    if (cost[g] >= 0) {
      mh_sb_printf(b, "%s%s ", sep, label[g]);
      mh_fmt_num(b, cost[g]);
      mh_sb_printf(b, " per %s", unit[g]);
      sep = ", ";
    }
  mh_sb_puts(b, "; ");
  mh_esc_md(b, c->accel_source ? c->accel_source : "");
  mh_sb_puts(b, "). Data transfer set-up and contention are not modelled.\n\n"
                "| operation | backend | est. cycles |");
  for (int g = 0; g < MH_ACC_GROUPS; g++)
    if (cost[g] >= 0)
      mh_sb_printf(b, " %s share | %s calls |", label[g], label[g]);
  mh_sb_puts(b, " projected cycles | saved |\n|---|---|---:|");
  for (int g = 0; g < MH_ACC_GROUPS; g++)
    if (cost[g] >= 0)
      mh_sb_puts(b, "---:|---:|");
  mh_sb_puts(b, "---:|---:|\n");
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *o = &run->ops[i];
    const mh_cyc_op *e = o->cyc;
    if (!e || !e->has_est || !e->has_acc)
      continue;
    double est = e->est.median, p = mh_accel_project(est, e->acc, cost);
    mh_fmt_md_op_cells(b, o);
    mh_sb_puts(b, " | ");
    mh_fmt_num(b, est);
    for (int g = 0; g < MH_ACC_GROUPS; g++)
      if (cost[g] >= 0) {
        mh_sb_printf(b, " | %.1f%% | ", 100 * e->acc[g].cycles / est);
        mh_fmt_num(b, e->acc[g].calls);
      }
    mh_sb_puts(b, " | ");
    mh_fmt_num(b, p);
    mh_sb_printf(b, " | %.1f%% |\n", 100 * (est - p) / est);
  }
  mh_sb_puts(b, "\n");
}

static void run_section(mh_sb *b, const mh_result *x) {
  const mh_run *run = &x->run;
  const mh_cyc_run *c = run->cyc;
  mh_sb_puts(b, "### ");
  mh_esc_md(b, x->target);
  mh_sb_puts(b, " / ");
  mh_esc_md(b, x->profile);
  mh_sb_puts(b, "\n\n");
  if (c->absent) {
    mh_sb_puts(b, "No estimated cycles: ");
    mh_esc_md(b, c->absent);
    mh_sb_puts(b, ". Instruction classes and the profile (by instructions) "
                  "are in results.json.\n\n");
    return;
  }
  const char *hz_s = mh_run_prov(run, "clock_hz");
  double hz = hz_s ? strtod(hz_s, NULL) : 0;
  if (c->board) {
    hz = c->board_hz;
    mh_sb_puts(b, "**Estimated cycles on ");
    mh_esc_md(b, c->board_name);
    mh_sb_puts(b, " at ");
    mh_fmt_num(b, hz / 1e6);
    mh_sb_puts(b, " MHz (model)**, with its memory system: ");
    mh_esc_md(b, c->memsys ? c->memsys : "");
    mh_sb_puts(b, " (source: ");
    mh_esc_md(b, c->memory_source);
    mh_sb_puts(b, "). ");
  }
  mh_sb_puts(b, "Cycle model ");
  mh_esc_md(b, c->model);
  mh_sb_puts(b, " version ");
  mh_esc_md(b, c->version);
  mh_sb_printf(b,
               ", %u flash wait states: **estimate (model)** "
               "from the instruction timings of Arm's TRM, not a "
               "measurement (docs/cycle-model.md). Instructions are exact "
               "(QEMU).",
               c->wait_states);
  if (hz > 0) {
    mh_sb_puts(b, c->board ? " Time is the estimate at the part's clock, "
                           : " Time is the estimate at the target's board "
                             "clock, ");
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
      mh_esc_md(b, e->top[0].name);
      mh_sb_printf(b, " (%.1f%%)", 100 * e->top[0].share);
    }
    mh_sb_puts(b, " |\n");
  }
  mh_sb_puts(b, "\n");
  energy_section(b, run, hz);
  accel_section(b, run);
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
