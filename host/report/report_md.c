/* SPDX-License-Identifier: Apache-2.0 */
#include "report/report_md.h"
#include "report/report_cycles.h"

#include "model/stats.h"
#include "report/report_matrix.h"
#include "report/report_wf.h"
#include "run/ct.h"
#include "util/strbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mh_format_number(double v, char *buf, size_t len) {
  if (!isfinite(v)) {
    snprintf(buf, len, "%g", v);
    return;
  }
  double a = fabs(v);
  int dec = a == floor(a) || a >= 1000 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
  char raw[64];
  snprintf(raw, sizeof raw, "%.*f", dec, a);
  const char *dot = strchr(raw, '.');
  size_t ilen = dot ? (size_t)(dot - raw) : strlen(raw);
  char out[96];
  size_t o = 0;
  if (v < 0 && strspn(raw, "0.") != strlen(raw))
    out[o++] = '-';
  for (size_t i = 0; i < ilen; i++) {
    if (i && (ilen - i) % 3 == 0)
      out[o++] = ',';
    out[o++] = raw[i];
  }
  if (dot) {
    size_t rest = strlen(dot);
    memcpy(out + o, dot, rest);
    o += rest;
  }
  out[o] = '\0';
  snprintf(buf, len, "%s", out);
}

/* Text for a table cell or list item: no '|', no line breaks. */
static void cell(mh_sb *b, const char *s) {
  for (; s && *s; s++) {
    if (*s == '|')
      mh_sb_putc(b, '\\');
    mh_sb_putc(b, *s == '\n' || *s == '\r' ? ' ' : *s);
  }
}

/* "| alg op [N B] | backend": the first two cells of an operation's row. */
static void op_cells(mh_sb *b, const mh_op *o) {
  mh_sb_puts(b, "| ");
  cell(b, o->alg);
  mh_sb_putc(b, ' ');
  cell(b, o->op);
  if (o->bytes >= 0)
    mh_sb_printf(b, " %ld B", o->bytes);
  mh_sb_puts(b, " | ");
  cell(b, o->backend);
}

static void num(mh_sb *b, double v) {
  char t[96];
  mh_format_number(v, t, sizeof t);
  mh_sb_puts(b, t);
}

static void title(mh_sb *b, const mh_result *x) {
  mh_sb_puts(b, "### ");
  cell(b, x->target);
  mh_sb_puts(b, " (profile ");
  cell(b, x->profile);
  mh_report_md_build_suffix(b, x);
  mh_sb_puts(b, ")\n\n");
}

/* A numeric provenance value with separators, or the text as is. */
static void prov_num(mh_sb *b, const char *s) {
  char *end;
  double v = s ? strtod(s, &end) : 0;
  if (s && *s && !*end && isfinite(v))
    num(b, v);
  else
    cell(b, s ? s : "?");
}

