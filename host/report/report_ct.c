/* SPDX-License-Identifier: Apache-2.0 */
#include "report/report_ct.h"

#include "model/ct.h"
#include "report/format.h"

#include <stdio.h>
#include <string.h>

/* Whether the verdict applied method m ("path", ...). */
static int used(const mh_op *o, const char *m) {
  size_t n = strlen(m);
  for (const char *p = o->ct_methods; p && *p;) {
    size_t k = strcspn(p, ",");
    if (k == n && strncmp(p, m, n) == 0)
      return 1;
    p += k + (p[k] == ',');
  }
  return 0;
}

/* The finding text of method m in the verdict's detail ("m: ..."). */
static int found(const mh_op *o, const char *m) {
  char key[40];
  snprintf(key, sizeof key, "%s: ", m);
  const char *d = o->ct_detail ? o->ct_detail : "";
  for (const char *p = strstr(d, key); p; p = strstr(p + 1, key))
    if (p == d || (p >= d + 2 && strncmp(p - 2, "; ", 2) == 0))
      return 1; /* a finding starts the detail or follows "; " */
  return 0;
}

static const char *verdict(const mh_op *o) {
  static const char *const words[] = {
      [MH_CT_UNCHECKED] = "not checked",
      [MH_CT_NONE] = "no finding",
      [MH_CT_EXPECTED] = "expected finding",
  };
  if (o->ct_status == MH_CT_FINDING)
    return o->ct_listed ? "**FINDING** (known)" : "**FINDING** (new)";
  return o->ct_status >= MH_CT_UNCHECKED && o->ct_status <= MH_CT_EXPECTED
             ? words[o->ct_status]
             : "not checked";
}

/* The variable-latency cell: sites and how the list took them. */
static void vl_cell(mh_sb *b, const mh_ct_trace *t) {
  size_t n = 0, acc = 0, known = 0;
  for (size_t i = 0; i < t->n_vl; i++) {
    if (!t->vl[i].variable)
      continue;
    n++;
    acc += t->vl[i].listed && strcmp(t->vl[i].listed, "accepted") == 0;
    known += t->vl[i].listed && strcmp(t->vl[i].listed, "known") == 0;
  }
  if (!n) {
    mh_sb_puts(b, "none");
    return;
  }
  mh_sb_printf(b, "%zu site%s (%zu accepted, %zu known, %zu new)", n,
               n == 1 ? "" : "s", acc, known, n - acc - known);
}

/* Several operations differ only by variant (the planted leaks): name it. */
static int shares_backend(const mh_run *run, const mh_op *o) {
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *p = &run->ops[i];
    if (p != o && mh_str_same(p->alg, o->alg) && mh_str_same(p->op, o->op) &&
        mh_str_same(p->backend, o->backend) &&
        !mh_str_same(p->variant, o->variant))
      return 1;
  }
  return 0;
}

static void row(mh_sb *b, const mh_run *run, const mh_op *o) {
  const mh_ct_trace *t = o->ct_trace;
  mh_fmt_md_op_cells(b, o);
  if (shares_backend(run, o)) {
    mh_sb_puts(b, " ");
    mh_esc_md(b, o->variant);
  }
  mh_sb_puts(b, " | ");
  mh_esc_md(b, o->ct_methods && *o->ct_methods ? o->ct_methods : "-");
  mh_sb_puts(b, " | ");
  mh_sb_puts(b, !used(o, "instruction-count")   ? "-"
                : found(o, "instruction-count") ? "varies"
                                                : "same");
  int traced = t && used(o, "path");
  mh_sb_puts(b, " | ");
  mh_sb_puts(b, !traced ? "-" : t->path_equal ? "same" : "differs");
  mh_sb_puts(b, " | ");
  mh_sb_puts(b, !traced              ? "-"
                : t->addr_equal > 0  ? "same"
                : t->addr_equal == 0 ? "differ"
                                     : "same until the paths part");
  mh_sb_puts(b, " | ");
  if (traced)
    vl_cell(b, t);
  else
    mh_sb_puts(b, "-");
  mh_sb_puts(b, " | ");
  mh_sb_puts(b, !used(o, "valgrind")   ? "-"
                : found(o, "valgrind") ? "reports"
                                       : "clean");
  mh_sb_puts(b, " | ");
  mh_sb_puts(b, verdict(o));
  mh_sb_puts(b, " |\n");
}

