/* SPDX-License-Identifier: Apache-2.0 */
#include "report/report_md.h"
#include "report/report_ct.h"
#include "report/report_cycles.h"
#include "report/report_noise.h"

#include "analysis/groups.h"
#include "analysis/pairs.h"
#include "model/ct.h"
#include "model/stats.h"
#include "report/format.h"
#include "report/headline.h"
#include "report/report_impl.h"
#include "report/report_matrix.h"
#include "report/report_wf.h"
#include "util/strbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void title(mh_sb *b, const mh_result *x) {
  mh_sb_puts(b, "### ");
  mh_esc_md(b, x->target);
  mh_sb_puts(b, " (profile ");
  mh_esc_md(b, x->profile);
  mh_report_build_suffix(b, x, mh_esc_md);
  mh_sb_puts(b, ")\n\n");
}

/* A numeric provenance value with separators, or the text as is. */
static void prov_num(mh_sb *b, const char *s) {
  char *end;
  double v = s ? strtod(s, &end) : 0;
  if (s && *s && !*end && isfinite(v))
    mh_fmt_num(b, v);
  else
    mh_esc_md(b, s ? s : "?");
}

static void prov_list(mh_sb *b, const mh_run *run, const char *prefix,
                      const char *sep) {
  size_t pl = strlen(prefix);
  int any = 0;
  for (size_t i = 0; i < run->n_prov; i++) {
    if (strncmp(run->prov[i].key, prefix, pl) != 0)
      continue;
    mh_sb_puts(b, any ? "; " : "");
    mh_esc_md(b, run->prov[i].key + pl);
    mh_sb_puts(b, sep);
    mh_esc_md(b, run->prov[i].value);
    any = 1;
  }
  if (!any)
    mh_sb_puts(b, "none recorded");
}

/* What a run can carry but this one does not, and why (a run read with
 * --from or --port has no plugin side file, size images or memcheck pass;
 * docs/cli.md): marked absent rather than left out. */
static void absent(mh_sb *b, const mh_result *x) {
  const mh_run *run = &x->run;
  int timed = 0, sized = 0, vg = 0, secret = 0;
  for (size_t i = 0; i < run->n_ops; i++) {
    timed |= run->ops[i].n_samples > 0;
    secret |= run->ops[i].has_ct;
    vg |= run->ops[i].has_ct && run->ops[i].ct_vg >= 0;
  }
  for (size_t i = 0; i < x->n_algs; i++)
    sized |= x->algs[i].has_size;
  const char *sep = "";
  if (run->icount_shift >= 0 && timed && !run->cyc) {
    mh_sb_puts(b, "cycle estimates (no plugin side file: the run was read "
                  "with --from, or ran with --cycle-model off)");
    sep = "; ";
  }
  if (timed && !sized) {
    mh_sb_printf(b,
                 "%ssizes and board fits (no size images: the run was "
                 "read with --from or --port)",
                 sep);
    sep = "; ";
  }
  if (run->icount_shift < 0 && secret && !vg) {
    mh_sb_printf(b,
                 "%svalgrind constant-time verdicts (no memcheck pass: "
                 "the run was read with --from or ran without --ct)",
                 sep);
    sep = "; ";
  }
  size_t out = 0;
  for (size_t i = 0; i < x->n_impls; i++)
    out += x->impls[i].left_out != NULL;
  if (out) {
    mh_sb_printf(b,
                 "%s%zu implementation folder(s) left out of this image "
                 "(Implementation folders, below)",
                 sep, out);
    sep = "; ";
  }
  if (!*sep)
    mh_sb_puts(b, "nothing");
}