static void prov_list(mh_sb *b, const mh_run *run, const char *prefix,
                      const char *sep) {
  size_t pl = strlen(prefix);
  int any = 0;
  for (size_t i = 0; i < run->n_prov; i++) {
    if (strncmp(run->prov[i].key, prefix, pl) != 0)
      continue;
    mh_sb_puts(b, any ? "; " : "");
    cell(b, run->prov[i].key + pl);
    mh_sb_puts(b, sep);
    cell(b, run->prov[i].value);
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
  if (!*sep)
    mh_sb_puts(b, "nothing");
}

static void provenance(mh_sb *b, const mh_result *x) {
  const mh_run *run = &x->run;
  const char *s;
  title(b, x);
  mh_sb_puts(b, "| field | value |\n|---|---|\n| core | ");
  cell(b, (s = mh_run_prov(run, "core")) ? s : "?");
  mh_sb_puts(b, " |\n| clock | ");
  s = mh_run_prov(run, "clock_hz");
  if (!s || strcmp(s, "0") == 0) {
    mh_sb_puts(b, "unknown (not reported by the target)");
  } else {
    prov_num(b, s);
    mh_sb_puts(b, " Hz");
  }
  mh_sb_puts(b, " |\n| cycle counter | ");
  cell(b, (s = mh_run_prov(run, "cycle_counter")) ? s : "not recorded");
  mh_sb_puts(b, " |\n| counter | ");
  cell(b, (s = mh_run_prov(run, "counter")) ? s : "?");
  mh_sb_puts(b, ", counts ");
  cell(b, (s = mh_run_prov(run, "unit")) ? s : "?");
  mh_sb_puts(b, " at ");
  prov_num(b, mh_run_prov(run, "counter_hz"));
  mh_sb_puts(b, " Hz |\n| unit | ");
  cell(b, run->unit);
  mh_sb_puts(b, " (one counter tick = ");
  mh_sb_double(b, run->ticks_to_unit);
  mh_sb_puts(b, " ");
  cell(b, run->unit);
  mh_sb_puts(b, "; counter overhead ");
  mh_sb_printf(b, "%llu", (unsigned long long)run->overhead_ticks);
  mh_sb_puts(b, " ticks, subtracted) |\n| compiler | ");
  cell(b, (s = mh_run_prov(run, "compiler")) ? s : "?");
  mh_sb_puts(b, " |\n| flags | ");
  cell(b, (s = mh_run_prov(run, "cflags")) ? s : "?");
  mh_sb_puts(b, " |\n| libraries | ");
  prov_list(b, run, "lib.", " ");
  mh_sb_puts(b, " |\n| routes | ");
  prov_list(b, run, "route.", ": ");
  mh_sb_puts(b, " |\n| source | ");
  cell(b, (s = mh_run_prov(run, "source")) ? s : "?");
  mh_sb_puts(b, " |\n| runs | ");
  cell(b, (s = mh_run_prov(run, "runs")) ? s : "?");
  mh_sb_puts(b, " timed after ");
  cell(b, (s = mh_run_prov(run, "warmup")) ? s : "?");
  mh_sb_puts(b, " warm-up |\n| QEMU icount | ");
  if (run->icount_shift >= 0) {
    mh_sb_printf(b, "-icount shift=%d (2^%d ns per instruction); ",
                 run->icount_shift, run->icount_shift);
    cell(b, x->qemu_version ? x->qemu_version : "QEMU version unknown");
  } else {
    mh_sb_puts(b, "not emulated");
  }
  mh_sb_puts(b, " |\n| host | ");
  cell(b, x->host ? x->host : "?");
  mh_sb_puts(b, " |\n| not in this run | ");
  absent(b, x);
  mh_sb_puts(b, " |\n\n");
}

/* A column group of the results table: one backend (and its variant when
 * the same backend appears with several variants). */
typedef struct {
  const char *backend, *variant; /* variant NULL: any */
} group;

static int same(const char *a, const char *b) {
  return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static int op_in_group(const mh_op *op, const group *g) {
  return same(op->backend, g->backend) &&
         (!g->variant || same(op->variant, g->variant));
}

static size_t groups_of(const mh_run *run, group *g) {
  size_t n = 0;
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *op = &run->ops[i];
    int seen = 0, other_variant = 0;
    for (size_t k = 0; k < run->n_ops; k++)
      if (same(run->ops[k].backend, op->backend) &&
          !same(run->ops[k].variant, op->variant))
        other_variant = 1;
    group cand = {op->backend, other_variant ? op->variant : NULL};
    for (size_t k = 0; k < n; k++)
      if (same(g[k].backend, cand.backend) && same(g[k].variant, cand.variant))
        seen = 1;
    if (!seen)
      g[n++] = cand;
  }
  return n;
}

static void group_name(mh_sb *b, const group *g) {
  cell(b, g->backend);
  if (g->variant) {
    mh_sb_puts(b, " (");
    cell(b, g->variant);
    mh_sb_puts(b, ")");
  }
}

static int same_row(const mh_op *a, const mh_op *b) {
  return same(a->alg, b->alg) && same(a->op, b->op) && a->bytes == b->bytes;
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

static void results_table(mh_sb *b, const mh_result *x) {
  const mh_run *run = &x->run;
  title(b, x);
  if (run->n_ops == 0) {
    mh_sb_puts(b, "No operations.\n\n");
    return;
  }
  group *g = calloc(run->n_ops, sizeof *g);
  if (!g) {
    b->failed = 1;
    return;
  }
  size_t ng = groups_of(run, g);
  mh_sb_puts(b, "| operation | payload |");
  static const char *const stat[] = {"median", "p99", "IQR"};
  for (size_t k = 0; k < ng; k++)
    for (size_t s = 0; s < 3; s++) {
      mh_sb_putc(b, ' ');
      group_name(b, &g[k]);
      mh_sb_printf(b, " %s (", stat[s]);
      cell(b, run->unit);
      mh_sb_puts(b, ") |");
    }
  mh_sb_puts(b, "\n|---|---:|");
  for (size_t k = 0; k < 3 * ng; k++)
    mh_sb_puts(b, "---:|");
  mh_sb_putc(b, '\n');
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *row = &run->ops[i];
    int first = 1;
    for (size_t j = 0; j < i && first; j++)
      if (same_row(&run->ops[j], row))
        first = 0;
    if (!first)
      continue;
    mh_sb_puts(b, "| ");
    cell(b, row->alg);
    mh_sb_putc(b, ' ');
    cell(b, row->op);
    mh_sb_puts(b, " | ");
    payload(b, row);
    mh_sb_puts(b, " |");
    for (size_t k = 0; k < ng; k++) {
      const mh_op *hit = NULL;
      for (size_t j = i; j < run->n_ops && !hit; j++)
        if (same_row(&run->ops[j], row) && op_in_group(&run->ops[j], &g[k]))
          hit = &run->ops[j];
      if (!hit) {
        mh_sb_puts(b, " - | - | - |");
        continue;
      }
      const double v[3] = {hit->stats.median, hit->stats.p99, hit->stats.iqr};
      for (size_t s = 0; s < 3; s++) {
        mh_sb_putc(b, ' ');
        num(b, v[s]);
        /* Fewer samples than asked: the run budget cut them (n is the
         * truth; see the note under the table). */
        if (s == 0 && budget_cut(run, hit))
          mh_sb_printf(b, " (n=%u)†", hit->n);
        mh_sb_puts(b, " |");
      }
    }
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
  free(g);
}

/* The rows of the classical versus post-quantum comparison. */
static const struct {
  const char *alg, *op, *label;
} CMP[] = {
    {"ecdh-p256", "keygen", "ECDH P-256 keygen"},
    {"ecdh-p256", "shared", "ECDH P-256 shared secret"},
    {"ecdsa-p256", "sign", "ECDSA P-256 sign"},
    {"ecdsa-p256", "verify", "ECDSA P-256 verify"},
    {"x25519", "keygen", "X25519 keygen"},
    {"x25519", "shared", "X25519 shared secret"},
    {"ed25519", "sign", "Ed25519 sign"},
    {"ed25519", "verify", "Ed25519 verify"},
    {"ml-kem-512", "keygen", "ML-KEM-512 keygen"},
    {"ml-kem-512", "encaps", "ML-KEM-512 encaps"},
    {"ml-kem-512", "decaps", "ML-KEM-512 decaps"},
    {"ml-kem-768", "keygen", "ML-KEM-768 keygen"},
    {"ml-kem-768", "encaps", "ML-KEM-768 encaps"},
    {"ml-kem-768", "decaps", "ML-KEM-768 decaps"},
    {"ml-dsa-44", "sign", "ML-DSA-44 sign"},
    {"ml-dsa-44", "verify", "ML-DSA-44 verify"},
    {"ml-dsa-65", "sign", "ML-DSA-65 sign"},
    {"ml-dsa-65", "verify", "ML-DSA-65 verify"},
};

static int is_cmp(const mh_op *op) {
  for (size_t c = 0; c < sizeof CMP / sizeof CMP[0]; c++)
    if (same(op->alg, CMP[c].alg) && same(op->op, CMP[c].op))
      return (int)c;
  return -1;
}

static void comparison(mh_sb *b, const mh_result *x) {
  const mh_run *run = &x->run;
  title(b, x);
  group *g = run->n_ops ? calloc(run->n_ops, sizeof *g) : NULL;
  if (run->n_ops && !g) {
    b->failed = 1;
    return;
  }
  size_t ng = g ? groups_of(run, g) : 0;
  int any = 0;
  for (size_t i = 0; i < run->n_ops; i++)
    any |= is_cmp(&run->ops[i]) >= 0;
  if (!any) {
    mh_sb_puts(b, "This profile measures none of the key establishment and "
                  "signature operations compared here (ECDH P-256, X25519, "
                  "ECDSA P-256, Ed25519, ML-KEM-512/768, ML-DSA-44/65).\n\n");
    free(g);
    return;
  }
  mh_sb_puts(b, "Medians, in ");
  cell(b, run->unit);
  mh_sb_puts(b, ".\n\n| operation |");
  for (size_t k = 0; k < ng; k++) {
    mh_sb_putc(b, ' ');
    group_name(b, &g[k]);
    mh_sb_puts(b, " median (");
    cell(b, run->unit);
    mh_sb_puts(b, ") |");
  }
  mh_sb_puts(b, "\n|---|");
  for (size_t k = 0; k < ng; k++)
    mh_sb_puts(b, "---:|");
  mh_sb_putc(b, '\n');
  for (size_t c = 0; c < sizeof CMP / sizeof CMP[0]; c++) {
    for (size_t i = 0; i < run->n_ops; i++) {
      const mh_op *row = &run->ops[i];
      int first = is_cmp(row) == (int)c;
      for (size_t j = 0; j < i && first; j++)
        if (same_row(&run->ops[j], row))
          first = 0;
      if (!first)
        continue;
      mh_sb_printf(b, "| %s", CMP[c].label);
      if (row->bytes >= 0)
        mh_sb_printf(b, " (%ld B)", row->bytes);
      mh_sb_puts(b, " |");
      for (size_t k = 0; k < ng; k++) {
        const mh_op *hit = NULL;
        for (size_t j = i; j < run->n_ops && !hit; j++)
          if (same_row(&run->ops[j], row) && op_in_group(&run->ops[j], &g[k]))
            hit = &run->ops[j];
        mh_sb_putc(b, ' ');
        if (hit)
          num(b, hit->stats.median);
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

/* First occurrence, over every run, of an (alg, backend) pair / an op of
 * it: the column and table orders. */
static int first_pair(const mh_results *r, size_t ri, size_t oi) {
  const mh_op *me = &r->runs[ri].run.ops[oi];
  for (size_t i = 0; i <= ri; i++)
    for (size_t k = 0; k < (i == ri ? oi : r->runs[i].run.n_ops); k++) {
      const mh_op *o = &r->runs[i].run.ops[k];
      if (same(o->alg, me->alg) && same(o->backend, me->backend))
        return 0;
    }
  return 1;
}

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
        num(b, (double)(kind == ROW_CODE ? a->flash_bytes : a->ram_bytes));
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
    cell(b, x->run.unit ? x->run.unit : "?");
    mh_sb_putc(b, ')');
  }
  for (size_t c = 0; c < nc; c++) {
    const mh_op *o = mh_run_find_op(&x->run, cols[c]);
    mh_sb_puts(b, " | ");
    if (!o || (kind != ROW_TIME && !o->has_mem))
      mh_sb_puts(b, "-");
    else if (kind == ROW_STACK)
      num(b, (double)o->stack_bytes);
    else if (kind == ROW_HEAP)
      mh_sb_printf(b, "%llu / %llu", (unsigned long long)o->heap_bytes,
                   (unsigned long long)o->heap_allocs);
    else
      num(b, o->stats.median);
  }
  mh_sb_puts(b, " |\n");
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
      if (!first_pair(r, ri, oi))
        continue;
      const mh_op *pair = &run0->ops[oi];
      /* Columns: every op of this pair, in first-seen order. */
      const mh_op **cols = NULL;
      size_t nc = 0, cap = 0;
      for (size_t i = 0; i < r->n_runs; i++)
        for (size_t k = 0; k < r->runs[i].run.n_ops; k++) {
          const mh_op *o = &r->runs[i].run.ops[k];
          if (!same(o->alg, pair->alg) || !same(o->backend, pair->backend))
            continue;
          int dup = 0;
          for (size_t c = 0; c < nc && !dup; c++)
            dup = same(cols[c]->op, o->op) && cols[c]->bytes == o->bytes;
          if (dup)
            continue;
          if (nc == cap) {
            size_t ncap = cap ? cap * 2 : 8;
            const mh_op **g = realloc(cols, ncap * sizeof *g);
            if (!g) {
              free(cols);
              b->failed = 1;
              return;
            }
            cols = g;
            cap = ncap;
          }
          cols[nc++] = o;
        }
      mh_sb_puts(b, "#### ");
      cell(b, pair->alg);
      mh_sb_puts(b, " (");
      cell(b, pair->backend);
      mh_sb_puts(b, ")\n\n");
      const mh_alg_cost *a =
          mh_result_alg(&r->runs[ri], pair->alg, pair->backend);
      char name[16];
      unsigned long long v;
      for (size_t k = 0;
           a && a->obj && mh_obj_get(a->obj, k, name, sizeof name, &v) == 0;
           k++) {
        mh_sb_puts(b, k ? ", "
                        : "Object sizes (bytes, the library's "
                          "constants, checked by the KATs): ");
        cell(b, name);
        mh_sb_putc(b, ' ');
        num(b, (double)v);
      }
      if (a && a->obj)
        mh_sb_puts(b, ".\n\n");
      mh_sb_puts(b, "| |");
      for (size_t c = 0; c < nc; c++) {
        mh_sb_putc(b, ' ');
        cell(b, cols[c]->op);
        if (cols[c]->bytes >= 0)
          mh_sb_printf(b, " %ld B", cols[c]->bytes);
        mh_sb_puts(b, " |");
      }
      mh_sb_puts(b, "\n|---|");
      for (size_t c = 0; c < nc; c++)
        mh_sb_puts(b, "---:|");
      mh_sb_putc(b, '\n');
      for (size_t i = 0; i < r->n_runs; i++) {
        const mh_result *x = &r->runs[i];
        int has = 0, heap = 0;
        for (size_t c = 0; c < nc; c++) {
          const mh_op *o = mh_run_find_op(&x->run, cols[c]);
          has |= o != NULL;
          heap |= o && o->has_mem && (o->heap_bytes || o->heap_allocs);
        }
        if (!has)
          continue;
        const mh_alg_cost *ac = mh_result_alg(x, pair->alg, pair->backend);
        if (ac && ac->has_size)
          cst_row(b, r, x, cols, nc, ROW_CODE);
        if (ac && ac->has_size && ac->ram_bytes)
          cst_row(b, r, x, cols, nc, ROW_SRAM);
        cst_row(b, r, x, cols, nc, ROW_STACK);
        if (heap)
          cst_row(b, r, x, cols, nc, ROW_HEAP);
        cst_row(b, r, x, cols, nc, ROW_TIME);
        int ct = 0;
        for (size_t k = 0; k < nc; k++) {
          const mh_op *o = mh_run_find_op(&x->run, cols[k]);
          ct |= o && o->has_ct_verdict;
        }
        if (ct)
          cst_row(b, r, x, cols, nc, ROW_CT);
      }
      mh_sb_putc(b, '\n');
      /* Why, for every constant-time verdict that is not a plain pass. */
      for (size_t i = 0; i < r->n_runs; i++)
        for (size_t k = 0; k < nc; k++) {
          const mh_op *o = mh_run_find_op(&r->runs[i].run, cols[k]);
          if (!o || !o->has_ct_verdict || o->ct_status == MH_CT_NONE ||
              !o->ct_detail || !o->ct_detail[0])
            continue;
          int dup = 0; /* payload sizes share one verdict text */
          for (size_t q = 0; q < k && !dup; q++) {
            const mh_op *p = mh_run_find_op(&r->runs[i].run, cols[q]);
            dup = p && p->has_ct_verdict && same(p->op, o->op) &&
                  same(p->ct_detail, o->ct_detail);
          }
          if (dup)
            continue;
          mh_sb_puts(b, "- ");
          cell(b, r->runs[i].target);
          mh_sb_puts(b, ", ");
          cell(b, o->op);
          mh_sb_puts(b, ": ");
          cell(b, o->ct_detail);
          mh_sb_putc(b, '\n');
        }
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
      cell(b, first->fit_board[k]);
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
    cell(b, a->alg);
    mh_sb_puts(b, " (");
    cell(b, a->backend);
    mh_sb_puts(b, ") |");
    for (size_t k = 0; k < a->n_fits; k++) {
      if (a->fit[k] == -1)
        continue;
      mh_sb_putc(b, ' ');
      if (a->fit[k] == 1)
        mh_sb_puts(b, "fits");
      else
        cell(b, a->fit_reason[k]);
      mh_sb_puts(b, " |");
    }
    mh_sb_putc(b, '\n');
  }
  int note = 0;
  for (size_t k = 0; k < first->n_fits; k++)
    if (first->fit[k] == -1) {
      mh_sb_puts(b, note ? ", " : "\nNot evaluated: ");
      cell(b, first->fit_board[k]);
      mh_sb_puts(b, " (");
      cell(b,
           first->fit_reason[k] +
               (strncmp(first->fit_reason[k], "not evaluated: ", 15) == 0 ? 15
                                                                          : 0));
      mh_sb_putc(b, ')');
      note = 1;
    }
  mh_sb_puts(b, note ? ".\n\n" : "\n");
}

/* ---- ratios ------------------------------------------------------------ */

static const mh_op *op_of(const mh_run *run, const char *alg, const char *op,
                          const char *backend) {
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *o = &run->ops[i];
    if (same(o->alg, alg) && same(o->op, op) && same(o->backend, backend) &&
        o->n_samples)
      return o;
  }
  return NULL;
}

/* One device-side job: the sum of one or two operations' medians and p99s
 * (a sum of p99s bounds the job's p99 from above). */
typedef struct {
  const char *label, *alg, *op1, *op2;
} job;

static int job_cost(const mh_run *run, const job *j, const char *backend,
                    double *median, double *p99) {
  const mh_op *a = op_of(run, j->alg, j->op1, backend);
  const mh_op *b = j->op2 ? op_of(run, j->alg, j->op2, backend) : NULL;
  if (!a || (j->op2 && !b))
    return 0;
  *median = a->stats.median + (b ? b->stats.median : 0);
  *p99 = a->stats.p99 + (b ? b->stats.p99 : 0);
  return 1;
}

/* Post-quantum against classical for the same job, each backend against
 * the classical reference on the same backend (or, failing that, any). */
static void ratio_section(mh_sb *b, const mh_run *run, const char *what,
                          const job *ref, size_t nref, const job *pq,
                          size_t npq) {
  int header = 0;
  for (size_t r = 0; r < nref; r++)
    for (size_t i = 0; i < run->n_ops; i++) {
      const mh_op *o = &run->ops[i];
      double rm, rp;
      if (!same(o->alg, ref[r].alg) || !same(o->op, ref[r].op1) ||
          !job_cost(run, &ref[r], o->backend, &rm, &rp) || rm <= 0)
        continue;
      for (size_t q = 0; q < npq; q++)
        for (size_t k = 0; k < run->n_ops; k++) {
          const mh_op *p = &run->ops[k];
          double pm, pp;
          if (!same(p->alg, pq[q].alg) || !same(p->op, pq[q].op1) ||
              !job_cost(run, &pq[q], p->backend, &pm, &pp))
            continue;
          if (!header) {
            mh_sb_printf(b,
                         "%s\n\n| post-quantum | backend | classical | "
                         "backend | ratio of medians | ratio of p99s |\n"
                         "|---|---|---|---|---:|---:|\n",
                         what);
            header = 1;
          }
          mh_sb_printf(b, "| %s | ", pq[q].label);
          cell(b, p->backend);
          mh_sb_printf(b, " | %s | ", ref[r].label);
          cell(b, o->backend);
          mh_sb_printf(b, " | %.2f | %.2f |\n", pm / rm, rp > 0 ? pp / rp : 0);
        }
    }
  if (header)
    mh_sb_putc(b, '\n');
}

static void ratios(mh_sb *b, const mh_result *x) {
  static const job ke_ref[] = {
      {"ECDH P-256 keygen + shared", "ecdh-p256", "keygen", "shared"},
      {"X25519 keygen + shared", "x25519", "keygen", "shared"}};
  static const job ke_init[] = {
      {"ML-KEM-512 keygen + decaps", "ml-kem-512", "keygen", "decaps"},
      {"ML-KEM-768 keygen + decaps", "ml-kem-768", "keygen", "decaps"}};
  static const job ke_resp[] = {
      {"ML-KEM-512 encaps", "ml-kem-512", "encaps", NULL},
      {"ML-KEM-768 encaps", "ml-kem-768", "encaps", NULL}};
  static const job vf_ref[] = {
      {"ECDSA P-256 verify", "ecdsa-p256", "verify", NULL},
      {"Ed25519 verify", "ed25519", "verify", NULL}};
  static const job vf_pq[] = {
      {"ML-DSA-44 verify", "ml-dsa-44", "verify", NULL},
      {"ML-DSA-65 verify", "ml-dsa-65", "verify", NULL}};
  static const job sg_ref[] = {{"ECDSA P-256 sign", "ecdsa-p256", "sign", NULL},
                               {"Ed25519 sign", "ed25519", "sign", NULL}};
  static const job sg_pq[] = {{"ML-DSA-44 sign", "ml-dsa-44", "sign", NULL},
                              {"ML-DSA-65 sign", "ml-dsa-65", "sign", NULL}};
  const mh_run *run = &x->run;
  title(b, x);
  mh_sb_puts(b, "Ratios above 1: the post-quantum job costs more. Spread: the "
                "ratio of the jobs' p99s (sums of the operations' p99s).\n\n");
  ratio_section(b, run,
                "Key establishment, the side that generates a key "
                "pair:",
                ke_ref, 2, ke_init, 2);
  ratio_section(b, run,
                "Key establishment, the side that answers (ML-KEM "
                "encaps against a full ECDH/X25519 exchange):",
                ke_ref, 2, ke_resp, 2);
  ratio_section(b, run, "Authentication, verifying:", vf_ref, 2, vf_pq, 2);
  ratio_section(b, run, "Authentication, signing:", sg_ref, 2, sg_pq, 2);
  /* Backend against backend for the same operation. */
  int header = 0;
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *o = &run->ops[i];
    if (!o->n_samples || o->stats.median <= 0)
      continue;
    const mh_op *best = o;
    size_t nb = 0;
    for (size_t k = 0; k < run->n_ops; k++) {
      const mh_op *p = &run->ops[k];
      if (same(p->alg, o->alg) && same(p->op, o->op) && p->bytes == o->bytes &&
          p->n_samples) {
        nb++;
        if (p->stats.median < best->stats.median)
          best = p;
      }
    }
    if (nb < 2 || best == o)
      continue;
    if (!header) {
      mh_sb_puts(b, "Backend against backend (the same operation; ratio to "
                    "the fastest):\n\n| operation | backend | fastest | ratio "
                    "of medians |\n|---|---|---|---:|\n");
      header = 1;
    }
    op_cells(b, o);
    mh_sb_puts(b, " | ");
    cell(b, best->backend);
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
      if (!a->unit || !c->unit || strcmp(a->unit, c->unit) != 0)
        continue;
      /* One target and profile, two builds: the matrix section has it. */
      if (strcmp(r->runs[i].target, r->runs[j].target) == 0 &&
          strcmp(r->runs[i].profile, r->runs[j].profile) == 0)
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
        op_cells(b, q);
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
    op_cells(b, o);
    mh_sb_puts(b, " | ");
    num(b, o->repeat_min);
    mh_sb_puts(b, " | ");
    num(b, o->repeat_max);
    mh_sb_printf(b, " | %.2f %% |\n",
                 o->repeat_min > 0
                     ? (o->repeat_max - o->repeat_min) / o->repeat_min * 100.0
                     : 0.0);
  }
  mh_sb_putc(b, '\n');
}

/* ---- distributions ----------------------------------------------------- */

/* Operations whose samples spread (CV above 5 %, ML-DSA signing for one):
 * percentiles, and the p99 / median ratio a deadline has to allow for. */
#define WIDE_CV 0.05

static void distributions(mh_sb *b, const mh_result *x) {
  const mh_run *run = &x->run;
  int header = 0;
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *o = &run->ops[i];
    if (o->n_samples < 2 || o->stats.cv <= WIDE_CV || o->stats.median <= 0)
      continue;
    if (!header) {
      title(b, x);
      mh_sb_puts(b, "Operations whose samples spread (coefficient of "
                    "variation above 5 %), in ");
      cell(b, run->unit);
      mh_sb_puts(b, ".\n\n| operation | backend | n | p1 | p10 | p50 | p90 | "
                    "p99 | max | p99 / median |\n"
                    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      header = 1;
    }
    static const double ps[] = {0.01, 0.10, 0.50, 0.90, 0.99};
    op_cells(b, o);
    mh_sb_printf(b, " | %zu |", o->n_samples);
    for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
      mh_sb_putc(b, ' ');
      num(b, mh_percentile(o->samples, o->n_samples, ps[k]));
      mh_sb_puts(b, " |");
    }
    mh_sb_putc(b, ' ');
    num(b, o->stats.max);
    mh_sb_printf(b, " | %.2f |\n", o->stats.p99 / o->stats.median);
  }
  if (header)
    mh_sb_putc(b, '\n');
}

