/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin report DIR [DIR...] --format pqm4`: the tables of pqm4's
 * benchmarks.md (speed, memory, hashing, size; KEMs then signature
 * schemes), so that a pqm4 user can set a run beside pqm4's own tables
 * (docs/bring-your-own.md, "pqm4's tables"). The runs of one target,
 * compiler, flags and cycle model make one set of tables, whichever
 * directory they come from (family runs, other days); a row given twice
 * is the later directory's. Speed leads with the cycles the model
 * estimates (pqm4's tables are cycles), then the run's unit (instructions
 * under QEMU, never cycles). The folders left out follow, with why. */
#include "report/report_pqm4.h"

#include "model/cycles.h"
#include "report/format.h"

#include <stdlib.h>
#include <string.h>

/* One row: an (algorithm, backend) with the three operations of its
 * class, and the run it came from. */
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

/* The row of (alg, backend) in rows[0..n), or -1. */
static long row_at(const row *rows, size_t n, const mh_op *o) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(rows[i].op[1]->alg, o->alg) == 0 &&
        strcmp(rows[i].op[1]->backend, o->backend) == 0)
      return (long)i;
  return -1;
}

/* The rows of one class of x added to out (*n of them so far; a row given
 * again replaces the earlier one: the later run's). */
static void rows_of(const mh_result *x, const char *const ops[3], row *out,
                    size_t *n) {
  const mh_run *run = &x->run;
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *o = &run->ops[i];
    if (strcmp(o->op, ops[1]) != 0 || !o->n_samples)
      continue;
    row r = {{find(run, o->alg, o->backend, ops[0]), o,
              find(run, o->alg, o->backend, ops[2])},
             x};
    long at = row_at(out, *n, o);
    out[at >= 0 ? (size_t)at : (*n)++] = r;
  }
}

/* The name of a row's implementation (a folder's, or its library's). */
static const char *impl_name(const mh_op *o) {
  if (strncmp(o->backend, "impl:", 5) == 0 || !o->variant || !o->variant[0] ||
      strcmp(o->variant, "c") == 0)
    return strncmp(o->backend, "impl:", 5) == 0 ? o->variant : o->backend;
  return o->variant;
}

/* pqm4's order: by scheme, then implementation. */
static int cmp_row(const void *a, const void *b) {
  const mh_op *x = ((const row *)a)->op[1], *y = ((const row *)b)->op[1];
  int c = strcmp(x->alg, y->alg);
  if (c)
    return c;
  c = strcmp(impl_name(x) ? impl_name(x) : "",
             impl_name(y) ? impl_name(y) : "");
  return c ? c : strcmp(x->backend, y->backend);
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

/* The runs of one set of tables: the same target, compiler, flags and
 * cycle model. */
typedef struct {
  const mh_result **x;
  const char **dir;
  size_t n;
  const char *title; /* the heading, or NULL: the target's */
} group;

static const char *cyc_model(const mh_result *x) {
  return x->run.cyc && x->run.cyc->model ? x->run.cyc->model : "";
}

static int same_str(const char *a, const char *b) {
  return strcmp(a ? a : "", b ? b : "") == 0;
}

static int same_group(const mh_result *a, const mh_result *b) {
  return same_str(a->target, b->target) &&
         same_str(mh_run_prov(&a->run, "compiler"),
                  mh_run_prov(&b->run, "compiler")) &&
         same_str(mh_run_prov(&a->run, "cflags"),
                  mh_run_prov(&b->run, "cflags")) &&
         same_str(cyc_model(a), cyc_model(b)) &&
         same_str(a->run.unit, b->run.unit);
}

/* The heading of a group: the target, compiler, flags, units, and the
 * runs it holds. */
static void group_head(mh_sb *b, const group *g, int cyc, int many) {
  const mh_result *x = g->x[0];
  const char *flags = mh_run_prov(&x->run, "cflags");
  const char *cc = mh_run_prov(&x->run, "compiler");
  const char *unit = x->run.unit ? x->run.unit : "?";
  mh_sb_puts(b, "# ");
  mh_esc_md(b, g->title ? g->title : x->target);
  if (!g->title && g->n == 1 && !many) {
    mh_sb_puts(b, " (profile ");
    mh_esc_md(b, x->profile);
    mh_sb_puts(b, ")");
  }
  mh_sb_puts(b, "\n\nCompiler: ");
  mh_esc_md(b, cc ? cc : "?");
  mh_sb_puts(b, "; flags: ");
  mh_esc_md(b, flags ? flags : "?");
  mh_sb_puts(b, ". Speed ");
  if (cyc) {
    mh_sb_puts(b, "in cycles estimated by the model ");
    mh_esc_md(b, cyc_model(x));
    mh_sb_puts(b, " (an estimate, not a measurement; pqm4's tables are "
                  "cycles), then ");
  }
  mh_sb_puts(b, "in ");
  mh_esc_md(b, unit);
  mh_sb_puts(b, ".\n\n");
  if (!many)
    return;
  mh_sb_puts(b, "Runs (a row given twice is the later one's):\n");
  for (size_t i = 0; i < g->n; i++) {
    mh_sb_puts(b, "- ");
    mh_esc_md(b, g->dir[i]);
    mh_sb_puts(b, ": profile ");
    mh_esc_md(b, g->x[i]->profile);
    const char *src = mh_run_prov(&g->x[i]->run, "source");
    if (src) {
      mh_sb_puts(b, ", source ");
      mh_esc_md(b, src);
    }
    mh_sb_puts(b, "\n");
  }
  mh_sb_puts(b, "\n");
}

/* Whether backend has a row in rows. */
static int has_row(const row *rows, size_t n, const char *backend) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(rows[i].op[1]->backend, backend) == 0)
      return 1;
  return 0;
}

/* The folders of the group's runs that were left out and have no row (a
 * folder measured by another of its runs is not listed), each once. */
static void left_out(mh_sb *b, const group *g, const row *kem, size_t nk,
                     const row *sig, size_t ns) {
  size_t listed = 0;
  for (size_t i = 0; i < g->n; i++)
    for (size_t k = 0; k < g->x[i]->n_impls; k++) {
      const mh_impl_rec *m = &g->x[i]->impls[k];
      if (!m->left_out || has_row(kem, nk, m->backend) ||
          has_row(sig, ns, m->backend))
        continue;
      int seen = 0; /* listed from a later run already? keep the last */
      for (size_t j = i + 1; !seen && j < g->n; j++)
        for (size_t l = 0; !seen && l < g->x[j]->n_impls; l++)
          seen = g->x[j]->impls[l].left_out &&
                 strcmp(g->x[j]->impls[l].backend, m->backend) == 0;
      if (seen)
        continue;
      if (!listed++)
        mh_sb_puts(b, "# Left out\n");
      mh_sb_puts(b, "- ");
      mh_esc_md(b, m->backend);
      mh_sb_puts(b, ": ");
      mh_esc_md(b, m->left_out);
      mh_sb_puts(b, "\n");
    }
  if (listed)
    mh_sb_puts(b, "\n");
}

static void one_group(mh_sb *b, const group *g, int many) {
  size_t cap = 1;
  for (size_t i = 0; i < g->n; i++)
    cap += g->x[i]->run.n_ops;
  row *kem = calloc(cap, sizeof *kem), *sig = calloc(cap, sizeof *sig);
  if (!kem || !sig) {
    free(kem);
    free(sig);
    b->failed = 1;
    return;
  }
  size_t nk = 0, ns = 0;
  int cyc = 1;
  for (size_t i = 0; i < g->n; i++) {
    rows_of(g->x[i], KEM_OPS, kem, &nk);
    rows_of(g->x[i], SIG_OPS, sig, &ns);
    cyc &= cyc_model(g->x[i])[0] != '\0';
  }
  qsort(kem, nk, sizeof *kem, cmp_row);
  qsort(sig, ns, sizeof *sig, cmp_row);
  static const char *const kc[3] = {"key generation", "encapsulation",
                                    "decapsulation"};
  static const char *const sc[3] = {"key generation", "sign", "verify"};
  static const char *const kcm[3] = {"Key Generation", "Encapsulation",
                                     "Decapsulation"};
  static const char *const scm[3] = {"Key Generation", "Sign", "Verify"};
  const char *unit = g->x[0]->run.unit ? g->x[0]->run.unit : "?";
  group_head(b, g, cyc, many);
  mh_sb_puts(b, "# Speed Evaluation\n");
  for (int est = cyc; est >= 0; est--) {
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
  left_out(b, g, kem, nk, sig, ns);
  free(kem);
  free(sig);
}

char *mh_report_pqm4_sets(const mh_results *const *sets,
                          const char *const *dirs, size_t n) {
  size_t total = 0;
  for (size_t i = 0; i < n; i++)
    total += sets[i]->n_runs;
  const mh_result **x = calloc(total + 1, sizeof *x);
  const char **d = calloc(total + 1, sizeof *d);
  unsigned char *done = calloc(total + 1, 1);
  mh_sb b = {0};
  if (!x || !d || !done)
    b.failed = 1;
  for (size_t i = 0, k = 0; !b.failed && i < n; i++)
    for (size_t r = 0; r < sets[i]->n_runs; r++, k++) {
      x[k] = &sets[i]->runs[r];
      d[k] = dirs ? dirs[i] : "";
    }
  /* each group in the order of its first run, its runs in the order given */
  const mh_result **gx = calloc(total + 1, sizeof *gx);
  const char **gd = calloc(total + 1, sizeof *gd);
  for (size_t k = 0; !b.failed && gx && gd && k < total; k++) {
    if (done[k])
      continue;
    group g = {gx, gd, 0, NULL};
    for (size_t j = k; j < total; j++)
      if (!done[j] && same_group(x[k], x[j])) {
        gx[g.n] = x[j];
        gd[g.n++] = d[j];
        done[j] = 1;
      }
    one_group(&b, &g, n > 1);
  }
  if (!gx || !gd)
    b.failed = 1;
  free(gx);
  free(gd);
  free(x);
  free(d);
  free(done);
  if (b.failed) {
    mh_sb_free(&b);
    return NULL;
  }
  return b.s ? b.s : strdup("");
}

char *mh_report_pqm4(const mh_results *r) {
  const mh_results *sets[] = {r};
  return mh_report_pqm4_sets(sets, NULL, 1);
}

void mh_report_pqm4_group(mh_sb *b, const char *title,
                          const mh_result *const *runs, size_t n_runs) {
  const mh_result **x = calloc(n_runs + 1, sizeof *x);
  const char **d = calloc(n_runs + 1, sizeof *d);
  for (size_t i = 0; x && d && i < n_runs; i++) {
    x[i] = runs[i];
    d[i] = "";
  }
  group g = {x, d, n_runs, title};
  if (x && d && n_runs)
    one_group(b, &g, 0);
  else if (!x || !d)
    b->failed = 1;
  free(x);
  free(d);
}