static void provenance(mh_sb *b, const mh_result *x) {
  const mh_run *run = &x->run;
  const char *s;
  title(b, x);
  mh_sb_puts(b, "| field | value |\n|---|---|\n| core | ");
  mh_esc_md(b, (s = mh_run_prov(run, "core")) ? s : "?");
  mh_sb_puts(b, " |\n| clock | ");
  s = mh_run_prov(run, "clock_hz");
  if (!s || strcmp(s, "0") == 0) {
    mh_sb_puts(b, "unknown (not reported by the target)");
  } else {
    prov_num(b, s);
    mh_sb_puts(b, " Hz");
  }
  mh_sb_puts(b, " |\n| cycle counter | ");
  mh_esc_md(b, (s = mh_run_prov(run, "cycle_counter")) ? s : "not recorded");
  mh_sb_puts(b, " |\n| counter | ");
  mh_esc_md(b, (s = mh_run_prov(run, "counter")) ? s : "?");
  mh_sb_puts(b, ", counts ");
  mh_esc_md(b, (s = mh_run_prov(run, "unit")) ? s : "?");
  mh_sb_puts(b, " at ");
  prov_num(b, mh_run_prov(run, "counter_hz"));
  mh_sb_puts(b, " Hz |\n| unit | ");
  mh_esc_md(b, run->unit);
  mh_sb_puts(b, " (one counter tick = ");
  mh_sb_double(b, run->ticks_to_unit);
  mh_sb_puts(b, " ");
  mh_esc_md(b, run->unit);
  mh_sb_puts(b, "; counter overhead ");
  mh_sb_printf(b, "%llu", (unsigned long long)run->overhead_ticks);
  mh_sb_puts(b, " ticks, subtracted) |\n| compiler | ");
  mh_esc_md(b, (s = mh_run_prov(run, "compiler")) ? s : "?");
  mh_sb_puts(b, " |\n| flags | ");
  mh_esc_md(b, (s = mh_run_prov(run, "cflags")) ? s : "?");
  /* Flags added to implementation folders, from the data file
   * src/backends/impl/compiler-workarounds.txt (docs/bring-your-own.md). */
  for (size_t i = 0; i < x->n_impls; i++) {
    if (!x->impls[i].compiler_workaround)
      continue;
    mh_sb_puts(b, " |\n| compiler workaround, ");
    mh_esc_md(b, x->impls[i].backend);
    mh_sb_puts(b, " | ");
    mh_esc_md(b, x->impls[i].compiler_workaround);
  }
  mh_sb_puts(b, " |\n| libraries | ");
  prov_list(b, run, "lib.", " ");
  mh_sb_puts(b, " |\n| routes | ");
  prov_list(b, run, "route.", ": ");
  mh_sb_puts(b, " |\n| source | ");
  mh_esc_md(b, (s = mh_run_prov(run, "source")) ? s : "?");
  mh_sb_puts(b, " |\n| runs | ");
  mh_esc_md(b, (s = mh_run_prov(run, "runs")) ? s : "?");
  mh_sb_puts(b, " timed after ");
  mh_esc_md(b, (s = mh_run_prov(run, "warmup")) ? s : "?");
  mh_sb_puts(b, " warm-up |\n| QEMU icount | ");
  if (run->icount_shift >= 0) {
    mh_sb_printf(b, "-icount shift=%d (2^%d ns per instruction); ",
                 run->icount_shift, run->icount_shift);
    mh_esc_md(b, x->qemu_version ? x->qemu_version : "QEMU version unknown");
  } else {
    mh_sb_puts(b, "not emulated");
  }
  mh_sb_puts(b, " |\n| host | ");
  mh_esc_md(b, x->host ? x->host : "?");
  mh_sb_puts(b, " |\n| not in this run | ");
  absent(b, x);
  mh_sb_puts(b, " |\n\n");
}

static void payload(mh_sb *b, const mh_op *op) {
  if (op->bytes < 0)
    mh_sb_puts(b, "-");
  else
    mh_sb_printf(b, "%ld B", op->bytes);
}

/* The operation got fewer timed samples than the run asked for. */
static int budget_cut(const mh_run *run, const mh_op *op) {
  const char *runs = mh_run_prov(run, "runs");
  return runs && op->kat == MH_KAT_PASS && op->n < strtoul(runs, NULL, 10);
}

static void group_name(mh_sb *b, const mh_an_group *g) {
  mh_esc_md(b, g->backend);
  if (g->variant) {
    mh_sb_puts(b, " (");
    mh_esc_md(b, g->variant);
    mh_sb_puts(b, ")");
  }
}

/* The column groups of run (*g malloc'd, NULL when none) and the header of
 * a table with the columns lead ("| operation |"), then per group the
 * statistics stat[0..n_stat); align: the lead's alignment row. Returns how
 * many groups, with b->failed set on allocation failure. */
static size_t group_header(mh_sb *b, const mh_run *run, mh_an_group **g,
                           const char *lead, const char *align,
                           const char *const *stat, size_t n_stat) {
  *g = run->n_ops ? calloc(run->n_ops, sizeof **g) : NULL;
  if (run->n_ops && !*g) {
    b->failed = 1;
    return 0;
  }
  size_t ng = *g ? mh_an_groups(run, *g) : 0;
  mh_sb_puts(b, lead);
  for (size_t k = 0; k < ng; k++)
    for (size_t s = 0; s < n_stat; s++) {
      mh_sb_putc(b, ' ');
      group_name(b, &(*g)[k]);
      mh_sb_printf(b, " %s (", stat[s]);
      mh_esc_md(b, run->unit);
      mh_sb_puts(b, ") |");
    }
  mh_sb_puts(b, align);
  for (size_t k = 0; k < n_stat * ng; k++)
    mh_sb_puts(b, "---:|");
  mh_sb_putc(b, '\n');
  return ng;
}