/* ---- cost versus payload ---------------------------------------------- */

int mh_payload_fit(const mh_run *run, size_t i, double *fixed, double *rate,
                   double *worst, size_t *n_points) {
  const mh_op *o = &run->ops[i];
  if (o->bytes < 0 || o->n_samples == 0)
    return 0;
  for (size_t j = 0; j < i; j++)
    if (same(run->ops[j].alg, o->alg) && same(run->ops[j].op, o->op) &&
        same(run->ops[j].backend, o->backend) && run->ops[j].bytes >= 0 &&
        run->ops[j].n_samples)
      return 0; /* not the first payload of this operation */
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  size_t n = 0;
  for (size_t j = i; j < run->n_ops; j++) {
    const mh_op *p = &run->ops[j];
    if (!same(p->alg, o->alg) || !same(p->op, o->op) ||
        !same(p->backend, o->backend) || p->bytes < 0 || !p->n_samples)
      continue;
    double xv = (double)p->bytes, yv = p->stats.median;
    sx += xv, sy += yv, sxx += xv * xv, sxy += xv * yv, n++;
  }
  double den = (double)n * sxx - sx * sx;
  if (n < 2 || den == 0.0)
    return 0;
  *rate = ((double)n * sxy - sx * sy) / den;
  *fixed = (sy - *rate * sx) / (double)n;
  *worst = 0;
  for (size_t j = i; j < run->n_ops; j++) {
    const mh_op *p = &run->ops[j];
    if (!same(p->alg, o->alg) || !same(p->op, o->op) ||
        !same(p->backend, o->backend) || p->bytes < 0 || !p->n_samples ||
        p->stats.median == 0)
      continue;
    double r = fabs(p->stats.median - (*fixed + *rate * (double)p->bytes)) /
               p->stats.median;
    *worst = r > *worst ? r : *worst;
  }
  *n_points = n;
  return 1;
}

