/* SPDX-License-Identifier: Apache-2.0 */
#include "report/report_matrix.h"

#include "model/build.h"
#include "report/format.h"

#include <stdlib.h>
#include <string.h>

/* "gcc 12.2.1 -O2": the build of x (the optimisation when known), each
 * word escaped by esc. */
static void build(mh_sb *b, const mh_result *x, mh_esc_fn esc) {
  char cc[64], opt[32];
  mh_result_cc(x, cc, sizeof cc);
  mh_result_opt(x, opt, sizeof opt);
  esc(b, cc);
  if (*opt) {
    mh_sb_putc(b, ' ');
    esc(b, opt);
  }
}

void mh_report_build_suffix(mh_sb *b, const mh_result *x, mh_esc_fn esc) {
  if (!mh_run_prov(&x->run, "compiler"))
    return;
  mh_sb_puts(b, ", ");
  build(b, x, esc);
}

void mh_report_md_run_label(mh_sb *b, const mh_results *r, const mh_result *x) {
  mh_esc_md(b, x->target);
  if (!mh_results_is_matrix(r))
    return;
  mh_sb_puts(b, " (");
  build(b, x, mh_esc_md);
  mh_sb_putc(b, ')');
}

/* "gcc 12.2.1": the family and the last word of the provenance compiler
 * ("arm-none-eabi-gcc GNU 12.2.1"). */
static void compiler_cell(mh_sb *b, const mh_result *x) {
  char cc[64];
  mh_result_cc(x, cc, sizeof cc);
  mh_esc_md(b, cc);
  const char *c = mh_run_prov(&x->run, "compiler");
  const char *v = c ? strrchr(c, ' ') : NULL;
  if (v)
    mh_esc_md(b, v);
}

/* The runs of r with x's target and profile, in file order. */
static size_t group_of(const mh_results *r, const mh_result *x,
                       const mh_result **g) {
  size_t n = 0;
  for (size_t i = 0; i < r->n_runs; i++)
    if (mh_str_same(r->runs[i].target, x->target) &&
        mh_str_same(r->runs[i].profile, x->profile))
      g[n++] = &r->runs[i];
  return n;
}

static void group_table(mh_sb *b, const mh_result *const *g, size_t n) {
  const mh_result *first = g[0];
  char cc[64], opt[32];
  mh_sb_puts(b, "### ");
  mh_esc_md(b, first->target);
  mh_sb_puts(b, " (profile ");
  mh_esc_md(b, first->profile);
  mh_sb_puts(b, ")\n\nMedian per operation in ");
  mh_esc_md(b, first->run.unit);
  mh_sb_puts(b, ", one row per compiler and optimisation level; `x first` is "
                "the median over the first row's (");
  mh_result_cc(first, cc, sizeof cc);
  mh_result_opt(first, opt, sizeof opt);
  mh_esc_md(b, cc);
  mh_sb_putc(b, ' ');
  mh_esc_md(b, opt);
  mh_sb_puts(b, "). Flash is the algorithm's code in an image built the "
                "same way (merlin sizes).\n\n"
                "| operation | backend | compiler | opt | median | p99 | IQR "
                "| x first | flash (bytes) |\n"
                "|---|---|---|---|---:|---:|---:|---:|---:|\n");
  for (size_t i = 0; i < first->run.n_ops; i++) {
    const mh_op *o0 = &first->run.ops[i];
    for (size_t k = 0; k < n; k++) {
      const mh_op *o = mh_run_find_op(&g[k]->run, o0);
      if (!o)
        continue;
      mh_fmt_md_op_cells(b, o);
      mh_sb_puts(b, " | ");
      compiler_cell(b, g[k]);
      mh_sb_puts(b, " | ");
      mh_result_opt(g[k], opt, sizeof opt);
      mh_esc_md(b, opt);
      const double v[] = {o->stats.median, o->stats.p99, o->stats.iqr};
      mh_fmt_nums(b, " | ", v, 3);
      mh_sb_puts(b, " | ");
      if (o0->stats.median > 0)
        mh_sb_printf(b, "%.3f", o->stats.median / o0->stats.median);
      mh_sb_puts(b, " | ");
      const mh_alg_cost *a = mh_result_alg(g[k], o->alg, o->backend);
      if (a && a->has_size)
        mh_fmt_num(b, (double)a->flash_bytes);
      mh_sb_puts(b, " |\n");
    }
  }
  mh_sb_putc(b, '\n');
}

void mh_report_md_matrix(mh_sb *b, const mh_results *r) {
  if (!mh_results_is_matrix(r))
    return;
  const mh_result **g = calloc(r->n_runs, sizeof *g);
  if (!g) {
    b->failed = 1;
    return;
  }
  mh_sb_puts(b, "## Compiler and optimisation matrix\n\n");
  for (size_t i = 0; i < r->n_runs; i++) {
    const mh_result *x = &r->runs[i];
    int seen = 0;
    for (size_t k = 0; k < i && !seen; k++)
      seen = mh_str_same(r->runs[k].target, x->target) &&
             mh_str_same(r->runs[k].profile, x->profile);
    if (seen)
      continue;
    size_t n = group_of(r, x, g);
    if (n >= 2)
      group_table(b, g, n);
  }
  free(g);
}