/* The cells of row run->ops[i]: per group median, p99 and IQR. */
static void result_cells(mh_sb *b, const mh_run *run, size_t i,
                         const mh_an_group *g, size_t ng) {
  for (size_t k = 0; k < ng; k++) {
    const mh_op *hit = mh_an_row_cell(run, i, &g[k]);
    if (!hit) {
      mh_sb_puts(b, " - | - | - |");
      continue;
    }
    const double v[3] = {hit->stats.median, hit->stats.p99, hit->stats.iqr};
    for (size_t s = 0; s < 3; s++) {
      mh_sb_putc(b, ' ');
      mh_fmt_num(b, v[s]);
      /* Fewer samples than asked: the run budget cut them (n is the
       * truth; see the note under the table). */
      if (s == 0 && budget_cut(run, hit))
        mh_sb_printf(b, " (n=%u)†", hit->n);
      mh_sb_puts(b, " |");
    }
  }
}

static void results_table(mh_sb *b, const mh_result *x) {
  const mh_run *run = &x->run;
  title(b, x);
  if (run->n_ops == 0) {
    mh_sb_puts(b, "No operations.\n\n");
    return;
  }
  static const char *const stat[] = {"median", "p99", "IQR"};
  mh_an_group *g;
  size_t ng = group_header(b, run, &g, "| operation | payload |",
                           "\n|---|---:|", stat, 3);
  if (!g)
    return;
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *row = &run->ops[i];
    if (!mh_an_first_of_row(run, i))
      continue;
    mh_sb_puts(b, "| ");
    mh_esc_md(b, row->alg);
    mh_sb_putc(b, ' ');
    mh_esc_md(b, row->op);
    mh_sb_puts(b, " | ");
    payload(b, row);
    mh_sb_puts(b, " |");
    result_cells(b, run, i, g, ng);
    mh_sb_putc(b, '\n');
  }
  mh_sb_putc(b, '\n');
  int any_cut = 0;
  for (size_t i = 0; i < run->n_ops; i++)
    any_cut |= budget_cut(run, &run->ops[i]);
  if (any_cut)
    mh_sb_puts(b, "† fewer timed samples than asked: the operation's run "
                  "budget limited them (n is given); statistics are over "
                  "those samples.\n\n");
  mh_report_md_noise(b, x); /* host/report/report_noise.c */
  free(g);
}

static void comparison(mh_sb *b, const mh_result *x) {
  const mh_run *run = &x->run;
  title(b, x);
  int any = 0;
  for (size_t i = 0; i < run->n_ops; i++)
    any |= mh_an_cmp_index(&run->ops[i]) >= 0;
  if (!any) {
    mh_sb_puts(b, "This profile measures none of the key establishment and "
                  "signature operations compared here (ECDH P-256, X25519, "
                  "ECDSA P-256, Ed25519, ML-KEM-512/768, ML-DSA-44/65).\n\n");
    return;
  }
  mh_sb_puts(b, "Medians, in ");
  mh_esc_md(b, run->unit);
  mh_sb_puts(b, ".\n\n");
  static const char *const stat[] = {"median"};
  mh_an_group *g;
  size_t ng = group_header(b, run, &g, "| operation |", "\n|---|", stat, 1);
  if (!g)
    return;
  for (size_t c = 0; c < mh_an_n_cmp_ops; c++) {
    for (size_t i = 0; i < run->n_ops; i++) {
      const mh_op *row = &run->ops[i];
      if (mh_an_cmp_index(row) != (int)c || !mh_an_first_of_row(run, i))
        continue;
      mh_sb_printf(b, "| %s", mh_an_cmp_ops[c].label);
      if (row->bytes >= 0)
        mh_sb_printf(b, " (%ld B)", row->bytes);
      mh_sb_puts(b, " |");
      for (size_t k = 0; k < ng; k++) {
        const mh_op *hit = mh_an_row_cell(run, i, &g[k]);
        mh_sb_putc(b, ' ');
        if (hit)
          mh_fmt_num(b, hit->stats.median);
        else
          mh_sb_putc(b, '-');
        mh_sb_puts(b, " |");
      }
      mh_sb_putc(b, '\n');
    }
  }
  mh_sb_putc(b, '\n');
  free(g);
}

/* ---- code, stack and time ---------------------------------------------- */

typedef enum {
  ROW_CODE,
  ROW_SRAM,
  ROW_STACK,
  ROW_HEAP,
  ROW_TIME,
  ROW_CT
} row_kind;

