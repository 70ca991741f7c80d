/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin report DIR --format pqm4`: the tables of pqm4's benchmarks.md
 * (speed, memory, hashing, size; KEMs then signature schemes), one set per
 * run, so that a pqm4 user can set a run beside pqm4's own tables
 * (docs/bring-your-own.md, "pqm4's tables"). Speed is in the run's unit
 * (instructions under QEMU, never cycles), and again in estimated cycles
 * where the cycle model gives them. */
#include "report/report_pqm4.h"

#include "model/cycles.h"
#include "report/format.h"

#include <stdlib.h>
#include <string.h>

/* One row: an (algorithm, backend) with the three operations of its class,
 * and the run they come from. */
typedef struct {
  const mh_op *op[3];
  const mh_result *x;
} row;

static const char *const KEM_OPS[3] = {"keygen", "encaps", "decaps"};
static const char *const SIG_OPS[3] = {"keygen", "sign", "verify"};

static const mh_op *find(const mh_run *run, const char *alg, const char *be,
                         const char *op) {
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *o = &run->ops[i];
    if (strcmp(o->alg, alg) == 0 && strcmp(o->backend, be) == 0 &&
        strcmp(o->op, op) == 0 && o->n_samples)
      return o;
  }
  return NULL;
}

/* Whether a run after runs[k] has a row of (alg, backend): it gives it. */
static int later_has(const mh_result *const *runs, size_t n, size_t k,
                     const char *alg, const char *be, const char *op) {
  for (size_t j = k + 1; j < n; j++)
    if (find(&runs[j]->run, alg, be, op))
      return 1;
  return 0;
}

/* The rows of one class, in the runs' order; a scheme the runs give more
 * than once, from the last run that has it. */
static size_t rows_of(const mh_result *const *runs, size_t n_runs,
                      const char *const ops[3], row *out) {
  size_t n = 0;
  for (size_t k = 0; k < n_runs; k++) {
    const mh_run *run = &runs[k]->run;
    for (size_t i = 0; i < run->n_ops; i++) {
      const mh_op *o = &run->ops[i];
      if (strcmp(o->op, ops[1]) != 0 || !o->n_samples ||
          later_has(runs, n_runs, k, o->alg, o->backend, ops[1]))
        continue;
      row r = {{find(run, o->alg, o->backend, ops[0]), o,
                find(run, o->alg, o->backend, ops[2])},
               runs[k]};
      out[n++] = r;
    }
  }
  return n;
}

/* pqm4's implementation column: a folder's name; a library's name, with
 * its variant where that says more ("clean (pqclean)"). */
static void impl_cell(mh_sb *b, const mh_op *o) {
  if (strncmp(o->backend, "impl:", 5) == 0)
    mh_esc_md(b, o->variant);
  else if (o->variant && strcmp(o->variant, "c") != 0 && o->variant[0]) {
    mh_esc_md(b, o->variant);
    mh_sb_puts(b, " (");
    mh_esc_md(b, o->backend);
    mh_sb_puts(b, ")");
  } else {
    mh_esc_md(b, o->backend);
  }
}

static void head(mh_sb *b, const char *title, const char *const cols[3],
                 const char *unit, int speed) {
  mh_sb_printf(b, "## %s\n| %s | %s |", title, speed ? "scheme" : "Scheme",
               speed ? "implementation" : "Implementation");
  for (size_t i = 0; i < 3; i++)
    mh_sb_printf(b, " %s [%s] |", cols[i], unit);
  mh_sb_puts(b, "\n| --- | --- | --- | --- | --- |\n");
}

/* "AVG: x <br /> MIN: y <br /> MAX: z" of the instructions (est = 0) or of
 * the estimated cycles. */
static void speed_cell(mh_sb *b, const mh_op *o, int est) {
  const mh_stats *s = est && o && o->cyc ? &o->cyc->est : o ? &o->stats : NULL;
  if (!s) {
    mh_sb_puts(b, " - |");
    return;
  }
  mh_sb_puts(b, " AVG: ");
  mh_fmt_num(b, s->mean);
  mh_sb_puts(b, " <br /> MIN: ");
  mh_fmt_num(b, s->min);
  mh_sb_puts(b, " <br /> MAX: ");
  mh_fmt_num(b, s->max);
  mh_sb_puts(b, " |");
}

static void speed(mh_sb *b, const row *rows, size_t n, const char *title,
                  const char *const cols[3], const char *unit, int est) {
  if (!n)
    return;
  head(b, title, cols, unit, 1);
  for (size_t i = 0; i < n; i++) {
    const mh_op *mid = rows[i].op[1];
    mh_sb_puts(b, "| ");
    mh_esc_md(b, mid->alg);
    mh_sb_puts(b, " (");
    for (size_t k = 0; k < 3; k++)
      mh_sb_printf(b, "%s%u", k ? "/" : "",
                   rows[i].op[k] ? rows[i].op[k]->n : 0);
    mh_sb_puts(b, " executions) | ");
    impl_cell(b, mid);
    mh_sb_puts(b, " |");
    for (size_t k = 0; k < 3; k++)
      speed_cell(b, rows[i].op[k], est);
    mh_sb_puts(b, "\n");
  }
  mh_sb_puts(b, "\n");
}

/* Memory (peak stack, bytes) or hashing (share of the estimated cycles, %)
 * of each operation. */
static void per_op(mh_sb *b, const row *rows, size_t n, const char *title,
                   const char *const cols[3], int hashing) {
  if (!n)
    return;
  head(b, title, cols, hashing ? "%" : "bytes", 0);
  for (size_t i = 0; i < n; i++) {
    mh_sb_puts(b, "| ");
    mh_esc_md(b, rows[i].op[1]->alg);
    mh_sb_puts(b, " | ");
    impl_cell(b, rows[i].op[1]);
    mh_sb_puts(b, " |");
    for (size_t k = 0; k < 3; k++) {
      const mh_op *o = rows[i].op[k];
      if (hashing && o && o->cyc)
        mh_sb_printf(b, " %.1f%% |", 100.0 * o->cyc->hash_share);
      else if (!hashing && o && o->has_mem) {
        mh_sb_puts(b, " ");
        mh_fmt_num(b, (double)o->stack_bytes);
        mh_sb_puts(b, " |");
      } else {
        mh_sb_puts(b, " - |");
      }
    }
    mh_sb_puts(b, "\n");
  }
  mh_sb_puts(b, "\n");
}

/* pqm4's size table: the folder's own objects (in an image with it alone)
 * as `size` splits them (.text with read-only data, .data, .bss, and their
 * total), then what it adds to an empty image with the common code it
 * calls, and its static RAM. */
static void size(mh_sb *b, const row *rows, size_t n, const char *title) {
  if (!n)
    return;
  mh_sb_printf(b,
               "## %s\n| Scheme | Implementation | .text [bytes] | .data "
               "[bytes] | .bss [bytes] | Total [bytes] | with common code "
               "[bytes] | static RAM [bytes] |\n| --- | --- | --- | --- | "
               "--- | --- | --- | --- |\n",
               title);
  for (size_t i = 0; i < n; i++) {
    const mh_op *o = rows[i].op[1];
    const mh_alg_cost *a = mh_result_alg(rows[i].x, o->alg, o->backend);
    mh_sb_puts(b, "| ");
    mh_esc_md(b, o->alg);
    mh_sb_puts(b, " | ");
    impl_cell(b, o);
    const mh_lib_bytes *own = NULL;
    for (size_t l = 0; a && l < a->n_libs; l++)
      if (strcmp(a->libs[l].library, "impl-folder") == 0)
        own = &a->libs[l];
    if (own && own->has_sections) {
      const double v[] = {(double)own->text, (double)own->data,
                          (double)own->bss,
                          (double)(own->text + own->data + own->bss)};
      mh_fmt_nums(b, " | ", v, sizeof v / sizeof v[0]);
    } else {
      mh_sb_puts(b, " | - | - | - | -");
    }
    if (a && a->has_size) {
      const double v[] = {(double)a->flash_bytes, (double)a->ram_bytes};
      mh_fmt_nums(b, " | ", v, 2);
      mh_sb_puts(b, " |\n");
    } else {
      mh_sb_puts(b, " | - | - |\n");
    }
  }
  mh_sb_puts(b, "\n");
}

void mh_report_pqm4_group(mh_sb *b, const char *title,
                          const mh_result *const *runs, size_t n_runs) {
  const mh_run *run = &runs[0]->run;
  size_t all = 1;
  for (size_t k = 0; k < n_runs; k++)
    all += runs[k]->run.n_ops;
  row *kem = calloc(all, sizeof *kem);
  row *sig = calloc(all, sizeof *sig);
  if (!kem || !sig) {
    free(kem);
    free(sig);
    b->failed = 1;
    return;
  }
  size_t nk = rows_of(runs, n_runs, KEM_OPS, kem);
  size_t ns = rows_of(runs, n_runs, SIG_OPS, sig);
  static const char *const kc[3] = {"key generation", "encapsulation",
                                    "decapsulation"};
  static const char *const sc[3] = {"key generation", "sign", "verify"};
  static const char *const kcm[3] = {"Key Generation", "Encapsulation",
                                     "Decapsulation"};
  static const char *const scm[3] = {"Key Generation", "Sign", "Verify"};
  const char *unit = run->unit ? run->unit : "?";
  const char *flags = mh_run_prov(run, "cflags");
  const char *cc = mh_run_prov(run, "compiler");
  mh_sb_puts(b, "# ");
  mh_esc_md(b, title);
  mh_sb_puts(b, "\n\nCompiler: ");
  mh_esc_md(b, cc ? cc : "?");
  mh_sb_puts(b, "; flags: ");
  mh_esc_md(b, flags ? flags : "?");
  mh_sb_puts(b, ". Speed in ");
  mh_esc_md(b, unit);
  int cyc = run->cyc && run->cyc->model;
  if (cyc) {
    mh_sb_puts(b, ", and in cycles estimated by the model ");
    mh_esc_md(b, run->cyc->model);
    mh_sb_puts(b, " (an estimate, not a measurement)");
  }
  mh_sb_puts(b, ".\n\n# Speed Evaluation\n");
  for (int est = 0; est <= cyc; est++) {
    const char *u = est ? "cycles, estimate" : unit;
    speed(b, kem, nk, "Key Encapsulation Schemes", kc, u, est);
    speed(b, sig, ns, "Signature Schemes", sc, u, est);
  }
  mh_sb_puts(b, "# Memory Evaluation\n");
  per_op(b, kem, nk, "Key Encapsulation Schemes", kcm, 0);
  per_op(b, sig, ns, "Signature Schemes", scm, 0);
  if (cyc) {
    mh_sb_puts(b, "# Hashing Evaluation\n");
    per_op(b, kem, nk, "Key Encapsulation Schemes", kcm, 1);
    per_op(b, sig, ns, "Signature Schemes", scm, 1);
  }
  mh_sb_puts(b, "# Size Evaluation\n");
  size(b, kem, nk, "Key Encapsulation Schemes");
  size(b, sig, ns, "Signature Schemes");
  free(kem);
  free(sig);
}

char *mh_report_pqm4(const mh_results *r) {
  mh_sb b = {0};
  for (size_t i = 0; i < r->n_runs; i++) {
    const mh_result *x = &r->runs[i];
    mh_sb t = {0};
    mh_sb_printf(&t, "%s (profile %s)", x->target, x->profile);
    mh_report_pqm4_group(&b, t.failed ? "" : t.s, &x, 1);
    b.failed |= t.failed;
    mh_sb_free(&t);
  }
  if (b.failed) {
    mh_sb_free(&b);
    return NULL;
  }
  return b.s ? b.s : strdup("");
}
