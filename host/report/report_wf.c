/* SPDX-License-Identifier: Apache-2.0 */
/* report.md: workflows (see report_wf.h). */
#include "report/report_wf.h"
#include "analysis/noise.h"

#include "analysis/workflows.h"
#include "model/workflow.h"
#include "report/format.h"
#include "report/html_charts.h"
#include "report/html_page.h"
#include "report/report_matrix.h"

#include <stdio.h>
#include <string.h>

/* "| workflow | variant[ | backend]": a workflow's first cells. */
static void wf_cells(mh_sb *b, const mh_wf *w, int backend) {
  mh_sb_puts(b, "| ");
  mh_esc_md(b, w->workflow);
  mh_sb_puts(b, " | ");
  mh_esc_md(b, w->variant);
  if (backend) {
    mh_sb_puts(b, " | ");
    mh_esc_md(b, w->backend);
  }
}

static void table(mh_sb *b, const mh_result *x) {
  const mh_run *run = &x->run;
  const char *u = run->unit ? run->unit : "?";
  mh_sb_puts(b, "### ");
  mh_esc_md(b, x->target);
  mh_sb_puts(b, " (");
  mh_esc_md(b, x->profile);
  mh_sb_puts(b, ")\n\nDevice time is the sum of the device's steps (the "
                "peer's work is excluded, and checked), in ");
  mh_esc_md(b, u);
  mh_sb_puts(b, ". Bytes on the wire are counted from the messages the run "
                "produced (sent + received); stored is what the device keeps; "
                "stack and heap are the peaks of the device steps. Ratios: "
                "against classical-p256 on the same target (on the same "
                "backend where it exists, column *vs*).\n\n| workflow | "
                "variant | backend | median (");
  mh_esc_md(b, u);
  mh_sb_puts(b, ") | p99 | IQR | n | wire bytes (sent + received) | stored | "
                "stack | heap | vs | time × | bytes × | stored × | stack × "
                "|\n");
  mh_sb_puts(b, "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
                "---:|---:|---:|---:|\n");
  for (size_t i = 0; i < run->n_wfs; i++) {
    const mh_wf *w = &run->wfs[i];
    if (!w->n_samples)
      continue;
    uint64_t sent, recv;
    mh_an_wf_bytes(w, &sent, &recv);
    wf_cells(b, w, 1);
    const double v[] = {w->stats.median, w->stats.p99, w->stats.iqr};
    mh_fmt_nums(b, " | ", v, 3);
    mh_sb_printf(
        b, " | %zu | %llu (%llu + %llu) | %llu | %llu | %llu | ", w->n_samples,
        (unsigned long long)(sent + recv), (unsigned long long)sent,
        (unsigned long long)recv, (unsigned long long)w->stored,
        (unsigned long long)w->stack_bytes, (unsigned long long)w->heap_bytes);
    const mh_wf *ref = mh_an_wf_reference(run, w);
    if (!ref) {
      mh_sb_puts(b, "– | – | – | – | – |\n");
      continue;
    }
    mh_esc_md(b, ref->backend);
    mh_fmt_md_ratio(b, w->stats.median, ref->stats.median);
    mh_fmt_md_ratio(b, (double)mh_wf_wire_bytes(w),
                    (double)mh_wf_wire_bytes(ref));
    mh_fmt_md_ratio(b, (double)w->stored, (double)ref->stored);
    mh_fmt_md_ratio(b, (double)w->stack_bytes, (double)ref->stack_bytes);
    mh_sb_puts(b, " |\n");
  }
  mh_sb_putc(b, '\n');
}

static void messages(mh_sb *b, const mh_result *x) {
  const mh_run *run = &x->run;
  mh_sb_puts(b, "Messages (bytes; → sent by the device, ← received; "
                "layouts in docs/workflows.md):\n\n");
  mh_sb_puts(b, "| workflow | variant | messages |\n|---|---|---|\n");
  for (size_t i = 0; i < run->n_wfs; i++) {
    const mh_wf *w = &run->wfs[i];
    int dup = 0;
    for (size_t k = 0; k < i && !dup; k++)
      dup = strcmp(run->wfs[k].workflow, w->workflow) == 0 &&
            strcmp(run->wfs[k].variant, w->variant) == 0;
    if (dup || !w->n_samples)
      continue;
    wf_cells(b, w, 0);
    mh_sb_puts(b, " | ");
    for (size_t k = 0; k < w->n_msgs; k++) {
      mh_sb_printf(b, "%s%s ", k ? ", " : "", w->msgs[k].tx ? "→" : "←");
      mh_esc_md(b, w->msgs[k].name);
      mh_sb_printf(b, " %llu", (unsigned long long)w->msgs[k].bytes);
    }
    mh_sb_puts(b, " |\n");
  }
  mh_sb_putc(b, '\n');
}