static const char *ct_cell(const mh_op *o) {
  if (!o || !o->has_ct_verdict)
    return "-";
  switch (o->ct_status) {
  case MH_CT_NONE:
    return "no finding";
  case MH_CT_EXPECTED:
    return "expected finding";
  case MH_CT_FINDING:
    return "**FINDING**";
  default:
    return "not checked";
  }
}

static void cst_row(mh_sb *b, const mh_results *r, const mh_result *x,
                    const mh_op *const *cols, size_t nc, row_kind kind) {
  mh_sb_puts(b, "| ");
  mh_report_md_run_label(b, r, x);
  if (kind == ROW_CODE || kind == ROW_SRAM) {
    /* Per algorithm, not per operation: once, in the first column. */
    const mh_alg_cost *a = mh_result_alg(x, cols[0]->alg, cols[0]->backend);
    mh_sb_puts(b, kind == ROW_CODE ? " code (bytes, whole algorithm)"
                                   : " static RAM (bytes, whole algorithm)");
    for (size_t c = 0; c < nc; c++) {
      mh_sb_puts(b, " | ");
      if (c == 0 && a && a->has_size)
        mh_fmt_num(b,
                   (double)(kind == ROW_CODE ? a->flash_bytes : a->ram_bytes));
      else
        mh_sb_puts(b, c == 0 ? "-" : "");
    }
    mh_sb_puts(b, " |\n");
    return;
  }
  if (kind == ROW_CT) {
    mh_sb_puts(b, " constant time");
    for (size_t c = 0; c < nc; c++) {
      mh_sb_puts(b, " | ");
      mh_sb_puts(b, ct_cell(mh_run_find_op(&x->run, cols[c])));
    }
    mh_sb_puts(b, " |\n");
    return;
  }
  mh_sb_puts(b, kind == ROW_STACK  ? " stack (bytes)"
                : kind == ROW_HEAP ? " heap (bytes / allocations)"
                                   : " time (median, ");
  if (kind == ROW_TIME) {
    mh_esc_md(b, x->run.unit ? x->run.unit : "?");
    mh_sb_putc(b, ')');
  }
  for (size_t c = 0; c < nc; c++) {
    const mh_op *o = mh_run_find_op(&x->run, cols[c]);
    mh_sb_puts(b, " | ");
    if (!o || (kind != ROW_TIME && !o->has_mem))
      mh_sb_puts(b, "-");
    else if (kind == ROW_STACK)
      mh_fmt_num(b, (double)o->stack_bytes);
    else if (kind == ROW_HEAP)
      mh_sb_printf(b, "%llu / %llu", (unsigned long long)o->heap_bytes,
                   (unsigned long long)o->heap_allocs);
    else
      mh_fmt_num(b, o->stats.median);
  }
  mh_sb_puts(b, " |\n");
}

/* "#### alg (backend)", the object sizes and the column header of the
 * (algorithm, backend) of run ri. */
static void cst_head(mh_sb *b, const mh_result *x, const mh_op *pair,
                     const mh_op *const *cols, size_t nc) {
  mh_sb_puts(b, "#### ");
  mh_esc_md(b, pair->alg);
  mh_sb_puts(b, " (");
  mh_esc_md(b, pair->backend);
  mh_sb_puts(b, ")\n\n");
  const mh_alg_cost *a = mh_result_alg(x, pair->alg, pair->backend);
  char name[16];
  unsigned long long v;
  for (size_t k = 0;
       a && a->obj && mh_obj_get(a->obj, k, name, sizeof name, &v) == 0; k++) {
    mh_sb_puts(b, k ? ", "
                    : "Object sizes (bytes, the library's "
                      "constants, checked by the KATs): ");
    mh_esc_md(b, name);
    mh_sb_putc(b, ' ');
    mh_fmt_num(b, (double)v);
  }
  if (a && a->obj)
    mh_sb_puts(b, ".\n\n");
  mh_sb_puts(b, "| |");
  for (size_t c = 0; c < nc; c++) {
    mh_sb_putc(b, ' ');
    mh_esc_md(b, cols[c]->op);
    if (cols[c]->bytes >= 0)
      mh_sb_printf(b, " %ld B", cols[c]->bytes);
    mh_sb_puts(b, " |");
  }
  mh_sb_puts(b, "\n|---|");
  for (size_t c = 0; c < nc; c++)
    mh_sb_puts(b, "---:|");
  mh_sb_putc(b, '\n');
}

/* The rows of one target x for the columns cols (none when it measured
 * none of them). */