/* The detail of every verdict that is not a plain pass; payload sizes that
 * share one text are given once. */
static void notes(mh_sb *b, const mh_run *run) {
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *o = &run->ops[i];
    if (!o->has_ct_verdict || !o->ct_detail || !o->ct_detail[0])
      continue;
    int dup = 0;
    for (size_t k = 0; k < i && !dup; k++)
      dup = run->ops[k].has_ct_verdict &&
            mh_str_same(run->ops[k].alg, o->alg) &&
            mh_str_same(run->ops[k].op, o->op) &&
            mh_str_same(run->ops[k].backend, o->backend) &&
            mh_str_same(run->ops[k].variant, o->variant) &&
            mh_str_same(run->ops[k].ct_detail, o->ct_detail);
    if (dup)
      continue;
    mh_sb_puts(b, "- ");
    mh_fmt_op_name(b, o->alg, o->op, o->bytes, 1);
    mh_sb_puts(b, " (");
    mh_esc_md(b, o->backend);
    if (shares_backend(run, o)) {
      mh_sb_puts(b, " ");
      mh_esc_md(b, o->variant);
    }
    mh_sb_puts(b, "): ");
    mh_esc_md(b, o->ct_detail);
    mh_sb_putc(b, '\n');
  }
}

static void target(mh_sb *b, const mh_result *x) {
  const mh_run *run = &x->run;
  const char *core = mh_run_prov(run, "core");
  int traced = 0;
  for (size_t i = 0; i < run->n_ops; i++)
    traced |= run->ops[i].ct_trace != NULL;
  mh_sb_puts(b, "### ");
  mh_esc_md(b, x->target);
  mh_sb_puts(b, " / ");
  mh_esc_md(b, x->profile);
  mh_sb_puts(b, " (core ");
  mh_esc_md(b, core ? core : "?");
  mh_sb_puts(b, ")\n\n");
  if (run->icount_shift >= 0 && !traced)
    mh_sb_puts(b, "Path, address and variable-latency checks: not run (they "
                  "need merlin run --ct and the QEMU plugin).\n\n");
  mh_sb_puts(b,
             "| operation | backend | methods | instruction count | "
             "path | addresses | variable-latency instructions | "
             "memcheck | verdict |\n|---|---|---|---|---|---|---|---|---|\n");
  for (size_t i = 0; i < run->n_ops; i++)
    if (run->ops[i].has_ct_verdict)
      row(b, run, &run->ops[i]);
  mh_sb_putc(b, '\n');
  notes(b, run);
  mh_sb_putc(b, '\n');
}

void mh_report_ct_md(mh_sb *b, const mh_results *r) {
  int any = 0;
  for (size_t i = 0; i < r->n_runs; i++)
    for (size_t k = 0; k < r->runs[i].run.n_ops; k++)
      any |= r->runs[i].run.ops[k].has_ct_verdict;
  if (!any)
    return;
  mh_sb_puts(
      b, "## Constant time\n\n"
         "Every operation with a secret input runs again with fresh secrets "
         "and the same public inputs (docs/constant-time.md). On QEMU the "
         "instruction count of each run is exact; with merlin run --ct the "
         "QEMU plugin also compares, on the image's own Thumb code, the "
         "executed path (every control transfer) and the address of every "
         "load and store of each run with the first, and lists the "
         "instructions whose time depends on their operands on this core "
         "(divides; the M3's long multiplies). On the host, valgrind "
         "memcheck follows the secret bytes. A finding in "
         "constant-time/expected-findings.txt is expected (accepted, with "
         "its reason) or known (a real leak, listed so that a new one "
         "stands out).\n\n"
         "What these checks cannot see: the timing of the memory system "
         "itself (caches, flash wait states and accelerators, bus "
         "contention; equal addresses take equal time only where memory "
         "does), power and electromagnetic leakage, the latency of "
         "instructions beyond those listed for the core, and inputs not "
         "tried (a branch taken for one secret in 2^64 will not show in 16 "
         "runs). Operands of a variable-latency instruction are not "
         "traced: each listed one needs a look at where its operands come "
         "from.\n\n");
  for (size_t i = 0; i < r->n_runs; i++) {
    int has = 0;
    for (size_t k = 0; k < r->runs[i].run.n_ops; k++)
      has |= r->runs[i].run.ops[k].has_ct_verdict;
    if (has)
      target(b, &r->runs[i]);
  }
}