static void steps(mh_sb *b, const mh_result *x) {
  const mh_run *run = &x->run;
  mh_sb_puts(b, "Step breakdown (median of each device step, ");
  mh_esc_md(b, run->unit ? run->unit : "?");
  mh_sb_puts(b, ", and its share of the sum of the step medians):\n\n");
  mh_sb_puts(b,
             "| workflow | variant | backend | steps |\n|---|---|---|---|\n");
  for (size_t i = 0; i < run->n_wfs; i++) {
    const mh_wf *w = &run->wfs[i];
    if (!w->n_samples || !w->step_median)
      continue;
    double sum = 0;
    for (size_t k = 0; k < w->n_steps; k++)
      sum += w->step_median[k];
    wf_cells(b, w, 1);
    mh_sb_puts(b, " | ");
    for (size_t k = 0; k < w->n_steps; k++) {
      mh_sb_puts(b, k ? " · " : "");
      mh_esc_md(b, w->steps[k]);
      mh_sb_putc(b, ' ');
      mh_fmt_num(b, w->step_median[k]);
      if (sum > 0)
        mh_sb_printf(b, " (%.0f%%)", 100.0 * w->step_median[k] / sum);
    }
    mh_sb_puts(b, " |\n");
  }
  mh_sb_putc(b, '\n');
}

void mh_report_fairness(mh_sb *b, const mh_results *r, const char *target,
                        int html) {
  const char *on = html ? "<span class='what'>" : "**";
  const char *off = html ? "</span>" : "**";
  mh_esc_fn esc = html ? mh_esc_html : mh_esc_md;
  double largest;
  char what[256];
  size_t images = 0;
  for (size_t i = 0; i < r->n_runs; i++)
    images += strcmp(r->runs[i].target, target) == 0;
  size_t n = mh_an_wf_fairness(r, target, &largest, what, sizeof what);
  mh_sb_printf(b, "%sFairness (", on);
  esc(b, target);
  mh_sb_printf(b, ", %zu image%s):%s ", images, images == 1 ? "" : "s", off);
  if (!n) {
    mh_sb_puts(b, "nothing to compare: no control figures (HKDF-SHA256, "
                  "HMAC-SHA256) measured twice on this target.\n\n");
    return;
  }
  mh_sb_printf(b,
               "HKDF-SHA256 and HMAC-SHA256 medians compared over %zu "
               "values (the control after every workflow%s): largest "
               "difference %.2f%% (",
               n, images > 1 ? ", and the operations across the images" : "",
               largest * 100.0);
  esc(b, what);
  mh_sb_puts(b, "), limit 3%. ");
  /* The machine's own noise during the runs (the control timed after
   * every operation): a difference within it says nothing of the images. */
  double noise = 0;
  for (size_t i = 0; i < r->n_runs; i++) {
    mh_noise z;
    if (strcmp(r->runs[i].target, target) == 0 &&
        mh_noise_of(&r->runs[i].run, &z) == 0 && z.spread > noise)
      noise = z.spread;
  }
  if (largest <= MH_AN_FAIR_LIMIT)
    mh_sb_puts(b, "The comparison is fair: the images and workflows ran the "
                  "same control code at the same speed.\n\n");
  else if (noise > MH_NOISE_STEADY)
    mh_sb_printf(b,
                 "%sNot judged: the machine was not steady.%s The same "
                 "control, timed after every operation, varied by %.1f%% "
                 "within the runs themselves (p95/p5), more than the 3%% "
                 "limit, so this difference measures the machine (other "
                 "work on the cores, frequency changes), not the images; "
                 "rerun on a quiet machine to judge them.\n\n",
                 on, off, noise * 100.0);
  else
    mh_sb_printf(b,
                 "%sThe comparison is not fair%s: the same control code took "
                 "measurably different times, so the machine's speed changed "
                 "between the measurements (host timing noise, frequency "
                 "scaling or contention) or the images differ in more than the "
                 "algorithm under test; compare these workflows with care, "
                 "or rerun on a quiet machine.\n\n",
                 on, off);
}