static void cst_rows(mh_sb *b, const mh_results *r, const mh_result *x,
                     const mh_op *pair, const mh_op *const *cols, size_t nc) {
  int has = 0, heap = 0, ct = 0;
  for (size_t c = 0; c < nc; c++) {
    const mh_op *o = mh_run_find_op(&x->run, cols[c]);
    has |= o != NULL;
    heap |= o && o->has_mem && (o->heap_bytes || o->heap_allocs);
    ct |= o && o->has_ct_verdict;
  }
  if (!has)
    return;
  const mh_alg_cost *ac = mh_result_alg(x, pair->alg, pair->backend);
  if (ac && ac->has_size)
    cst_row(b, r, x, cols, nc, ROW_CODE);
  if (ac && ac->has_size && ac->ram_bytes)
    cst_row(b, r, x, cols, nc, ROW_SRAM);
  cst_row(b, r, x, cols, nc, ROW_STACK);
  if (heap)
    cst_row(b, r, x, cols, nc, ROW_HEAP);
  cst_row(b, r, x, cols, nc, ROW_TIME);
  if (ct)
    cst_row(b, r, x, cols, nc, ROW_CT);
}

/* Why, for every constant-time verdict that is not a plain pass. */
static void ct_notes(mh_sb *b, const mh_results *r, const mh_op *const *cols,
                     size_t nc) {
  for (size_t i = 0; i < r->n_runs; i++)
    for (size_t k = 0; k < nc; k++) {
      const mh_op *o = mh_run_find_op(&r->runs[i].run, cols[k]);
      if (!o || !o->has_ct_verdict || o->ct_status == MH_CT_NONE ||
          !o->ct_detail || !o->ct_detail[0])
        continue;
      int dup = 0; /* payload sizes share one verdict text */
      for (size_t q = 0; q < k && !dup; q++) {
        const mh_op *p = mh_run_find_op(&r->runs[i].run, cols[q]);
        dup = p && p->has_ct_verdict && mh_str_same(p->op, o->op) &&
              mh_str_same(p->ct_detail, o->ct_detail);
      }
      if (dup)
        continue;
      mh_sb_puts(b, "- ");
      mh_esc_md(b, r->runs[i].target);
      mh_sb_puts(b, ", ");
      mh_esc_md(b, o->op);
      mh_sb_puts(b, ": ");
      mh_esc_md(b, o->ct_detail);
      mh_sb_putc(b, '\n');
    }
}

/* Per (algorithm, backend): its operations across, and per target the rows
 * stack, heap (where any is non-zero) and time, so that another target adds
 * rows, not columns. */
static void code_stack_time(mh_sb *b, const mh_results *r) {
  mh_sb_puts(b, "Per algorithm and backend, operations across; per target: "
                "code (flash: .text + .rodata + .data of an image with only "
                "this algorithm, minus an empty image built the same way; "
                "docs/sizes.md), static RAM where not zero, peak stack of one "
                "run, peak heap (bytes / allocations, where not zero) and "
                "median time. Stack and heap are measured on the target "
                "(painted stack, allocation hook; docs/results.md). Constant "
                "time, for operations with a secret input: instruction counts "
                "over 16 fresh secrets with fixed public inputs (QEMU) and "
                "valgrind memcheck with the secret marked undefined (host, "
                "merlin run --ct); docs/constant-time.md.\n\n");
  for (size_t ri = 0; ri < r->n_runs; ri++) {
    const mh_run *run0 = &r->runs[ri].run;
    for (size_t oi = 0; oi < run0->n_ops; oi++) {
      if (!mh_an_first_alg(r, ri, oi))
        continue;
      const mh_op *pair = &run0->ops[oi];
      const mh_op **cols;
      size_t nc;
      if (mh_an_alg_ops(r, pair->alg, pair->backend, &cols, &nc) != 0) {
        b->failed = 1;
        return;
      }
      cst_head(b, &r->runs[ri], pair, cols, nc);
      for (size_t i = 0; i < r->n_runs; i++)
        cst_rows(b, r, &r->runs[i], pair, cols, nc);
      mh_sb_putc(b, '\n');
      ct_notes(b, r, cols, nc);
      mh_sb_putc(b, '\n');
      free(cols);
    }
  }
}