/* time = fixed + rate * bytes per payload-dependent operation. */
static void payload_fits(mh_sb *b, const mh_result *x) {
  const mh_run *run = &x->run;
  int header = 0;
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *o = &run->ops[i];
    double fixed, rate, worst;
    size_t n;
    if (!mh_payload_fit(run, i, &fixed, &rate, &worst, &n))
      continue;
    if (!header) {
      title(b, x);
      mh_sb_puts(b,
                 "Median time = fixed + rate x bytes, least squares over the "
                 "measured payloads; the residual is the largest distance "
                 "of a median from the line, relative to it.\n\n"
                 "| operation | backend | payloads | fixed (");
      cell(b, run->unit);
      mh_sb_puts(b, ") | rate (");
      cell(b, run->unit);
      mh_sb_puts(
          b, " per byte) | max residual |\n|---|---|---:|---:|---:|---:|\n");
      header = 1;
    }
    mh_sb_puts(b, "| ");
    cell(b, o->alg);
    mh_sb_putc(b, ' ');
    cell(b, o->op);
    mh_sb_puts(b, " | ");
    cell(b, o->backend);
    mh_sb_printf(b, " | %zu | ", n);
    num(b, fixed);
    mh_sb_puts(b, " | ");
    num(b, rate);
    mh_sb_printf(b, " | %.1f%% |\n", worst * 100.0);
  }
  if (header)
    mh_sb_putc(b, '\n');
}

char *mh_report_md(const mh_results *r) {
  mh_sb b = {0};
  mh_sb_puts(&b, "# Merlin benchmark report\n\n");
  mh_sb_puts(&b, "Created ");
  cell(&b, r->created ? r->created : "?");
  mh_sb_puts(&b, " by merlin ");
  cell(&b, r->merlin ? r->merlin : "?");
  mh_sb_puts(&b, ". Every operation passed its known-answer test before it was "
                 "timed. Values are per operation, with the counter overhead "
                 "subtracted: median, 99th percentile (p99) and interquartile "
                 "range (IQR) of the timed runs. Numbers are rounded here; "
                 "results.json holds exact values and every sample.\n\n");
  mh_sb_puts(&b, "## Provenance\n\n");
  for (size_t i = 0; i < r->n_runs; i++)
    provenance(&b, &r->runs[i]);
  mh_sb_puts(&b, "## Results\n\n");
  for (size_t i = 0; i < r->n_runs; i++)
    results_table(&b, &r->runs[i]);
  mh_report_cycles_md(&b, r); /* "Cycles (estimate)", QEMU plugin */
  mh_report_md_matrix(&b, r);
  mh_sb_puts(&b, "## Code, stack and time\n\n");
  code_stack_time(&b, r);
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