void mh_report_md_workflows(mh_sb *b, const mh_results *r) {
  int any = 0;
  for (size_t i = 0; i < r->n_runs; i++)
    any |= r->runs[i].run.n_wfs > 0;
  if (!any)
    return;
  mh_sb_puts(b, "## Workflows\n\n");
  mh_sb_puts(b, "End-to-end device workflows (docs/workflows.md): provisioning "
                "a new key, a session between two nodes, a constrained node. "
                "Each ran only after the KATs of every primitive it uses "
                "passed, and after a run in which both sides derived the same "
                "key, every signature verified and every tag checked.\n\n");
  for (size_t i = 0; i < r->n_runs; i++) {
    const mh_result *x = &r->runs[i];
    if (!x->run.n_wfs)
      continue;
    table(b, x);
    messages(b, x);
    steps(b, x);
    int first = 1;
    for (size_t k = 0; k < i && first; k++)
      first = strcmp(r->runs[k].target, x->target) != 0;
    if (first)
      mh_report_fairness(b, r, x->target, 0);
  }
}

/* ---- report.html ------------------------------------------------------ */

void mh_report_html_workflows(mh_sb *b, const mh_result *x, size_t ri) {
  const mh_run *run = &x->run;
  int any = 0;
  for (size_t i = 0; i < run->n_wfs; i++)
    any |= run->wfs[i].n_samples > 0;
  if (!any)
    return;
  mh_sb_puts(b, "<h3>");
  mh_esc_html(b, x->target);
  mh_sb_puts(b, " (profile ");
  mh_esc_html(b, x->profile);
  mh_report_build_suffix(b, x, mh_esc_html);
  mh_sb_puts(b, ")</h3><table class='sortable filterable' "
                "data-table='workflows'><thead><tr><th>workflow</th><th>"
                "variant</th><th>backend</th><th>median (");
  mh_esc_html(b, run->unit ? run->unit : "?");
  mh_sb_puts(b, ")</th><th>p99</th><th>IQR</th><th>n</th><th>wire bytes "
                "(sent + received)</th><th>stored (bytes)</th><th>stack "
                "(bytes)</th><th>heap (bytes)</th><th>against</th><th>time "
                "&#215;</th><th>bytes &#215;</th><th>stored &#215;</th><th>"
                "stack &#215;</th></tr></thead><tbody>");
  for (size_t i = 0; i < run->n_wfs; i++) {
    const mh_wf *w = &run->wfs[i];
    if (!w->n_samples)
      continue;
    const mh_wf *ref = mh_an_wf_reference(run, w);
    mh_sb_printf(b, "<tr id='wf-%zu-%zu'", ri, i);
    mh_html_data_f(b, mh_html_wf_filter(x, w));
    mh_sb_puts(b, "><td>");
    mh_esc_html(b, w->workflow);
    mh_sb_puts(b, "</td><td>");
    mh_esc_html(b, w->variant);
    mh_sb_puts(b, "</td><td>");
    mh_esc_html(b, w->backend);
    mh_sb_puts(b, "</td>");
    uint64_t sent, recv;
    mh_an_wf_bytes(w, &sent, &recv);
    const double v[] = {w->stats.median,        w->stats.p99,
                        w->stats.iqr,           (double)w->n_samples,
                        (double)(sent + recv),  (double)w->stored,
                        (double)w->stack_bytes, (double)w->heap_bytes};
    for (size_t k = 0; k < sizeof v / sizeof *v; k++)
      mh_html_num_cell(b, v[k]);
    mh_sb_puts(b, "<td>");
    mh_esc_html(b, ref ? ref->variant : "");
    mh_sb_puts(b, "</td>");
    const double rv[][2] = {
        {w->stats.median, ref ? ref->stats.median : 0},
        {(double)mh_wf_wire_bytes(w), ref ? (double)mh_wf_wire_bytes(ref) : 0},
        {(double)w->stored, ref ? (double)ref->stored : 0},
        {(double)w->stack_bytes, ref ? (double)ref->stack_bytes : 0}};
    for (size_t k = 0; k < 4; k++)
      mh_html_ratio_cell(b, rv[k][0], rv[k][1]);
    mh_sb_puts(b, "</tr>");
  }
  mh_sb_puts(b, "</tbody></table>");
}