/* Per target: algorithm x described board of the same core. */
static void fits_table(mh_sb *b, const mh_result *x) {
  const mh_alg_cost *first = NULL;
  for (size_t i = 0; i < x->n_algs && !first; i++)
    if (x->algs[i].n_fits)
      first = &x->algs[i];
  if (!first)
    return;
  title(b, x);
  mh_sb_puts(b, "Code plus static RAM, peak stack and peak heap of each "
                "algorithm against each part's flash and RAM (boards/, "
                "docs/boards.md). The needs are the algorithm's alone.\n\n"
                "| algorithm (backend) |");
  for (size_t k = 0; k < first->n_fits; k++)
    if (first->fit[k] != -1) {
      mh_sb_putc(b, ' ');
      mh_esc_md(b, first->fit_board[k]);
      mh_sb_puts(b, " |");
    }
  mh_sb_puts(b, "\n|---|");
  for (size_t k = 0; k < first->n_fits; k++)
    if (first->fit[k] != -1)
      mh_sb_puts(b, "---|");
  mh_sb_putc(b, '\n');
  for (size_t i = 0; i < x->n_algs; i++) {
    const mh_alg_cost *a = &x->algs[i];
    if (!a->n_fits)
      continue;
    mh_sb_puts(b, "| ");
    mh_esc_md(b, a->alg);
    mh_sb_puts(b, " (");
    mh_esc_md(b, a->backend);
    mh_sb_puts(b, ") |");
    for (size_t k = 0; k < a->n_fits; k++) {
      if (a->fit[k] == -1)
        continue;
      mh_sb_putc(b, ' ');
      if (a->fit[k] == 1)
        mh_sb_puts(b, "fits");
      else
        mh_esc_md(b, a->fit_reason[k]);
      mh_sb_puts(b, " |");
    }
    mh_sb_putc(b, '\n');
  }
  int note = 0;
  for (size_t k = 0; k < first->n_fits; k++)
    if (first->fit[k] == -1) {
      mh_sb_puts(b, note ? ", " : "\nNot evaluated: ");
      mh_esc_md(b, first->fit_board[k]);
      mh_sb_puts(b, " (");
      mh_esc_md(b, first->fit_reason[k] + (strncmp(first->fit_reason[k],
                                                   "not evaluated: ", 15) == 0
                                               ? 15
                                               : 0));
      mh_sb_putc(b, ')');
      note = 1;
    }
  mh_sb_puts(b, note ? ".\n\n" : "\n");
}

/* ---- ratios ------------------------------------------------------------ */

/* Post-quantum against classical for the same job, each backend against
 * every classical backend (host/analysis/pairs.h). */
static void ratio_section(mh_sb *b, const mh_run *run, mh_an_contest_id c) {
  static const char *const what[MH_AN_N_CONTESTS] = {
      [MH_AN_KE_INIT] = "Key establishment, the side that generates a key "
                        "pair:",
      [MH_AN_KE_RESP] = "Key establishment, the side that answers (ML-KEM "
                        "encaps against a full ECDH/X25519 exchange):",
      [MH_AN_VERIFY] = "Authentication, verifying:",
      [MH_AN_SIGN] = "Authentication, signing:",
  };
  mh_an_ratio *v;
  size_t n;
  if (mh_an_ratios(run, c, MH_AN_EVERY, &v, &n) != 0) {
    b->failed = 1;
    return;
  }
  if (n)
    mh_sb_printf(b,
                 "%s\n\n| post-quantum | backend | classical | "
                 "backend | ratio of medians | ratio of p99s |\n"
                 "|---|---|---|---|---:|---:|\n",
                 what[c]);
  for (size_t i = 0; i < n; i++) {
    mh_sb_printf(b, "| %s | ", v[i].pq->label);
    mh_esc_md(b, v[i].pq_backend);
    mh_sb_printf(b, " | %s | ", v[i].ref->label);
    mh_esc_md(b, v[i].ref_backend);
    mh_sb_printf(b, " | %.2f | %.2f |\n", v[i].median, v[i].p99);
  }
  if (n)
    mh_sb_putc(b, '\n');
  free(v);
}

static void ratios(mh_sb *b, const mh_result *x) {
  const mh_run *run = &x->run;
  title(b, x);
  mh_sb_puts(b, "Ratios above 1: the post-quantum job costs more. Spread: the "
                "ratio of the jobs' p99s (sums of the operations' p99s).\n\n");
  for (int c = 0; c < MH_AN_N_CONTESTS; c++)
    ratio_section(b, run, (mh_an_contest_id)c);
  /* Backend against backend for the same operation. */
  int header = 0;
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *o = &run->ops[i];
    if (!o->n_samples || o->stats.median <= 0)
      continue;
    size_t nb;
    const mh_op *best = mh_an_fastest(run, i, &nb);
    if (nb < 2 || best == o)
      continue;
    if (!header) {
      mh_sb_puts(b, "Backend against backend (the same operation; ratio to "
                    "the fastest):\n\n| operation | backend | fastest | ratio "
                    "of medians |\n|---|---|---|---:|\n");
      header = 1;
    }
    mh_fmt_md_op_cells(b, o);
    mh_sb_puts(b, " | ");
    mh_esc_md(b, best->backend);
    mh_sb_printf(b, " | %.2f |\n", o->stats.median / best->stats.median);
  }
  if (header)
    mh_sb_putc(b, '\n');
}

/* Target against target: the same operation in two runs counted in the same
 * unit (instructions on two QEMU cores, for instance). */
static void target_ratios(mh_sb *b, const mh_results *r) {
  int header = 0;
  for (size_t i = 0; i < r->n_runs; i++)
    for (size_t j = i + 1; j < r->n_runs; j++) {
      const mh_run *a = &r->runs[i].run, *c = &r->runs[j].run;
      if (!mh_an_comparable_runs(r, i, j))
        continue;
      for (size_t k = 0; k < c->n_ops; k++) {
        const mh_op *q = &c->ops[k];
        const mh_op *p = mh_run_find_op(a, q);
        if (!p || !p->n_samples || !q->n_samples || p->stats.median <= 0)
          continue;
        if (!header) {
          mh_sb_puts(b, "## Target against target\n\nThe same operation "
                        "and backend on two targets counted in the same "
                        "unit.\n\n| operation | backend | targets | ratio "
                        "of medians |\n|---|---|---|---:|\n");
          header = 1;
        }
        mh_fmt_md_op_cells(b, q);
        mh_sb_puts(b, " | ");
        mh_report_md_run_label(b, r, &r->runs[j]);
        mh_sb_puts(b, " / ");
        mh_report_md_run_label(b, r, &r->runs[i]);
        mh_sb_printf(b, " | %.2f |\n", q->stats.median / p->stats.median);
      }
    }
  if (header)
    mh_sb_putc(b, '\n');
}

/* ---- repeatability ----------------------------------------------------- */

/* merlin run --repeat K: how far each operation's median moved across K
 * fresh runs of the target. Under QEMU a deterministic image gives zero. */
static void repeatability(mh_sb *b, const mh_result *x) {
  const mh_run *run = &x->run;
  size_t n = 0, zero = 0;
  uint32_t k = 0;
  for (size_t i = 0; i < run->n_ops; i++)
    if (run->ops[i].n_repeat) {
      n++;
      k = run->ops[i].n_repeat;
      zero += run->ops[i].repeat_max == run->ops[i].repeat_min;
    }
  if (!n)
    return;
  title(b, x);
  mh_sb_printf(b,
               "%u runs of the target, each a fresh process: %zu of %zu "
               "operations have the same median every time.\n\n",
               (unsigned)k, zero, n);
  if (zero == n)
    return;
  mh_sb_puts(b, "| operation | backend | lowest median | highest median | "
                "spread |\n|---|---|---:|---:|---:|\n");
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *o = &run->ops[i];
    if (!o->n_repeat || o->repeat_max == o->repeat_min)
      continue;
    mh_fmt_md_op_cells(b, o);
    mh_sb_puts(b, " | ");
    mh_fmt_num(b, o->repeat_min);
    mh_sb_puts(b, " | ");
    mh_fmt_num(b, o->repeat_max);
    mh_sb_printf(b, " | %.2f %% |\n",
                 o->repeat_min > 0
                     ? (o->repeat_max - o->repeat_min) / o->repeat_min * 100.0
                     : 0.0);
  }
  mh_sb_putc(b, '\n');
}

/* ---- distributions ----------------------------------------------------- */

/* Operations whose samples spread (host/analysis/groups.h): percentiles,
 * and the p99 / median ratio a deadline has to allow for. */
static void distributions(mh_sb *b, const mh_result *x) {
  const mh_run *run = &x->run;
  int header = 0;
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *o = &run->ops[i];
    if (!mh_an_spread(o))
      continue;
    if (!header) {
      title(b, x);
      mh_sb_puts(b, "Operations whose samples spread (coefficient of "
                    "variation above 5 %), in ");
      mh_esc_md(b, run->unit);
      mh_sb_puts(b, ".\n\n| operation | backend | n | p1 | p10 | p50 | p90 | "
                    "p99 | max | p99 / median |\n"
                    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      header = 1;
    }
    static const double ps[] = {0.01, 0.10, 0.50, 0.90, 0.99};
    mh_fmt_md_op_cells(b, o);
    mh_sb_printf(b, " | %zu |", o->n_samples);
    for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
      mh_sb_putc(b, ' ');
      mh_fmt_num(b, mh_percentile(o->samples, o->n_samples, ps[k]));
      mh_sb_puts(b, " |");
    }
    mh_sb_putc(b, ' ');
    mh_fmt_num(b, o->stats.max);
    mh_sb_printf(b, " | %.2f |\n", o->stats.p99 / o->stats.median);
  }
  if (header)
    mh_sb_putc(b, '\n');
}

/* ---- cost versus payload ---------------------------------------------- */

/* time = fixed + rate * bytes per payload-dependent operation. */
static void payload_fits(mh_sb *b, const mh_result *x) {
  const mh_run *run = &x->run;
  int header = 0;
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *o = &run->ops[i];
    mh_an_fit f;
    if (!mh_an_payload_fit(run, i, &f))
      continue;
    if (!header) {
      title(b, x);
      mh_sb_puts(b,
                 "Median time = fixed + rate x bytes, least squares over the "
                 "measured payloads; the residual is the largest distance "
                 "of a median from the line, relative to it.\n\n"
                 "| operation | backend | payloads | fixed (");
      mh_esc_md(b, run->unit);
      mh_sb_puts(b, ") | rate (");
      mh_esc_md(b, run->unit);
      mh_sb_puts(
          b, " per byte) | max residual |\n|---|---|---:|---:|---:|---:|\n");
      header = 1;
    }
    mh_sb_puts(b, "| ");
    mh_esc_md(b, o->alg);
    mh_sb_putc(b, ' ');
    mh_esc_md(b, o->op);
    mh_sb_puts(b, " | ");
    mh_esc_md(b, o->backend);
    mh_sb_printf(b, " | %zu | ", f.n_points);
    mh_fmt_num(b, f.fixed);
    mh_sb_puts(b, " | ");
    mh_fmt_num(b, f.rate);
    mh_sb_printf(b, " | %.1f%% |\n", f.worst * 100.0);
  }
  if (header)
    mh_sb_putc(b, '\n');
}

char *mh_report_md(const mh_results *r) {
  mh_sb b = {0};
  mh_sb_puts(&b, "# Merlin benchmark report\n\n");
  mh_sb_puts(&b, "Created ");
  mh_esc_md(&b, r->created ? r->created : "?");
  mh_sb_puts(&b, " by merlin ");
  mh_esc_md(&b, r->merlin ? r->merlin : "?");
  mh_sb_puts(&b, ". Every operation passed its known-answer test before it was "
                 "timed. Values are per operation, with the counter overhead "
                 "subtracted: median, 99th percentile (p99) and interquartile "
                 "range (IQR) of the timed runs. Numbers are rounded here; "
                 "results.json holds exact values and every sample.\n\n");
  mh_report_headline(&b, r, 0); /* host/report/headline.c */
  mh_sb_puts(&b, "## Provenance\n\n");
  for (size_t i = 0; i < r->n_runs; i++)
    provenance(&b, &r->runs[i]);
  mh_report_impl_md(&b, r); /* host/report/report_impl.c */
  mh_sb_puts(&b, "## Results\n\n");
  for (size_t i = 0; i < r->n_runs; i++)
    results_table(&b, &r->runs[i]);
  mh_report_cycles_md(&b, r); /* "Cycles (estimate)", QEMU plugin */
  mh_report_md_matrix(&b, r);
  mh_sb_puts(&b, "## Code, stack and time\n\n");
  code_stack_time(&b, r);
  mh_report_ct_md(&b, r); /* "Constant time", host/report/report_ct.c */
  int any_fits = 0;
  for (size_t i = 0; i < r->n_runs; i++)
    for (size_t k = 0; k < r->runs[i].n_algs; k++)
      any_fits |= r->runs[i].algs[k].n_fits > 0;
  if (any_fits) {
    mh_sb_puts(&b, "## Does it fit\n\n");
    for (size_t i = 0; i < r->n_runs; i++)
      fits_table(&b, &r->runs[i]);
  }
  mh_sb_puts(&b, "## Ratios\n\n");
  for (size_t i = 0; i < r->n_runs; i++)
    ratios(&b, &r->runs[i]);
  target_ratios(&b, r);
  int any_repeat = 0;
  for (size_t i = 0; i < r->n_runs; i++)
    for (size_t k = 0; k < r->runs[i].run.n_ops; k++)
      any_repeat |= r->runs[i].run.ops[k].n_repeat > 0;
  if (any_repeat) {
    mh_sb_puts(&b, "## Repeatability\n\n");
    for (size_t i = 0; i < r->n_runs; i++)
      repeatability(&b, &r->runs[i]);
  }
  mh_sb_puts(&b, "## Distributions\n\n");
  for (size_t i = 0; i < r->n_runs; i++)
    distributions(&b, &r->runs[i]);
  mh_sb_puts(&b, "## Cost versus payload\n\n");
  for (size_t i = 0; i < r->n_runs; i++)
    payload_fits(&b, &r->runs[i]);
  mh_sb_puts(&b, "## Classical vs post-quantum\n\n");
  for (size_t i = 0; i < r->n_runs; i++)
    comparison(&b, &r->runs[i]);
  mh_report_md_workflows(&b, r); /* host/report/report_wf.c */
  if (b.failed) {
    mh_sb_free(&b);
    return NULL;
  }
  return b.s;
}
